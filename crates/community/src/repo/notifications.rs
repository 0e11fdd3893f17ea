//! Queries of notifications and of the e-mail digest that gathers the unread ones.

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{NotificationId, SetupId, UserId};
use setupiq_db::schema::{digest_subscriptions, notifications};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{DigestSubscriptionRow, NotificationInsertForm, NotificationRow};

/// Files a notification; a second one for the same recipient and comment is dropped.
pub(crate) fn insert_notification(
    conn: &mut DbConnection,
    form: &NotificationInsertForm<'_>,
) -> QueryResult<usize> {
    on_backend!(conn, |c| diesel::insert_into(notifications::table)
        .values(form)
        .on_conflict_do_nothing()
        .execute(c))
}

/// A page of a member's notifications, newest first.
pub(crate) fn notifications_of(
    conn: &mut DbConnection,
    user_id: UserId,
    limit: i64,
    offset: i64,
) -> QueryResult<Vec<NotificationRow>> {
    notifications::table
        .filter(notifications::user_id.eq(user_id))
        .order((notifications::created_at.desc(), notifications::id.desc()))
        .limit(limit)
        .offset(offset)
        .select(NotificationRow::as_select())
        .load(conn)
}

/// How many notifications the member has, and how many of them are unread.
pub(crate) fn count_notifications(conn: &mut DbConnection, user_id: UserId) -> QueryResult<(i64, i64)> {
    let total =
        notifications::table.filter(notifications::user_id.eq(user_id)).select(count_star()).first(conn)?;
    Ok((total, count_unread(conn, user_id)?))
}

/// How many of the member's notifications are unread (one look at `notifications_unread_idx`).
pub(crate) fn count_unread(conn: &mut DbConnection, user_id: UserId) -> QueryResult<i64> {
    notifications::table
        .filter(notifications::user_id.eq(user_id))
        .filter(notifications::read_at.is_null())
        .select(count_star())
        .first(conn)
}

/// Marks the member's unread notifications read: these (`Some`), or all of them.
pub(crate) fn mark_notifications_read(
    conn: &mut DbConnection,
    user_id: UserId,
    ids: Option<&[NotificationId]>,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    let unread = notifications::table
        .filter(notifications::user_id.eq(user_id))
        .filter(notifications::read_at.is_null());
    let read = notifications::read_at.eq(now);
    match ids {
        Some(ids) => diesel::update(unread.filter(notifications::id.eq_any(ids))).set(read).execute(conn),
        None => diesel::update(unread).set(read).execute(conn),
    }
}

/// Whether the member was already told this of the setup.
pub(crate) fn was_notified(
    conn: &mut DbConnection,
    user_id: UserId,
    setup_id: SetupId,
    kind: crate::models::NotificationKind,
) -> QueryResult<bool> {
    let n: i64 = notifications::table
        .filter(notifications::user_id.eq(user_id))
        .filter(notifications::setup_id.eq(setup_id))
        .filter(notifications::kind.eq(kind))
        .select(count_star())
        .first(conn)?;
    Ok(n > 0)
}

/// The member's notifications created in `(after, until]` and not read yet.
#[diesel::dsl::auto_type]
fn unread_in(user_id: UserId, after: NaiveDateTime, until: NaiveDateTime) -> _ {
    notifications::user_id
        .eq(user_id)
        .and(notifications::read_at.is_null())
        .and(notifications::created_at.gt(after))
        .and(notifications::created_at.le(until))
}

/// The member's unread notifications created in `(after, until]`, newest first.
pub(crate) fn unread_between(
    conn: &mut DbConnection,
    user_id: UserId,
    after: NaiveDateTime,
    until: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<NotificationRow>> {
    notifications::table
        .filter(unread_in(user_id, after, until))
        .order((notifications::created_at.desc(), notifications::id.desc()))
        .limit(limit)
        .select(NotificationRow::as_select())
        .load(conn)
}

/// How many of the member's notifications created in `(after, until]` are unread.
pub(crate) fn count_unread_between(
    conn: &mut DbConnection,
    user_id: UserId,
    after: NaiveDateTime,
    until: NaiveDateTime,
) -> QueryResult<i64> {
    notifications::table.filter(unread_in(user_id, after, until)).select(count_star()).first(conn)
}

pub(crate) fn find_digest_subscription(
    conn: &mut DbConnection,
    user_id: UserId,
) -> QueryResult<Option<DigestSubscriptionRow>> {
    digest_subscriptions::table
        .find(user_id)
        .select(DigestSubscriptionRow::as_select())
        .first(conn)
        .optional()
}

/// Subscribes the member (nothing when they already are); 1 when a row was added.
pub(crate) fn insert_digest_subscription(
    conn: &mut DbConnection,
    row: &DigestSubscriptionRow,
) -> QueryResult<usize> {
    on_backend!(conn, |c| diesel::insert_into(digest_subscriptions::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(c))
}

pub(crate) fn delete_digest_subscription(conn: &mut DbConnection, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(digest_subscriptions::table.find(user_id)).execute(conn)
}

pub(crate) fn delete_digest_subscription_by_token(
    conn: &mut DbConnection,
    token: &str,
) -> QueryResult<usize> {
    diesel::delete(digest_subscriptions::table.filter(digest_subscriptions::token.eq(token))).execute(conn)
}

/// Subscriptions whose last digest covered up to `before` or earlier and which have unread
/// notifications since: the digests due, oldest first.
pub(crate) fn digests_due(
    conn: &mut DbConnection,
    before: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<DigestSubscriptionRow>> {
    let news = notifications::table
        .filter(notifications::user_id.eq(digest_subscriptions::user_id))
        .filter(notifications::read_at.is_null())
        .filter(notifications::created_at.gt(digest_subscriptions::covered_until));
    digest_subscriptions::table
        .filter(digest_subscriptions::covered_until.le(before))
        .filter(diesel::dsl::exists(news))
        .order((digest_subscriptions::covered_until.asc(), digest_subscriptions::user_id.asc()))
        .limit(limit)
        .select(DigestSubscriptionRow::as_select())
        .load(conn)
}

/// Moves a subscription's `covered_until` from `from` to `to`; 0 when another process moved
/// it first (or the member unsubscribed).
pub(crate) fn move_digest_cover(
    conn: &mut DbConnection,
    user_id: UserId,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        digest_subscriptions::table.find(user_id).filter(digest_subscriptions::covered_until.eq(from)),
    )
    .set(digest_subscriptions::covered_until.eq(to))
    .execute(conn)
}
