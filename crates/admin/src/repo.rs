//! The admin crate's queries: the click roll-up and the clicks, the link-health columns of
//! the catalogue, verification runs and their results, and the admin log.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::dsl::{count, count_star, sum};
use diesel::expression_methods::AggregateExpressionMethods;
use diesel::prelude::*;
use setupiq_db::schema::{
    admin_log, affiliate_click_days, affiliate_clicks, link_check_runs, link_checks, products,
};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{LinkCheckInsertForm, LogInsertForm, LogRow, ProductLinkRow, RunInsertForm, RunRow};

/// What revenue needs of a product.
#[derive(Debug, Clone, Queryable)]
pub(crate) struct ProductStats {
    pub id: i64,
    pub name: String,
    pub product_category: String,
    pub price_cents: i64,
    pub commission_bp: i32,
}

pub(crate) fn product_stats(conn: &mut DbConnection) -> QueryResult<Vec<ProductStats>> {
    products::table
        .order(products::id)
        .select((
            products::id,
            products::name,
            products::product_category,
            products::price_cents,
            products::commission_bp,
        ))
        .load(conn)
}

/// Counted clicks per product since `first_day` (all time: none), from the roll-up.
pub(crate) fn clicks_per_product(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> QueryResult<Vec<(i64, i64)>> {
    let rows: Vec<(i64, Option<i64>)> = on_backend!(conn, |c| affiliate_click_days::table
        .filter(affiliate_click_days::day.ge(first_day.unwrap_or_default()))
        .group_by(affiliate_click_days::product_id)
        .select((affiliate_click_days::product_id, sum(affiliate_click_days::clicks)))
        .load(c))?;
    Ok(rows.into_iter().map(|(id, clicks)| (id, clicks.unwrap_or(0))).collect())
}

/// Counted clicks per day since `first_day`, from the roll-up.
pub(crate) fn clicks_per_day(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> QueryResult<Vec<(NaiveDate, i64)>> {
    let rows: Vec<(NaiveDate, Option<i64>)> = on_backend!(conn, |c| affiliate_click_days::table
        .filter(affiliate_click_days::day.ge(first_day.unwrap_or_default()))
        .group_by(affiliate_click_days::day)
        .select((affiliate_click_days::day, sum(affiliate_click_days::clicks)))
        .load(c))?;
    Ok(rows.into_iter().map(|(day, clicks)| (day, clicks.unwrap_or(0))).collect())
}

fn since(first_day: Option<NaiveDate>) -> NaiveDateTime {
    first_day.unwrap_or_default().and_time(chrono::NaiveTime::MIN)
}

/// Distinct signed-in users and distinct sessions among the counted clicks since `first_day`.
pub(crate) fn unique_visitors(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> QueryResult<(i64, i64)> {
    affiliate_clicks::table
        .filter(affiliate_clicks::is_bot.eq(false))
        .filter(affiliate_clicks::created_at.ge(since(first_day)))
        .select((
            count(affiliate_clicks::user_id).aggregate_distinct(),
            count(affiliate_clicks::session_id).aggregate_distinct(),
        ))
        .first(conn)
}

/// Distinct sessions per product category among the counted clicks since `first_day`.
pub(crate) fn unique_sessions_per_category(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> QueryResult<Vec<(String, i64)>> {
    on_backend!(conn, |c| affiliate_clicks::table
        .inner_join(products::table)
        .filter(affiliate_clicks::is_bot.eq(false))
        .filter(affiliate_clicks::created_at.ge(since(first_day)))
        .group_by(products::product_category)
        .select((products::product_category, count(affiliate_clicks::session_id).aggregate_distinct()))
        .load(c))
}

/// Counted clicks per product since `since` (the 30 days behind revenue at risk).
pub(crate) fn recent_clicks(conn: &mut DbConnection, first_day: NaiveDate) -> QueryResult<Vec<(i64, i64)>> {
    clicks_per_product(conn, Some(first_day))
}

/// The catalogue with its link health, optionally one category and one network.
pub(crate) fn product_links(
    conn: &mut DbConnection,
    category: Option<&str>,
    network: Option<&str>,
) -> QueryResult<Vec<ProductLinkRow>> {
    let mut query = products::table.into_boxed();
    if let Some(category) = category {
        query = query.filter(products::product_category.eq(category.to_owned()));
    }
    if let Some(network) = network {
        query = query.filter(products::network.eq(network.to_owned()));
    }
    query.order(products::id).select(ProductLinkRow::as_select()).load(conn)
}

pub(crate) fn find_product_link(conn: &mut DbConnection, id: i64) -> QueryResult<Option<ProductLinkRow>> {
    products::table.find(id).select(ProductLinkRow::as_select()).first(conn).optional()
}

/// Records what a check found on the product's row.
#[allow(clippy::too_many_arguments)] // one column each
pub(crate) fn set_link_health(
    conn: &mut DbConnection,
    id: i64,
    status: &str,
    verdict: &str,
    status_code: Option<i32>,
    final_url: Option<&str>,
    consecutive_failures: i32,
    is_active: bool,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(products::table.find(id))
        .set((
            products::link_status.eq(status),
            products::link_verdict.eq(verdict),
            products::link_status_code.eq(status_code),
            products::link_final_url.eq(final_url),
            products::consecutive_failures.eq(consecutive_failures),
            products::is_active.eq(is_active),
            products::last_verified_at.eq(now),
        ))
        .execute(conn)
}

pub(crate) fn set_expected_final_url(
    conn: &mut DbConnection,
    id: i64,
    url: Option<&str>,
) -> QueryResult<usize> {
    diesel::update(products::table.find(id)).set(products::expected_final_url.eq(url)).execute(conn)
}

/// A new link for a product: its health starts over.
pub(crate) fn replace_link(conn: &mut DbConnection, id: i64, link: &str) -> QueryResult<usize> {
    diesel::update(products::table.find(id))
        .set((
            products::link.eq(link),
            products::link_status.eq(None::<String>),
            products::link_verdict.eq(None::<String>),
            products::link_status_code.eq(None::<i32>),
            products::link_final_url.eq(None::<String>),
            products::consecutive_failures.eq(0),
            products::expected_final_url.eq(None::<String>),
            products::last_verified_at.eq(None::<NaiveDateTime>),
        ))
        .execute(conn)
}

pub(crate) fn set_active(conn: &mut DbConnection, id: i64, active: bool) -> QueryResult<usize> {
    diesel::update(products::table.find(id)).set(products::is_active.eq(active)).execute(conn)
}

/// Opens a run; fails with a unique violation while another is pending.
pub(crate) fn insert_run(conn: &mut DbConnection, form: &RunInsertForm<'_>) -> QueryResult<i64> {
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
            .filter(link_check_runs::status.eq("pending"))
            .filter(link_check_runs::started_at.lt(before)),
    )
    .set((link_check_runs::status.eq("failed"), link_check_runs::finished_at.eq(now)))
    .execute(conn)
}

#[allow(clippy::too_many_arguments)] // the run's counts
pub(crate) fn finish_run(
    conn: &mut DbConnection,
    id: i64,
    status: &str,
    counts: [i32; 7],
    now: NaiveDateTime,
) -> QueryResult<usize> {
    let [total, healthy, dead, warnings, unknown, errors, timeouts] = counts;
    diesel::update(link_check_runs::table.find(id))
        .set((
            link_check_runs::status.eq(status),
            link_check_runs::finished_at.eq(now),
            link_check_runs::total_checked.eq(total),
            link_check_runs::healthy.eq(healthy),
            link_check_runs::dead.eq(dead),
            link_check_runs::warnings.eq(warnings),
            link_check_runs::unknown.eq(unknown),
            link_check_runs::errors.eq(errors),
            link_check_runs::timeouts.eq(timeouts),
        ))
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

/// The hops (stored JSON) and time of each product's check in a run.
pub(crate) fn chains_in_run(conn: &mut DbConnection, run_id: i64) -> QueryResult<Vec<(i64, String, i32)>> {
    link_checks::table
        .filter(link_checks::run_id.eq(run_id))
        .select((link_checks::product_id, link_checks::chain, link_checks::elapsed_ms))
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
