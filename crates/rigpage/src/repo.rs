//! The rigpage crate's queries.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{LinkId, UserId};
use setupiq_db::schema::{
    rigpage_images, rigpage_link_clicks, rigpage_links, rigpage_slug_holds, rigpage_views, rigpages,
};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{
    DayCount, ImageInsertForm, LinkChangeset, LinkHealth, LinkInsertForm, LinkRow, RigpageForm, RigpageRow,
};

pub(crate) fn find_page(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Option<RigpageRow>> {
    rigpages::table.find(user_id).select(RigpageRow::as_select()).first(conn).optional()
}

pub(crate) fn find_pages(conn: &mut DbConnection, user_ids: &[UserId]) -> QueryResult<Vec<RigpageRow>> {
    rigpages::table.filter(rigpages::user_id.eq_any(user_ids)).select(RigpageRow::as_select()).load(conn)
}

/// The page whose slug is `slug_key` (the slug in lower case).
pub(crate) fn find_page_by_slug(conn: &mut DbConnection, slug_key: &str) -> QueryResult<Option<RigpageRow>> {
    rigpages::table
        .filter(rigpages::slug_key.eq(slug_key))
        .select(RigpageRow::as_select())
        .first(conn)
        .optional()
}

/// Who holds the slug `slug_key`, if anyone.
pub(crate) fn slug_holder(conn: &mut DbConnection, slug_key: &str) -> QueryResult<Option<UserId>> {
    rigpages::table.filter(rigpages::slug_key.eq(slug_key)).select(rigpages::user_id).first(conn).optional()
}

/// A slug nobody may take until `until`: a deleted account's (30 days), or one given up by a
/// rename (90 days), whose old address then leads to `redirect_user_id`'s page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SlugHold {
    pub until: NaiveDateTime,
    pub redirect_user_id: Option<UserId>,
}

/// The hold on `slug_key`, if there is one (an expired hold may linger).
pub(crate) fn slug_hold(conn: &mut DbConnection, slug_key: &str) -> QueryResult<Option<SlugHold>> {
    rigpage_slug_holds::table
        .find(slug_key)
        .select((rigpage_slug_holds::held_until, rigpage_slug_holds::redirect_user_id))
        .first::<(NaiveDateTime, Option<UserId>)>(conn)
        .optional()
        .map(|hold| hold.map(|(until, redirect_user_id)| SlugHold { until, redirect_user_id }))
}

/// Holds a slug (a later hold of the same slug replaces it) and drops the holds that have
/// run out.
pub(crate) fn hold_slug(
    conn: &mut DbConnection,
    slug_key: &str,
    hold: SlugHold,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::delete(rigpage_slug_holds::table.filter(rigpage_slug_holds::held_until.le(now))).execute(conn)?;
    release_slug(conn, slug_key)?;
    diesel::insert_into(rigpage_slug_holds::table)
        .values((
            rigpage_slug_holds::slug_key.eq(slug_key),
            rigpage_slug_holds::held_until.eq(hold.until),
            rigpage_slug_holds::redirect_user_id.eq(hold.redirect_user_id),
        ))
        .execute(conn)?;
    Ok(())
}

/// Ends the hold on a slug (its owner took it back).
pub(crate) fn release_slug(conn: &mut DbConnection, slug_key: &str) -> QueryResult<usize> {
    diesel::delete(rigpage_slug_holds::table.find(slug_key)).execute(conn)
}

/// Inserts the page or replaces every column of the existing one.
pub(crate) fn upsert_page(conn: &mut DbConnection, form: &RigpageForm<'_>) -> QueryResult<usize> {
    on_backend!(conn, |c| diesel::insert_into(rigpages::table)
        .values(form)
        .on_conflict(rigpages::user_id)
        .do_update()
        .set(form)
        .execute(c))
}

/// A page's links in display order.
pub(crate) fn links_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<LinkRow>> {
    rigpage_links::table
        .filter(rigpage_links::user_id.eq(user_id))
        .order((rigpage_links::display_order.asc(), rigpage_links::id.asc()))
        .select(LinkRow::as_select())
        .load(conn)
}

pub(crate) fn insert_link(conn: &mut DbConnection, form: &LinkInsertForm<'_>) -> QueryResult<LinkId> {
    on_backend!(conn, |c| diesel::insert_into(rigpage_links::table)
        .values(form)
        .returning(rigpage_links::id)
        .get_result(c))
}

