//! Queries of comments: threads and replies, edits and deletions, and the counts posts show.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::dsl::count_star;
use diesel::prelude::*;
use setupiq_core::{CommentId, SetupId, UserId};
use setupiq_db::schema::community_comments;
use setupiq_db::{DbConnection, on_backend};

use crate::models::{CommentInsertForm, CommentRow};

pub(crate) fn insert_comment(
    conn: &mut DbConnection,
    form: &CommentInsertForm<'_>,
) -> QueryResult<CommentId> {
    on_backend!(conn, |c| diesel::insert_into(community_comments::table)
        .values(form)
        .returning(community_comments::id)
        .get_result(c))
}

pub(crate) fn find_comment(conn: &mut DbConnection, id: CommentId) -> QueryResult<Option<CommentRow>> {
    community_comments::table.find(id).select(CommentRow::as_select()).first(conn).optional()
}

/// A page of a setup's threads (comments without a parent), newest first.
pub(crate) fn threads(
    conn: &mut DbConnection,
    setup_id: SetupId,
    limit: i64,
    offset: i64,
) -> QueryResult<Vec<CommentRow>> {
    community_comments::table
        .filter(community_comments::setup_id.eq(setup_id))
        .filter(community_comments::parent_id.is_null())
        .order((community_comments::created_at.desc(), community_comments::id.desc()))
        .limit(limit)
        .offset(offset)
        .select(CommentRow::as_select())
        .load(conn)
}

pub(crate) fn count_threads(conn: &mut DbConnection, setup_id: SetupId) -> QueryResult<i64> {
    community_comments::table
        .filter(community_comments::setup_id.eq(setup_id))
        .filter(community_comments::parent_id.is_null())
        .select(count_star())
        .first(conn)
}

/// The replies to `parent_ids`, oldest first.
pub(crate) fn replies_to(conn: &mut DbConnection, parent_ids: &[CommentId]) -> QueryResult<Vec<CommentRow>> {
    community_comments::table
        .filter(community_comments::parent_id.eq_any(parent_ids))
        .order((community_comments::created_at.asc(), community_comments::id.asc()))
        .select(CommentRow::as_select())
        .load(conn)
}

pub(crate) fn has_replies(conn: &mut DbConnection, id: CommentId) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        community_comments::table.filter(community_comments::parent_id.eq(id)),
    ))
    .get_result(conn)
}

/// When `user_id` wrote each comment since `since`, oldest first (the limits count them).
pub(crate) fn comment_times_since(
    conn: &mut DbConnection,
    user_id: UserId,
    since: NaiveDateTime,
) -> QueryResult<Vec<NaiveDateTime>> {
    community_comments::table
        .filter(community_comments::user_id.eq(user_id))
        .filter(community_comments::created_at.ge(since))
        .order(community_comments::created_at.asc())
        .select(community_comments::created_at)
        .load(conn)
}

pub(crate) fn edit_comment(
    conn: &mut DbConnection,
    id: CommentId,
    body: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(community_comments::table.find(id))
        .set((community_comments::body.eq(body), community_comments::edited_at.eq(now)))
        .execute(conn)
}

/// What a deleted comment with replies keeps: its place, without author or text.
pub(crate) fn blank_comment(conn: &mut DbConnection, id: CommentId) -> QueryResult<usize> {
    diesel::update(community_comments::table.find(id))
        .set((
            community_comments::body.eq(""),
            community_comments::deleted.eq(true),
            community_comments::user_id.eq(None::<UserId>),
        ))
        .execute(conn)
}

pub(crate) fn delete_comment(conn: &mut DbConnection, id: CommentId) -> QueryResult<usize> {
    diesel::delete(community_comments::table.find(id)).execute(conn)
}

pub(crate) fn comments_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<CommentRow>> {
    community_comments::table
        .filter(community_comments::user_id.eq(user_id))
        .order((community_comments::created_at.asc(), community_comments::id.asc()))
        .select(CommentRow::as_select())
        .load(conn)
}

/// How many comments (deleted ones aside) each of `setup_ids` has.
pub(crate) fn comment_counts(
    conn: &mut DbConnection,
    setup_ids: &[SetupId],
) -> QueryResult<HashMap<SetupId, i64>> {
    let rows: Vec<(SetupId, i64)> = community_comments::table
        .filter(community_comments::setup_id.eq_any(setup_ids))
        .filter(community_comments::deleted.eq(false))
        .group_by(community_comments::setup_id)
        .select((community_comments::setup_id, count_star()))
        .load(conn)?;
    Ok(rows.into_iter().collect())
}

/// The comments `ids`, by id.
pub(crate) fn comments_by_id(
    conn: &mut DbConnection,
    ids: &[CommentId],
) -> QueryResult<HashMap<CommentId, CommentRow>> {
    let rows: Vec<CommentRow> = community_comments::table
        .filter(community_comments::id.eq_any(ids))
        .select(CommentRow::as_select())
        .load(conn)?;
    Ok(rows.into_iter().map(|row| (row.id, row)).collect())
}

pub(crate) fn find_comments(conn: &mut DbConnection, ids: &[CommentId]) -> QueryResult<Vec<CommentRow>> {
    community_comments::table
        .filter(community_comments::id.eq_any(ids))
        .select(CommentRow::as_select())
        .load(conn)
}
