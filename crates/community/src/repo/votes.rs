//! Queries of votes: a member's vote on a post, the post's kept score, and the scores and
//! votes a signed-in page lays over the feed.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{SetupId, UserId};
use setupiq_db::schema::{community_setups, community_votes};
use setupiq_db::{DbConnection, in_ids, on_backend};

use crate::models::VoteInsertForm;

pub(crate) fn find_vote(
    conn: &mut DbConnection,
    user_id: UserId,
    setup_id: SetupId,
) -> QueryResult<Option<i32>> {
    // The table's key is (setup, user); diesel would take the ids either way round.
    community_votes::table.find((setup_id, user_id)).select(community_votes::value).first(conn).optional()
}

pub(crate) fn insert_vote(conn: &mut DbConnection, form: &VoteInsertForm) -> QueryResult<usize> {
    diesel::insert_into(community_votes::table).values(form).execute(conn)
}

pub(crate) fn change_vote(
    conn: &mut DbConnection,
    user_id: UserId,
    setup_id: SetupId,
    value: i32,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(community_votes::table.find((setup_id, user_id)))
        .set((community_votes::value.eq(value), community_votes::created_at.eq(now)))
        .execute(conn)
}

pub(crate) fn delete_vote(conn: &mut DbConnection, user_id: UserId, setup_id: SetupId) -> QueryResult<usize> {
    diesel::delete(community_votes::table.find((setup_id, user_id))).execute(conn)
}

/// Votes the user cast (or switched) in `[from, to)`.
pub(crate) fn count_votes_between(
    conn: &mut DbConnection,
    user_id: UserId,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<i64> {
    community_votes::table
        .filter(community_votes::user_id.eq(user_id))
        .filter(community_votes::created_at.ge(from))
        .filter(community_votes::created_at.lt(to))
        .select(count_star())
        .first(conn)
}

/// Adds to a setup's kept score and upvotes; returns the new score.
pub(crate) fn add_to_score(
    conn: &mut DbConnection,
    setup_id: SetupId,
    score: i32,
    upvotes: i32,
) -> QueryResult<i32> {
    on_backend!(conn, |c| diesel::update(community_setups::table.find(setup_id))
        .set((
            community_setups::score.eq(community_setups::score + score),
            community_setups::upvotes.eq(community_setups::upvotes + upvotes),
        ))
        .returning(community_setups::score)
        .get_result(c))
}

/// Every vote of a user, as (setup, value).
pub(crate) fn votes_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<(SetupId, i32)>> {
    community_votes::table
        .filter(community_votes::user_id.eq(user_id))
        .select((community_votes::setup_id, community_votes::value))
        .load(conn)
}

/// Every vote a user cast, newest first, as (setup, value, when).
pub(crate) fn votes_cast_by(
    conn: &mut DbConnection,
    user_id: UserId,
) -> QueryResult<Vec<(SetupId, i32, NaiveDateTime)>> {
    community_votes::table
        .filter(community_votes::user_id.eq(user_id))
        .order((community_votes::created_at.desc(), community_votes::setup_id.desc()))
        .select((community_votes::setup_id, community_votes::value, community_votes::created_at))
        .load(conn)
}

/// The viewer's votes on `setup_ids`.
pub(crate) fn votes_on(
    conn: &mut DbConnection,
    user_id: UserId,
    setup_ids: &[SetupId],
) -> QueryResult<Vec<(SetupId, i32)>> {
    community_votes::table
        .filter(community_votes::user_id.eq(user_id))
        .filter(community_votes::setup_id.eq_any(setup_ids))
        .select((community_votes::setup_id, community_votes::value))
        .load(conn)
}

/// A setup's score as it is now, and the viewer's vote on it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CurrentScore {
    pub score: i32,
    pub upvotes: i32,
    pub vote: Option<i32>,
}

/// Of those of `setup_ids` that are not hidden: the score, the upvotes and the viewer's
/// vote, by setup, in one query by key (hidden ones are left out here, not by the planner).
/// It runs on every signed-in feed request, so the ids are one bound list ([`in_ids`]):
/// the statement is prepared once per connection, not once per request; and on the
/// concrete connection, where diesel does not write the SQL text out again each time (it
/// does through the `MultiConnection`, cached statement or not).
pub(crate) fn scores_and_votes(
    conn: &mut DbConnection,
    viewer: UserId,
    setup_ids: &[SetupId],
) -> QueryResult<HashMap<SetupId, CurrentScore>> {
    let rows: Vec<(SetupId, i32, i32, bool, Option<i32>)> = on_backend!(conn, |c| {
        community_setups::table
            .left_join(community_votes::table.on(
                community_votes::setup_id.eq(community_setups::id).and(community_votes::user_id.eq(viewer)),
            ))
            .filter(in_ids(community_setups::id, setup_ids.iter().map(|id| id.0)))
            .select((
                community_setups::id,
                community_setups::score,
                community_setups::upvotes,
                community_setups::hidden,
                community_votes::value.nullable(),
            ))
            .load(c)
    })?;
    Ok(rows
        .into_iter()
        .filter(|row| !row.3)
        .map(|(id, score, upvotes, _, vote)| (id, CurrentScore { score, upvotes, vote }))
        .collect())
}
