//! Pro by subscription: a monthly or yearly plan, paid up front for each period.
//!
//! A subscription starts *incomplete* with an unpaid payment for its first period; paying it
//! (the card form, then `confirm-payment`, as for a pack) goes through
//! [`purchases::fulfil`], which hands a subscription's payment to [`pay_period`]: the
//! period starts (or, for a renewal, follows the one paid before), the subscription is
//! *active* and the member Pro (`auth::accounts::set_subscribed`). Every payment is
//! credited once, whoever reports it first.
//!
//! A member holds at most one subscription. Opening a checkout for a plan voids the member's
//! other unpaid checkout (at Stripe too: its invoice is voided and its subscription
//! cancelled), so only the newest can be paid; opening one while Pro is refused
//! ([`CreditsError::AlreadyPro`]: a plan change waits for the paid period's end). A test-mode
//! payment for a replaced checkout, or for a member already Pro, is refused before it is
//! made; a Stripe payment that still arrives for one (paid in a tab opened before) is not
//! applied: the payment is `refund_due` and [`refund_due`] refunds it at Stripe and ends its
//! subscription there.
//!
//! Cancelling keeps Pro until the paid period ends (`cancel_at_period_end`); resuming before
//! then undoes it. When a period is over ([`settle_due`]), a cancelled subscription ends and
//! the member stops being Pro (unless an admin's grant stands); a running one renews: in test
//! mode the stored test card pays the next period at once (a receipt is mailed). The gateway
//! settles every due subscription once a minute, and a member's own whenever they look.
//!
//! With a Stripe key (and `STRIPE_PRO_PRODUCT`), the subscription lives at Stripe Billing:
//! [`subscribe`] creates the customer once and the subscription with
//! `payment_behavior=default_incomplete`; its first invoice (`in_…`, the payment's reference)
//! is paid in the card form and confirmed as a pack is, reading the invoice. Renewals,
//! failed renewals and cancellations arrive by webhook; each one is settled against the
//! subscription as Stripe reports it when the event is handled ([`apply_reported`]), so
//! events that arrive late or out of order cannot undo a newer state. Stripe retries a
//! failed renewal while the member stays Pro (`past_due`) and ends the subscription when the
//! retries run out; the member gets an e-mail at the first failure ([`failed_renewal_email`]).
//! Without a Stripe key everything runs in the test mode.
//!
//! [`purchases::fulfil`]: super::purchases

use chrono::{DateTime, Duration, Months, Utc};
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_auth::service::{accounts, ledger};
use setupiq_core::config::ProPrices;
use setupiq_core::mail::OutgoingEmail;
use setupiq_core::{Config, tokens};
use setupiq_core::{SharedClock, UserId};
use setupiq_db::{AppCtx, Db, DbConnection, write_transaction};

use crate::error::CreditsError;
use crate::models::{PaymentInsertForm, PaymentRow, SubscriptionInsertForm, SubscriptionRow};
pub use crate::models::{Plan, SubscriptionStatus};
use crate::payments::ProviderError;
use crate::payments::billing::{BillingSubscription, NewSubscription, OpenedSubscription};
use crate::payments::stripe::StripeProvider;
use crate::payments::{PaymentStatus, ProviderKind, test_mode};
use crate::repo;
use crate::service::packs::CURRENCY;
use crate::service::purchases::{Fulfilment, PaymentProvider};
use crate::service::receipts;

impl Plan {
    pub const ALL: [Plan; 2] = [Plan::Monthly, Plan::Yearly];

    pub fn name(self) -> &'static str {
        match self {
            Plan::Monthly => "SetupIQ Pro, monthly",
            Plan::Yearly => "SetupIQ Pro, yearly",
        }
    }

    pub fn price_cents(self, prices: ProPrices) -> i64 {
        match self {
            Plan::Monthly => prices.monthly_cents,
            Plan::Yearly => prices.yearly_cents,
        }
    }

    /// How long each paid period lasts.
    pub fn interval(self) -> BillingInterval {
        match self {
            Plan::Monthly => BillingInterval::Month,
            Plan::Yearly => BillingInterval::Year,
        }
    }

    /// The end of a period that starts at `start` (the same day of the next month or year,
    /// or the month's last day when it has none).
    pub fn period_after(self, start: DateTime<Utc>) -> DateTime<Utc> {
        let months = match self {
            Plan::Monthly => Months::new(1),
            Plan::Yearly => Months::new(12),
        };
        start.checked_add_months(months).unwrap_or(start)
    }

    /// How its payments are recorded (`payments.package_id`).
    pub fn package_id(self) -> &'static str {
        match self {
            Plan::Monthly => "pro_monthly",
            Plan::Yearly => "pro_yearly",
        }
    }

    pub fn from_package_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|plan| plan.package_id() == id)
    }
}

/// How long each paid period of a plan lasts (Stripe's `recurring.interval`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BillingInterval {
    Month,
    Year,
}

impl BillingInterval {
    /// `month` or `year`, as Stripe names it.
    pub fn as_str(self) -> &'static str {
        match self {
            BillingInterval::Month => "month",
            BillingInterval::Year => "year",
        }
    }
}

