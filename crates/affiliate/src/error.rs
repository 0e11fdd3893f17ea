//! Catalogue and click-tracking failures.

use setupiq_core::ApiError;
use setupiq_db::DbError;

#[derive(Debug, thiserror::Error)]
pub enum AffiliateError {
    #[error("Product not found.")]
    ProductNotFound,
    #[error("The product catalogue has no {0} products.")]
    CatalogueIncomplete(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for AffiliateError {
    fn from(err: diesel::result::Error) -> Self {
        Self::Db(DbError::Query(err))
    }
}

impl From<AffiliateError> for ApiError {
    fn from(err: AffiliateError) -> Self {
        match err {
            AffiliateError::ProductNotFound => ApiError::not_found(err.to_string()),
            AffiliateError::CatalogueIncomplete(_) => ApiError::internal(err),
            AffiliateError::Db(db) => db.into(),
        }
    }
}
