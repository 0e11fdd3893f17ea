//! What can go wrong when sending a contact message, and how it reaches the client.

use setupiq_core::ApiError;
use setupiq_db::DbError;

#[derive(Debug, thiserror::Error)]
pub enum ContactError {
    #[error("You have sent too many messages. Please try again later.")]
    RateLimited { retry_after_secs: u64 },
    #[error(transparent)]
    Db(#[from] DbError),
}

setupiq_db::query_errors_into!(ContactError);

impl From<ContactError> for ApiError {
    fn from(err: ContactError) -> Self {
        let message = err.to_string();
        match err {
            ContactError::RateLimited { retry_after_secs } => {
                ApiError::rate_limited(message, retry_after_secs)
            }
            ContactError::Db(db) => db.into(),
        }
    }
}
