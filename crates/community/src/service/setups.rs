//! Publishing and removing setups. A setup is one of the user's own analyses with 1 to
//! [`MAX_IMAGES`] photos: photos stored for the post (owned by it, deleted with it) and
//! the analysis's own photo (which stays the analysis's, never copied), in the order the
//! user chose; when none are sent, the analysis's own photo alone. A text analysis needs
//! at least one photo. A post made from a re-rated analysis may also carry the photo of the
//! analysis it re-rates ([`before_photo`]), copied for the post and marked as the before
//! photo. A user publishes at most [`DAILY_POST_LIMIT`] setups a day.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use setupiq_analysis::service::{InputType, find_for_owner};
use setupiq_auth::service::ledger;
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::media::MediaKey;
use setupiq_core::{AnalysisId, SetupId, UserId};
use setupiq_db::{AppCtx, DbConnection, DieselError, write_transaction};

use super::{until_tomorrow, utc_day};
use crate::error::CommunityError;
pub use crate::models::PostText;
use crate::models::{ImageInsertForm, SetupInsertForm};
use crate::repo;

pub const MAX_IMAGES: usize = 5;
pub const DAILY_POST_LIMIT: i64 = 10;

/// A photo stored for a post: the fitted image and its thumbnail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredImage {
    pub image: MediaKey,
    pub thumbnail: MediaKey,
}

impl StoredImage {
    /// Its row at `position` of a setup (owned by the setup).
    fn insert_form(&self, setup_id: SetupId, position: i32) -> ImageInsertForm<'_> {
        ImageInsertForm {
            setup_id,
            position,
            image_key: self.image.as_str(),
            thumbnail_key: Some(self.thumbnail.as_str()),
            owned: true,
            is_before: false,
        }
    }
}

/// A published setup as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub id: SetupId,
    pub user_id: UserId,
    pub analysis_id: AnalysisId,
    pub text: PostText,
    /// The sum of the votes.
    pub score: i32,
    pub upvotes: i32,
    pub open_reports: i32,
    /// Hidden from everyone but its owner until an admin reviews its reports.
    pub hidden: bool,
    pub created_at: DateTime<Utc>,
    /// The photos in display order.
    pub images: Vec<SetupImage>,
}

/// One photo of a setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupImage {
    pub image: MediaKey,
    pub thumbnail: Option<MediaKey>,
    /// Stored for this post (deleted with it); false for the analysis's own photo.
    pub owned: bool,
    /// The photo of the analysis this post's analysis re-rates: the setup before.
    pub is_before: bool,
}

/// The photos of each of `setup_ids`, in display order (one query).
pub(crate) fn photos_of(
    conn: &mut DbConnection,
    setup_ids: &[SetupId],
) -> Result<HashMap<SetupId, Vec<SetupImage>>, DieselError> {
    let mut photos: HashMap<SetupId, Vec<SetupImage>> = HashMap::new();
    for row in repo::images_of(conn, setup_ids)? {
        let Some(image) = MediaKey::parse(&row.image_key) else { continue };
        let thumbnail = row.thumbnail_key.as_deref().and_then(MediaKey::parse);
        photos.entry(row.setup_id).or_default().push(SetupImage {
            image,
            thumbnail,
            owned: row.owned,
            is_before: row.is_before,
        });
    }
    Ok(photos)
}

/// One setup with its photos.
pub fn find(conn: &mut DbConnection, setup_id: SetupId) -> Result<Setup, CommunityError> {
    let row = repo::find_setup(conn, setup_id)?.ok_or(CommunityError::SetupNotFound)?;
    let images = photos_of(conn, &[row.id])?.remove(&row.id).unwrap_or_default();
    Ok(Setup {
        id: row.id,
        user_id: row.user_id,
        analysis_id: row.analysis_id,
        text: row.text,
        score: row.score,
        upvotes: row.upvotes,
        open_reports: row.open_reports,
        hidden: row.hidden,
        created_at: row.created_at.and_utc(),
        images,
    })
}

/// A setup to publish.
#[derive(Debug)]
pub struct NewSetup<'a> {
    pub user_id: UserId,
    pub analysis_id: AnalysisId,
    /// Already trimmed, empty as none ([`PostText::trimmed`]).
    pub text: &'a PostText,
    /// The photos in order: stored for this post, or kept (only the analysis's own photo
    /// may be kept). Empty means the analysis's own photo alone.
    pub images: &'a [PostImage],
    /// The before photo ([`before_photo`], copied for the post): shown second, right after
    /// the post's first photo, so the feed's cover stays the setup as it is now.
    pub before: Option<&'a StoredImage>,
}

