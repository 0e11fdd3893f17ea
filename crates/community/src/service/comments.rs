//! Comments under a setup (DESIGN.md: plain text, 1–1000 characters, replies one level
//! deep): threads newest first, each with its replies oldest first; written by signed-in
//! members whose address is verified, at most [`PER_MINUTE`] a minute and [`DAILY_LIMIT`] a
//! day, never with a word of the configured filter; edited by their author within
//! [`EDIT_WINDOW`]; deleted by their author, the setup's owner or an admin. A deleted
//! comment that has replies stays as "[deleted]" (no author, no text) so its thread keeps
//! its shape. Whoever may see the setup may read its comments.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use setupiq_auth::Account;
use setupiq_auth::service::ledger;
use setupiq_core::config::WordFilter;
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::{CommentId, SetupId, UserId};
use setupiq_db::{DbConnection, DieselError, write_transaction};

use super::notifications::{self, NewComment};
use super::{reports, until_tomorrow, utc_day};
use crate::error::CommunityError;
use crate::models::{CommentInsertForm, CommentRow};
use crate::repo;

/// The longest comment, in characters after trimming.
pub const MAX_CHARS: usize = 1000;
/// How long after writing it the author may edit a comment.
pub const EDIT_WINDOW: Duration = Duration::hours(1);
/// Comments one account may write in a UTC day.
pub const DAILY_LIMIT: usize = 60;
/// Comments one account may write in any minute.
pub const PER_MINUTE: usize = 5;

/// Who wrote a comment, as everyone may see them (never an e-mail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    pub id: UserId,
    pub username: String,
    pub display_name: String,
    pub profile_picture: Option<String>,
    pub is_pro: bool,
}

/// A comment as the viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub id: CommentId,
    pub parent_id: Option<CommentId>,
    /// None for a deleted comment (shown as "[deleted]").
    pub author: Option<Author>,
    /// None for a deleted comment.
    pub body: Option<String>,
    pub created_at: DateTime<Utc>,
    pub edited_at: Option<DateTime<Utc>>,
    /// The viewer wrote it.
    pub mine: bool,
    /// Oldest first; always empty on a reply.
    pub replies: Vec<Comment>,
}

/// A page of a setup's threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Threads {
    pub comments: Vec<Comment>,
    /// How many threads the setup has.
    pub total: i64,
}

/// A page of the threads under a setup the viewer may see, with every reply to them, in a
/// fixed number of queries (the page, its replies, their authors).
pub fn list(
    conn: &mut DbConnection,
    viewer: Option<UserId>,
    setup_id: SetupId,
    limit: i64,
    offset: i64,
) -> Result<Threads, CommunityError> {
    if !reports::visible_to(conn, viewer, setup_id)? {
        return Err(CommunityError::SetupNotFound);
    }
    let threads = repo::threads(conn, setup_id, limit, offset)?;
    let total = repo::count_threads(conn, setup_id)?;
    let ids: Vec<CommentId> = threads.iter().map(|c| c.id).collect();
    let replies = if ids.is_empty() { Vec::new() } else { repo::replies_to(conn, &ids)? };
    let mut author_ids: Vec<UserId> = threads.iter().chain(&replies).filter_map(|c| c.user_id).collect();
    author_ids.sort_unstable();
    author_ids.dedup();
    let authors: HashMap<UserId, Author> = setupiq_auth::service::accounts::find_many(conn, &author_ids)?
        .into_iter()
        .map(|a| (a.id, author(&a)))
        .collect();
    let seen = |row: CommentRow| shown(row, &authors, viewer);
    let mut replies_by_thread: HashMap<CommentId, Vec<Comment>> = HashMap::new();
    for reply in replies {
        // Every reply has a parent: `replies_to` found it by one.
        let Some(thread) = reply.parent_id else { continue };
        replies_by_thread.entry(thread).or_default().push(seen(reply));
    }
    let comments = threads
        .into_iter()
        .map(|row| {
            let replies = replies_by_thread.remove(&row.id).unwrap_or_default();
            Comment { replies, ..seen(row) }
        })
        .collect();
    Ok(Threads { comments, total })
}

