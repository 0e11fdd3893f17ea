//! The publish and edit flows, from a request's photos to saved rows. What needs no photo
//! is refused first (the analysis is not the caller's, today's posts are used up, the edit
//! window closed), then every new photo's size is read from its header before any is
//! decoded; then each goes through the one upload path ([`setupiq_core::upload`]: the
//! image queue, decoding with limits, a re-encode without metadata, a thumbnail, the safety
//! classifier) into the media store, and only then are the rows written by [`setups`].
//! Whatever fails after a photo was stored removes it again; an edit removes the photos it
//! dropped. A post of a re-rated analysis may show the before photo: the earlier analysis's
//! stored photo and thumbnail, copied in the media store for the post (they are the
//! analysis pipeline's fitted JPEGs already), so deleting that analysis leaves the post whole.

use setupiq_core::media::{MediaKey, MediaStore};
use setupiq_core::upload::{self, Fit, Inspected};
use setupiq_core::{AnalysisId, SetupId, UserId};
use setupiq_db::AppCtx;

use super::setups::{self, NewSetup, PostImage, PostText, SetupEdit, StoredImage};
use crate::error::CommunityError;

/// The largest photo a post takes (the one limit of every upload).
pub const MAX_IMAGE_BYTES: usize = upload::MAX_UPLOAD_BYTES;

/// How a post's photo is stored: fitted to 1920x1080 as JPEG with a 400 px thumbnail,
/// checked by the safety classifier (the feed is public).
const FIT: Fit = Fit { width: 1920, height: 1080, keep_png: false, thumbnail: Some(400), safety_check: true };

/// A post as the user sends it.
#[derive(Debug)]
pub struct Post {
    /// Trimmed, empty as none ([`PostText::trimmed`]).
    pub text: PostText,
    /// Data URLs of new photos, and URLs of photos to keep: for an edit the setup's, for
    /// a new post the analysis's own.
    pub images: Vec<String>,
    /// Also show the photo of the analysis this one re-rates, marked as the before photo
    /// (new posts only; ignored when there is none to show: [`setups::before_photo`]).
    pub with_before_photo: bool,
}

/// Publishes one of the user's analyses with the photos sent (none: its own photo alone).
pub async fn publish(
    ctx: &AppCtx,
    user_id: UserId,
    analysis_id: AnalysisId,
    post: Post,
) -> Result<SetupId, CommunityError> {
    if !setups::photos_fit(post.images.len(), false) {
        return Err(CommunityError::TooManyImages);
    }
    // Refuse early what the rules refuse anyway, before any photo is processed.
    let now = ctx.clock.now();
    let with_before = post.with_before_photo;
    let earlier = ctx
        .db
        .run(move |conn| {
            setups::check_publish(conn, user_id, analysis_id, now)?;
            if with_before { setups::before_photo(conn, user_id, analysis_id) } else { Ok(None) }
        })
        .await?;
    if !setups::photos_fit(post.images.len(), earlier.is_some()) {
        return Err(CommunityError::TooManyImages);
    }
    let (images, mut stored) = store_new(ctx, user_id, post.images).await?;
    let before = match earlier {
        None => None,
        Some(earlier) => match copy_photo(&ctx.media, &earlier).await {
            Ok(copy) => {
                stored.extend(copy.clone());
                copy
            }
            Err(err) => {
                remove(&ctx.media, &stored).await;
                return Err(err);
            }
        },
    };
    let saved = ctx
        .db
        .run(move |conn| {
            let new =
                NewSetup { user_id, analysis_id, text: &post.text, images: &images, before: before.as_ref() };
            setups::publish(conn, &new, now)
        })
        .await;
    match saved {
        Ok(_) => ctx.changes.content_changed(),
        Err(_) => remove(&ctx.media, &stored).await,
    }
    saved
}