/// The photo of the analysis that `analysis_id` re-rates, when the post may show it: both
/// analyses are the user's photo analyses and the earlier one's photo (and thumbnail) are
/// still stored. None otherwise: a described setup, not a re-rating, the earlier analysis was
/// deleted (the link is cleared) or described in words, or (never by the analysis rules,
/// but checked all the same) someone else's.
pub fn before_photo(
    conn: &mut DbConnection,
    user_id: UserId,
    analysis_id: AnalysisId,
) -> Result<Option<StoredImage>, CommunityError> {
    let analysis = match find_for_owner(conn, user_id, analysis_id) {
        Ok(analysis) => analysis,
        Err(setupiq_analysis::AnalysisError::NotFound) => return Err(CommunityError::AnalysisNotFound),
        Err(other) => return Err(other.into()),
    };
    let Some(previous_id) = analysis.previous_analysis_id.filter(|_| analysis.input_type == InputType::Image)
    else {
        return Ok(None);
    };
    let previous = match find_for_owner(conn, user_id, previous_id) {
        Ok(previous) => previous,
        Err(setupiq_analysis::AnalysisError::NotFound) => return Ok(None),
        Err(other) => return Err(other.into()),
    };
    Ok(match (previous.input_type, previous.image, previous.thumbnail) {
        (InputType::Image, Some(image), Some(thumbnail)) => Some(StoredImage { image, thumbnail }),
        _ => None,
    })
}

/// The refusals of [`publish`] that need no photo, checked before any photo is decoded: the
/// analysis must exist, be the user's and not be published yet, and today's posts must not
/// be used up. (The
/// publish transaction checks them again: this is the cheap early answer, not the rule.)
pub fn check_publish(
    conn: &mut DbConnection,
    user_id: UserId,
    analysis_id: AnalysisId,
    now: DateTime<Utc>,
) -> Result<(), CommunityError> {
    match find_for_owner(conn, user_id, analysis_id) {
        Ok(_) => {}
        Err(setupiq_analysis::AnalysisError::NotFound) => return Err(CommunityError::AnalysisNotFound),
        Err(other) => return Err(other.into()),
    }
    if let Some(setup_id) = repo::setup_of_analysis(conn, analysis_id)? {
        return Err(CommunityError::AlreadyPublished { setup_id });
    }
    let (start, end) = utc_day(now);
    if repo::count_setups_between(conn, user_id, start, end)? >= DAILY_POST_LIMIT {
        return Err(CommunityError::DailyPostLimit {
            limit: DAILY_POST_LIMIT,
            retry_after: until_tomorrow(now),
        });
    }
    Ok(())
}

/// Whether a new post's photos fit [`MAX_IMAGES`]: those sent (none: the analysis's own
/// photo) and, when shown, the before photo.
pub fn photos_fit(sent: usize, with_before: bool) -> bool {
    sent.max(1) + usize::from(with_before) <= MAX_IMAGES
}

