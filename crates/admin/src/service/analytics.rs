//! Affiliate click analytics: totals, unique users and sessions, estimated revenue, top
//! products, categories and a daily series, over the last 7, 30 or 90 UTC days or all
//! time. Clicks and revenue come from the per-day roll-up (`affiliate_click_days`, a few
//! rows per product and day); unique users and sessions from each visitor's last counted
//! click (see `setupiq_affiliate::service::stats`). Bots' clicks are never counted.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use setupiq_affiliate::service::stats::{self, ProductStats};
use setupiq_community::service::gear::{self, GearClickStats};
use setupiq_core::ProductId;
use setupiq_db::DbConnection;

use crate::error::AdminError;

/// How far back the analytics look.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = AnalyticsPeriod)]
pub enum Period {
    #[serde(rename = "7d")]
    Days7,
    #[serde(rename = "30d")]
    Days30,
    #[serde(rename = "90d")]
    Days90,
    #[default]
    #[serde(rename = "all")]
    All,
}

impl Period {
    /// The first UTC day counted: today and the days before it, `n` in all.
    pub fn first_day(self, now: DateTime<Utc>) -> Option<NaiveDate> {
        let days = match self {
            Period::Days7 => 7,
            Period::Days30 => 30,
            Period::Days90 => 90,
            Period::All => return None,
        };
        Some(now.date_naive() - Duration::days(days - 1))
    }
}

/// Estimated revenue of `clicks` on one product, in cents: clicks x price x the product's
/// commission rate x the conversion rate, rounded half up. Rates in basis points
/// (1 % = 100), so nothing on the way is a float.
pub fn estimated_cents(clicks: i64, price_cents: i64, commission_bp: i32, conversion_bp: u32) -> i64 {
    let per_cent = 10_000_i128 * 10_000;
    let exact = i128::from(clicks)
        .saturating_mul(i128::from(price_cents))
        .saturating_mul(i128::from(commission_bp))
        .saturating_mul(i128::from(conversion_bp));
    i64::try_from(exact.saturating_add(per_cent / 2) / per_cent).unwrap_or(i64::MAX)
}

/// The four figures on top of the panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub total_clicks: i64,
    pub unique_users: i64,
    pub unique_sessions: i64,
    pub estimated_revenue_cents: i64,
}

/// One product's clicks and revenue in the period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductPerformance {
    pub id: ProductId,
    pub name: String,
    pub category: String,
    pub clicks: i64,
    pub estimated_revenue_cents: i64,
}

/// One category's clicks, sessions and revenue in the period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryPerformance {
    pub category: String,
    pub clicks: i64,
    pub unique_sessions: i64,
    pub estimated_revenue_cents: i64,
}

/// How the category table is sorted (the spec's keys).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum CategorySort {
    /// A to Z.
    Category,
    /// Most first, as every other key.
    #[default]
    ClickCount,
    UniqueSessions,
    EstimatedRevenue,
}

/// Every product's clicks and revenue in the period, products without clicks included.
fn performance(
    conn: &mut DbConnection,
    first_day: Option<NaiveDate>,
    conversion_bp: u32,
) -> Result<Vec<ProductPerformance>, AdminError> {
    let clicks: HashMap<ProductId, i64> = stats::clicks_per_product(conn, first_day)?.into_iter().collect();
    Ok(stats::products(conn)?
        .into_iter()
        .map(|p: ProductStats| {
            let count = clicks.get(&p.id).copied().unwrap_or(0);
            ProductPerformance {
                estimated_revenue_cents: estimated_cents(
                    count,
                    p.price_cents,
                    p.commission_bp,
                    conversion_bp,
                ),
                clicks: count,
                id: p.id,
                name: p.name,
                category: p.product_category,
            }
        })
        .collect())
}

pub fn summary(
    conn: &mut DbConnection,
    period: Period,
    now: DateTime<Utc>,
    conversion_bp: u32,
) -> Result<Summary, AdminError> {
    let first_day = period.first_day(now);
    let products = performance(conn, first_day, conversion_bp)?;
    let (unique_users, unique_sessions) = stats::unique_visitors(conn, first_day)?;
    Ok(Summary {
        total_clicks: products.iter().map(|p| p.clicks).sum(),
        unique_users,
        unique_sessions,
        estimated_revenue_cents: products.iter().map(|p| p.estimated_revenue_cents).sum(),
    })
}

