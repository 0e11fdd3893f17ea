//! What the community keeps in memory for a few seconds, per process ([`TTL`]): a shared
//! link to the community brings many visitors at once, and each would otherwise cost a
//! handful of queries and a serialisation.
//!
//! - `visitors`: feed pages as signed-out visitors see them, whole. Signed-in viewers are
//!   never served from here (their votes and reports shape their page).
//! - `totals`: each period's count of visible setups (the feed's pagination total).
//!   Counting costs a scan of the period's index entries: about 1 ms at 10k setups on
//!   SQLite, far more at a million. A viewer's total subtracts the setups they reported.
//! - `leaderboards`: each period's ranking, without e-mails (the handler adds the
//!   viewer's own): ranking every user of a period costs about 12 ms at 10k setups.
//!
//! A post, an edit or a deletion clears everything on its replica; a vote clears the
//! leaderboards; votes and reports reach visitors' pages within [`TTL`].

use std::sync::Arc;
use std::time::Duration;

use actix_web::web::Bytes;
use setupiq_core::ttl_cache::TtlCache;

use super::feed::{Leader, Period, Sort};

pub const TTL: Duration = Duration::from_secs(3);
pub const MAX_ENTRIES: usize = 1_000;

/// One page of the visitors' feed.
pub type FeedKey = (Period, Sort, i64, i64);
/// A period and a length.
pub type BoardKey = (Period, i64);

/// What the feed keeps in memory, shared by every worker of a process.
#[derive(Debug)]
pub struct FeedCache {
    pub visitors: TtlCache<FeedKey, Bytes>,
    pub totals: TtlCache<Period, i64>,
    pub leaderboards: TtlCache<BoardKey, Arc<Vec<Leader>>>,
}

impl Default for FeedCache {
    fn default() -> Self {
        Self {
            visitors: TtlCache::new(TTL, MAX_ENTRIES),
            totals: TtlCache::new(TTL, MAX_ENTRIES),
            leaderboards: TtlCache::new(TTL, MAX_ENTRIES),
        }
    }
}

impl FeedCache {
    /// Forgets everything (after a post, an edit or a deletion).
    pub fn clear(&self) {
        self.visitors.clear();
        self.totals.clear();
        self.leaderboards.clear();
    }
}
