//! The contact crate's queries. Plain functions over a connection; no business rules.

use chrono::NaiveDateTime;
use diesel::dsl::{count_star, min};
use diesel::prelude::*;
use setupiq_core::UserId;
use setupiq_db::schema::contact_messages;
use setupiq_db::{DbConnection, on_backend};

use crate::models::{ContactMessageInsertForm, ContactMessageRow};

pub(crate) fn insert_message(
    conn: &mut DbConnection,
    form: &ContactMessageInsertForm<'_>,
) -> QueryResult<ContactMessageRow> {
    on_backend!(conn, |c| diesel::insert_into(contact_messages::table)
        .values(form)
        .returning(ContactMessageRow::as_returning())
        .get_result(c))
}

/// Messages from a client IP (or, for `None`, from clients whose IP was unknown) since
/// `since`: how many, and when the oldest was.
pub(crate) fn messages_from_ip_since(
    conn: &mut DbConnection,
    ip: Option<&str>,
    since: NaiveDateTime,
) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    let recent = contact_messages::table.filter(contact_messages::created_at.gt(since));
    let stats = (count_star(), min(contact_messages::created_at));
    match ip {
        Some(ip) => recent.filter(contact_messages::ip.eq(ip)).select(stats).first(conn),
        None => recent.filter(contact_messages::ip.is_null()).select(stats).first(conn),
    }
}

/// A page of messages, newest first.
pub(crate) fn page(conn: &mut DbConnection, limit: i64, offset: i64) -> QueryResult<Vec<ContactMessageRow>> {
    contact_messages::table
        .order((contact_messages::created_at.desc(), contact_messages::id.desc()))
        .limit(limit)
        .offset(offset)
        .select(ContactMessageRow::as_select())
        .load(conn)
}

/// The messages a signed-in user sent, newest first.
pub(crate) fn messages_of_user(
    conn: &mut DbConnection,
    user_id: UserId,
) -> QueryResult<Vec<ContactMessageRow>> {
    contact_messages::table
        .filter(contact_messages::user_id.eq(user_id))
        .order((contact_messages::created_at.desc(), contact_messages::id.desc()))
        .select(ContactMessageRow::as_select())
        .load(conn)
}

pub(crate) fn count(conn: &mut DbConnection) -> QueryResult<i64> {
    contact_messages::table.count().get_result(conn)
}
