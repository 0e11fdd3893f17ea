//! Upgrade suggestions from the affiliate catalogue: the weakest categories first, each
//! with the product of its budget / balanced / premium trio that gains the most score per
//! dollar, and the three tiers to choose from. Only what was seen is pitched: a category the
//! analyzer rated with low confidence (no chair in the photo, a description silent on it) is
//! suggested only when nothing else needs it, and never before one that was seen.

use serde::{Deserialize, Serialize};
use setupiq_affiliate::service::{self as affiliate, ChairStyle, Product, Tier};
use setupiq_db::DbConnection;
use utoipa::ToSchema;

use crate::error::AnalysisError;
use setupiq_analyzer::result::{Assessment, Category, CategoryScore, Confidence};

/// At most this many suggestions per analysis.
pub const MAX_SUGGESTIONS: usize = 3;
/// Categories scoring this or more need no upgrade.
const GOOD_ENOUGH: u8 = 9;
/// Points a product of each tier is expected to add to its category's score: a budget fix
/// helps a little, a premium one changes the picture (capped at 10).
const GAIN_BUDGET: u8 = 1;
const GAIN_BALANCED: u8 = 2;
const GAIN_PREMIUM: u8 = 3;

/// One catalogue product as a suggestion shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductRecommendation {
    /// The catalogue id, sent back with click tracking.
    pub product_id: i64,
    pub name: String,
    /// The affiliate link.
    pub link: String,
    /// The price as shown, e.g. "$49.99".
    pub price: String,
    pub price_cents: i64,
    pub tier: Tier,
    /// Why this product helps.
    pub justification: String,
}

impl From<&Product> for ProductRecommendation {
    fn from(p: &Product) -> Self {
        Self {
            product_id: p.id,
            name: p.name.clone(),
            link: p.link.clone(),
            price: format_price(p.price_cents),
            price_cents: p.price_cents,
            tier: p.tier,
            justification: p.justification.clone(),
        }
    }
}

/// The three tiers of one category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProductTiers {
    pub budget: ProductRecommendation,
    pub balanced: ProductRecommendation,
    pub premium: ProductRecommendation,
}

/// An upgrade suggestion for one weak category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub category: Category,
    pub title: String,
    pub description: String,
    /// The tier that gains the most score per dollar.
    pub product_recommendation: ProductRecommendation,
    pub tiers: ProductTiers,
}

/// Suggestions for `assessment`, best value first.
pub fn suggest(conn: &mut DbConnection, assessment: &Assessment) -> Result<Vec<Suggestion>, AnalysisError> {
    let chair_style = if assessment.category.to_lowercase().contains("gaming")
        || assessment.score_of(Category::RgbLighting).is_some_and(|s| s >= 7)
    {
        ChairStyle::Gaming
    } else {
        ChairStyle::Ergonomic
    };
    let mut ranked = Vec::new();
    for rating in candidates(assessment) {
        let trio = affiliate::recommend(conn, rating.category.name(), Some(chair_style))?;
        let candidates =
            [(&trio.budget, GAIN_BUDGET), (&trio.balanced, GAIN_BALANCED), (&trio.premium, GAIN_PREMIUM)];
        let (best, value) = candidates
            .iter()
            .map(|(product, gain)| (*product, value_per_dollar(rating, *gain, product.price_cents)))
            .fold((&trio.budget, f64::MIN), |best, next| if next.1 > best.1 { next } else { best });
        let suggestion = Suggestion {
            category: rating.category,
            title: title(rating.category).to_owned(),
            description: format!(
                "{}/10: {}. {}",
                rating.score,
                rating.comment.trim_end_matches('.'),
                best.justification
            ),
            product_recommendation: best.into(),
            tiers: ProductTiers {
                budget: (&trio.budget).into(),
                balanced: (&trio.balanced).into(),
                premium: (&trio.premium).into(),
            },
        };
        ranked.push((suggestion, value));
    }
    // Best value first among what was seen; the unseen after them.
    ranked.sort_by(|a, b| {
        let unseen = |s: &Suggestion| {
            assessment.category_ratings.iter().any(|r| r.category == s.category && is_unseen(r))
        };
        unseen(&a.0).cmp(&unseen(&b.0)).then(b.1.total_cmp(&a.1))
    });
    Ok(ranked.into_iter().map(|(s, _)| s).collect())
}

