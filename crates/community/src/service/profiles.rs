//! Public profiles: a member's name, totals, RigPage and most recent posts, as anyone may
//! see them (never an e-mail).

use setupiq_auth::Account;
use setupiq_core::UserId;
use setupiq_db::DbConnection;

use super::feed::{self, FeedItem};
use super::score_summary;
use crate::error::CommunityError;
use crate::repo::{self, Order, Visible};

/// A public profile (never an e-mail).
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub account: Account,
    pub total_posts: i64,
    pub total_likes: i64,
    pub average_score: Option<f64>,
    /// The user's RigPage when it is live.
    pub rigpage_slug: Option<String>,
    pub rigpage_enabled: bool,
    pub recent_posts: Vec<FeedItem>,
}

/// How many posts a profile shows.
pub const PROFILE_POSTS: i64 = 12;

/// `user_id`'s public profile as `viewer` sees it; none for an unknown user.
pub fn find(
    conn: &mut DbConnection,
    viewer: Option<UserId>,
    user_id: UserId,
) -> Result<Option<Profile>, CommunityError> {
    let Some(account) = setupiq_auth::service::accounts::find(conn, user_id)? else { return Ok(None) };
    let all = Visible { since: None, viewer: None, author: Some(user_id) };
    let rows = repo::list_visible(conn, all, Order::Newest, i64::MAX, 0)?;
    let (average_score, _) = score_summary(conn, &rows)?;
    let badge = setupiq_rigpage::service::config::badge(conn, user_id)?;
    let seen = Visible { viewer, ..all };
    let recent = repo::list_visible(conn, seen, Order::Newest, PROFILE_POSTS, 0)?;
    Ok(Some(Profile {
        total_posts: i64::try_from(rows.len()).unwrap_or(i64::MAX),
        total_likes: rows.iter().map(|r| i64::from(r.upvotes)).sum(),
        average_score,
        rigpage_enabled: badge.enabled,
        rigpage_slug: badge.slug.filter(|_| badge.enabled),
        recent_posts: feed::items(conn, recent, viewer)?,
        account,
    }))
}
