//! Queries of posts: the setup rows, their photos and texts, the lists the feed, profiles and
//! leaderboards read, and what moderation changes on a post.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{AnalysisId, SetupId, UserId};
use setupiq_db::schema::{community_images, community_reports, community_setups};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{ImageInsertForm, ImageRow, PostText, SetupInsertForm, SetupRow};

pub(crate) fn insert_setup(conn: &mut DbConnection, form: &SetupInsertForm) -> QueryResult<SetupId> {
    on_backend!(conn, |c| diesel::insert_into(community_setups::table)
        .values(form)
        .returning(community_setups::id)
        .get_result(c))
}

pub(crate) fn insert_images(conn: &mut DbConnection, forms: &[ImageInsertForm<'_>]) -> QueryResult<usize> {
    // One statement per row: SQLite's batch insert through diesel's MultiConnection is not portable.
    forms.iter().map(|form| diesel::insert_into(community_images::table).values(form).execute(conn)).sum()
}

pub(crate) fn find_setup(conn: &mut DbConnection, id: SetupId) -> QueryResult<Option<SetupRow>> {
    community_setups::table.find(id).select(SetupRow::as_select()).first(conn).optional()
}

pub(crate) fn images_of(conn: &mut DbConnection, setup_ids: &[SetupId]) -> QueryResult<Vec<ImageRow>> {
    community_images::table
        .filter(community_images::setup_id.eq_any(setup_ids))
        .order((community_images::setup_id.asc(), community_images::position.asc()))
        .select(ImageRow::as_select())
        .load(conn)
}

/// The stored keys (photo and thumbnail) of every post's photos.
pub(crate) fn all_image_keys(conn: &mut DbConnection) -> QueryResult<Vec<(String, Option<String>)>> {
    community_images::table.select((community_images::image_key, community_images::thumbnail_key)).load(conn)
}

pub(crate) fn delete_setup(conn: &mut DbConnection, id: SetupId) -> QueryResult<usize> {
    diesel::delete(community_setups::table.find(id)).execute(conn)
}

/// The post of an analysis, if it was published.
pub(crate) fn setup_of_analysis(
    conn: &mut DbConnection,
    analysis_id: AnalysisId,
) -> QueryResult<Option<SetupId>> {
    community_setups::table
        .filter(community_setups::analysis_id.eq(analysis_id))
        .select(community_setups::id)
        .first(conn)
        .optional()
}

/// Setups the user published in `[from, to)`.
pub(crate) fn count_setups_between(
    conn: &mut DbConnection,
    user_id: UserId,
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

/// The ids of a user's setups.
pub(crate) fn setup_ids_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<SetupId>> {
    community_setups::table
        .filter(community_setups::user_id.eq(user_id))
        .select(community_setups::id)
        .load(conn)
}

pub(crate) fn setup_ids_of_analysis(
    conn: &mut DbConnection,
    analysis_id: AnalysisId,
) -> QueryResult<Vec<SetupId>> {
    community_setups::table
        .filter(community_setups::analysis_id.eq(analysis_id))
        .select(community_setups::id)
        .load(conn)
}

type Backend = <DbConnection as diesel::Connection>::Backend;

/// Which setups a list shows.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Visible {
    /// Published at or after this time.
    pub since: Option<NaiveDateTime>,
    /// The viewer: setups they reported are left out.
    pub viewer: Option<UserId>,
    /// Only this user's setups.
    pub author: Option<UserId>,
}

/// The setups `visible` lets through: not hidden, not reported by the viewer.
fn visible(filter: Visible) -> community_setups::BoxedQuery<'static, Backend> {
    let mut query = community_setups::table.filter(community_setups::hidden.eq(false)).into_boxed();
    if let Some(since) = filter.since {
        query = query.filter(community_setups::created_at.ge(since));
    }
    if let Some(author) = filter.author {
        query = query.filter(community_setups::user_id.eq(author));
    }
    if let Some(viewer) = filter.viewer {
        query = query.filter(diesel::dsl::not(diesel::dsl::exists(
            community_reports::table
                .filter(community_reports::setup_id.eq(community_setups::id))
                .filter(community_reports::reporter_id.eq(viewer)),
        )));
    }
    query
}

/// How a list is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// Highest score first; ties: the newer first.
    Score,
    /// Newest first.
    Newest,
}

pub(crate) fn list_visible(
    conn: &mut DbConnection,
    filter: Visible,
    order: Order,
    limit: i64,
    offset: i64,
) -> QueryResult<Vec<SetupRow>> {
    let query = visible(filter);
    let query = match order {
        Order::Score => query.order((
            community_setups::score.desc(),
            community_setups::created_at.desc(),
            community_setups::id.desc(),
        )),
        Order::Newest => query.order((community_setups::created_at.desc(), community_setups::id.desc())),
    };
    query.limit(limit).offset(offset).select(SetupRow::as_select()).load(conn)
}

/// How many setups `filter` lets through, leaving the viewer aside.
pub(crate) fn count_visible(conn: &mut DbConnection, filter: Visible) -> QueryResult<i64> {
    visible(Visible { viewer: None, ..filter }).select(count_star()).first(conn)
}

