//! The media sweep's wiring ([`setupiq_core::media_sweep`] holds the rule): which crate
//! names which media, and the run at start and every day after.

use std::collections::HashSet;
use std::time::Duration;

use chrono::{DateTime, Utc};
use setupiq_core::media::MediaKey;
use setupiq_core::media_sweep::{self, SweepError, Swept};
use setupiq_db::{DbConnection, DbError, DieselError};

use crate::AppState;

/// How often the sweep runs after the one at start.
pub const EVERY: Duration = Duration::from_secs(24 * 3600);

/// The media one crate's rows name.
type MediaNamed = fn(&mut DbConnection) -> Result<Vec<MediaKey>, DieselError>;

/// Every crate that writes media, with the function that lists what its rows name. A crate
/// that starts writing media adds its function here, or the sweep removes its uploads.
const NAMED_MEDIA: [MediaNamed; 4] = [
    setupiq_auth::service::profile::media_named,
    setupiq_analysis::service::media_named,
    setupiq_rigpage::service::images::media_named,
    setupiq_community::service::setups::media_named,
];

/// Every key a row names, in the whole database.
pub fn named_media(conn: &mut DbConnection) -> Result<HashSet<MediaKey>, DbError> {
    let mut named = HashSet::new();
    for media_named in NAMED_MEDIA {
        named.extend(media_named(conn)?);
    }
    Ok(named)
}

/// One sweep of the state's media store at `now`, with the configured grace period. The
/// visitors' free results whose time is up go first, with their photos.
pub async fn sweep(state: &AppState, now: DateTime<Utc>) -> Result<Swept, SweepError> {
    let db = state.db.clone();
    match db.run(move |conn| setupiq_analysis::service::visitor::purge_expired(conn, now)).await {
        Ok(expired) => state.media.remove_media(&expired).await,
        Err(e) => tracing::warn!(error = %e, "expired visitor results could not be purged"),
    }
    media_sweep::sweep(&state.media, state.config.media_sweep_grace, now, || db.run(named_media)).await
}

/// Sweeps at start, then every [`EVERY`], logging what each sweep removed.
pub fn spawn(state: &AppState) -> tokio::task::JoinHandle<()> {
    let state = state.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(EVERY);
        loop {
            every.tick().await;
            match sweep(&state, state.clock.now()).await {
                Ok(swept) => tracing::info!(
                    listed = swept.listed,
                    removed = swept.removed,
                    bytes = swept.bytes,
                    failed = swept.failed,
                    "media swept: {} objects no row names removed ({} bytes)",
                    swept.removed,
                    swept.bytes
                ),
                Err(e) => tracing::warn!(error = %e, "media sweep skipped; trying again tomorrow"),
            }
        }
    })
}
