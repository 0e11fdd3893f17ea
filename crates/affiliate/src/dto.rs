//! Request and response bodies of the affiliate endpoints.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use validator::Validate;

use crate::service::{Product, Tier};

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TrackClickRequest {
    #[validate(range(min = 1, message = "Product ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub product_id: i64,
    /// The browser session id (kept in session storage).
    #[validate(length(min = 1, message = "Session ID is required."))]
    #[validate(custom(function = "at_most_200"))]
    #[schema(min_length = 1, max_length = 200)]
    pub session_id: String,
    /// Where the link was shown, e.g. the suggestion's title.
    #[validate(custom(function = "at_most_500"))]
    #[schema(max_length = 500)]
    pub suggestion_context: Option<String>,
    #[validate(range(min = 1, message = "Analysis ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub analysis_id: Option<i64>,
}

fn too_long(value: &str, max: usize, message: &'static str) -> Result<(), validator::ValidationError> {
    if value.chars().count() > max {
        Err(validator::ValidationError::new("length").with_message(message.into()))
    } else {
        Ok(())
    }
}

fn at_most_200(value: &str) -> Result<(), validator::ValidationError> {
    too_long(value, 200, "Session ID cannot exceed 200 characters.")
}

fn at_most_500(value: &str) -> Result<(), validator::ValidationError> {
    too_long(value, 500, "Suggestion context cannot exceed 500 characters.")
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TrackClickResponse {
    pub success: bool,
}

/// A product of the catalogue.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductDto {
    pub product_id: i64,
    pub name: String,
    pub category: String,
    pub tier: Tier,
    pub price_cents: i64,
    pub link: String,
    pub justification: String,
    /// Out of 5, one decimal.
    pub rating: f64,
}

impl From<Product> for ProductDto {
    fn from(p: Product) -> Self {
        Self {
            product_id: p.id.0,
            name: p.name,
            category: p.category,
            tier: p.tier,
            price_cents: p.price_cents,
            link: p.link,
            justification: p.justification,
            rating: p.rating,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TrendingGearResponse {
    /// Three items.
    pub items: Vec<ProductDto>,
}
