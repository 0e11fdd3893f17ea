//! Recommendations from the catalogue and click tracking. Plain functions over a connection.
//! What admins read and fix: [`stats`] (clicks for analytics) and [`link_health`].

pub mod link_health;
pub mod stats;

use chrono::{DateTime, Utc};
use serde::Serialize;
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_core::{AnalysisId, ProductId, UserId};
use setupiq_db::{DbConnection, write_transaction};

use crate::error::AffiliateError;
use crate::models::{ClickInsertForm, ProductRow, VisitorInsertForm};
pub use crate::models::{ProductKind, Tier};
use crate::repo;

/// A product as suggestions show it.
#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    pub id: ProductId,
    pub name: String,
    /// Accessories, Cable Management, Chair, Desk, Headset, Keyboard, Lighting, Monitor, …
    pub category: String,
    pub tier: Tier,
    pub price_cents: i64,
    pub link: String,
    pub justification: String,
    /// Out of 5, one decimal.
    pub rating: f64,
    /// `None` for the generic products no analysis category asks for.
    pub kind: Option<ProductKind>,
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
            kind: row.kind,
        }
    }
}

/// The active products of one category by tier; each tier best-rated first (then cheapest),
/// so its first product is the pick when nothing else decides. A tier may be empty: link
/// checks switch products off, and an analysis must never depend on the catalogue being
/// complete.
#[derive(Debug, Clone, PartialEq)]
pub struct Recommendation {
    pub budget: Vec<Product>,
    pub balanced: Vec<Product>,
    pub premium: Vec<Product>,
}

impl Recommendation {
    pub fn tier(&self, tier: Tier) -> &[Product] {
        match tier {
            Tier::Budget => &self.budget,
            Tier::Balanced => &self.balanced,
            Tier::Premium => &self.premium,
        }
    }
}

/// Which chair trio fits a setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChairStyle {
    Gaming,
    Ergonomic,
}

/// The budget, balanced and premium products for an analysis category; the generic trio for
/// a category the catalogue does not know. Chair & Comfort offers the chairs of
/// `chair_style` (gaming when not given) and the accessories that fit any chair.
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
    let products_of = |tier: Tier| {
        let mut products: Vec<Product> =
            rows.iter().filter(|r| r.tier == tier).cloned().map(Product::from).collect();
        products.sort_by(|a, b| {
            b.rating.total_cmp(&a.rating).then(a.price_cents.cmp(&b.price_cents)).then(a.id.cmp(&b.id))
        });
        products
    };
    Ok(Recommendation {
        budget: products_of(Tier::Budget),
        balanced: products_of(Tier::Balanced),
        premium: products_of(Tier::Premium),
    })
}

/// The trending gear list: the three best-rated products.
pub fn trending(conn: &mut DbConnection) -> Result<Vec<Product>, AffiliateError> {
    Ok(repo::top_rated(conn, 3)?.into_iter().map(Product::from).collect())
}

/// An active catalogue product a name matches, as a gear link needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueLink {
    pub id: ProductId,
    pub name: String,
    /// The affiliate link.
    pub link: String,
    /// `products.network` (`amazon`, `best_buy`, …).
    pub network: String,
}

/// A name as matching compares it: trimmed, runs of whitespace as one space, lower case.
pub fn match_key(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// The active catalogue products `names` match (by [`match_key`]: the same words in any
/// case), keyed by that key; one query whatever the number of names. A product switched off
/// by a link check matches nothing.
pub fn active_named(
    conn: &mut DbConnection,
    names: &[&str],
) -> Result<std::collections::HashMap<String, CatalogueLink>, AffiliateError> {
    if names.is_empty() {
        return Ok(std::collections::HashMap::new());
    }
    let wanted: std::collections::HashSet<String> = names.iter().map(|n| match_key(n)).collect();
    let mut found = std::collections::HashMap::new();
    for (id, name, link, network) in repo::active_links(conn)? {
        let key = match_key(&name);
        if wanted.contains(&key) {
            found.entry(key).or_insert(CatalogueLink { id, name, link, network });
        }
    }
    Ok(found)
}

/// A click on a suggestion's product link (already validated).
#[derive(Debug, Clone)]
pub struct NewClick<'a> {
    pub product_id: ProductId,
    pub session_id: &'a str,
    pub suggestion_context: Option<&'a str>,
    pub analysis_id: Option<AnalysisId>,
    pub user_id: Option<UserId>,
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

/// One click of the user on a product link, in their data export.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedClick {
    clicked_at: DateTime<Utc>,
    product: String,
    /// The suggestion it was clicked from, if any.
    context: Option<String>,
    analysis_id: Option<AnalysisId>,
}

/// The user's clicks on product links, newest first, for their data export
/// (`affiliateClicks`).
pub fn export_clicks(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let clicks: Vec<ExportedClick> = repo::clicks_of_user(conn, user_id)?
        .into_iter()
        .map(|row| ExportedClick {
            clicked_at: row.created_at.and_utc(),
            product: row.product,
            context: row.suggestion_context,
            analysis_id: row.analysis_id,
        })
        .collect();
    Section::new("affiliateClicks", &clicks)
}
