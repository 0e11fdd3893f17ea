//! Analysis failures and what the user reads for each.

use actix_web::http::StatusCode;
use setupiq_auth::AuthError;
use setupiq_core::error::{Cause, chain};
use setupiq_core::media::MediaError;
use setupiq_core::upload::UploadError;
use setupiq_core::{AnalysisId, ApiError, ErrorCode};
use setupiq_db::DbError;

use setupiq_analyzer::pipeline::ImageRejection;
use setupiq_analyzer::{RatingError, Refusal};

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error(transparent)]
    Image(#[from] ImageRejection),
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error("You don't have enough credits to analyze a setup. Watch an ad or buy credits to continue.")]
    InsufficientCredits,
    #[error(
        "You've already used your free trial analysis. Sign up to get 3 free credits, or watch an ad or buy \
         credits to keep going."
    )]
    TrialUsed,
    #[error("The free trial limit for your network has been reached today. Sign up to get 3 free credits.")]
    TrialLimitReached,
    #[error("An analysis is already running for your account. Please wait for it to finish.")]
    AlreadyRunning,
    #[error(transparent)]
    Upload(#[from] UploadError),
    #[error("Analysis not found.")]
    NotFound,
    /// The analyzer produced no usable result, or a photo or card could not be read or drawn
    /// (the cause is logged; the user gets a generic message).
    #[error("Sorry, we couldn't analyze your setup right now. Please try again.")]
    Failed(#[source] Cause),
    /// A result that cannot be encoded for storing (`analysis`: none), or a stored one that
    /// no longer decodes (`analysis`: its id).
    #[error("the result of analysis {analysis:?} cannot be stored or read")]
    Corrupt {
        analysis: Option<AnalysisId>,
        #[source]
        source: serde_json::Error,
    },
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Affiliate(#[from] setupiq_affiliate::AffiliateError),
    #[error(transparent)]
    Db(#[from] DbError),
}

setupiq_db::query_errors_into!(AnalysisError);

impl From<MediaError> for AnalysisError {
    fn from(err: MediaError) -> Self {
        Self::Failed(err.into())
    }
}

impl From<RatingError> for AnalysisError {
    fn from(err: RatingError) -> Self {
        match err {
            RatingError::Refused(refusal) => Self::Refused(refusal),
            failure @ RatingError::Failed(_) => Self::Failed(failure.into()),
        }
    }
}

impl From<AnalysisError> for ApiError {
    fn from(err: AnalysisError) -> Self {
        let message = err.to_string();
        match err {
            AnalysisError::Image(
                ImageRejection::TooManyBytes { .. } | ImageRejection::TooManyPixels { .. },
            ) => ApiError::payload_too_large(message),
            AnalysisError::Image(ImageRejection::NotAnImage) => ApiError::invalid("value", message),
            AnalysisError::Image(_) => ApiError::bad_request(message),
            AnalysisError::Upload(UploadError::Rejected(rejection)) => AnalysisError::Image(rejection).into(),
            AnalysisError::Upload(upload) => upload.into_api("value"),
            AnalysisError::AlreadyRunning => ApiError::conflict(message),
            AnalysisError::Refused(_) => ApiError::unprocessable(message),
            AnalysisError::InsufficientCredits => ApiError::insufficient_credits(message),
            AnalysisError::TrialUsed | AnalysisError::TrialLimitReached => ApiError::trial_used(message),
            AnalysisError::NotFound => ApiError::not_found(message),
            AnalysisError::Failed(cause) => {
                tracing::error!(why = %chain(cause.as_ref()), "analysis failed");
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, message)
            }
            AnalysisError::Corrupt { .. } => ApiError::internal(err),
            AnalysisError::Auth(AuthError::InsufficientCredits { .. }) => {
                ApiError::insufficient_credits(AnalysisError::InsufficientCredits.to_string())
            }
            AnalysisError::Auth(auth) => auth.into(),
            AnalysisError::Affiliate(affiliate) => affiliate.into(),
            AnalysisError::Db(db) => db.into(),
        }
    }
}

impl From<AnalysisError> for actix_web::Error {
    fn from(err: AnalysisError) -> Self {
        ApiError::from(err).into()
    }
}
