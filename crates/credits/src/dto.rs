//! Request and response bodies of the credit endpoints.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use validator::Validate;

use setupiq_auth::service::ledger::LedgerEntry;

use crate::service::ads::{AdReward, AdStats};
use crate::service::packs::{Pack, PackId};
use crate::service::pro::{BillingInterval, Plan, Subscription, SubscriptionStatus};
use crate::service::receipts::Payment;

/// A pack of credits for sale.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackDto {
    pub id: PackId,
    pub name: String,
    pub credits: i32,
    /// Price in cents.
    pub price_cents: i64,
    /// ISO currency code (`usd`).
    pub currency: String,
    /// The pack to recommend.
    pub popular: bool,
}

impl From<Pack> for PackDto {
    fn from(p: Pack) -> Self {
        Self {
            id: p.id,
            name: p.name.into(),
            credits: p.credits,
            price_cents: p.price_cents,
            currency: crate::service::packs::CURRENCY.into(),
            popular: p.popular,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PacksResponse {
    pub packs: Vec<PackDto>,
    /// No Stripe key is configured: payments run in the offline test mode.
    pub test_mode: bool,
    /// Stripe's publishable key for Elements, when Stripe is configured.
    pub publishable_key: Option<String>,
}

/// An unknown pack is refused by the service (the packs are its list).
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreatePaymentIntentRequest {
    /// Read as text, so that an unknown pack is answered with the specification's message.
    #[schema(value_type = PackId)]
    pub package_id: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatePaymentIntentResponse {
    pub client_secret: String,
    pub payment_intent_id: String,
    pub test_mode: bool,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConfirmPaymentRequest {
    #[validate(length(min = 1, message = "Payment intent is required."))]
    #[schema(min_length = 1)]
    pub payment_intent_id: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmPaymentResponse {
    /// Credits this confirmation added (0 for a replay, and for a Pro payment).
    pub credits_added: i32,
    pub new_balance: i32,
    /// Set when the payment was for Pro: when the paid period ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pro_until: Option<DateTime<Utc>>,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TestModePayRequest {
    #[validate(length(min = 1, message = "Payment intent is required."))]
    #[schema(min_length = 1)]
    pub payment_intent_id: String,
    /// 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined (spaces and dashes
    /// are ignored; any other number is declined).
    #[schema(max_length = 32)]
    pub card_number: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TestModePayResponse {
    /// `succeeded`.
    pub status: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchAdStartResponse {
    /// Send it back to `POST /_api/watch-ad` once the ad has played (3 s at least).
    pub ad_token: String,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WatchAdRequest {
    #[validate(length(min = 1, message = "This ad could not be verified. Please watch it again."))]
    #[schema(min_length = 1)]
    pub ad_token: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchAdResponse {
    pub credit_awarded: bool,
    /// The balance now.
    pub credits: i32,
    pub ads_until_next_credit: i64,
    /// Ads counted towards the next credit (0-2).
    pub ads_watched_in_session: i64,
}

impl From<AdReward> for WatchAdResponse {
    fn from(r: AdReward) -> Self {
        Self {
            credit_awarded: r.credit_awarded,
            credits: r.credits,
            ads_until_next_credit: r.ads_until_next_credit,
            ads_watched_in_session: r.ads_watched_in_session,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdStatsResponse {
    pub daily_ads_remaining: i64,
    pub potential_credits_today: i64,
    pub uncredited_ads: i64,
    pub ads_until_next_credit: i64,
}

impl From<AdStats> for AdStatsResponse {
    fn from(s: AdStats) -> Self {
        Self {
            daily_ads_remaining: s.daily_ads_remaining,
            potential_credits_today: s.potential_credits_today,
            uncredited_ads: s.uncredited_ads,
            ads_until_next_credit: s.ads_until_next_credit,
        }
    }
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeductRequest {
    #[validate(range(min = 1, message = "Amount must be a positive integer."))]
    #[schema(minimum = 1)]
    pub amount: i32,
    #[validate(length(min = 1, message = "Reason is required."))]
    #[validate(custom(function = "reason_max"))]
    #[schema(min_length = 1, max_length = 500)]
    pub reason: String,
}

fn reason_max(value: &str) -> Result<(), validator::ValidationError> {
    if value.chars().count() > 500 {
        Err(validator::ValidationError::new("length")
            .with_message("Reason cannot exceed 500 characters.".into()))
    } else {
        Ok(())
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DeductResponse {
    pub success: bool,
    /// The balance now.
    pub credits: i32,
}

/// One card payment, as its payer sees it (no client secret).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentDto {
    /// The provider's reference of the payment (a Stripe PaymentIntent id): the receipt number.
    pub reference: String,
    /// What was bought, e.g. "Popular Pack (25 credits)".
    pub description: String,
    /// The pack bought.
    pub package_id: String,
    pub credits: i32,
    pub amount_cents: i64,
    pub currency: String,
    /// `stripe`, or `test` for the offline test mode (no card was charged).
    pub provider: String,
    /// The provider's status (`succeeded`, `requires_payment_method`, …).
    pub status: String,
    pub created_at: DateTime<Utc>,
    /// When it was paid and its credits added; null while it is not (no receipt then).
    pub paid_at: Option<DateTime<Utc>>,
}

impl From<Payment> for PaymentDto {
    fn from(p: Payment) -> Self {
        Self {
            reference: p.reference,
            description: p.description,
            package_id: p.package_id,
            credits: p.credits,
            amount_cents: p.amount_cents,
            currency: p.currency,
            provider: p.provider.as_str().to_owned(),
            status: p.status.as_str().to_owned(),
            created_at: p.created_at,
            paid_at: p.paid_at,
        }
    }
}

/// The signed-in user's card payments, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PaymentsResponse {
    pub payments: Vec<PaymentDto>,
}

/// One change of the balance.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntryDto {
    pub id: i64,
    /// Positive for credits received, negative for credits spent.
    pub amount: i32,
    pub balance_after: i32,
    /// `signup_bonus`, `ad_reward`, `purchase:starter`, …
    pub reason: String,
    pub created_at: DateTime<Utc>,
}

impl From<LedgerEntry> for LedgerEntryDto {
    fn from(e: LedgerEntry) -> Self {
        Self {
            id: e.id,
            amount: e.amount,
            balance_after: e.balance_after,
            reason: e.reason.to_string(),
            created_at: e.created_at,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HistoryResponse {
    /// Newest first, at most 50.
    pub entries: Vec<LedgerEntryDto>,
}

/// A Pro plan for sale (prices from the configuration).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProPlanDto {
    pub plan: Plan,
    #[schema(example = "SetupIQ Pro, monthly")]
    pub name: String,
    pub price_cents: i64,
    pub currency: String,
    /// How long each paid period lasts.
    pub interval: BillingInterval,
}

/// A member's subscription.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionDto {
    pub plan: Plan,
    pub status: SubscriptionStatus,
    /// The end of the paid period: the next renewal, or when Pro ends after a cancel.
    pub current_period_end: Option<DateTime<Utc>>,
    /// Cancelled: Pro stays until `currentPeriodEnd`, then ends.
    pub cancel_at_period_end: bool,
}

impl From<Subscription> for SubscriptionDto {
    fn from(s: Subscription) -> Self {
        Self {
            plan: s.plan,
            status: s.status,
            current_period_end: s.current_period_end,
            cancel_at_period_end: s.cancel_at_period_end,
        }
    }
}

/// Pro as the viewer sees it: the plans for sale and, signed in, their own membership.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProResponse {
    pub plans: Vec<ProPlanDto>,
    /// Payments run in the offline test mode (no card is charged).
    pub test_mode: bool,
    /// Stripe's publishable key for the card form (Elements); absent in the test mode.
    pub publishable_key: Option<String>,
    /// The viewer is Pro now (by subscription or by an admin's grant); false for a visitor.
    pub is_pro: bool,
    /// Pro was granted by the team.
    pub granted_by_admin: bool,
    /// The viewer's newest subscription past its first payment, if any.
    pub subscription: Option<SubscriptionDto>,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscribeRequest {
    pub plan: Plan,
}

/// A subscription waiting for its first payment: confirm `paymentIntentId` as for a pack.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscribeResponse {
    pub subscription_id: String,
    /// The first payment's reference, for `POST /_api/stripe/confirm-payment`: a test intent
    /// (`pi_test_…`), or with Stripe the subscription's first invoice (`in_…`).
    pub payment_intent_id: String,
    /// What the card form confirms: with Stripe, the first invoice's confirmation secret
    /// (Elements' `clientSecret`).
    pub client_secret: String,
    /// Pay with `POST /_api/stripe/test-mode/pay` (test cards) instead of Stripe's form.
    pub test_mode: bool,
}