/// A copy of a stored photo and its thumbnail under new keys of the community's folders,
/// owned by the post. The earlier analysis's photo is the analysis pipeline's output (fitted,
/// re-encoded without metadata, screened), so its bytes are copied as they are. None when
/// the photo left the store meanwhile (its analysis was deleted): the post goes without it.
async fn copy_photo(media: &MediaStore, photo: &StoredImage) -> Result<Option<StoredImage>, CommunityError> {
    let copy = StoredImage {
        image: MediaKey::generate("community", photo.image.kind()),
        thumbnail: MediaKey::generate("community_thumbs", photo.thumbnail.kind()),
    };
    for (from, to) in [(&photo.image, &copy.image), (&photo.thumbnail, &copy.thumbnail)] {
        let copied = match media.get(from).await {
            Ok(Some(bytes)) => media.put(to, bytes).await.map(|()| true),
            Ok(None) => Ok(false),
            Err(err) => Err(err),
        };
        match copied {
            Ok(true) => {}
            Ok(false) => {
                remove(media, std::slice::from_ref(&copy)).await;
                return Ok(None);
            }
            Err(err) => {
                remove(media, std::slice::from_ref(&copy)).await;
                return Err(err.into());
            }
        }
    }
    Ok(Some(copy))
}

/// Edits a setup; photos are kept by their URL or added as data URLs.
pub async fn edit(
    ctx: &AppCtx,
    user_id: UserId,
    setup_id: SetupId,
    post: Post,
) -> Result<(), CommunityError> {
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
    let (images, stored) = store_new(ctx, user_id, post.images).await?;
    let saved = ctx
        .db
        .run(move |conn| {
            let edit = SetupEdit { user_id, setup_id, text: &post.text, images: &images };
            setups::edit(conn, &edit, now)
        })
        .await;
    match saved {
        Ok(dropped) => {
            ctx.changes.content_changed();
            ctx.media.remove_media(dropped.iter()).await;
            Ok(())
        }
        Err(err) => {
            remove(&ctx.media, &stored).await;
            Err(err)
        }
    }
}

/// Stores the new photos (data URLs) and reads the kept ones (URLs): all of them, or
/// none (a failure removes the photos stored before it). Every new photo's header is read
/// before any is decoded. Returns the photos in order and the ones stored, for the caller
/// to remove if the rows are not written.
async fn store_new(
    ctx: &AppCtx,
    user_id: UserId,
    images: Vec<String>,
) -> Result<(Vec<PostImage>, Vec<StoredImage>), CommunityError> {
    enum Sent {
        New(Inspected),
        Keep(MediaKey),
    }
    let sent = images
        .into_iter()
        .map(|image| {
            if image.starts_with("data:") {
                upload::inspect(&image, upload::ALL_KINDS).map(Sent::New).map_err(CommunityError::Image)
            } else {
                MediaKey::from_url(&image).map(Sent::Keep).ok_or(CommunityError::UnknownImage)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut posted = Vec::with_capacity(sent.len());
    let mut stored = Vec::new();
    let owner = format!("user:{user_id}");
    for image in sent {
        let next = match image {
            Sent::New(inspected) => store_photo(ctx, &owner, inspected).await.map(|photo| {
                stored.push(photo.clone());
                PostImage::New(photo)
            }),
            Sent::Keep(key) => Ok(PostImage::Keep(key)),
        };
        match next {
            Ok(image) => posted.push(image),
            Err(err) => {
                remove(&ctx.media, &stored).await;
                return Err(err);
            }
        }
    }
    Ok((posted, stored))
}

/// One photo through the upload path (queue, decoding, safety classifier), into the store.
async fn store_photo(ctx: &AppCtx, owner: &str, inspected: Inspected) -> Result<StoredImage, CommunityError> {
    let ticket = ctx.uploads.admit(owner)?;
    let prepared = ctx.uploads.prepare(&ticket, inspected, FIT).await?;
    drop(ticket);
    let stored = ctx.uploads.store("community", prepared).await?;
    let thumbnail = stored.thumbnail.ok_or_else(|| CommunityError::Corrupt("no thumbnail stored"))?;
    Ok(StoredImage { image: stored.key, thumbnail })
}

async fn remove(media: &MediaStore, photos: &[StoredImage]) {
    media.remove_media(photos.iter().flat_map(|p| [&p.image, &p.thumbnail])).await;
}
