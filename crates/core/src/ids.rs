//! Typed ids: one newtype over `i64` for each kind of row whose id crates pass around, so
//! that a setup's id given where a user's is expected does not compile. In JSON an id is a
//! plain number (`#[serde(transparent)]`); in the database it is the `BigInt` column it
//! was read from (diesel's `ToSql` / `FromSql` for every backend), so rows, `.eq(..)`,
//! `.find(..)` and `.eq_any(..)` take the id itself.
//!
//! An id is made and taken apart in the open, `SetupId(7)` and `setup_id.0`, where a
//! number crosses into typed code: a handler reading a request, a row of a crate not
//! converted yet. There is deliberately no `From<i64>`: a silent `.into()` would accept any
//! number again.
//!
//! Arguments: a function that takes the user it acts for (the actor, or the viewer) and
//! what it acts on takes the user first, `vote(conn, user_id, setup_id, ..)`,
//! `find_vote(conn, user_id, setup_id)`, `visible_to(conn, viewer, setup_id)`.
//!
//! To add an id, add a line to [`ids!`] below; diesel does not check which column an id is
//! compared with (every id is a `BigInt`), so a row's field types are what keep them apart.

use std::fmt;

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::BigInt;
use diesel::{AsExpression, FromSqlRow};
use serde::{Deserialize, Serialize};

/// Declares each id: the newtype, `Display` as the number, and its diesel mapping.
macro_rules! ids {
    ($( $(#[$meta:meta])* $name:ident, )+) => {$(
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, AsExpression,
            FromSqlRow,
        )]
        #[serde(transparent)]
        #[diesel(sql_type = BigInt)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl<DB> ToSql<BigInt, DB> for $name
        where
            DB: Backend,
            i64: ToSql<BigInt, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                <i64 as ToSql<BigInt, DB>>::to_sql(&self.0, out)
            }
        }

        impl<DB> FromSql<BigInt, DB> for $name
        where
            DB: Backend,
            i64: FromSql<BigInt, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                <i64 as FromSql<BigInt, DB>>::from_sql(bytes).map(Self)
            }
        }
    )+};
}

ids! {
    /// An account (`users.id`).
    UserId,
    /// A saved analysis (`analyses.id`).
    AnalysisId,
    /// A setup published on the community (`community_setups.id`).
    SetupId,
    /// An item of a setup's gear list (`setup_gear.id`).
    GearId,
    /// A comment under a setup (`community_comments.id`).
    CommentId,
    /// A member's notification (`notifications.id`).
    NotificationId,
    /// A link on a RigPage (`rigpage_links.id`).
    LinkId,
    /// A rewarded ad a member started watching (`ad_views.id`).
    AdViewId,
    /// A product of the affiliate catalogue (`products.id`).
    ProductId,
    /// A verification run of the catalogue's links (`link_check_runs.id`).
    RunId,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn an_id_is_a_plain_number_in_json_and_in_text() {
        assert_eq!(serde_json::to_string(&SetupId(42)).unwrap(), "42");
        assert_eq!(serde_json::from_str::<UserId>("7").unwrap(), UserId(7));
        assert_eq!(serde_json::to_string(&Some(CommentId(3))).unwrap(), "3");
        assert_eq!(format!("user:{}", UserId(9)), "user:9");
    }
}
