//! The moderation queue: open reports grouped by setup, with who reported (admins see
//! reporters, so report spam can be dealt with), and an admin's two decisions: dismiss
//! (the setup is shown again, its reports closed) or remove (the setup goes, with its
//! photos, votes and reports). Reported comments have their own list and the same two
//! decisions (a removed comment goes as its author's deletion would: "[deleted]" where it
//! has replies). The admin crate calls these inside its own transaction and writes the
//! admin log beside them.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use setupiq_auth::Account;
use setupiq_core::media::MediaKey;
use setupiq_core::{CommentId, SetupId, UserId};
use setupiq_db::{DbConnection, write_transaction};

use super::comments;
use super::notifications::{self, Decided};
use super::reports::{ReportReason, ReportStatus};
use super::setups::{self, photos_of};
use crate::error::CommunityError;
use crate::repo;

/// One open report as an admin sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenReport {
    pub reporter_id: UserId,
    pub reporter_username: String,
    pub reporter_email: String,
    pub reason: ReportReason,
    pub details: Option<String>,
    pub created_at: DateTime<Utc>,
}

impl OpenReport {
    fn by(
        accounts: &HashMap<UserId, Account>,
        reporter_id: UserId,
        reason: ReportReason,
        details: Option<String>,
        created_at: chrono::NaiveDateTime,
    ) -> OpenReport {
        let reporter = accounts.get(&reporter_id);
        OpenReport {
            reporter_id,
            reporter_username: reporter.map(|a| a.username.clone()).unwrap_or_default(),
            reporter_email: reporter.map(|a| a.email.clone()).unwrap_or_default(),
            reason,
            details,
            created_at: created_at.and_utc(),
        }
    }
}

/// A reported setup and its open reports (oldest first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedSetup {
    pub setup_id: SetupId,
    pub title: Option<String>,
    pub thumbnail_url: Option<String>,
    pub uploader_id: UserId,
    pub uploader_username: String,
    /// Hidden from everyone but its owner until this review.
    pub hidden: bool,
    pub score: i32,
    pub published_at: DateTime<Utc>,
    pub reports: Vec<OpenReport>,
}

impl ReportedSetup {
    /// How many open reports give each reason, most first.
    pub fn reasons(&self) -> Vec<(ReportReason, usize)> {
        let mut counts: Vec<(ReportReason, usize)> = Vec::new();
        for report in &self.reports {
            match counts.iter_mut().find(|(reason, _)| *reason == report.reason) {
                Some((_, n)) => *n += 1,
                None => counts.push((report.reason, 1)),
            }
        }
        counts.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        counts
    }
}

/// Every setup with open reports: hidden ones first, then the most reported, then the
/// longest waiting. A fixed number of queries however long the queue.
pub fn queue(conn: &mut DbConnection) -> Result<Vec<ReportedSetup>, CommunityError> {
    let reports = repo::open_reports(conn)?;
    let setup_ids = unique(reports.iter().map(|r| r.setup_id));
    let setups = repo::find_setups(conn, &setup_ids)?;
    let people = reports.iter().map(|r| r.reporter_id).chain(setups.iter().map(|s| s.user_id));
    let accounts = accounts_by_id(conn, unique(people))?;
    let mut photos = photos_of(conn, &setup_ids)?;
    let mut queue: Vec<ReportedSetup> = setups
        .into_iter()
        .map(|setup| ReportedSetup {
            setup_id: setup.id,
            title: setup.text.title,
            thumbnail_url: photos
                .remove(&setup.id)
                .and_then(|p| p.into_iter().next())
                .map(|p| p.thumbnail.unwrap_or(p.image).url()),
            uploader_id: setup.user_id,
            uploader_username: accounts.get(&setup.user_id).map(|a| a.username.clone()).unwrap_or_default(),
            hidden: setup.hidden,
            score: setup.score,
            published_at: setup.created_at.and_utc(),
            reports: Vec::new(),
        })
        .collect();
    for report in reports {
        let Some(entry) = queue.iter_mut().find(|s| s.setup_id == report.setup_id) else { continue };
        entry.reports.push(OpenReport::by(
            &accounts,
            report.reporter_id,
            report.reason,
            report.details,
            report.created_at,
        ));
    }
    queue.sort_by(|a, b| {
        b.hidden
            .cmp(&a.hidden)
            .then(b.reports.len().cmp(&a.reports.len()))
            .then(a.reports.first().map(|r| r.created_at).cmp(&b.reports.first().map(|r| r.created_at)))
    });
    Ok(queue)
}

/// An admin's decision on a reported setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The reports were unfounded: they are closed and the setup is shown again. The same
    /// users cannot report it again (one report per user and setup).
    Dismiss,
    /// The setup goes, with its photos, votes and reports.
    Remove,
}

/// What a review did: how many open reports it closed, and the photos to remove from the
/// media store (a removal only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reviewed {
    pub closed_reports: usize,
    pub media: Vec<MediaKey>,
}

