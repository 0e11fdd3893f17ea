//! The admin log: every action an admin takes (who, what, on what, why, when), written in
//! the transaction of the action itself and shown in the panel.

use chrono::{DateTime, Utc};
use setupiq_core::{CommentId, ProductId, RunId, SetupId, UserId};
use setupiq_db::DbConnection;

use crate::error::AdminError;
use crate::models::LogInsertForm;
pub use crate::models::{Action, TargetKind};
use crate::repo;

/// What an action was done to, by its typed id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Setup(SetupId),
    Comment(CommentId),
    User(UserId),
    Product(ProductId),
    Run(RunId),
}

impl Target {
    pub fn kind(self) -> TargetKind {
        match self {
            Self::Setup(_) => TargetKind::Setup,
            Self::Comment(_) => TargetKind::Comment,
            Self::User(_) => TargetKind::User,
            Self::Product(_) => TargetKind::Product,
            Self::Run(_) => TargetKind::Run,
        }
    }

    /// The id as `admin_log.target_id` holds it: one column for every kind of target, so a
    /// plain number beside `target_type`.
    pub fn id(self) -> i64 {
        match self {
            Self::Setup(id) => id.0,
            Self::Comment(id) => id.0,
            Self::User(id) => id.0,
            Self::Product(id) => id.0,
            Self::Run(id) => id.0,
        }
    }
}

/// The admin acting.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    pub id: UserId,
    pub username: &'a str,
}

/// Writes one entry (inside the caller's transaction).
pub fn record(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    action: Action,
    target: Target,
    details: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), AdminError> {
    repo::insert_log(
        conn,
        &LogInsertForm {
            admin_id: Some(actor.id),
            admin_name: actor.username,
            action,
            target_type: target.kind(),
            target_id: target.id(),
            details,
            created_at: now.naive_utc(),
        },
    )?;
    Ok(())
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: i64,
    pub admin_id: Option<UserId>,
    pub admin_name: String,
    pub action: Action,
    pub target_type: TargetKind,
    pub target_id: i64,
    pub details: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// The newest entries first, and how many there are.
pub fn page(conn: &mut DbConnection, limit: i64, offset: i64) -> Result<(Vec<Entry>, i64), AdminError> {
    let rows = repo::log_page(conn, limit, offset)?;
    let total = repo::count_log(conn)?;
    let entries = rows
        .into_iter()
        .map(|row| Entry {
            id: row.id,
            admin_id: row.admin_id,
            admin_name: row.admin_name,
            action: row.action,
            target_type: row.target_type,
            target_id: row.target_id,
            details: row.details,
            created_at: row.created_at.and_utc(),
        })
        .collect();
    Ok((entries, total))
}
