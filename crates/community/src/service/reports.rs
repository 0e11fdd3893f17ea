//! Reports: one per user and setup (a repeat changes nothing), anonymous to the uploader,
//! filed only by members whose address is verified (DESIGN.md §5, "who may act"): each one
//! costs an admin's time, so accounts nobody owns do not get to file them.
//! The reporter no longer sees the setup, and every report reaches the admins' queue. A
//! setup is hidden from everyone, until an admin reviews it, once [`HIDE_AT_OPEN_REPORTS`]
//! open reports *that weigh* are filed against it (DESIGN.md §5, "reports that hide"): a
//! report weighs when its reporter is established (a verified address, an account at least
//! 24 hours old: `auth`'s rule) and has saved an analysis (`analysis`' rule). Three
//! accounts made a minute ago can no longer hide anyone's post.
//!
//! Comments are reported the same way ([`report_comment`]: the same reasons, one report per
//! user and comment) into the queue's own list; a reported comment stays until an admin
//! removes it.
//!
//! A user files at most [`DAILY_REPORT_LIMIT`] reports a UTC day, and a network (the
//! sign-up key: an IPv4 address or an IPv6 /64) at most [`DAILY_REPORTS_PER_ADDRESS`], so
//! many accounts behind one address cannot flood the queue either; reports of setups and of
//! comments count together.

use chrono::{DateTime, Utc};
use setupiq_auth::Account;
use setupiq_auth::service::{accounts, ledger, signups};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::{CommentId, SetupId, UserId};
use setupiq_db::{DbConnection, write_transaction};

use super::{until_tomorrow, utc_day};
use crate::error::CommunityError;
use crate::models::{CommentReportInsertForm, ReportInsertForm};
pub use crate::models::{ReportReason, ReportStatus};
use crate::repo;

pub const HIDE_AT_OPEN_REPORTS: i32 = 3;
pub const DAILY_REPORT_LIMIT: i64 = 20;
/// Reports a network may file a UTC day, all its accounts together: a household or an
/// office has room, a farm of accounts behind one address does not.
pub const DAILY_REPORTS_PER_ADDRESS: i64 = 20;

/// What a report did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported {
    /// False for a repeat of this user's earlier report (nothing counted).
    pub counted: bool,
    /// The setup is hidden from everyone now (pending review).
    pub hidden: bool,
}

/// A report as filed: why, and from where.
#[derive(Debug, Clone, Copy)]
pub struct NewReport<'a> {
    pub reason: ReportReason,
    pub details: Option<&'a str>,
    /// The client's IP address, when known (capped per network and day).
    pub ip: Option<&'a str>,
}

impl<'a> NewReport<'a> {
    /// A report without a known address (service callers and tests).
    pub fn new(reason: ReportReason, details: Option<&'a str>) -> Self {
        Self { reason, details, ip: None }
    }
}

/// Whether `user_id`'s reports weigh towards hiding a setup: an established account
/// (verified address, at least a day old) that has saved an analysis.
pub fn weighs(conn: &mut DbConnection, user_id: UserId, now: DateTime<Utc>) -> Result<bool, CommunityError> {
    Ok(accounts::is_established(conn, user_id, now)? && setupiq_analysis::service::has_any(conn, user_id)?)
}

