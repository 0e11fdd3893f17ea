//! Accounts as an admin manages them: found by e-mail or username, Pro granted or revoked
//! (DESIGN.md §5: by an admin until a Pro plan is sold), the admin role given or taken, and
//! the table's bulk actions on the accounts an admin ticked (grant or remove Pro, mark
//! verified, delete), each account skipped with a reason where it cannot or need not change.
//! Every change is written to the admin log in its transaction.

use chrono::{DateTime, Utc};
use setupiq_auth::models::Role;
use setupiq_auth::service::{accounts, deletion, verify};
use setupiq_auth::{Account, AuthError};
use setupiq_core::UserId;
use setupiq_core::error::chain;
use setupiq_db::{AppCtx, DbConnection, write_transaction};

use super::log::{self, Action, Actor, Target};
use crate::error::AdminError;

/// Accounts per page of the users list.
pub const SEARCH_LIMIT: i64 = 20;

/// One page of the users list.
#[derive(Debug)]
pub struct UsersPage {
    pub accounts: Vec<Account>,
    /// Accounts matching in all.
    pub total: i64,
}

/// Accounts whose e-mail or username holds `query` (blank: every account), newest first,
/// [`SEARCH_LIMIT`] from `offset`.
pub fn search(conn: &mut DbConnection, query: &str, offset: i64) -> Result<UsersPage, AdminError> {
    let (accounts, total) = accounts::search(conn, query, SEARCH_LIMIT, offset)?;
    Ok(UsersPage { accounts, total })
}

/// What an admin changes about an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Pro(bool),
    Admin(bool),
}

/// Applies `change` to an account; an admin cannot take their own admin role (the last
/// admin could lock everyone out). Returns the account as it is now.
pub fn change(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    user_id: UserId,
    change: Change,
    now: DateTime<Utc>,
) -> Result<Account, AdminError> {
    if change == Change::Admin(false) && user_id == actor.id {
        return Err(AdminError::OwnAdminRole);
    }
    write_transaction(conn, |conn| {
        let action = apply(conn, user_id, change, now)?;
        log::record(conn, actor, action, Target::User(user_id), None, now)?;
        accounts::find(conn, user_id)?.ok_or(AdminError::UserNotFound)
    })
}

/// Writes `change` to the account; returns the admin-log action that names it.
fn apply(
    conn: &mut DbConnection,
    user_id: UserId,
    change: Change,
    now: DateTime<Utc>,
) -> Result<Action, AdminError> {
    Ok(match change {
        Change::Pro(on) => {
            accounts::set_pro(conn, user_id, on, now)?;
            if on { Action::GrantPro } else { Action::RevokePro }
        }
        Change::Admin(on) => {
            accounts::set_role(conn, user_id, if on { Role::Admin } else { Role::User }, now)?;
            if on { Action::GrantAdmin } else { Action::RevokeAdmin }
        }
    })
}

/// Accounts one bulk action may name at once (a page of the users table is 20).
pub const BULK_LIMIT: usize = 50;

/// What an admin does to many chosen accounts at once, confirmed once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkAction {
    Change(BulkChange),
    /// Through the member's own deletion path (`auth::service::deletion`).
    Delete,
}

/// The bulk actions that change an account and keep it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkChange {
    GrantPro,
    RevokePro,
    /// Marks the address verified (`auth::service::verify::mark_verified`).
    Verify,
}

/// Why an account of a bulk action was left as it was; the message is what the admin reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Skip {
    #[error("No account has this id.")]
    NotFound,
    /// An admin deletes their own account from their profile, with their password.
    #[error("You can't delete your own account here.")]
    Yourself,
    /// Admins are not deleted in bulk: their role is taken first, one at a time.
    #[error("Admins can't be deleted here: remove their admin role first.")]
    Admin,
    #[error("Already has Pro granted.")]
    AlreadyPro,
    /// Not Pro, or Pro by a paid subscription, which an admin does not end.
    #[error("Has no Pro granted by an admin to remove.")]
    NoGrant,
    #[error("E-mail address already verified.")]
    AlreadyVerified,
    /// A [`setupiq_auth::service::accounts::BeforeDeletion`] could not settle (their Stripe
    /// subscription could not be ended): the account stays.
    #[error(
        "Could not be deleted right now (their subscription could not be ended). Please try again in a few minutes."
    )]
    Blocked,
}

