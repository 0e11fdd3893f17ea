//! What can go wrong with credits, ads and payments, and how each reaches the client.

use setupiq_auth::AuthError;
use setupiq_core::{ApiError, ErrorCode};
use setupiq_db::DbError;

use crate::payments::ProviderError;
use crate::payments::webhook::WebhookError;

pub const DAILY_LIMIT_MESSAGE: &str = "Daily ad watch limit reached. Come back tomorrow for more credits!";
pub const PAYMENT_NOT_SUCCESSFUL: &str = "Payment was not successful. Please try again.";
pub const ALREADY_PRO_MESSAGE: &str = "You are already a Pro member. To change plans, cancel your subscription and choose the other plan once your paid period ends.";
pub const CHECKOUT_REPLACED_MESSAGE: &str =
    "This checkout was replaced by a newer one. Please pay in the newest window.";

#[derive(Debug, thiserror::Error)]
pub enum CreditsError {
    #[error("Please select a valid credit package.")]
    UnknownPackage,
    #[error("Payment not found.")]
    PaymentNotFound,
    #[error("{0}")]
    PaymentNotSuccessful(String),
    #[error("This ad could not be verified. Please watch it again.")]
    InvalidAdToken,
    #[error("This ad has already been counted.")]
    AdAlreadyCounted,
    #[error("Please watch the whole ad (3 seconds) to earn credit.")]
    AdTooShort,
    #[error("{DAILY_LIMIT_MESSAGE}")]
    DailyAdLimit,
    #[error("Your card number is invalid.")]
    InvalidCard,
    #[error("Your card was declined.")]
    CardDeclined,
    #[error("Test-mode payments are not available.")]
    TestModeUnavailable,
    #[error("Webhook refused: {0}")]
    Webhook(#[from] WebhookError),
    #[error("Webhook refused: the event could not be read.")]
    UnreadableEvent,
    #[error("Webhooks are not configured.")]
    WebhookNotConfigured,
    #[error("Please choose the monthly or the yearly plan.")]
    UnknownPlan,
    #[error("{ALREADY_PRO_MESSAGE}")]
    AlreadyPro,
    /// A checkout for Pro that a newer one replaced: it can no longer be paid.
    #[error("{CHECKOUT_REPLACED_MESSAGE}")]
    CheckoutReplaced,
    /// A first payment that arrived for a checkout no longer wanted: it is refunded.
    #[error("{0} Your payment is refunded.")]
    PaymentRefunded(&'static str),
    #[error("You have no Pro subscription to change.")]
    NoSubscription,
    #[error("Pro subscriptions cannot be bought with this deployment's payment provider yet.")]
    SubscriptionsUnavailable,
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Db(#[from] DbError),
}

setupiq_db::query_errors_into!(CreditsError);

impl From<CreditsError> for ApiError {
    fn from(err: CreditsError) -> Self {
        let message = err.to_string();
        match err {
            CreditsError::UnknownPackage => ApiError::invalid("packageId", message),
            CreditsError::PaymentNotFound | CreditsError::TestModeUnavailable => ApiError::not_found(message),
            CreditsError::PaymentNotSuccessful(_) => {
                ApiError::payment_required(ErrorCode::PaymentFailed, message)
            }
            CreditsError::CardDeclined => ApiError::payment_required(ErrorCode::CardDeclined, message),
            CreditsError::InvalidAdToken | CreditsError::AdTooShort => ApiError::invalid("adToken", message),
            CreditsError::AdAlreadyCounted => ApiError::conflict(message),
            CreditsError::DailyAdLimit => {
                ApiError::rate_limited(message, 3600).with_code(ErrorCode::DailyAdLimit)
            }
            CreditsError::InvalidCard => ApiError::invalid("cardNumber", message),
            CreditsError::Webhook(_) | CreditsError::UnreadableEvent => ApiError::bad_request(message),
            CreditsError::WebhookNotConfigured => ApiError::not_found(message),
            CreditsError::UnknownPlan => ApiError::invalid("plan", message),
            CreditsError::AlreadyPro | CreditsError::CheckoutReplaced | CreditsError::PaymentRefunded(_) => {
                ApiError::conflict(message)
            }
            CreditsError::NoSubscription => ApiError::not_found(message),
            CreditsError::SubscriptionsUnavailable => ApiError::unavailable(message),
            CreditsError::Provider(ProviderError::NotFound) => ApiError::not_found("Payment not found."),
            CreditsError::Provider(_) => {
                tracing::error!(error = %message, "payment provider call failed");
                ApiError::new(
                    actix_web::http::StatusCode::BAD_GATEWAY,
                    ErrorCode::Unavailable,
                    "The payment provider could not be reached. Please try again.",
                )
            }
            CreditsError::Auth(auth) => auth.into(),
            CreditsError::Db(db) => db.into(),
        }
    }
}
