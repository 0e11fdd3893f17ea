//! Stripe Billing for Pro: customers, subscriptions and their invoices, through the same
//! `async-stripe` client as the PaymentIntents ([`StripeProvider`]).
//!
//! The requests are built with `async-stripe`'s request builder and read into the few
//! fields Pro needs (below) instead of through the generated `async-stripe-billing` crate:
//! its request and object types would add minutes to a cold build for five fields, and
//! reading only what we use keeps an answer with fields a later API version adds readable.
//!
//! Calls:
//! - create a customer for a member (once; its id is kept with their subscriptions);
//! - create a subscription with `payment_behavior=default_incomplete`: Stripe opens its first
//!   invoice unpaid, and the invoice's `confirmation_secret` is what the card form (Elements)
//!   confirms; the price comes from our configuration (`price_data` on the Pro product);
//! - retrieve a subscription (its status, period end and cancel flag as they are now: what
//!   webhooks, which may arrive out of order, are settled against) and an invoice (whether
//!   it is paid, read as a payment: the confirmation path of the card form);
//! - update `cancel_at_period_end` (cancel and resume) and cancel at once (account deletion,
//!   a checkout replaced by a newer one, a first payment refused);
//! - void an open invoice (a replaced checkout can no longer be paid) and refund a paid one
//!   (a first payment that arrived for a checkout we no longer wanted).
//!
//! Every create carries an `Idempotency-Key`.

use chrono::{DateTime, Utc};
use serde::Serialize;
use stripe::{IdempotencyKey, RequestStrategy, StripeError};
use stripe_client_core::{RequestBuilder, StripeMethod};

use super::stripe::{StripeProvider, is_plausible_id, provider_error};
use super::{PaymentStatus, ProviderError, RetrievedIntent};
use setupiq_core::UserId;

/// A subscription as Stripe reports it, reduced to what Pro reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingSubscription {
    pub id: String,
    pub customer: String,
    /// Stripe's status: `incomplete`, `active`, `past_due`, `canceled`, …
    pub status: String,
    pub cancel_at_period_end: bool,
    /// The end of the period being paid for (its first item's period).
    pub current_period_end: Option<DateTime<Utc>>,
}

/// A new subscription waiting for its first invoice to be paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenedSubscription {
    pub subscription: BillingSubscription,
    /// The first invoice (`in_…`): the payment's reference.
    pub invoice_id: String,
    /// The invoice's amount due, in cents.
    pub amount_due: i64,
    /// What the card form confirms the first invoice's payment with.
    pub client_secret: String,
}

/// A subscription to create.
#[derive(Debug, Clone)]
pub struct NewSubscription<'a> {
    pub customer: &'a str,
    /// The Stripe product Pro is sold as (`STRIPE_PRO_PRODUCT`).
    pub product: &'a str,
    pub unit_amount_cents: i64,
    pub currency: &'a str,
    /// `month` or `year`.
    pub interval: &'a str,
    pub user_id: UserId,
    /// Our plan's name (`monthly`, `yearly`), kept in the metadata.
    pub plan: &'a str,
    pub idempotency_key: &'a str,
}

