//! Catalogue and click queries.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::dsl::sum;
use diesel::prelude::*;
use setupiq_core::{ProductId, UserId};
use setupiq_db::schema::{affiliate_click_days, affiliate_click_visitors, affiliate_clicks, products};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{
    CheckedLink, ClickDayInsertForm, ClickInsertForm, Health, LinkVerdict, ProductLinkRow, ProductRow,
    UserClickRow, VisitorInsertForm,
};

/// Active products for an analysis category (`None`: the generic trio), optionally of one
/// chair style (and the accessories that fit any chair), cheapest first.
pub(crate) fn products_for(
    conn: &mut DbConnection,
    analysis_category: Option<&str>,
    chair_style: Option<&str>,
) -> QueryResult<Vec<ProductRow>> {
    let mut query = products::table.filter(products::is_active.eq(true)).into_boxed();
    query = match analysis_category {
        Some(category) => query.filter(products::analysis_category.eq(category)),
        None => query.filter(products::analysis_category.is_null()),
    };
    if let Some(style) = chair_style {
        query = query.filter(products::chair_style.eq(style).or(products::chair_style.is_null()));
    }
    query.order(products::price_cents.asc()).select(ProductRow::as_select()).load(conn)
}

/// Every active product's id, name, link and network (the catalogue is small: a few rows per
/// category), for matching gear by name.
pub(crate) fn active_links(conn: &mut DbConnection) -> QueryResult<Vec<(ProductId, String, String, String)>> {
    products::table
        .filter(products::is_active.eq(true))
        .order(products::id.asc())
        .select((products::id, products::name, products::link, products::network))
        .load(conn)
}

/// A product's category, if the product exists.
pub(crate) fn product_category(conn: &mut DbConnection, id: ProductId) -> QueryResult<Option<String>> {
    products::table.find(id).select(products::product_category).first(conn).optional()
}

/// The best-rated active products, for the trending list.
pub(crate) fn top_rated(conn: &mut DbConnection, limit: i64) -> QueryResult<Vec<ProductRow>> {
    products::table
        .filter(products::is_active.eq(true))
        .order((products::rating_tenths.desc(), products::id.asc()))
        .limit(limit)
        .select(ProductRow::as_select())
        .load(conn)
}

pub(crate) fn insert_click(conn: &mut DbConnection, form: &ClickInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(affiliate_clicks::table).values(form).execute(conn)
}