impl SubscriptionStatus {
    /// Ours for a status Stripe reports: a trial counts as active; a subscription Stripe
    /// still collects for (`unpaid`, `paused`) as past due; one whose first invoice was never
    /// paid (`incomplete_expired`) stays incomplete, never shown as a membership.
    pub fn from_stripe(status: &str) -> Self {
        match status {
            "active" | "trialing" => Self::Active,
            "past_due" | "unpaid" | "paused" => Self::PastDue,
            "canceled" => Self::Canceled,
            _ => Self::Incomplete,
        }
    }
}

/// Whether a subscription makes its member Pro at `now`. A test-mode one while its paid
/// period runs (the settler ends or renews it after); a Stripe one while Stripe keeps it
/// going, also past due while Stripe retries a failed renewal: Stripe ends it, and says so.
fn is_standing(row: &SubscriptionRow, now: DateTime<Utc>) -> bool {
    match row.provider {
        ProviderKind::TestMode => is_paid_up(row, now),
        ProviderKind::Stripe => {
            matches!(row.status, SubscriptionStatus::Active | SubscriptionStatus::PastDue)
        }
    }
}

/// Sets the member's Pro-by-subscription from all their subscriptions (an old one ending
/// never takes Pro from a newer one).
fn refresh_subscribed(
    conn: &mut DbConnection,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<bool, CreditsError> {
    let standing = repo::subscriptions_of(conn, user_id)?.iter().any(|row| is_standing(row, now));
    accounts::set_subscribed(conn, user_id, standing, now)?;
    Ok(standing)
}

/// Writes a Stripe subscription's state as Stripe reports it now, and the member's Pro with it.
pub(crate) fn apply_reported(
    conn: &mut DbConnection,
    reported: &BillingSubscription,
    now: DateTime<Utc>,
) -> Result<(), CreditsError> {
    let Some(row) = repo::find_subscription(conn, &reported.id)? else { return Ok(()) };
    ledger::lock_account(conn, row.user_id)?;
    // A closed checkout stays closed; one that Stripe says was paid while the member was
    // Pro already is refused (its payment refunded).
    if let Some(unwanted) = unwanted_first_payment(conn, &row, now)? {
        let paid = matches!(
            SubscriptionStatus::from_stripe(&reported.status),
            SubscriptionStatus::Active | SubscriptionStatus::PastDue
        );
        if paid {
            refuse_first_payment(conn, &row, unwanted, now)?;
        }
        return Ok(());
    }
    let status = SubscriptionStatus::from_stripe(&reported.status);
    repo::set_subscription_state(
        conn,
        &row.id,
        status,
        reported.current_period_end.map(|end| end.naive_utc()).or(row.current_period_end),
        reported.cancel_at_period_end,
        now.naive_utc(),
    )?;
    let pro = refresh_subscribed(conn, row.user_id, now)?;
    tracing::info!(
        subscription_id = row.id,
        user_id = row.user_id.0,
        status = status.as_str(),
        pro,
        "Pro subscription updated from Stripe"
    );
    Ok(())
}

/// A member's subscription as they see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub id: String,
    pub plan: Plan,
    pub status: SubscriptionStatus,
    /// When the paid period ends: the next renewal, or the end of Pro after a cancel.
    pub current_period_end: Option<DateTime<Utc>>,
    pub cancel_at_period_end: bool,
}

impl From<SubscriptionRow> for Subscription {
    fn from(row: SubscriptionRow) -> Self {
        Self {
            id: row.id,
            plan: row.plan,
            status: row.status,
            current_period_end: row.current_period_end.map(|t| t.and_utc()),
            cancel_at_period_end: row.cancel_at_period_end,
        }
    }
}

/// A member's Pro: whether they have it, whether an admin granted it, and their newest
/// subscription that got past its first payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Membership {
    pub is_pro: bool,
    pub granted: bool,
    pub subscription: Option<Subscription>,
}

/// The member's Pro as it is now.
pub fn membership(conn: &mut DbConnection, user_id: UserId) -> Result<Membership, CreditsError> {
    let account = accounts::find(conn, user_id)?.ok_or(CreditsError::NoSubscription)?;
    let subscription = repo::subscriptions_of(conn, user_id)?
        .into_iter()
        .find(|row| !matches!(row.status, SubscriptionStatus::Incomplete | SubscriptionStatus::Voided))
        .map(Subscription::from);
    Ok(Membership { is_pro: account.is_pro, granted: account.pro_granted, subscription })
}

/// A subscription waiting for its first payment: what the card form confirms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartedSubscription {
    pub subscription_id: String,
    pub intent_id: String,
    pub client_secret: String,
}

/// Starts a subscription to `plan` with its first period's payment. Asked again before it is
/// paid (a double click, the dialog opened again), the same plan answers the same payment;
/// another plan replaces the unpaid checkout (see the module's documentation). Refused while
/// the member is already subscribed (a cancelled one resumes instead).
pub async fn subscribe(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    user_id: UserId,
    plan: Plan,
) -> Result<StartedSubscription, CreditsError> {
    let AppCtx { db, clock, config, .. } = ctx;
    let prices = config.pro_prices;
    match provider {
        PaymentProvider::TestMode => subscribe_in_test_mode(ctx, user_id, plan).await,
        PaymentProvider::Stripe { pro_product: None, .. } => Err(CreditsError::SubscriptionsUnavailable),
        PaymentProvider::Stripe { client, pro_product: Some(product), .. } => {
            let sale = StripeSale { client, product, price_cents: plan.price_cents(prices) };
            subscribe_with_stripe(db, &sale, clock, user_id, plan).await
        }
    }
}

