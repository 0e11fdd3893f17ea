//! Queries of a post's gear: the items, their link checks and their clicks.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{GearId, SetupId};
use setupiq_db::DbConnection;
use setupiq_db::schema::{community_setups, setup_gear, setup_gear_clicks};

use setupiq_rigpage::service::link_health::LinkHealth;

use crate::models::{GearClickInsertForm, GearInsertForm, GearLinkStateRow, GearRow};

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
