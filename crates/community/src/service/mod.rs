//! The rules of the community: publishing and removing setups ([`setups`]), votes
//! ([`votes`]), reports ([`reports`]) and what admins decide about them ([`moderation`]);
//! what people browse: the [`feed`], the [`leaderboard`], [`my_posts`] and public
//! [`profiles`]. Every daily cap is counted after
//! `ledger::lock_account`, so one user's concurrent requests cannot race past it.

pub(crate) mod cache;
pub mod comments;
pub mod digest;
pub mod export;
pub mod feed;
pub mod gear;
pub mod gear_link_health;
pub mod leaderboard;
pub mod moderation;
pub mod my_posts;
pub mod notifications;
pub mod profiles;
pub mod publish;
pub mod reports;
pub mod setups;
pub mod votes;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use setupiq_core::AnalysisId;
pub(crate) use setupiq_core::clock::utc_day;
use setupiq_db::DbConnection;

use crate::error::CommunityError;
use crate::models::SetupRow;

/// Seconds from `now` until the daily caps reset.
pub(crate) fn until_tomorrow(now: DateTime<Utc>) -> u64 {
    let (_, end) = utc_day(now);
    u64::try_from((end - now.naive_utc()).num_seconds().max(1)).unwrap_or(1)
}

fn one_decimal(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// The SetupIQ Scores of the analyses behind `rows`: their mean (one decimal) and best.
pub(crate) fn score_summary(
    conn: &mut DbConnection,
    rows: &[SetupRow],
) -> Result<(Option<f64>, Option<f64>), CommunityError> {
    let ids: Vec<AnalysisId> = rows.iter().map(|r| r.analysis_id).collect();
    let ratings: HashMap<AnalysisId, f64> = setupiq_analysis::service::find_many(conn, &ids)?
        .into_iter()
        .map(|a| (a.id, a.report.assessment.overall_score))
        .collect();
    let scores: Vec<f64> = rows.iter().filter_map(|r| ratings.get(&r.analysis_id).copied()).collect();
    if scores.is_empty() {
        return Ok((None, None));
    }
    #[allow(clippy::cast_precision_loss)] // a user's post count
    let mean = scores.iter().sum::<f64>() / scores.len() as f64;
    Ok((Some(one_decimal(mean)), scores.into_iter().reduce(f64::max)))
}
