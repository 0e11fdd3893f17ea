//! Images of a RigPage (avatar, background, link images): PNG, JPEG or WebP, through the
//! one upload path ([`setupiq_core::upload`]): the byte and pixel limits read from the
//! header, then the hourly cap, taken in a transaction that records the upload before any
//! decoding (so parallel uploads cannot all pass it), then the image queue, decoding with
//! limits, fitting to what the page shows, a re-encode (which drops every byte of metadata)
//! and the safety classifier (the page is public), then the media store. The record is
//! with its owner, so a config can only show its owner's uploads and account deletion
//! removes them; an upload that fails after it was recorded is forgotten and its file
//! removed. Uploads a save never used are removed after a day.

use chrono::{DateTime, Duration, Utc};
use setupiq_auth::service::ledger;
use setupiq_core::media::{MediaKey, MediaKind};
use setupiq_core::upload::{self, Fit, Inspected, Uploads};
use setupiq_core::{SharedClock, UserId};
use setupiq_db::{Db, DbConnection, DieselError, write_transaction};

use crate::error::RigpageError;
use crate::models::ImageInsertForm;
pub use crate::models::ImageKind;
use crate::repo;

/// The largest file (the one limit of every upload).
pub const MAX_BYTES: usize = upload::MAX_UPLOAD_BYTES;
/// Uploads a user may make in an hour.
pub const UPLOADS_PER_HOUR: i64 = 30;
/// How long an upload no saved page uses is kept (the editor saves after uploading).
pub const UNUSED_KEPT_FOR: Duration = Duration::days(1);

impl ImageKind {
    /// How the stored image is made: PNG stays PNG (transparency), JPEG and WebP become
    /// JPEG, fitted to the box the page shows it in, checked by the safety classifier.
    fn fit(self) -> Fit {
        let (width, height) = match self {
            ImageKind::Avatar => (512, 512),
            ImageKind::Background => (1920, 1920),
            ImageKind::Link => (256, 256),
        };
        Fit { width, height, keep_png: true, thumbnail: None, safety_check: true }
    }
}

/// Stores an upload for `user_id` once it passed every check; returns its URL
/// (`/media/rigpage/…`). Nothing is kept when a check or recording it fails.
pub async fn upload(
    db: &Db,
    uploads: &Uploads,
    clock: &SharedClock,
    user_id: UserId,
    kind: ImageKind,
    data_url: String,
) -> Result<String, RigpageError> {
    let inspected = upload::inspect(&data_url, upload::ALL_KINDS)?;
    drop(data_url);
    let format = if inspected.kind == MediaKind::Png { MediaKind::Png } else { MediaKind::Jpeg };
    let key = MediaKey::generate("rigpage", format);
    let (now, recorded) = (clock.now(), key.as_str().to_owned());
    let stale = db.run(move |conn| admit_upload(conn, user_id, &recorded, kind, now)).await?;
    uploads.media().remove_media(stale.iter()).await;
    match prepare_and_store(uploads, user_id, kind, inspected, &key).await {
        Ok(()) => Ok(key.url()),
        Err(err) => {
            uploads.media().remove_media([&key]).await;
            let forgotten = key.as_str().to_owned();
            if let Err(e) =
                db.run(move |conn| repo::delete_images(conn, &[forgotten]).map_err(RigpageError::from)).await
            {
                tracing::warn!(error = %e, "a failed RigPage upload's record stays until the daily clean-up");
            }
            Err(err)
        }
    }
}

async fn prepare_and_store(
    uploads: &Uploads,
    user_id: UserId,
    kind: ImageKind,
    inspected: Inspected,
    key: &MediaKey,
) -> Result<(), RigpageError> {
    let ticket = uploads.admit(&format!("user:{user_id}"))?;
    let prepared = uploads.prepare(&ticket, inspected, kind.fit()).await?;
    drop(ticket);
    uploads.media().put(key, prepared.bytes).await?;
    Ok(())
}

/// Refuses an upload past the hourly cap, else records it under `media_key` (counted from
/// now on: the count and the record are one transaction after `ledger::lock_account`, so
/// parallel uploads queue and the 31st is refused); forgets the user's uploads that no
/// saved page uses and are older than [`UNUSED_KEPT_FOR`], returning their keys to remove.
pub fn admit_upload(
    conn: &mut DbConnection,
    user_id: UserId,
    media_key: &str,
    kind: ImageKind,
    now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, RigpageError> {
    write_transaction(conn, |conn| {
        ledger::lock_account(conn, user_id)?;
        let recent = repo::count_images_since(conn, user_id, (now - Duration::hours(1)).naive_utc())?;
        if recent >= UPLOADS_PER_HOUR {
            return Err(RigpageError::TooManyUploads);
        }
        repo::insert_image(conn, &ImageInsertForm { media_key, user_id, kind, created_at: now.naive_utc() })?;
        forget_stale(conn, user_id, now)
    })
}

/// Forgets the user's uploads that no saved page uses and are older than
/// [`UNUSED_KEPT_FOR`], returning their keys to remove.
fn forget_stale(
    conn: &mut DbConnection,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, RigpageError> {
    let old = repo::image_keys_before(conn, user_id, (now - UNUSED_KEPT_FOR).naive_utc())?;
    if old.is_empty() {
        return Ok(Vec::new());
    }
    let used = used_keys(conn, user_id)?;
    let stale: Vec<String> = old.into_iter().filter(|k| !used.contains(k)).collect();
    repo::delete_images(conn, &stale)?;
    Ok(stale.iter().filter_map(|k| MediaKey::parse(k)).collect())
}

/// The keys the user's saved page shows.
fn used_keys(conn: &mut DbConnection, user_id: UserId) -> Result<Vec<String>, RigpageError> {
    let Some(row) = repo::find_page(conn, user_id)? else { return Ok(Vec::new()) };
    Ok(super::config::editor_of(row, repo::links_of(conn, user_id)?)?.settings.media_keys())
}

/// Whether `url` is a RigPage image `user_id` uploaded.
pub fn is_owned(conn: &mut DbConnection, user_id: UserId, url: &str) -> Result<bool, RigpageError> {
    let Some(key) = MediaKey::from_url(url) else { return Ok(false) };
    Ok(repo::image_owner(conn, key.as_str())? == Some(user_id))
}

/// Every RigPage image recorded or shown by a page or a link, so that the sweep of unnamed
/// media ([`setupiq_core::media_sweep`]) keeps them. An upload is recorded before it is
/// stored, so one the editor has not saved yet is named too (until [`UNUSED_KEPT_FOR`]).
pub fn media_named(conn: &mut DbConnection) -> Result<Vec<MediaKey>, DieselError> {
    let recorded = repo::all_image_keys(conn)?;
    let shown = repo::all_image_urls(conn)?;
    Ok(recorded
        .iter()
        .filter_map(|key| MediaKey::parse(key))
        .chain(shown.iter().filter_map(|url| MediaKey::from_url(url)))
        .collect())
}

/// Every stored RigPage image of a user (registered with the account deletion).
pub fn media_of_user(conn: &mut DbConnection, user_id: UserId) -> Result<Vec<MediaKey>, DieselError> {
    Ok(repo::image_keys_of(conn, user_id)?.into_iter().filter_map(|k| MediaKey::parse(&k)).collect())
}
