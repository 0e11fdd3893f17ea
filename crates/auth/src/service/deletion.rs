//! Deleting an account (DESIGN.md §5): the member proves it is them (or an admin deletes it
//! from the panel), what other crates settle outside goes first (a Stripe subscription
//! ends), then the account goes in one transaction with what every crate keeps for it, the
//! feed forgets its posts, and its files leave the media store. Both ways in take the one
//! path below, so an admin's deletion removes exactly what the member's own would.

use setupiq_core::UserId;
use setupiq_db::{AppCtx, DbConnection, DbError, DieselError, write_transaction};

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
    remove(ctx, user_id, |_| Ok::<(), AuthError>(())).await
}

/// Deletes the account `user_id` for an admin (who is not asked for the member's password):
/// the member's own deletion, with `record` (the admin log's entry) written in the
/// deletion's transaction, so an account never goes unrecorded and a record that fails
/// keeps the account. Nothing is deleted when a [`accounts::BeforeDeletion`] hook cannot
/// settle ([`AuthError::DeletionBlocked`]); an account that is gone already is
/// [`AuthError::UserNotFound`].
pub async fn delete_by_admin<E, F>(ctx: &AppCtx, user_id: UserId, record: F) -> Result<(), E>
where
    F: FnOnce(&mut DbConnection) -> Result<(), E> + Send + 'static,
    E: From<AuthError> + From<DbError> + From<DieselError> + Send + 'static,
{
    remove(ctx, user_id, record).await
}

/// The one deletion path: settle outside, delete with every crate's rows and `record` in one
/// transaction, then tell the feed and remove the files.
async fn remove<E, F>(ctx: &AppCtx, user_id: UserId, record: F) -> Result<(), E>
where
    F: FnOnce(&mut DbConnection) -> Result<(), E> + Send + 'static,
    E: From<AuthError> + From<DbError> + From<DieselError> + Send + 'static,
{
    settle(ctx, user_id).await?;
    let (hooks, now) = (ctx.hooks.clone(), ctx.clock.now());
    let media_keys = ctx
        .db
        .run(move |conn| {
            write_transaction(conn, |conn| {
                let media_keys = accounts::delete_account_with(conn, user_id, &hooks.owned_media, now)?;
                record(conn)?;
                Ok::<_, E>(media_keys)
            })
        })
        .await?;
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
