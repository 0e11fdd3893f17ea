//! Rendered public pages, kept for a few seconds: a page shared on TikTok is opened by
//! many phones at once, and each must not cost three queries and a render.
//!
//! A save drops its page at once on the replica that made it; other replicas see it within
//! [`TTL`]. Unknown slugs are kept too (as none), so a burst of visits to a dead link
//! stays cheap, and so does a renamed page's old address (its redirect is kept). The map is cleared when it grows past [`MAX_ENTRIES`].

use std::sync::Arc;
use std::time::Duration;

use setupiq_core::UserId;
use setupiq_core::ttl_cache::TtlCache;

/// How long a rendered page is served before it is read again.
pub const TTL: Duration = Duration::from_secs(5);
pub const MAX_ENTRIES: usize = 10_000;

/// What `/rig/{slug}` answers.
#[derive(Debug)]
pub enum Served {
    /// The page, rendered.
    Page { owner_id: UserId, html: String },
    /// A renamed page's old address: the slug it has now (301).
    MovedTo(String),
}

/// Answers by slug key; none for a slug with no public page and no redirect.
pub type PageCache = TtlCache<String, Option<Arc<Served>>>;

pub fn page_cache() -> PageCache {
    TtlCache::new(TTL, MAX_ENTRIES)
}
