//! The community crate's queries. Like every function taking ids (see `setupiq_core::ids`),
//! these take the user first, then the setup or comment.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{AnalysisId, CommentId, GearId, NotificationId, SetupId, UserId};
use setupiq_db::schema::{
    community_comment_reports, community_comments, community_images, community_reports, community_setups,
    community_votes, digest_subscriptions, notifications, setup_gear, setup_gear_clicks,
};
use setupiq_db::{DbConnection, in_ids, on_backend};

use setupiq_rigpage::service::link_health::LinkHealth;

use crate::models::ReportStatus;
use crate::models::{
    CommentInsertForm, CommentReportInsertForm, CommentReportRow, CommentRow, DigestSubscriptionRow,
    GearClickInsertForm, GearInsertForm, GearLinkStateRow, GearRow, ImageInsertForm, ImageRow,
    MadeCommentReportRow, MadeReportRow, NotificationInsertForm, NotificationRow, PostText, ReportInsertForm,
    ReportRow, SetupInsertForm, SetupRow, VoteInsertForm,
};

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

/// Records a report; false when this user already reported the setup.
pub(crate) fn insert_report(conn: &mut DbConnection, form: &ReportInsertForm<'_>) -> QueryResult<bool> {
    let inserted = on_backend!(conn, |c| diesel::insert_into(community_reports::table)
        .values(form)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(inserted == 1)
}

/// Reports the user made in `[from, to)`, of setups and of comments.
pub(crate) fn count_reports_between(
    conn: &mut DbConnection,
    user_id: UserId,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<i64> {
    let setups: i64 = community_reports::table
        .filter(community_reports::reporter_id.eq(user_id))
        .filter(community_reports::created_at.ge(from))
        .filter(community_reports::created_at.lt(to))
        .select(count_star())
        .first(conn)?;
    let comments: i64 = community_comment_reports::table
        .filter(community_comment_reports::reporter_id.eq(user_id))
        .filter(community_comment_reports::created_at.ge(from))
        .filter(community_comment_reports::created_at.lt(to))
        .select(count_star())
        .first(conn)?;
    Ok(setups + comments)
}

/// Reports filed from the network `address` in `[from, to)`.
pub(crate) fn count_address_reports_between(
    conn: &mut DbConnection,
    address: &str,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<i64> {
    let setups: i64 = community_reports::table
        .filter(community_reports::reporter_address.eq(address))
        .filter(community_reports::created_at.ge(from))
        .filter(community_reports::created_at.lt(to))
        .select(count_star())
        .first(conn)?;
    let comments: i64 = community_comment_reports::table
        .filter(community_comment_reports::reporter_address.eq(address))
        .filter(community_comment_reports::created_at.ge(from))
        .filter(community_comment_reports::created_at.lt(to))
        .select(count_star())
        .first(conn)?;
    Ok(setups + comments)
}

/// Serialises reports from one network on PostgreSQL until the transaction ends, so that
/// concurrent reports from different accounts of one address cannot both pass its count
/// (SQLite's write transaction already runs alone). An advisory lock keyed by the address:
/// reports from other networks and every other query go on.
pub(crate) fn lock_address_reports(conn: &mut DbConnection, address: &str) -> QueryResult<()> {
    /// The advisory-lock class of "reports from one network".
    const REPORTS_PER_ADDRESS: i32 = 0x5e70_0001;
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
            .bind::<diesel::sql_types::Integer, _>(REPORTS_PER_ADDRESS)
            .bind::<diesel::sql_types::Text, _>(address)
            .execute(pg)?;
    }
    Ok(())
}

/// Counts one more open report that weighs (`community_setups.open_reports` counts only
/// those); hides the setup once it has `hide_at` of them. Returns whether it is hidden now.
pub(crate) fn count_open_report(
    conn: &mut DbConnection,
    setup_id: SetupId,
    hide_at: i32,
) -> QueryResult<bool> {
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
pub(crate) fn has_reported(conn: &mut DbConnection, user_id: UserId, setup_id: SetupId) -> QueryResult<bool> {
    let n: i64 = community_reports::table
        .filter(community_reports::setup_id.eq(setup_id))
        .filter(community_reports::reporter_id.eq(user_id))
        .select(count_star())
        .first(conn)?;
    Ok(n > 0)
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

/// Every report a user made, newest first.
pub(crate) fn reports_made_by(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<MadeReportRow>> {
    community_reports::table
        .filter(community_reports::reporter_id.eq(user_id))
        .order((community_reports::created_at.desc(), community_reports::id.desc()))
        .select((
            community_reports::setup_id,
            community_reports::reason,
            community_reports::details,
            community_reports::status,
            community_reports::created_at,
        ))
        .load(conn)
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

/// Every open report, oldest first.
pub(crate) fn open_reports(conn: &mut DbConnection) -> QueryResult<Vec<ReportRow>> {
    community_reports::table
        .filter(community_reports::status.eq(ReportStatus::Open))
        .order((community_reports::created_at.asc(), community_reports::id.asc()))
        .select(ReportRow::as_select())
        .load(conn)
}

pub(crate) fn find_setups(conn: &mut DbConnection, ids: &[SetupId]) -> QueryResult<Vec<SetupRow>> {
    community_setups::table.filter(community_setups::id.eq_any(ids)).select(SetupRow::as_select()).load(conn)
}

/// Closes a setup's open reports with `status`; returns how many.
pub(crate) fn close_reports(
    conn: &mut DbConnection,
    setup_id: SetupId,
    status: ReportStatus,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        community_reports::table
            .filter(community_reports::setup_id.eq(setup_id))
            .filter(community_reports::status.eq(ReportStatus::Open)),
    )
    .set((community_reports::status.eq(status), community_reports::reviewed_at.eq(now)))
    .execute(conn)
}

/// Shows a setup again with no open reports.
pub(crate) fn unhide(conn: &mut DbConnection, setup_id: SetupId) -> QueryResult<usize> {
    diesel::update(community_setups::table.find(setup_id))
        .set((community_setups::hidden.eq(false), community_setups::open_reports.eq(0)))
        .execute(conn)
}

// ------------------------------------------------------------------------------------------
// Comments

pub(crate) fn insert_comment(
    conn: &mut DbConnection,
    form: &CommentInsertForm<'_>,
) -> QueryResult<CommentId> {
    on_backend!(conn, |c| diesel::insert_into(community_comments::table)
        .values(form)
        .returning(community_comments::id)
        .get_result(c))
}

pub(crate) fn find_comment(conn: &mut DbConnection, id: CommentId) -> QueryResult<Option<CommentRow>> {
    community_comments::table.find(id).select(CommentRow::as_select()).first(conn).optional()
}

/// A page of a setup's threads (comments without a parent), newest first.
pub(crate) fn threads(
    conn: &mut DbConnection,
    setup_id: SetupId,
    limit: i64,
    offset: i64,
) -> QueryResult<Vec<CommentRow>> {
    community_comments::table
        .filter(community_comments::setup_id.eq(setup_id))
        .filter(community_comments::parent_id.is_null())
        .order((community_comments::created_at.desc(), community_comments::id.desc()))
        .limit(limit)
        .offset(offset)
        .select(CommentRow::as_select())
        .load(conn)
}

pub(crate) fn count_threads(conn: &mut DbConnection, setup_id: SetupId) -> QueryResult<i64> {
    community_comments::table
        .filter(community_comments::setup_id.eq(setup_id))
        .filter(community_comments::parent_id.is_null())
        .select(count_star())
        .first(conn)
}

/// The replies to `parent_ids`, oldest first.
pub(crate) fn replies_to(conn: &mut DbConnection, parent_ids: &[CommentId]) -> QueryResult<Vec<CommentRow>> {
    community_comments::table
        .filter(community_comments::parent_id.eq_any(parent_ids))
        .order((community_comments::created_at.asc(), community_comments::id.asc()))
        .select(CommentRow::as_select())
        .load(conn)
}

pub(crate) fn has_replies(conn: &mut DbConnection, id: CommentId) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        community_comments::table.filter(community_comments::parent_id.eq(id)),
    ))
    .get_result(conn)
}

/// When `user_id` wrote each comment since `since`, oldest first (the limits count them).
pub(crate) fn comment_times_since(
    conn: &mut DbConnection,
    user_id: UserId,
    since: NaiveDateTime,
) -> QueryResult<Vec<NaiveDateTime>> {
    community_comments::table
        .filter(community_comments::user_id.eq(user_id))
        .filter(community_comments::created_at.ge(since))
        .order(community_comments::created_at.asc())
        .select(community_comments::created_at)
        .load(conn)
}

pub(crate) fn edit_comment(
    conn: &mut DbConnection,
    id: CommentId,
    body: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(community_comments::table.find(id))
        .set((community_comments::body.eq(body), community_comments::edited_at.eq(now)))
        .execute(conn)
}

/// What a deleted comment with replies keeps: its place, without author or text.
pub(crate) fn blank_comment(conn: &mut DbConnection, id: CommentId) -> QueryResult<usize> {
    diesel::update(community_comments::table.find(id))
        .set((
            community_comments::body.eq(""),
            community_comments::deleted.eq(true),
            community_comments::user_id.eq(None::<UserId>),
        ))
        .execute(conn)
}

pub(crate) fn delete_comment(conn: &mut DbConnection, id: CommentId) -> QueryResult<usize> {
    diesel::delete(community_comments::table.find(id)).execute(conn)
}

pub(crate) fn comments_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<CommentRow>> {
    community_comments::table
        .filter(community_comments::user_id.eq(user_id))
        .order((community_comments::created_at.asc(), community_comments::id.asc()))
        .select(CommentRow::as_select())
        .load(conn)
}

/// How many comments (deleted ones aside) each of `setup_ids` has.
pub(crate) fn comment_counts(
    conn: &mut DbConnection,
    setup_ids: &[SetupId],
) -> QueryResult<HashMap<SetupId, i64>> {
    let rows: Vec<(SetupId, i64)> = community_comments::table
        .filter(community_comments::setup_id.eq_any(setup_ids))
        .filter(community_comments::deleted.eq(false))
        .group_by(community_comments::setup_id)
        .select((community_comments::setup_id, count_star()))
        .load(conn)?;
    Ok(rows.into_iter().collect())
}

// ------------------------------------------------------------------------------------------
// Notifications

/// Files a notification; a second one for the same recipient and comment is dropped.
pub(crate) fn insert_notification(
    conn: &mut DbConnection,
    form: &NotificationInsertForm<'_>,
) -> QueryResult<usize> {
    on_backend!(conn, |c| diesel::insert_into(notifications::table)
        .values(form)
        .on_conflict_do_nothing()
        .execute(c))
}

/// A page of a member's notifications, newest first.
pub(crate) fn notifications_of(
    conn: &mut DbConnection,
    user_id: UserId,
    limit: i64,
    offset: i64,
) -> QueryResult<Vec<NotificationRow>> {
    notifications::table
        .filter(notifications::user_id.eq(user_id))
        .order((notifications::created_at.desc(), notifications::id.desc()))
        .limit(limit)
        .offset(offset)
        .select(NotificationRow::as_select())
        .load(conn)
}

/// How many notifications the member has, and how many of them are unread.
pub(crate) fn count_notifications(conn: &mut DbConnection, user_id: UserId) -> QueryResult<(i64, i64)> {
    let total =
        notifications::table.filter(notifications::user_id.eq(user_id)).select(count_star()).first(conn)?;
    Ok((total, count_unread(conn, user_id)?))
}

/// How many of the member's notifications are unread (one look at `notifications_unread_idx`).
pub(crate) fn count_unread(conn: &mut DbConnection, user_id: UserId) -> QueryResult<i64> {
    notifications::table
        .filter(notifications::user_id.eq(user_id))
        .filter(notifications::read_at.is_null())
        .select(count_star())
        .first(conn)
}

/// Marks the member's unread notifications read: these (`Some`), or all of them.
pub(crate) fn mark_notifications_read(
    conn: &mut DbConnection,
    user_id: UserId,
    ids: Option<&[NotificationId]>,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    let unread = notifications::table
        .filter(notifications::user_id.eq(user_id))
        .filter(notifications::read_at.is_null());
    let read = notifications::read_at.eq(now);
    match ids {
        Some(ids) => diesel::update(unread.filter(notifications::id.eq_any(ids))).set(read).execute(conn),
        None => diesel::update(unread).set(read).execute(conn),
    }
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

/// The comments `ids`, by id.
pub(crate) fn comments_by_id(
    conn: &mut DbConnection,
    ids: &[CommentId],
) -> QueryResult<HashMap<CommentId, CommentRow>> {
    let rows: Vec<CommentRow> = community_comments::table
        .filter(community_comments::id.eq_any(ids))
        .select(CommentRow::as_select())
        .load(conn)?;
    Ok(rows.into_iter().map(|row| (row.id, row)).collect())
}

/// Files a comment report; false when the reporter had already reported the comment.
pub(crate) fn insert_comment_report(
    conn: &mut DbConnection,
    form: &CommentReportInsertForm<'_>,
) -> QueryResult<bool> {
    let inserted = on_backend!(conn, |c| diesel::insert_into(community_comment_reports::table)
        .values(form)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(inserted == 1)
}

/// Every open comment report, oldest first.
pub(crate) fn open_comment_reports(conn: &mut DbConnection) -> QueryResult<Vec<CommentReportRow>> {
    community_comment_reports::table
        .filter(community_comment_reports::status.eq(ReportStatus::Open))
        .order((community_comment_reports::created_at.asc(), community_comment_reports::id.asc()))
        .select(CommentReportRow::as_select())
        .load(conn)
}

pub(crate) fn find_comments(conn: &mut DbConnection, ids: &[CommentId]) -> QueryResult<Vec<CommentRow>> {
    community_comments::table
        .filter(community_comments::id.eq_any(ids))
        .select(CommentRow::as_select())
        .load(conn)
}

/// Closes a comment's open reports with `status`; returns how many.
pub(crate) fn close_comment_reports(
    conn: &mut DbConnection,
    comment_id: CommentId,
    status: ReportStatus,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        community_comment_reports::table
            .filter(community_comment_reports::comment_id.eq(comment_id))
            .filter(community_comment_reports::status.eq(ReportStatus::Open)),
    )
    .set((community_comment_reports::status.eq(status), community_comment_reports::reviewed_at.eq(now)))
    .execute(conn)
}

/// Every comment report a user made, newest first.
pub(crate) fn comment_reports_made_by(
    conn: &mut DbConnection,
    user_id: UserId,
) -> QueryResult<Vec<MadeCommentReportRow>> {
    community_comment_reports::table
        .filter(community_comment_reports::reporter_id.eq(user_id))
        .order((community_comment_reports::created_at.desc(), community_comment_reports::id.desc()))
        .select((
            community_comment_reports::comment_id,
            community_comment_reports::reason,
            community_comment_reports::details,
            community_comment_reports::status,
            community_comment_reports::created_at,
        ))
        .load(conn)
}

/// Who filed the setup's open reports (the reporters a decision tells).
pub(crate) fn open_reporters(conn: &mut DbConnection, setup_id: SetupId) -> QueryResult<Vec<UserId>> {
    community_reports::table
        .filter(community_reports::setup_id.eq(setup_id))
        .filter(community_reports::status.eq(ReportStatus::Open))
        .select(community_reports::reporter_id)
        .load(conn)
}

/// Who filed the comment's open reports.
pub(crate) fn open_comment_reporters(
    conn: &mut DbConnection,
    comment_id: CommentId,
) -> QueryResult<Vec<UserId>> {
    community_comment_reports::table
        .filter(community_comment_reports::comment_id.eq(comment_id))
        .filter(community_comment_reports::status.eq(ReportStatus::Open))
        .select(community_comment_reports::reporter_id)
        .load(conn)
}

/// Whether the member was already told this of the setup.
pub(crate) fn was_notified(
    conn: &mut DbConnection,
    user_id: UserId,
    setup_id: SetupId,
    kind: crate::models::NotificationKind,
) -> QueryResult<bool> {
    let n: i64 = notifications::table
        .filter(notifications::user_id.eq(user_id))
        .filter(notifications::setup_id.eq(setup_id))
        .filter(notifications::kind.eq(kind))
        .select(count_star())
        .first(conn)?;
    Ok(n > 0)
}

/// The member's notifications created in `(after, until]` and not read yet.
#[diesel::dsl::auto_type]
fn unread_in(user_id: UserId, after: NaiveDateTime, until: NaiveDateTime) -> _ {
    notifications::user_id
        .eq(user_id)
        .and(notifications::read_at.is_null())
        .and(notifications::created_at.gt(after))
        .and(notifications::created_at.le(until))
}

/// The member's unread notifications created in `(after, until]`, newest first.
pub(crate) fn unread_between(
    conn: &mut DbConnection,
    user_id: UserId,
    after: NaiveDateTime,
    until: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<NotificationRow>> {
    notifications::table
        .filter(unread_in(user_id, after, until))
        .order((notifications::created_at.desc(), notifications::id.desc()))
        .limit(limit)
        .select(NotificationRow::as_select())
        .load(conn)
}

/// How many of the member's notifications created in `(after, until]` are unread.
pub(crate) fn count_unread_between(
    conn: &mut DbConnection,
    user_id: UserId,
    after: NaiveDateTime,
    until: NaiveDateTime,
) -> QueryResult<i64> {
    notifications::table.filter(unread_in(user_id, after, until)).select(count_star()).first(conn)
}

pub(crate) fn find_digest_subscription(
    conn: &mut DbConnection,
    user_id: UserId,
) -> QueryResult<Option<DigestSubscriptionRow>> {
    digest_subscriptions::table
        .find(user_id)
        .select(DigestSubscriptionRow::as_select())
        .first(conn)
        .optional()
}

/// Subscribes the member (nothing when they already are); 1 when a row was added.
pub(crate) fn insert_digest_subscription(
    conn: &mut DbConnection,
    row: &DigestSubscriptionRow,
) -> QueryResult<usize> {
    on_backend!(conn, |c| diesel::insert_into(digest_subscriptions::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(c))
}

pub(crate) fn delete_digest_subscription(conn: &mut DbConnection, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(digest_subscriptions::table.find(user_id)).execute(conn)
}

pub(crate) fn delete_digest_subscription_by_token(
    conn: &mut DbConnection,
    token: &str,
) -> QueryResult<usize> {
    diesel::delete(digest_subscriptions::table.filter(digest_subscriptions::token.eq(token))).execute(conn)
}

/// Subscriptions whose last digest covered up to `before` or earlier and which have unread
/// notifications since: the digests due, oldest first.
pub(crate) fn digests_due(
    conn: &mut DbConnection,
    before: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<DigestSubscriptionRow>> {
    let news = notifications::table
        .filter(notifications::user_id.eq(digest_subscriptions::user_id))
        .filter(notifications::read_at.is_null())
        .filter(notifications::created_at.gt(digest_subscriptions::covered_until));
    digest_subscriptions::table
        .filter(digest_subscriptions::covered_until.le(before))
        .filter(diesel::dsl::exists(news))
        .order((digest_subscriptions::covered_until.asc(), digest_subscriptions::user_id.asc()))
        .limit(limit)
        .select(DigestSubscriptionRow::as_select())
        .load(conn)
}

/// Moves a subscription's `covered_until` from `from` to `to`; 0 when another process moved
/// it first (or the member unsubscribed).
pub(crate) fn move_digest_cover(
    conn: &mut DbConnection,
    user_id: UserId,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        digest_subscriptions::table.find(user_id).filter(digest_subscriptions::covered_until.eq(from)),
    )
    .set(digest_subscriptions::covered_until.eq(to))
    .execute(conn)
}

// ------------------------------------------------------------------------------------------
// Gear

/// The gear of the setups, each list in its owner's order.
pub(crate) fn gear_of(conn: &mut DbConnection, setup_ids: &[SetupId]) -> QueryResult<Vec<GearRow>> {
    setup_gear::table
        .filter(setup_gear::setup_id.eq_any(setup_ids))
        .order((setup_gear::setup_id, setup_gear::position, setup_gear::id))
        .select(GearRow::as_select())
        .load(conn)
}

pub(crate) fn find_gear(conn: &mut DbConnection, id: GearId) -> QueryResult<Option<GearRow>> {
    setup_gear::table.find(id).select(GearRow::as_select()).first(conn).optional()
}

pub(crate) fn delete_gear_of(conn: &mut DbConnection, setup_id: SetupId) -> QueryResult<usize> {
    diesel::delete(setup_gear::table.filter(setup_gear::setup_id.eq(setup_id))).execute(conn)
}

pub(crate) fn insert_gear(conn: &mut DbConnection, forms: &[GearInsertForm<'_>]) -> QueryResult<usize> {
    // One statement per row, as the photos: SQLite's batch insert is not portable.
    forms.iter().map(|form| diesel::insert_into(setup_gear::table).values(form).execute(conn)).sum()
}

/// The gear links of live posts (their own URL, the post not hidden) not checked since
/// `before`, never checked first, then the longest unchecked.
pub(crate) fn gear_links_due(
    conn: &mut DbConnection,
    before: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<(GearId, String)>> {
    let rows: Vec<(GearId, Option<String>)> = setup_gear::table
        .inner_join(community_setups::table)
        .filter(community_setups::hidden.eq(false))
        .filter(setup_gear::url.is_not_null())
        .filter(setup_gear::checked_at.is_null().or(setup_gear::checked_at.lt(before)))
        // Never checked first (SQLite sorts NULL first, PostgreSQL last).
        .order((setup_gear::checked_at.is_not_null(), setup_gear::checked_at.asc(), setup_gear::id.asc()))
        .limit(limit)
        .select((setup_gear::id, setup_gear::url))
        .load(conn)?;
    Ok(rows.into_iter().filter_map(|(id, url)| Some((id, url?))).collect())
}

/// Marks a gear link as being checked now unless another process did since `before`; 1 when
/// this call claimed it.
pub(crate) fn claim_gear_link(
    conn: &mut DbConnection,
    gear_id: GearId,
    before: NaiveDateTime,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        setup_gear::table
            .find(gear_id)
            .filter(setup_gear::checked_at.is_null().or(setup_gear::checked_at.lt(before))),
    )
    .set(setup_gear::checked_at.eq(now))
    .execute(conn)
}

/// A gear link's post, its owner, the item's name, health and failures in a row, while the
/// item still has the address `url` and its post is live.
pub(crate) fn gear_link_state(
    conn: &mut DbConnection,
    gear_id: GearId,
    url: &str,
) -> QueryResult<Option<GearLinkStateRow>> {
    setup_gear::table
        .inner_join(community_setups::table)
        .filter(setup_gear::id.eq(gear_id))
        .filter(setup_gear::url.eq(url))
        .filter(community_setups::hidden.eq(false))
        .select((
            setup_gear::setup_id,
            community_setups::user_id,
            setup_gear::name,
            setup_gear::health,
            setup_gear::consecutive_failures,
        ))
        .first(conn)
        .optional()
}

/// Sets what a check saw of a gear link.
pub(crate) fn set_gear_link_health(
    conn: &mut DbConnection,
    gear_id: GearId,
    health: LinkHealth,
    failures: i32,
) -> QueryResult<usize> {
    diesel::update(setup_gear::table.find(gear_id))
        .set((setup_gear::health.eq(health), setup_gear::consecutive_failures.eq(failures)))
        .execute(conn)
}

pub(crate) fn insert_gear_click(
    conn: &mut DbConnection,
    form: &GearClickInsertForm<'_>,
) -> QueryResult<usize> {
    diesel::insert_into(setup_gear_clicks::table).values(form).execute(conn)
}

/// People's clicks (bots aside) on each setup's gear, whatever list the item was on.
pub(crate) fn gear_click_counts(
    conn: &mut DbConnection,
    setup_ids: &[SetupId],
) -> QueryResult<HashMap<SetupId, i64>> {
    let rows: Vec<(Option<SetupId>, i64)> = setup_gear_clicks::table
        .filter(setup_gear_clicks::setup_id.eq_any(setup_ids))
        .filter(setup_gear_clicks::is_bot.eq(false))
        .group_by(setup_gear_clicks::setup_id)
        .select((setup_gear_clicks::setup_id, count_star()))
        .load(conn)?;
    Ok(rows.into_iter().filter_map(|(id, n)| Some((id?, n))).collect())
}

/// People's clicks (bots aside) on each of the items, by item.
pub(crate) fn gear_item_click_counts(
    conn: &mut DbConnection,
    gear_ids: &[GearId],
) -> QueryResult<HashMap<GearId, i64>> {
    let rows: Vec<(Option<GearId>, i64)> = setup_gear_clicks::table
        .filter(setup_gear_clicks::gear_id.eq_any(gear_ids))
        .filter(setup_gear_clicks::is_bot.eq(false))
        .group_by(setup_gear_clicks::gear_id)
        .select((setup_gear_clicks::gear_id, count_star()))
        .load(conn)?;
    Ok(rows.into_iter().filter_map(|(id, n)| Some((id?, n))).collect())
}

/// Clicks by a text key (a category, a network).
pub(crate) type Counts = Vec<(String, i64)>;

/// People's gear clicks (bots aside) since `since` (none: all time), counted by category and
/// by network.
pub(crate) fn gear_clicks_by(
    conn: &mut DbConnection,
    since: Option<NaiveDateTime>,
) -> QueryResult<(Counts, Counts)> {
    // All time: from before the first click could have been made.
    let since = since.unwrap_or_default();
    let counted = || {
        setup_gear_clicks::table
            .filter(setup_gear_clicks::is_bot.eq(false))
            .filter(setup_gear_clicks::created_at.ge(since))
    };
    let categories = counted()
        .group_by(setup_gear_clicks::category)
        .select((setup_gear_clicks::category, count_star()))
        .load(conn)?;
    let networks = counted()
        .group_by(setup_gear_clicks::network)
        .select((setup_gear_clicks::network, count_star()))
        .load(conn)?;
    Ok((categories, networks))
}