fn author(account: &Account) -> Author {
    Author {
        id: account.id,
        username: account.username.clone(),
        display_name: account.display_name.clone(),
        profile_picture: account.profile_picture.clone(),
        is_pro: account.is_pro,
    }
}

fn shown(row: CommentRow, authors: &HashMap<UserId, Author>, viewer: Option<UserId>) -> Comment {
    let author = if row.deleted { None } else { row.user_id.and_then(|id| authors.get(&id).cloned()) };
    Comment {
        id: row.id,
        parent_id: row.parent_id,
        mine: viewer.is_some() && row.user_id == viewer && !row.deleted,
        author,
        body: (!row.deleted).then_some(row.body),
        created_at: row.created_at.and_utc(),
        edited_at: row.edited_at.map(|t| t.and_utc()),
        replies: Vec::new(),
    }
}

/// A comment as its author sends it.
#[derive(Debug, Clone, Copy)]
pub struct Written<'a> {
    pub setup_id: SetupId,
    /// The comment replied to; a reply to a reply joins its thread.
    pub parent_id: Option<CommentId>,
    pub body: &'a str,
}

/// The text of a comment: trimmed, 1 to [`MAX_CHARS`] characters, free of filtered words.
fn checked_body<'a>(body: &'a str, filter: Option<&WordFilter>) -> Result<&'a str, CommunityError> {
    let body = body.trim();
    if body.is_empty() || body.chars().count() > MAX_CHARS {
        return Err(CommunityError::CommentLength);
    }
    if filter.is_some_and(|filter| filter.refuses(body)) {
        return Err(CommunityError::CommentFiltered);
    }
    Ok(body)
}

/// Writes `author`'s comment under a setup they may see, with the notifications it files;
/// returns its id. A new comment changes the setup's comment count on the feed's cards
/// (recorded after the commit).
pub fn comment(
    conn: &mut DbConnection,
    author: &Account,
    written: Written<'_>,
    now: DateTime<Utc>,
    filter: Option<&WordFilter>,
    changes: &FeedChanges,
) -> Result<CommentId, CommunityError> {
    if !author.email_verified {
        return Err(CommunityError::CommentNeedsVerifiedEmail);
    }
    let body = checked_body(written.body, filter)?;
    let author_id = author.id;
    let id = write_transaction(conn, |conn| {
        // One member's comments queue here: the limits cannot be raced past.
        ledger::lock_account(conn, author.id)?;
        if !reports::visible_to(conn, Some(author_id), written.setup_id)? {
            return Err(CommunityError::SetupNotFound);
        }
        let thread = match written.parent_id {
            None => None,
            Some(parent_id) => {
                let parent = repo::find_comment(conn, parent_id)?
                    .filter(|parent| parent.setup_id == written.setup_id)
                    .ok_or(CommunityError::CommentNotFound)?;
                match parent.parent_id {
                    None => Some(parent),
                    Some(root) => repo::find_comment(conn, root)?,
                }
            }
        };
        check_limits(conn, author_id, now)?;
        let form = CommentInsertForm {
            setup_id: written.setup_id,
            parent_id: thread.as_ref().map(|t| t.id),
            user_id: Some(author_id),
            body,
            deleted: false,
            created_at: now.naive_utc(),
        };
        let comment_id = repo::insert_comment(conn, &form)?;
        let owner_id =
            repo::find_setup(conn, written.setup_id)?.ok_or(CommunityError::SetupNotFound)?.user_id;
        let replied_to = thread.and_then(|t| t.user_id);
        let new =
            NewComment { comment_id, setup_id: written.setup_id, author_id, owner_id, replied_to, at: now };
        notifications::on_comment(conn, new)?;
        Ok(comment_id)
    })?;
    changes.content_changed();
    Ok(id)
}

