//! The credits crate's queries.

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{AdViewId, UserId};
use setupiq_db::schema::{ad_views, payments, subscriptions, webhook_events};
use setupiq_db::{DbConnection, on_backend};

use crate::models::SubscriptionStatus;
use crate::models::{
    AdViewInsertForm, AdViewRow, PaymentInsertForm, PaymentRow, SubscriptionInsertForm, SubscriptionRow,
    WebhookEventInsertForm,
};
use crate::payments::{PaymentStatus, ProviderKind};

pub(crate) fn insert_ad_view(conn: &mut DbConnection, form: &AdViewInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(ad_views::table).values(form).execute(conn)
}

pub(crate) fn find_ad_view(conn: &mut DbConnection, token_hash: &str) -> QueryResult<Option<AdViewRow>> {
    ad_views::table
        .filter(ad_views::token_hash.eq(token_hash))
        .select(AdViewRow::as_select())
        .first(conn)
        .optional()
}

/// Marks an ad counted, once: 0 when it already was (a concurrent claim).
pub(crate) fn claim_ad_view(conn: &mut DbConnection, id: AdViewId, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(ad_views::table.find(id).filter(ad_views::claimed_at.is_null()))
        .set(ad_views::claimed_at.eq(now))
        .execute(conn)
}

/// Ads of a user counted in `[from, to)`.
pub(crate) fn count_claimed_between(
    conn: &mut DbConnection,
    user_id: UserId,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<i64> {
    ad_views::table
        .filter(ad_views::user_id.eq(user_id))
        .filter(ad_views::claimed_at.ge(from))
        .filter(ad_views::claimed_at.lt(to))
        .select(count_star())
        .first(conn)
}

/// Ends the user's ads not claimed yet: their tokens count for nothing any more.
pub(crate) fn end_unclaimed_ad_views(conn: &mut DbConnection, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(
        ad_views::table.filter(ad_views::user_id.eq(user_id)).filter(ad_views::claimed_at.is_null()),
    )
    .execute(conn)
}

pub(crate) fn insert_payment(conn: &mut DbConnection, form: &PaymentInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(payments::table).values(form).execute(conn)
}

/// Marks the buyer's first confirmation of a payment; 1 for the first, 0 for a repeat.
pub(crate) fn mark_payment_confirmed(
    conn: &mut DbConnection,
    intent_id: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(payments::table.find(intent_id).filter(payments::confirmed_at.is_null()))
        .set(payments::confirmed_at.eq(now))
        .execute(conn)
}

/// How many of the user's purchases were credited.
pub(crate) fn count_fulfilled_payments(conn: &mut DbConnection, user_id: UserId) -> QueryResult<i64> {
    payments::table
        .filter(payments::user_id.eq(user_id))
        .filter(payments::fulfilled_at.is_not_null())
        .select(count_star())
        .first(conn)
}

pub(crate) fn find_payment(conn: &mut DbConnection, intent_id: &str) -> QueryResult<Option<PaymentRow>> {
    payments::table.find(intent_id).select(PaymentRow::as_select()).first(conn).optional()
}

/// The user's payments, newest first.
pub(crate) fn payments_of_user(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<PaymentRow>> {
    payments::table
        .filter(payments::user_id.eq(user_id))
        .order(payments::created_at.desc())
        .select(PaymentRow::as_select())
        .load(conn)
}

pub(crate) fn set_payment_status(
    conn: &mut DbConnection,
    intent_id: &str,
    status: PaymentStatus,
    last_error: Option<&str>,
) -> QueryResult<usize> {
    diesel::update(payments::table.find(intent_id))
        .set((payments::status.eq(status), payments::last_error.eq(last_error)))
        .execute(conn)
}

pub(crate) fn mark_payment_fulfilled(
    conn: &mut DbConnection,
    intent_id: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(payments::table.find(intent_id).filter(payments::fulfilled_at.is_null()))
        .set((payments::fulfilled_at.eq(now), payments::status.eq(PaymentStatus::Succeeded)))
        .execute(conn)
}

/// Records a webhook event; false when it was already recorded (a redelivery). An upsert
/// that does nothing on conflict, so a duplicate does not abort the transaction.
pub(crate) fn record_webhook_event(
    conn: &mut DbConnection,
    form: &WebhookEventInsertForm<'_>,
) -> QueryResult<bool> {
    let inserted = on_backend!(conn, |c| diesel::insert_into(webhook_events::table)
        .values(form)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(inserted == 1)
}

// --- subscriptions ---------------------------------------------------------------------

pub(crate) fn insert_subscription(
    conn: &mut DbConnection,
    form: &SubscriptionInsertForm<'_>,
) -> QueryResult<usize> {
    diesel::insert_into(subscriptions::table).values(form).execute(conn)
}

pub(crate) fn find_subscription(conn: &mut DbConnection, id: &str) -> QueryResult<Option<SubscriptionRow>> {
    subscriptions::table.find(id).select(SubscriptionRow::as_select()).first(conn).optional()
}

/// Every subscription of the user, newest first.
pub(crate) fn subscriptions_of(
    conn: &mut DbConnection,
    user_id: UserId,
) -> QueryResult<Vec<SubscriptionRow>> {
    subscriptions::table
        .filter(subscriptions::user_id.eq(user_id))
        .order((subscriptions::created_at.desc(), subscriptions::id.desc()))
        .select(SubscriptionRow::as_select())
        .load(conn)
}

/// Active test-mode subscriptions whose paid period is over at `now` (of one user, or of
/// everyone). Stripe renews its own and says so by webhook (see
/// [`stripe_subscriptions_silent_since`]).
pub(crate) fn subscriptions_due(
    conn: &mut DbConnection,
    user_id: Option<UserId>,
    now: NaiveDateTime,
) -> QueryResult<Vec<SubscriptionRow>> {
    let mut query = subscriptions::table
        .filter(subscriptions::provider.eq(ProviderKind::TestMode))
        .filter(subscriptions::status.eq(SubscriptionStatus::Active))
        .filter(subscriptions::current_period_end.le(now))
        .select(SubscriptionRow::as_select())
        .into_boxed();
    if let Some(user_id) = user_id {
        query = query.filter(subscriptions::user_id.eq(user_id));
    }
    query.load(conn)
}

/// Stripe subscriptions Stripe still keeps going whose period ended before `before` (of one
/// user, or of everyone): no renewal or end was heard of since.
pub(crate) fn stripe_subscriptions_silent_since(
    conn: &mut DbConnection,
    user_id: Option<UserId>,
    before: NaiveDateTime,
) -> QueryResult<Vec<String>> {
    let mut query = subscriptions::table
        .filter(subscriptions::provider.eq(ProviderKind::Stripe))
        .filter(subscriptions::status.eq_any([SubscriptionStatus::Active, SubscriptionStatus::PastDue]))
        .filter(subscriptions::current_period_end.le(before))
        .select(subscriptions::id)
        .into_boxed();
    if let Some(user_id) = user_id {
        query = query.filter(subscriptions::user_id.eq(user_id));
    }
    query.load(conn)
}

/// Writes a subscription's state as its provider reports it.
pub(crate) fn set_subscription_state(
    conn: &mut DbConnection,
    id: &str,
    status: SubscriptionStatus,
    current_period_end: Option<NaiveDateTime>,
    cancel_at_period_end: bool,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(subscriptions::table.find(id))
        .set((
            subscriptions::status.eq(status),
            subscriptions::current_period_end.eq(current_period_end),
            subscriptions::cancel_at_period_end.eq(cancel_at_period_end),
            subscriptions::updated_at.eq(now),
        ))
        .execute(conn)
}

/// Gives up a subscription's payments that were never paid (a checkout replaced by a newer
/// one): `canceled`, with why.
pub(crate) fn cancel_unpaid_payments_of_subscription(
    conn: &mut DbConnection,
    id: &str,
    reason: &str,
) -> QueryResult<usize> {
    diesel::update(
        payments::table
            .filter(payments::subscription_id.eq(id))
            .filter(payments::fulfilled_at.is_null())
            .filter(payments::status.ne(PaymentStatus::Succeeded)),
    )
    .set((payments::status.eq(PaymentStatus::Canceled), payments::last_error.eq(reason)))
    .execute(conn)
}

/// Payments to refund (a first payment of Pro that was no longer wanted), oldest first.
pub(crate) fn payments_due_refund(conn: &mut DbConnection) -> QueryResult<Vec<PaymentRow>> {
    payments::table
        .filter(payments::status.eq(PaymentStatus::RefundDue))
        .order(payments::created_at.asc())
        .select(PaymentRow::as_select())
        .load(conn)
}

/// The unpaid payment that starts a subscription, if it has one.
pub(crate) fn open_payment_of_subscription(
    conn: &mut DbConnection,
    id: &str,
) -> QueryResult<Option<PaymentRow>> {
    payments::table
        .filter(payments::subscription_id.eq(id))
        .filter(payments::fulfilled_at.is_null())
        .order(payments::created_at.desc())
        .select(PaymentRow::as_select())
        .first(conn)
        .optional()
}
