//! The admin crate's queries: verification runs and their results, and the admin log (the
//! catalogue and its clicks are read through `setupiq_affiliate`).

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{ProductId, RunId};
use setupiq_db::schema::{admin_log, link_check_runs, link_checks};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{
    LinkCheckInsertForm, LogInsertForm, LogRow, RunInsertForm, RunOutcomeForm, RunRow, RunStatus,
};

/// Opens a run; fails with a unique violation while another is pending.
pub(crate) fn insert_run(conn: &mut DbConnection, form: &RunInsertForm<'_>) -> QueryResult<RunId> {
    on_backend!(conn, |c| diesel::insert_into(link_check_runs::table)
        .values(form)
        .returning(link_check_runs::id)
        .get_result(c))
}

/// Marks pending runs started before `before` failed (their process went away).
pub(crate) fn fail_stale_runs(
    conn: &mut DbConnection,
    before: NaiveDateTime,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        link_check_runs::table
            .filter(link_check_runs::status.eq(RunStatus::Pending))
            .filter(link_check_runs::started_at.lt(before)),
    )
    .set((
        link_check_runs::status.eq(RunStatus::Failed),
        link_check_runs::finished_at.eq(now),
        link_check_runs::failure_reason
            .eq("The run was interrupted (its server stopped) and never finished."),
    ))
    .execute(conn)
}

/// Closes a run that is still pending (a run already closed, by this process or as stale by
/// another, keeps its outcome).
pub(crate) fn finish_run(
    conn: &mut DbConnection,
    id: RunId,
    outcome: &RunOutcomeForm<'_>,
) -> QueryResult<usize> {
    diesel::update(link_check_runs::table.find(id).filter(link_check_runs::status.eq(RunStatus::Pending)))
        .set(outcome)
        .execute(conn)
}

pub(crate) fn last_runs(conn: &mut DbConnection, limit: i64) -> QueryResult<Vec<RunRow>> {
    link_check_runs::table
        .order((link_check_runs::started_at.desc(), link_check_runs::id.desc()))
        .limit(limit)
        .select(RunRow::as_select())
        .load(conn)
}

pub(crate) fn insert_check(conn: &mut DbConnection, form: &LinkCheckInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(link_checks::table).values(form).execute(conn)
}

/// The hops (stored JSON) of each product's check in a run.
pub(crate) fn chains_in_run(conn: &mut DbConnection, run_id: RunId) -> QueryResult<Vec<(ProductId, String)>> {
    link_checks::table
        .filter(link_checks::run_id.eq(run_id))
        .select((link_checks::product_id, link_checks::chain))
        .load(conn)
}

pub(crate) fn insert_log(conn: &mut DbConnection, form: &LogInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(admin_log::table).values(form).execute(conn)
}

pub(crate) fn log_page(conn: &mut DbConnection, limit: i64, offset: i64) -> QueryResult<Vec<LogRow>> {
    admin_log::table
        .order((admin_log::created_at.desc(), admin_log::id.desc()))
        .limit(limit)
        .offset(offset)
        .select(LogRow::as_select())
        .load(conn)
}

pub(crate) fn count_log(conn: &mut DbConnection) -> QueryResult<i64> {
    admin_log::table.select(count_star()).first(conn)
}
