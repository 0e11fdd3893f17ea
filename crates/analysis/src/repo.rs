//! Analysis and anonymous-trial queries.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use setupiq_core::{AnalysisId, UserId};
use setupiq_db::DbConnection;
use setupiq_db::schema::{analyses, analysis_holds, analysis_trials, analysis_visitor_results};

use crate::models::{AnalysisInsertForm, AnalysisRow, HoldInsertForm, TrialInsertForm, VisitorResultRow};

pub(crate) fn insert_analysis(
    conn: &mut DbConnection,
    form: &AnalysisInsertForm<'_>,
) -> QueryResult<AnalysisId> {
    diesel::insert_into(analyses::table).values(form).returning(analyses::id).get_result(conn)
}

pub(crate) fn find_analysis(conn: &mut DbConnection, id: AnalysisId) -> QueryResult<Option<AnalysisRow>> {
    analyses::table.find(id).select(AnalysisRow::as_select()).first(conn).optional()
}

pub(crate) fn delete_analysis(conn: &mut DbConnection, id: AnalysisId) -> QueryResult<usize> {
    diesel::delete(analyses::table.find(id)).execute(conn)
}

pub(crate) fn find_analyses(conn: &mut DbConnection, ids: &[AnalysisId]) -> QueryResult<Vec<AnalysisRow>> {
    analyses::table.filter(analyses::id.eq_any(ids)).select(AnalysisRow::as_select()).load(conn)
}

/// A user's analyses, newest first.
pub(crate) fn analyses_of(
    conn: &mut DbConnection,
    user_id: UserId,
    limit: i64,
    offset: i64,
) -> QueryResult<Vec<AnalysisRow>> {
    analyses::table
        .filter(analyses::user_id.eq(user_id))
        .order((analyses::created_at.desc(), analyses::id.desc()))
        .limit(limit)
        .offset(offset)
        .select(AnalysisRow::as_select())
        .load(conn)
}

pub(crate) fn any_analysis_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(analyses::table.filter(analyses::user_id.eq(user_id))))
        .get_result(conn)
}

pub(crate) fn count_analyses_of(conn: &mut DbConnection, user_id: UserId) -> QueryResult<i64> {
    analyses::table.filter(analyses::user_id.eq(user_id)).count().get_result(conn)
}

/// The stored image keys (photo and thumbnail) of a user's analyses.
pub(crate) fn media_keys_of(
    conn: &mut DbConnection,
    user_id: UserId,
) -> QueryResult<Vec<(Option<String>, Option<String>)>> {
    analyses::table
        .filter(analyses::user_id.eq(user_id))
        .select((analyses::image_key, analyses::thumbnail_key))
        .load(conn)
}

/// The stored image keys (photo and thumbnail) of every analysis with a photo.
pub(crate) fn all_media_keys(conn: &mut DbConnection) -> QueryResult<Vec<(Option<String>, Option<String>)>> {
    analyses::table
        .filter(analyses::image_key.is_not_null().or(analyses::thumbnail_key.is_not_null()))
        .select((analyses::image_key, analyses::thumbnail_key))
        .load(conn)
}

pub(crate) fn trial_used(conn: &mut DbConnection, visitor_hash: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        analysis_trials::table.filter(analysis_trials::visitor_hash.eq(visitor_hash)),
    ))
    .get_result(conn)
}

pub(crate) fn trials_from_ip_since(
    conn: &mut DbConnection,
    ip: &str,
    since: NaiveDateTime,
) -> QueryResult<i64> {
    analysis_trials::table
        .filter(analysis_trials::ip.eq(ip))
        .filter(analysis_trials::created_at.ge(since))
        .count()
        .get_result(conn)
}

pub(crate) fn insert_trial(conn: &mut DbConnection, form: &TrialInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(analysis_trials::table).values(form).execute(conn)
}

/// Serialises trial claims so that the per-IP count and the insert cannot interleave: on
/// PostgreSQL a table lock held to the end of the transaction; SQLite's write transaction
/// (`BEGIN IMMEDIATE`) already runs alone. Claims are rare, so the lock costs nothing.
pub(crate) fn lock_trials(conn: &mut DbConnection) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("LOCK TABLE analysis_trials IN SHARE ROW EXCLUSIVE MODE").execute(pg)?;
    }
    Ok(())
}

/// Forgets `owner`'s hold if it expired (its process died before releasing it).
pub(crate) fn delete_expired_hold(
    conn: &mut DbConnection,
    owner: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::delete(
        analysis_holds::table
            .filter(analysis_holds::owner.eq(owner))
            .filter(analysis_holds::expires_at.lt(now)),
    )
    .execute(conn)
}

/// Takes the hold; a unique violation means `owner` already holds one.
pub(crate) fn insert_hold(conn: &mut DbConnection, form: &HoldInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(analysis_holds::table).values(form).execute(conn)
}

/// Gives back `owner`'s hold `token` (not a newer one taken after it expired).
pub(crate) fn delete_hold(conn: &mut DbConnection, owner: &str, token: &str) -> QueryResult<usize> {
    diesel::delete(
        analysis_holds::table.filter(analysis_holds::owner.eq(owner)).filter(analysis_holds::token.eq(token)),
    )
    .execute(conn)
}

/// Keeps a visitor's free result (a visitor has one: their trial is unique).
pub(crate) fn insert_visitor_result(conn: &mut DbConnection, row: &VisitorResultRow) -> QueryResult<usize> {
    diesel::insert_into(analysis_visitor_results::table).values(row).execute(conn)
}

/// The visitor's kept result, while it has not expired.
pub(crate) fn live_visitor_result(
    conn: &mut DbConnection,
    visitor_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<VisitorResultRow>> {
    analysis_visitor_results::table
        .find(visitor_hash)
        .filter(analysis_visitor_results::expires_at.gt(now))
        .select(VisitorResultRow::as_select())
        .first(conn)
        .optional()
}

/// Forgets the visitor's kept result; 0 when it is gone already (claimed meanwhile).
pub(crate) fn delete_visitor_result(conn: &mut DbConnection, visitor_hash: &str) -> QueryResult<usize> {
    diesel::delete(analysis_visitor_results::table.find(visitor_hash)).execute(conn)
}

/// The kept results past `now`.
pub(crate) fn expired_visitor_results(
    conn: &mut DbConnection,
    now: NaiveDateTime,
) -> QueryResult<Vec<VisitorResultRow>> {
    analysis_visitor_results::table
        .filter(analysis_visitor_results::expires_at.le(now))
        .select(VisitorResultRow::as_select())
        .load(conn)
}

/// Forgets the kept result of `visitor_hash` if it expired by `now`; 0 when it did not
/// (or was claimed meanwhile).
pub(crate) fn delete_expired_visitor_result(
    conn: &mut DbConnection,
    visitor_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::delete(
        analysis_visitor_results::table
            .find(visitor_hash)
            .filter(analysis_visitor_results::expires_at.le(now)),
    )
    .execute(conn)
}

/// The stored image keys of every kept visitor result (expired ones too, until purged).
pub(crate) fn visitor_media_keys(
    conn: &mut DbConnection,
) -> QueryResult<Vec<(Option<String>, Option<String>)>> {
    analysis_visitor_results::table
        .filter(
            analysis_visitor_results::image_key
                .is_not_null()
                .or(analysis_visitor_results::thumbnail_key.is_not_null()),
        )
        .select((analysis_visitor_results::image_key, analysis_visitor_results::thumbnail_key))
        .load(conn)
}
