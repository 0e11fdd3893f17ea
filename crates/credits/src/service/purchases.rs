//! Card purchases: create an intent for a pack, then credit it exactly once when the
//! provider says it succeeded — whether the browser confirms it (`confirm`), Stripe's
//! webhook reports it (`handle_webhook`), or both at once.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use setupiq_auth::service::ledger::{self, LedgerReason};
use setupiq_core::Config;
use setupiq_core::UserId;
use setupiq_db::{AppCtx, Db, DbConnection, write_transaction};

use crate::error::{CreditsError, PAYMENT_NOT_SUCCESSFUL};
use crate::models::{PaymentInsertForm, PaymentRow, WebhookEventInsertForm};
use crate::payments::billing::BillingSubscription;
use crate::payments::stripe::StripeProvider;
use crate::payments::{NewIntent, PaymentStatus, ProviderKind, RetrievedIntent, test_mode, webhook};
use crate::repo;
use crate::service::packs::{self, CURRENCY};
use crate::service::{pro, receipts};

/// Where payments go: real Stripe, or the offline test mode.
#[derive(Debug, Clone)]
pub enum PaymentProvider {
    TestMode,
    Stripe {
        client: StripeProvider,
        webhook_secret: Option<String>,
        /// The Stripe product Pro is sold as; without it Pro is not sold.
        pro_product: Option<String>,
    },
}

impl PaymentProvider {
    /// Stripe when `STRIPE_SECRET_KEY` is set, the test mode otherwise.
    pub fn from_config(config: &Config) -> Result<Self, CreditsError> {
        match &config.stripe.secret_key {
            None => Ok(Self::TestMode),
            Some(key) => Ok(Self::Stripe {
                client: StripeProvider::new(key, config.stripe.api_base.as_deref())?,
                webhook_secret: config.stripe.webhook_secret.as_ref().map(|s| s.expose().to_owned()),
                pro_product: config.stripe.pro_product.clone(),
            }),
        }
    }

    pub fn is_test_mode(&self) -> bool {
        matches!(self, Self::TestMode)
    }

    fn kind(&self) -> ProviderKind {
        if self.is_test_mode() { ProviderKind::TestMode } else { ProviderKind::Stripe }
    }
}

/// A created purchase, as the payment dialog needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartedPurchase {
    pub intent_id: String,
    pub client_secret: String,
}

/// Creates the provider's intent for a pack and records the purchase.
pub async fn create(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    user_id: UserId,
    package_id: &str,
) -> Result<StartedPurchase, CreditsError> {
    let AppCtx { db, clock, .. } = ctx;
    let pack = packs::find(package_id).ok_or(CreditsError::UnknownPackage)?;
    let created = match provider {
        PaymentProvider::TestMode => test_mode::new_intent(),
        PaymentProvider::Stripe { client, .. } => {
            let fulfilled = db
                .run(move |conn| Ok::<_, CreditsError>(repo::count_fulfilled_payments(conn, user_id)?))
                .await?;
            let idempotency_key = purchase_key(user_id, pack.id.as_str(), fulfilled);
            let new = NewIntent {
                amount_cents: pack.price_cents,
                currency: CURRENCY,
                user_id,
                package_id: pack.id.as_str(),
                idempotency_key: &idempotency_key,
            };
            client.create_intent(&new).await?
        }
    };
    let (intent_id, provider_name, now) = (created.id.clone(), provider.kind(), clock.now());
    db.run(move |conn| {
        // A retried purchase gets the intent it already has (see `purchase_key`).
        if repo::find_payment(conn, &intent_id)?.is_some_and(|p| p.user_id == user_id) {
            return Ok(0);
        }
        repo::insert_payment(
            conn,
            &PaymentInsertForm {
                intent_id: &intent_id,
                user_id,
                package_id: pack.id.as_str(),
                credits: pack.credits,
                amount_cents: pack.price_cents,
                currency: CURRENCY,
                provider: provider_name,
                status: PaymentStatus::RequiresPaymentMethod,
                created_at: now.naive_utc(),
                subscription_id: None,
            },
        )
        .map_err(CreditsError::from)
    })
    .await?;
    Ok(StartedPurchase { intent_id: created.id, client_secret: created.client_secret })
}

