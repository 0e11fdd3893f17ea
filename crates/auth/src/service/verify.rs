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
//! The same links move an account to another address ([`create_change_link`]): a link
//! bound to an address that is not the account's is a change, made only when it is
//! followed; every other link of the account is used up then, so an older one cannot move
//! it back.
//!
//! [`send_link`] and [`verify_email`] are the flows the endpoints run; the rest are the
//! rules over a connection they are made of.

use chrono::{DateTime, Duration, Utc};
use setupiq_core::mail::OutgoingEmail;
use setupiq_core::validation::normalize_email;
use setupiq_core::{Config, UserId, tokens};
use setupiq_db::{AppCtx, DbConnection, is_unique_violation, write_transaction};

use crate::error::AuthError;
use crate::models::{Account, Role, VerificationTokenInsertForm};
use crate::repo;

pub const TOKEN_LIFETIME: Duration = Duration::hours(24);
/// Verification e-mails an account may be sent in an hour.
pub const LINKS_PER_HOUR: usize = 5;
const HOUR: Duration = Duration::hours(1);

/// A verification e-mail to send: the account, the address it goes to (the account's own,
/// or the one it is moving to) and the token for its link.
#[derive(Debug)]
pub struct VerificationLink {
    pub account: Account,
    pub to: String,
    pub token: String,
}

impl VerificationLink {
    /// Whether following it moves the account to another address.
    pub fn is_change(&self) -> bool {
        self.to != self.account.email
    }
}

/// A followed link: the account as it is now, and the address it left when the link moved
/// it to another.
#[derive(Debug)]
pub struct Verified {
    pub account: Account,
    pub previous_email: Option<String>,
}

/// Makes a new verification link for the account: refused when its address is verified
/// already or it has been sent [`LINKS_PER_HOUR`] links in the last hour (with the seconds
/// until the oldest of them leaves the hour).
pub fn create_link(
    conn: &mut DbConnection,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<VerificationLink, AuthError> {
    write_transaction(conn, |conn| {
        // Concurrent resends of one account queue here, so none can pass the count twice.
        repo::lock_user(conn, user_id)?;
        let account: Account = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?.into();
        if account.email_verified {
            return Err(AuthError::AlreadyVerified);
        }
        let to = account.email.clone();
        issue(conn, account, to, now)
    })
}

/// Makes a link to `new_email` that moves the account there when it is followed: refused
/// when it is the account's address already, another account's, or the account has been
/// sent [`LINKS_PER_HOUR`] links in the last hour.
pub fn create_change_link(
    conn: &mut DbConnection,
    user_id: UserId,
    new_email: &str,
    now: DateTime<Utc>,
) -> Result<VerificationLink, AuthError> {
    let to = normalize_email(new_email);
    write_transaction(conn, |conn| {
        repo::lock_user(conn, user_id)?;
        let account: Account = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?.into();
        if account.email == to {
            return Err(AuthError::SameEmail);
        }
        if repo::find_user_by_email(conn, &to)?.is_some() {
            return Err(AuthError::EmailTaken);
        }
        issue(conn, account, to, now)
    })
}

/// Stores a new link of `account` to the address `to`, within the hourly allowance.
fn issue(
    conn: &mut DbConnection,
    account: Account,
    to: String,
    now: DateTime<Utc>,
) -> Result<VerificationLink, AuthError> {
    let recent = repo::verification_tokens_since(conn, account.id, (now - HOUR).naive_utc())?;
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
            user_id: account.id,
            email: &to,
            created_at: now.naive_utc(),
            expires_at: (now + TOKEN_LIFETIME).naive_utc(),
        },
    )?;
    Ok(VerificationLink { account, to, token })
}

