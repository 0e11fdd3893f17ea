//! The rules of the community: publishing and removing setups ([`setups`]), votes
//! ([`votes`]) and reports ([`reports`]). Every daily cap is counted after
//! `ledger::lock_account`, so one user's concurrent requests cannot race past it.

pub mod cache;
pub mod feed;
pub mod publish;
pub mod reports;
pub mod setups;
pub mod votes;

use chrono::{DateTime, Duration, NaiveDateTime, Utc};

/// The UTC day `now` falls in, as `[start, end)`.
pub(crate) fn utc_day(now: DateTime<Utc>) -> (NaiveDateTime, NaiveDateTime) {
    let start = now.date_naive().and_hms_opt(0, 0, 0).unwrap_or_else(|| now.naive_utc());
    (start, start + Duration::days(1))
}

/// Seconds from `now` until the daily caps reset.
pub(crate) fn until_tomorrow(now: DateTime<Utc>) -> u64 {
    let (_, end) = utc_day(now);
    u64::try_from((end - now.naive_utc()).num_seconds().max(1)).unwrap_or(1)
}