async fn subscribe_in_test_mode(
    ctx: &AppCtx,
    user_id: UserId,
    plan: Plan,
) -> Result<StartedSubscription, CreditsError> {
    let AppCtx { db, clock, config, .. } = ctx;
    let (clock, prices) = (clock.clone(), config.pro_prices);
    // The checkout (or why not), and the references of checkouts found paid meanwhile.
    type Opened = (Result<StartedSubscription, CreditsError>, Vec<String>);
    let (started, paid) = db
        .run(move |conn| {
            let now = clock.now();
            write_transaction(conn, |conn| -> Result<Opened, CreditsError> {
                ledger::lock_account(conn, user_id)?;
                // A checkout paid in another tab whose confirmation has not come yet makes the
                // member Pro now (its receipt is mailed below), and this one is refused.
                let paid = apply_paid_checkouts(conn, user_id, now)?;
                if !paid.is_empty() {
                    return Ok((Err(CreditsError::AlreadyPro), paid));
                }
                let rows = repo::subscriptions_of(conn, user_id)?;
                if rows.iter().any(|row| is_standing(row, now)) {
                    return Ok((Err(CreditsError::AlreadyPro), paid));
                }
                if let Some(pending) =
                    rows.iter().find(|row| row.status == SubscriptionStatus::Incomplete && row.plan == plan)
                    && let Some(open) = repo::open_payment_of_subscription(conn, &pending.id)?
                {
                    let again = StartedSubscription {
                        subscription_id: pending.id.clone(),
                        client_secret: test_mode::secret_for(&open.intent_id),
                        intent_id: open.intent_id,
                    };
                    return Ok((Ok(again), paid));
                }
                void_other_checkouts(conn, user_id, None, now)?;
                let subscription_id = format!("sub_test_{}", uuid::Uuid::new_v4().simple());
                insert_subscription(
                    conn,
                    &subscription_id,
                    user_id,
                    plan,
                    ProviderKind::TestMode,
                    None,
                    now,
                )?;
                let intent = test_mode::new_intent();
                let payment = PeriodPayment::test_mode(plan, prices);
                insert_period_payment(conn, user_id, &subscription_id, &payment, &intent.id, now)?;
                let started = StartedSubscription {
                    subscription_id,
                    intent_id: intent.id,
                    client_secret: intent.client_secret,
                };
                Ok((Ok(started), paid))
            })
        })
        .await?;
    for reference in paid {
        receipts::mail(ctx, reference).await;
    }
    started
}

