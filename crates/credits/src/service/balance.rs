//! The balance as the user sees it: history and deductions.

use chrono::{DateTime, Utc};
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_auth::service::ledger::{self, LedgerEntry, LedgerReason};
use setupiq_core::UserId;
use setupiq_db::{DbConnection, write_transaction};

use crate::dto::LedgerEntryDto;
use crate::error::CreditsError;

/// The newest 50 changes of the user's balance.
pub fn history(conn: &mut DbConnection, user_id: UserId) -> Result<Vec<LedgerEntry>, CreditsError> {
    Ok(ledger::history(conn, user_id, 50)?)
}

/// Every change of the user's balance, newest first, for their data export
/// (`creditHistory`).
pub fn export_history(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let entries = ledger::history(conn, user_id, i64::MAX)?;
    Section::new("creditHistory", &entries.into_iter().map(LedgerEntryDto::from).collect::<Vec<_>>())
}

/// Takes `amount` credits for `reason` (e.g. publishing a RigPage); refused beyond the
/// balance. Returns the new balance.
pub fn deduct(
    conn: &mut DbConnection,
    user_id: UserId,
    amount: i32,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<i32, CreditsError> {
    let reason = LedgerReason::Spend(reason.to_owned());
    write_transaction(conn, |conn| Ok(ledger::apply(conn, user_id, -amount, &reason, None, now)?))
}
