//! Queries of reports, of posts and of comments: filing, the limits that count them, the
//! open queue and its closing.

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{CommentId, SetupId, UserId};
use setupiq_db::schema::{community_comment_reports, community_reports, community_setups};
use setupiq_db::{DbConnection, on_backend};

use crate::models::ReportStatus;
use crate::models::{
    CommentReportInsertForm, CommentReportRow, MadeCommentReportRow, MadeReportRow, ReportInsertForm,
    ReportRow,
};

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

/// Every open report, oldest first.
pub(crate) fn open_reports(conn: &mut DbConnection) -> QueryResult<Vec<ReportRow>> {
    community_reports::table
        .filter(community_reports::status.eq(ReportStatus::Open))
        .order((community_reports::created_at.asc(), community_reports::id.asc()))
        .select(ReportRow::as_select())
        .load(conn)
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
