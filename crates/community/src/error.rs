//! What can go wrong in the community, and how each reaches the client.

use setupiq_analysis::AnalysisError;
use setupiq_auth::AuthError;
use setupiq_core::upload::{UploadError, UploadRejection};
use setupiq_core::{ApiError, SetupId};
use setupiq_db::DbError;

#[derive(Debug, thiserror::Error)]
pub enum CommunityError {
    #[error("Setup not found.")]
    SetupNotFound,
    #[error("Analysis not found.")]
    AnalysisNotFound,
    #[error("Please verify your email address before voting.")]
    VoteNeedsVerifiedEmail,
    #[error("You can't vote on your own setup.")]
    OwnVote,
    #[error("Please verify your email address before reporting.")]
    ReportNeedsVerifiedEmail,
    #[error("You can't report your own setup.")]
    OwnReport,
    #[error("You can't report your own comment.")]
    OwnCommentReport,
    /// The analysis already has its post (`setup_id`): edit or delete that one instead.
    #[error("You have already published this analysis to Community.")]
    AlreadyPublished { setup_id: SetupId },
    #[error("At least 1 image is required.")]
    ImagesRequired,
    #[error("Maximum 5 images allowed.")]
    TooManyImages,
    #[error("This image is not one of the setup's photos.")]
    UnknownImage,
    #[error("Only the owner can change this setup.")]
    NotOwner,
    #[error("Setups can only be edited within 1 hour of publishing.")]
    EditWindowClosed,
    /// `retry_after`: seconds until the cap resets (UTC midnight on the server clock).
    #[error("You can publish {limit} setups a day. Please try again tomorrow.")]
    DailyPostLimit { limit: i64, retry_after: u64 },
    #[error("You have reached today's vote limit. Please try again tomorrow.")]
    DailyVoteLimit { retry_after: u64 },
    #[error("You have reached today's report limit. Please try again tomorrow.")]
    DailyReportLimit { retry_after: u64 },
    #[error("Too many reports from your network today. Please try again tomorrow.")]
    DailyAddressReportLimit { retry_after: u64 },
    #[error("Comment not found.")]
    CommentNotFound,
    #[error("Gear not found.")]
    GearNotFound,
    #[error("A setup can list at most 20 pieces of gear.")]
    TooMuchGear,
    #[error("Each piece of gear needs a name of 1 to 80 characters.")]
    GearNameLength,
    #[error("Gear links must be http or https addresses of a public website.")]
    GearUrl,
    #[error("Please verify your email address before commenting.")]
    CommentNeedsVerifiedEmail,
    #[error("Comment must be between 1 and 1000 characters.")]
    CommentLength,
    #[error("Your comment contains words that aren't allowed here.")]
    CommentFiltered,
    #[error("Only the author can edit this comment.")]
    NotCommentAuthor,
    #[error("Comments can only be edited within 1 hour of posting.")]
    CommentEditWindowClosed,
    #[error("Only the author, the setup's owner or an admin can delete this comment.")]
    CannotDeleteComment,
    /// `retry_after`: seconds until one of the last minute's comments is a minute old.
    #[error("You're commenting too fast. Please wait a moment and try again.")]
    CommentsTooFast { retry_after: u64 },
    #[error("You have reached today's comment limit. Please try again tomorrow.")]
    DailyCommentLimit { retry_after: u64 },
    #[error("Please verify your email address to get the daily digest.")]
    DigestNeedsVerifiedEmail,
    #[error("This unsubscribe link is no longer valid. Sign in to change your e-mail settings.")]
    UnsubscribeLinkUnknown,
    #[error("The photos are too large: at most 10 MB each.")]
    ImageTooLarge,
    #[error(transparent)]
    Image(UploadRejection),
    #[error("This image can't be posted: it appears to contain content that isn't safe for work.")]
    NotSafeForWork,
    /// The queue, the image threads or the safety classifier refused or failed.
    #[error(transparent)]
    Upload(UploadError),
    #[error(transparent)]
    Media(#[from] setupiq_core::media::MediaError),
    /// A stored photo lost its thumbnail (every stored photo has one).
    #[error("stored community data is unreadable: {0}")]
    Corrupt(&'static str),
    /// The RigPage badge could not be read.
    #[error(transparent)]
    Rigpage(setupiq_rigpage::RigpageError),
    #[error("a response could not be written: {0}")]
    Encode(#[from] serde_json::Error),
    #[error(transparent)]
    Affiliate(setupiq_affiliate::AffiliateError),
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<setupiq_rigpage::RigpageError> for CommunityError {
    fn from(err: setupiq_rigpage::RigpageError) -> Self {
        match err {
            setupiq_rigpage::RigpageError::Db(db) => Self::Db(db),
            other => Self::Rigpage(other),
        }
    }
}

impl From<setupiq_affiliate::AffiliateError> for CommunityError {
    fn from(err: setupiq_affiliate::AffiliateError) -> Self {
        match err {
            setupiq_affiliate::AffiliateError::Db(db) => Self::Db(db),
            other => Self::Affiliate(other),
        }
    }
}

impl From<UploadError> for CommunityError {
    fn from(err: UploadError) -> Self {
        match err {
            UploadError::Rejected(rejection) => Self::Image(rejection),
            UploadError::NotSafeForWork => Self::NotSafeForWork,
            UploadError::Media(media) => Self::Media(media),
            other => Self::Upload(other),
        }
    }
}

setupiq_db::query_errors_into!(CommunityError);

impl From<CommunityError> for ApiError {
    fn from(err: CommunityError) -> Self {
        let message = err.to_string();
        match err {
            CommunityError::SetupNotFound
            | CommunityError::AnalysisNotFound
            | CommunityError::CommentNotFound
            | CommunityError::GearNotFound
            | CommunityError::UnsubscribeLinkUnknown => ApiError::not_found(message),
            CommunityError::CommentLength | CommunityError::CommentFiltered => {
                ApiError::invalid("body", message)
            }
            CommunityError::TooMuchGear | CommunityError::GearNameLength | CommunityError::GearUrl => {
                ApiError::invalid("items", message)
            }
            CommunityError::ImagesRequired | CommunityError::TooManyImages | CommunityError::UnknownImage => {
                ApiError::invalid("images", message)
            }
            CommunityError::OwnVote
            | CommunityError::OwnReport
            | CommunityError::OwnCommentReport
            | CommunityError::NotOwner
            | CommunityError::EditWindowClosed
            | CommunityError::CommentNeedsVerifiedEmail
            | CommunityError::VoteNeedsVerifiedEmail
            | CommunityError::ReportNeedsVerifiedEmail
            | CommunityError::DigestNeedsVerifiedEmail
            | CommunityError::NotCommentAuthor
            | CommunityError::CommentEditWindowClosed
            | CommunityError::CannotDeleteComment => ApiError::forbidden(message),
            CommunityError::DailyPostLimit { retry_after, .. }
            | CommunityError::DailyVoteLimit { retry_after }
            | CommunityError::DailyReportLimit { retry_after }
            | CommunityError::DailyAddressReportLimit { retry_after }
            | CommunityError::CommentsTooFast { retry_after }
            | CommunityError::DailyCommentLimit { retry_after } => {
                ApiError::rate_limited(message, retry_after)
            }
            CommunityError::AlreadyPublished { .. } => ApiError::already_published(message),
            CommunityError::ImageTooLarge => ApiError::payload_too_large(message),
            CommunityError::Image(rejection) => UploadError::Rejected(rejection).into_api("images"),
            CommunityError::NotSafeForWork => ApiError::unprocessable(message),
            CommunityError::Upload(upload) => upload.into_api("images"),
            // A media store that does not answer is an outage, not a bug: try again later.
            CommunityError::Media(_) => ApiError::unavailable(err),
            CommunityError::Corrupt(_) | CommunityError::Encode(_) | CommunityError::Rigpage(_) => {
                ApiError::internal(err)
            }
            CommunityError::Affiliate(affiliate) => affiliate.into(),
            CommunityError::Analysis(analysis) => analysis.into(),
            CommunityError::Auth(auth) => auth.into(),
            CommunityError::Db(db) => db.into(),
        }
    }
}

impl From<CommunityError> for actix_web::Error {
    fn from(err: CommunityError) -> Self {
        ApiError::from(err).into()
    }
}
