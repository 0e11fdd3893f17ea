//! Votes (spec §4 "Voting"): +1 or -1; the same value again takes the vote back, the other
//! value switches it. One vote per user and setup (the table's key); the setup's score and
//! upvotes are kept on its row and changed in the vote's transaction. Only members whose
//! address is verified vote (DESIGN.md §5, "who may act"): sign-ups per address are capped
//! but not scarce, so votes from accounts nobody owns would soon outweigh people's. Nobody
//! votes on their own setup; a user casts at most [`DAILY_VOTE_LIMIT`] votes a day. An
//! upvote that lifts a setup of the last 7 days into the week's top 3 tells its owner (once).

use chrono::{DateTime, Utc};
use setupiq_auth::Account;
use setupiq_auth::service::ledger;
use setupiq_core::SetupId;
use setupiq_core::feed_changes::FeedChanges;
use setupiq_db::{DbConnection, write_transaction};

use super::feed::Period;
use super::notifications;
use super::{until_tomorrow, utc_day};
use crate::error::CommunityError;
use crate::models::VoteInsertForm;
use crate::repo::{self, Order, Visible};

pub const DAILY_VOTE_LIMIT: i64 = 300;

/// A vote's value: up or down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vote {
    Up,
    Down,
}

impl Vote {
    pub fn value(self) -> i32 {
        match self {
            Vote::Up => 1,
            Vote::Down => -1,
        }
    }

    /// `1` or `-1`; anything else is none.
    pub fn from_value(value: i64) -> Option<Self> {
        match value {
            1 => Some(Vote::Up),
            -1 => Some(Vote::Down),
            _ => None,
        }
    }
}

/// In the OpenAPI document a vote is the integer `1` or `-1` (`VoteValue`), the number the
/// requests and responses carry.
impl utoipa::PartialSchema for Vote {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Integer)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int32)))
            .enum_values(Some([1, -1]))
            .description(Some("A vote: `1` up, `-1` down."))
            .into()
    }
}

impl utoipa::ToSchema for Vote {
    fn name() -> std::borrow::Cow<'static, str> {
        "VoteValue".into()
    }
}

/// Where a setup stands after a vote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Voted {
    pub score: i32,
    /// The voter's vote now (none when it was taken back).
    pub user_vote: Option<Vote>,
}

/// Casts, switches or takes back `voter`'s vote on a setup (a verified address needed).
pub fn vote(
    conn: &mut DbConnection,
    voter: &Account,
    setup_id: SetupId,
    vote: Vote,
    now: DateTime<Utc>,
    changes: &FeedChanges,
) -> Result<Voted, CommunityError> {
    if !voter.email_verified {
        return Err(CommunityError::VoteNeedsVerifiedEmail);
    }
    let user_id = voter.id;
    let voted = write_transaction(conn, |conn| {
        // One user's votes queue here: their toggles and the daily count cannot race.
        ledger::lock_account(conn, user_id)?;
        let setup = repo::find_setup(conn, setup_id)?
            .filter(|s| !s.hidden || s.user_id == user_id)
            .ok_or(CommunityError::SetupNotFound)?;
        if setup.user_id == user_id {
            return Err(CommunityError::OwnVote);
        }
        let value = vote.value();
        let up = |v: i32| i32::from(v == 1);
        let (score_change, upvote_change, user_vote) = match repo::find_vote(conn, user_id, setup_id)? {
            None => {
                let (start, end) = utc_day(now);
                if repo::count_votes_between(conn, user_id, start, end)? >= DAILY_VOTE_LIMIT {
                    return Err(CommunityError::DailyVoteLimit { retry_after: until_tomorrow(now) });
                }
                let form = VoteInsertForm { setup_id, user_id, value, created_at: now.naive_utc() };
                repo::insert_vote(conn, &form)?;
                (value, up(value), Some(vote))
            }
            Some(old) if old == value => {
                repo::delete_vote(conn, user_id, setup_id)?;
                (-old, -up(old), None)
            }
            Some(old) => {
                repo::change_vote(conn, user_id, setup_id, value, now.naive_utc())?;
                (value - old, up(value) - up(old), Some(vote))
            }
        };
        let score = repo::add_to_score(conn, setup_id, score_change, upvote_change)?;
        // Winners need an upvote (the Top of The Week badges), so only a rise can make one.
        let week = Period::Week.since(now);
        if score_change > 0
            && score > 0
            && !setup.hidden
            && week.is_some_and(|since| setup.created_at >= since)
        {
            let top = repo::list_visible(
                conn,
                Visible { since: week, viewer: None, author: None },
                Order::Score,
                3,
                0,
            )?;
            // A week with fewer than three posts has no top 3 to reach: every post would be in it.
            if top.len() == 3 && top.iter().any(|s| s.id == setup_id) {
                let title = setup.text.title_or_untitled();
                notifications::on_top_week(conn, setup.user_id, setup_id, title, now)?;
            }
        }
        Ok(Voted { score, user_vote })
    })?;
    changes.votes_changed();
    Ok(voted)
}
