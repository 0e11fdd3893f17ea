//! `column IN (ids)` with the whole list as one bound parameter ([`in_ids`]), for a query
//! that runs on every request with a different list.
//!
//! diesel's `eq_any` binds one parameter per value on SQLite (`IN (?, ?, …)`): a statement
//! text per length, which diesel never caches, so SQLite parsed and planned the query again
//! on every execution (the signed-in feed's overlay: ~8 % of its CPU). Here SQLite reads the
//! list from a JSON array (`IN (SELECT value FROM json_each(?))`) and PostgreSQL from an
//! array (`= ANY(?)`): one statement text whatever the length, with a static query id, so
//! each connection prepares it once. Only the concrete connections can run it (through
//! [`on_backend!`](crate::on_backend)): the node renders per backend.

use std::marker::PhantomData;

use diesel::expression::{AppearsOnTable, Expression, SelectableExpression, ValidGrouping};
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::sql_types::{Array, BigInt, Bool, Text};
use diesel::sqlite::Sqlite;

/// `column IN (ids)`, the ids bound as one parameter.
#[derive(Debug, Clone)]
pub struct InIds<C> {
    column: C,
    ids: Vec<i64>,
    /// The same ids as a JSON array, SQLite's form of the list.
    json: String,
}

/// `column IN (ids)` for a `BigInt` column (every id of the schema), cached as one
/// statement whatever the number of ids.
pub fn in_ids<C, I>(column: C, ids: impl IntoIterator<Item = I>) -> InIds<C>
where
    C: Expression<SqlType = BigInt>,
    I: Into<i64>,
{
    let ids: Vec<i64> = ids.into_iter().map(Into::into).collect();
    let listed: Vec<String> = ids.iter().map(i64::to_string).collect();
    let json = format!("[{}]", listed.join(","));
    InIds { column, ids, json }
}

impl<C: Expression<SqlType = BigInt>> Expression for InIds<C> {
    type SqlType = Bool;
}

impl<C, QS> AppearsOnTable<QS> for InIds<C>
where
    C: AppearsOnTable<QS>,
    Self: Expression,
{
}

impl<C, QS> SelectableExpression<QS> for InIds<C>
where
    C: SelectableExpression<QS>,
    Self: AppearsOnTable<QS>,
{
}

impl<C: ValidGrouping<GB>, GB> ValidGrouping<GB> for InIds<C> {
    type IsAggregate = C::IsAggregate;
}

/// What identifies the statement: the column, never the ids (their number does not change
/// the text).
pub struct InIdsQueryId<C>(PhantomData<C>);

impl<C: QueryId> QueryId for InIds<C> {
    type QueryId = InIdsQueryId<C::QueryId>;
    const HAS_STATIC_QUERY_ID: bool = C::HAS_STATIC_QUERY_ID;
}

impl<C: QueryFragment<Sqlite>> QueryFragment<Sqlite> for InIds<C> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        self.column.walk_ast(out.reborrow())?;
        out.push_sql(" IN (SELECT value FROM json_each(");
        out.push_bind_param::<Text, _>(&self.json)?;
        out.push_sql("))");
        Ok(())
    }
}

impl<C: QueryFragment<Pg>> QueryFragment<Pg> for InIds<C> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        self.column.walk_ast(out.reborrow())?;
        out.push_sql(" = ANY(");
        out.push_bind_param::<Array<BigInt>, _>(&self.ids)?;
        out.push_sql(")");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use diesel::prelude::*;

    use super::in_ids;

    diesel::table! {
        items (id) {
            id -> BigInt,
        }
    }

    fn sqlite() -> SqliteConnection {
        let mut conn = SqliteConnection::establish(":memory:").unwrap();
        diesel::sql_query("CREATE TABLE items (id INTEGER PRIMARY KEY)").execute(&mut conn).unwrap();
        diesel::sql_query("INSERT INTO items (id) VALUES (1), (2), (3), (5), (8)")
            .execute(&mut conn)
            .unwrap();
        conn
    }

    fn found(conn: &mut SqliteConnection, ids: &[i64]) -> Vec<i64> {
        items::table
            .filter(in_ids(items::id, ids.iter().copied()))
            .select(items::id)
            .order(items::id)
            .load(conn)
            .unwrap()
    }

    #[test]
    fn finds_the_listed_ids_whatever_their_number() {
        let mut conn = sqlite();
        assert_eq!(found(&mut conn, &[]), Vec::<i64>::new());
        assert_eq!(found(&mut conn, &[5]), vec![5]);
        assert_eq!(found(&mut conn, &[8, 2, 4, 1]), vec![1, 2, 8]);
        assert_eq!(found(&mut conn, &[-1, i64::MAX]), Vec::<i64>::new());
    }

    #[test]
    fn is_one_statement_text_for_every_length() {
        let text = |ids: &[i64]| {
            diesel::debug_query::<diesel::sqlite::Sqlite, _>(
                &items::table.filter(in_ids(items::id, ids.iter().copied())).select(items::id),
            )
            .to_string()
        };
        let (one, three) = (text(&[1]), text(&[1, 2, 3]));
        let sql = |debug: &str| debug.split(" -- binds").next().unwrap_or_default().to_owned();
        assert_eq!(sql(&one), sql(&three));
        assert!(sql(&one).contains("json_each(?)"), "{one}");
        const { assert!(<super::InIds<items::id> as diesel::query_builder::QueryId>::HAS_STATIC_QUERY_ID) };
    }
}
