//! Images of a RigPage (avatar, background, link images): PNG, JPEG or WebP up to 5 MB,
//! decoded with pixel and memory limits, fitted to what the page shows and re-encoded
//! (which drops every byte of metadata), refused unless the safety classifier finds them
//! safe for work (the page is public), stored through the media store and recorded with
//! their owner, so a config can only show its owner's uploads and account deletion
//! removes them. Uploads a save never used are removed after a day.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use setupiq_analyzer::local::LocalAnalyzer;
use setupiq_core::SharedClock;
use setupiq_core::images::{self, ImageError, ImageLimits};
use setupiq_core::media::{MediaKey, MediaKind, MediaStore};
use setupiq_db::{Db, DbConnection, DieselError};

use crate::error::RigpageError;
use crate::models::ImageInsertForm;
use crate::repo;

pub const MAX_BYTES: usize = 5 * 1024 * 1024;
/// Uploads a user may make in an hour.
pub const UPLOADS_PER_HOUR: i64 = 30;
/// How long an upload no saved page uses is kept (the editor saves after uploading).
pub const UNUSED_KEPT_FOR: Duration = Duration::days(1);

const LIMITS: ImageLimits =
    ImageLimits { max_bytes: MAX_BYTES, max_width: 10_000, max_height: 10_000, max_alloc: 512 * 1024 * 1024 };

setupiq_db::text_enum! {
    /// Where an image is shown, which decides the size it is stored at.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum ImageKind {
        Avatar = "avatar",
        Background = "background",
        Link = "link",
    }
}

impl ImageKind {
    /// The box the stored image fits in.
    fn fit(self) -> (u32, u32) {
        match self {
            ImageKind::Avatar => (512, 512),
            ImageKind::Background => (1920, 1920),
            ImageKind::Link => (256, 256),
        }
    }
}

/// An upload ready to store.
#[derive(Debug)]
pub struct PreparedUpload {
    pub format: MediaKind,
    pub bytes: Vec<u8>,
    /// The fitted picture, for the safety classifier.
    pub pixels: image::RgbImage,
}

/// Checks, decodes, fits and re-encodes an upload (CPU-bound: run it off the async
/// workers). PNG stays PNG (transparency); JPEG and WebP become JPEG.
pub fn prepare(kind: ImageKind, data_url: &str) -> Result<PreparedUpload, RigpageError> {
    let parsed = images::parse_data_url(data_url, MAX_BYTES).map_err(|e| match e {
        ImageError::TooLarge => RigpageError::ImageTooLarge,
        _ => RigpageError::ImageInvalid,
    })?;
    let (format, image) =
        images::decode(&parsed.bytes, &[MediaKind::Png, MediaKind::Jpeg, MediaKind::Webp], LIMITS).map_err(
            |e| match e {
                ImageError::TooLarge => RigpageError::ImageTooLarge,
                _ => RigpageError::ImageInvalid,
            },
        )?;
    let (width, height) = kind.fit();
    let image = images::fit_within(image, width, height);
    let (stored, bytes) = if format == MediaKind::Png {
        (MediaKind::Png, images::encode_png(&image))
    } else {
        (MediaKind::Jpeg, images::encode_jpeg(&image, 85))
    };
    Ok(PreparedUpload {
        format: stored,
        bytes: bytes.map_err(|e| RigpageError::Corrupt(e.to_string()))?,
        pixels: image.to_rgb8(),
    })
}

/// [`prepare`], then the safety classifier, on the analysis threads.
async fn prepare_safe(
    analyzer: &Arc<LocalAnalyzer>,
    kind: ImageKind,
    data_url: String,
) -> Result<PreparedUpload, RigpageError> {
    let checker = analyzer.clone();
    analyzer
        .run(move || {
            let upload = prepare(kind, &data_url)?;
            if checker.is_safe_for_work_blocking(&upload.pixels).map_err(RigpageError::Screening)? {
                Ok(upload)
            } else {
                Err(RigpageError::NotSafeForWork)
            }
        })
        .await
        .map_err(RigpageError::Screening)?
}

/// Stores an upload for `user_id` once it passed every check; returns its URL
/// (`/media/rigpage/…`). Nothing is kept when recording it fails.
pub async fn upload(
    db: &Db,
    media: &MediaStore,
    analyzer: &Arc<LocalAnalyzer>,
    clock: &SharedClock,
    user_id: i64,
    kind: ImageKind,
    data_url: String,
) -> Result<String, RigpageError> {
    let now = clock.now();
    let stale = db.run(move |conn| admit_upload(conn, user_id, now)).await?;
    media.remove_media(stale.iter()).await;
    let upload = prepare_safe(analyzer, kind, data_url).await?;
    let key = MediaKey::generate("rigpage", upload.format);
    media.put(&key, upload.bytes).await?;
    let recorded = key.as_str().to_owned();
    let saved = db
        .run(move |conn| {
            let form = ImageInsertForm { media_key: &recorded, user_id, kind, created_at: now.naive_utc() };
            repo::insert_image(conn, &form).map_err(RigpageError::from)
        })
        .await;
    match saved {
        Ok(_) => Ok(key.url()),
        Err(err) => {
            media.remove_media([&key]).await;
            Err(err)
        }
    }
}

/// Refuses an upload past the hourly cap; forgets the user's uploads that no saved page
/// uses and are older than [`UNUSED_KEPT_FOR`], returning their keys to remove.
fn admit_upload(
    conn: &mut DbConnection,
    user_id: i64,
    now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, RigpageError> {
    let recent = repo::count_images_since(conn, user_id, (now - Duration::hours(1)).naive_utc())?;
    if recent >= UPLOADS_PER_HOUR {
        return Err(RigpageError::TooManyUploads);
    }
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
fn used_keys(conn: &mut DbConnection, user_id: i64) -> Result<Vec<String>, RigpageError> {
    let Some(row) = repo::find_page(conn, user_id)? else { return Ok(Vec::new()) };
    Ok(super::config::editor_of(row, repo::links_of(conn, user_id)?)?.settings.media_keys())
}

/// Whether `url` is a RigPage image `user_id` uploaded.
pub fn is_owned(conn: &mut DbConnection, user_id: i64, url: &str) -> Result<bool, RigpageError> {
    let Some(key) = MediaKey::from_url(url) else { return Ok(false) };
    Ok(repo::image_owner(conn, key.as_str())? == Some(user_id))
}

/// Every stored RigPage image of a user (registered with the account deletion).
pub fn media_of_user(conn: &mut DbConnection, user_id: i64) -> Result<Vec<MediaKey>, DieselError> {
    Ok(repo::image_keys_of(conn, user_id)?.into_iter().filter_map(|k| MediaKey::parse(&k)).collect())
}
