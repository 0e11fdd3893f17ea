//! Profile pictures, through the one upload path ([`setupiq_core::upload`]): the
//! specification's checks on the data URL, the byte and pixel limits read from the header,
//! then the image queue, a real decode with the decoder's limits set, a downscale to 800 px,
//! a re-encode that drops all metadata and the safety classifier (the picture is public).

use setupiq_core::media::{MediaKey, MediaKind};
use setupiq_core::upload::{Fit, UploadError};
use setupiq_core::{ApiError, UserId};
use setupiq_db::{AppCtx, DbConnection, DieselError};

use crate::dto::PROFILE_PICTURE_MAX_CHARS;
use crate::models::Account;
use crate::repo;
use crate::service::accounts;

pub const INVALID_IMAGE: &str = "Image must be a valid PNG or JPEG data URL.";
pub const TOO_BIG: &str = "Image size cannot exceed 500KB.";
/// Longest side of a stored profile picture.
pub const MAX_SIDE: u32 = 800;

const FIT: Fit =
    Fit { width: MAX_SIDE, height: MAX_SIDE, keep_png: true, thumbnail: None, safety_check: true };

/// The specification's checks on the data URL (length, declared type), before anything else.
fn check_declared(data_url: &str) -> Result<(), ApiError> {
    if data_url.len() > PROFILE_PICTURE_MAX_CHARS {
        return Err(ApiError::invalid("imageData", TOO_BIG));
    }
    let declared_ok = ["data:image/png;base64,", "data:image/jpeg;base64,", "data:image/jpg;base64,"]
        .iter()
        .any(|prefix| data_url.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix)));
    if !declared_ok {
        return Err(ApiError::invalid("imageData", INVALID_IMAGE));
    }
    Ok(())
}

fn refused(err: UploadError) -> ApiError {
    match err {
        UploadError::Rejected(rejection) if rejection.is_format() => {
            ApiError::invalid("imageData", INVALID_IMAGE)
        }
        other => other.into_api("imageData"),
    }
}

/// Every profile picture an account shows, so that the sweep of unnamed media
/// ([`setupiq_core::media_sweep`]) keeps them.
pub fn media_named(conn: &mut DbConnection) -> Result<Vec<MediaKey>, DieselError> {
    Ok(repo::all_profile_pictures(conn)?.iter().filter_map(|url| MediaKey::from_url(url)).collect())
}

/// Stores a new profile picture and points the account at it; the old picture is deleted.
/// If saving the account fails, the new file is removed again: nothing is half-written.
pub async fn upload_picture(ctx: &AppCtx, user_id: UserId, data_url: String) -> Result<Account, ApiError> {
    let AppCtx { db, clock, uploads, .. } = ctx;
    check_declared(&data_url)?;
    let owner = format!("user:{user_id}");
    let stored = uploads
        .accept(&owner, &data_url, &[MediaKind::Png, MediaKind::Jpeg], FIT, "avatars")
        .await
        .map_err(refused)?;
    drop(data_url);
    let (media, key) = (uploads.media(), stored.key);
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
