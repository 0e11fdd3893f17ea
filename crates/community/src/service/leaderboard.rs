//! The leaderboard: members ranked by the summed score of their setups published in a
//! period, each with their best setup of it. The [`Feed`](super::feed::Feed) keeps each
//! period's ranking a few seconds ([`Feed::leaderboard`](super::feed::Feed::leaderboard));
//! a fixed number of queries however many members it ranks.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use setupiq_auth::Account;
use setupiq_core::{SetupId, UserId};
use setupiq_db::DbConnection;

use super::feed::Period;
use super::setups::photos_of;
use crate::error::CommunityError;
use crate::models::SetupRow;
use crate::repo;

/// One entry of the leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Leader {
    pub user_id: UserId,
    /// Only on the viewer's own entry.
    pub email: Option<String>,
    pub username: String,
    /// The name shown for the member (as on their posts and profile).
    pub display_name: String,
    pub profile_picture: Option<String>,
    pub is_pro: bool,
    /// The summed score of the user's setups published in the period.
    pub total_score: i64,
    pub setup_count: i64,
    pub top_setup_image_url: Option<String>,
    pub top_setup_score: Option<i32>,
}

/// Users ranked by the summed score of their setups published in the period (hidden ones
/// do not count); ties: the earlier account first.
pub fn ranking(
    conn: &mut DbConnection,
    period: Period,
    limit: i64,
    viewer: Option<UserId>,
    now: DateTime<Utc>,
) -> Result<Vec<Leader>, CommunityError> {
    let since = period.since(now);
    let leaders = repo::leaders(conn, since, limit)?;
    let user_ids: Vec<UserId> = leaders.iter().map(|(id, _, _)| *id).collect();
    let accounts: HashMap<UserId, Account> =
        setupiq_auth::service::accounts::find_many(conn, &user_ids)?.into_iter().map(|a| (a.id, a)).collect();
    // Each leader's best setup of the period, and its first photo.
    let mut best: HashMap<UserId, SetupRow> = HashMap::new();
    for row in repo::best_setups_of(conn, &user_ids, since)? {
        best.entry(row.user_id).or_insert(row);
    }
    let best_ids: Vec<SetupId> = best.values().map(|r| r.id).collect();
    let first_photo: HashMap<SetupId, String> = photos_of(conn, &best_ids)?
        .into_iter()
        .filter_map(|(id, photos)| Some((id, photos.first()?.image.url())))
        .collect();
    Ok(leaders
        .into_iter()
        .filter_map(|(user_id, total, count)| {
            let account = accounts.get(&user_id)?;
            let top = best.get(&user_id);
            Some(Leader {
                user_id,
                email: (viewer == Some(user_id)).then(|| account.email.clone()),
                username: account.username.clone(),
                display_name: account.display_name.clone(),
                profile_picture: account.profile_picture.clone(),
                is_pro: account.is_pro,
                total_score: total.unwrap_or(0),
                setup_count: count,
                top_setup_image_url: top.and_then(|t| first_photo.get(&t.id).cloned()),
                top_setup_score: top.map(|t| t.score),
            })
        })
        .collect())
}
