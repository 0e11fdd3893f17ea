//! Pro by subscription: a monthly or yearly plan, paid up front for each period.
//!
//! A subscription starts *incomplete* with an unpaid payment for its first period; paying it
//! (the card form, then `confirm-payment`, as for a pack) goes through
//! [`purchases::fulfil`], which hands a subscription's payment to [`pay_period`]: the
//! period starts (or, for a renewal, follows the one paid before), the subscription is
//! *active* and the member Pro (`auth::accounts::set_subscribed`). Every payment is
//! credited once, whoever reports it first.
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
use crate::payments::billing::{BillingSubscription, NewSubscription};
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

    /// `month` or `year`.
    pub fn interval(self) -> &'static str {
        match self {
            Plan::Monthly => "month",
            Plan::Yearly => "year",
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
    let subscription = repo::latest_subscription_of(conn, user_id)?
        .filter(|row| row.status != SubscriptionStatus::Incomplete)
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
/// paid (a double click, the dialog opened again), the same plan answers the same payment.
/// Refused while the member is already subscribed (a cancelled one resumes instead).
pub async fn subscribe(
    ctx: &AppCtx,
    provider: &PaymentProvider,
    user_id: UserId,
    plan: Plan,
) -> Result<StartedSubscription, CreditsError> {
    let AppCtx { db, clock, config, .. } = ctx;
    let prices = config.pro_prices;
    match provider {
        PaymentProvider::TestMode => subscribe_in_test_mode(db, clock, prices, user_id, plan).await,
        PaymentProvider::Stripe { pro_product: None, .. } => Err(CreditsError::SubscriptionsUnavailable),
        PaymentProvider::Stripe { client, pro_product: Some(product), .. } => {
            let sale = StripeSale { client, product, price_cents: plan.price_cents(prices) };
            subscribe_with_stripe(db, &sale, clock, user_id, plan).await
        }
    }
}

async fn subscribe_in_test_mode(
    db: &Db,
    clock: &SharedClock,
    prices: ProPrices,
    user_id: UserId,
    plan: Plan,
) -> Result<StartedSubscription, CreditsError> {
    let clock = clock.clone();
    db.run(move |conn| {
        let now = clock.now();
        write_transaction(conn, |conn| {
            ledger::lock_account(conn, user_id)?;
            if let Some(latest) = repo::latest_subscription_of(conn, user_id)? {
                if is_paid_up(&latest, now) {
                    return Err(CreditsError::AlreadyPro);
                }
                if latest.status == SubscriptionStatus::Incomplete
                    && latest.plan == plan
                    && let Some(open) = repo::open_payment_of_subscription(conn, &latest.id)?
                {
                    let again = test_mode::secret_for(&open.intent_id);
                    return Ok(StartedSubscription {
                        subscription_id: latest.id,
                        intent_id: open.intent_id,
                        client_secret: again,
                    });
                }
            }
            let subscription_id = format!("sub_test_{}", uuid::Uuid::new_v4().simple());
            repo::insert_subscription(
                conn,
                &SubscriptionInsertForm {
                    id: &subscription_id,
                    user_id,
                    plan,
                    provider: ProviderKind::TestMode,
                    status: SubscriptionStatus::Incomplete,
                    created_at: now.naive_utc(),
                    updated_at: now.naive_utc(),
                    customer_id: None,
                },
            )?;
            let intent = test_mode::new_intent();
            let payment = PeriodPayment::test_mode(plan, prices);
            insert_period_payment(conn, user_id, &subscription_id, &payment, &intent.id, now)?;
            Ok(StartedSubscription {
                subscription_id,
                intent_id: intent.id,
                client_secret: intent.client_secret,
            })
        })
    })
    .await
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
/// gets the same subscription back.
async fn subscribe_with_stripe(
    db: &Db,
    sale: &StripeSale<'_>,
    clock: &SharedClock,
    user_id: UserId,
    plan: Plan,
) -> Result<StartedSubscription, CreditsError> {
    let now = clock.now();
    let (email, customer, paid_before) = db
        .run(move |conn| {
            let account = accounts::find(conn, user_id)?.ok_or(CreditsError::NoSubscription)?;
            let rows = repo::subscriptions_of(conn, user_id)?;
            if rows.iter().any(|row| is_standing(row, now)) {
                return Err(CreditsError::AlreadyPro);
            }
            let customer = rows.iter().find_map(|row| row.customer_id.clone());
            let paid_before = rows.iter().filter(|row| row.status != SubscriptionStatus::Incomplete).count();
            Ok((account.email, customer, paid_before))
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
    let key = format!("setupiq-subscribe-{customer}-{}-{paid_before}", plan.as_str());
    let opened = sale
        .client
        .create_subscription(&NewSubscription {
            customer: &customer,
            product: sale.product,
            unit_amount_cents: sale.price_cents,
            currency: CURRENCY,
            interval: plan.interval(),
            user_id,
            plan: plan.as_str(),
            idempotency_key: &key,
        })
        .await?;
    db.run(move |conn| {
        write_transaction(conn, |conn| {
            ledger::lock_account(conn, user_id)?;
            let subscription = &opened.subscription;
            if repo::find_subscription(conn, &subscription.id)?.is_none() {
                repo::insert_subscription(
                    conn,
                    &SubscriptionInsertForm {
                        id: &subscription.id,
                        user_id,
                        plan,
                        provider: ProviderKind::Stripe,
                        status: SubscriptionStatus::from_stripe(&subscription.status),
                        created_at: now.naive_utc(),
                        updated_at: now.naive_utc(),
                        customer_id: Some(&subscription.customer),
                    },
                )?;
            }
            record_invoice(conn, &opened.invoice_id, &subscription.id, opened.amount_due, now)?;
            Ok(StartedSubscription {
                subscription_id: opened.subscription.id.clone(),
                intent_id: opened.invoice_id.clone(),
                client_secret: opened.client_secret.clone(),
            })
        })
    })
    .await
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
    })
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

/// Sets the cancel flag of the member's running subscription: at Stripe first for a Stripe
/// one (then kept as Stripe answers it), here alone for a test-mode one.
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
            let row = repo::latest_subscription_of(conn, user_id)?
                .filter(|row| is_standing(row, now))
                .ok_or(CreditsError::NoSubscription)?;
            if row.provider == ProviderKind::TestMode {
                repo::set_subscription_state(
                    conn,
                    &row.id,
                    row.status,
                    row.current_period_end,
                    cancel,
                    now.naive_utc(),
                )?;
            }
            Ok::<_, CreditsError>(row)
        })
        .await?;
    if running.provider == ProviderKind::TestMode {
        return Ok(Subscription { cancel_at_period_end: cancel, ..running.into() });
    }
    let PaymentProvider::Stripe { client, .. } = provider else {
        return Err(CreditsError::SubscriptionsUnavailable);
    };
    let reported = client.set_cancel_at_period_end(&running.id, cancel).await?;
    let id = running.id.clone();
    db.run(move |conn| {
        apply_reported(conn, &reported, now)?;
        repo::find_subscription(conn, &id)?.map(Subscription::from).ok_or(CreditsError::NoSubscription)
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