/// Applies the member's test-mode checkouts that were paid but not confirmed yet (the card
/// form of another tab); answers their payments' references.
fn apply_paid_checkouts(
    conn: &mut DbConnection,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<Vec<String>, CreditsError> {
    let mut paid = Vec::new();
    for row in repo::subscriptions_of(conn, user_id)? {
        if row.status != SubscriptionStatus::Incomplete || row.provider != ProviderKind::TestMode {
            continue;
        }
        if let Some(payment) = repo::open_payment_of_subscription(conn, &row.id)?
            && payment.status == PaymentStatus::Succeeded
        {
            pay_period(conn, &payment, &row.id, None, now)?;
            paid.push(payment.intent_id);
        }
    }
    Ok(paid)
}

/// Voids the member's unpaid checkouts but `keep`: their payments can no longer be made.
/// Answers the Stripe ones, with their unpaid invoices, to close at Stripe after the commit.
fn void_other_checkouts(
    conn: &mut DbConnection,
    user_id: UserId,
    keep: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Vec<ClosedCheckout>, CreditsError> {
    let mut closed = Vec::new();
    for row in repo::subscriptions_of(conn, user_id)? {
        if row.status != SubscriptionStatus::Incomplete || Some(row.id.as_str()) == keep {
            continue;
        }
        let invoice = repo::open_payment_of_subscription(conn, &row.id)?.map(|payment| payment.intent_id);
        repo::set_subscription_state(
            conn,
            &row.id,
            SubscriptionStatus::Voided,
            None,
            false,
            now.naive_utc(),
        )?;
        repo::cancel_unpaid_payments_of_subscription(conn, &row.id, "Replaced by a newer checkout.")?;
        tracing::info!(subscription_id = row.id, user_id = user_id.0, "Pro checkout replaced by a newer one");
        if row.provider == ProviderKind::Stripe {
            closed.push(ClosedCheckout { subscription_id: row.id, invoice_id: invoice });
        }
    }
    Ok(closed)
}

/// A Stripe checkout closed here, to close at Stripe too.
#[derive(Debug)]
struct ClosedCheckout {
    subscription_id: String,
    invoice_id: Option<String>,
}

fn insert_subscription(
    conn: &mut DbConnection,
    id: &str,
    user_id: UserId,
    plan: Plan,
    provider: ProviderKind,
    customer_id: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), CreditsError> {
    repo::insert_subscription(
        conn,
        &SubscriptionInsertForm {
            id,
            user_id,
            plan,
            provider,
            status: SubscriptionStatus::Incomplete,
            created_at: now.naive_utc(),
            updated_at: now.naive_utc(),
            customer_id,
        },
    )?;
    Ok(())
}

/// What selling Pro through Stripe needs: the client, the product and the plan's price.
struct StripeSale<'a> {
    client: &'a StripeProvider,
    product: &'a str,
    price_cents: i64,
}

/// The Stripe path of [`subscribe`]: the member's customer (created once, then kept with
/// their subscriptions), then a subscription whose first invoice waits for the card form.
/// A retry before paying (within Stripe's 24 hours) sends the same `Idempotency-Key` and
/// gets the same subscription back; the key changes with every checkout opened for another
/// plan, so coming back to a plan after another opens a new checkout, not the voided one.
async fn subscribe_with_stripe(
    db: &Db,
    sale: &StripeSale<'_>,
    clock: &SharedClock,
    user_id: UserId,
    plan: Plan,
) -> Result<StartedSubscription, CreditsError> {
    let now = clock.now();
    let (email, customer, opened_before) = db
        .run(move |conn| {
            let account = accounts::find(conn, user_id)?.ok_or(CreditsError::NoSubscription)?;
            let rows = repo::subscriptions_of(conn, user_id)?;
            if rows.iter().any(|row| is_standing(row, now)) {
                return Err(CreditsError::AlreadyPro);
            }
            let customer = rows.iter().find_map(|row| row.customer_id.clone());
            let pending_of_plan =
                |row: &&SubscriptionRow| row.status == SubscriptionStatus::Incomplete && row.plan == plan;
            let opened_before = rows.iter().filter(|row| !pending_of_plan(row)).count();
            Ok((account.email, customer, opened_before))
        })
        .await?;
    let customer = match customer {
        Some(customer) => customer,
        None => {
            // Scoped by the address too: an id freed by a deleted account is never handed
            // the old account's customer.
            let key = format!("setupiq-customer-{user_id}-{}", &tokens::digest(&email)[..16]);
            sale.client.create_customer(user_id, &email, &key).await?
        }
    };
    let key = format!("setupiq-subscribe-{customer}-{}-{opened_before}", plan.as_str());
    let opened = sale
        .client
        .create_subscription(&NewSubscription {
            customer: &customer,
            product: sale.product,
            unit_amount_cents: sale.price_cents,
            currency: CURRENCY,
            interval: plan.interval().as_str(),
            user_id,
            plan: plan.as_str(),
            idempotency_key: &key,
        })
        .await?;
    let checkout = opened.clone();
    let recorded = db
        .run(move |conn| {
            write_transaction(conn, |conn| {
                ledger::lock_account(conn, user_id)?;
                record_stripe_checkout(conn, &checkout, user_id, plan, now)
            })
        })
        .await?;
    match recorded {
        StripeCheckout::Started { replaced } => {
            for closed in replaced {
                close_at_stripe(sale.client, &closed).await;
            }
            Ok(StartedSubscription {
                subscription_id: opened.subscription.id,
                intent_id: opened.invoice_id,
                client_secret: opened.client_secret,
            })
        }
        StripeCheckout::Refused(refusal) => {
            let closed = ClosedCheckout {
                subscription_id: opened.subscription.id,
                invoice_id: Some(opened.invoice_id),
            };
            close_at_stripe(sale.client, &closed).await;
            Err(refusal)
        }
    }
}

/// What recording a checkout opened at Stripe came to.
enum StripeCheckout {
    /// It is the member's checkout; the ones it replaced are to close at Stripe.
    Started { replaced: Vec<ClosedCheckout> },
    /// The member became Pro meanwhile, or a newer checkout replaced this one (two tabs
    /// opened at once): it is closed.
    Refused(CreditsError),
}

/// Records a checkout opened at Stripe under the account's lock: the member's one, unless
/// they are Pro by now or it was replaced meanwhile.
fn record_stripe_checkout(
    conn: &mut DbConnection,
    opened: &OpenedSubscription,
    user_id: UserId,
    plan: Plan,
    now: DateTime<Utc>,
) -> Result<StripeCheckout, CreditsError> {
    let subscription = &opened.subscription;
    let rows = repo::subscriptions_of(conn, user_id)?;
    if rows.iter().any(|row| is_standing(row, now)) {
        return Ok(StripeCheckout::Refused(CreditsError::AlreadyPro));
    }
    match rows.iter().find(|row| row.id == subscription.id) {
        Some(row) if row.status == SubscriptionStatus::Voided => {
            return Ok(StripeCheckout::Refused(CreditsError::CheckoutReplaced));
        }
        Some(_) => {}
        None => insert_subscription(
            conn,
            &subscription.id,
            user_id,
            plan,
            ProviderKind::Stripe,
            Some(&subscription.customer),
            now,
        )?,
    }
    record_invoice(conn, &opened.invoice_id, &subscription.id, opened.amount_due, now)?;
    let replaced = void_other_checkouts(conn, user_id, Some(&subscription.id), now)?;
    Ok(StripeCheckout::Started { replaced })
}

/// Closes a checkout at Stripe: its invoice voided (it can no longer be paid), then its
/// subscription cancelled. An invoice paid meanwhile is left to its payment's arrival, which
/// refunds it. A failure is logged: the invoice stays open and Stripe expires the
/// subscription after a day; a payment made there before is refunded on arrival.
async fn close_at_stripe(client: &StripeProvider, closed: &ClosedCheckout) {
    let voided = match &closed.invoice_id {
        Some(invoice) => client.void_invoice(invoice).await,
        None => Ok(true),
    };
    let outcome = match voided {
        Ok(true) => client.cancel_subscription_now(&closed.subscription_id).await.map(drop),
        Ok(false) => Ok(()),
        Err(e) => Err(e),
    };
    match outcome {
        Ok(()) | Err(ProviderError::NotFound) => {}
        Err(e) => {
            tracing::warn!(error = %e, subscription_id = closed.subscription_id, "could not close a replaced checkout at Stripe")
        }
    }
}

fn is_paid_up(row: &SubscriptionRow, now: DateTime<Utc>) -> bool {
    row.status == SubscriptionStatus::Active && row.current_period_end.is_some_and(|end| end.and_utc() > now)
}

/// A payment for one period of a subscription.
struct PeriodPayment {
    plan: Plan,
    amount_cents: i64,
    provider: ProviderKind,
}

impl PeriodPayment {
    fn test_mode(plan: Plan, prices: ProPrices) -> Self {
        Self { plan, amount_cents: plan.price_cents(prices), provider: ProviderKind::TestMode }
    }
}

/// Records a period's payment under `reference` (a test intent, or a Stripe invoice), unpaid.
fn insert_period_payment(
    conn: &mut DbConnection,
    user_id: UserId,
    subscription_id: &str,
    payment: &PeriodPayment,
    reference: &str,
    now: DateTime<Utc>,
) -> Result<(), CreditsError> {
    repo::insert_payment(
        conn,
        &PaymentInsertForm {
            intent_id: reference,
            user_id,
            package_id: payment.plan.package_id(),
            credits: 0,
            amount_cents: payment.amount_cents,
            currency: CURRENCY,
            provider: payment.provider,
            status: PaymentStatus::RequiresPaymentMethod,
            created_at: now.naive_utc(),
            subscription_id: Some(subscription_id),
        },
    )?;
    Ok(())
}

/// Records a Stripe invoice of one of our subscriptions (its first, or a renewal Stripe
/// charged on its own) as a payment, unless it is recorded already; answers whether the
/// subscription is ours.
pub(crate) fn record_invoice(
    conn: &mut DbConnection,
    invoice_id: &str,
    subscription_id: &str,
    amount_cents: i64,
    now: DateTime<Utc>,
) -> Result<bool, CreditsError> {
    let Some(row) = repo::find_subscription(conn, subscription_id)? else { return Ok(false) };
    if repo::find_payment(conn, invoice_id)?.is_none() {
        let payment = PeriodPayment { plan: row.plan, amount_cents, provider: ProviderKind::Stripe };
        insert_period_payment(conn, row.user_id, &row.id, &payment, invoice_id, now)?;
    }
    Ok(true)
}

/// Applies a subscription's paid payment, once: a new period starts now, or where the paid
/// one ends when it is still running (a renewal), and the member is Pro. Called from
/// `purchases::fulfil` under the account's lock, inside its transaction.
///
/// `reported` is the subscription as Stripe reports it (a Stripe subscription's period and
/// status are Stripe's); a test-mode period is counted here.
pub(crate) fn pay_period(
    conn: &mut DbConnection,
    payment: &PaymentRow,
    subscription_id: &str,
    reported: Option<&BillingSubscription>,
    now: DateTime<Utc>,
) -> Result<Fulfilment, CreditsError> {
    let subscription =
        repo::find_subscription(conn, subscription_id)?.ok_or(CreditsError::PaymentNotFound)?;
    let newly_credited = payment.fulfilled_at.is_none();
    if newly_credited && let Some(unwanted) = unwanted_first_payment(conn, &subscription, now)? {
        refuse_first_payment(conn, &subscription, unwanted, now)?;
        return Ok(Fulfilment {
            credits_added: 0,
            new_balance: ledger::balance(conn, payment.user_id)?,
            newly_credited: false,
            pro_until: None,
            refused: Some(unwanted),
        });
    }
    let paid_until = subscription.current_period_end.map(|end| end.and_utc());
    let period_end = match reported {
        Some(reported) => {
            apply_reported(conn, reported, now)?;
            reported.current_period_end.or(paid_until)
        }
        None if newly_credited => {
            let start = paid_until.filter(|end| *end > now).unwrap_or(now);
            let end = subscription.plan.period_after(start);
            repo::set_subscription_state(
                conn,
                subscription_id,
                SubscriptionStatus::Active,
                Some(end.naive_utc()),
                subscription.cancel_at_period_end,
                now.naive_utc(),
            )?;
            refresh_subscribed(conn, payment.user_id, now)?;
            Some(end)
        }
        None => paid_until,
    };
    if newly_credited {
        repo::mark_payment_fulfilled(conn, &payment.intent_id, now.naive_utc())?;
        tracing::info!(subscription_id, user_id = payment.user_id.0, until = ?period_end, "Pro period paid");
    }
    Ok(Fulfilment {
        credits_added: 0,
        new_balance: ledger::balance(conn, payment.user_id)?,
        newly_credited,
        pro_until: period_end,
        refused: None,
    })
}

/// Why the first payment of a checkout is no longer wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnwantedPayment {
    /// A newer checkout replaced it.
    Replaced,
    /// The member is Pro by another subscription.
    AlreadyPro,
}

