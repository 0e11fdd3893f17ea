//! Sharing an analysis at a public URL, `/share/{token}`: opt-in per analysis, by its owner
//! only, revocable. The token is 256 random bits ([`setupiq_core::tokens::generate`]), never
//! the database id; it is stored as it is (it *is* the public address, like a slug), and
//! revoking clears it, so a link once revoked never works again (sharing again makes a new
//! one).

use diesel::prelude::*;
use setupiq_db::schema::analyses;
use setupiq_db::{DbConnection, write_transaction};

use super::{SavedAnalysis, find_for_owner, saved};
use crate::error::AnalysisError;
use crate::models::AnalysisRow;

/// Shares one of the owner's analyses and answers its token (the same one if it is shared
/// already). Another user's analysis is "not found".
pub fn share(conn: &mut DbConnection, id: i64, user_id: i64) -> Result<String, AnalysisError> {
    write_transaction(conn, |conn| {
        let analysis = find_for_owner(conn, id, user_id)?;
        if let Some(token) = analysis.share_token {
            return Ok(token);
        }
        let token = setupiq_core::tokens::generate();
        diesel::update(analyses::table.find(id)).set(analyses::share_token.eq(&token)).execute(conn)?;
        Ok(token)
    })
}

/// Stops sharing one of the owner's analyses (nothing to do if it isn't shared).
pub fn unshare(conn: &mut DbConnection, id: i64, user_id: i64) -> Result<(), AnalysisError> {
    write_transaction(conn, |conn| {
        find_for_owner(conn, id, user_id)?;
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
