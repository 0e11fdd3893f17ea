//! A signed-in member proves it is them again before a change a borrowed session must not
//! make on its own: a new password, deleting the account. The current password is checked
//! through the login throttle, so a session cannot be used to guess it either.

use setupiq_core::UserId;
use setupiq_db::AppCtx;

use crate::error::AuthError;
use crate::models::Account;
use crate::repo;
use crate::service::passwords::{Passwords, Verification};
use crate::service::throttle;

/// Checks `password` against the account's own; a wrong one counts as a failed login of the
/// account from `ip` (`None` when unknown), a right one clears that address's failures as a
/// login does. Answers the account as it is now.
pub async fn confirm_password(
    ctx: &AppCtx,
    passwords: &Passwords,
    user_id: UserId,
    password: String,
    ip: Option<String>,
) -> Result<Account, AuthError> {
    let AppCtx { db, clock, .. } = ctx;
    let (account, stored, pace) = {
        let (ip, clock) = (ip.clone(), clock.clone());
        db.run(move |conn| {
            let row = repo::find_user(conn, user_id)?.ok_or(AuthError::NotAuthenticated)?;
            let pace = throttle::check(conn, &row.email, ip.as_deref(), clock.now())?;
            let stored = row.password_hash.clone();
            Ok::<_, AuthError>((Account::from(row), stored, pace))
        })
        .await?
    };
    pace.wait().await;
    if let Verification::Mismatch = passwords.verify(password, Some(stored)).await? {
        let (key, clock) = (account.email.clone(), clock.clone());
        db.run(move |conn| throttle::record_failure(conn, &key, ip.as_deref(), clock.now())).await?;
        return Err(AuthError::WrongCurrentPassword);
    }
    let key = account.email.clone();
    db.run(move |conn| throttle::record_success(conn, &key, ip.as_deref())).await?;
    Ok(account)
}
