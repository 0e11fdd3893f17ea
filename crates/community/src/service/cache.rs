//! The feed as visitors (signed out) see it, kept for a few seconds: a shared link to the
//! community brings many visitors at once, and each would otherwise cost a handful of
//! queries and a serialisation. Signed-in viewers are never served from here (their votes
//! and reports shape their page). A post, an edit or a deletion clears it on the replica
//! that made it; votes and reports show to visitors within [`TTL`]. The map is cleared when
//! it grows past [`MAX_ENTRIES`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::feed::{Leader, Period, Sort};

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

/// How many setups each period shows to everyone, kept for [`TTL`] (the feed's pagination
/// total). Counting every visible setup costs a scan of the period's index entries on each
/// request otherwise: about 1 ms at 10k setups on SQLite, far more at a million. A
/// viewer's own total subtracts the setups they reported (a small join).
#[derive(Debug, Default)]
pub struct FeedTotals {
    counts: Mutex<HashMap<Period, (Instant, i64)>>,
}

impl FeedTotals {
    /// The period's count, from the cache or from `count`.
    pub fn get_or<E>(&self, period: Period, count: impl FnOnce() -> Result<i64, E>) -> Result<i64, E> {
        if let Some((at, total)) =
            self.counts.lock().unwrap_or_else(PoisonError::into_inner).get(&period).copied()
            && at.elapsed() < TTL
        {
            return Ok(total);
        }
        let total = count()?;
        self.counts.lock().unwrap_or_else(PoisonError::into_inner).insert(period, (Instant::now(), total));
        Ok(total)
    }

    /// Forgets every count (after a post or a deletion).
    pub fn clear(&self) {
        self.counts.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

/// The leaderboards of each period and length, kept for [`TTL`] without any e-mail (the
/// handler adds the viewer's own) and dropped by every vote: ranking every user of a
/// period costs about 20 ms at 10k setups on SQLite.
/// A period and a length.
pub type BoardKey = (Period, i64);
/// A ranking and when it was made.
type Board = (Instant, Arc<Vec<Leader>>);

#[derive(Debug, Default)]
pub struct Leaderboards {
    boards: Mutex<HashMap<BoardKey, Board>>,
}

impl Leaderboards {
    pub fn get(&self, key: BoardKey) -> Option<Arc<Vec<Leader>>> {
        let boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        boards.get(&key).filter(|(at, _)| at.elapsed() < TTL).map(|(_, board)| board.clone())
    }

    pub fn put(&self, key: BoardKey, board: Arc<Vec<Leader>>) {
        let mut boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        if boards.len() >= MAX_ENTRIES {
            boards.clear();
        }
        boards.insert(key, (Instant::now(), board));
    }

    pub fn clear(&self) {
        self.boards.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

/// What the feed keeps in memory, shared by every worker of a process.
#[derive(Debug, Default)]
pub struct FeedCache {
    pub visitors: VisitorFeed,
    pub totals: FeedTotals,
    pub leaderboards: Leaderboards,
}

impl FeedCache {
    /// Forgets everything (after a post, an edit or a deletion).
    pub fn clear(&self) {
        self.visitors.clear();
        self.totals.clear();
        self.leaderboards.clear();
    }
}