/// Updates one of the user's links; 0 when it is not theirs.
pub(crate) fn update_link(
    conn: &mut DbConnection,
    user_id: UserId,
    link_id: LinkId,
    changes: &LinkChangeset<'_>,
) -> QueryResult<usize> {
    diesel::update(rigpage_links::table.find(link_id).filter(rigpage_links::user_id.eq(user_id)))
        .set(changes)
        .execute(conn)
}

/// Deletes the user's links that are not in `keep` (their clicks go with them).
pub(crate) fn delete_links_except(
    conn: &mut DbConnection,
    user_id: UserId,
    keep: &[LinkId],
) -> QueryResult<usize> {
    diesel::delete(
        rigpage_links::table
            .filter(rigpage_links::user_id.eq(user_id))
            .filter(rigpage_links::id.ne_all(keep)),
    )
    .execute(conn)
}

/// One link, with the page it belongs to.
pub(crate) fn find_link(conn: &mut DbConnection, link_id: LinkId) -> QueryResult<Option<(UserId, LinkRow)>> {
    rigpage_links::table
        .find(link_id)
        .select((rigpage_links::user_id, LinkRow::as_select()))
        .first(conn)
        .optional()
}

pub(crate) fn insert_image(conn: &mut DbConnection, form: &ImageInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(rigpage_images::table).values(form).execute(conn)
}

/// Who uploaded the image stored under `media_key`, if it is a RigPage image.
pub(crate) fn image_owner(conn: &mut DbConnection, media_key: &str) -> QueryResult<Option<UserId>> {
    rigpage_images::table.find(media_key).select(rigpage_images::user_id).first(conn).optional()
}

/// The keys of every RigPage image of a user.
pub(crate) fn image_keys_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<String>> {
    rigpage_images::table
        .filter(rigpage_images::user_id.eq(user_id))
        .select(rigpage_images::media_key)
        .load(conn)
}

/// The keys of every RigPage image uploaded (used by a page or not yet forgotten).
pub(crate) fn all_image_keys(conn: &mut DbConnection) -> QueryResult<Vec<String>> {
    rigpage_images::table.select(rigpage_images::media_key).load(conn)
}

/// Every image URL a page or a link shows (avatars, backgrounds, link images).
pub(crate) fn all_image_urls(conn: &mut DbConnection) -> QueryResult<Vec<String>> {
    let mut urls: Vec<String> = rigpages::table
        .filter(rigpages::avatar_url.is_not_null())
        .select(rigpages::avatar_url.assume_not_null())
        .load(conn)?;
    urls.extend(
        rigpages::table
            .filter(rigpages::background_url.is_not_null())
            .select(rigpages::background_url.assume_not_null())
            .load::<String>(conn)?,
    );
    urls.extend(
        rigpage_links::table
            .filter(rigpage_links::image_url.is_not_null())
            .select(rigpage_links::image_url.assume_not_null())
            .load::<String>(conn)?,
    );
    Ok(urls)
}

/// The keys of a user's images uploaded before `before`.
pub(crate) fn image_keys_before(
    conn: &mut DbConnection,
    user_id: UserId,
    before: NaiveDateTime,
) -> QueryResult<Vec<String>> {
    rigpage_images::table
        .filter(rigpage_images::user_id.eq(user_id))
        .filter(rigpage_images::created_at.lt(before))
        .select(rigpage_images::media_key)
        .load(conn)
}

pub(crate) fn count_images_since(
    conn: &mut DbConnection,
    user_id: UserId,
    since: NaiveDateTime,
) -> QueryResult<i64> {
    rigpage_images::table
        .filter(rigpage_images::user_id.eq(user_id))
        .filter(rigpage_images::created_at.ge(since))
        .select(count_star())
        .first(conn)
}

pub(crate) fn delete_images(conn: &mut DbConnection, keys: &[String]) -> QueryResult<usize> {
    diesel::delete(rigpage_images::table.filter(rigpage_images::media_key.eq_any(keys))).execute(conn)
}

/// Adds `views` to a page's count of `day`.
pub(crate) fn add_views(
    conn: &mut DbConnection,
    user_id: UserId,
    day: NaiveDate,
    views: i32,
) -> QueryResult<usize> {
    on_backend!(conn, |c| diesel::insert_into(rigpage_views::table)
        .values((
            rigpage_views::user_id.eq(user_id),
            rigpage_views::day.eq(day),
            rigpage_views::views.eq(views)
        ))
        .on_conflict((rigpage_views::user_id, rigpage_views::day))
        .do_update()
        .set(rigpage_views::views.eq(rigpage_views::views + views))
        .execute(c))
}

