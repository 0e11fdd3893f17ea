//! Catalogue and click queries.

use chrono::NaiveDate;
use diesel::prelude::*;
use setupiq_db::schema::{affiliate_click_days, affiliate_clicks, products};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{ClickDayInsertForm, ClickInsertForm, ProductRow};

/// Active products for an analysis category (`None`: the generic trio), optionally of one
/// chair style, cheapest first.
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
        query = query.filter(products::chair_style.eq(style));
    }
    query.order(products::price_cents.asc()).select(ProductRow::as_select()).load(conn)
}

pub(crate) fn product_exists(conn: &mut DbConnection, id: i64) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(products::table.find(id))).get_result(conn)
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

/// Adds one counted click to the product's day in the roll-up the admin panel reads.
pub(crate) fn count_click(conn: &mut DbConnection, day: NaiveDate, product_id: i64) -> QueryResult<usize> {
    on_backend!(conn, |c| diesel::insert_into(affiliate_click_days::table)
        .values(&ClickDayInsertForm { day, product_id, clicks: 1 })
        .on_conflict((affiliate_click_days::day, affiliate_click_days::product_id))
        .do_update()
        .set(affiliate_click_days::clicks.eq(affiliate_click_days::clicks + 1))
        .execute(c))
}
