//! Accounts as an admin manages them: found by e-mail or username, Pro granted or revoked
//! (DESIGN.md §5: by an admin until a Pro plan is sold), the admin role given or taken.
//! Every change is written to the admin log in its transaction.

use chrono::{DateTime, Utc};
use setupiq_auth::Account;
use setupiq_auth::models::Role;
use setupiq_auth::service::accounts;
use setupiq_core::UserId;
use setupiq_db::{DbConnection, write_transaction};

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
        let action = match change {
            Change::Pro(on) => {
                accounts::set_pro(conn, user_id, on, now)?;
                if on { Action::GrantPro } else { Action::RevokePro }
            }
            Change::Admin(on) => {
                accounts::set_role(conn, user_id, if on { Role::Admin } else { Role::User }, now)?;
                if on { Action::GrantAdmin } else { Action::RevokeAdmin }
            }
        };
        log::record(conn, actor, action, Target::User(user_id), None, now)?;
        accounts::find(conn, user_id)?.ok_or(AdminError::UserNotFound)
    })
}