/// [`PER_MINUTE`] in any minute, [`DAILY_LIMIT`] in the UTC day.
fn check_limits(conn: &mut DbConnection, user_id: UserId, now: DateTime<Utc>) -> Result<(), CommunityError> {
    let (day_start, _) = utc_day(now);
    let minute_ago = (now - Duration::minutes(1)).naive_utc();
    let times = repo::comment_times_since(conn, user_id, day_start.min(minute_ago))?;
    let last_minute: Vec<_> = times.iter().filter(|t| **t > minute_ago).collect();
    if last_minute.len() >= PER_MINUTE {
        // Free again when the oldest of the last PER_MINUTE leaves the minute.
        let frees_at = *last_minute[last_minute.len() - PER_MINUTE] + Duration::minutes(1);
        let wait = (frees_at - now.naive_utc()).num_seconds().max(1);
        return Err(CommunityError::CommentsTooFast { retry_after: u64::try_from(wait).unwrap_or(60) });
    }
    if times.iter().filter(|t| **t >= day_start).count() >= DAILY_LIMIT {
        return Err(CommunityError::DailyCommentLimit { retry_after: until_tomorrow(now) });
    }
    Ok(())
}

/// The author's edit of their comment, within [`EDIT_WINDOW`]; it is marked edited. Only
/// under a setup the author may still see: a hidden post (or one they reported) takes no
/// new words, edited ones no more than new comments, and answers the same "Setup not found.".
pub fn edit(
    conn: &mut DbConnection,
    user_id: UserId,
    comment_id: CommentId,
    body: &str,
    now: DateTime<Utc>,
    filter: Option<&WordFilter>,
) -> Result<(), CommunityError> {
    let body = checked_body(body, filter)?;
    write_transaction(conn, |conn| {
        let comment = repo::find_comment(conn, comment_id)?
            .filter(|c| !c.deleted)
            .ok_or(CommunityError::CommentNotFound)?;
        if !reports::visible_to(conn, Some(user_id), comment.setup_id)? {
            return Err(CommunityError::SetupNotFound);
        }
        if comment.user_id != Some(user_id) {
            return Err(CommunityError::NotCommentAuthor);
        }
        if now.naive_utc() - comment.created_at > EDIT_WINDOW {
            return Err(CommunityError::CommentEditWindowClosed);
        }
        repo::edit_comment(conn, comment_id, body, now.naive_utc())?;
        Ok(())
    })
}

/// Deletes a comment: its author may, the setup's owner and an admin. One with replies
/// stays as "[deleted]"; a reply that leaves a deleted thread empty takes it along. Unlike
/// an edit, this works under a hidden post too (DESIGN.md §5 names no exception): taking
/// words back adds nothing to a post under review, and the author keeps that right.
pub fn delete(
    conn: &mut DbConnection,
    user_id: UserId,
    is_admin: bool,
    comment_id: CommentId,
    changes: &FeedChanges,
) -> Result<(), CommunityError> {
    write_transaction(conn, |conn| {
        let comment = repo::find_comment(conn, comment_id)?
            .filter(|c| !c.deleted)
            .ok_or(CommunityError::CommentNotFound)?;
        let owner = repo::find_setup(conn, comment.setup_id)?.map(|s| s.user_id);
        if comment.user_id != Some(user_id) && owner != Some(user_id) && !is_admin {
            return Err(CommunityError::CannotDeleteComment);
        }
        Ok(remove(conn, &comment)?)
    })?;
    changes.content_changed();
    Ok(())
}

pub(crate) fn remove(conn: &mut DbConnection, comment: &CommentRow) -> Result<(), DieselError> {
    if repo::has_replies(conn, comment.id)? {
        repo::blank_comment(conn, comment.id)?;
        return Ok(());
    }
    repo::delete_comment(conn, comment.id)?;
    // A deleted thread whose last reply this was has nothing left to show.
    if let Some(parent) = comment.parent_id.map(|id| repo::find_comment(conn, id)).transpose()?.flatten()
        && parent.deleted
        && !repo::has_replies(conn, parent.id)?
    {
        repo::delete_comment(conn, parent.id)?;
    }
    Ok(())
}

/// What the community does with a departing account's comments, inside the deletion's
/// transaction: each goes as if its author deleted it (replies keep "[deleted]").
pub(crate) fn on_account_deleted(conn: &mut DbConnection, user_id: UserId) -> Result<(), DieselError> {
    // Replies first: a thread whose replies were all the author's own then goes entirely.
    let mut own = repo::comments_of(conn, user_id)?;
    own.sort_by_key(|c| c.parent_id.is_none());
    for comment in own {
        if let Some(current) = repo::find_comment(conn, comment.id)? {
            remove(conn, &current)?;
        }
    }
    Ok(())
}
