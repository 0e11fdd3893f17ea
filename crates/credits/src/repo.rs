//! The credits crate's queries.

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_db::schema::{ad_views, payments, webhook_events};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{AdViewInsertForm, AdViewRow, PaymentInsertForm, PaymentRow, WebhookEventInsertForm};
use crate::payments::PaymentStatus;

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
pub(crate) fn claim_ad_view(conn: &mut DbConnection, id: i64, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(ad_views::table.find(id).filter(ad_views::claimed_at.is_null()))
        .set(ad_views::claimed_at.eq(now))
        .execute(conn)
}

/// Ads of a user counted in `[from, to)`.
pub(crate) fn count_claimed_between(
    conn: &mut DbConnection,
    user_id: i64,
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

/// Unclaimed ad starts older than `before` are of no use; keep the table small.
pub(crate) fn prune_unclaimed_ad_views(
    conn: &mut DbConnection,
    user_id: i64,
    before: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::delete(
        ad_views::table
            .filter(ad_views::user_id.eq(user_id))
            .filter(ad_views::claimed_at.is_null())
            .filter(ad_views::started_at.lt(before)),
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
pub(crate) fn count_fulfilled_payments(conn: &mut DbConnection, user_id: i64) -> QueryResult<i64> {
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
pub(crate) fn payments_of_user(conn: &mut DbConnection, user_id: i64) -> QueryResult<Vec<PaymentRow>> {
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
