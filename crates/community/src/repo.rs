//! The community crate's queries.

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_db::schema::{community_images, community_reports, community_setups, community_votes};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{ImageInsertForm, ImageRow, ReportInsertForm, SetupInsertForm, SetupRow, VoteInsertForm};

pub(crate) fn insert_setup(conn: &mut DbConnection, form: &SetupInsertForm<'_>) -> QueryResult<i64> {
    on_backend!(conn, |c| diesel::insert_into(community_setups::table)
        .values(form)
        .returning(community_setups::id)
        .get_result(c))
}

pub(crate) fn insert_images(conn: &mut DbConnection, forms: &[ImageInsertForm<'_>]) -> QueryResult<usize> {
    // One statement per row: SQLite's batch insert through diesel's MultiConnection is not portable.
    forms.iter().map(|form| diesel::insert_into(community_images::table).values(form).execute(conn)).sum()
}

pub(crate) fn find_setup(conn: &mut DbConnection, id: i64) -> QueryResult<Option<SetupRow>> {
    community_setups::table.find(id).select(SetupRow::as_select()).first(conn).optional()
}

pub(crate) fn images_of(conn: &mut DbConnection, setup_ids: &[i64]) -> QueryResult<Vec<ImageRow>> {
    community_images::table
        .filter(community_images::setup_id.eq_any(setup_ids))
        .order((community_images::setup_id.asc(), community_images::position.asc()))
        .select(ImageRow::as_select())
        .load(conn)
}

pub(crate) fn delete_setup(conn: &mut DbConnection, id: i64) -> QueryResult<usize> {
    diesel::delete(community_setups::table.find(id)).execute(conn)
}

/// Setups the user published in `[from, to)`.
pub(crate) fn count_setups_between(
    conn: &mut DbConnection,
    user_id: i64,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<i64> {
    community_setups::table
        .filter(community_setups::user_id.eq(user_id))
        .filter(community_setups::created_at.ge(from))
        .filter(community_setups::created_at.lt(to))
        .select(count_star())
        .first(conn)
}

pub(crate) fn find_vote(conn: &mut DbConnection, setup_id: i64, user_id: i64) -> QueryResult<Option<i32>> {
    community_votes::table.find((setup_id, user_id)).select(community_votes::value).first(conn).optional()
}

pub(crate) fn insert_vote(conn: &mut DbConnection, form: &VoteInsertForm) -> QueryResult<usize> {
    diesel::insert_into(community_votes::table).values(form).execute(conn)
}

pub(crate) fn change_vote(
    conn: &mut DbConnection,
    setup_id: i64,
    user_id: i64,
    value: i32,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(community_votes::table.find((setup_id, user_id)))
        .set((community_votes::value.eq(value), community_votes::created_at.eq(now)))
        .execute(conn)
}

pub(crate) fn delete_vote(conn: &mut DbConnection, setup_id: i64, user_id: i64) -> QueryResult<usize> {
    diesel::delete(community_votes::table.find((setup_id, user_id))).execute(conn)
}

/// Votes the user cast (or switched) in `[from, to)`.
pub(crate) fn count_votes_between(
    conn: &mut DbConnection,
    user_id: i64,
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
    setup_id: i64,
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

/// The sum of a setup's votes and its upvotes, counted from the votes themselves.
pub(crate) fn tally_votes(conn: &mut DbConnection, setup_id: i64) -> QueryResult<(i64, i64)> {
    let values: Vec<i32> = community_votes::table
        .filter(community_votes::setup_id.eq(setup_id))
        .select(community_votes::value)
        .load(conn)?;
    Ok((values.iter().map(|v| i64::from(*v)).sum(), values.iter().filter(|v| **v == 1).count() as i64))
}

/// Records a report; false when this user already reported the setup.
pub(crate) fn insert_report(conn: &mut DbConnection, form: &ReportInsertForm<'_>) -> QueryResult<bool> {
    let inserted = on_backend!(conn, |c| diesel::insert_into(community_reports::table)
        .values(form)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(inserted == 1)
}

/// Reports the user made in `[from, to)`.
pub(crate) fn count_reports_between(
    conn: &mut DbConnection,
    user_id: i64,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<i64> {
    community_reports::table
        .filter(community_reports::reporter_id.eq(user_id))
        .filter(community_reports::created_at.ge(from))
        .filter(community_reports::created_at.lt(to))
        .select(count_star())
        .first(conn)
}

/// Counts one more open report; hides the setup once it has `hide_at` of them. Returns
/// whether it is hidden now.
pub(crate) fn count_open_report(conn: &mut DbConnection, setup_id: i64, hide_at: i32) -> QueryResult<bool> {
    let open: i32 = on_backend!(conn, |c| diesel::update(community_setups::table.find(setup_id))
        .set(community_setups::open_reports.eq(community_setups::open_reports + 1))
        .returning(community_setups::open_reports)
        .get_result(c))?;
    if open >= hide_at {
        diesel::update(community_setups::table.find(setup_id))
            .set(community_setups::hidden.eq(true))
            .execute(conn)?;
    }
    Ok(open >= hide_at)
}

/// Whether the user reported the setup (the reporter no longer sees it).
pub(crate) fn has_reported(conn: &mut DbConnection, setup_id: i64, user_id: i64) -> QueryResult<bool> {
    let n: i64 = community_reports::table
        .filter(community_reports::setup_id.eq(setup_id))
        .filter(community_reports::reporter_id.eq(user_id))
        .select(count_star())
        .first(conn)?;
    Ok(n > 0)
}

/// Every vote of a user, as (setup, value).
pub(crate) fn votes_of(conn: &mut DbConnection, user_id: i64) -> QueryResult<Vec<(i64, i32)>> {
    community_votes::table
        .filter(community_votes::user_id.eq(user_id))
        .select((community_votes::setup_id, community_votes::value))
        .load(conn)
}

/// The ids of a user's setups.
pub(crate) fn setup_ids_of(conn: &mut DbConnection, user_id: i64) -> QueryResult<Vec<i64>> {
    community_setups::table
        .filter(community_setups::user_id.eq(user_id))
        .select(community_setups::id)
        .load(conn)
}
