//! What the bell tells a member: someone commented on their setup, or replied to their
//! comment. Filed in the comment's own transaction, one per event and recipient, never for
//! a member's own action; read when they open it (or all at once).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use setupiq_auth::Account;
use setupiq_db::{DbConnection, DieselError};

use crate::error::CommunityError;
pub use crate::models::NotificationKind;
use crate::models::{CommentRow, NotificationInsertForm};
use crate::repo;

/// How much of the comment a notification quotes, in characters.
pub const EXCERPT_CHARS: usize = 120;

/// The comment just written, as the notifications need it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewComment {
    pub comment_id: i64,
    pub setup_id: i64,
    pub author_id: i64,
    /// The setup's owner.
    pub owner_id: i64,
    /// The author of the thread's first comment, for a reply (none when deleted).
    pub replied_to: Option<i64>,
    pub at: DateTime<Utc>,
}

/// Files what a new comment tells others: its thread's author hears of a reply, the setup's
/// owner of a comment (once, if they are also the thread's author); the author hears nothing.
pub(crate) fn on_comment(conn: &mut DbConnection, new: NewComment) -> Result<(), DieselError> {
    let mut told = Vec::new();
    if let Some(thread_author) = new.replied_to.filter(|id| *id != new.author_id) {
        told.push((thread_author, NotificationKind::Reply));
    }
    if new.owner_id != new.author_id && new.replied_to != Some(new.owner_id) {
        told.push((new.owner_id, NotificationKind::Comment));
    }
    for (user_id, kind) in told {
        let form = NotificationInsertForm {
            user_id,
            kind,
            actor_id: Some(new.author_id),
            setup_id: new.setup_id,
            comment_id: new.comment_id,
            created_at: new.at.naive_utc(),
        };
        repo::insert_notification(conn, &form)?;
    }
    Ok(())
}

/// One notification as its recipient sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub id: i64,
    pub kind: NotificationKind,
    /// Who commented (none once their account is gone).
    pub actor: Option<String>,
    pub setup_id: i64,
    pub setup_title: Option<String>,
    pub comment_id: i64,
    /// The start of the comment (none once it was deleted).
    pub excerpt: Option<String>,
    pub created_at: DateTime<Utc>,
    pub read: bool,
}

/// A page of a member's notifications and their counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inbox {
    pub notifications: Vec<Notification>,
    pub total: i64,
    pub unread: i64,
}

/// A page of the member's notifications, newest first, in a fixed number of queries.
pub fn inbox(
    conn: &mut DbConnection,
    user_id: i64,
    limit: i64,
    offset: i64,
) -> Result<Inbox, CommunityError> {
    let rows = repo::notifications_of(conn, user_id, limit, offset)?;
    let (total, unread) = repo::count_notifications(conn, user_id)?;
    let mut actor_ids: Vec<i64> = rows.iter().filter_map(|r| r.actor_id).collect();
    actor_ids.sort_unstable();
    actor_ids.dedup();
    let actors: HashMap<i64, Account> = setupiq_auth::service::accounts::find_many(conn, &actor_ids)?
        .into_iter()
        .map(|a| (a.id, a))
        .collect();
    let setup_ids: Vec<i64> = rows.iter().map(|r| r.setup_id).collect();
    let titles = repo::setup_titles(conn, &setup_ids)?;
    let comment_ids: Vec<i64> = rows.iter().map(|r| r.comment_id).collect();
    let comments = repo::comments_by_id(conn, &comment_ids)?;
    let notifications = rows
        .into_iter()
        .map(|row| Notification {
            id: row.id,
            kind: row.kind,
            actor: row.actor_id.and_then(|id| actors.get(&id)).map(|a| a.shown_name().to_owned()),
            setup_id: row.setup_id,
            setup_title: titles.get(&row.setup_id).cloned().flatten(),
            comment_id: row.comment_id,
            excerpt: comments.get(&row.comment_id).and_then(excerpt),
            created_at: row.created_at.and_utc(),
            read: row.read_at.is_some(),
        })
        .collect();
    Ok(Inbox { notifications, total, unread })
}

fn excerpt(comment: &CommentRow) -> Option<String> {
    if comment.deleted {
        return None;
    }
    let mut text: String = comment.body.chars().take(EXCERPT_CHARS).collect();
    if comment.body.chars().count() > EXCERPT_CHARS {
        text.push('…');
    }
    Some(text)
}

/// How many of the member's notifications are unread: all the bell asks, every minute.
pub fn unread(conn: &mut DbConnection, user_id: i64) -> Result<i64, CommunityError> {
    Ok(repo::count_unread(conn, user_id)?)
}

/// Which notifications to mark read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    These(Vec<i64>),
    All,
}

/// Marks the member's notifications read (another member's ids are ignored); returns how
/// many were unread.
pub fn mark_read(
    conn: &mut DbConnection,
    user_id: i64,
    read: &Read,
    now: DateTime<Utc>,
) -> Result<usize, CommunityError> {
    let ids = match read {
        Read::These(ids) => Some(ids.as_slice()),
        Read::All => None,
    };
    Ok(repo::mark_notifications_read(conn, user_id, ids, now.naive_utc())?)
}
