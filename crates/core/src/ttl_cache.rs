//! A small in-process map whose entries are served for a fixed time: what a replica keeps
//! of pages and counts that many requests ask for at once (a shared RigPage, the community
//! feed). Every process has its own; a replica sees another's changes within the TTL.
//!
//! [`TtlCache::get_or`] makes a value once however many callers want it at the same time:
//! when an entry expires, the first caller makes the new value and the others are served
//! the expired one meanwhile (stale while revalidating), so a slow value (a count over a
//! million rows) never holds up more than the one request that makes it. When there is
//! nothing to serve (the first time, or after [`TtlCache::clear`]) the others wait for it.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct TtlCache<K, V> {
    ttl: Duration,
    /// When the map reaches this many entries it is cleared (a burst of distinct keys
    /// cannot grow it without bound).
    max_entries: usize,
    state: Mutex<State<K, V>>,
    /// Woken whenever a caller of `get_or` finishes making a value.
    made: Condvar,
}

#[derive(Debug)]
struct State<K, V> {
    entries: HashMap<K, Entry<V>>,
    /// Numbers each claim to make a value, so a value made before a `clear` or `forget`
    /// is never kept after it.
    next_claim: u64,
}

#[derive(Debug)]
struct Entry<V> {
    /// The value and when it was made.
    value: Option<(Instant, V)>,
    /// The caller making a new value: its claim number and since when.
    making: Option<(u64, Instant)>,
}

impl<K: Eq + Hash + Clone, V: Clone> TtlCache<K, V> {
    pub fn new(ttl: Duration, max_entries: usize) -> Self {
        Self {
            ttl,
            max_entries,
            state: Mutex::new(State { entries: HashMap::new(), next_claim: 0 }),
            made: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<K, V>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value of `key` if it is younger than the TTL, or older while another caller
    /// makes its replacement; none otherwise.
    pub fn get(&self, key: &K) -> Option<V> {
        self.lock().entries.get(key).and_then(|entry| self.servable(entry)).cloned()
    }

    fn servable<'a>(&self, entry: &'a Entry<V>) -> Option<&'a V> {
        let (made_at, value) = entry.value.as_ref()?;
        (made_at.elapsed() < self.ttl || self.is_being_made(entry)).then_some(value)
    }

    /// A claim to make a value lasts one TTL: a caller that never finishes (it panicked)
    /// holds no one up for longer.
    fn is_being_made(&self, entry: &Entry<V>) -> bool {
        entry.making.is_some_and(|(_, since)| since.elapsed() < self.ttl)
    }

    pub fn put(&self, key: K, value: V) {
        let mut state = self.lock();
        self.bound(&mut state, &key);
        let entry = state.entries.entry(key).or_insert(Entry { value: None, making: None });
        entry.value = Some((Instant::now(), value));
    }

    fn bound(&self, state: &mut State<K, V>, key: &K) {
        if state.entries.len() >= self.max_entries && !state.entries.contains_key(key) {
            state.entries.clear();
        }
    }

    /// The value of `key`: kept, or made by `make` and kept. Made by one caller at a time
    /// (see the module's documentation); an error is returned to that caller and nothing is
    /// kept.
    pub fn get_or<E>(&self, key: K, make: impl FnOnce() -> Result<V, E>) -> Result<V, E> {
        let mut state = self.lock();
        let claim = loop {
            let wait = match state.entries.get(&key) {
                Some(entry) => {
                    if let Some(value) = self.servable(entry) {
                        return Ok(value.clone());
                    }
                    entry.making.filter(|_| self.is_being_made(entry)).map(|(_, since)| since)
                }
                None => None,
            };
            match wait {
                // Nothing to serve yet: wait for the caller making it (at most its claim).
                Some(since) => {
                    let left = self.ttl.saturating_sub(since.elapsed());
                    state = self.made.wait_timeout(state, left).unwrap_or_else(PoisonError::into_inner).0;
                }
                None => {
                    self.bound(&mut state, &key);
                    let claim = state.next_claim;
                    state.next_claim += 1;
                    state.entries.entry(key.clone()).or_insert(Entry { value: None, making: None }).making =
                        Some((claim, Instant::now()));
                    break claim;
                }
            }
        };
        drop(state);

        let made = make();
        let mut state = self.lock();
        if let Some(entry) = state.entries.get_mut(&key)
            && entry.making.is_some_and(|(number, _)| number == claim)
        {
            entry.making = None;
            if let Ok(value) = &made {
                entry.value = Some((Instant::now(), value.clone()));
            }
        }
        drop(state);
        self.made.notify_all();
        made
    }

