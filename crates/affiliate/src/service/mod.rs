//! Recommendations from the catalogue and click tracking. Plain functions over a connection.
//! What admins read and fix: [`stats`] (clicks for analytics) and [`link_health`].

pub mod link_health;
pub mod stats;

use chrono::{DateTime, Utc};
use setupiq_db::{DbConnection, write_transaction};

use crate::error::AffiliateError;
use crate::models::{ClickInsertForm, ProductRow, VisitorInsertForm};
use crate::repo;

setupiq_db::text_enum! {
    /// A product's price tier (`products.tier`): every category offers one of each.
    #[derive(serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Tier {
        Budget = "budget",
        Balanced = "balanced",
        Premium = "premium",
    }
}

/// A product as suggestions show it.
#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    pub id: i64,
    pub name: String,
    /// Accessories, Cable Management, Chair, Desk, Headset, Keyboard, Lighting, Monitor, …
    pub category: String,
    pub tier: Tier,
    pub price_cents: i64,
    pub link: String,
    pub justification: String,
    /// Out of 5, one decimal.
    pub rating: f64,
}

impl From<ProductRow> for Product {
    fn from(row: ProductRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            category: row.product_category,
            tier: row.tier,
            price_cents: row.price_cents,
            link: row.link,
            justification: row.justification,
            rating: f64::from(row.rating_tenths) / 10.0,
        }
    }
}

/// The three tiers recommended for one category.
#[derive(Debug, Clone, PartialEq)]
pub struct Recommendation {
    pub budget: Product,
    pub balanced: Product,
    pub premium: Product,
}

/// Which chair trio fits a setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChairStyle {
    Gaming,
    Ergonomic,
}

/// The budget, balanced and premium product for an analysis category; a generic trio for
/// a category the catalogue does not know. Chair & Comfort picks the trio of `chair_style`
/// (gaming when not given).
pub fn recommend(
    conn: &mut DbConnection,
    analysis_category: &str,
    chair_style: Option<ChairStyle>,
) -> Result<Recommendation, AffiliateError> {
    let style =
        (analysis_category == "Chair & Comfort").then(|| match chair_style.unwrap_or(ChairStyle::Gaming) {
            ChairStyle::Gaming => "gaming",
            ChairStyle::Ergonomic => "ergonomic",
        });
    let mut rows = repo::products_for(conn, Some(analysis_category), style)?;
    if rows.is_empty() {
        rows = repo::products_for(conn, None, None)?;
    }
    let mut pick = |tier: Tier| {
        rows.iter()
            .position(|r| r.tier == tier)
            .map(|i| Product::from(rows.remove(i)))
            .ok_or_else(|| AffiliateError::CatalogueIncomplete(format!("{analysis_category} / {tier}")))
    };
    Ok(Recommendation {
        budget: pick(Tier::Budget)?,
        balanced: pick(Tier::Balanced)?,
        premium: pick(Tier::Premium)?,
    })
}

/// The trending gear list: the three best-rated products.
pub fn trending(conn: &mut DbConnection) -> Result<Vec<Product>, AffiliateError> {
    Ok(repo::top_rated(conn, 3)?.into_iter().map(Product::from).collect())
}

/// A click on a suggestion's product link (already validated).
#[derive(Debug, Clone)]
pub struct NewClick<'a> {
    pub product_id: i64,
    pub session_id: &'a str,
    pub suggestion_context: Option<&'a str>,
    pub analysis_id: Option<i64>,
    pub user_id: Option<i64>,
    /// Sent by a crawler or a tool (by its User-Agent): kept, never counted.
    pub is_bot: bool,
}

/// Records a click; a person's click is also added to its day in the roll-up and moves its
/// session's (and user's) last click, in the same transaction, so they never disagree.
pub fn track_click(
    conn: &mut DbConnection,
    click: &NewClick<'_>,
    now: DateTime<Utc>,
) -> Result<(), AffiliateError> {
    write_transaction(conn, |conn| {
        let category =
            repo::product_category(conn, click.product_id)?.ok_or(AffiliateError::ProductNotFound)?;
        record_click(conn, click, now)?;
        if !click.is_bot {
            repo::count_click(conn, now.date_naive(), click.product_id)?;
            let session = format!("s:{}", click.session_id);
            let mut visitors = vec![(session.clone(), ""), (session, category.as_str())];
            if let Some(user_id) = click.user_id {
                visitors.push((format!("u:{user_id}"), ""));
            }
            for (visitor, category) in &visitors {
                let form = VisitorInsertForm { visitor, category, last_click_at: now.naive_utc() };
                repo::touch_visitor(conn, &form)?;
            }
        }
        Ok(())
    })
}

fn record_click(
    conn: &mut DbConnection,
    click: &NewClick<'_>,
    now: DateTime<Utc>,
) -> Result<(), AffiliateError> {
    repo::insert_click(
        conn,
        &ClickInsertForm {
            product_id: click.product_id,
            user_id: click.user_id,
            session_id: click.session_id,
            suggestion_context: click.suggestion_context.filter(|c| !c.trim().is_empty()),
            analysis_id: click.analysis_id,
            created_at: now.naive_utc(),
            is_bot: click.is_bot,
        },
    )?;
    Ok(())
}
