//! Payment providers. With `STRIPE_SECRET_KEY` set, real Stripe PaymentIntents
//! ([`stripe::StripeProvider`]); without it, the built-in test mode ([`test_mode`]) so the
//! whole purchase works offline. Both are driven through [`PaymentProvider`].

pub mod stripe;
pub mod test_mode;
pub mod webhook;

/// A PaymentIntent to create.
#[derive(Debug, Clone)]
pub struct NewIntent<'a> {
    pub amount_cents: i64,
    /// ISO currency code, lower case (`usd`).
    pub currency: &'a str,
    pub user_id: i64,
    pub package_id: &'a str,
    /// Sent as Stripe's `Idempotency-Key`: a retried create returns the same intent.
    pub idempotency_key: &'a str,
}

/// A created intent: its id and the secret the browser confirms it with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedIntent {
    pub id: String,
    pub client_secret: String,
}

/// A PaymentIntent's status as the provider reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntentStatus {
    Succeeded,
    Processing,
    RequiresPaymentMethod,
    RequiresConfirmation,
    RequiresAction,
    RequiresCapture,
    Canceled,
}

/// What the provider says about an intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrievedIntent {
    pub id: String,
    pub status: IntentStatus,
    pub amount_cents: i64,
    /// `metadata.user_id` as set at creation.
    pub user_id: Option<i64>,
    /// The provider's message for the last failed attempt (e.g. "Your card was declined.").
    pub last_error: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("the payment provider refused the request: {0}")]
    Refused(String),
    #[error("the payment provider could not be reached: {0}")]
    Unreachable(String),
    #[error("no such payment intent")]
    NotFound,
}
