//! Moderation: the community's queue of reported setups, and an admin's decisions on it,
//! each written to the admin log in the same transaction.

use chrono::{DateTime, Utc};
use setupiq_community::service::moderation::{self, Decision, ReportedSetup};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::media::MediaKey;
use setupiq_db::{DbConnection, write_transaction};

use super::log::{self, Action, Actor, TargetKind};
use crate::error::AdminError;

pub fn queue(conn: &mut DbConnection) -> Result<Vec<ReportedSetup>, AdminError> {
    Ok(moderation::queue(conn)?)
}

/// Dismisses a setup's reports (it is shown again) or removes it; `note` is the admin's
/// reason for the log. Returns the photos to remove from the media store. Shown again or
/// gone, the setup changes the feed: the change is recorded after the commit.
pub fn decide(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    setup_id: i64,
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
        let details = match note {
            Some(note) => format!("{} open reports closed. {note}", reviewed.closed_reports),
            None => format!("{} open reports closed.", reviewed.closed_reports),
        };
        log::record(conn, actor, action, (TargetKind::Setup, setup_id), Some(&details), now)?;
        Ok(reviewed.media)
    })?;
    changes.content_changed();
    Ok(media)
}