/// The `Idempotency-Key` of a user's pending purchase of a pack: the same until a purchase
/// of theirs is credited. So a purchase retried before it is paid (a double click, a second
/// tab, a create whose answer was lost, a dialog opened again) yields the intent already
/// created instead of a second one (within Stripe's 24 hours), and the next purchase after
/// a credited one gets a new intent.
fn purchase_key(user_id: UserId, package_id: &str, fulfilled_purchases: i64) -> String {
    format!("setupiq-purchase-{user_id}-{package_id}-{fulfilled_purchases}")
}

/// Credits granted by a purchase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fulfilment {
    pub credits_added: i32,
    pub new_balance: i32,
    /// This call credited it (the first of the confirmation and the webhook): its receipt
    /// is mailed now.
    pub newly_credited: bool,
    /// For a Pro subscription's payment: when the paid period ends.
    pub pro_until: Option<DateTime<Utc>>,
    /// A first payment of Pro that was no longer wanted: not applied, to be refunded.
    pub refused: Option<pro::UnwantedPayment>,
}

/// Credits the user's intent if, and only if, the provider reports it succeeded.
/// Repeated or concurrent calls credit it once; the first reports the credits added, the
/// others report 0 with the same balance. The call that credits it mails the receipt.
pub async fn confirm(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    user_id: UserId,
    intent_id: String,
) -> Result<Fulfilment, CreditsError> {
    let AppCtx { db, clock, .. } = ctx;
    let lookup = intent_id.clone();
    let payment = db
        .run(move |conn| {
            repo::find_payment(conn, &lookup)?
                .filter(|p| p.user_id == user_id)
                .ok_or(CreditsError::PaymentNotFound)
        })
        .await?;
    let retrieved = retrieve(db, provider, &payment).await?;
    if retrieved.user_id.is_some_and(|owner| owner != user_id) {
        return Err(CreditsError::PaymentNotFound);
    }
    // An unpaid checkout for Pro that a newer one replaced is told so.
    if retrieved.status != PaymentStatus::Succeeded
        && let Some(subscription_id) = payment.subscription_id.clone()
        && db.run(move |conn| pro::is_replaced(conn, &subscription_id)).await?
    {
        return Err(CreditsError::CheckoutReplaced);
    }
    // A Stripe subscription's period is Stripe's: read it with the payment.
    let reported = match (provider, &payment.subscription_id) {
        (PaymentProvider::Stripe { client, .. }, Some(subscription_id))
            if retrieved.status == PaymentStatus::Succeeded =>
        {
            Some(client.retrieve_subscription(subscription_id).await?)
        }
        _ => None,
    };
    let clock = clock.clone();
    let fulfilment = db
        .run(move |conn| {
            let now = clock.now();
            let fulfilment = settle(conn, &retrieved, reported.as_ref(), now)?;
            // The first confirmation reports the credits (even when the webhook credited them a
            // moment before); a repeated one reports none, so a replay cannot look like a
            // second purchase.
            let first = repo::mark_payment_confirmed(conn, &retrieved.id, now.naive_utc())? == 1;
            Ok::<_, CreditsError>(if first {
                fulfilment
            } else {
                Fulfilment { credits_added: 0, ..fulfilment }
            })
        })
        .await?;
    if let Some(unwanted) = fulfilment.refused {
        pro::refund_due(ctx, provider).await?;
        return Err(unwanted.refunded());
    }
    if fulfilment.newly_credited {
        receipts::mail(ctx, intent_id).await;
    }
    Ok(fulfilment)
}

