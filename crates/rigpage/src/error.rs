//! What can go wrong with a RigPage, and how each reaches the client.

use setupiq_analysis::AnalysisError;
use setupiq_auth::AuthError;
use setupiq_core::ApiError;
use setupiq_core::error::Cause;
use setupiq_core::media::MediaError;
use setupiq_core::upload::{UploadError, UploadRejection};
use setupiq_db::DbError;

pub const INVALID_URL: &str = "Please enter a valid URL.";
pub const INVALID_IMAGE: &str = "Please upload a valid image (PNG, JPG, or WebP)";
pub const IMAGE_TOO_LARGE: &str = "Image must be less than 10MB";

#[derive(Debug, thiserror::Error)]
pub enum RigpageError {
    #[error("This URL is already taken. Please choose another slug.")]
    SlugTaken,
    #[error("This URL is reserved. Please choose another slug.")]
    SlugReserved,
    #[error("Please choose one of your own analysed setup photos.")]
    SetupNotYours,
    #[error("Going live needs a page URL (slug) and a selected setup.")]
    GoLiveNeedsSlugAndSetup,
    #[error("Please upload this image from the editor.")]
    ImageNotYours { field: String },
    #[error("Please choose one of your sections.")]
    UnknownSection { field: String },
    #[error("You don't have enough credits: this change costs {needed} credit{}.", if *.needed == 1 { "" } else { "s" })]
    InsufficientCredits { needed: i32 },
    #[error("{INVALID_IMAGE}")]
    ImageInvalid,
    /// The picture is larger than the upload path takes (the message names its size).
    #[error(transparent)]
    ImageTooLarge(UploadRejection),
    #[error("This image can't be used: it appears to contain content that isn't safe for work.")]
    NotSafeForWork,
    /// The queue, the image threads or the safety classifier refused or failed.
    #[error(transparent)]
    Upload(UploadError),
    #[error("Too many uploads. Please try again in an hour.")]
    TooManyUploads,
    #[error("RigPage not found.")]
    NotFound,
    /// A QR code was asked of a page never saved with a URL.
    #[error("Save your RigPage with a URL first.")]
    NoAddressYet,
    /// A stored page that no longer reads (the cause: its JSON's error, or what is wrong).
    #[error("stored RigPage data is unreadable")]
    Corrupt(#[source] Cause),
    #[error(transparent)]
    Media(#[from] MediaError),
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl RigpageError {
    pub(crate) fn corrupt(cause: impl Into<Cause>) -> Self {
        Self::Corrupt(cause.into())
    }
}

impl From<UploadRejection> for RigpageError {
    fn from(rejection: UploadRejection) -> Self {
        if rejection.is_format() { Self::ImageInvalid } else { Self::ImageTooLarge(rejection) }
    }
}

impl From<UploadError> for RigpageError {
    fn from(err: UploadError) -> Self {
        match err {
            UploadError::Rejected(rejection) => rejection.into(),
            UploadError::NotSafeForWork => Self::NotSafeForWork,
            UploadError::Media(media) => Self::Media(media),
            other => Self::Upload(other),
        }
    }
}

setupiq_db::query_errors_into!(RigpageError);

impl From<RigpageError> for ApiError {
    fn from(err: RigpageError) -> Self {
        let message = err.to_string();
        match err {
            RigpageError::SlugTaken => ApiError::conflict(message),
            RigpageError::SlugReserved => ApiError::invalid("rigpageSlug", message),
            RigpageError::SetupNotYours => ApiError::invalid("rigpageSetupId", message),
            RigpageError::GoLiveNeedsSlugAndSetup => ApiError::invalid("rigpageEnabled", message),
            RigpageError::ImageNotYours { field } | RigpageError::UnknownSection { field } => {
                ApiError::invalid(&field, message)
            }
            RigpageError::InsufficientCredits { .. } => ApiError::insufficient_credits(message),
            RigpageError::ImageInvalid => ApiError::invalid("imageData", message),
            RigpageError::ImageTooLarge(rejection) => UploadError::Rejected(rejection).into_api("imageData"),
            RigpageError::NotSafeForWork => ApiError::unprocessable(message),
            RigpageError::Upload(upload) => upload.into_api("imageData"),
            RigpageError::TooManyUploads => ApiError::rate_limited(message, 3600),
            RigpageError::NotFound | RigpageError::NoAddressYet => ApiError::not_found(message),
            RigpageError::Media(_) => ApiError::unavailable(err),
            RigpageError::Corrupt(_) => ApiError::internal(err),
            RigpageError::Analysis(analysis) => analysis.into(),
            RigpageError::Auth(auth) => auth.into(),
            RigpageError::Db(db) => db.into(),
        }
    }
}

impl From<RigpageError> for actix_web::Error {
    fn from(err: RigpageError) -> Self {
        ApiError::from(err).into()
    }
}
