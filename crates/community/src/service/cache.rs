//! What the [`Feed`](super::feed::Feed) keeps in memory for a few seconds, per process
//! ([`TTL`]): a shared link to the community brings many visitors at once, and each would
//! otherwise cost a handful of queries and a serialisation.
//!
//! - `visitors`: feed pages as signed-out visitors see them, serialised.
//! - `pages`: the same pages before serialisation, with each item also serialised, which
//!   signed-in viewers see with their own votes and e-mail and the current scores laid over
//!   them (see [`Feed::page`](super::feed::Feed::page)): an item the overlay leaves as it
//!   was is sent as its kept bytes.
//! - `totals`: each period's count of visible setups (the feed's pagination total), kept
//!   [`TOTALS_TTL`]. Counting costs a scan of the period's index entries: about 1 ms at
//!   10k setups on SQLite, 80 ms at a million on PostgreSQL, made by one request while
//!   the others are served the previous count. A viewer's total subtracts the setups they
//!   reported.
//! - `leaderboards`: each period's ranking, without e-mails (the handler adds the
//!   viewer's own): ranking every user of a period costs about 12 ms at 10k setups.
//!
//! A change to the content recorded in [`FeedChanges`] (a post, an edit, a deletion, a
//! setup hidden or shown) clears everything on its replica; a vote clears the leaderboards;
//! votes reach visitors' pages within [`TTL`], and signed-in viewers see current scores at
//! once (only the order may be [`TTL`] old).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use actix_web::web::Bytes;
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::ttl_cache::TtlCache;

use super::feed::{KeptPage, Period, Sort};
use super::leaderboard::Leader;

pub const TTL: Duration = Duration::from_secs(3);
/// Posts and deletions on this replica clear the totals at once; what they miss (another
/// replica's posts, setups hidden by reports) is caught up within this time.
pub const TOTALS_TTL: Duration = Duration::from_secs(30);
pub const MAX_ENTRIES: usize = 1_000;

/// One page of the visitors' feed.
pub type FeedKey = (Period, Sort, i64, i64);
/// A period and a length.
pub type BoardKey = (Period, i64);

/// What the feed keeps in memory, shared by every worker of a process.
#[derive(Debug)]
pub struct FeedCache {
    pub visitors: TtlCache<FeedKey, Bytes>,
    pub pages: TtlCache<FeedKey, Arc<KeptPage>>,
    pub totals: TtlCache<Period, i64>,
    pub leaderboards: TtlCache<BoardKey, Arc<Vec<Leader>>>,
    /// The [`FeedChanges`] counts the kept values were made under.
    content_seen: AtomicU64,
    votes_seen: AtomicU64,
}

impl Default for FeedCache {
    fn default() -> Self {
        Self {
            visitors: TtlCache::new(TTL, MAX_ENTRIES),
            pages: TtlCache::new(TTL, MAX_ENTRIES),
            totals: TtlCache::new(TOTALS_TTL, MAX_ENTRIES),
            leaderboards: TtlCache::new(TTL, MAX_ENTRIES),
            content_seen: AtomicU64::new(0),
            votes_seen: AtomicU64::new(0),
        }
    }
}

impl FeedCache {
    /// Forgets what the changes recorded since the last call made out of date: everything
    /// after a change to the content, the leaderboards after a vote. A value being made
    /// while it clears is not kept (see [`TtlCache::clear`]).
    pub fn catch_up(&self, changes: &FeedChanges) {
        let content = changes.content();
        if self.content_seen.swap(content, Ordering::AcqRel) != content {
            self.visitors.clear();
            self.pages.clear();
            self.totals.clear();
            self.leaderboards.clear();
        }
        let votes = changes.votes();
        if self.votes_seen.swap(votes, Ordering::AcqRel) != votes {
            self.leaderboards.clear();
        }
    }
}
