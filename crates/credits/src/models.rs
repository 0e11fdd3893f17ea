//! Rows of the tables the credits crate owns.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use setupiq_core::{AdViewId, UserId};
use setupiq_db::schema::{ad_views, payments, subscriptions, webhook_events};

use crate::payments::{PaymentStatus, ProviderKind};

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
    /// paid, `active` while paid up, `canceled` once it ended; and ours, `voided`: a checkout
    /// that a newer one replaced, or whose payment arrived when the member was Pro already
    /// (never paid for, or refunded).
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum SubscriptionStatus {
        Incomplete = "incomplete",
        Active = "active",
        PastDue = "past_due",
        Canceled = "canceled",
        Voided = "voided",
    }
}

#[derive(Debug, Insertable)]
#[diesel(table_name = ad_views)]
pub(crate) struct AdViewInsertForm<'a> {
    pub user_id: UserId,
    pub token_hash: &'a str,
    pub started_at: NaiveDateTime,
}

#[derive(Debug, Queryable, Selectable)]
#[diesel(table_name = ad_views)]
pub(crate) struct AdViewRow {
    pub id: AdViewId,
    pub user_id: UserId,
    pub started_at: NaiveDateTime,
    pub claimed_at: Option<NaiveDateTime>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = payments)]
pub(crate) struct PaymentInsertForm<'a> {
    pub intent_id: &'a str,
    pub user_id: UserId,
    pub package_id: &'a str,
    pub credits: i32,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub provider: ProviderKind,
    pub status: PaymentStatus,
    pub created_at: NaiveDateTime,
    /// The subscription it pays a period of (none: a credit pack).
    pub subscription_id: Option<&'a str>,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = payments)]
pub(crate) struct PaymentRow {
    pub intent_id: String,
    pub user_id: UserId,
    pub package_id: String,
    pub credits: i32,
    pub amount_cents: i64,
    pub currency: String,
    pub provider: ProviderKind,
    pub status: PaymentStatus,
    pub last_error: Option<String>,
    pub created_at: NaiveDateTime,
    pub fulfilled_at: Option<NaiveDateTime>,
    pub subscription_id: Option<String>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = webhook_events)]
pub(crate) struct WebhookEventInsertForm<'a> {
    pub event_id: &'a str,
    pub event_type: &'a str,
    pub received_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = subscriptions)]
pub(crate) struct SubscriptionInsertForm<'a> {
    pub id: &'a str,
    pub user_id: UserId,
    pub plan: Plan,
    pub provider: ProviderKind,
    pub status: SubscriptionStatus,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub customer_id: Option<&'a str>,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = subscriptions)]
pub(crate) struct SubscriptionRow {
    pub id: String,
    pub user_id: UserId,
    pub plan: Plan,
    pub provider: ProviderKind,
    pub status: SubscriptionStatus,
    pub current_period_end: Option<NaiveDateTime>,
    pub cancel_at_period_end: bool,
    pub customer_id: Option<String>,
}
