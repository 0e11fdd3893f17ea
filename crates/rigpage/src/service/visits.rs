//! The creator's analytics: visitors' page views and link clicks per UTC day, never the
//! owner's own visits or known bots.
//!
//! A view must not cost a database write on the page's hot path, so counts gather in
//! memory ([`Visits`]) and are added to the database in one transaction by [`Visits::flush`]:
//! every few seconds by the server's flusher, at shutdown, and before the stats are read.
//! Several replicas each add their own counts (the columns are sums), so nothing is lost
//! or counted twice; what a replica holds is at most one flush interval old.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use setupiq_core::{LinkId, UserId};
use setupiq_db::{DbConnection, write_transaction};

use crate::error::RigpageError;
use crate::repo;

/// The days the editor's analytics cover (today included).
pub const STATS_DAYS: i64 = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Counter {
    View { owner_id: UserId, day: NaiveDate },
    Click { link_id: LinkId, day: NaiveDate },
}

/// Counts not yet in the database (one per process, shared by its workers).
#[derive(Debug, Default)]
pub struct Visits {
    pending: Mutex<HashMap<Counter, i32>>,
}

impl Visits {
    pub fn new() -> Self {
        Self::default()
    }

    /// A visitor saw the page of `owner_id`.
    pub fn count_view(&self, owner_id: UserId, now: DateTime<Utc>) {
        self.add(Counter::View { owner_id, day: now.date_naive() }, 1);
    }

    /// A visitor followed the link `link_id`.
    pub fn count_click(&self, link_id: LinkId, now: DateTime<Utc>) {
        self.add(Counter::Click { link_id, day: now.date_naive() }, 1);
    }

    fn add(&self, counter: Counter, n: i32) {
        let mut pending = self.pending.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = pending.entry(counter).or_insert(0);
        *count = count.saturating_add(n);
    }

    /// Adds the gathered counts to the database in one transaction; on failure they are
    /// kept for the next flush. Returns how many counters were written.
    pub fn flush(&self, conn: &mut DbConnection) -> Result<usize, RigpageError> {
        let taken =
            std::mem::take(&mut *self.pending.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        if taken.is_empty() {
            return Ok(0);
        }
        let written = write_transaction(conn, |conn| {
            for (counter, n) in &taken {
                match *counter {
                    Counter::View { owner_id, day } => repo::add_views(conn, owner_id, day, *n)?,
                    Counter::Click { link_id, day } => repo::add_clicks(conn, link_id, day, *n)?,
                };
            }
            Ok::<_, RigpageError>(taken.len())
        });
        if written.is_err() {
            for (counter, n) in taken {
                self.add(counter, n);
            }
        }
        written
    }
}

/// A link's clicks in the period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkClicks {
    pub link_id: LinkId,
    pub label: String,
    pub clicks: i64,
}

/// One day of the period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Day {
    pub date: NaiveDate,
    pub views: i64,
    pub clicks: i64,
}

/// The creator's analytics over the last [`STATS_DAYS`] days.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    pub views: i64,
    pub clicks: i64,
    /// Clicks per view, 0-1 (0 without views).
    pub click_through_rate: f64,
    /// Every current link with its clicks, most clicked first.
    pub links: Vec<LinkClicks>,
    /// Every day of the period, oldest first.
    pub days: Vec<Day>,
}

impl Stats {
    /// The most clicked link, if any was clicked.
    pub fn top_link(&self) -> Option<&LinkClicks> {
        self.links.first().filter(|l| l.clicks > 0)
    }
}

/// The user's views and clicks of the last [`STATS_DAYS`] days (flush [`Visits`] first).
pub fn stats(conn: &mut DbConnection, user_id: UserId, now: DateTime<Utc>) -> Result<Stats, RigpageError> {
    let today = now.date_naive();
    let first = today - Duration::days(STATS_DAYS - 1);
    let mut days: Vec<Day> =
        (0..STATS_DAYS).map(|i| Day { date: first + Duration::days(i), views: 0, clicks: 0 }).collect();
    let period = days.len();
    let index = |date: NaiveDate| usize::try_from((date - first).num_days()).ok().filter(|i| *i < period);
    for count in repo::views_since(conn, user_id, first)? {
        if let Some(i) = index(count.day) {
            days[i].views += i64::from(count.count);
        }
    }
    let mut links: Vec<LinkClicks> = repo::links_of(conn, user_id)?
        .into_iter()
        .map(|l| LinkClicks { link_id: l.id, label: l.label, clicks: 0 })
        .collect();
    for (link_id, count) in repo::clicks_since(conn, user_id, first)? {
        if let Some(i) = index(count.day) {
            days[i].clicks += i64::from(count.count);
        }
        if let Some(link) = links.iter_mut().find(|l| l.link_id == link_id) {
            link.clicks += i64::from(count.count);
        }
    }
    links.sort_by_key(|l| std::cmp::Reverse(l.clicks));
    let views: i64 = days.iter().map(|d| d.views).sum();
    let clicks: i64 = days.iter().map(|d| d.clicks).sum();
    #[allow(clippy::cast_precision_loss)] // counts far below 2^52
    let click_through_rate = if views > 0 { clicks as f64 / views as f64 } else { 0.0 };
    Ok(Stats { views, clicks, click_through_rate, links, days })
}