/// The user's clicks on product links, newest first: when, which product (by name), from
/// which suggestion and analysis.
pub(crate) fn clicks_of_user(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<UserClickRow>> {
    affiliate_clicks::table
        .inner_join(products::table)
        .filter(affiliate_clicks::user_id.eq(user_id))
        .order((affiliate_clicks::created_at.desc(), affiliate_clicks::id.desc()))
        .select((
            affiliate_clicks::created_at,
            products::name,
            affiliate_clicks::suggestion_context,
            affiliate_clicks::analysis_id,
        ))
        .load(conn)
}

/// Moves a visitor's last counted click (overall or in a category) to `at`, never back.
pub(crate) fn touch_visitor(conn: &mut DbConnection, form: &VisitorInsertForm<'_>) -> QueryResult<usize> {
    let moved = diesel::update(
        affiliate_click_visitors::table
            .filter(affiliate_click_visitors::visitor.eq(form.visitor))
            .filter(affiliate_click_visitors::category.eq(form.category))
            .filter(affiliate_click_visitors::last_click_at.lt(form.last_click_at)),
    )
    .set(affiliate_click_visitors::last_click_at.eq(form.last_click_at))
    .execute(conn)?;
    if moved > 0 {
        return Ok(moved);
    }
    // New, or already at a later click: the insert does nothing for the latter.
    on_backend!(conn, |c| diesel::insert_into(affiliate_click_visitors::table)
        .values(form)
        .on_conflict_do_nothing()
        .execute(c))
}

/// Adds one counted click to the product's day in the roll-up the admin panel reads.
pub(crate) fn count_click(
    conn: &mut DbConnection,
    day: NaiveDate,
    product_id: ProductId,
) -> QueryResult<usize> {
    on_backend!(conn, |c| diesel::insert_into(affiliate_click_days::table)
        .values(&ClickDayInsertForm { day, product_id, clicks: 1 })
        .on_conflict((affiliate_click_days::day, affiliate_click_days::product_id))
        .do_update()
        .set(affiliate_click_days::clicks.eq(affiliate_click_days::clicks + 1))
        .execute(c))
}

/// What revenue needs of a product.
#[derive(Debug, Clone, Queryable)]
pub struct ProductStats {
    pub id: ProductId,
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
) -> QueryResult<Vec<(ProductId, i64)>> {
    let rows: Vec<(ProductId, Option<i64>)> = on_backend!(conn, |c| affiliate_click_days::table
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

/// Visitors whose last counted click (in `category`; '' for any) is since `first_day`,
/// whose id starts with `prefix` ('s:' sessions, 'u:' users).
fn count_visitors(
    conn: &mut DbConnection,
    category: &str,
    prefix: &str,
    first_day: Option<NaiveDate>,
) -> QueryResult<i64> {
    affiliate_click_visitors::table
        .filter(affiliate_click_visitors::category.eq(category))
        .filter(affiliate_click_visitors::last_click_at.ge(since(first_day)))
        .filter(affiliate_click_visitors::visitor.like(format!("{prefix}%")))
        .select(diesel::dsl::count_star())
        .first(conn)
}

/// Distinct signed-in users and distinct sessions that clicked since `first_day`.
pub(crate) fn unique_visitors(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> QueryResult<(i64, i64)> {
    Ok((count_visitors(conn, "", "u:", first_day)?, count_visitors(conn, "", "s:", first_day)?))
}

/// Distinct sessions per product category that clicked in it since `first_day`.
pub(crate) fn unique_sessions_per_category(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> QueryResult<Vec<(String, i64)>> {
    on_backend!(conn, |c| affiliate_click_visitors::table
        .filter(affiliate_click_visitors::category.ne(""))
        .filter(affiliate_click_visitors::last_click_at.ge(since(first_day)))
        .filter(affiliate_click_visitors::visitor.like("s:%"))
        .group_by(affiliate_click_visitors::category)
        .select((affiliate_click_visitors::category, diesel::dsl::count_star()))
        .load(c))
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

pub(crate) fn find_product_link(
    conn: &mut DbConnection,
    id: ProductId,
) -> QueryResult<Option<ProductLinkRow>> {
    products::table.find(id).select(ProductLinkRow::as_select()).first(conn).optional()
}

/// Records what a check found on the product's row.
pub(crate) fn set_link_health(
    conn: &mut DbConnection,
    id: ProductId,
    checked: &CheckedLink<'_>,
) -> QueryResult<usize> {
    diesel::update(products::table.find(id))
        .set((
            products::link_status.eq(checked.status),
            products::link_verdict.eq(checked.verdict),
            products::link_status_code.eq(checked.status_code),
            products::link_final_url.eq(checked.final_url),
            products::consecutive_failures.eq(checked.consecutive_failures),
            products::is_active.eq(checked.is_active),
            products::last_verified_at.eq(checked.checked_at),
        ))
        .execute(conn)
}

pub(crate) fn set_expected_final_url(
    conn: &mut DbConnection,
    id: ProductId,
    url: Option<&str>,
) -> QueryResult<usize> {
    diesel::update(products::table.find(id)).set(products::expected_final_url.eq(url)).execute(conn)
}

/// A new link for a product: its health starts over.
pub(crate) fn replace_link(conn: &mut DbConnection, id: ProductId, link: &str) -> QueryResult<usize> {
    diesel::update(products::table.find(id))
        .set((
            products::link.eq(link),
            products::link_status.eq(None::<Health>),
            products::link_verdict.eq(None::<LinkVerdict>),
            products::link_status_code.eq(None::<i32>),
            products::link_final_url.eq(None::<String>),
            products::consecutive_failures.eq(0),
            products::expected_final_url.eq(None::<String>),
            products::last_verified_at.eq(None::<NaiveDateTime>),
        ))
        .execute(conn)
}

/// Switches a product off, or on again with its failures forgotten (an admin vouched for it).
pub(crate) fn set_active(conn: &mut DbConnection, id: ProductId, active: bool) -> QueryResult<usize> {
    let product = products::table.find(id);
    if active {
        diesel::update(product)
            .set((products::is_active.eq(true), products::consecutive_failures.eq(0)))
            .execute(conn)
    } else {
        diesel::update(product).set(products::is_active.eq(false)).execute(conn)
    }
}

/// Switches those of `ids` that are not `active` on or off (switched on, their failures are
/// forgotten); returns their ids and names.
pub(crate) fn set_active_many(
    conn: &mut DbConnection,
    ids: &[ProductId],
    active: bool,
) -> QueryResult<Vec<(ProductId, String)>> {
    let changing: Vec<(ProductId, String)> = products::table
        .filter(products::id.eq_any(ids))
        .filter(products::is_active.eq(!active))
        .select((products::id, products::name))
        .order(products::id)
        .load(conn)?;
    let found: Vec<ProductId> = changing.iter().map(|(id, _)| *id).collect();
    let chosen = products::table.filter(products::id.eq_any(&found));
    if active {
        diesel::update(chosen)
            .set((products::is_active.eq(true), products::consecutive_failures.eq(0)))
            .execute(conn)?;
    } else {
        diesel::update(chosen).set(products::is_active.eq(false)).execute(conn)?;
    }
    Ok(changing)
}