impl StripeProvider {
    /// Creates the Stripe customer of a member (their e-mail lets Stripe send its own receipts
    /// and card updates). The same `idempotency_key` within 24 h answers the same customer.
    pub async fn create_customer(
        &self,
        user_id: UserId,
        email: &str,
        idempotency_key: &str,
    ) -> Result<String, ProviderError> {
        #[derive(Serialize)]
        struct Form<'a> {
            email: &'a str,
            metadata: Metadata<'a>,
        }
        let user = user_id.to_string();
        let form = Form { email, metadata: Metadata { user_id: &user, plan: None } };
        let customer: wire::Customer = self
            .send(RequestBuilder::new(StripeMethod::Post, "/customers").form(&form), Some(idempotency_key))
            .await
            .map_err(|err| provider_error("create a customer", err))?;
        Ok(customer.id)
    }

    /// Creates a subscription whose first invoice stays open until the card form pays it
    /// (`payment_behavior=default_incomplete`), with that invoice's confirmation secret.
    pub async fn create_subscription(
        &self,
        new: &NewSubscription<'_>,
    ) -> Result<OpenedSubscription, ProviderError> {
        #[derive(Serialize)]
        struct Recurring<'a> {
            interval: &'a str,
        }
        #[derive(Serialize)]
        struct PriceData<'a> {
            currency: &'a str,
            product: &'a str,
            unit_amount: i64,
            recurring: Recurring<'a>,
        }
        #[derive(Serialize)]
        struct Item<'a> {
            price_data: PriceData<'a>,
        }
        #[derive(Serialize)]
        struct PaymentSettings {
            save_default_payment_method: &'static str,
        }
        #[derive(Serialize)]
        struct Form<'a> {
            customer: &'a str,
            items: [Item<'a>; 1],
            payment_behavior: &'static str,
            payment_settings: PaymentSettings,
            metadata: Metadata<'a>,
            expand: [&'static str; 1],
        }
        let user = new.user_id.to_string();
        let form = Form {
            customer: new.customer,
            items: [Item {
                price_data: PriceData {
                    currency: new.currency,
                    product: new.product,
                    unit_amount: new.unit_amount_cents,
                    recurring: Recurring { interval: new.interval },
                },
            }],
            payment_behavior: "default_incomplete",
            payment_settings: PaymentSettings { save_default_payment_method: "on_subscription" },
            metadata: Metadata { user_id: &user, plan: Some(new.plan) },
            expand: ["latest_invoice.confirmation_secret"],
        };
        let created: wire::CreatedSubscription = self
            .send(
                RequestBuilder::new(StripeMethod::Post, "/subscriptions").form(&form),
                Some(new.idempotency_key),
            )
            .await
            .map_err(|err| provider_error("create a subscription", err))?;
        let invoice = created.latest_invoice;
        let client_secret =
            invoice.confirmation_secret.map(|secret| secret.client_secret).ok_or_else(|| {
                ProviderError::Unreachable(
                    "Stripe returned a subscription whose first invoice has no confirmation secret".into(),
                )
            })?;
        let subscription = wire::Subscription {
            id: created.id,
            customer: created.customer,
            status: created.status,
            cancel_at_period_end: created.cancel_at_period_end,
            items: created.items,
        };
        Ok(OpenedSubscription {
            subscription: subscription.into(),
            invoice_id: invoice.id,
            amount_due: invoice.amount_due,
            client_secret,
        })
    }

    /// A subscription as it is now. An id Stripe does not know is [`ProviderError::NotFound`].
    pub async fn retrieve_subscription(&self, id: &str) -> Result<BillingSubscription, ProviderError> {
        let path = object_path("subscriptions", id)?;
        let found: wire::Subscription = self
            .send(RequestBuilder::new(StripeMethod::Get, path), None)
            .await
            .map_err(|err| not_found_or("retrieve a subscription", err))?;
        Ok(found.into())
    }

    /// Cancels at the end of the paid period (`true`) or takes that back (`false`).
    pub async fn set_cancel_at_period_end(
        &self,
        id: &str,
        cancel: bool,
    ) -> Result<BillingSubscription, ProviderError> {
        #[derive(Serialize)]
        struct Form {
            cancel_at_period_end: bool,
        }
        let path = object_path("subscriptions", id)?;
        let updated: wire::Subscription = self
            .send(
                RequestBuilder::new(StripeMethod::Post, path).form(&Form { cancel_at_period_end: cancel }),
                None,
            )
            .await
            .map_err(|err| not_found_or("update a subscription", err))?;
        Ok(updated.into())
    }

    /// Ends a subscription now (no further invoice). Ending one that already ended is fine.
    pub async fn cancel_subscription_now(&self, id: &str) -> Result<BillingSubscription, ProviderError> {
        let path = object_path("subscriptions", id)?;
        let ended: wire::Subscription = self
            .send(RequestBuilder::new(StripeMethod::Delete, path), None)
            .await
            .map_err(|err| not_found_or("cancel a subscription", err))?;
        Ok(ended.into())
    }

    /// An invoice as it is now, as a payment: paid (`succeeded`, with the amount paid), void
    /// or uncollectible (`canceled`), or still to be paid. An id Stripe does not know is
    /// [`ProviderError::NotFound`].
    pub async fn retrieve_invoice(&self, id: &str) -> Result<RetrievedIntent, ProviderError> {
        let path = object_path("invoices", id)?;
        let invoice: wire::Invoice = self
            .send(RequestBuilder::new(StripeMethod::Get, path), None)
            .await
            .map_err(|err| not_found_or("retrieve an invoice", err))?;
        Ok(invoice.into())
    }

    /// Voids an open invoice so that it can no longer be paid. Answers `false` when it is not
    /// open any more (paid meanwhile, or voided already): Stripe refuses, nothing changes.
    pub async fn void_invoice(&self, id: &str) -> Result<bool, ProviderError> {
        let path = format!("{}/void", object_path("invoices", id)?);
        let voided: Result<wire::Invoice, _> =
            self.send(RequestBuilder::new(StripeMethod::Post, path), None).await;
        match voided {
            Ok(_) => Ok(true),
            Err(StripeError::Stripe(_, 400)) => Ok(false),
            Err(err) => Err(not_found_or("void an invoice", err)),
        }
    }

    /// Refunds a paid invoice in full: the refund of its payment, once per `idempotency_key`.
    /// Answers `false` when the invoice holds no paid payment to refund.
    pub async fn refund_invoice(&self, id: &str, idempotency_key: &str) -> Result<bool, ProviderError> {
        #[derive(Serialize)]
        struct Expand {
            expand: [&'static str; 1],
        }
        #[derive(Serialize)]
        struct Form<'a> {
            payment_intent: &'a str,
            reason: &'static str,
        }
        let path = object_path("invoices", id)?;
        let invoice: wire::Invoice = self
            .send(RequestBuilder::new(StripeMethod::Get, path).query(&Expand { expand: ["payments"] }), None)
            .await
            .map_err(|err| not_found_or("retrieve an invoice", err))?;
        if invoice.status.as_deref() != Some("paid") {
            return Ok(false);
        }
        let paid =
            invoice.payments.into_iter().flat_map(|list| list.data).find_map(|p| p.payment.payment_intent);
        let Some(intent) = paid else { return Ok(false) };
        let form = Form { payment_intent: &intent, reason: "duplicate" };
        let _: wire::Refund = self
            .send(RequestBuilder::new(StripeMethod::Post, "/refunds").form(&form), Some(idempotency_key))
            .await
            .map_err(|err| provider_error("refund a payment", err))?;
        Ok(true)
    }

    async fn send<T: miniserde::Deserialize>(
        &self,
        request: RequestBuilder,
        idempotency_key: Option<&str>,
    ) -> Result<T, StripeError> {
        let mut request = request.customize::<T>();
        if let Some(key) = idempotency_key {
            let key = IdempotencyKey::new(key)
                .map_err(|err| StripeError::ClientError(format!("unusable idempotency key: {err}")))?;
            request = request.request_strategy(RequestStrategy::Idempotent(key));
        }
        request.send(self.client()).await
    }
}

