//! The rules of RigPage: the config and its charges ([`config`]), the looks ([`themes`]),
//! uploads ([`images`]), the public page ([`public`]) with its short-lived cache
//! ([`cache`]), the creator's analytics ([`visits`]), whether their links still work
//! ([`link_health`]) and the page's QR code ([`qr`]).

pub mod cache;
pub mod config;
pub mod images;
pub mod link_health;
pub mod public;
pub mod qr;
pub mod themes;
pub mod visits;

use std::sync::atomic::{AtomicU64, Ordering};

use setupiq_core::feed_changes::FeedChanges;

/// What the public pages keep in memory, shared by every worker of a process: rendered
/// pages for a few seconds, and visitors' counts until the next flush.
#[derive(Debug)]
pub struct PublicPages {
    pub cache: cache::PageCache,
    pub visits: visits::Visits,
    /// The feed's count of content changes when the kept pages were last read.
    seen_changes: AtomicU64,
}

impl Default for PublicPages {
    fn default() -> Self {
        Self {
            cache: cache::page_cache(),
            visits: visits::Visits::default(),
            seen_changes: AtomicU64::new(0),
        }
    }
}

impl PublicPages {
    /// The kept pages, emptied first when the feed's changes counted a content change since
    /// they were last read: a deleted analysis or account takes a page's showcased setup, or
    /// the page, with it, and its page is read again at once on this replica.
    pub fn kept(&self, changes: &FeedChanges) -> &cache::PageCache {
        let now = changes.content();
        if self.seen_changes.swap(now, Ordering::AcqRel) != now {
            self.cache.clear();
        }
        &self.cache
    }
}
