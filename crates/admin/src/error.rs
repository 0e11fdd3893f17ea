//! What can go wrong in the admin panel, and how each reaches the client.

use setupiq_affiliate::AffiliateError;
use setupiq_auth::AuthError;
use setupiq_community::CommunityError;
use setupiq_core::ApiError;
use setupiq_db::DbError;

#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("A link verification is already running. Please wait for it to finish.")]
    RunInProgress,
    #[error("Product not found.")]
    ProductNotFound,
    #[error("User not found.")]
    UserNotFound,
    #[error("You can't remove your own admin role.")]
    OwnAdminRole,
    #[error("This link has not been verified yet: there is no redirect to accept.")]
    NothingToExpect,
    /// Most links of a run could not be checked from this server (no internet, no DNS): the
    /// run failed and changed nothing.
    #[error(
        "The link check could not reach the network: {unreachable} of {total} links could not be checked ({cause}). No product was changed; try again when the server is online."
    )]
    ChecksUnreachable { unreachable: usize, total: usize, cause: String },
    /// A run's redirect chain could not be written for the log.
    #[error("a link check could not be stored")]
    Encode(#[source] serde_json::Error),
    #[error(transparent)]
    Affiliate(#[from] AffiliateError),
    #[error(transparent)]
    Community(#[from] CommunityError),
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Db(#[from] DbError),
}

setupiq_db::query_errors_into!(AdminError);

impl From<AdminError> for ApiError {
    fn from(err: AdminError) -> Self {
        let message = err.to_string();
        match err {
            AdminError::RunInProgress => ApiError::conflict(message),
            AdminError::ProductNotFound | AdminError::UserNotFound => ApiError::not_found(message),
            AdminError::OwnAdminRole => ApiError::forbidden(message),
            AdminError::NothingToExpect => ApiError::invalid("productId", message),
            AdminError::ChecksUnreachable { .. } => ApiError::busy(message, 60),
            AdminError::Encode(_) => ApiError::internal(err),
            AdminError::Affiliate(affiliate) => affiliate.into(),
            AdminError::Community(community) => community.into(),
            AdminError::Auth(AuthError::UserNotFound) => ApiError::not_found(message),
            AdminError::Auth(auth) => auth.into(),
            AdminError::Db(db) => db.into(),
        }
    }
}

impl From<AdminError> for actix_web::Error {
    fn from(err: AdminError) -> Self {
        ApiError::from(err).into()
    }
}
