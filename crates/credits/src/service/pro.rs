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
//! Without a Stripe key everything runs in the test mode. With one, subscriptions are not
//! offered yet ([`CreditsError::SubscriptionsUnavailable`]): Stripe Billing is the next step.
//!
//! [`purchases::fulfil`]: super::purchases

use chrono::{DateTime, Months, Utc};
use serde::{Deserialize, Serialize};
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_auth::service::{accounts, ledger};
use setupiq_core::SharedClock;
use setupiq_core::config::ProPrices;
use setupiq_db::{Db, DbConnection, write_transaction};

use crate::error::CreditsError;
use crate::models::{PaymentInsertForm, PaymentRow, SubscriptionInsertForm, SubscriptionRow};
use crate::payments::{PaymentStatus, ProviderKind, test_mode};
use crate::repo;
use crate::service::packs::CURRENCY;
use crate::service::purchases::{Fulfilment, PaymentProvider, Receipts};
use crate::service::receipts;

setupiq_db::text_enum! {
    /// A Pro plan: how long each paid period lasts.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Plan {
        Monthly = "monthly",
        Yearly = "yearly",
    }
}

setupiq_db::text_enum! {
    /// Where a subscription stands (Stripe's names): `incomplete` until its first period is
    /// paid, `active` while paid up, `canceled` once it ended.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum SubscriptionStatus {
        Incomplete = "incomplete",
        Active = "active",
        PastDue = "past_due",
        Canceled = "canceled",
    }
}

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
pub fn membership(conn: &mut DbConnection, user_id: i64) -> Result<Membership, CreditsError> {
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
    db: &Db,
    provider: &PaymentProvider,
    clock: &SharedClock,
    prices: ProPrices,
    user_id: i64,
    plan: Plan,
) -> Result<StartedSubscription, CreditsError> {
    if !provider.is_test_mode() {
        return Err(CreditsError::SubscriptionsUnavailable);
    }
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
                },
            )?;
            let intent = test_mode::new_intent();
            insert_period_payment(conn, user_id, &subscription_id, plan, prices, &intent.id, now)?;
            Ok(StartedSubscription {
                subscription_id,
                intent_id: intent.id,
                client_secret: intent.client_secret,
            })
        })
    })
    .await
}

fn is_paid_up(row: &SubscriptionRow, now: DateTime<Utc>) -> bool {
    row.status == SubscriptionStatus::Active && row.current_period_end.is_some_and(|end| end.and_utc() > now)
}

fn insert_period_payment(
    conn: &mut DbConnection,
    user_id: i64,
    subscription_id: &str,
    plan: Plan,
    prices: ProPrices,
    intent_id: &str,
    now: DateTime<Utc>,
) -> Result<(), CreditsError> {
    repo::insert_payment(
        conn,
        &PaymentInsertForm {
            intent_id,
            user_id,
            package_id: plan.package_id(),
            credits: 0,
            amount_cents: plan.price_cents(prices),
            currency: CURRENCY,
            provider: ProviderKind::TestMode,
            status: PaymentStatus::RequiresPaymentMethod,
            created_at: now.naive_utc(),
            subscription_id: Some(subscription_id),
        },
    )?;
    Ok(())
}

/// Applies a subscription's paid payment, once: a new period starts now, or where the paid
/// one ends when it is still running (a renewal), and the member is Pro. Called from
/// `purchases::fulfil` under the account's lock, inside its transaction.
pub(crate) fn pay_period(
    conn: &mut DbConnection,
    payment: &PaymentRow,
    subscription_id: &str,
    now: DateTime<Utc>,
) -> Result<Fulfilment, CreditsError> {
    let subscription =
        repo::find_subscription(conn, subscription_id)?.ok_or(CreditsError::PaymentNotFound)?;
    let newly_credited = payment.fulfilled_at.is_none();
    let period_end = if newly_credited {
        let start =
            subscription.current_period_end.map(|end| end.and_utc()).filter(|end| *end > now).unwrap_or(now);
        let end = subscription.plan.period_after(start);
        repo::set_subscription_state(
            conn,
            subscription_id,
            SubscriptionStatus::Active,
            Some(end.naive_utc()),
            subscription.cancel_at_period_end,
            now.naive_utc(),
        )?;
        accounts::set_subscribed(conn, payment.user_id, true, now)?;
        repo::mark_payment_fulfilled(conn, &payment.intent_id, now.naive_utc())?;
        tracing::info!(subscription_id, user_id = payment.user_id, until = %end, "Pro period paid");
        Some(end)
    } else {
        subscription.current_period_end.map(|end| end.and_utc())
    };
    Ok(Fulfilment {
        credits_added: 0,
        new_balance: ledger::balance(conn, payment.user_id)?,
        newly_credited,
        pro_until: period_end,
    })
}

