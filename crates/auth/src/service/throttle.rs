//! Login throttling by account and client address together (DESIGN.md §5, after OWASP's
//! Authentication Cheat Sheet), over a sliding window. Failures are stored in the database,
//! so the limits hold across restarts and across gateway instances.
//!
//! Counting an account's failures alone let anyone keep its owner out: five wrong passwords
//! from anywhere locked the account for everyone. So the lock is per (account, address):
//! an address that keeps guessing locks only itself out of that account. Across all
//! addresses a much higher ceiling slows every attempt on the account (a guesser spread over
//! many addresses) and locks the addresses that have failed on it, never one that has not:
//! the owner at home still signs in with the right password. A completed password reset
//! clears the account's counters ([`clear_account`]).

use chrono::{DateTime, Duration, Utc};
use setupiq_db::DbConnection;

use crate::error::AuthError;
use crate::models::LoginAttemptInsertForm;
use crate::repo;

pub const WINDOW: Duration = Duration::minutes(15);
/// Failed logins of one account from one client address within the window before that
/// address is locked out of the account for the window.
pub const MAX_ADDRESS_FAILURES: i64 = 5;
/// Failed logins from one IP (any accounts) within the window.
pub const MAX_IP_FAILURES: i64 = 20;
/// Failed logins of one account from all addresses within the window beyond which every
/// attempt on it is slowed ([`CEILING_DELAY`]) and the addresses that failed on it are locked.
pub const ACCOUNT_CEILING: i64 = 100;
/// How long each attempt on an account over [`ACCOUNT_CEILING`] waits before its password
/// is checked: a guesser spread over many addresses gets a few guesses a second at most.
pub const CEILING_DELAY: std::time::Duration = std::time::Duration::from_secs(1);

/// How an allowed attempt goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// At once.
    Now,
    /// After [`CEILING_DELAY`]: the account is over its ceiling of failures.
    Slowed,
}

impl Pace {
    /// Waits as the pace says (the caller holds no connection meanwhile).
    pub async fn wait(self) {
        if self == Pace::Slowed {
            tokio::time::sleep(CEILING_DELAY).await;
        }
    }
}

/// Refuses the attempt with a retry delay when the address is locked out of the account (or
/// out of every account), else says whether it waits first.
pub fn check(
    conn: &mut DbConnection,
    account_key: &str,
    ip: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Pace, AuthError> {
    let since = (now - WINDOW).naive_utc();
    let (from_address, oldest_from_address) =
        repo::account_failures_from_since(conn, account_key, ip, since)?;
    let (from_everywhere, _) = repo::account_failures_since(conn, account_key, since)?;
    let over_ceiling = from_everywhere >= ACCOUNT_CEILING;
    let address_locked = from_address >= MAX_ADDRESS_FAILURES || (over_ceiling && from_address > 0);
    let mut blocked_until = if address_locked { oldest_from_address.map(|t| t + WINDOW) } else { None };
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
        None if over_ceiling => Ok(Pace::Slowed),
        None => Ok(Pace::Now),
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

/// A successful login forgives the failures of its own address on the account; other
/// addresses' stay counted, so an attacker's lock outlasts the owner signing in.
pub fn record_success(conn: &mut DbConnection, account_key: &str, ip: Option<&str>) -> Result<(), AuthError> {
    repo::clear_account_failures_from(conn, account_key, ip)?;
    Ok(())
}

/// Forgets every failure on the account, from every address: a completed password reset
/// proves the owner, and whoever guessed the old password has nothing left to guess.
pub fn clear_account(conn: &mut DbConnection, account_key: &str) -> Result<(), AuthError> {
    repo::clear_account_failures(conn, account_key)?;
    Ok(())
}
