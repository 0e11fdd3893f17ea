//! Catalogue and click-tracking failures.

use setupiq_core::ApiError;
use setupiq_db::DbError;

#[derive(Debug, thiserror::Error)]
pub enum AffiliateError {
    #[error("Product not found.")]
    ProductNotFound,
    #[error(transparent)]
    Db(#[from] DbError),
}

setupiq_db::query_errors_into!(AffiliateError);

impl From<AffiliateError> for ApiError {
    fn from(err: AffiliateError) -> Self {
        match err {
            AffiliateError::ProductNotFound => ApiError::not_found(err.to_string()),
            AffiliateError::Db(db) => db.into(),
        }
    }
}