/// Adds `clicks` to a link's count of `day`; nothing when the link was deleted meanwhile.
pub(crate) fn add_clicks(
    conn: &mut DbConnection,
    link_id: LinkId,
    day: NaiveDate,
    clicks: i32,
) -> QueryResult<usize> {
    let exists: i64 =
        rigpage_links::table.filter(rigpage_links::id.eq(link_id)).select(count_star()).first(conn)?;
    if exists == 0 {
        return Ok(0);
    }
    on_backend!(conn, |c| diesel::insert_into(rigpage_link_clicks::table)
        .values((
            rigpage_link_clicks::link_id.eq(link_id),
            rigpage_link_clicks::day.eq(day),
            rigpage_link_clicks::clicks.eq(clicks),
        ))
        .on_conflict((rigpage_link_clicks::link_id, rigpage_link_clicks::day))
        .do_update()
        .set(rigpage_link_clicks::clicks.eq(rigpage_link_clicks::clicks + clicks))
        .execute(c))
}

/// A page's views per day from `from` on.
pub(crate) fn views_since(
    conn: &mut DbConnection,
    user_id: UserId,
    from: NaiveDate,
) -> QueryResult<Vec<DayCount>> {
    rigpage_views::table
        .filter(rigpage_views::user_id.eq(user_id))
        .filter(rigpage_views::day.ge(from))
        .select((rigpage_views::day, rigpage_views::views))
        .load(conn)
}

/// Clicks per link and day from `from` on, for the user's links.
pub(crate) fn clicks_since(
    conn: &mut DbConnection,
    user_id: UserId,
    from: NaiveDate,
) -> QueryResult<Vec<(LinkId, DayCount)>> {
    rigpage_link_clicks::table
        .inner_join(rigpage_links::table)
        .filter(rigpage_links::user_id.eq(user_id))
        .filter(rigpage_link_clicks::day.ge(from))
        .select((rigpage_link_clicks::link_id, (rigpage_link_clicks::day, rigpage_link_clicks::clicks)))
        .load(conn)
}

/// Enabled links of live pages not checked since `before`, the longest unchecked first.
pub(crate) fn links_due(
    conn: &mut DbConnection,
    before: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<(LinkId, String)>> {
    rigpage_links::table
        .inner_join(rigpages::table)
        .filter(rigpages::enabled.eq(true))
        .filter(rigpage_links::enabled.eq(true))
        .filter(rigpage_links::checked_at.is_null().or(rigpage_links::checked_at.lt(before)))
        // Never checked first (SQLite sorts NULL first, PostgreSQL last).
        .order((
            rigpage_links::checked_at.is_not_null(),
            rigpage_links::checked_at.asc(),
            rigpage_links::id.asc(),
        ))
        .limit(limit)
        .select((rigpage_links::id, rigpage_links::url))
        .load(conn)
}

/// Marks a link as being checked now unless another process did since `before`; 1 when
/// this call claimed it.
pub(crate) fn claim_link(
    conn: &mut DbConnection,
    link_id: LinkId,
    before: NaiveDateTime,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        rigpage_links::table
            .find(link_id)
            .filter(rigpage_links::checked_at.is_null().or(rigpage_links::checked_at.lt(before))),
    )
    .set(rigpage_links::checked_at.eq(now))
    .execute(conn)
}

/// A link's owner, label, health and failures in a row, while its address is still `url`.
pub(crate) fn link_state(
    conn: &mut DbConnection,
    link_id: LinkId,
    url: &str,
) -> QueryResult<Option<(UserId, String, LinkHealth, i32)>> {
    rigpage_links::table
        .find(link_id)
        .filter(rigpage_links::url.eq(url))
        .select((
            rigpage_links::user_id,
            rigpage_links::label,
            rigpage_links::health,
            rigpage_links::consecutive_failures,
        ))
        .first(conn)
        .optional()
}

/// Sets what a check saw of a link.
pub(crate) fn set_link_health(
    conn: &mut DbConnection,
    link_id: LinkId,
    health: LinkHealth,
    failures: i32,
) -> QueryResult<usize> {
    diesel::update(rigpage_links::table.find(link_id))
        .set((rigpage_links::health.eq(health), rigpage_links::consecutive_failures.eq(failures)))
        .execute(conn)
}

/// Forgets what the checks saw of a link whose address changed: the next run checks it.
pub(crate) fn reset_link_health(conn: &mut DbConnection, link_id: LinkId) -> QueryResult<usize> {
    diesel::update(rigpage_links::table.find(link_id))
        .set((
            rigpage_links::health.eq(LinkHealth::Unchecked),
            rigpage_links::consecutive_failures.eq(0),
            rigpage_links::checked_at.eq(None::<NaiveDateTime>),
        ))
        .execute(conn)
}
