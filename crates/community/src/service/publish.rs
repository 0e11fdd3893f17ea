//! The publish and edit flows, from a request's photos to saved rows: each new photo goes
//! through the upload pipeline (magic bytes, pixel and memory limits, a re-encode without
//! metadata, a thumbnail) and the safety classifier on the analysis threads, is stored
//! through the media store, and only then are the rows written by [`setups`]. Whatever
//! fails after a photo was stored removes it again; an edit removes the photos it dropped.

use std::sync::Arc;

use setupiq_analyzer::local::LocalAnalyzer;
use setupiq_analyzer::pipeline;
use setupiq_core::SharedClock;
use setupiq_core::media::{MediaKey, MediaKind, MediaStore};
use setupiq_db::Db;

use super::setups::{self, NewSetup, PostImage, SetupEdit, StoredImage};
use crate::error::CommunityError;

/// The largest photo a post takes.
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// What the flows need; one per process.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub db: &'a Db,
    pub media: &'a MediaStore,
    pub analyzer: &'a Arc<LocalAnalyzer>,
    pub clock: &'a SharedClock,
}

/// A post as the user sends it (texts trimmed, empty as none).
#[derive(Debug)]
pub struct Post {
    pub title: Option<String>,
    pub description: Option<String>,
    /// Data URLs of new photos, and URLs of photos to keep: for an edit the setup's, for
    /// a new post the analysis's own.
    pub images: Vec<String>,
}

/// Publishes one of the user's analyses with the photos sent (none: its own photo alone).
pub async fn publish(
    ctx: Context<'_>,
    user_id: i64,
    analysis_id: i64,
    post: Post,
) -> Result<i64, CommunityError> {
    if post.images.len() > setups::MAX_IMAGES {
        return Err(CommunityError::TooManyImages);
    }
    let (images, stored) = store_new(ctx, post.images).await?;
    let now = ctx.clock.now();
    let saved = ctx
        .db
        .run(move |conn| {
            let new = NewSetup {
                user_id,
                analysis_id,
                title: post.title.as_deref(),
                description: post.description.as_deref(),
                images: &images,
            };
            setups::publish(conn, &new, now)
        })
        .await;
    if saved.is_err() {
        remove(ctx.media, &stored).await;
    }
    saved
}

/// Edits a setup; photos are kept by their URL or added as data URLs.
pub async fn edit(ctx: Context<'_>, user_id: i64, setup_id: i64, post: Post) -> Result<(), CommunityError> {
    if post.images.is_empty() {
        return Err(CommunityError::ImagesRequired);
    }
    if post.images.len() > setups::MAX_IMAGES {
        return Err(CommunityError::TooManyImages);
    }
    // Refuse early what the rules refuse anyway, before any photo is processed.
    let now = ctx.clock.now();
    let setup = ctx.db.run(move |conn| setups::find(conn, setup_id)).await?;
    if setup.user_id != user_id {
        return Err(CommunityError::NotOwner);
    }
    if now - setup.created_at > setups::EDIT_WINDOW {
        return Err(CommunityError::EditWindowClosed);
    }
    let (images, stored) = store_new(ctx, post.images).await?;
    let saved = ctx
        .db
        .run(move |conn| {
            let edit = SetupEdit {
                user_id,
                setup_id,
                title: post.title.as_deref(),
                description: post.description.as_deref(),
                images: &images,
            };
            setups::edit(conn, &edit, now)
        })
        .await;
    match saved {
        Ok(dropped) => {
            ctx.media.remove_media(dropped.iter()).await;
            Ok(())
        }
        Err(err) => {
            remove(ctx.media, &stored).await;
            Err(err)
        }
    }
}

/// Stores the new photos (data URLs) and reads the kept ones (URLs): all of them, or
/// none (a failure removes the photos stored before it). Returns the photos in order and
/// the ones stored, for the caller to remove if the rows are not written.
async fn store_new(
    ctx: Context<'_>,
    images: Vec<String>,
) -> Result<(Vec<PostImage>, Vec<StoredImage>), CommunityError> {
    let mut posted = Vec::with_capacity(images.len());
    let mut stored = Vec::new();
    for image in images {
        let next = if image.starts_with("data:") {
            store_photo(ctx, image).await.map(|photo| {
                stored.push(photo.clone());
                PostImage::New(photo)
            })
        } else {
            MediaKey::from_url(&image).map(PostImage::Keep).ok_or(CommunityError::UnknownImage)
        };
        match next {
            Ok(image) => posted.push(image),
            Err(err) => {
                remove(ctx.media, &stored).await;
                return Err(err);
            }
        }
    }
    Ok((posted, stored))
}

/// One photo through the pipeline and the safety classifier, then into the store.
async fn store_photo(ctx: Context<'_>, data_url: String) -> Result<StoredImage, CommunityError> {
    if data_url.len() > MAX_IMAGE_BYTES / 3 * 4 + 64 {
        return Err(CommunityError::ImageTooLarge);
    }
    let checker = ctx.analyzer.clone();
    let (prepared, safe) = ctx
        .analyzer
        .run(move || {
            let prepared = pipeline::prepare(&data_url).map_err(CommunityError::Image)?;
            let safe =
                checker.is_safe_for_work_blocking(&prepared.pixels).map_err(CommunityError::Screening)?;
            Ok::<_, CommunityError>((prepared, safe))
        })
        .await
        .map_err(CommunityError::Screening)??;
    if !safe {
        return Err(CommunityError::NotSafeForWork);
    }
    let photo = StoredImage {
        image: MediaKey::generate("community", MediaKind::Jpeg),
        thumbnail: MediaKey::generate("community_thumbs", MediaKind::Jpeg),
    };
    ctx.media.put(&photo.image, prepared.jpeg).await?;
    if let Err(err) = ctx.media.put(&photo.thumbnail, prepared.thumbnail).await {
        ctx.media.remove_media([&photo.image]).await;
        return Err(err.into());
    }
    Ok(photo)
}

async fn remove(media: &MediaStore, photos: &[StoredImage]) {
    media.remove_media(photos.iter().flat_map(|p| [&p.image, &p.thumbnail])).await;
}