/// What the provider says about a payment: a test intent's row, a Stripe PaymentIntent, or
/// for a Stripe subscription's period, its invoice (paid or not).
async fn retrieve(
    db: &Db,
    provider: &PaymentProvider,
    payment: &PaymentRow,
) -> Result<RetrievedIntent, CreditsError> {
    match provider {
        PaymentProvider::TestMode => {
            let id = payment.intent_id.clone();
            db.run(move |conn| test_mode::retrieve(conn, &id)).await
        }
        PaymentProvider::Stripe { client, .. } if payment.subscription_id.is_some() => {
            Ok(client.retrieve_invoice(&payment.intent_id).await?)
        }
        PaymentProvider::Stripe { client, .. } => Ok(client.retrieve_intent(&payment.intent_id).await?),
    }
}

/// Records what the provider said and credits a succeeded intent once.
fn settle(
    conn: &mut DbConnection,
    intent: &RetrievedIntent,
    reported: Option<&BillingSubscription>,
    now: DateTime<Utc>,
) -> Result<Fulfilment, CreditsError> {
    if intent.status != PaymentStatus::Succeeded {
        repo::set_payment_status(conn, &intent.id, intent.status, intent.last_error.as_deref())?;
        return Err(CreditsError::PaymentNotSuccessful(
            intent.last_error.clone().unwrap_or_else(|| PAYMENT_NOT_SUCCESSFUL.to_owned()),
        ));
    }
    fulfil(conn, &intent.id, intent.amount_cents, reported, now)
}

/// Credits a succeeded purchase exactly once (the ledger's unique reference guarantees
/// it even across gateway instances; the account lock makes the others wait and see it).
/// A subscription's payment pays its period (`reported`: the subscription as Stripe
/// reports it, for a Stripe one).
pub(crate) fn fulfil(
    conn: &mut DbConnection,
    intent_id: &str,
    amount_cents: i64,
    reported: Option<&BillingSubscription>,
    now: DateTime<Utc>,
) -> Result<Fulfilment, CreditsError> {
    write_transaction(conn, |conn| {
        let payment = repo::find_payment(conn, intent_id)?.ok_or(CreditsError::PaymentNotFound)?;
        if payment.amount_cents != amount_cents {
            tracing::error!(
                intent_id,
                expected = payment.amount_cents,
                paid = amount_cents,
                "payment amount mismatch"
            );
            return Err(CreditsError::PaymentNotSuccessful(PAYMENT_NOT_SUCCESSFUL.to_owned()));
        }
        ledger::lock_account(conn, payment.user_id)?;
        if let Some(subscription_id) = &payment.subscription_id {
            return pro::pay_period(conn, &payment, subscription_id, reported, now);
        }
        let reference = format!("payment:{intent_id}");
        let newly_credited = !ledger::is_applied(conn, &reference)?;
        let new_balance = if !newly_credited {
            ledger::balance(conn, payment.user_id)?
        } else {
            let reason = LedgerReason::Purchase { package_id: payment.package_id.clone() };
            let balance =
                ledger::apply(conn, payment.user_id, payment.credits, &reason, Some(&reference), now)?;
            repo::mark_payment_fulfilled(conn, intent_id, now.naive_utc())?;
            tracing::info!(
                intent_id,
                user_id = payment.user_id.0,
                credits = payment.credits,
                "purchase credited"
            );
            balance
        };
        Ok(Fulfilment {
            credits_added: payment.credits,
            new_balance,
            newly_credited,
            pro_until: None,
            refused: None,
        })
    })
}

/// The part of a Stripe event we read.
#[derive(Debug, Deserialize)]
struct Event {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: EventData,
}

#[derive(Debug, Deserialize)]
struct EventData {
    object: EventObject,
}

