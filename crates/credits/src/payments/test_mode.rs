//! The built-in test-mode provider (DESIGN.md §7): without a Stripe key, intents live in
//! our own `payments` table and `POST /_api/stripe/test-mode/pay` stands in for the card
//! form: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, as with Stripe's
//! test cards. Confirmation then works exactly as with Stripe.

use chrono::{DateTime, Utc};
use setupiq_auth::service::ledger;
use setupiq_core::UserId;
use setupiq_db::{DbConnection, write_transaction};

use crate::error::CreditsError;
use crate::models::PaymentRow;
use crate::payments::{CreatedIntent, PaymentStatus, ProviderKind, RetrievedIntent};
use crate::repo;
use crate::service::pro;

pub const SUCCEEDING_CARD: &str = "4242424242424242";
pub const DECLINED_CARD: &str = "4000000000000002";
pub const DECLINE_MESSAGE: &str = "Your card was declined.";

/// A new test intent id and client secret (the row is written by the caller).
pub fn new_intent() -> CreatedIntent {
    let id = format!("pi_test_{}", uuid::Uuid::new_v4().simple());
    CreatedIntent { client_secret: secret_for(&id), id }
}

/// A client secret for a test intent, shaped like Stripe's (`{id}_secret_…`). The test mode
/// never checks it: the intent's owner is checked instead.
pub fn secret_for(intent_id: &str) -> String {
    format!("{intent_id}_secret_{}", setupiq_core::tokens::generate())
}

/// "Pays" a test intent of this user with a test card number. A payment of a Pro checkout
/// that is no longer wanted (replaced by a newer one, or the member is Pro already) is
/// refused before it is made, under the member's lock so a checkout replaced meanwhile is
/// seen.
pub fn pay(
    conn: &mut DbConnection,
    user_id: UserId,
    intent_id: &str,
    card_number: &str,
    now: DateTime<Utc>,
) -> Result<(), CreditsError> {
    let digits: String = card_number.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
    match digits.as_str() {
        SUCCEEDING_CARD => write_transaction(conn, |conn| {
            ledger::lock_account(conn, user_id)?;
            let payment = own_payment(conn, user_id, intent_id)?;
            if let Some(subscription_id) = &payment.subscription_id {
                pro::refuse_unwanted_test_payment(conn, subscription_id, now)?;
            }
            if payment.fulfilled_at.is_none() {
                repo::set_payment_status(conn, intent_id, PaymentStatus::Succeeded, None)?;
            }
            Ok(())
        }),
        DECLINED_CARD => {
            own_payment(conn, user_id, intent_id)?;
            repo::set_payment_status(
                conn,
                intent_id,
                PaymentStatus::RequiresPaymentMethod,
                Some(DECLINE_MESSAGE),
            )?;
            Err(CreditsError::CardDeclined)
        }
        _ => {
            own_payment(conn, user_id, intent_id)?;
            Err(CreditsError::InvalidCard)
        }
    }
}

/// The user's own test-mode payment.
fn own_payment(
    conn: &mut DbConnection,
    user_id: UserId,
    intent_id: &str,
) -> Result<PaymentRow, CreditsError> {
    repo::find_payment(conn, intent_id)?
        .filter(|p| p.user_id == user_id && p.provider == ProviderKind::TestMode)
        .ok_or(CreditsError::PaymentNotFound)
}

/// What the test provider "reports" for an intent: the row's status.
pub fn retrieve(conn: &mut DbConnection, intent_id: &str) -> Result<RetrievedIntent, CreditsError> {
    let payment = repo::find_payment(conn, intent_id)?
        .filter(|p| p.provider == ProviderKind::TestMode)
        .ok_or(CreditsError::PaymentNotFound)?;
    Ok(RetrievedIntent {
        id: payment.intent_id,
        status: payment.status,
        amount_cents: payment.amount_cents,
        user_id: Some(payment.user_id),
        last_error: payment.last_error,
    })
}