/// The `limit` most clicked products of the period (ties: more revenue, then the older
/// product); products nobody clicked are left out.
pub fn top_products(
    conn: &mut DbConnection,
    period: Period,
    limit: usize,
    now: DateTime<Utc>,
    conversion_bp: u32,
) -> Result<Vec<ProductPerformance>, AdminError> {
    let mut products: Vec<ProductPerformance> = performance(conn, period.first_day(now), conversion_bp)?
        .into_iter()
        .filter(|p| p.clicks > 0)
        .collect();
    products.sort_by(|a, b| {
        b.clicks
            .cmp(&a.clicks)
            .then(b.estimated_revenue_cents.cmp(&a.estimated_revenue_cents))
            .then(a.id.cmp(&b.id))
    });
    products.truncate(limit);
    Ok(products)
}

/// Each category with clicks in the period, sorted by `sort`.
pub fn categories(
    conn: &mut DbConnection,
    period: Period,
    sort: CategorySort,
    now: DateTime<Utc>,
    conversion_bp: u32,
) -> Result<Vec<CategoryPerformance>, AdminError> {
    let first_day = period.first_day(now);
    let sessions: HashMap<String, i64> =
        stats::unique_sessions_per_category(conn, first_day)?.into_iter().collect();
    let mut by_category: BTreeMap<String, CategoryPerformance> = BTreeMap::new();
    for product in performance(conn, first_day, conversion_bp)?.into_iter().filter(|p| p.clicks > 0) {
        let entry = by_category.entry(product.category.clone()).or_insert_with(|| CategoryPerformance {
            unique_sessions: sessions.get(&product.category).copied().unwrap_or(0),
            category: product.category,
            clicks: 0,
            estimated_revenue_cents: 0,
        });
        entry.clicks += product.clicks;
        entry.estimated_revenue_cents += product.estimated_revenue_cents;
    }
    let mut categories: Vec<CategoryPerformance> = by_category.into_values().collect();
    // The BTreeMap gave A to Z; a stable sort keeps it for ties.
    match sort {
        CategorySort::Category => {}
        CategorySort::ClickCount => categories.sort_by_key(|c| Reverse(c.clicks)),
        CategorySort::UniqueSessions => categories.sort_by_key(|c| Reverse(c.unique_sessions)),
        CategorySort::EstimatedRevenue => {
            categories.sort_by_key(|c| Reverse(c.estimated_revenue_cents));
        }
    }
    Ok(categories)
}

/// Clicks per UTC day of the period, every day present (0 when none): at most 90 days,
/// and for all time from the first day with clicks.
pub fn daily_clicks(
    conn: &mut DbConnection,
    period: Period,
    now: DateTime<Utc>,
) -> Result<Vec<(NaiveDate, i64)>, AdminError> {
    let first_day = period.first_day(now);
    let counted: BTreeMap<NaiveDate, i64> = stats::clicks_per_day(conn, first_day)?.into_iter().collect();
    let Some(start) = first_day.or_else(|| counted.keys().next().copied()) else { return Ok(Vec::new()) };
    let today = now.date_naive();
    Ok(start
        .iter_days()
        .take_while(|day| *day <= today)
        .map(|day| (day, counted.get(&day).copied().unwrap_or(0)))
        .collect())
}

/// People's clicks on the gear of community posts (issue 59) in the period, per gear
/// category and per network (the catalogue product's, or the shop the owner's link names).
/// Bots' clicks never count, and an owner's clicks on their own gear are not recorded.
pub fn gear_clicks(
    conn: &mut DbConnection,
    period: Period,
    now: DateTime<Utc>,
) -> Result<GearClickStats, AdminError> {
    let since = period.first_day(now).map(|day| day.and_time(chrono::NaiveTime::MIN));
    Ok(gear::click_stats(conn, since)?)
}
