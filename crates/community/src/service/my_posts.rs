//! My Posts: a member's own posts (hidden ones too) with what each earned, and the summary
//! above them. A fixed number of queries however many posts.

use chrono::{DateTime, Utc};
use setupiq_core::{AnalysisId, SetupId, UserId};
use setupiq_db::DbConnection;

use super::gear;
use super::score_summary;
use super::setups::{PostText, photos_of};
use crate::error::CommunityError;
use crate::repo;

/// One of the user's own posts (spec §3 "My post").
#[derive(Debug, Clone, PartialEq)]
pub struct MyPost {
    pub id: SetupId,
    pub text: PostText,
    pub created_at: DateTime<Utc>,
    pub score: i32,
    pub image_count: usize,
    /// Comments under it (deleted ones aside).
    pub comment_count: i64,
    pub analysis_id: AnalysisId,
    pub thumbnail_url: Option<String>,
    /// Hidden from others until an admin reviews its reports.
    pub hidden: bool,
    /// People's clicks on its gear's links (bots and the owner never count).
    pub gear_clicks: i64,
}

/// The summary above My Posts.
#[derive(Debug, Clone, PartialEq)]
pub struct PostSummary {
    pub total_posts: i64,
    /// Upvotes the posts received.
    pub total_upvotes: i64,
    /// The mean SetupIQ Score of the posted setups, one decimal.
    pub average_score: Option<f64>,
    /// The highest SetupIQ Score of the posted setups.
    pub best_post_score: Option<f64>,
}

/// The user's posts (hidden ones too), newest first, and their summary.
pub fn list(conn: &mut DbConnection, user_id: UserId) -> Result<(Vec<MyPost>, PostSummary), CommunityError> {
    let rows = repo::setups_of(conn, user_id)?;
    let ids: Vec<SetupId> = rows.iter().map(|r| r.id).collect();
    let mut images = photos_of(conn, &ids)?;
    let comments = repo::comment_counts(conn, &ids)?;
    let gear_clicks = gear::click_counts(conn, &ids)?;
    let (average_score, best_post_score) = score_summary(conn, &rows)?;
    let summary = PostSummary {
        total_posts: i64::try_from(rows.len()).unwrap_or(i64::MAX),
        total_upvotes: rows.iter().map(|r| i64::from(r.upvotes)).sum(),
        average_score,
        best_post_score,
    };
    let posts = rows
        .into_iter()
        .map(|row| {
            let photos = images.remove(&row.id).unwrap_or_default();
            MyPost {
                id: row.id,
                text: row.text,
                created_at: row.created_at.and_utc(),
                score: row.score,
                image_count: photos.len(),
                comment_count: comments.get(&row.id).copied().unwrap_or(0),
                analysis_id: row.analysis_id,
                thumbnail_url: photos.first().map(|p| p.thumbnail.as_ref().unwrap_or(&p.image).url()),
                hidden: row.hidden,
                gear_clicks: gear_clicks.get(&row.id).copied().unwrap_or(0),
            }
        })
        .collect();
    Ok((posts, summary))
}
