//! Rewarded ads (DESIGN.md §5). `start` hands out a token; `claim` counts the ad only if
//! at least 3 seconds passed since its start on the server clock, and only once. Every
//! third ad of a UTC day earns 1 credit, up to 30 ads (10 credits) a day. A member watches
//! one ad at a time: starting an ad ends the one they had not claimed yet, whose token then
//! counts for nothing, so ads started side by side cannot all be claimed 3 seconds later.

use chrono::{DateTime, Duration, Utc};
use setupiq_auth::service::ledger::{self, LedgerReason};
use setupiq_core::UserId;
use setupiq_core::clock::utc_day;
use setupiq_core::tokens;
use setupiq_db::{DbConnection, write_transaction};

use crate::error::CreditsError;
use crate::models::AdViewInsertForm;
use crate::repo;

pub const ADS_PER_CREDIT: i64 = 3;
pub const DAILY_AD_LIMIT: i64 = 30;
pub const MIN_WATCH: Duration = Duration::seconds(3);

/// What a counted ad brought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdReward {
    pub credit_awarded: bool,
    /// The balance after this ad.
    pub credits: i32,
    pub ads_until_next_credit: i64,
    /// Ads counted towards the next credit (0, 1 or 2).
    pub ads_watched_in_session: i64,
}

/// Today's standing (spec 000 §3, "Ad stats").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdStats {
    pub daily_ads_remaining: i64,
    pub potential_credits_today: i64,
    pub uncredited_ads: i64,
    pub ads_until_next_credit: i64,
}

fn counted_today(conn: &mut DbConnection, user_id: UserId, now: DateTime<Utc>) -> Result<i64, CreditsError> {
    let (start, end) = utc_day(now);
    Ok(repo::count_claimed_between(conn, user_id, start, end)?)
}

/// Starts an ad, ending the member's unclaimed one; the token proves it when the ad has been
/// watched.
pub fn start(conn: &mut DbConnection, user_id: UserId, now: DateTime<Utc>) -> Result<String, CreditsError> {
    write_transaction(conn, |conn| {
        // One member's starts and claims queue here: one ad in flight at a time.
        ledger::lock_account(conn, user_id)?;
        if counted_today(conn, user_id, now)? >= DAILY_AD_LIMIT {
            return Err(CreditsError::DailyAdLimit);
        }
        repo::end_unclaimed_ad_views(conn, user_id)?;
        let token = tokens::generate();
        repo::insert_ad_view(
            conn,
            &AdViewInsertForm { user_id, token_hash: &tokens::digest(&token), started_at: now.naive_utc() },
        )?;
        Ok(token)
    })
}

/// Counts a watched ad, crediting every third one of the day.
pub fn claim(
    conn: &mut DbConnection,
    user_id: UserId,
    token: &str,
    now: DateTime<Utc>,
) -> Result<AdReward, CreditsError> {
    write_transaction(conn, |conn| {
        // One user's claims queue here, so the daily count cannot be raced past the cap.
        ledger::lock_account(conn, user_id)?;
        let view = repo::find_ad_view(conn, &tokens::digest(token))?
            .filter(|v| v.user_id == user_id)
            .ok_or(CreditsError::InvalidAdToken)?;
        if view.claimed_at.is_some() {
            return Err(CreditsError::AdAlreadyCounted);
        }
        if now.naive_utc() < view.started_at + MIN_WATCH {
            return Err(CreditsError::AdTooShort);
        }
        let before = counted_today(conn, user_id, now)?;
        if before >= DAILY_AD_LIMIT {
            return Err(CreditsError::DailyAdLimit);
        }
        if repo::claim_ad_view(conn, view.id, now.naive_utc())? == 0 {
            return Err(CreditsError::AdAlreadyCounted);
        }
        let counted = before + 1;
        let credit_awarded = counted % ADS_PER_CREDIT == 0;
        let credits = if credit_awarded {
            let (day, _) = utc_day(now);
            let reference = format!("ads:{user_id}:{}:{}", day.date(), counted / ADS_PER_CREDIT);
            ledger::apply(conn, user_id, 1, &LedgerReason::AdReward, Some(&reference), now)?
        } else {
            ledger::balance(conn, user_id)?
        };
        let progress = counted % ADS_PER_CREDIT;
        Ok(AdReward {
            credit_awarded,
            credits,
            ads_until_next_credit: ADS_PER_CREDIT - progress,
            ads_watched_in_session: progress,
        })
    })
}

pub fn stats(conn: &mut DbConnection, user_id: UserId, now: DateTime<Utc>) -> Result<AdStats, CreditsError> {
    let counted = counted_today(conn, user_id, now)?;
    let progress = counted % ADS_PER_CREDIT;
    Ok(AdStats {
        daily_ads_remaining: (DAILY_AD_LIMIT - counted).max(0),
        potential_credits_today: (DAILY_AD_LIMIT / ADS_PER_CREDIT - counted / ADS_PER_CREDIT).max(0),
        uncredited_ads: progress,
        ads_until_next_credit: ADS_PER_CREDIT - progress,
    })
}