/// A PaymentIntent, an invoice or a subscription: the fields read of each.
#[derive(Debug, Deserialize)]
struct EventObject {
    id: String,
    /// A PaymentIntent's amount.
    #[serde(default)]
    amount: i64,
    /// An invoice's amount paid.
    #[serde(default)]
    amount_paid: i64,
    /// How many times Stripe tried to collect an invoice.
    #[serde(default)]
    attempt_count: i64,
    /// Why an invoice was made: `subscription_create`, `subscription_cycle`, …
    #[serde(default)]
    billing_reason: Option<String>,
    /// An invoice's subscription (`parent.subscription_details.subscription`).
    #[serde(default)]
    parent: Option<InvoiceParent>,
}

#[derive(Debug, Deserialize)]
struct InvoiceParent {
    #[serde(default)]
    subscription_details: Option<SubscriptionDetails>,
}

#[derive(Debug, Deserialize)]
struct SubscriptionDetails {
    subscription: String,
}

/// What an event asks of us.
enum Incoming {
    /// `payment_intent.succeeded`: a pack bought with Stripe is paid.
    IntentSucceeded {
        intent_id: String,
        amount: i64,
    },
    /// `invoice.paid`: a period of a subscription is paid (the first, or a renewal).
    InvoicePaid {
        invoice_id: String,
        amount: i64,
        subscription_id: String,
    },
    /// `invoice.payment_failed`: Stripe could not collect; `first_renewal_failure` when it is
    /// the first failed attempt at a renewal (the member is told once).
    InvoiceFailed {
        subscription_id: String,
        first_renewal_failure: bool,
    },
    /// `customer.subscription.*`: the subscription changed (cancelled, resumed, ended, …).
    SubscriptionChanged {
        subscription_id: String,
    },
    Ignored,
}

impl Incoming {
    fn of(event: &Event) -> Self {
        let object = &event.data.object;
        let subscription = || {
            object
                .parent
                .as_ref()
                .and_then(|p| p.subscription_details.as_ref())
                .map(|d| d.subscription.clone())
        };
        match event.kind.as_str() {
            "payment_intent.succeeded" => {
                Self::IntentSucceeded { intent_id: object.id.clone(), amount: object.amount }
            }
            "invoice.paid" => match subscription() {
                Some(subscription_id) => Self::InvoicePaid {
                    invoice_id: object.id.clone(),
                    amount: object.amount_paid,
                    subscription_id,
                },
                None => Self::Ignored,
            },
            "invoice.payment_failed" => match subscription() {
                Some(subscription_id) => Self::InvoiceFailed {
                    subscription_id,
                    first_renewal_failure: object.billing_reason.as_deref() == Some("subscription_cycle")
                        && object.attempt_count <= 1,
                },
                None => Self::Ignored,
            },
            "customer.subscription.created"
            | "customer.subscription.updated"
            | "customer.subscription.deleted" => {
                Self::SubscriptionChanged { subscription_id: object.id.clone() }
            }
            _ => Self::Ignored,
        }
    }

    fn subscription_id(&self) -> Option<&str> {
        match self {
            Self::InvoicePaid { subscription_id, .. }
            | Self::InvoiceFailed { subscription_id, .. }
            | Self::SubscriptionChanged { subscription_id } => Some(subscription_id),
            Self::IntentSucceeded { .. } | Self::Ignored => None,
        }
    }
}

/// What handling an event leaves to mail once it is stored.
enum Mail {
    Receipt(String),
    FailedRenewal(String),
}