impl UnwantedPayment {
    /// What the member is told when it is refused before it is made.
    pub fn error(self) -> CreditsError {
        match self {
            Self::Replaced => CreditsError::CheckoutReplaced,
            Self::AlreadyPro => CreditsError::AlreadyPro,
        }
    }

    /// What the member is told when it arrived anyway, and is refunded.
    pub fn refunded(self) -> CreditsError {
        CreditsError::PaymentRefunded(match self {
            Self::Replaced => "This checkout was replaced by a newer one.",
            Self::AlreadyPro => "You are already a Pro member.",
        })
    }
}

/// Whether the first payment of `subscription` is unwanted: its checkout was voided, or
/// another subscription makes the member Pro. Renewals are always wanted.
fn unwanted_first_payment(
    conn: &mut DbConnection,
    subscription: &SubscriptionRow,
    now: DateTime<Utc>,
) -> Result<Option<UnwantedPayment>, CreditsError> {
    match subscription.status {
        SubscriptionStatus::Voided => Ok(Some(UnwantedPayment::Replaced)),
        SubscriptionStatus::Incomplete => {
            let pro_otherwise = repo::subscriptions_of(conn, subscription.user_id)?
                .iter()
                .any(|row| row.id != subscription.id && is_standing(row, now));
            Ok(pro_otherwise.then_some(UnwantedPayment::AlreadyPro))
        }
        _ => Ok(None),
    }
}

