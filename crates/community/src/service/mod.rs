//! The rules of the community: publishing and removing setups ([`setups`]), votes
//! ([`votes`]), reports ([`reports`]) and what admins decide about them ([`moderation`]). Every daily cap is counted after
//! `ledger::lock_account`, so one user's concurrent requests cannot race past it.

pub(crate) mod cache;
pub mod comments;
pub mod digest;
pub mod export;
pub mod feed;
pub mod gear;
pub mod gear_link_health;
pub mod moderation;
pub mod notifications;
pub mod publish;
pub mod reports;
pub mod setups;
pub mod votes;

use chrono::{DateTime, Utc};
pub(crate) use setupiq_core::clock::utc_day;

/// Seconds from `now` until the daily caps reset.
pub(crate) fn until_tomorrow(now: DateTime<Utc>) -> u64 {
    let (_, end) = utc_day(now);
    u64::try_from((end - now.naive_utc()).num_seconds().max(1)).unwrap_or(1)
}
