//! What tells the community feed that what it keeps is out of date: a count of the changes
//! to the community's content (a setup published, edited, deleted, hidden or shown again,
//! an account or an analysis deleted with its post) and one of votes, kept per process.
//!
//! Whoever writes such a change records it after its transaction commits; the feed reads
//! the counts on every request and forgets what it kept before a change. The counts live
//! here, not in the community crate, because accounts and analyses (which the community
//! builds on, not the other way round) delete posts too.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The process's counts of changes; clones share them.
#[derive(Debug, Clone, Default)]
pub struct FeedChanges(Arc<Counts>);

#[derive(Debug, Default)]
struct Counts {
    content: AtomicU64,
    votes: AtomicU64,
}

impl FeedChanges {
    /// Setups came, went or changed: every kept page, count and ranking is out of date.
    pub fn content_changed(&self) {
        self.0.content.fetch_add(1, Ordering::AcqRel);
    }

    /// A vote moved a score: the rankings are out of date (kept pages show scores read
    /// per request, and their order may lag a few seconds).
    pub fn votes_changed(&self) {
        self.0.votes.fetch_add(1, Ordering::AcqRel);
    }

    /// How many content changes this process has seen.
    pub fn content(&self) -> u64 {
        self.0.content.load(Ordering::Acquire)
    }

    /// How many vote changes this process has seen.
    pub fn votes(&self) -> u64 {
        self.0.votes.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_counts() {
        let changes = FeedChanges::default();
        let seen_by_the_feed = changes.clone();
        changes.content_changed();
        changes.votes_changed();
        changes.votes_changed();
        assert_eq!((seen_by_the_feed.content(), seen_by_the_feed.votes()), (1, 2));
    }
}