/// Applies an admin's decision to a setup.
pub fn review(
    conn: &mut DbConnection,
    admin_id: UserId,
    setup_id: SetupId,
    decision: Decision,
    now: DateTime<Utc>,
) -> Result<Reviewed, CommunityError> {
    write_transaction(conn, |conn| {
        let setup = repo::find_setup(conn, setup_id)?.ok_or(CommunityError::SetupNotFound)?;
        let reporters = repo::open_reporters(conn, setup_id)?;
        let title = setup.text.title_or_untitled().to_owned();
        let mut decided = Decided {
            moderator_id: admin_id,
            setup_id: Some(setup_id),
            subject: &title,
            removed_from: None,
            comment: false,
            reporters: &reporters,
            at: now,
        };
        let reviewed = match decision {
            Decision::Dismiss => {
                let closed = repo::close_reports(conn, setup_id, ReportStatus::Dismissed, now.naive_utc())?;
                repo::unhide(conn, setup_id)?;
                Reviewed { closed_reports: closed, media: Vec::new() }
            }
            Decision::Remove => {
                let closed = repo::close_reports(conn, setup_id, ReportStatus::Upheld, now.naive_utc())?;
                let media = setups::remove(conn, admin_id, true, setup_id)?;
                // The post is gone: its notifications keep only its title.
                decided.setup_id = None;
                decided.removed_from = Some(setup.user_id);
                Reviewed { closed_reports: closed, media }
            }
        };
        notifications::on_decision(conn, decided)?;
        Ok(reviewed)
    })
}

/// A reported comment, what it says, and its open reports (oldest first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedComment {
    pub comment_id: CommentId,
    pub setup_id: SetupId,
    /// None when its author's account is gone.
    pub author_id: Option<UserId>,
    pub author_username: String,
    pub body: String,
    pub written_at: DateTime<Utc>,
    pub reports: Vec<OpenReport>,
}

/// Every comment with open reports: the most reported first, then the longest waiting. A
/// fixed number of queries however long the list.
pub fn comment_queue(conn: &mut DbConnection) -> Result<Vec<ReportedComment>, CommunityError> {
    let reports = repo::open_comment_reports(conn)?;
    let found = repo::find_comments(conn, &unique(reports.iter().map(|r| r.comment_id)))?;
    let people = reports.iter().map(|r| r.reporter_id).chain(found.iter().filter_map(|c| c.user_id));
    let accounts = accounts_by_id(conn, unique(people))?;
    let mut queue: Vec<ReportedComment> = found
        .into_iter()
        .map(|comment| ReportedComment {
            comment_id: comment.id,
            setup_id: comment.setup_id,
            author_id: comment.user_id,
            author_username: comment
                .user_id
                .and_then(|id| accounts.get(&id))
                .map(|a| a.username.clone())
                .unwrap_or_default(),
            body: comment.body,
            written_at: comment.created_at.and_utc(),
            reports: Vec::new(),
        })
        .collect();
    for report in reports {
        let Some(entry) = queue.iter_mut().find(|c| c.comment_id == report.comment_id) else { continue };
        entry.reports.push(OpenReport::by(
            &accounts,
            report.reporter_id,
            report.reason,
            report.details,
            report.created_at,
        ));
    }
    queue.sort_by(|a, b| {
        b.reports
            .len()
            .cmp(&a.reports.len())
            .then(a.reports.first().map(|r| r.created_at).cmp(&b.reports.first().map(|r| r.created_at)))
    });
    Ok(queue)
}

/// Applies an admin's decision to a reported comment; returns how many open reports it
/// closed. Removing a comment that is already "[deleted]" only closes its reports.
pub fn review_comment(
    conn: &mut DbConnection,
    admin_id: UserId,
    comment_id: CommentId,
    decision: Decision,
    now: DateTime<Utc>,
) -> Result<usize, CommunityError> {
    write_transaction(conn, |conn| {
        let comment = repo::find_comment(conn, comment_id)?.ok_or(CommunityError::CommentNotFound)?;
        let reporters = repo::open_comment_reporters(conn, comment_id)?;
        let subject = notifications::excerpt_of(&comment.body);
        let mut decided = Decided {
            moderator_id: admin_id,
            setup_id: Some(comment.setup_id),
            subject: &subject,
            removed_from: None,
            comment: true,
            reporters: &reporters,
            at: now,
        };
        let closed = match decision {
            Decision::Dismiss => {
                repo::close_comment_reports(conn, comment_id, ReportStatus::Dismissed, now.naive_utc())?
            }
            Decision::Remove => {
                let closed =
                    repo::close_comment_reports(conn, comment_id, ReportStatus::Upheld, now.naive_utc())?;
                if !comment.deleted {
                    comments::remove(conn, &comment)?;
                    decided.removed_from = comment.user_id;
                }
                closed
            }
        };
        if !comment.deleted {
            notifications::on_decision(conn, decided)?;
        }
        Ok(closed)
    })
}

/// The ids, sorted, each once.
fn unique<Id: Ord>(ids: impl Iterator<Item = Id>) -> Vec<Id> {
    let mut ids: Vec<Id> = ids.collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The accounts of `ids` by id, in one query.
fn accounts_by_id(
    conn: &mut DbConnection,
    ids: Vec<UserId>,
) -> Result<HashMap<UserId, Account>, CommunityError> {
    Ok(setupiq_auth::service::accounts::find_many(conn, &ids)?.into_iter().map(|a| (a.id, a)).collect())
}