    pub fn forget(&self, key: &K) {
        self.lock().entries.remove(key);
        self.made.notify_all();
    }

    /// Forgets every value; one being made now is not kept.
    pub fn clear(&self) {
        self.lock().entries.clear();
        self.made.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

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
        assert_eq!(cache.get_or("e", || Err::<i32, &str>("down")), Err("down"));
        assert_eq!(cache.get_or("e", || Ok::<_, ()>(5)), Ok(5), "an error is not kept");
    }

    /// Runs `get_or` on another thread with a maker that reports it started, then waits
    /// for `release` before answering `value`.
    fn slow_maker(
        cache: &Arc<TtlCache<&'static str, i32>>,
        value: i32,
    ) -> (mpsc::Receiver<()>, mpsc::Sender<()>, std::thread::JoinHandle<i32>) {
        let (started_tx, started) = mpsc::channel();
        let (release, release_rx) = mpsc::channel::<()>();
        let cache = cache.clone();
        let handle = std::thread::spawn(move || {
            cache
                .get_or("k", || {
                    started_tx.send(()).unwrap();
                    release_rx.recv().unwrap();
                    Ok::<_, ()>(value)
                })
                .unwrap()
        });
        (started, release, handle)
    }

    #[test]
    fn an_expired_value_is_served_while_one_caller_makes_the_next() {
        let cache = Arc::new(TtlCache::new(Duration::from_millis(300), 10));
        cache.put("k", 1);
        std::thread::sleep(Duration::from_millis(350)); // the value's TTL runs out
        assert_eq!(cache.get(&"k"), None, "expired, and no one is making the next");

        let (started, release, maker) = slow_maker(&cache, 2);
        started.recv().unwrap();
        let makes = AtomicUsize::new(0);
        let served = cache.get_or("k", || {
            makes.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ()>(3)
        });
        assert_eq!(served, Ok(1), "the expired value, at once");
        assert_eq!(cache.get(&"k"), Some(1));
        assert_eq!(makes.load(Ordering::SeqCst), 0, "made once, by the first caller");
        release.send(()).unwrap();
        assert_eq!(maker.join().unwrap(), 2);
        assert_eq!(cache.get(&"k"), Some(2));
    }

    #[test]
    fn with_nothing_to_serve_callers_wait_for_the_one_value_and_a_clear_discards_it() {
        let cache = Arc::new(TtlCache::new(Duration::from_secs(60), 10));
        let (started, release, maker) = slow_maker(&cache, 7);
        started.recv().unwrap();
        let waiter = {
            let cache = cache.clone();
            std::thread::spawn(move || cache.get_or("k", || Ok::<_, ()>(8)).unwrap())
        };
        release.send(()).unwrap();
        assert_eq!((maker.join().unwrap(), waiter.join().unwrap()), (7, 7), "one value for both");

        // A value made from what a clear declared outdated is returned but not kept.
        cache.clear();
        let (started, release, maker) = slow_maker(&cache, 9);
        started.recv().unwrap();
        cache.clear();
        release.send(()).unwrap();
        assert_eq!(maker.join().unwrap(), 9);
        assert_eq!(cache.get(&"k"), None);
    }
}