/// Files `reporter`'s report of a setup (a verified address needed).
pub fn report(
    conn: &mut DbConnection,
    reporter: &Account,
    setup_id: SetupId,
    new: NewReport<'_>,
    now: DateTime<Utc>,
    changes: &FeedChanges,
) -> Result<Reported, CommunityError> {
    let reporter_id = verified_reporter(reporter)?;
    let address = new.ip.map(signups::address_key);
    let reported = write_transaction(conn, |conn| {
        ledger::lock_account(conn, reporter_id)?;
        let setup = repo::find_setup(conn, setup_id)?.ok_or(CommunityError::SetupNotFound)?;
        if setup.user_id == reporter_id {
            return Err(CommunityError::OwnReport);
        }
        if repo::has_reported(conn, reporter_id, setup_id)? {
            return Ok(Reported { counted: false, hidden: setup.hidden });
        }
        within_daily_limits(conn, reporter_id, address.as_deref(), now)?;
        let form = ReportInsertForm {
            setup_id,
            reporter_id,
            reason: new.reason,
            details: new.details,
            status: ReportStatus::Open,
            created_at: now.naive_utc(),
            reporter_address: address.as_deref(),
        };
        if !repo::insert_report(conn, &form)? {
            return Ok(Reported { counted: false, hidden: setup.hidden });
        }
        // Every report is in the queue now; only a weighing one moves the setup towards hidden.
        let hidden =
            weighs(conn, reporter_id, now)? && repo::count_open_report(conn, setup_id, HIDE_AT_OPEN_REPORTS)?;
        Ok(Reported { counted: true, hidden: hidden || setup.hidden })
    })?;
    if reported.counted && reported.hidden {
        // Hidden from everyone from now on: no kept page or count may show it.
        changes.content_changed();
    }
    Ok(reported)
}

/// Files `reporter`'s report of a comment under a setup they may see (a verified address
/// needed); a repeat of their earlier report counts nothing (`false`).
pub fn report_comment(
    conn: &mut DbConnection,
    reporter: &Account,
    comment_id: CommentId,
    new: NewReport<'_>,
    now: DateTime<Utc>,
) -> Result<bool, CommunityError> {
    let reporter_id = verified_reporter(reporter)?;
    let address = new.ip.map(signups::address_key);
    write_transaction(conn, |conn| {
        ledger::lock_account(conn, reporter_id)?;
        let comment = repo::find_comment(conn, comment_id)?
            .filter(|c| !c.deleted)
            .ok_or(CommunityError::CommentNotFound)?;
        if !visible_to(conn, Some(reporter_id), comment.setup_id)? {
            return Err(CommunityError::CommentNotFound);
        }
        if comment.user_id == Some(reporter_id) {
            return Err(CommunityError::OwnCommentReport);
        }
        within_daily_limits(conn, reporter_id, address.as_deref(), now)?;
        let form = CommentReportInsertForm {
            comment_id,
            reporter_id,
            reason: new.reason,
            details: new.details,
            status: ReportStatus::Open,
            created_at: now.naive_utc(),
            reporter_address: address.as_deref(),
        };
        Ok(repo::insert_comment_report(conn, &form)?)
    })
}

/// The reporter's id, once their address is known to be theirs.
fn verified_reporter(reporter: &Account) -> Result<UserId, CommunityError> {
    if reporter.email_verified { Ok(reporter.id) } else { Err(CommunityError::ReportNeedsVerifiedEmail) }
}

/// The day's caps on one reporter and on their network, setups and comments together.
fn within_daily_limits(
    conn: &mut DbConnection,
    reporter_id: UserId,
    address: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), CommunityError> {
    let (start, end) = utc_day(now);
    if repo::count_reports_between(conn, reporter_id, start, end)? >= DAILY_REPORT_LIMIT {
        return Err(CommunityError::DailyReportLimit { retry_after: until_tomorrow(now) });
    }
    if let Some(address) = address {
        repo::lock_address_reports(conn, address)?;
        if repo::count_address_reports_between(conn, address, start, end)? >= DAILY_REPORTS_PER_ADDRESS {
            return Err(CommunityError::DailyAddressReportLimit { retry_after: until_tomorrow(now) });
        }
    }
    Ok(())
}

/// Whether `viewer` may see a setup: not hidden (or their own), and not reported by them.
pub fn visible_to(
    conn: &mut DbConnection,
    viewer: Option<UserId>,
    setup_id: SetupId,
) -> Result<bool, CommunityError> {
    let Some(setup) = repo::find_setup(conn, setup_id)? else { return Ok(false) };
    let own = viewer == Some(setup.user_id);
    if setup.hidden && !own {
        return Ok(false);
    }
    match viewer {
        Some(viewer) if !own => Ok(!repo::has_reported(conn, viewer, setup_id)?),
        _ => Ok(true),
    }
}