/// How many of the setups `filter` lets through (viewer aside) the viewer reported: the
/// viewer's total is [`count_visible`] minus these, so no query probes every setup for the
/// viewer's reports. Two lookups by key, whatever the planner knows of the tables (without
/// statistics SQLite would rather walk an index of every visible setup): the viewer's
/// reported setups (few; usually none, and then nothing more), then those setups by id.
pub(crate) fn count_reported_by(
    conn: &mut DbConnection,
    viewer: UserId,
    filter: Visible,
) -> QueryResult<i64> {
    // On every signed-in feed request: on the concrete connection, like the overlay.
    let reported: Vec<SetupId> = on_backend!(conn, |c| community_reports::table
        .filter(community_reports::reporter_id.eq(viewer))
        .select(community_reports::setup_id)
        .load(c))?;
    if reported.is_empty() {
        return Ok(0);
    }
    let setups: Vec<(bool, NaiveDateTime, UserId)> = community_setups::table
        .filter(community_setups::id.eq_any(reported))
        .select((community_setups::hidden, community_setups::created_at, community_setups::user_id))
        .load(conn)?;
    let counted = setups.into_iter().filter(|(hidden, created_at, user_id)| {
        !hidden
            && filter.since.is_none_or(|since| *created_at >= since)
            && filter.author.is_none_or(|author| *user_id == author)
    });
    Ok(i64::try_from(counted.count()).unwrap_or(i64::MAX))
}

/// Per user in the period: the summed score and the number of setups, best first.
pub(crate) fn leaders(
    conn: &mut DbConnection,
    since: Option<NaiveDateTime>,
    limit: i64,
) -> QueryResult<Vec<(UserId, Option<i64>, i64)>> {
    // "All time" starts at the epoch: a grouped query cannot be boxed.
    let since = since.unwrap_or_default();
    community_setups::table
        .filter(community_setups::hidden.eq(false))
        .filter(community_setups::created_at.ge(since))
        .group_by(community_setups::user_id)
        .select((community_setups::user_id, diesel::dsl::sum(community_setups::score), count_star()))
        .order((diesel::dsl::sum(community_setups::score).desc(), community_setups::user_id.asc()))
        .limit(limit)
        .load(conn)
}

/// Every setup of the user (hidden ones too), newest first.
pub(crate) fn setups_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<SetupRow>> {
    community_setups::table
        .filter(community_setups::user_id.eq(user_id))
        .order((community_setups::created_at.desc(), community_setups::id.desc()))
        .select(SetupRow::as_select())
        .load(conn)
}

/// The visible setups of `user_ids` published since `since`, best first per user.
pub(crate) fn best_setups_of(
    conn: &mut DbConnection,
    user_ids: &[UserId],
    since: Option<NaiveDateTime>,
) -> QueryResult<Vec<SetupRow>> {
    community_setups::table
        .filter(community_setups::user_id.eq_any(user_ids))
        .filter(community_setups::hidden.eq(false))
        .filter(community_setups::created_at.ge(since.unwrap_or_default()))
        .order((
            community_setups::user_id,
            community_setups::score.desc(),
            community_setups::created_at.desc(),
        ))
        .select(SetupRow::as_select())
        .load(conn)
}

/// Replaces a setup's photo rows.
pub(crate) fn replace_images(
    conn: &mut DbConnection,
    setup_id: SetupId,
    forms: &[ImageInsertForm<'_>],
) -> QueryResult<usize> {
    diesel::delete(community_images::table.filter(community_images::setup_id.eq(setup_id))).execute(conn)?;
    insert_images(conn, forms)
}

/// Writes a setup's texts (none clears one).
pub(crate) fn update_texts(
    conn: &mut DbConnection,
    setup_id: SetupId,
    text: &PostText,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(community_setups::table.find(setup_id))
        .set((text, community_setups::updated_at.eq(now)))
        .execute(conn)
}

pub(crate) fn find_setups(conn: &mut DbConnection, ids: &[SetupId]) -> QueryResult<Vec<SetupRow>> {
    community_setups::table.filter(community_setups::id.eq_any(ids)).select(SetupRow::as_select()).load(conn)
}

/// Shows a setup again with no open reports.
pub(crate) fn unhide(conn: &mut DbConnection, setup_id: SetupId) -> QueryResult<usize> {
    diesel::update(community_setups::table.find(setup_id))
        .set((community_setups::hidden.eq(false), community_setups::open_reports.eq(0)))
        .execute(conn)
}

/// The titles of `setup_ids`, by id.
pub(crate) fn setup_titles(
    conn: &mut DbConnection,
    setup_ids: &[SetupId],
) -> QueryResult<HashMap<SetupId, Option<String>>> {
    let rows: Vec<(SetupId, Option<String>)> = community_setups::table
        .filter(community_setups::id.eq_any(setup_ids))
        .select((community_setups::id, community_setups::title))
        .load(conn)?;
    Ok(rows.into_iter().collect())
}
