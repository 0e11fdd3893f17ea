//! A small in-process map whose entries are served for a fixed time: what a replica keeps
//! of pages and counts that many requests ask for at once (a shared RigPage, the community
//! feed). Every process has its own; a replica sees another's changes within the TTL.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct TtlCache<K, V> {
    ttl: Duration,
    /// When the map reaches this many entries it is cleared (a burst of distinct keys
    /// cannot grow it without bound).
    max_entries: usize,
    entries: Mutex<HashMap<K, (Instant, V)>>,
}

impl<K: Eq + Hash, V: Clone> TtlCache<K, V> {
    pub fn new(ttl: Duration, max_entries: usize) -> Self {
        Self { ttl, max_entries, entries: Mutex::new(HashMap::new()) }
    }

    /// The value of `key`, unless absent or older than the TTL.
    pub fn get(&self, key: &K) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.get(key).filter(|(at, _)| at.elapsed() < self.ttl).map(|(_, value)| value.clone())
    }

    pub fn put(&self, key: K, value: V) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= self.max_entries {
            entries.clear();
        }
        entries.insert(key, (Instant::now(), value));
    }

    /// The value of `key`, from the cache or made by `make` (and kept).
    pub fn get_or<E>(&self, key: K, make: impl FnOnce() -> Result<V, E>) -> Result<V, E> {
        if let Some(value) = self.get(&key) {
            return Ok(value);
        }
        let value = make()?;
        self.put(key, value.clone());
        Ok(value)
    }

    pub fn forget(&self, key: &K) {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner).remove(key);
    }

    pub fn clear(&self) {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_and_the_map_stays_bounded() {
        let cache = TtlCache::new(Duration::from_millis(0), 10);
        cache.put("a", 1);
        assert_eq!(cache.get(&"a"), None, "a zero TTL serves nothing");
        let cache = TtlCache::new(Duration::from_secs(60), 2);
        cache.put("a", 1);
        cache.put("b", 2);
        assert_eq!(cache.get(&"b"), Some(2));
        cache.put("c", 3);
        assert_eq!((cache.get(&"a"), cache.get(&"c")), (None, Some(3)), "full: cleared, then kept");
        assert_eq!(cache.get_or("c", || Err::<i32, ()>(())), Ok(3));
        assert_eq!(cache.get_or("d", || Ok::<_, ()>(4)), Ok(4));
        cache.forget(&"d");
        assert_eq!(cache.get(&"d"), None);
    }
}
