//! Password reset: a single-use token (256 bits, stored hashed) that expires after an hour.
//! A completed reset replaces the password and ends every session of the account.
//!
//! [`send_link`] and [`reset_password`] are the two flows the endpoints run; the rest are
//! the rules over a connection they are made of.

use chrono::{DateTime, Duration, Utc};
use setupiq_core::validation::normalize_email;
use setupiq_core::{Config, tokens};
use setupiq_db::{AppCtx, DbConnection, write_transaction};

use crate::error::AuthError;
use crate::models::{Account, ResetTokenInsertForm};
use crate::repo;
use crate::service::passwords::Passwords;
use crate::service::throttle;

pub const TOKEN_LIFETIME: Duration = Duration::hours(1);
/// At most one reset e-mail per account in this interval, so the form cannot be used to
/// flood someone's inbox.
pub const RESEND_COOLDOWN: Duration = Duration::seconds(60);

/// A reset to e-mail: the account and the token for the link.
#[derive(Debug)]
pub struct ResetRequest {
    pub account: Account,
    pub token: String,
}

/// Creates a reset token for the account with this e-mail. `None` when there is no such
/// account or one was requested moments ago; the caller answers the same either way.
pub fn request(
    conn: &mut DbConnection,
    email: &str,
    now: DateTime<Utc>,
) -> Result<Option<ResetRequest>, AuthError> {
    let Some(user) = repo::find_user_by_email(conn, &normalize_email(email))? else { return Ok(None) };
    if let Some(latest) = repo::latest_reset_request(conn, user.id)?
        && latest + RESEND_COOLDOWN > now.naive_utc()
    {
        return Ok(None);
    }
    let token = tokens::generate();
    repo::insert_reset_token(
        conn,
        &ResetTokenInsertForm {
            token_hash: &tokens::digest(&token),
            user_id: user.id,
            created_at: now.naive_utc(),
            expires_at: (now + TOKEN_LIFETIME).naive_utc(),
        },
    )?;
    Ok(Some(ResetRequest { account: user.into(), token }))
}

/// The account a valid (unused, unexpired) token belongs to.
pub fn verify(conn: &mut DbConnection, token: &str, now: DateTime<Utc>) -> Result<Account, AuthError> {
    let row = repo::find_reset_token(conn, &tokens::digest(token))?.ok_or(AuthError::InvalidResetToken)?;
    if row.used_at.is_some() || row.expires_at <= now.naive_utc() {
        return Err(AuthError::InvalidResetToken);
    }
    repo::find_user(conn, row.user_id)?.map(Account::from).ok_or(AuthError::InvalidResetToken)
}

/// Uses the token: sets the new password hash, ends all sessions, invalidates the account's
/// other reset links and clears its failed logins (a lock an attacker caused ends with the
/// password they were guessing). Exactly one of several concurrent uses succeeds.
pub fn complete(
    conn: &mut DbConnection,
    token: &str,
    new_password_hash: &str,
    now: DateTime<Utc>,
) -> Result<Account, AuthError> {
    let token_hash = tokens::digest(token);
    write_transaction(conn, |conn| {
        let account = verify(conn, token, now)?;
        if repo::mark_reset_token_used(conn, &token_hash, now.naive_utc())? == 0 {
            return Err(AuthError::InvalidResetToken);
        }
        repo::update_password_hash(conn, account.id, new_password_hash, now.naive_utc())?;
        repo::delete_sessions_of_user(conn, account.id)?;
        repo::delete_other_reset_tokens(conn, account.id, &token_hash)?;
        throttle::clear_account(conn, &account.email)?;
        Ok(account)
    })
}

/// Creates a reset token for the account with this e-mail, if there is one, and e-mails
/// the link. The caller answers the same whatever happened, so nobody learns whether an
/// account exists; a mail failure is logged (ours to fix, not the visitor's to learn about).
pub async fn send_link(ctx: &AppCtx, email: String) -> Result<(), AuthError> {
    let AppCtx { db, clock, mailer, config, .. } = ctx;
    let clock = clock.clone();
    let Some(request) = db.run(move |conn| request(conn, &email, clock.now())).await? else { return Ok(()) };
    if let Err(e) = mailer.send(reset_email(config, &request)).await {
        tracing::error!(error = %e, user_id = request.account.id.0, "could not send the reset e-mail");
    }
    Ok(())
}

/// Sets a new password with a reset token. The token is checked before a hash is paid for,
/// then used once, in the transaction that stores the new hash ([`complete`]).
pub async fn reset_password(
    ctx: &AppCtx,
    passwords: &Passwords,
    token: String,
    new_password: String,
) -> Result<Account, AuthError> {
    let AppCtx { db, clock, .. } = ctx;
    let (checked, now_clock) = (token.clone(), clock.clone());
    db.run(move |conn| verify(conn, &checked, now_clock.now())).await?;
    let hash = passwords.hash(new_password).await?;
    let clock = clock.clone();
    db.run(move |conn| complete(conn, &token, &hash, clock.now())).await
}

/// The reset e-mail. The link is built from the configured public URL, never from the
/// request's Host header, so a forged Host cannot send users to someone else's site. The
/// text stays ASCII so it travels as 7bit and the link is never re-encoded or wrapped.
pub fn reset_email(config: &Config, request: &ResetRequest) -> setupiq_core::mail::OutgoingEmail {
    let link = config.public_link(&format!("/reset-password?token={}", request.token));
    setupiq_core::mail::OutgoingEmail {
        to: request.account.email.clone(),
        subject: "Reset your SetupIQ password".to_owned(),
        text: format!(
            "Hi,\r\n\r\nSomeone (hopefully you) asked to reset the password of your SetupIQ account.\r\n\
             Open this link within the next hour to choose a new one:\r\n\r\n{link}\r\n\r\n\
             The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.\r\n\r\n\
             -- SetupIQ\r\n",
        ),
        reply_to: None,
        unsubscribe: None,
    }
}