/// Publishes a setup; returns its id. Nothing is written when a rule fails (the caller
/// removes the photos it stored).
pub fn publish(
    conn: &mut DbConnection,
    new: &NewSetup<'_>,
    now: DateTime<Utc>,
) -> Result<SetupId, CommunityError> {
    if !photos_fit(new.images.len(), new.before.is_some()) {
        return Err(CommunityError::TooManyImages);
    }
    write_transaction(conn, |conn| {
        ledger::lock_account(conn, new.user_id)?;
        let analysis = match find_for_owner(conn, new.user_id, new.analysis_id) {
            Ok(analysis) => analysis,
            Err(setupiq_analysis::AnalysisError::NotFound) => return Err(CommunityError::AnalysisNotFound),
            Err(other) => return Err(other.into()),
        };
        let own_photo = match (&analysis.input_type, &analysis.image) {
            (InputType::Image, Some(image)) => Some((image.clone(), analysis.thumbnail.clone())),
            _ => None,
        };
        if new.images.is_empty() && own_photo.is_none() {
            return Err(CommunityError::ImagesRequired);
        }
        // The account's lock above orders two publishes of one analysis: the second sees the first.
        if let Some(setup_id) = repo::setup_of_analysis(conn, new.analysis_id)? {
            return Err(CommunityError::AlreadyPublished { setup_id });
        }
        let (start, end) = utc_day(now);
        if repo::count_setups_between(conn, new.user_id, start, end)? >= DAILY_POST_LIMIT {
            return Err(CommunityError::DailyPostLimit {
                limit: DAILY_POST_LIMIT,
                retry_after: until_tomorrow(now),
            });
        }
        let id = repo::insert_setup(
            conn,
            &SetupInsertForm {
                user_id: new.user_id,
                analysis_id: new.analysis_id,
                text: new.text.clone(),
                score: 0,
                upvotes: 0,
                open_reports: 0,
                hidden: false,
                created_at: now.naive_utc(),
                updated_at: now.naive_utc(),
            },
        )?;
        let mut images: Vec<ImageInsertForm<'_>> = if new.images.is_empty() {
            own_photo
                .iter()
                .map(|(image, thumb)| ImageInsertForm {
                    setup_id: id,
                    position: 0,
                    image_key: image.as_str(),
                    thumbnail_key: thumb.as_ref().map(MediaKey::as_str),
                    owned: false,
                    is_before: false,
                })
                .collect()
        } else {
            let mut kept_own = false;
            let mut forms = Vec::with_capacity(new.images.len());
            for (position, image) in (0..).zip(new.images) {
                forms.push(match image {
                    PostImage::Keep(key) => {
                        // The analysis's own photo, once: nothing else exists to keep.
                        let (image, thumb) = own_photo
                            .as_ref()
                            .filter(|(own, _)| own == key && !kept_own)
                            .ok_or(CommunityError::UnknownImage)?;
                        kept_own = true;
                        ImageInsertForm {
                            setup_id: id,
                            position,
                            image_key: image.as_str(),
                            thumbnail_key: thumb.as_ref().map(MediaKey::as_str),
                            owned: false,
                            is_before: false,
                        }
                    }
                    PostImage::New(stored) => stored.insert_form(id, position),
                });
            }
            forms
        };
        if let Some(before) = new.before {
            images.insert(
                1.min(images.len()),
                ImageInsertForm { is_before: true, ..before.insert_form(id, 1) },
            );
            for (position, form) in (0..).zip(images.iter_mut()) {
                form.position = position;
            }
        }
        repo::insert_images(conn, &images)?;
        Ok(id)
    })
}

/// Deletes a setup with its photos' rows, votes and reports: its owner may, and an admin.
/// Returns the photos stored for the post, for the caller to remove from the media store.
pub fn delete(
    conn: &mut DbConnection,
    user_id: UserId,
    is_admin: bool,
    setup_id: SetupId,
    changes: &FeedChanges,
) -> Result<Vec<MediaKey>, CommunityError> {
    let media = write_transaction(conn, |conn| remove(conn, user_id, is_admin, setup_id))?;
    changes.content_changed();
    Ok(media)
}

/// [`delete`] as the owner (or an admin) asks it: the post's photos leave the media store
/// after the commit.
pub async fn delete_post(
    ctx: &AppCtx,
    user_id: UserId,
    is_admin: bool,
    setup_id: SetupId,
) -> Result<(), CommunityError> {
    let changes = ctx.changes.clone();
    let removed = ctx.db.run(move |conn| delete(conn, user_id, is_admin, setup_id, &changes)).await?;
    ctx.media.remove_media(removed.iter()).await;
    Ok(())
}

/// [`delete`] inside the caller's transaction, which records the change after its commit.
pub(crate) fn remove(
    conn: &mut DbConnection,
    user_id: UserId,
    is_admin: bool,
    setup_id: SetupId,
) -> Result<Vec<MediaKey>, CommunityError> {
    let setup = repo::find_setup(conn, setup_id)?.ok_or(CommunityError::SetupNotFound)?;
    if setup.user_id != user_id && !is_admin {
        return Err(CommunityError::NotOwner);
    }
    let media = owned_media(conn, &[setup_id])?;
    repo::delete_setup(conn, setup_id)?;
    Ok(media)
}

fn owned_media(conn: &mut DbConnection, setup_ids: &[SetupId]) -> Result<Vec<MediaKey>, DieselError> {
    Ok(repo::images_of(conn, setup_ids)?
        .into_iter()
        .filter(|row| row.owned)
        .flat_map(|row| [Some(row.image_key), row.thumbnail_key])
        .flatten()
        .filter_map(|key| MediaKey::parse(&key))
        .collect())
}