/// Refuses a first payment that arrived anyway: the checkout is voided and its payment is
/// due to be refunded ([`refund_due`]); a payment refunded already stays so.
fn refuse_first_payment(
    conn: &mut DbConnection,
    subscription: &SubscriptionRow,
    unwanted: UnwantedPayment,
    now: DateTime<Utc>,
) -> Result<(), CreditsError> {
    repo::set_subscription_state(
        conn,
        &subscription.id,
        SubscriptionStatus::Voided,
        None,
        false,
        now.naive_utc(),
    )?;
    if let Some(payment) = repo::open_payment_of_subscription(conn, &subscription.id)?
        && !matches!(payment.status, PaymentStatus::RefundDue | PaymentStatus::Refunded)
    {
        let why = unwanted.refunded().to_string();
        repo::set_payment_status(conn, &payment.intent_id, PaymentStatus::RefundDue, Some(&why))?;
        tracing::warn!(
            reference = payment.intent_id,
            user_id = subscription.user_id.0,
            ?unwanted,
            "first payment of a Pro checkout refused: to be refunded"
        );
    }
    Ok(())
}

/// Whether a checkout was voided (replaced by a newer one, or refused).
pub(crate) fn is_replaced(conn: &mut DbConnection, subscription_id: &str) -> Result<bool, CreditsError> {
    Ok(repo::find_subscription(conn, subscription_id)?
        .is_some_and(|row| row.status == SubscriptionStatus::Voided))
}

/// Refuses a test-mode payment of a Pro checkout before it is made, when it is no longer
/// wanted. Called with the account locked, before the card is "charged".
pub(crate) fn refuse_unwanted_test_payment(
    conn: &mut DbConnection,
    subscription_id: &str,
    now: DateTime<Utc>,
) -> Result<(), CreditsError> {
    let subscription =
        repo::find_subscription(conn, subscription_id)?.ok_or(CreditsError::PaymentNotFound)?;
    match unwanted_first_payment(conn, &subscription, now)? {
        Some(unwanted) => Err(unwanted.error()),
        None => Ok(()),
    }
}

/// Refunds every payment due a refund: at Stripe, the invoice's payment (once, by its
/// idempotency key) and then its subscription ends; a test-mode one is only marked. A
/// payment Stripe cannot refund now stays due and is tried again by the minute's
/// [`settle`].
pub async fn refund_due(ctx: &AppCtx, provider: &PaymentProvider) -> Result<(), CreditsError> {
    let AppCtx { db, .. } = ctx;
    let due = db.run(|conn| Ok::<_, CreditsError>(repo::payments_due_refund(conn)?)).await?;
    for payment in due {
        let outcome = match (provider, payment.provider) {
            (PaymentProvider::Stripe { client, .. }, ProviderKind::Stripe) => {
                refund_at_stripe(client, &payment).await
            }
            (_, ProviderKind::TestMode) => Ok(PaymentStatus::Refunded),
            // A Stripe payment while the deployment runs without Stripe: left for later.
            (PaymentProvider::TestMode, ProviderKind::Stripe) => continue,
        };
        match outcome {
            Ok(status) => {
                let reference = payment.intent_id.clone();
                db.run(move |conn| {
                    Ok::<_, CreditsError>(repo::set_payment_status(
                        conn,
                        &reference,
                        status,
                        payment.last_error.as_deref(),
                    )?)
                })
                .await?;
                tracing::info!(
                    reference = payment.intent_id,
                    status = status.as_str(),
                    "unwanted Pro payment settled"
                );
            }
            Err(e) => {
                tracing::warn!(error = %e, reference = payment.intent_id, "could not refund a payment at Stripe")
            }
        }
    }
    Ok(())
}

