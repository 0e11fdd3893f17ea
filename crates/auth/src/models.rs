//! Rows of the tables the auth crate owns, and the public [`Account`] other crates see.

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use setupiq_core::UserId;
use setupiq_db::schema::{
    credit_ledger, email_verification_tokens, login_attempts, password_reset_tokens, sessions, signups, users,
};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub(crate) struct UserRow {
    pub id: UserId,
    pub email: String,
    pub username: String,
    pub display_name: String,
    pub password_hash: String,
    pub profile_picture: Option<String>,
    pub is_pro: bool,
    pub role: Role,
    pub credits: i32,
    pub created_at: NaiveDateTime,
    #[allow(dead_code)] // read for completeness; written on every change
    pub updated_at: NaiveDateTime,
    /// When the link mailed to `email` was followed; `None` until then.
    pub email_verified_at: Option<NaiveDateTime>,
    /// An admin granted Pro (`is_pro` is this or `users.pro_subscribed`).
    pub pro_granted: bool,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = users)]
pub(crate) struct UserInsertForm<'a> {
    pub email: &'a str,
    pub username: &'a str,
    pub display_name: &'a str,
    pub password_hash: &'a str,
    pub role: Role,
    pub credits: i32,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = sessions)]
pub(crate) struct SessionInsertForm<'a> {
    pub token_hash: &'a str,
    pub user_id: UserId,
    pub created_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub user_agent: Option<&'a str>,
}

#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = sessions)]
pub(crate) struct SessionRow {
    pub token_hash: String,
    pub created_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub user_agent: Option<String>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = password_reset_tokens)]
pub(crate) struct ResetTokenInsertForm<'a> {
    pub token_hash: &'a str,
    pub user_id: UserId,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = password_reset_tokens)]
pub(crate) struct ResetTokenRow {
    pub user_id: UserId,
    pub expires_at: NaiveDateTime,
    pub used_at: Option<NaiveDateTime>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = email_verification_tokens)]
pub(crate) struct VerificationTokenInsertForm<'a> {
    pub token_hash: &'a str,
    pub user_id: UserId,
    pub email: &'a str,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = email_verification_tokens)]
pub(crate) struct VerificationTokenRow {
    pub user_id: UserId,
    pub email: String,
    pub expires_at: NaiveDateTime,
    pub used_at: Option<NaiveDateTime>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = login_attempts)]
pub(crate) struct LoginAttemptInsertForm<'a> {
    pub account_key: Option<&'a str>,
    pub ip: Option<&'a str>,
    pub succeeded: bool,
    pub attempted_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = credit_ledger)]
pub(crate) struct LedgerInsertForm<'a> {
    pub user_id: UserId,
    pub amount: i32,
    pub balance_after: i32,
    pub reason: &'a str,
    pub external_ref: Option<&'a str>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = credit_ledger)]
pub(crate) struct LedgerRow {
    pub id: i64,
    pub amount: i32,
    pub balance_after: i32,
    pub reason: String,
    pub created_at: NaiveDateTime,
}

setupiq_db::text_enum! {
    /// A user's role (`users.role`).
    #[derive(serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Role {
        User = "user",
        Admin = "admin",
    }
}

/// A user account as the rest of the product sees it (no password hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: UserId,
    pub email: String,
    pub username: String,
    pub display_name: String,
    pub profile_picture: Option<String>,
    /// Pro: an admin's grant stands or a subscription is paid up.
    pub is_pro: bool,
    /// Pro was granted by an admin (not bought).
    pub pro_granted: bool,
    pub role: Role,
    pub credits: i32,
    pub created_at: DateTime<Utc>,
    /// The address is the account's own: the link mailed to it was followed.
    pub email_verified: bool,
}

impl From<UserRow> for Account {
    fn from(row: UserRow) -> Self {
        Self {
            id: row.id,
            email: row.email,
            username: row.username,
            display_name: row.display_name,
            profile_picture: row.profile_picture,
            is_pro: row.is_pro,
            pro_granted: row.pro_granted,
            role: row.role,
            credits: row.credits,
            created_at: row.created_at.and_utc(),
            email_verified: row.email_verified_at.is_some(),
        }
    }
}

impl Account {
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }

    /// The name others see: the display name, or the username when it has none.
    pub fn shown_name(&self) -> &str {
        if self.display_name.trim().is_empty() { &self.username } else { &self.display_name }
    }
}

#[derive(Debug, Insertable)]
#[diesel(table_name = signups)]
pub(crate) struct SignupInsertForm<'a> {
    pub address: &'a str,
    pub bonus: bool,
    pub created_at: NaiveDateTime,
}
