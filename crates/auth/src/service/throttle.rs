//! Login throttling, per account and per client IP, over a sliding window. Failures are
//! stored in the database, so the limit holds across restarts and across gateway instances.

use chrono::{DateTime, Duration, Utc};
use setupiq_db::DbConnection;

use crate::error::AuthError;
use crate::models::LoginAttemptInsertForm;
use crate::repo;

pub const WINDOW: Duration = Duration::minutes(15);
/// Failed logins for one account within the window before it is locked for the window.
pub const MAX_ACCOUNT_FAILURES: i64 = 5;
/// Failed logins from one IP (any accounts) within the window.
pub const MAX_IP_FAILURES: i64 = 20;

/// Refuses the attempt with a retry delay when either limit is reached.
pub fn check(
    conn: &mut DbConnection,
    account_key: &str,
    ip: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    let since = (now - WINDOW).naive_utc();
    let mut blocked_until = None;
    let (failures, oldest) = repo::account_failures_since(conn, account_key, since)?;
    if failures >= MAX_ACCOUNT_FAILURES {
        blocked_until = oldest.map(|t| t + WINDOW);
    }
    if let Some(ip) = ip {
        let (failures, oldest) = repo::ip_failures_since(conn, ip, since)?;
        if failures >= MAX_IP_FAILURES {
            blocked_until = blocked_until.max(oldest.map(|t| t + WINDOW));
        }
    }
    match blocked_until {
        Some(until) => Err(AuthError::Throttled {
            retry_after_secs: setupiq_core::clock::retry_after_secs(until.and_utc(), now),
        }),
        None => Ok(()),
    }
}

pub fn record_failure(
    conn: &mut DbConnection,
    account_key: &str,
    ip: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    repo::prune_login_attempts(conn, (now - Duration::days(1)).naive_utc())?;
    repo::insert_login_attempt(
        conn,
        &LoginAttemptInsertForm {
            account_key: Some(account_key),
            ip,
            succeeded: false,
            attempted_at: now.naive_utc(),
        },
    )?;
    Ok(())
}

/// A successful login forgives the account's earlier failures (the IP's stay counted).
pub fn record_success(conn: &mut DbConnection, account_key: &str) -> Result<(), AuthError> {
    repo::clear_account_failures(conn, account_key)?;
    Ok(())
}
