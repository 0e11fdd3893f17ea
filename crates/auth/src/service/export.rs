//! "Download my data": everything an account holds, read in one transaction so that its
//! parts agree. Auth gives the account's own part (the profile and its signed-in devices);
//! every crate built on auth registers a [`SectionOfUser`] in [`AccountData`] for what it
//! keeps (analyses, posts, votes, reports, the RigPage, credits, payments, messages).
//!
//! Never in it: a password hash, a token of any kind (session, reset, verification, share,
//! payment secret), an address it was used from, or another member's data.

use chrono::{DateTime, Utc};
use diesel::Connection;
use setupiq_core::UserId;
use setupiq_db::{AppCtx, DbConnection};

use crate::error::AuthError;
use crate::models::Account;
use crate::repo;
use crate::service::sessions::{self, ActiveSession};

pub use setupiq_db::hooks::{AccountData, Section, SectionError, SectionOfUser};

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

/// The signed-in member's export (`current_token` marks the session that asked), with every
/// crate's part the application registered ([`AccountData`]).
pub async fn for_download(
    ctx: &AppCtx,
    user_id: UserId,
    current_token: String,
) -> Result<AccountExport, AuthError> {
    let (hooks, now) = (ctx.hooks.clone(), ctx.clock.now());
    ctx.db.run(move |conn| export(conn, user_id, &current_token, &hooks.account_data, now)).await
}