/// Handles a Stripe webhook: verifies its signature, records the event id once, and applies
/// it in the same transaction:
/// - `payment_intent.succeeded` fulfils a pack through the same function as `confirm`;
/// - `invoice.paid` pays a subscription's period through it too (a renewal's invoice is
///   recorded as a payment first);
/// - `invoice.payment_failed` and `customer.subscription.*` update the subscription.
///
/// Every subscription event is settled against the subscription as Stripe reports it now
/// (read before the transaction), so late or reordered events converge on Stripe's state.
/// When Stripe cannot be read the call fails and Stripe sends the event again later.
/// Events about what is not ours (another integration on the account) are recorded and
/// ignored. The receipt or the failed-renewal notice is mailed after the commit.
pub async fn handle_webhook(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    payload: Vec<u8>,
    signature: Option<String>,
) -> Result<(), CreditsError> {
    let AppCtx { db, clock, .. } = ctx;
    let PaymentProvider::Stripe { client, webhook_secret: Some(secret), .. } = provider else {
        return Err(CreditsError::WebhookNotConfigured);
    };
    let header = signature.ok_or(webhook::WebhookError::MissingHeader)?;
    let now = clock.now();
    webhook::verify(&payload, &header, secret, now)?;
    let event: Event = serde_json::from_slice(&payload).map_err(|_| CreditsError::UnreadableEvent)?;
    let incoming = Incoming::of(&event);
    let reported = match incoming.subscription_id() {
        Some(id) => {
            let known = id.to_owned();
            let ours = db
                .run(move |conn| Ok::<_, CreditsError>(repo::find_subscription(conn, &known)?.is_some()))
                .await?;
            if ours { Some(client.retrieve_subscription(id).await?) } else { None }
        }
        None => None,
    };
    let mail = db
        .run(move |conn| {
            write_transaction(conn, |conn| {
                let first_time = repo::record_webhook_event(
                    conn,
                    &WebhookEventInsertForm {
                        event_id: &event.id,
                        event_type: &event.kind,
                        received_at: now.naive_utc(),
                    },
                )?;
                if !first_time {
                    return Ok(None);
                }
                apply_event(conn, incoming, reported.as_ref(), now)
            })
        })
        .await?;
    // A first payment of Pro refused by this event (or an earlier one) is refunded now.
    pro::refund_due(ctx, provider).await?;
    match mail {
        Some(Mail::Receipt(reference)) => receipts::mail(ctx, reference).await,
        Some(Mail::FailedRenewal(subscription_id)) => {
            pro::mail_failed_renewal(ctx, subscription_id).await;
        }
        None => {}
    }
    Ok(())
}

/// Applies a new event inside the webhook's transaction; answers what to mail after it.
fn apply_event(
    conn: &mut DbConnection,
    incoming: Incoming,
    reported: Option<&BillingSubscription>,
    now: DateTime<Utc>,
) -> Result<Option<Mail>, CreditsError> {
    let credited = |fulfilment: Result<Fulfilment, CreditsError>, reference: String| match fulfilment {
        // A payment we never created (another integration on the account): ignore.
        Err(CreditsError::PaymentNotFound) => Ok(None),
        other => other.map(|done| done.newly_credited.then_some(Mail::Receipt(reference))),
    };
    match incoming {
        Incoming::IntentSucceeded { intent_id, amount } => {
            credited(fulfil(conn, &intent_id, amount, None, now), intent_id)
        }
        // Not one of ours when Stripe's state was not read for it.
        Incoming::InvoicePaid { .. }
        | Incoming::InvoiceFailed { .. }
        | Incoming::SubscriptionChanged { .. }
            if reported.is_none() =>
        {
            Ok(None)
        }
        Incoming::InvoicePaid { invoice_id, amount, subscription_id } => {
            if !pro::record_invoice(conn, &invoice_id, &subscription_id, amount, now)? {
                return Ok(None);
            }
            credited(fulfil(conn, &invoice_id, amount, reported, now), invoice_id)
        }
        Incoming::InvoiceFailed { subscription_id, first_renewal_failure } => {
            if let Some(reported) = reported {
                pro::apply_reported(conn, reported, now)?;
            }
            Ok(first_renewal_failure.then_some(Mail::FailedRenewal(subscription_id)))
        }
        Incoming::SubscriptionChanged { .. } => {
            if let Some(reported) = reported {
                pro::apply_reported(conn, reported, now)?;
            }
            Ok(None)
        }
        Incoming::Ignored => Ok(None),
    }
}
