//! Card purchases: create an intent for a pack, then credit it exactly once when the
//! provider says it succeeded — whether the browser confirms it (`confirm`), Stripe's
//! webhook reports it (`handle_webhook`), or both at once.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use setupiq_auth::service::ledger::{self, LedgerReason};
use setupiq_core::mail::Mailer;
use setupiq_core::{Config, SharedClock};
use setupiq_db::{Db, DbConnection, write_transaction};

use crate::error::{CreditsError, PAYMENT_NOT_SUCCESSFUL};
use crate::models::{PaymentInsertForm, WebhookEventInsertForm};
use crate::payments::stripe::StripeProvider;
use crate::payments::{NewIntent, PaymentStatus, ProviderKind, RetrievedIntent, test_mode, webhook};
use crate::repo;
use crate::service::packs::{self, CURRENCY};
use crate::service::{pro, receipts};

/// Where payments go: real Stripe, or the offline test mode.
#[derive(Debug, Clone)]
pub enum PaymentProvider {
    TestMode,
    Stripe { client: StripeProvider, webhook_secret: Option<String> },
}

impl PaymentProvider {
    /// Stripe when `STRIPE_SECRET_KEY` is set, the test mode otherwise.
    pub fn from_config(config: &Config) -> Result<Self, CreditsError> {
        match &config.stripe.secret_key {
            None => Ok(Self::TestMode),
            Some(key) => Ok(Self::Stripe {
                client: StripeProvider::new(key, config.stripe.api_base.as_deref())?,
                webhook_secret: config.stripe.webhook_secret.as_ref().map(|s| s.expose().to_owned()),
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
    db: &Db,
    provider: &PaymentProvider,
    clock: &SharedClock,
    user_id: i64,
    package_id: &str,
) -> Result<StartedPurchase, CreditsError> {
    let pack = packs::find(package_id).ok_or(CreditsError::UnknownPackage)?;
    let created = match provider {
        PaymentProvider::TestMode => test_mode::new_intent(),
        PaymentProvider::Stripe { client, .. } => {
            let fulfilled = db
                .run(move |conn| Ok::<_, CreditsError>(repo::count_fulfilled_payments(conn, user_id)?))
                .await?;
            let idempotency_key = purchase_key(user_id, pack.id, fulfilled);
            let new = NewIntent {
                amount_cents: pack.price_cents,
                currency: CURRENCY,
                user_id,
                package_id: pack.id,
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
                package_id: pack.id,
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
fn purchase_key(user_id: i64, package_id: &str, fulfilled_purchases: i64) -> String {
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
}

/// Where the receipt of a payment credited now is mailed from.
#[derive(Clone, Copy)]
pub struct Receipts<'a> {
    pub mailer: &'a Mailer,
    pub config: &'a Config,
}

/// Credits the user's intent if, and only if, the provider reports it succeeded.
/// Repeated or concurrent calls credit it once; the first reports the credits added, the
/// others report 0 with the same balance. The call that credits it mails the receipt.
pub async fn confirm(
    db: &Db,
    provider: &PaymentProvider,
    clock: &SharedClock,
    receipts: Receipts<'_>,
    user_id: i64,
    intent_id: String,
) -> Result<Fulfilment, CreditsError> {
    let lookup = intent_id.clone();
    db.run(move |conn| {
        repo::find_payment(conn, &lookup)?
            .filter(|p| p.user_id == user_id)
            .ok_or(CreditsError::PaymentNotFound)
    })
    .await?;
    let retrieved = retrieve(db, provider, &intent_id).await?;
    if retrieved.user_id.is_some_and(|owner| owner != user_id) {
        return Err(CreditsError::PaymentNotFound);
    }
    let clock = clock.clone();
    let fulfilment = db
        .run(move |conn| {
            let now = clock.now();
            let fulfilment = settle(conn, &retrieved, now)?;
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
    if fulfilment.newly_credited {
        receipts::mail(db, receipts.mailer, receipts.config, intent_id).await;
    }
    Ok(fulfilment)
}

async fn retrieve(
    db: &Db,
    provider: &PaymentProvider,
    intent_id: &str,
) -> Result<RetrievedIntent, CreditsError> {
    match provider {
        PaymentProvider::TestMode => {
            let id = intent_id.to_owned();
            db.run(move |conn| test_mode::retrieve(conn, &id)).await
        }
        PaymentProvider::Stripe { client, .. } => Ok(client.retrieve_intent(intent_id).await?),
    }
}

/// Records what the provider said and credits a succeeded intent once.
fn settle(
    conn: &mut DbConnection,
    intent: &RetrievedIntent,
    now: DateTime<Utc>,
) -> Result<Fulfilment, CreditsError> {
    if intent.status != PaymentStatus::Succeeded {
        repo::set_payment_status(conn, &intent.id, intent.status, intent.last_error.as_deref())?;
        return Err(CreditsError::PaymentNotSuccessful(
            intent.last_error.clone().unwrap_or_else(|| PAYMENT_NOT_SUCCESSFUL.to_owned()),
        ));
    }
    fulfil(conn, &intent.id, intent.amount_cents, now)
}

/// Credits a succeeded purchase exactly once (the ledger's unique reference guarantees
/// it even across gateway instances; the account lock makes the others wait and see it).
pub(crate) fn fulfil(
    conn: &mut DbConnection,
    intent_id: &str,
    amount_cents: i64,
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
            return pro::pay_period(conn, &payment, subscription_id, now);
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
                user_id = payment.user_id,
                credits = payment.credits,
                "purchase credited"
            );
            balance
        };
        Ok(Fulfilment { credits_added: payment.credits, new_balance, newly_credited, pro_until: None })
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

#[derive(Debug, Deserialize)]
struct EventObject {
    id: String,
    #[serde(default)]
    amount: i64,
}

/// Handles a Stripe webhook: verifies its signature, records the event id once, and
/// fulfils `payment_intent.succeeded` through the same function as `confirm` (mailing the
/// receipt when it is the one that credits it).
pub async fn handle_webhook(
    db: &Db,
    provider: &PaymentProvider,
    clock: &SharedClock,
    receipts: Receipts<'_>,
    payload: Vec<u8>,
    signature: Option<String>,
) -> Result<(), CreditsError> {
    let PaymentProvider::Stripe { webhook_secret: Some(secret), .. } = provider else {
        return Err(CreditsError::WebhookNotConfigured);
    };
    let header = signature.ok_or(webhook::WebhookError::MissingHeader)?;
    let now = clock.now();
    webhook::verify(&payload, &header, secret, now)?;
    let event: Event = serde_json::from_slice(&payload).map_err(|_| CreditsError::UnreadableEvent)?;
    let intent_id = event.data.object.id.clone();
    let credited = db
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
                if !first_time || event.kind != "payment_intent.succeeded" {
                    return Ok(false);
                }
                match fulfil(conn, &event.data.object.id, event.data.object.amount, now) {
                    // An intent we never created (another integration on the account): ignore.
                    Err(CreditsError::PaymentNotFound) => Ok(false),
                    other => other.map(|done| done.newly_credited),
                }
            })
        })
        .await?;
    if credited {
        receipts::mail(db, receipts.mailer, receipts.config, intent_id).await;
    }
    Ok(())
}
