//! The analyse flow, from a request's input to a delivered result, cheapest refusal first:
//! the photo's size from its header ([`upload::inspect`]); the account's one photo analysis
//! hold, taken only with the credit (or free trial) there ([`super::take_hold`]: 402, or
//! 409 while another of its analyses runs); a place in the image queue (503 when full);
//! the photo's megapixels in the pixel budget (waiting for them).
//! Only then is the photo decoded (the upload path), screened and rated by the [`Engine`];
//! suggestions come from the catalogue, and then either the result is saved with its credit
//! (signed in) or the visitor's free trial is claimed and the result kept a while for the
//! account they may make right after (anonymous, [`super::visitor`]). The hold
//! is given back whatever happens, even when the client goes away.
//!
//! The one async flow of this crate: it orchestrates the rules of [`super`] (each a plain
//! function over a connection, run through [`Db::run`]) with the analyzer and the media
//! store. Whatever fails after the photos were stored removes them again.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use setupiq_analyzer::pipeline::{self, PreparedImage};
use setupiq_analyzer::{AnalysisInput, Engine};
use setupiq_core::AnalysisId;
use setupiq_core::media::{MediaKey, MediaKind};
use setupiq_core::upload::{self, Uploads};
use setupiq_db::{AppCtx, Db};

use super::{Hold, InputType, NewAnalysis, Report, Requester, SavedAnalysis, suggestions};
use crate::error::AnalysisError;

/// What a request asks to analyse (already validated).
#[derive(Debug)]
pub struct Submission {
    pub input_type: InputType,
    /// A `data:image/…` URL or the description.
    pub value: String,
    /// The note that came with a photo.
    pub description: Option<String>,
    /// The requester's own analysis this one re-rates ([`super::progress`]).
    pub previous: Option<AnalysisId>,
}

/// A delivered result.
#[derive(Debug)]
pub enum Delivered {
    /// A visitor's free analysis: kept a while for the account they may make right after.
    Trial { report: Report, at: DateTime<Utc> },
    /// A signed-in user's analysis, saved, and the balance after its credit.
    Saved { analysis: SavedAnalysis, balance: i32 },
}

/// Runs the whole flow for `requester`.
pub async fn analyze(
    ctx: &AppCtx,
    engine: &Engine,
    requester: Requester,
    submission: Submission,
) -> Result<Delivered, AnalysisError> {
    let AppCtx { db, clock, .. } = ctx;
    if let Some(previous) = submission.previous {
        let asker = requester.clone();
        db.run(move |conn| super::check_previous(conn, &asker, previous)).await?;
    }
    if submission.input_type == InputType::Text {
        match &requester {
            Requester::User { is_pro, credits, .. } => super::check_credits(*is_pro, *credits)?,
            Requester::Visitor { visitor_hash, ip } => {
                let (visitor_hash, ip, now) = (visitor_hash.clone(), ip.clone(), clock.now());
                db.run(move |conn| super::check_trial(conn, &visitor_hash, &ip, now)).await?;
            }
        }
        return deliver(ctx, engine, requester, submission).await;
    }
    // A photo: what its header says first, then the hold (credit, one at a time).
    let inspected = upload::inspect(&submission.value, upload::ALL_KINDS).map_err(AnalysisError::Image)?;
    let (holder, now) = (requester.clone(), clock.now());
    let hold = db.run(move |conn| super::take_hold(conn, &holder, now)).await?;
    let _release = HoldGuard { db: db.clone(), hold: Some(hold) };
    let ticket = ctx.uploads.admit(&requester.queue_owner())?;
    let prepared = ctx.uploads.decode(&ticket, inspected, pipeline::prepare_inspected).await??;
    let delivered = deliver_photo(ctx, engine, requester, submission, prepared).await;
    drop(ticket);
    delivered
}

/// Gives a hold back when the flow ends, however it ends (a dropped request included).
struct HoldGuard {
    db: Db,
    hold: Option<Hold>,
}

impl Drop for HoldGuard {
    fn drop(&mut self) {
        let (Some(hold), Ok(runtime)) = (self.hold.take(), tokio::runtime::Handle::try_current()) else {
            return;
        };
        let db = self.db.clone();
        runtime.spawn(async move {
            if let Err(e) = db.run(move |conn| super::release_hold(conn, &hold)).await {
                tracing::warn!(error = %e, "an analysis hold could not be given back; it expires");
            }
        });
    }
}

async fn deliver(
    ctx: &AppCtx,
    engine: &Engine,
    requester: Requester,
    submission: Submission,
) -> Result<Delivered, AnalysisError> {
    let input = AnalysisInput::Text(Arc::from(submission.value.trim()));
    let input_text = Some(submission.value.trim().to_owned());
    finish(ctx, engine, requester, input, Made { input_text, image: None, previous: submission.previous })
        .await
}

