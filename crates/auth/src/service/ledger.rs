//! Credit balance changes. `users.credits` is a cached balance: it changes only together
//! with an append-only `credit_ledger` row, in the caller's transaction, through a guarded
//! update that can never take it below zero. An external credit source (a payment intent,
//! an ad reward) passes a unique reference, so it is credited exactly once.
//!
//! The balance lives on `users`, which this crate owns; the credits crate builds packs,
//! ads and payments on these two functions.

use chrono::{DateTime, Utc};
use setupiq_core::UserId;
use setupiq_db::{DbConnection, is_unique_violation};

use crate::error::AuthError;
use crate::models::LedgerInsertForm;
use crate::repo;

/// Credits every new account starts with (DESIGN.md §5).
pub const SIGNUP_BONUS: i32 = 3;

/// Why a balance changed, as the history shows it; stored in `credit_ledger.reason` by
/// [`LedgerReason::to_db`] and read back by [`LedgerReason::from_db`] (the one mapping).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerReason {
    /// The credits a new account starts with (`signup_bonus`).
    SignupBonus,
    /// Every third rewarded ad (`ad_reward`).
    AdReward,
    /// A credit pack bought by card (`purchase:<pack id>`).
    Purchase { package_id: String },
    /// An analysis (`analysis`).
    Analysis,
    /// A RigPage's first Go Live (`rigpage_publish`).
    RigpagePublish,
    /// A batch of 10 RigPage links beyond the free ones (`rigpage_links`).
    RigpageLinks,
    /// A deduction the user asked for (`POST /_api/credits/deduct`), with their reason
    /// (`spend:<reason>`: a user's text can never pass for a system line such as
    /// `signup_bonus`). A text of no known form (rows written before the prefix) reads as one.
    Spend(String),
}

impl LedgerReason {
    const PURCHASE_PREFIX: &'static str = "purchase:";
    const SPEND_PREFIX: &'static str = "spend:";

    /// The text stored in the ledger.
    pub fn to_db(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Self::SignupBonus => "signup_bonus".into(),
            Self::AdReward => "ad_reward".into(),
            Self::Purchase { package_id } => format!("{}{package_id}", Self::PURCHASE_PREFIX).into(),
            Self::Analysis => "analysis".into(),
            Self::RigpagePublish => "rigpage_publish".into(),
            Self::RigpageLinks => "rigpage_links".into(),
            Self::Spend(reason) => format!("{}{reason}", Self::SPEND_PREFIX).into(),
        }
    }

    /// The kind of reason, without its details (a pack id, a user's text): a label with few
    /// values, for metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::SignupBonus => "signup_bonus",
            Self::AdReward => "ad_reward",
            Self::Purchase { .. } => "purchase",
            Self::Analysis => "analysis",
            Self::RigpagePublish => "rigpage_publish",
            Self::RigpageLinks => "rigpage_links",
            Self::Spend(_) => "spend",
        }
    }

    /// The reason a stored text stands for.
    pub fn from_db(text: &str) -> Self {
        match text {
            "signup_bonus" => Self::SignupBonus,
            "ad_reward" => Self::AdReward,
            "analysis" => Self::Analysis,
            "rigpage_publish" => Self::RigpagePublish,
            "rigpage_links" => Self::RigpageLinks,
            _ => {
                if let Some(package_id) = text.strip_prefix(Self::PURCHASE_PREFIX) {
                    Self::Purchase { package_id: package_id.to_owned() }
                } else {
                    Self::Spend(text.strip_prefix(Self::SPEND_PREFIX).unwrap_or(text).to_owned())
                }
            }
        }
    }
}

impl std::fmt::Display for LedgerReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_db())
    }
}

