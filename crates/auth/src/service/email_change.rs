//! A signed-in member moves their account to another e-mail address. The current password
//! proves it is them ([`reauth`]); a link mailed to the new address proves it is theirs; the
//! account moves only when that link is followed ([`verify::verify`]), and the address it
//! leaves is told then. Until then nothing changes: they keep signing in with the old one.

use setupiq_core::UserId;
use setupiq_db::AppCtx;

use crate::error::AuthError;
use crate::service::passwords::Passwords;
use crate::service::{reauth, verify};

/// What the member asked for, and where from.
pub struct EmailChange {
    pub user_id: UserId,
    pub new_email: String,
    pub current_password: String,
    /// The client's address (`None` when unknown), for the throttle.
    pub ip: Option<String>,
}

/// Checks the password and mails the link to the new address; answers that address
/// (normalised). A mail failure is an outage the member is told of, so they can try again.
pub async fn request(ctx: &AppCtx, passwords: &Passwords, change: EmailChange) -> Result<String, AuthError> {
    let AppCtx { db, clock, .. } = ctx;
    let EmailChange { user_id, new_email, current_password, ip } = change;
    reauth::confirm_password(ctx, passwords, user_id, current_password, ip).await?;
    let clock = clock.clone();
    let link = db.run(move |conn| verify::create_change_link(conn, user_id, &new_email, clock.now())).await?;
    verify::mail_link(ctx, &link).await.map_err(AuthError::Mail)?;
    Ok(link.to)
}
