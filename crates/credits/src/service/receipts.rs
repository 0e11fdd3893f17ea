//! Receipts: every card payment, as its payer sees it. A payment credited for the first
//! time is e-mailed as a receipt (whether the browser's confirmation or Stripe's webhook
//! credited it: [`purchases::fulfil`] says which call was first), and the payer's
//! payments are listed on their profile, each with a printable receipt page.
//!
//! [`purchases::fulfil`]: super::purchases

use chrono::{DateTime, Utc};
use setupiq_auth::service::accounts;
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_core::mail::OutgoingEmail;
use setupiq_core::money::format_price;
use setupiq_core::{Config, UserId};
use setupiq_db::{AppCtx, DbConnection};

use crate::error::CreditsError;
use crate::models::PaymentRow;
use crate::payments::{PaymentStatus, ProviderKind};
use crate::repo;
use crate::service::packs;
use crate::service::pro::Plan;

/// One card payment of a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    /// The provider's reference (a Stripe PaymentIntent id): the receipt number.
    pub reference: String,
    /// What was bought: "Popular Pack (25 credits)".
    pub description: String,
    pub package_id: String,
    pub credits: i32,
    pub amount_cents: i64,
    pub currency: String,
    pub provider: ProviderKind,
    pub status: PaymentStatus,
    pub created_at: DateTime<Utc>,
    /// When it was paid and credited; `None` while it is not.
    pub paid_at: Option<DateTime<Utc>>,
}

impl From<PaymentRow> for Payment {
    fn from(row: PaymentRow) -> Self {
        let description = match (packs::find(&row.package_id), Plan::from_package_id(&row.package_id)) {
            (Some(pack), _) => format!("{} ({} credits)", pack.name, row.credits),
            (None, Some(plan)) => plan.name().to_owned(),
            (None, None) => row.package_id.clone(),
        };
        Self {
            description,
            reference: row.intent_id,
            package_id: row.package_id,
            credits: row.credits,
            amount_cents: row.amount_cents,
            currency: row.currency,
            provider: row.provider,
            status: row.status,
            created_at: row.created_at.and_utc(),
            paid_at: row.fulfilled_at.map(|t| t.and_utc()),
        }
    }
}

/// The user's payments, newest first (paid or not: a declined card shows too).
pub fn list(conn: &mut DbConnection, user_id: UserId) -> Result<Vec<Payment>, CreditsError> {
    Ok(repo::payments_of_user(conn, user_id)?.into_iter().map(Payment::from).collect())
}

/// One of the user's payments; another user's, or one not paid, has no receipt.
pub fn receipt(conn: &mut DbConnection, user_id: UserId, reference: &str) -> Result<Payment, CreditsError> {
    repo::find_payment(conn, reference)?
        .filter(|row| row.user_id == user_id && row.fulfilled_at.is_some())
        .map(Payment::from)
        .ok_or(CreditsError::PaymentNotFound)
}

/// The user's payments, for their data export (`payments`).
pub fn export_payments(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let payments: Vec<crate::dto::PaymentDto> = list(conn, user_id)?.into_iter().map(Into::into).collect();
    Section::new("payments", &payments)
}

/// E-mails the receipt of a payment just credited. It is sent after the credit is stored; a
/// mail failure is logged (the receipt stays on the profile), never the payer's to see.
pub async fn mail(ctx: &AppCtx, reference: String) {
    let AppCtx { db, mailer, config, .. } = ctx;
    let found = db
        .run(move |conn| {
            let Some(row) = repo::find_payment(conn, &reference)? else { return Ok(None) };
            let email = accounts::find(conn, row.user_id)?.map(|account| account.email);
            Ok::<_, CreditsError>(email.map(|email| (email, Payment::from(row))))
        })
        .await;
    match found {
        Ok(Some((email, payment))) => {
            if let Err(e) = mailer.send(receipt_email(config, &email, &payment)).await {
                tracing::error!(error = %e, reference = payment.reference, "could not send the receipt");
            }
        }
        Ok(None) => {}
        Err(e) => tracing::error!(error = %e, "could not read the payment to send its receipt"),
    }
}

/// Who sold it, as the receipt names them: the operator and their postal address from
/// `SETUPIQ_LEGAL_*` when set (a receipt must say who the buyer paid), else "SetupIQ".
fn seller(config: &Config) -> String {
    let operator = config.legal.operator.as_deref().unwrap_or("SetupIQ");
    std::iter::once(operator)
        .chain(config.legal.address.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The receipt e-mail: what was bought, for how much, when, and where it stays printable.
pub fn receipt_email(config: &Config, to: &str, payment: &Payment) -> OutgoingEmail {
    let seller = seller(config);
    let paid = payment.paid_at.unwrap_or(payment.created_at).format("%B %-d, %Y");
    let link = config.public_link(&format!("/receipts/{}", payment.reference));
    let what_now = if payment.credits > 0 {
        "The credits are in your account now."
    } else {
        "Your Pro membership is active."
    };
    let test = if payment.provider == ProviderKind::TestMode {
        "\r\nThis payment was made in test mode: no card was charged.\r\n"
    } else {
        ""
    };
    OutgoingEmail {
        to: to.to_owned(),
        subject: format!("Your SetupIQ receipt: {}", payment.description),
        text: format!(
            "Hi,\r\n\r\nThank you for your purchase. Here is your receipt.\r\n\r\n\
             Receipt number: {}\r\nDate: {paid}\r\nItem: {}\r\nAmount paid: {}\r\nSold by: {seller}\r\n{test}\r\n\
             {what_now} You can view and print this receipt\r\n\
             at any time on your profile:\r\n\r\n\
             {link}\r\n\r\nQuestions about this payment: {}\r\n\r\n-- SetupIQ\r\n",
            payment.reference,
            payment.description,
            format_price(payment.amount_cents),
            config.support_email,
        ),
        reply_to: None,
        unsubscribe: None,
    }
}