/// Cancels the member's subscription at the end of the paid period: Pro stays until then.
pub fn cancel(
    conn: &mut DbConnection,
    user_id: i64,
    now: DateTime<Utc>,
) -> Result<Subscription, CreditsError> {
    set_cancel_at_period_end(conn, user_id, true, now)
}

/// Takes back a cancel before the paid period ends: the subscription renews as before.
pub fn resume(
    conn: &mut DbConnection,
    user_id: i64,
    now: DateTime<Utc>,
) -> Result<Subscription, CreditsError> {
    set_cancel_at_period_end(conn, user_id, false, now)
}

fn set_cancel_at_period_end(
    conn: &mut DbConnection,
    user_id: i64,
    cancel: bool,
    now: DateTime<Utc>,
) -> Result<Subscription, CreditsError> {
    write_transaction(conn, |conn| {
        ledger::lock_account(conn, user_id)?;
        let row = repo::latest_subscription_of(conn, user_id)?
            .filter(|row| is_paid_up(row, now))
            .ok_or(CreditsError::NoSubscription)?;
        repo::set_subscription_state(
            conn,
            &row.id,
            row.status,
            row.current_period_end,
            cancel,
            now.naive_utc(),
        )?;
        Ok(Subscription { cancel_at_period_end: cancel, ..row.into() })
    })
}

/// Ends or renews every subscription (of `user_id`, or of everyone) whose paid period is
/// over at `now`; answers the references of the renewal payments made, whose receipts the
/// caller mails.
pub fn settle_due(
    conn: &mut DbConnection,
    user_id: Option<i64>,
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
            if row.cancel_at_period_end || row.provider != ProviderKind::TestMode {
                // Stripe renews on its own and says so by webhook; until that path exists,
                // an unpaid Stripe period ends like a cancelled one.
                repo::set_subscription_state(
                    conn,
                    &row.id,
                    SubscriptionStatus::Canceled,
                    row.current_period_end,
                    row.cancel_at_period_end,
                    now.naive_utc(),
                )?;
                accounts::set_subscribed(conn, row.user_id, false, now)?;
                tracing::info!(subscription_id = row.id, user_id = row.user_id, "Pro subscription ended");
                return Ok(());
            }
            // Test mode: the stored test card pays each period that is over, at its start.
            let mut end = row.current_period_end.map_or(now, |end| end.and_utc());
            while end <= now {
                let intent = test_mode::new_intent();
                insert_period_payment(conn, row.user_id, &row.id, row.plan, prices, &intent.id, end)?;
                repo::set_payment_status(conn, &intent.id, PaymentStatus::Succeeded, None)?;
                let payment = repo::find_payment(conn, &intent.id)?.ok_or(CreditsError::PaymentNotFound)?;
                let paid = pay_period(conn, &payment, &row.id, end)?;
                end = paid.pro_until.unwrap_or(now);
                renewals.push(intent.id);
            }
            Ok::<_, CreditsError>(())
        })?;
    }
    Ok(renewals)
}

/// [`settle_due`] over the pool, mailing each renewal's receipt (the gateway's minute sweep,
/// and a member's own look at their membership).
pub async fn settle(
    db: &Db,
    clock: &SharedClock,
    receipts: Receipts<'_>,
    user_id: Option<i64>,
) -> Result<(), CreditsError> {
    let (clock, prices) = (clock.clone(), receipts.config.pro_prices);
    let renewals = db.run(move |conn| settle_due(conn, user_id, prices, clock.now())).await?;
    for reference in renewals {
        receipts::mail(db, receipts.mailer, receipts.config, reference).await;
    }
    Ok(())
}

/// The member's subscriptions, newest first, for their data export (`subscriptions`).
pub fn export_subscriptions(conn: &mut DbConnection, user_id: i64) -> Result<Section, SectionError> {
    let all: Vec<crate::dto::SubscriptionDto> = repo::subscriptions_of(conn, user_id)?
        .into_iter()
        .map(|row| Subscription::from(row).into())
        .collect();
    Section::new("subscriptions", &all)
}