/// Applies `amount` (positive to credit, negative to charge) with its ledger row. Must run
/// inside a transaction. Returns the new balance.
///
/// Fails with [`AuthError::InsufficientCredits`] when a charge exceeds the balance and with
/// [`AuthError::AlreadyApplied`] when `external_ref` was used before; in both cases the
/// caller's transaction should be rolled back (it is, when the error is returned from it).
pub fn apply(
    conn: &mut DbConnection,
    user_id: UserId,
    amount: i32,
    reason: &LedgerReason,
    external_ref: Option<&str>,
    now: DateTime<Utc>,
) -> Result<i32, AuthError> {
    let now = now.naive_utc();
    let Some(balance_after) = repo::change_credits(conn, user_id, amount, now)? else {
        return match repo::find_user(conn, user_id)? {
            Some(user) => Err(AuthError::InsufficientCredits { needed: -amount, available: user.credits }),
            None => Err(AuthError::UserNotFound),
        };
    };
    let text = reason.to_db();
    let entry =
        LedgerInsertForm { user_id, amount, balance_after, reason: &text, external_ref, created_at: now };
    match repo::insert_ledger_entry(conn, &entry) {
        Ok(_) => {
            // Counted when written; a caller's transaction that fails later takes the row
            // back but not the count (rare: the write that follows a charge failing).
            let (name, credits) = if amount >= 0 {
                ("credits_granted_total", amount)
            } else {
                ("credits_spent_total", -amount)
            };
            metrics::counter!(name, "reason" => reason.kind()).increment(credits.unsigned_abs().into());
            Ok(balance_after)
        }
        Err(e) if is_unique_violation(&e) => Err(AuthError::AlreadyApplied),
        Err(e) => Err(e.into()),
    }
}

/// The user's current balance.
pub fn balance(conn: &mut DbConnection, user_id: UserId) -> Result<i32, AuthError> {
    Ok(repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?.credits)
}

/// Whether the cached balance equals the sum of the user's ledger (the invariant).
pub fn balance_matches_ledger(conn: &mut DbConnection, user_id: UserId) -> Result<bool, AuthError> {
    let user = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?;
    Ok(i64::from(user.credits) == repo::ledger_sum(conn, user_id)?)
}

/// One change of a balance, as the user sees it in their history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerEntry {
    pub id: i64,
    pub amount: i32,
    pub balance_after: i32,
    pub reason: LedgerReason,
    pub created_at: DateTime<Utc>,
}

/// The newest `limit` entries of a user's ledger, newest first.
pub fn history(conn: &mut DbConnection, user_id: UserId, limit: i64) -> Result<Vec<LedgerEntry>, AuthError> {
    Ok(repo::ledger_entries(conn, user_id, limit)?
        .into_iter()
        .map(|row| LedgerEntry {
            id: row.id,
            amount: row.amount,
            balance_after: row.balance_after,
            reason: LedgerReason::from_db(&row.reason),
            created_at: row.created_at.and_utc(),
        })
        .collect())
}

/// Whether a credit with this external reference was already applied.
pub fn is_applied(conn: &mut DbConnection, external_ref: &str) -> Result<bool, AuthError> {
    Ok(repo::ledger_entry_exists(conn, external_ref)?)
}

/// Serialises concurrent balance-changing transactions of one user: on PostgreSQL the
/// user's row is locked (`SELECT … FOR UPDATE`) until the transaction ends; on SQLite the
/// write transaction (`BEGIN IMMEDIATE`) already runs alone. Call it first in a
/// transaction that reads counts before it writes (daily caps).
pub fn lock_account(conn: &mut DbConnection, user_id: UserId) -> Result<(), AuthError> {
    repo::lock_user(conn, user_id)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::LedgerReason;

    #[test]
    fn reasons_read_back_as_they_were_written() {
        for reason in [
            LedgerReason::SignupBonus,
            LedgerReason::AdReward,
            LedgerReason::Analysis,
            LedgerReason::RigpagePublish,
            LedgerReason::RigpageLinks,
            LedgerReason::Purchase { package_id: "popular".into() },
            LedgerReason::Spend("rigpage_publish".into()),
        ] {
            assert_eq!(LedgerReason::from_db(&reason.to_db()), reason, "{reason}");
        }
        assert_eq!(LedgerReason::Purchase { package_id: "value".into() }.to_string(), "purchase:value");
        // A user's reason cannot pass for a system line.
        for imitation in ["signup_bonus", "purchase:value", "ad_reward", "rigpage_publish"] {
            let stored = LedgerReason::Spend(imitation.into()).to_db().into_owned();
            assert_eq!(stored, format!("spend:{imitation}"));
            assert_eq!(LedgerReason::from_db(&stored), LedgerReason::Spend(imitation.into()));
        }
    }
}