/// Refunds a paid invoice at Stripe and ends its subscription; answers the payment's status
/// after it (`refunded`, or `canceled` when nothing had been paid).
async fn refund_at_stripe(
    client: &StripeProvider,
    payment: &PaymentRow,
) -> Result<PaymentStatus, ProviderError> {
    let key = format!("setupiq-refund-{}", payment.intent_id);
    let refunded = client.refund_invoice(&payment.intent_id, &key).await?;
    if let Some(subscription_id) = &payment.subscription_id {
        match client.cancel_subscription_now(subscription_id).await {
            Ok(_) | Err(ProviderError::NotFound) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(if refunded { PaymentStatus::Refunded } else { PaymentStatus::Canceled })
}

/// Cancels the member's subscription at the end of the paid period: Pro stays until then.
pub async fn cancel(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    user_id: UserId,
) -> Result<Subscription, CreditsError> {
    let AppCtx { db, clock, .. } = ctx;
    set_cancel_at_period_end(db, provider, clock, user_id, true).await
}

/// Takes back a cancel before the paid period ends: the subscription renews as before.
pub async fn resume(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    user_id: UserId,
) -> Result<Subscription, CreditsError> {
    let AppCtx { db, clock, .. } = ctx;
    set_cancel_at_period_end(db, provider, clock, user_id, false).await
}

/// Sets the cancel flag of the member's running subscriptions (one; several only from before
/// a member could hold just one): at Stripe first for a Stripe one (then kept as Stripe
/// answers it), here alone for a test-mode one. Answers the newest.
async fn set_cancel_at_period_end(
    db: &Db,
    provider: &PaymentProvider,
    clock: &SharedClock,
    user_id: UserId,
    cancel: bool,
) -> Result<Subscription, CreditsError> {
    let now = clock.now();
    let running = db
        .run(move |conn| {
            let running: Vec<SubscriptionRow> = repo::subscriptions_of(conn, user_id)?
                .into_iter()
                .filter(|row| is_standing(row, now))
                .collect();
            for row in running.iter().filter(|row| row.provider == ProviderKind::TestMode) {
                repo::set_subscription_state(
                    conn,
                    &row.id,
                    row.status,
                    row.current_period_end,
                    cancel,
                    now.naive_utc(),
                )?;
            }
            Ok::<_, CreditsError>(running)
        })
        .await?;
    let newest = running.first().map(|row| row.id.clone()).ok_or(CreditsError::NoSubscription)?;
    for row in running.iter().filter(|row| row.provider == ProviderKind::Stripe) {
        let PaymentProvider::Stripe { client, .. } = provider else {
            return Err(CreditsError::SubscriptionsUnavailable);
        };
        let reported = client.set_cancel_at_period_end(&row.id, cancel).await?;
        db.run(move |conn| apply_reported(conn, &reported, now)).await?;
    }
    db.run(move |conn| {
        repo::find_subscription(conn, &newest)?.map(Subscription::from).ok_or(CreditsError::NoSubscription)
    })
    .await
}

/// Ends the member's Stripe subscriptions at once, before their account is deleted, so that
/// Stripe charges no one for an account that no longer exists. Fails (and the deletion with
/// it) while Stripe cannot be reached.
pub async fn end_before_deletion(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    user_id: UserId,
) -> Result<(), CreditsError> {
    let AppCtx { db, clock, .. } = ctx;
    let now = clock.now();
    let running = db
        .run(move |conn| {
            Ok::<_, CreditsError>(
                repo::subscriptions_of(conn, user_id)?
                    .into_iter()
                    .filter(|row| {
                        row.provider == ProviderKind::Stripe && row.status != SubscriptionStatus::Canceled
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .await?;
    let PaymentProvider::Stripe { client, .. } = provider else { return Ok(()) };
    for row in running {
        match client.cancel_subscription_now(&row.id).await {
            Ok(reported) => db.run(move |conn| apply_reported(conn, &reported, now)).await?,
            // Gone at Stripe already (an incomplete one that expired and was purged).
            Err(crate::payments::ProviderError::NotFound) => {}
            Err(other) => return Err(other.into()),
        }
    }
    Ok(())
}

/// Ends or renews every test-mode subscription (of `user_id`, or of everyone) whose paid
/// period is over at `now`; answers the references of the renewal payments made, whose
/// receipts the caller mails.
pub fn settle_due(
    conn: &mut DbConnection,
    user_id: Option<UserId>,
    prices: ProPrices,
    now: DateTime<Utc>,
) -> Result<Vec<String>, CreditsError> {
    let mut renewals = Vec::new();
    for due in repo::subscriptions_due(conn, user_id, now.naive_utc())? {
        write_transaction(conn, |conn| {
            ledger::lock_account(conn, due.user_id)?;
            // Read again under the lock: another settler may have been first.
            let Some(row) = repo::find_subscription(conn, &due.id)?.filter(|row| !is_paid_up(row, now))
            else {
                return Ok(());
            };
            if row.status != SubscriptionStatus::Active {
                return Ok(());
            }
            if row.cancel_at_period_end {
                repo::set_subscription_state(
                    conn,
                    &row.id,
                    SubscriptionStatus::Canceled,
                    row.current_period_end,
                    row.cancel_at_period_end,
                    now.naive_utc(),
                )?;
                refresh_subscribed(conn, row.user_id, now)?;
                tracing::info!(subscription_id = row.id, user_id = row.user_id.0, "Pro subscription ended");
                return Ok(());
            }
            // Test mode: the stored test card pays each period that is over, at its start.
            let mut end = row.current_period_end.map_or(now, |end| end.and_utc());
            while end <= now {
                let intent = test_mode::new_intent();
                let period = PeriodPayment::test_mode(row.plan, prices);
                insert_period_payment(conn, row.user_id, &row.id, &period, &intent.id, end)?;
                repo::set_payment_status(conn, &intent.id, PaymentStatus::Succeeded, None)?;
                let payment = repo::find_payment(conn, &intent.id)?.ok_or(CreditsError::PaymentNotFound)?;
                let paid = pay_period(conn, &payment, &row.id, None, end)?;
                end = paid.pro_until.unwrap_or(now);
                renewals.push(intent.id);
            }
            Ok::<_, CreditsError>(())
        })?;
    }
    Ok(renewals)
}

/// How long after a Stripe period's end, without word from Stripe, the subscription is
/// looked up there (a lost webhook must not leave a member Pro, or not Pro, for good).
pub const STRIPE_SILENCE: Duration = Duration::hours(2);

/// [`settle_due`] over the pool, mailing each renewal's receipt (the gateway's minute sweep,
/// and a member's own look at their membership); Stripe subscriptions whose period ended
/// [`STRIPE_SILENCE`] ago without a webhook are read again from Stripe.
pub async fn settle(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    user_id: Option<UserId>,
) -> Result<(), CreditsError> {
    let AppCtx { db, clock, config, .. } = ctx;
    let (now, prices) = (clock.now(), config.pro_prices);
    let renewals = db.run(move |conn| settle_due(conn, user_id, prices, now)).await?;
    for reference in renewals {
        receipts::mail(ctx, reference).await;
    }
    refund_due(ctx, provider).await?;
    let PaymentProvider::Stripe { client, .. } = provider else { return Ok(()) };
    let before = (now - STRIPE_SILENCE).naive_utc();
    let silent = db
        .run(move |conn| {
            Ok::<_, CreditsError>(repo::stripe_subscriptions_silent_since(conn, user_id, before)?)
        })
        .await?;
    for id in silent {
        match client.retrieve_subscription(&id).await {
            Ok(reported) => db.run(move |conn| apply_reported(conn, &reported, now)).await?,
            Err(e) => {
                tracing::warn!(error = %e, subscription_id = id, "could not read a Stripe subscription")
            }
        }
    }
    Ok(())
}

/// The e-mail sent when Stripe could not charge a renewal: Pro stays while Stripe tries the
/// card again; updating it keeps Pro, and nothing needs doing to let it end.
pub fn failed_renewal_email(config: &Config, to: &str, plan: Plan) -> OutgoingEmail {
    let link = config.public_link("/profile");
    OutgoingEmail {
        to: to.to_owned(),
        subject: "We could not renew your SetupIQ Pro".to_owned(),
        text: format!(
            "Hi,\r\n\r\nThe payment for the renewal of {} did not go through: your card was \r\n\
             declined or has expired. You stay Pro while we try your card again over the next \r\n\
             days; if every attempt fails, your membership ends and nothing more is charged.\r\n\r\n\
             To keep Pro, make sure your card can be charged. Your membership and payments are on \r\n\
             your profile:\r\n\r\n{link}\r\n\r\n-- SetupIQ\r\n",
            plan.name(),
        ),
        reply_to: None,
        unsubscribe: None,
    }
}

/// Mails [`failed_renewal_email`] to the member of a Stripe subscription; a mail failure is
/// logged.
pub async fn mail_failed_renewal(ctx: &AppCtx, subscription_id: String) {
    let AppCtx { db, mailer, config, .. } = ctx;
    let found = db
        .run(move |conn| {
            let Some(row) = repo::find_subscription(conn, &subscription_id)? else { return Ok(None) };
            let email = accounts::find(conn, row.user_id)?.map(|account| account.email);
            Ok::<_, CreditsError>(email.map(|email| (email, row.plan)))
        })
        .await;
    match found {
        Ok(Some((email, plan))) => {
            if let Err(e) = mailer.send(failed_renewal_email(config, &email, plan)).await {
                tracing::error!(error = %e, "could not send the failed-renewal e-mail");
            }
        }
        Ok(None) => {}
        Err(e) => {
            tracing::error!(error = %e, "could not read the subscription to send the failed-renewal e-mail")
        }
    }
}

/// The member's subscriptions, newest first, for their data export (`subscriptions`).
pub fn export_subscriptions(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let all: Vec<crate::dto::SubscriptionDto> = repo::subscriptions_of(conn, user_id)?
        .into_iter()
        .map(|row| Subscription::from(row).into())
        .collect();
    Section::new("subscriptions", &all)
}
