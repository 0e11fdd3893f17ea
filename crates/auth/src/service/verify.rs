//! E-mail verification (DESIGN.md §5): every account is mailed a link to
//! `/verify-email?token=…` when it signs up, and again when it asks; following it proves the
//! address is the account's own. Until then the account works as before (sign-up signs in
//! at once, with the signup bonus), but an address listed in `SETUPIQ_ADMIN_EMAILS` gets
//! no admin role and the account's reports do not count towards hiding a setup.
//!
//! A token is 256 random bits, stored as its digest (like reset tokens), bound to the
//! address it was sent to, and works once, for [`TOKEN_LIFETIME`]. An account is sent at
//! most [`LINKS_PER_HOUR`] links an hour (the sign-up's included), so "Resend" cannot be
//! used to flood an inbox.
//!
//! [`send_link`] and [`verify_email`] are the flows the endpoints run; the rest are the
//! rules over a connection they are made of.

use chrono::{DateTime, Duration, Utc};
use setupiq_core::mail::{Mailer, OutgoingEmail};
use setupiq_core::{Config, SharedClock, tokens};
use setupiq_db::{Db, DbConnection, write_transaction};

use crate::error::AuthError;
use crate::models::{Account, Role, VerificationTokenInsertForm};
use crate::repo;

pub const TOKEN_LIFETIME: Duration = Duration::hours(24);
/// Verification e-mails an account may be sent in an hour.
pub const LINKS_PER_HOUR: usize = 5;
const HOUR: Duration = Duration::hours(1);

/// A verification e-mail to send: the account and the token for its link.
#[derive(Debug)]
pub struct VerificationLink {
    pub account: Account,
    pub token: String,
}

/// Makes a new verification link for the account: refused when its address is verified
/// already or it has been sent [`LINKS_PER_HOUR`] links in the last hour (with the seconds
/// until the oldest of them leaves the hour).
pub fn create_link(
    conn: &mut DbConnection,
    user_id: i64,
    now: DateTime<Utc>,
) -> Result<VerificationLink, AuthError> {
    write_transaction(conn, |conn| {
        // Concurrent resends of one account queue here, so none can pass the count twice.
        repo::lock_user(conn, user_id)?;
        let account: Account = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?.into();
        if account.email_verified {
            return Err(AuthError::AlreadyVerified);
        }
        let recent = repo::verification_tokens_since(conn, user_id, (now - HOUR).naive_utc())?;
        if recent.len() >= LINKS_PER_HOUR {
            let oldest = recent.first().map_or(now, |at| at.and_utc());
            // Rounded up, so a client that waits exactly this long is let through.
            let wait_ms = (oldest + HOUR - now).num_milliseconds();
            let retry_after_secs = u64::try_from((wait_ms + 999) / 1000).unwrap_or(0).max(1);
            return Err(AuthError::TooManyVerificationEmails { retry_after_secs });
        }
        let token = tokens::generate();
        repo::insert_verification_token(
            conn,
            &VerificationTokenInsertForm {
                token_hash: &tokens::digest(&token),
                user_id,
                email: &account.email,
                created_at: now.naive_utc(),
                expires_at: (now + TOKEN_LIFETIME).naive_utc(),
            },
        )?;
        Ok(VerificationLink { account, token })
    })
}

/// Uses a verification token: the account's address is verified from now on, every other
/// link of the account is used up, and an address listed in `admin_emails` (normalised, as
/// the configuration keeps them) gets the admin role. Exactly one of several concurrent
/// uses succeeds; the others are told the link was used.
pub fn verify(
    conn: &mut DbConnection,
    token: &str,
    admin_emails: &[String],
    now: DateTime<Utc>,
) -> Result<Account, AuthError> {
    let token_hash = tokens::digest(token);
    write_transaction(conn, |conn| {
        let row =
            repo::find_verification_token(conn, &token_hash)?.ok_or(AuthError::VerificationLinkInvalid)?;
        if row.used_at.is_some() {
            return Err(AuthError::VerificationLinkUsed);
        }
        if row.expires_at <= now.naive_utc() {
            return Err(AuthError::VerificationLinkExpired);
        }
        let user = repo::find_user(conn, row.user_id)?.ok_or(AuthError::VerificationLinkInvalid)?;
        // A link proves only the address it was sent to.
        if user.email != row.email {
            return Err(AuthError::VerificationLinkInvalid);
        }
        if repo::mark_verification_token_used(conn, &token_hash, now.naive_utc())? == 0 {
            return Err(AuthError::VerificationLinkUsed);
        }
        repo::set_email_verified(conn, user.id, now.naive_utc())?;
        repo::use_up_verification_tokens(conn, user.id, now.naive_utc())?;
        if user.role != Role::Admin && admin_emails.contains(&user.email) {
            repo::set_role(conn, user.id, Role::Admin, now.naive_utc())?;
            tracing::info!(user_id = user.id, "verified address in SETUPIQ_ADMIN_EMAILS: admin role granted");
        }
        repo::find_user(conn, user.id)?.map(Account::from).ok_or(AuthError::UserNotFound)
    })
}

/// Whether the account's address is verified.
pub fn is_verified(conn: &mut DbConnection, user_id: i64) -> Result<bool, AuthError> {
    Ok(repo::find_user(conn, user_id)?.is_some_and(|u| u.email_verified_at.is_some()))
}

/// Makes a link for the account and e-mails it (a resend). A mail failure is logged and
/// answered as an outage, so the user knows to try again.
pub async fn send_link(
    db: &Db,
    clock: &SharedClock,
    mailer: &Mailer,
    config: &Config,
    user_id: i64,
) -> Result<(), AuthError> {
    let clock = clock.clone();
    let link = db.run(move |conn| create_link(conn, user_id, clock.now())).await?;
    mail_link(mailer, config, &link).await.map_err(|e| AuthError::Mail(e.to_string()))
}

/// E-mails a link made by [`create_link`] (or by registration).
pub async fn mail_link(
    mailer: &Mailer,
    config: &Config,
    link: &VerificationLink,
) -> Result<(), setupiq_core::mail::MailError> {
    let sent = mailer.send(verification_email(config, link)).await;
    if let Err(e) = &sent {
        tracing::error!(error = %e, user_id = link.account.id, "could not send the verification e-mail");
    }
    sent
}

/// Verifies an address with the token of its link (see [`verify`]).
pub async fn verify_email(
    db: &Db,
    clock: &SharedClock,
    config: &Config,
    token: String,
) -> Result<Account, AuthError> {
    let (clock, admin_emails) = (clock.clone(), config.admin_emails.clone());
    db.run(move |conn| verify(conn, &token, &admin_emails, clock.now())).await
}

/// The verification e-mail. Like the reset e-mail, the link is built from the configured
/// public URL (never the request's Host) and the text stays ASCII so the link travels
/// unwrapped.
pub fn verification_email(config: &Config, link: &VerificationLink) -> OutgoingEmail {
    let url = config.public_link(&format!("/verify-email?token={}", link.token));
    OutgoingEmail {
        to: link.account.email.clone(),
        subject: "Verify your SetupIQ e-mail address".to_owned(),
        text: format!(
            "Hi,\r\n\r\nPlease confirm that this address belongs to your SetupIQ account by opening this link\r\n\
             within the next 24 hours:\r\n\r\n{url}\r\n\r\n\
             The link works once. If you did not create a SetupIQ account, ignore this e-mail.\r\n\r\n\
             -- SetupIQ\r\n",
        ),
        reply_to: None,
    }
}