/// Uses a verification token: the address it was sent to is the account's, verified, from
/// now on (moving the account there when it was another; its reset links end then), every
/// other link of the account is used up, and an address listed in `admin_emails`
/// (normalised, as the configuration keeps them) gets the admin role, while an admin moved
/// to an address not listed loses it (however it was granted). Exactly one of several
/// concurrent uses succeeds; the others are told the link was used. A used link of the
/// address the account has verified answers as it did the first time, changing nothing.
pub fn verify(
    conn: &mut DbConnection,
    token: &str,
    admin_emails: &[String],
    now: DateTime<Utc>,
) -> Result<Verified, AuthError> {
    let token_hash = tokens::digest(token);
    write_transaction(conn, |conn| {
        let row =
            repo::find_verification_token(conn, &token_hash)?.ok_or(AuthError::VerificationLinkInvalid)?;
        if row.used_at.is_some() {
            // Followed again (a second click, another device) once the address it proves is
            // the account's verified one: that is what the member wants to hear, not a failure.
            return match repo::find_user(conn, row.user_id)? {
                Some(user) if user.email == row.email && user.email_verified_at.is_some() => {
                    Ok(Verified { account: Account::from(user), previous_email: None })
                }
                _ => Err(AuthError::VerificationLinkUsed),
            };
        }
        if row.expires_at <= now.naive_utc() {
            return Err(AuthError::VerificationLinkExpired);
        }
        let user = repo::find_user(conn, row.user_id)?.ok_or(AuthError::VerificationLinkInvalid)?;
        if repo::mark_verification_token_used(conn, &token_hash, now.naive_utc())? == 0 {
            return Err(AuthError::VerificationLinkUsed);
        }
        // A link proves only the address it was sent to: one that is not the account's moves
        // the account there, unless another account took the address meanwhile.
        let previous_email = if user.email == row.email {
            repo::set_email_verified(conn, user.id, now.naive_utc())?;
            None
        } else {
            match repo::move_to_email(conn, user.id, &row.email, now.naive_utc()) {
                Err(e) if is_unique_violation(&e) => return Err(AuthError::EmailTaken),
                moved => moved?,
            };
            repo::delete_reset_tokens_of_user(conn, user.id)?;
            Some(user.email.clone())
        };
        repo::use_up_verification_tokens(conn, user.id, now.naive_utc())?;
        let listed = admin_emails.contains(&row.email);
        if user.role != Role::Admin && listed {
            repo::set_role(conn, user.id, Role::Admin, now.naive_utc())?;
            tracing::info!(
                user_id = user.id.0,
                "verified address in SETUPIQ_ADMIN_EMAILS: admin role granted"
            );
        } else if user.role == Role::Admin && previous_email.is_some() && !listed {
            // The role follows the listed address: an admin's account taken over (a stolen
            // session asking for a move) must not carry the role to an address of the
            // taker's choosing.
            repo::set_role(conn, user.id, Role::User, now.naive_utc())?;
            tracing::info!(
                user_id = user.id.0,
                "admin moved to an address not in SETUPIQ_ADMIN_EMAILS: role ended"
            );
        }
        let account = repo::find_user(conn, user.id)?.map(Account::from).ok_or(AuthError::UserNotFound)?;
        Ok(Verified { account, previous_email })
    })
}

