//! Whether the links on live RigPages still lead somewhere: each enabled link is checked
//! about once a day (by the admin crate's link checker, which visits it the way a visitor's
//! browser would), and a link that fails twice in a row is marked dead and its owner told once
//! (the caller files the notification). The editor shows which links are dead; changing a
//! link's address forgets what the checks saw of it.
//!
//! A link is claimed before it is checked (its `checked_at` set to now), so two processes
//! never check it at once, and a result is recorded only while the link still has the
//! address that was checked.

use chrono::{DateTime, Duration, Utc};
use setupiq_core::{LinkId, UserId};
use setupiq_db::{DbConnection, DieselError};

pub use crate::models::LinkHealth;
use crate::repo;

/// How long a check holds; a link is checked again after it.
pub const RECHECK_AFTER: Duration = Duration::hours(24);
/// Failed checks in a row that make a link dead: one bad minute of a site is not enough.
pub const FAILURES_TO_DEAD: i32 = 2;

/// A link to check, claimed by this process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueLink {
    pub link_id: LinkId,
    pub url: String,
}

/// Claims up to `limit` links that are due (enabled, on a live page, not checked within
/// [`RECHECK_AFTER`]), the longest unchecked first.
pub fn claim_due(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<DueLink>, DieselError> {
    let before = (now - RECHECK_AFTER).naive_utc();
    let mut claimed = Vec::new();
    for (link_id, url) in repo::links_due(conn, before, limit)? {
        if repo::claim_link(conn, link_id, before, now.naive_utc())? == 1 {
            claimed.push(DueLink { link_id, url });
        }
    }
    Ok(claimed)
}

/// What one check says about a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    /// It answered with a page.
    Healthy,
    /// It answered with an error, timed out, or points where nobody may go.
    Failed,
    /// The check could not tell (a bot wall, the site unreachable from the server).
    Unknown,
}

/// A link that a check has just found dead (the failure that made it so, never again until
/// it recovers or its address changes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WentDead {
    pub owner_id: UserId,
    pub link_id: LinkId,
    pub label: String,
}

/// Records a check of `link.url`. Nothing changes when the link is gone or its address
/// changed during the check.
pub fn record(
    conn: &mut DbConnection,
    link: &DueLink,
    checked: Checked,
) -> Result<Option<WentDead>, DieselError> {
    let Some((owner_id, label, health, failures)) = repo::link_state(conn, link.link_id, &link.url)? else {
        return Ok(None);
    };
    let (new_health, new_failures) = after_check(health, failures, checked);
    repo::set_link_health(conn, link.link_id, new_health, new_failures)?;
    let went_dead = new_health == LinkHealth::Dead && health != LinkHealth::Dead;
    Ok(went_dead.then_some(WentDead { owner_id, link_id: link.link_id, label }))
}

/// A link's health and failures in a row after a check, from what they were: a page heals
/// it, the [`FAILURES_TO_DEAD`]th failure in a row makes it dead, and "unknown" leaves a
/// dead link dead. The one judgement of every link the daily check visits (a post's
/// gear links too).
pub fn after_check(health: LinkHealth, failures: i32, checked: Checked) -> (LinkHealth, i32) {
    match checked {
        Checked::Healthy => (LinkHealth::Healthy, 0),
        // A link already dead stays dead: "unknown" says nothing new about it.
        Checked::Unknown if health == LinkHealth::Dead => (LinkHealth::Dead, failures),
        Checked::Unknown => (LinkHealth::Unknown, failures),
        Checked::Failed if failures + 1 >= FAILURES_TO_DEAD => (LinkHealth::Dead, failures + 1),
        Checked::Failed => (LinkHealth::Unknown, failures + 1),
    }
}
