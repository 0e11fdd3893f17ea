//! A visitor's free result, kept for the browser that made it (its anonymous-id cookie,
//! hashed) for a short while ([`setupiq_core::Config::visitor_result_keep`]), so that the
//! account they sign up or sign in to right after gets it as one of its analyses, exactly
//! as if the member had made it: no credit is charged, and the visitor's trial stays used.
//!
//! The trial is claimed and the result kept in one transaction ([`claim_trial_keeping`]).
//! [`claim`] turns a live kept result into an analysis of the account; its row goes in the
//! same transaction, so of concurrent claims exactly one gets it. An unclaimed result past
//! its time is never claimed ([`claim`] reads live rows only) and goes, with its photos, in
//! [`purge_expired`] (after each new kept result, and with the media sweep); until then the
//! sweep of unnamed media keeps its photos ([`super::media_named`]).

use chrono::{DateTime, Duration, Utc};
use setupiq_core::UserId;
use setupiq_core::media::MediaKey;
use setupiq_db::{DbConnection, write_transaction};

use super::{Completed, InputType, Report, SavedAnalysis};
use crate::error::AnalysisError;
use crate::models::VisitorResultRow;
use crate::repo;

/// A visitor's delivered free result, to keep.
#[derive(Debug)]
pub struct KeptResult<'a> {
    pub input_type: InputType,
    /// The description (text analyses, or the note that came with a photo).
    pub input_text: Option<&'a str>,
    pub image: Option<&'a MediaKey>,
    pub thumbnail: Option<&'a MediaKey>,
    pub report: &'a Report,
}

/// Uses up the visitor's free analysis ([`super::claim_trial`]) and keeps its result for
/// `keep_for`, in one transaction: a result is kept only with its trial claimed.
pub fn claim_trial_keeping(
    conn: &mut DbConnection,
    visitor_hash: &str,
    ip: &str,
    kept: &KeptResult<'_>,
    now: DateTime<Utc>,
    keep_for: Duration,
) -> Result<(), AnalysisError> {
    let result_json = serde_json::to_string(kept.report)
        .map_err(|source| AnalysisError::Corrupt { analysis: None, source })?;
    let row = VisitorResultRow {
        visitor_hash: visitor_hash.to_owned(),
        input_type: kept.input_type,
        input_text: kept.input_text.map(str::to_owned),
        image_key: kept.image.map(|k| k.as_str().to_owned()),
        thumbnail_key: kept.thumbnail.map(|k| k.as_str().to_owned()),
        result_json,
        created_at: now.naive_utc(),
        expires_at: (now + keep_for).naive_utc(),
    };
    write_transaction(conn, |conn| {
        super::claim_trial(conn, visitor_hash, ip, now)?;
        repo::insert_visitor_result(conn, &row)?;
        Ok(())
    })
}

/// Saves the visitor's kept result, while it is live, as an analysis of `user_id` (made
/// when the visitor made it; no credit taken) and forgets it. `None` when there is nothing
/// to claim: none kept, expired, or claimed already (by a concurrent sign-in too).
pub fn claim(
    conn: &mut DbConnection,
    visitor_hash: &str,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<Option<SavedAnalysis>, AnalysisError> {
    write_transaction(conn, |conn| {
        let Some(row) = repo::live_visitor_result(conn, visitor_hash, now.naive_utc())? else {
            return Ok(None);
        };
        // The guard against a concurrent claim: only the one that deletes the row saves it.
        if repo::delete_visitor_result(conn, visitor_hash)? == 0 {
            return Ok(None);
        }
        let report: Report = serde_json::from_str(&row.result_json)
            .map_err(|source| AnalysisError::Corrupt { analysis: None, source })?;
        let image = row.image_key.as_deref().and_then(MediaKey::parse);
        let thumbnail = row.thumbnail_key.as_deref().and_then(MediaKey::parse);
        let saved = super::insert_completed(
            conn,
            Completed {
                user_id,
                input_type: row.input_type,
                input_text: row.input_text.as_deref(),
                image: image.as_ref(),
                thumbnail: thumbnail.as_ref(),
                report,
                result_json: &row.result_json,
                created_at: row.created_at.and_utc(),
                previous_analysis_id: None,
            },
        )?;
        Ok(Some(saved))
    })
}

/// Forgets every kept result past its time at `now`; returns their photos, which the
/// caller removes from the media store after the commit.
pub fn purge_expired(conn: &mut DbConnection, now: DateTime<Utc>) -> Result<Vec<MediaKey>, AnalysisError> {
    let now = now.naive_utc();
    let mut media = Vec::new();
    for row in repo::expired_visitor_results(conn, now)? {
        // Each row only once, whoever else purges at the same time.
        if repo::delete_expired_visitor_result(conn, &row.visitor_hash, now)? == 1 {
            media.extend(
                [row.image_key, row.thumbnail_key].into_iter().flatten().filter_map(|k| MediaKey::parse(&k)),
            );
        }
    }
    Ok(media)
}