/// An admin marks the account's address as verified (they know it is the member's, say from
/// a support conversation): `true` when it was not verified before, `false` when it was.
/// Unlike a followed link it gives no admin role: an address in `SETUPIQ_ADMIN_EMAILS` gets
/// that from a link, or when the server next starts (`accounts::promote_admins`).
pub fn mark_verified(
    conn: &mut DbConnection,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<bool, AuthError> {
    if repo::set_email_verified(conn, user_id, now.naive_utc())? == 1 {
        return Ok(true);
    }
    match repo::find_user(conn, user_id)? {
        Some(_) => Ok(false),
        None => Err(AuthError::UserNotFound),
    }
}

/// Whether the account's address is verified.
pub fn is_verified(conn: &mut DbConnection, user_id: UserId) -> Result<bool, AuthError> {
    Ok(repo::find_user(conn, user_id)?.is_some_and(|u| u.email_verified_at.is_some()))
}

/// Makes a link for the account and e-mails it (a resend). A mail failure is logged and
/// answered as an outage, so the user knows to try again.
pub async fn send_link(ctx: &AppCtx, user_id: UserId) -> Result<(), AuthError> {
    let AppCtx { db, clock, .. } = ctx;
    let clock = clock.clone();
    let link = db.run(move |conn| create_link(conn, user_id, clock.now())).await?;
    mail_link(ctx, &link).await.map_err(AuthError::Mail)
}

/// E-mails a link made by [`create_link`] (or by registration).
pub async fn mail_link(ctx: &AppCtx, link: &VerificationLink) -> Result<(), setupiq_core::mail::MailError> {
    let AppCtx { mailer, config, .. } = ctx;
    let sent = mailer.send(verification_email(config, link)).await;
    if let Err(e) = &sent {
        tracing::error!(error = %e, user_id = link.account.id.0, "could not send the verification e-mail");
    }
    sent
}

/// Verifies an address with the token of its link (see [`verify`]). When the link moved
/// the account, the address it left is told (a mail failure is logged: the move is made).
pub async fn verify_email(ctx: &AppCtx, token: String) -> Result<Account, AuthError> {
    let AppCtx { db, clock, mailer, config, .. } = ctx;
    let (clock, admin_emails) = (clock.clone(), config.admin_emails.clone());
    let verified = db.run(move |conn| verify(conn, &token, &admin_emails, clock.now())).await?;
    if let Some(previous) = &verified.previous_email
        && let Err(e) = mailer.send(moved_email(config, previous, &verified.account)).await
    {
        tracing::error!(error = %e, user_id = verified.account.id.0, "could not tell the old address of the move");
    }
    Ok(verified.account)
}

/// Told to an admin moving to an address that is not one of the configured admin addresses
/// (`SETUPIQ_ADMIN_EMAILS`): the role follows the listed address, not the account.
pub const ADMIN_ROLE_ENDS_NOTE: &str = "This account is an admin, and this address is not one of SetupIQ's admin \
     addresses: the admin role ends when the account moves here. ";

/// The verification e-mail. Like the reset e-mail, the link is built from the configured
/// public URL (never the request's Host) and the text stays ASCII so the link travels
/// unwrapped.
pub fn verification_email(config: &Config, link: &VerificationLink) -> OutgoingEmail {
    let url = config.public_link(&format!("/verify-email?token={}", link.token));
    if link.is_change() {
        let admin_note = if link.account.is_admin() && !config.is_admin_email(&link.to) {
            ADMIN_ROLE_ENDS_NOTE
        } else {
            ""
        };
        return OutgoingEmail {
            to: link.to.clone(),
            subject: "Confirm your new SetupIQ e-mail address".to_owned(),
            text: format!(
                "Hi,\r\n\r\nSomeone signed in to SetupIQ asked to move their account to this address. \
                 To confirm that it is yours, open this link within the next 24 hours:\r\n\r\n{url}\r\n\r\n\
                 The account moves only when the link is opened. {admin_note}If you did not ask for this, \
                 ignore this e-mail.\r\n\r\n-- SetupIQ\r\n",
            ),
            reply_to: None,
            unsubscribe: None,
        };
    }
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
        unsubscribe: None,
    }
}

/// The notice to the address an account left. It carries no link to follow: it says what
/// happened and what to do if it was not the owner.
pub fn moved_email(config: &Config, previous_email: &str, account: &Account) -> OutgoingEmail {
    let support = config.public_link("/contact");
    OutgoingEmail {
        to: previous_email.to_owned(),
        subject: "Your SetupIQ e-mail address was changed".to_owned(),
        text: format!(
            "Hi,\r\n\r\nThe SetupIQ account @{} no longer uses this address: it signs in with its new \
             one from now on.\r\n\r\nIf you did not make this change, write to us at once:\r\n\r\n\
             {support}\r\n\r\n-- SetupIQ\r\n",
            account.username,
        ),
        reply_to: None,
        unsubscribe: None,
    }
}
