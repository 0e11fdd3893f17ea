//! Profile pictures: the specification's checks on the data URL, then a real decode with
//! pixel and memory limits, a downscale to 800 px and a re-encode that drops all metadata.

use setupiq_core::ApiError;
use setupiq_core::SharedClock;
use setupiq_core::images::{self, ImageError, ImageLimits};
use setupiq_core::media::{MediaKey, MediaKind, MediaStore};
use setupiq_db::Db;

use crate::dto::PROFILE_PICTURE_MAX_CHARS;
use crate::models::Account;
use crate::service::accounts;

pub const INVALID_IMAGE: &str = "Image must be a valid PNG or JPEG data URL.";
pub const TOO_BIG: &str = "Image size cannot exceed 500KB.";
pub const TOO_MANY_PIXELS: &str = "Image dimensions cannot exceed 4096 x 4096 pixels.";
/// Longest side of a stored profile picture.
pub const MAX_SIDE: u32 = 800;

const LIMITS: ImageLimits = ImageLimits {
    max_bytes: PROFILE_PICTURE_MAX_CHARS / 4 * 3,
    max_width: 4096,
    max_height: 4096,
    max_alloc: 128 * 1024 * 1024,
};

/// Checks, decodes and re-encodes an uploaded picture; returns its format and bytes.
/// CPU-bound: call it off the async workers.
pub fn prepare(data_url: &str) -> Result<(MediaKind, Vec<u8>), ApiError> {
    let invalid = || ApiError::invalid("imageData", INVALID_IMAGE);
    if data_url.len() > PROFILE_PICTURE_MAX_CHARS {
        return Err(ApiError::invalid("imageData", TOO_BIG));
    }
    let declared_ok = ["data:image/png;base64,", "data:image/jpeg;base64,", "data:image/jpg;base64,"]
        .iter()
        .any(|prefix| data_url.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix)));
    if !declared_ok {
        return Err(invalid());
    }
    let parsed = images::parse_data_url(data_url, LIMITS.max_bytes).map_err(|_| invalid())?;
    let (kind, image) =
        images::decode(&parsed.bytes, &[MediaKind::Png, MediaKind::Jpeg], LIMITS).map_err(|e| match e {
            ImageError::TooLarge => ApiError::invalid("imageData", TOO_MANY_PIXELS),
            _ => invalid(),
        })?;
    let image = images::fit_within(image, MAX_SIDE, MAX_SIDE);
    let bytes = match kind {
        MediaKind::Png => images::encode_png(&image),
        _ => images::encode_jpeg(&image, 85),
    }
    .map_err(ApiError::internal)?;
    Ok((if kind == MediaKind::Png { MediaKind::Png } else { MediaKind::Jpeg }, bytes))
}

/// Stores a new profile picture and points the account at it; the old picture is deleted.
/// If saving the account fails, the new file is removed again: nothing is half-written.
pub async fn upload_picture(
    db: &Db,
    media: &MediaStore,
    clock: &SharedClock,
    user_id: i64,
    data_url: String,
) -> Result<Account, ApiError> {
    let (kind, bytes) =
        actix_web::web::block(move || prepare(&data_url)).await.map_err(ApiError::internal)??;
    let key = MediaKey::generate("avatars", kind);
    media.put(&key, bytes).await?;
    let url = key.url();
    let clock = clock.clone();
    let saved = db.run(move |conn| accounts::replace_profile_picture(conn, user_id, &url, clock.now())).await;
    match saved {
        Ok((account, old)) => {
            if let Some(old) = old {
                media.remove_media([&old]).await;
            }
            Ok(account)
        }
        Err(err) => {
            media.remove_media([&key]).await;
            Err(ApiError::from(err))
        }
    }
}
