//! "Download my data": everything an account holds, read in one transaction so that its
//! parts agree. Auth gives the account's own part (the profile and its signed-in devices);
//! every crate built on auth registers a [`SectionOfUser`] in [`AccountData`] for what it
//! keeps (analyses, posts, votes, reports, the RigPage, credits, payments, messages).
//!
//! Never in it: a password hash, a token of any kind (session, reset, verification, share,
//! payment secret), an address it was used from, or another member's data.

use chrono::{DateTime, Utc};
use diesel::Connection;
use serde::Serialize;
use setupiq_core::UserId;
use setupiq_db::DbConnection;

use crate::error::AuthError;
use crate::models::Account;
use crate::repo;
use crate::service::sessions::{self, ActiveSession};

/// Why one part could not be read (a query, a stored document that no longer parses).
pub type SectionError = Box<dyn std::error::Error + Send + Sync>;

/// One part of the export, named as it appears in the file (`analyses`, `payments`, …).
#[derive(Debug, Clone)]
pub struct Section {
    pub name: &'static str,
    pub data: serde_json::Value,
}

impl Section {
    /// The part called `name`, holding `data` as it serialises.
    pub fn new<T: Serialize>(name: &'static str, data: &T) -> Result<Self, SectionError> {
        Ok(Self { name, data: serde_json::to_value(data)? })
    }
}

/// Reads what one crate keeps for a user, as one part of their export.
pub type SectionOfUser = fn(&mut DbConnection, UserId) -> Result<Section, SectionError>;

/// Every [`SectionOfUser`] of the application (shared state of the export handler).
#[derive(Clone, Default)]
pub struct AccountData(pub Vec<SectionOfUser>);

/// An account's data.
#[derive(Debug, Clone)]
pub struct AccountExport {
    pub exported_at: DateTime<Utc>,
    pub account: Account,
    pub sessions: Vec<ActiveSession>,
    pub sections: Vec<Section>,
}

/// Everything the account holds; `current_token` marks the session that asked.
pub fn export(
    conn: &mut DbConnection,
    user_id: UserId,
    current_token: &str,
    data: &AccountData,
    now: DateTime<Utc>,
) -> Result<AccountExport, AuthError> {
    conn.transaction(|conn| {
        let account = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?.into();
        let sessions = sessions::list(conn, user_id, current_token, now)?;
        let sections = data
            .0
            .iter()
            .map(|section_of| section_of(conn, user_id))
            .collect::<Result<_, _>>()
            .map_err(AuthError::Export)?;
        Ok(AccountExport { exported_at: now, account, sessions, sections })
    })
}
