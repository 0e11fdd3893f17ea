//! The feed as visitors (signed out) see it, kept for a few seconds: a shared link to the
//! community brings many visitors at once, and each would otherwise cost a handful of
//! queries and a serialisation. Signed-in viewers are never served from here (their votes
//! and reports shape their page). A post, an edit or a deletion clears it on the replica
//! that made it; votes and reports show to visitors within [`TTL`]. The map is cleared when
//! it grows past [`MAX_ENTRIES`].

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::feed::{Period, Sort};

pub const TTL: Duration = Duration::from_secs(3);
pub const MAX_ENTRIES: usize = 1_000;

/// One page of the visitors' feed.
pub type FeedKey = (Period, Sort, i64, i64);

#[derive(Debug, Default)]
pub struct VisitorFeed {
    pages: Mutex<HashMap<FeedKey, (Instant, actix_web::web::Bytes)>>,
}

impl VisitorFeed {
    /// The page's JSON, unless stale or absent.
    pub fn get(&self, key: FeedKey) -> Option<actix_web::web::Bytes> {
        let pages = self.pages.lock().unwrap_or_else(PoisonError::into_inner);
        pages.get(&key).filter(|(at, _)| at.elapsed() < TTL).map(|(_, json)| json.clone())
    }

    pub fn put(&self, key: FeedKey, json: actix_web::web::Bytes) {
        let mut pages = self.pages.lock().unwrap_or_else(PoisonError::into_inner);
        if pages.len() >= MAX_ENTRIES {
            pages.clear();
        }
        pages.insert(key, (Instant::now(), json));
    }
}

impl VisitorFeed {
    /// Forgets every page (after a post, an edit or a deletion).
    pub fn clear(&self) {
        self.pages.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}
