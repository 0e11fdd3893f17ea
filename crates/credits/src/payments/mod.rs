//! Payment providers. With `STRIPE_SECRET_KEY` set, real Stripe PaymentIntents
//! ([`stripe::StripeProvider`]); without it, the built-in test mode ([`test_mode`]) so the
//! whole purchase works offline. Both are driven through [`PaymentProvider`]. Pro is sold
//! by Stripe Billing subscriptions ([`billing`]) with a key, by the test mode without.

use setupiq_core::UserId;

pub mod billing;
pub mod stripe;
pub mod test_mode;
pub mod webhook;

/// A PaymentIntent to create.
#[derive(Debug, Clone)]
pub struct NewIntent<'a> {
    pub amount_cents: i64,
    /// ISO currency code, lower case (`usd`).
    pub currency: &'a str,
    pub user_id: UserId,
    pub package_id: &'a str,
    /// Sent as Stripe's `Idempotency-Key`: a create with a key Stripe has seen (within 24 h)
    /// returns the intent made then. The purchase service keeps one key per pending
    /// purchase, so a retried purchase gets the same intent.
    pub idempotency_key: &'a str,
}

/// A created intent: its id and the secret the browser confirms it with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedIntent {
    pub id: String,
    pub client_secret: String,
}

setupiq_db::text_enum! {
    /// A payment's status: the PaymentIntent's status as the provider last reported it
    /// (Stripe's names), stored in `payments.status`; and ours for a first payment of Pro
    /// that arrived when it was no longer wanted (a replaced checkout, a member already Pro):
    /// `refund_due` until the provider has refunded it, then `refunded`.
    pub enum PaymentStatus {
        RequiresPaymentMethod = "requires_payment_method",
        RequiresConfirmation = "requires_confirmation",
        RequiresAction = "requires_action",
        Processing = "processing",
        RequiresCapture = "requires_capture",
        Canceled = "canceled",
        Succeeded = "succeeded",
        RefundDue = "refund_due",
        Refunded = "refunded",
    }
}

setupiq_db::text_enum! {
    /// Which provider a payment was made with, stored in `payments.provider`.
    pub enum ProviderKind {
        Stripe = "stripe",
        TestMode = "test",
    }
}

/// What the provider says about an intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrievedIntent {
    pub id: String,
    pub status: PaymentStatus,
    pub amount_cents: i64,
    /// `metadata.user_id` as set at creation.
    pub user_id: Option<UserId>,
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
