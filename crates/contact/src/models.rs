//! Rows of the table the contact crate owns, and the public [`ContactMessage`].

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use setupiq_core::UserId;
use setupiq_db::schema::contact_messages;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = contact_messages)]
pub(crate) struct ContactMessageRow {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub message: String,
    pub user_id: Option<UserId>,
    pub ip: Option<String>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = contact_messages)]
pub(crate) struct ContactMessageInsertForm<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub message: &'a str,
    pub user_id: Option<UserId>,
    pub ip: Option<&'a str>,
    pub created_at: NaiveDateTime,
}

/// A stored contact-form message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactMessage {
    pub id: i64,
    pub name: String,
    /// Normalised (trimmed, lower-cased).
    pub email: String,
    pub message: String,
    /// The sender's account when they were signed in.
    pub user_id: Option<UserId>,
    /// The client IP the message came from.
    pub ip: Option<String>,
    pub created_at: DateTime<Utc>,
}

impl From<ContactMessageRow> for ContactMessage {
    fn from(row: ContactMessageRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            email: row.email,
            message: row.message,
            user_id: row.user_id,
            ip: row.ip,
            created_at: row.created_at.and_utc(),
        }
    }
}