#[derive(Serialize)]
struct Metadata<'a> {
    user_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    plan: Option<&'a str>,
}

/// `/{objects}/{id}`, for an id that cannot leave the path.
fn object_path(objects: &str, id: &str) -> Result<String, ProviderError> {
    if is_plausible_id(id) { Ok(format!("/{objects}/{id}")) } else { Err(ProviderError::NotFound) }
}

fn not_found_or(action: &str, err: StripeError) -> ProviderError {
    match err {
        StripeError::Stripe(_, 404) => ProviderError::NotFound,
        other => provider_error(action, other),
    }
}

impl From<wire::Subscription> for BillingSubscription {
    fn from(sub: wire::Subscription) -> Self {
        let period_end = sub.items.data.first().map(|item| item.current_period_end);
        Self {
            id: sub.id,
            customer: sub.customer,
            status: sub.status,
            cancel_at_period_end: sub.cancel_at_period_end,
            current_period_end: period_end.and_then(|end| DateTime::from_timestamp(end, 0)),
        }
    }
}

impl From<wire::Invoice> for RetrievedIntent {
    fn from(invoice: wire::Invoice) -> Self {
        let status = match invoice.status.as_deref() {
            Some("paid") => PaymentStatus::Succeeded,
            Some("void" | "uncollectible") => PaymentStatus::Canceled,
            _ => PaymentStatus::RequiresPaymentMethod,
        };
        Self { id: invoice.id, status, amount_cents: invoice.amount_paid, user_id: None, last_error: None }
    }
}

/// The fields read from Stripe's objects (unknown fields are skipped; a missing optional one
/// is `None`). Ids of related objects arrive as strings unless expanded.
mod wire {
    use miniserde::Deserialize;

    #[derive(Deserialize)]
    pub struct Customer {
        pub id: String,
    }

    #[derive(Deserialize)]
    pub struct Subscription {
        pub id: String,
        pub customer: String,
        pub status: String,
        pub cancel_at_period_end: bool,
        pub items: Items,
    }

    /// A subscription as created, with its first invoice expanded
    /// (`expand[]=latest_invoice.confirmation_secret`).
    #[derive(Deserialize)]
    pub struct CreatedSubscription {
        pub id: String,
        pub customer: String,
        pub status: String,
        pub cancel_at_period_end: bool,
        pub items: Items,
        pub latest_invoice: Invoice,
    }

    #[derive(Deserialize)]
    pub struct Items {
        pub data: Vec<Item>,
    }

    #[derive(Deserialize)]
    pub struct Item {
        pub current_period_end: i64,
    }

    #[derive(Deserialize)]
    pub struct Invoice {
        pub id: String,
        pub status: Option<String>,
        pub amount_due: i64,
        pub amount_paid: i64,
        pub confirmation_secret: Option<ConfirmationSecret>,
        /// Its payments, when expanded (`expand[]=payments`).
        pub payments: Option<InvoicePayments>,
    }

    #[derive(Deserialize)]
    pub struct InvoicePayments {
        pub data: Vec<InvoicePayment>,
    }

    #[derive(Deserialize)]
    pub struct InvoicePayment {
        pub payment: PaymentRef,
    }

    /// What paid an invoice: a PaymentIntent's id (or another kind of payment).
    #[derive(Deserialize)]
    pub struct PaymentRef {
        pub payment_intent: Option<String>,
    }

    /// A refund as created; only its arrival is read.
    #[derive(Deserialize)]
    pub struct Refund {}

    #[derive(Deserialize)]
    pub struct ConfirmationSecret {
        pub client_secret: String,
    }
}
