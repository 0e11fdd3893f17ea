//! The analyse flow, from a request's input to a delivered result: the allowance is checked
//! before any work, the photo goes through the upload pipeline, the [`Engine`] screens and
//! rates it, suggestions come from the catalogue, and then either the result is saved with
//! its credit (signed in) or the visitor's free trial is claimed (anonymous, nothing kept).
//!
//! The one async flow of this crate: it orchestrates the rules of [`super`] (each a plain
//! function over a connection, run through [`Db::run`]) with the analyzer and the media
//! store. Whatever fails after the photos were stored removes them again.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use setupiq_analyzer::pipeline::{self, PreparedImage};
use setupiq_analyzer::{AnalysisInput, Engine};
use setupiq_core::SharedClock;
use setupiq_core::media::{MediaKey, MediaKind, MediaStore};
use setupiq_db::Db;

use super::{InputType, NewAnalysis, Report, Requester, SavedAnalysis, suggestions};
use crate::error::AnalysisError;

/// What the service needs for an analysis; one per process.
#[derive(Clone, Copy)]
pub struct AnalyzeContext<'a> {
    pub db: &'a Db,
    pub clock: &'a SharedClock,
    pub engine: &'a Engine,
    pub media: &'a MediaStore,
}

/// What a request asks to analyse (already validated).
#[derive(Debug)]
pub struct Submission {
    pub input_type: InputType,
    /// A `data:image/…` URL or the description.
    pub value: String,
    /// The note that came with a photo.
    pub description: Option<String>,
}

/// A delivered result.
#[derive(Debug)]
pub enum Delivered {
    /// A visitor's free analysis: not stored.
    Trial { report: Report, at: DateTime<Utc> },
    /// A signed-in user's analysis, saved, and the balance after its credit.
    Saved { analysis: SavedAnalysis, balance: i32 },
}

/// Runs the whole flow for `requester`.
pub async fn analyze(
    ctx: AnalyzeContext<'_>,
    requester: Requester,
    submission: Submission,
) -> Result<Delivered, AnalysisError> {
    let AnalyzeContext { db, clock, engine, media } = ctx;
    match &requester {
        Requester::User { is_pro, credits, .. } => super::check_credits(*is_pro, *credits)?,
        Requester::Visitor { visitor_hash, ip } => {
            let (visitor_hash, ip, now) = (visitor_hash.clone(), ip.clone(), clock.now());
            db.run(move |conn| super::check_trial(conn, &visitor_hash, &ip, now)).await?;
        }
    }

    // Kept with a saved analysis: the description analysed, or the note sent with a photo.
    let Submission { input_type, value, description } = submission;
    let input_text = match input_type {
        InputType::Text => Some(value.trim().to_owned()),
        InputType::Image => {
            description.as_deref().map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned)
        }
    };
    let (input, image) = match input_type {
        InputType::Text => (AnalysisInput::Text(Arc::from(value.trim())), None),
        InputType::Image => {
            let prepared = engine.local_analyzer().run(move || pipeline::prepare(&value)).await??;
            let prepared = Arc::new(prepared);
            (AnalysisInput::Image(prepared.clone()), Some(prepared))
        }
    };
    let rating = engine.analyze(input).await?;
    let assessment = rating.assessment.clone();
    let suggestions = db.run(move |conn| suggestions::suggest(conn, &assessment)).await?;
    let now = clock.now();

    let (id, is_pro) = match requester {
        Requester::Visitor { visitor_hash, ip } => {
            db.run(move |conn| super::claim_trial(conn, &visitor_hash, &ip, now)).await?;
            let report = Report::new(rating.assessment, suggestions, rating.analyzer);
            return Ok(Delivered::Trial { report, at: now });
        }
        Requester::User { id, is_pro, .. } => (id, is_pro),
    };
    let stored = match &image {
        Some(image) => Some(store_images(media, image).await?),
        None => None,
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

/// Stores the fitted photo and its thumbnail; returns their keys.
async fn store_images(
    media: &MediaStore,
    image: &PreparedImage,
) -> Result<(MediaKey, MediaKey), AnalysisError> {
    let photo = MediaKey::generate("analyses", MediaKind::Jpeg);
    let thumb = MediaKey::generate("analysis_thumbs", MediaKind::Jpeg);
    media.put(&photo, image.jpeg.clone()).await?;
    if let Err(e) = media.put(&thumb, image.thumbnail.clone()).await {
        media.remove_media([&photo]).await;
        return Err(e.into());
    }
    Ok((photo, thumb))
}
