//! Sign-up limits per client address (DESIGN.md §5, "sign-up abuse"): every account starts
//! with the signup bonus, so accounts made in bulk from one address were free credits. An
//! address may create `per_hour` accounts an hour (then 429 with `Retry-After`), and the
//! first `bonus_per_day` of them in 24 hours get the bonus; later ones start at 0 credits
//! and are told why. A real person signing up still gets the bonus at once, with no e-mail
//! round trip, so "Sign Up Free" resumes their pending analysis straight away.
//!
//! The address is the client's IP; an IPv6 client is counted by its /64, the block one
//! household or one host is given, so cycling through the addresses of one's own block
//! does not multiply the allowance.

use std::net::IpAddr;

use chrono::{DateTime, Duration, Utc};
use setupiq_core::config::SignupLimits;
use setupiq_db::DbConnection;

use crate::error::AuthError;
use crate::models::SignupInsertForm;
use crate::repo;

const HOUR: Duration = Duration::hours(1);
const DAY: Duration = Duration::hours(24);

/// The key sign-ups are counted under: an IPv4 address as it is, an IPv6 address by its
/// /64 (`2001:db8:1:2::/64`; an IPv4-mapped one as its IPv4 address), anything else as given.
pub fn address_key(ip: &str) -> String {
    match ip.parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.to_string(),
        Ok(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
        Err(_) => ip.to_owned(),
    }
}

/// Refuses a sign-up from an address that has created its hour's accounts, with how long
/// until the oldest of them leaves the window. Run it again inside the transaction that
/// creates the account, after [`lock`].
pub fn check_rate(
    conn: &mut DbConnection,
    address: &str,
    limits: SignupLimits,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    let recent = repo::signups_since(conn, address, (now - HOUR).naive_utc(), false)?;
    if recent.len() < limits.per_hour as usize {
        return Ok(());
    }
    let oldest = recent.first().map_or(now, |at| at.and_utc());
    let retry_after_secs = u64::try_from((oldest + HOUR - now).num_seconds()).unwrap_or(0).max(1);
    Err(AuthError::TooManySignups { retry_after_secs })
}

/// Serialises sign-ups until the transaction ends (see [`repo::lock_signups`]).
pub fn lock(conn: &mut DbConnection) -> Result<(), AuthError> {
    Ok(repo::lock_signups(conn)?)
}

/// Whether a new account from this address gets the signup bonus.
pub fn bonus_allowed(
    conn: &mut DbConnection,
    address: &str,
    limits: SignupLimits,
    now: DateTime<Utc>,
) -> Result<bool, AuthError> {
    let bonused = repo::signups_since(conn, address, (now - DAY).naive_utc(), true)?;
    Ok(bonused.len() < limits.bonus_per_day as usize)
}

/// Records a sign-up, and forgets the address's sign-ups older than a day.
pub fn record(
    conn: &mut DbConnection,
    address: &str,
    bonus: bool,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    repo::prune_signups(conn, address, (now - DAY).naive_utc())?;
    repo::insert_signup(conn, &SignupInsertForm { address, bonus, created_at: now.naive_utc() })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::address_key;

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        assert_eq!(address_key("203.0.113.7"), "203.0.113.7");
        assert_eq!(address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
        assert_eq!(address_key("2001:db8:1:2::1"), address_key("2001:db8:1:2:ffff::9"));
        assert_ne!(address_key("2001:db8:1:2::1"), address_key("2001:db8:1:3::1"));
        assert_eq!(address_key("::ffff:198.51.100.4"), "198.51.100.4");
        assert_eq!(address_key("unknown"), "unknown");
    }
}