/// What became of one chosen account: changed (`None`) or skipped, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BulkOutcome {
    pub user_id: UserId,
    pub skipped: Option<Skip>,
}

/// Applies `action` to each of `user_ids` (distinct, at most [`BULK_LIMIT`]: the request's
/// rules), each account in its own transaction with its admin-log entry, as the single
/// actions are; an account it cannot or need not change is skipped with the reason, never
/// failing the others. Returns one outcome per id, in order.
pub async fn bulk(
    ctx: &AppCtx,
    actor: (UserId, String),
    user_ids: Vec<UserId>,
    action: BulkAction,
) -> Result<Vec<BulkOutcome>, AdminError> {
    match action {
        BulkAction::Change(change) => {
            let now = ctx.clock.now();
            ctx.db
                .run(move |conn| {
                    let actor = Actor { id: actor.0, username: &actor.1 };
                    user_ids
                        .into_iter()
                        .map(|user_id| {
                            let skipped = write_transaction(conn, |conn| {
                                change_one(conn, actor, user_id, change, now)
                            })?;
                            Ok(BulkOutcome { user_id, skipped })
                        })
                        .collect()
                })
                .await
        }
        BulkAction::Delete => {
            let mut outcomes = Vec::with_capacity(user_ids.len());
            for user_id in user_ids {
                let skipped = delete_one(ctx, &actor, user_id).await?;
                outcomes.push(BulkOutcome { user_id, skipped });
            }
            Ok(outcomes)
        }
    }
}

/// One account of a bulk change, inside its transaction: `Some(skip)` when left as it was.
fn change_one(
    conn: &mut DbConnection,
    actor: Actor<'_>,
    user_id: UserId,
    change: BulkChange,
    now: DateTime<Utc>,
) -> Result<Option<Skip>, AdminError> {
    let Some(account) = accounts::find(conn, user_id)? else { return Ok(Some(Skip::NotFound)) };
    let action = match change {
        BulkChange::GrantPro if account.pro_granted => return Ok(Some(Skip::AlreadyPro)),
        BulkChange::RevokePro if !account.pro_granted => return Ok(Some(Skip::NoGrant)),
        BulkChange::GrantPro | BulkChange::RevokePro => {
            apply(conn, user_id, Change::Pro(change == BulkChange::GrantPro), now)?
        }
        BulkChange::Verify => {
            if !verify::mark_verified(conn, user_id, now)? {
                return Ok(Some(Skip::AlreadyVerified));
            }
            Action::VerifyEmail
        }
    };
    log::record(conn, actor, action, Target::User(user_id), None, now)?;
    Ok(None)
}

/// Deletes one chosen account through the member's own deletion path, its admin-log entry
/// (naming it, as its id will lead nowhere) in the deletion's transaction.
async fn delete_one(
    ctx: &AppCtx,
    actor: &(UserId, String),
    user_id: UserId,
) -> Result<Option<Skip>, AdminError> {
    if user_id == actor.0 {
        return Ok(Some(Skip::Yourself));
    }
    let account = ctx.db.run(move |conn| accounts::find(conn, user_id)).await?;
    let Some(account) = account else { return Ok(Some(Skip::NotFound)) };
    if account.is_admin() {
        return Ok(Some(Skip::Admin));
    }
    let (admin_id, admin_name, now) = (actor.0, actor.1.clone(), ctx.clock.now());
    let details = format!("@{}", account.username);
    let record = move |conn: &mut DbConnection| {
        let actor = Actor { id: admin_id, username: &admin_name };
        log::record(conn, actor, Action::DeleteAccount, Target::User(user_id), Some(&details), now)
    };
    match deletion::delete_by_admin(ctx, user_id, record).await {
        Ok(()) => Ok(None),
        Err(AdminError::Auth(AuthError::UserNotFound)) => Ok(Some(Skip::NotFound)),
        Err(AdminError::Auth(AuthError::DeletionBlocked(cause))) => {
            tracing::warn!(user_id = user_id.0, error = %chain(cause.as_ref()), "an admin's deletion was blocked");
            Ok(Some(Skip::Blocked))
        }
        Err(other) => Err(other),
    }
}