async fn deliver_photo(
    ctx: &AppCtx,
    engine: &Engine,
    requester: Requester,
    submission: Submission,
    prepared: PreparedImage,
) -> Result<Delivered, AnalysisError> {
    // Kept with a saved analysis: the note sent with a photo.
    let input_text =
        submission.description.as_deref().map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned);
    let prepared = Arc::new(prepared);
    let made = Made { input_text, image: Some(prepared.clone()), previous: submission.previous };
    finish(ctx, engine, requester, AnalysisInput::Image(prepared), made).await
}

/// What an analysis is saved with besides its result.
struct Made {
    input_text: Option<String>,
    image: Option<Arc<PreparedImage>>,
    previous: Option<AnalysisId>,
}

/// Rates the input, then saves it with its credit or claims the visitor's trial.
async fn finish(
    ctx: &AppCtx,
    engine: &Engine,
    requester: Requester,
    input: AnalysisInput,
    made: Made,
) -> Result<Delivered, AnalysisError> {
    let Made { input_text, image, previous } = made;
    let AppCtx { db, clock, uploads, .. } = ctx;
    let media = uploads.media();
    let input_type = if image.is_some() { InputType::Image } else { InputType::Text };
    let rating = engine.analyze(input).await?;
    let assessment = rating.assessment.clone();
    let suggestions = db.run(move |conn| suggestions::suggest(conn, &assessment)).await?;
    let now = clock.now();

    let stored = match &image {
        Some(image) => Some(store_images(uploads, image).await?),
        None => None,
    };
    let (id, is_pro) = match requester {
        Requester::Visitor { visitor_hash, ip } => {
            let report = Report::new(rating.assessment, suggestions, rating.analyzer);
            let delivered = TrialResult { input_type, input_text, stored, report };
            return keep_trial(ctx, visitor_hash, ip, delivered, now).await;
        }
        Requester::User { id, is_pro, .. } => (id, is_pro),
    };
    let keys = stored.clone();
    let saved = db
        .run(move |conn| {
            let new = NewAnalysis {
                user_id: id,
                is_pro,
                input_type,
                input_text: input_text.as_deref(),
                image: keys.as_ref().map(|(photo, _)| photo),
                thumbnail: keys.as_ref().map(|(_, thumb)| thumb),
                rating: &rating,
                suggestions: &suggestions,
                previous,
            };
            super::save_and_charge(conn, &new, now)
        })
        .await;
    match saved {
        Ok((analysis, balance)) => Ok(Delivered::Saved { analysis, balance }),
        Err(err) => {
            // Nothing was saved or charged: the photos must not stay behind either.
            media.remove_media(stored.iter().flat_map(|(photo, thumb)| [photo, thumb])).await;
            Err(err)
        }
    }
}

/// A visitor's delivered free result: what was analysed, its stored photos, the result.
struct TrialResult {
    input_type: InputType,
    input_text: Option<String>,
    stored: Option<(MediaKey, MediaKey)>,
    report: Report,
}

/// Claims the visitor's free trial for a delivered result and keeps the result (and its
/// stored photos) for the account they may make or sign in to right after
/// ([`super::visitor`]); then forgets the kept results whose time is up.
async fn keep_trial(
    ctx: &AppCtx,
    visitor_hash: String,
    ip: String,
    delivered: TrialResult,
    now: DateTime<Utc>,
) -> Result<Delivered, AnalysisError> {
    let TrialResult { input_type, input_text, stored, report } = delivered;
    let AppCtx { db, config, uploads, .. } = ctx;
    let media = uploads.media();
    let keep_for = config.visitor_result_keep;
    let (keys, kept_report) = (stored.clone(), report.clone());
    let claimed = db
        .run(move |conn| {
            let kept = super::visitor::KeptResult {
                input_type,
                input_text: input_text.as_deref(),
                image: keys.as_ref().map(|(photo, _)| photo),
                thumbnail: keys.as_ref().map(|(_, thumb)| thumb),
                report: &kept_report,
            };
            super::visitor::claim_trial_keeping(conn, &visitor_hash, &ip, &kept, now, keep_for)
        })
        .await;
    if let Err(err) = claimed {
        // Nothing was kept: the photos must not stay behind either.
        media.remove_media(stored.iter().flat_map(|(photo, thumb)| [photo, thumb])).await;
        return Err(err);
    }
    match db.run(move |conn| super::visitor::purge_expired(conn, now)).await {
        Ok(expired) => media.remove_media(&expired).await,
        Err(e) => tracing::warn!(error = %e, "expired visitor results could not be purged; the sweep will"),
    }
    Ok(Delivered::Trial { report, at: now })
}

/// Stores the fitted photo and its thumbnail; returns their keys.
async fn store_images(
    uploads: &Uploads,
    image: &PreparedImage,
) -> Result<(MediaKey, MediaKey), AnalysisError> {
    let media = uploads.media();
    let photo = MediaKey::generate("analyses", MediaKind::Jpeg);
    let thumb = MediaKey::generate("analysis_thumbs", MediaKind::Jpeg);
    media.put(&photo, image.jpeg.clone()).await?;
    if let Err(e) = media.put(&thumb, image.thumbnail.clone()).await {
        media.remove_media([&photo]).await;
        return Err(e.into());
    }
    Ok((photo, thumb))
}
