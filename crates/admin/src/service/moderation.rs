//! Moderation: the community's queues of reported setups and reported comments, and an
//! admin's decisions on them, each written to the admin log in the same transaction.

use chrono::{DateTime, Utc};
use setupiq_community::service::moderation::{self, Decision, ReportedComment, ReportedSetup};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::media::MediaKey;
use setupiq_core::{CommentId, SetupId, UserId};
use setupiq_db::{AppCtx, DbConnection, write_transaction};

use super::log::{self, Action, Actor, Target};
use crate::error::AdminError;

pub fn queue(conn: &mut DbConnection) -> Result<Vec<ReportedSetup>, AdminError> {
    Ok(moderation::queue(conn)?)
}

pub fn comment_queue(conn: &mut DbConnection) -> Result<Vec<ReportedComment>, AdminError> {
    Ok(moderation::comment_queue(conn)?)
}

/// Dismisses a setup's reports (it is shown again) or removes it; `note` is the admin's
/// reason for the log. Returns the photos to remove from the media store. Shown again or
/// gone, the setup changes the feed: the change is recorded after the commit.
pub fn decide(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    setup_id: SetupId,
    decision: Decision,
    note: Option<&str>,
    now: DateTime<Utc>,
    changes: &FeedChanges,
) -> Result<Vec<MediaKey>, AdminError> {
    let media = write_transaction(conn, |conn| -> Result<_, AdminError> {
        let reviewed = moderation::review(conn, actor.id, setup_id, decision, now)?;
        let action = match decision {
            Decision::Dismiss => Action::DismissReports,
            Decision::Remove => Action::RemoveSetup,
        };
        let details = closed_note(reviewed.closed_reports, note);
        log::record(conn, actor, action, Target::Setup(setup_id), Some(&details), now)?;
        Ok(reviewed.media)
    })?;
    changes.content_changed();
    Ok(media)
}

/// [`decide`] as an admin asks it: the setup's photos, if it went, leave the media store
/// after the commit.
pub async fn decide_setup(
    ctx: &AppCtx,
    actor: (UserId, String),
    setup_id: SetupId,
    decision: Decision,
    note: Option<String>,
) -> Result<(), AdminError> {
    let (now, changes) = (ctx.clock.now(), ctx.changes.clone());
    let removed = ctx
        .db
        .run(move |conn| {
            let actor = Actor { id: actor.0, username: &actor.1 };
            decide(conn, actor, setup_id, decision, note.as_deref(), now, &changes)
        })
        .await?;
    ctx.media.remove_media(removed.iter()).await;
    Ok(())
}

/// Dismisses a comment's reports (it stays) or removes it ("[deleted]" where it has
/// replies); `note` is the admin's reason for the log. Either way the thread's count on the
/// feed may change: the change is recorded after the commit.
pub fn decide_comment(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    comment_id: CommentId,
    decision: Decision,
    note: Option<&str>,
    now: DateTime<Utc>,
    changes: &FeedChanges,
) -> Result<(), AdminError> {
    write_transaction(conn, |conn| -> Result<_, AdminError> {
        let closed = moderation::review_comment(conn, actor.id, comment_id, decision, now)?;
        let action = match decision {
            Decision::Dismiss => Action::DismissCommentReports,
            Decision::Remove => Action::RemoveComment,
        };
        let details = closed_note(closed, note);
        log::record(conn, actor, action, Target::Comment(comment_id), Some(&details), now)?;
        Ok(())
    })?;
    changes.content_changed();
    Ok(())
}

/// The log's details of a decision: how many reports it closed, and the admin's note.
fn closed_note(closed: usize, note: Option<&str>) -> String {
    let reports = if closed == 1 { "report" } else { "reports" };
    match note {
        Some(note) => format!("{closed} open {reports} closed. {note}"),
        None => format!("{closed} open {reports} closed."),
    }
}