/// Every stored photo a post names (its own or its analysis's), so that the sweep of
/// unnamed media ([`setupiq_core::media_sweep`]) keeps them.
pub fn media_named(conn: &mut DbConnection) -> Result<Vec<MediaKey>, DieselError> {
    Ok(repo::all_image_keys(conn)?
        .into_iter()
        .flat_map(|(image, thumbnail)| [Some(image), thumbnail])
        .flatten()
        .filter_map(|key| MediaKey::parse(&key))
        .collect())
}

/// What the community does when an account is deleted, inside its transaction: the
/// user's votes are taken out of the scores they counted in (their rows go with the
/// account), their comments go as if they deleted them (replies keep "[deleted]"), and the
/// photos stored for their posts are returned for removal.
pub fn on_account_deleted(
    conn: &mut DbConnection,
    user_id: UserId,
    _now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, DieselError> {
    for (setup_id, value) in repo::votes_of(conn, user_id)? {
        repo::add_to_score(conn, setup_id, -value, -i32::from(value == 1))?;
    }
    super::comments::on_account_deleted(conn, user_id)?;
    let setups = repo::setup_ids_of(conn, user_id)?;
    owned_media(conn, &setups)
}

/// What the community does when an analysis is deleted, inside its transaction: the post
/// made of it goes with it (through `ON DELETE CASCADE`, with its votes and reports), and
/// the photos stored for that post are returned for removal.
pub fn on_analysis_deleted(
    conn: &mut DbConnection,
    analysis_id: AnalysisId,
) -> Result<Vec<MediaKey>, DieselError> {
    let setups = repo::setup_ids_of_analysis(conn, analysis_id)?;
    owned_media(conn, &setups)
}

/// How long after publishing a setup can be edited (server clock).
pub const EDIT_WINDOW: chrono::Duration = chrono::Duration::hours(1);

/// A photo of a post as sent: one that exists already (kept: for an edit, one of the
/// setup's photos; for a new post, the analysis's own photo), or one stored for the post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PostImage {
    Keep(MediaKey),
    New(StoredImage),
}

/// An edit of a setup.
#[derive(Debug)]
pub struct SetupEdit<'a> {
    pub user_id: UserId,
    pub setup_id: SetupId,
    /// Already trimmed, empty as none ([`PostText::trimmed`]).
    pub text: &'a PostText,
    /// The photos in their new order (1 to [`MAX_IMAGES`]).
    pub images: &'a [PostImage],
}

/// Edits a setup: its owner only, within [`EDIT_WINDOW`] of publishing. Returns the
/// photos the edit dropped that were stored for the post, for the caller to remove.
pub fn edit(
    conn: &mut DbConnection,
    edit: &SetupEdit<'_>,
    now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, CommunityError> {
    if edit.images.is_empty() {
        return Err(CommunityError::ImagesRequired);
    }
    if edit.images.len() > MAX_IMAGES {
        return Err(CommunityError::TooManyImages);
    }
    write_transaction(conn, |conn| {
        let setup = find(conn, edit.setup_id)?;
        if setup.user_id != edit.user_id {
            return Err(CommunityError::NotOwner);
        }
        if now - setup.created_at > EDIT_WINDOW {
            return Err(CommunityError::EditWindowClosed);
        }
        let mut forms = Vec::with_capacity(edit.images.len());
        for (position, image) in (0..).zip(edit.images) {
            let form = match image {
                PostImage::Keep(key) => {
                    let kept =
                        setup.images.iter().find(|i| &i.image == key).ok_or(CommunityError::UnknownImage)?;
                    ImageInsertForm {
                        setup_id: setup.id,
                        position,
                        image_key: kept.image.as_str(),
                        thumbnail_key: kept.thumbnail.as_ref().map(MediaKey::as_str),
                        owned: kept.owned,
                        is_before: kept.is_before,
                    }
                }
                PostImage::New(stored) => stored.insert_form(setup.id, position),
            };
            forms.push(form);
        }
        repo::replace_images(conn, setup.id, &forms)?;
        repo::update_texts(conn, setup.id, edit.text, now.naive_utc())?;
        let kept: Vec<&MediaKey> = edit
            .images
            .iter()
            .filter_map(|i| match i {
                PostImage::Keep(key) => Some(key),
                PostImage::New(_) => None,
            })
            .collect();
        Ok(setup
            .images
            .iter()
            .filter(|i| i.owned && !kept.contains(&&i.image))
            .flat_map(|i| [Some(i.image.clone()), i.thumbnail.clone()])
            .flatten()
            .collect())
    })
}