/// The categories to suggest for, weakest first: those below [`GOOD_ENOUGH`] that were
/// seen, then, only to fill up to [`MAX_SUGGESTIONS`] when fewer were, the unseen ones.
fn candidates(assessment: &Assessment) -> Vec<&CategoryScore> {
    let weak: Vec<&CategoryScore> =
        assessment.weakest_first().into_iter().filter(|r| r.score < GOOD_ENOUGH).collect();
    let (seen, unseen): (Vec<_>, Vec<_>) = weak.into_iter().partition(|r| !is_unseen(r));
    seen.into_iter().chain(unseen).take(MAX_SUGGESTIONS).collect()
}

/// Rated with low confidence: the photo or the description gave little to go on.
fn is_unseen(rating: &CategoryScore) -> bool {
    rating.confidence == Some(Confidence::Low)
}

/// Overall-score points gained per dollar: the category's weight times the points the
/// product can still add (never past 10), over its price.
fn value_per_dollar(rating: &CategoryScore, gain: u8, price_cents: i64) -> f64 {
    let points = f64::from(gain.min(10 - rating.score.min(10)));
    let dollars = (price_cents.max(1) as f64) / 100.0;
    rating.category.weight() * points / dollars
}

fn title(category: Category) -> &'static str {
    match category {
        Category::CableManagement => "Tame your cables",
        Category::RgbLighting => "Add some ambient lighting",
        Category::DeskCleanliness => "Clear the desk surface",
        Category::MonitorSetup => "Level up your monitor setup",
        Category::ChairComfort => "Upgrade your seating",
        Category::AestheticVibe => "Pull the look together",
    }
}

/// `$1,395.00` from 139500 cents.
pub fn format_price(cents: i64) -> String {
    let dollars = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, digit) in dollars.chars().enumerate() {
        if i > 0 && (dollars.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("${grouped}.{:02}", cents % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_read_like_prices() {
        assert_eq!(format_price(1999), "$19.99");
        assert_eq!(format_price(139_500), "$1,395.00");
        assert_eq!(format_price(100_000_000), "$1,000,000.00");
        assert_eq!(format_price(5), "$0.05");
    }

    #[test]
    fn an_unseen_chair_is_no_main_fix() {
        let rating = |category, score, confidence| CategoryScore {
            category,
            score,
            comment: "seen".into(),
            confidence: Some(confidence),
        };
        let mut assessment = Assessment {
            overall_score: 5.0,
            summary: "s".into(),
            category: "Everyday Desk Setup".into(),
            category_ratings: vec![
                rating(Category::CableManagement, 6, Confidence::High),
                rating(Category::RgbLighting, 4, Confidence::High),
                rating(Category::DeskCleanliness, 9, Confidence::High),
                rating(Category::MonitorSetup, 7, Confidence::Medium),
                rating(Category::ChairComfort, 3, Confidence::Low),
                rating(Category::AestheticVibe, 9, Confidence::High),
            ],
            cable_inventory: setupiq_analyzer::result::CableInventory::of(Vec::new()),
        };
        let picked = |a: &Assessment| candidates(a).iter().map(|r| r.category).collect::<Vec<_>>();
        // The chair scores lowest but wasn't seen: the three seen weak categories go first.
        assert_eq!(
            picked(&assessment),
            [Category::RgbLighting, Category::CableManagement, Category::MonitorSetup]
        );
        // With fewer seen weaknesses, it fills up, last.
        assessment.category_ratings[3].score = 9;
        assert_eq!(
            picked(&assessment),
            [Category::RgbLighting, Category::CableManagement, Category::ChairComfort]
        );
    }

    #[test]
    fn cheaper_gains_win_until_the_score_caps_them() {
        let weak = CategoryScore {
            category: Category::MonitorSetup,
            score: 3,
            comment: "x".into(),
            confidence: None,
        };
        assert!(value_per_dollar(&weak, 1, 2999) > value_per_dollar(&weak, 3, 29999));
        let nearly_full = CategoryScore { score: 9, ..weak };
        assert_eq!(value_per_dollar(&nearly_full, 3, 1000), value_per_dollar(&nearly_full, 1, 1000));
    }
}
