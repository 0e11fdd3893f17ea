//! Sharing an analysis at a public URL, `/share/{token}`: opt-in per analysis, by its owner
//! only, revocable. The token is 256 random bits ([`setupiq_core::tokens::generate`]), never
//! the database id; it is stored as it is (it *is* the public address, like a slug), and
//! revoking clears it, so a link once revoked never works again (sharing again makes a new
//! one).

use std::time::Duration;

use actix_web::web::Bytes;
use diesel::prelude::*;
use setupiq_analyzer::voice::Voice;
use setupiq_core::ttl_cache::TtlCache;
use setupiq_core::{AnalysisId, UserId};
use setupiq_db::schema::analyses;
use setupiq_db::{AppCtx, DbConnection, write_transaction};

use super::{SavedAnalysis, find_for_owner, saved};
use crate::error::AnalysisError;
use crate::models::AnalysisRow;

/// Shares one of the owner's analyses and answers its token (the same one if it is shared
/// already). Another user's analysis is "not found".
pub fn share(conn: &mut DbConnection, user_id: UserId, id: AnalysisId) -> Result<String, AnalysisError> {
    write_transaction(conn, |conn| {
        let analysis = find_for_owner(conn, user_id, id)?;
        if let Some(token) = analysis.share_token {
            return Ok(token);
        }
        let token = setupiq_core::tokens::generate();
        diesel::update(analyses::table.find(id)).set(analyses::share_token.eq(&token)).execute(conn)?;
        Ok(token)
    })
}

/// Stops sharing one of the owner's analyses (nothing to do if it isn't shared).
pub fn unshare(conn: &mut DbConnection, user_id: UserId, id: AnalysisId) -> Result<(), AnalysisError> {
    write_transaction(conn, |conn| {
        find_for_owner(conn, user_id, id)?;
        diesel::update(analyses::table.find(id))
            .set(analyses::share_token.eq(None::<String>))
            .execute(conn)?;
        Ok(())
    })
}

/// The analysis shared at `token`; "not found" once revoked, or for any other string.
pub fn find_shared(conn: &mut DbConnection, token: &str) -> Result<SavedAnalysis, AnalysisError> {
    let row = analyses::table
        .filter(analyses::share_token.eq(token))
        .select(AnalysisRow::as_select())
        .first(conn)
        .optional()?;
    row.map_or(Err(AnalysisError::NotFound), saved)
}

/// Drawn share cards by token and voice, so that a link pasted into a busy channel draws its
/// card once (previewers fetch it many times). A revoked token's card goes with the next
/// miss: [`card`] checks the token first.
pub struct CardCache(TtlCache<(String, Voice), Bytes>);

impl Default for CardCache {
    fn default() -> Self {
        Self(TtlCache::new(Duration::from_secs(600), 256))
    }
}

/// The card (1200x630 PNG) of the analysis shared at `token`, in `voice`: "not found" once
/// revoked; drawn, and its photo read, only when no card is kept.
pub async fn card(
    ctx: &AppCtx,
    cards: &std::sync::Arc<CardCache>,
    token: String,
    voice: Voice,
) -> Result<Bytes, AnalysisError> {
    let AppCtx { db, media, .. } = ctx;
    let lookup = token.clone();
    let analysis = db.run(move |conn| find_shared(conn, &lookup)).await?;
    let key = (token, voice);
    if let Some(png) = cards.0.get(&key) {
        return Ok(png);
    }
    let photo = match &analysis.image {
        Some(key) => media.get(key).await?,
        None => None,
    };
    // A re-rating's before photo, while the analysis it re-rated exists.
    let before = match crate::share::before_photo(&analysis) {
        Some(key) => media.get(&key).await?,
        None => None,
    };
    let cards = cards.clone();
    let drawn = tokio::task::spawn_blocking(move || {
        cards.0.get_or(key, || {
            crate::share::card::render(&analysis, voice, photo.as_deref(), before.as_deref()).map(Bytes::from)
        })
    })
    .await;
    drawn.map_err(|e| AnalysisError::Failed(e.into()))?.map_err(|e| AnalysisError::Failed(e.into()))
}
