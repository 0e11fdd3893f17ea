//! What the admin's analytics read of the clicks: counted clicks per product and per day
//! from the roll-up (`affiliate_click_days`); distinct users and sessions from each
//! visitor's last counted click (`affiliate_click_visitors`): a visitor clicked in the last
//! N days exactly when their last click is within them. Bots' clicks are never counted.

use chrono::NaiveDate;
use setupiq_core::ProductId;
use setupiq_db::DbConnection;

use crate::error::AffiliateError;
use crate::repo;
pub use crate::repo::ProductStats;

/// Every product with what revenue needs of it (price, commission), oldest first.
pub fn products(conn: &mut DbConnection) -> Result<Vec<ProductStats>, AffiliateError> {
    Ok(repo::product_stats(conn)?)
}

/// Counted clicks per product since `first_day` (none: all time).
pub fn clicks_per_product(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> Result<Vec<(ProductId, i64)>, AffiliateError> {
    Ok(repo::clicks_per_product(conn, first_day)?)
}

/// Counted clicks per UTC day since `first_day` (days without clicks are absent).
pub fn clicks_per_day(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> Result<Vec<(NaiveDate, i64)>, AffiliateError> {
    Ok(repo::clicks_per_day(conn, first_day)?)
}

/// Distinct signed-in users and distinct sessions that clicked since `first_day`.
pub fn unique_visitors(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> Result<(i64, i64), AffiliateError> {
    Ok(repo::unique_visitors(conn, first_day)?)
}

/// Distinct sessions per product category since `first_day`.
pub fn unique_sessions_per_category(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
) -> Result<Vec<(String, i64)>, AffiliateError> {
    Ok(repo::unique_sessions_per_category(conn, first_day)?)
}
