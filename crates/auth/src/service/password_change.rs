//! A signed-in member changes their password, or signs out everywhere else.
//!
//! A change checks the current password through the login throttle (a borrowed session
//! cannot be used to guess it); the new one follows the sign-up rules and must differ from
//! it. It ends every other session of the account and its outstanding reset links, keeps the
//! session it was made from, and an e-mail tells the owner it happened. "Sign out everywhere
//! else" ends the same sessions and links without a change ([`end_other_sessions`]).

use setupiq_core::mail::OutgoingEmail;
use setupiq_core::{Config, UserId};
use setupiq_db::{AppCtx, DbConnection, write_transaction};

use crate::error::AuthError;
use crate::models::Account;
use crate::repo;
use crate::service::passwords::Passwords;
use crate::service::{accounts, reauth, sessions};

/// What the member sent, and where from.
pub struct PasswordChange {
    pub user_id: UserId,
    /// The session the change is made from: it stays signed in.
    pub session_token: String,
    pub current_password: String,
    pub new_password: String,
    /// The client's address (`None` when unknown), for the throttle.
    pub ip: Option<String>,
}

/// Checks the current password, stores the new one and ends the account's other sessions;
/// returns how many other sessions ended. The e-mail that says so is sent after the change
/// is stored; a mail failure is logged, not the member's to learn about.
pub async fn change_password(
    ctx: &AppCtx,
    passwords: &Passwords,
    change: PasswordChange,
) -> Result<usize, AuthError> {
    let AppCtx { db, clock, mailer, config, .. } = ctx;
    let PasswordChange { user_id, session_token, current_password, new_password, ip } = change;
    let account = reauth::confirm_password(ctx, passwords, user_id, current_password.clone(), ip).await?;
    if new_password == current_password {
        return Err(AuthError::SamePassword);
    }
    let hash = passwords.hash(new_password).await?;
    let ended = {
        let clock = clock.clone();
        db.run(move |conn| {
            let now = clock.now();
            write_transaction(conn, |conn| {
                accounts::replace_password_hash(conn, user_id, &hash, now)?;
                end_other_sessions(conn, user_id, &session_token)
            })
        })
        .await?
    };
    if let Err(e) = mailer.send(changed_email(config, &account)).await {
        tracing::error!(error = %e, user_id = user_id.0, "could not send the password-changed e-mail");
    }
    Ok(ended)
}

/// Ends every session of the account but the one with `keep_token`, and every reset link it
/// has out (a link mailed before the change must not undo it), together; returns the
/// sessions ended.
pub fn end_other_sessions(
    conn: &mut DbConnection,
    user_id: UserId,
    keep_token: &str,
) -> Result<usize, AuthError> {
    write_transaction(conn, |conn| {
        let ended = sessions::end_others(conn, user_id, keep_token)?;
        repo::delete_reset_tokens_of_user(conn, user_id)?;
        Ok(ended)
    })
}

/// The notice to the account's address. It names no password and no link to follow: it tells
/// the owner what happened and what to do if it was not them.
pub fn changed_email(config: &Config, account: &Account) -> OutgoingEmail {
    let sign_in = config.public_link("/login");
    OutgoingEmail {
        to: account.email.clone(),
        subject: "Your SetupIQ password was changed".to_owned(),
        text: format!(
            "Hi,\r\n\r\nThe password of your SetupIQ account was just changed, and every other device \
             signed in to it was signed out.\r\n\r\n\
             If that was you, there is nothing more to do. If it was not, choose a new password \
             at once with \"Forgot Password?\" on the sign-in page:\r\n\r\n{sign_in}\r\n\r\n-- SetupIQ\r\n",
        ),
        reply_to: None,
        unsubscribe: None,
    }
}
