//! Deleting an account (DESIGN.md §5): the member proves it is them, what other crates
//! settle outside goes first (a Stripe subscription ends), then the account goes in one
//! transaction with what every crate keeps for it, the feed forgets its posts, and its
//! files leave the media store.

use setupiq_core::UserId;
use setupiq_db::AppCtx;

use crate::error::AuthError;
use crate::service::accounts;
use crate::service::passwords::Passwords;
use crate::service::reauth;

/// Deletes the account `user_id` once `password` proves it is the owner's (a wrong one
/// counts as a failed login from `ip`). Nothing is deleted when a [`accounts::BeforeDeletion`]
/// hook cannot settle.
pub async fn delete_account(
    ctx: &AppCtx,
    passwords: &Passwords,
    user_id: UserId,
    password: String,
    ip: Option<String>,
) -> Result<(), AuthError> {
    reauth::confirm_password(ctx, passwords, user_id, password, ip).await?;
    settle(ctx, user_id).await?;
    let (hooks, now) = (ctx.hooks.clone(), ctx.clock.now());
    let media_keys =
        ctx.db.run(move |conn| accounts::delete_account_with(conn, user_id, &hooks.owned_media, now)).await?;
    // The account's community posts, and its votes in others' scores, went with it.
    ctx.changes.content_changed();
    ctx.media.remove_media(&media_keys).await;
    tracing::info!(user_id = user_id.0, "account deleted");
    Ok(())
}

/// Runs each of the application's [`accounts::BeforeDeletion`]s in turn; the first that
/// fails stops the deletion.
async fn settle(ctx: &AppCtx, user_id: UserId) -> Result<(), AuthError> {
    for before in &ctx.hooks.departures.0 {
        before(ctx.clone(), user_id).await.map_err(AuthError::DeletionBlocked)?;
    }
    Ok(())
}
