//! Rendered public pages, kept for a few seconds: a page shared on TikTok is opened by
//! many phones at once, and each must not cost three queries and a render.
//!
//! A save drops its page at once on the replica that made it; other replicas see it within
//! [`TTL`]. Unknown slugs are kept too (as none), so a burst of visits to a dead link
//! stays cheap. The map is cleared when it grows past [`MAX_ENTRIES`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a rendered page is served before it is read again.
pub const TTL: Duration = Duration::from_secs(5);
pub const MAX_ENTRIES: usize = 10_000;

/// A page as served.
#[derive(Debug)]
pub struct RenderedPage {
    pub owner_id: i64,
    pub html: String,
}

/// A slug's page (none: not found) and when it was rendered.
type Entry = (Instant, Option<Arc<RenderedPage>>);

#[derive(Debug, Default)]
pub struct PageCache {
    entries: Mutex<HashMap<String, Entry>>,
}

impl PageCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The cached page of `slug_key` (none when it was not found), unless stale or absent.
    pub fn get(&self, slug_key: &str) -> Option<Option<Arc<RenderedPage>>> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.get(slug_key).filter(|(at, _)| at.elapsed() < TTL).map(|(_, page)| page.clone())
    }

    pub fn put(&self, slug_key: String, page: Option<Arc<RenderedPage>>) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(slug_key, (Instant::now(), page));
    }

    /// Drops a page (after a save changed it or its slug).
    pub fn forget(&self, slug_key: &str) {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner).remove(slug_key);
    }
}
