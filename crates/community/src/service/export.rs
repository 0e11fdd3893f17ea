//! What the community keeps of a member, for their data export: the setups they published
//! (hidden ones too) with every photo link, the comments they wrote, and the votes and
//! reports (of setups and of comments) they made, their notifications and whether they get
//! the e-mail digest. Who else voted on or reported their setups is other members' data and
//! stays out.

use chrono::{DateTime, Utc};
use serde::Serialize;
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_core::{AnalysisId, CommentId, NotificationId, SetupId, UserId};
use setupiq_db::DbConnection;

use super::reports::{ReportReason, ReportStatus};
use super::setups::{PostText, photos_of};
use crate::repo;

/// One of the member's posts.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedPost {
    id: SetupId,
    analysis_id: AnalysisId,
    #[serde(flatten)]
    text: PostText,
    /// Upvotes minus downvotes.
    score: i32,
    upvotes: i32,
    /// Hidden from the feed after reports.
    hidden: bool,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    /// The photos' links, in display order.
    photos: Vec<String>,
}

/// The member's posts, newest first (`communityPosts`).
pub fn posts(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let rows = repo::setups_of(conn, user_id)?;
    let ids: Vec<SetupId> = rows.iter().map(|row| row.id).collect();
    let mut photos = photos_of(conn, &ids)?;
    let posts: Vec<ExportedPost> = rows
        .into_iter()
        .map(|row| ExportedPost {
            photos: photos
                .remove(&row.id)
                .unwrap_or_default()
                .iter()
                .map(|photo| photo.image.url())
                .collect(),
            id: row.id,
            analysis_id: row.analysis_id,
            text: row.text,
            score: row.score,
            upvotes: row.upvotes,
            hidden: row.hidden,
            created_at: row.created_at.and_utc(),
            updated_at: row.updated_at.and_utc(),
        })
        .collect();
    Section::new("communityPosts", &posts)
}

/// One vote the member cast.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedVote {
    setup_id: SetupId,
    /// 1 up, -1 down.
    value: i32,
    created_at: DateTime<Utc>,
}

/// The votes the member cast, newest first (`votes`).
pub fn votes(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let votes: Vec<ExportedVote> = repo::votes_cast_by(conn, user_id)?
        .into_iter()
        .map(|(setup_id, value, at)| ExportedVote { setup_id, value, created_at: at.and_utc() })
        .collect();
    Section::new("votes", &votes)
}

/// One report the member made.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedReport {
    setup_id: SetupId,
    reason: ReportReason,
    details: Option<String>,
    /// Open until an admin dismisses or upholds it.
    status: ReportStatus,
    created_at: DateTime<Utc>,
}

/// The reports the member made, newest first (`reports`).
pub fn reports(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let reports: Vec<ExportedReport> = repo::reports_made_by(conn, user_id)?
        .into_iter()
        .map(|row| ExportedReport {
            setup_id: row.setup_id,
            reason: row.reason,
            details: row.details,
            status: row.status,
            created_at: row.created_at.and_utc(),
        })
        .collect();
    Section::new("reports", &reports)
}

/// One report of a comment the member made.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedCommentReport {
    comment_id: CommentId,
    reason: ReportReason,
    details: Option<String>,
    /// Open until an admin dismisses or upholds it.
    status: ReportStatus,
    created_at: DateTime<Utc>,
}

/// The reports of comments the member made, newest first (`commentReports`).
pub fn comment_reports(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let reports: Vec<ExportedCommentReport> = repo::comment_reports_made_by(conn, user_id)?
        .into_iter()
        .map(|row| ExportedCommentReport {
            comment_id: row.comment_id,
            reason: row.reason,
            details: row.details,
            status: row.status,
            created_at: row.created_at.and_utc(),
        })
        .collect();
    Section::new("commentReports", &reports)
}

/// One comment the member wrote.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedComment {
    id: CommentId,
    setup_id: SetupId,
    /// The comment it replies to.
    parent_id: Option<CommentId>,
    body: String,
    created_at: DateTime<Utc>,
    edited_at: Option<DateTime<Utc>>,
}

/// The comments the member wrote, oldest first (`comments`).
pub fn comments(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let comments: Vec<ExportedComment> = repo::comments_of(conn, user_id)?
        .into_iter()
        .map(|row| ExportedComment {
            id: row.id,
            setup_id: row.setup_id,
            parent_id: row.parent_id,
            body: row.body,
            created_at: row.created_at.and_utc(),
            edited_at: row.edited_at.map(|t| t.and_utc()),
        })
        .collect();
    Section::new("comments", &comments)
}

/// One of the member's notifications, as its sentence.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedNotification {
    id: NotificationId,
    kind: super::notifications::NotificationKind,
    text: String,
    created_at: DateTime<Utc>,
    read: bool,
}

/// The member's notifications and digest setting (`notifications`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedNotifications {
    /// When the member turned the daily e-mail digest on (none: off).
    email_digest_since: Option<DateTime<Utc>>,
    /// Newest first.
    items: Vec<ExportedNotification>,
}

/// Notifications kept in an export: every one a member could plausibly have.
const EXPORTED_NOTIFICATIONS: i64 = 100_000;

pub fn notifications(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let subscription = repo::find_digest_subscription(conn, user_id)?;
    let rows = repo::notifications_of(conn, user_id, EXPORTED_NOTIFICATIONS, 0)?;
    let items = super::notifications::described(conn, rows)
        .map_err(SectionError::from)?
        .into_iter()
        .map(|n| ExportedNotification {
            id: n.id,
            kind: n.kind,
            text: n.sentence(),
            created_at: n.created_at,
            read: n.read,
        })
        .collect();
    let exported =
        ExportedNotifications { email_digest_since: subscription.map(|s| s.subscribed_at.and_utc()), items };
    Section::new("notifications", &exported)
}
