//! `POST /_api/analyze-setup`, `GET /_api/my-analyses` and `GET /_api/analyses/{id}`.

use std::sync::Arc;

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use setupiq_auth::{CurrentUser, OptionalUser};
use setupiq_core::media::{MediaKey, MediaKind, MediaStore};
use setupiq_core::validation::validate;
use setupiq_core::{ApiError, Config, ErrorBody, SharedClock, error, tokens};
use setupiq_db::Db;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{
    AnalysisResult, AnalyzeRequest, AnalyzeResponse, MyAnalysesQuery, MyAnalysesResponse, SavedAnalysisDto,
};
use crate::engine::{AnalysisInput, Engine};
use crate::error::AnalysisError;
use crate::pipeline::{self, MAX_FILE_BYTES, PreparedImage};
use crate::service::{self, InputType, NewAnalysis, Report, Requester, suggestions};

/// The anonymous-id cookie that carries a visitor's one free analysis.
const VISITOR_COOKIE: &str = "setupiq_visitor";
/// A 10 MB file as base64 in a JSON body, with room for the rest of the request.
const ANALYZE_BODY_LIMIT: usize = MAX_FILE_BYTES / 3 * 4 + 64 * 1024;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(
        utoipa_actix_web::scope("/_api/analyze-setup")
            .app_data(web::JsonConfig::default().limit(ANALYZE_BODY_LIMIT).error_handler(analyze_body_error))
            .service(analyze_setup),
    )
    .service(my_analyses)
    .service(analysis_by_id);
}

/// An oversized body is an oversized photo: say so in the dropzone's words.
fn analyze_body_error(err: actix_web::error::JsonPayloadError, req: &HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    match err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            AnalysisError::Image(pipeline::ImageRejection::TooLarge).into()
        }
        other => error::json_error_handler(other, req),
    }
}

impl From<AnalysisError> for actix_web::Error {
    fn from(err: AnalysisError) -> Self {
        ApiError::from(err).into()
    }
}

/// Analyses a photo or a description of a setup and returns the SetupIQ Score, the six
/// category scores, the cable inventory and upgrade suggestions.
///
/// Signed-in users need at least 1 credit, taken when the result is saved (Pro users are
/// not charged); an anonymous visitor gets one free analysis, which is not stored.
#[utoipa::path(
    tag = "analysis",
    request_body = AnalyzeRequest,
    responses(
        (status = 200, description = "The analysis", body = AnalyzeResponse),
        (status = 400, description = "Invalid input or unreadable image", body = ErrorBody),
        (status = 402, description = "No credits left (signed in) or the free trial is used (anonymous)", body = ErrorBody),
        (status = 413, description = "The image is larger than 10 MB", body = ErrorBody),
        (status = 422, description = "Not a desk or gaming setup, or not safe for work", body = ErrorBody),
        (status = 503, description = "The analyzer could not produce a result", body = ErrorBody),
    )
)]
#[post("")]
#[allow(clippy::too_many_arguments)]
async fn analyze_setup(
    req: HttpRequest,
    user: OptionalUser,
    body: web::Json<AnalyzeRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    engine: web::Data<Engine>,
    media: web::Data<MediaStore>,
    config: web::Data<Config>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    validate(&body)?;
    let clock = clock.get_ref().clone();
    let (requester, new_visitor_token) = requester(&req, &user);
    let visitor_cookie = new_visitor_token.map(|token| visitor_cookie(&config, token));

    let outcome = analyze(&db, &clock, &engine, &media, requester, body).await;
    let mut response = match outcome {
        Ok(body) => HttpResponse::Ok().json(body),
        Err(err) => actix_web::ResponseError::error_response(&ApiError::from(err)),
    };
    if let Some(cookie) = visitor_cookie {
        response.add_cookie(&cookie).map_err(ApiError::internal)?;
    }
    Ok(response)
}

/// Who is asking: the signed-in user, or the visitor of the anonymous-id cookie (a new
/// one, returned to be set, when the browser has none).
fn requester(req: &HttpRequest, user: &OptionalUser) -> (Requester, Option<String>) {
    if let Some(user) = &user.0 {
        let account = &user.account;
        return (Requester::User { id: account.id, is_pro: account.is_pro, credits: account.credits }, None);
    }
    let ip = setupiq_auth::extract::client_ip(req).unwrap_or_else(|| "unknown".to_owned());
    let existing = req.cookie(VISITOR_COOKIE).map(|c| c.value().to_owned()).filter(|v| v.len() >= 32);
    let (token, new) = match existing {
        Some(token) => (token, None),
        None => {
            let token = tokens::generate();
            (token.clone(), Some(token))
        }
    };
    (Requester::Visitor { visitor_hash: tokens::digest(&token), ip }, new)
}

fn visitor_cookie(config: &Config, token: String) -> Cookie<'static> {
    Cookie::build(VISITOR_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(config.is_https())
        .max_age(CookieDuration::days(365))
        .finish()
}

/// The whole flow: allowance, image pipeline, analyzer, suggestions, then either the saved
/// result with its credit or the visitor's trial claimed.
async fn analyze(
    db: &Db,
    clock: &SharedClock,
    engine: &Engine,
    media: &MediaStore,
    requester: Requester,
    body: AnalyzeRequest,
) -> Result<AnalyzeResponse, AnalysisError> {
    match &requester {
        Requester::User { is_pro, credits, .. } => service::check_credits(*is_pro, *credits)?,
        Requester::Visitor { visitor_hash, ip } => {
            let (visitor_hash, ip, now) = (visitor_hash.clone(), ip.clone(), clock.now());
            db.run(move |conn| service::check_trial(conn, &visitor_hash, &ip, now)).await?;
        }
    }

    // Kept with a saved analysis: the description analysed, or the note sent with a photo.
    let input_text = match body.input_type {
        InputType::Text => Some(body.value.trim().to_owned()),
        InputType::Image => {
            body.description.as_deref().map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned)
        }
    };
    let input_type = body.input_type;
    let (input, image) = match input_type {
        InputType::Text => (AnalysisInput::Text(Arc::from(body.value.trim())), None),
        InputType::Image => {
            let data_url = body.value;
            let prepared = engine.local_analyzer().run(move || pipeline::prepare(&data_url)).await??;
            let prepared = Arc::new(prepared);
            (AnalysisInput::Image(prepared.clone()), Some(prepared))
        }
    };
    let analysis = engine.analyze(input).await?;
    let assessment = analysis.assessment.clone();
    let suggestions = db.run(move |conn| suggestions::suggest(conn, &assessment)).await?;
    let now = clock.now();

    match requester {
        Requester::Visitor { visitor_hash, ip } => {
            db.run(move |conn| service::claim_trial(conn, &visitor_hash, &ip, now)).await?;
            let report = Report { assessment: analysis.assessment, suggestions, analyzer: analysis.analyzer };
            Ok(AnalyzeResponse {
                result: AnalysisResult::new(&report, now),
                credits_remaining: None,
                free_trial: true,
            })
        }
        Requester::User { id, is_pro, .. } => {
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
                        analysis: &analysis,
                        suggestions: &suggestions,
                    };
                    service::save_and_charge(conn, &new, now)
                })
                .await;
            match saved {
                Ok((saved, balance)) => Ok(AnalyzeResponse {
                    result: AnalysisResult::from(&saved),
                    credits_remaining: Some(balance),
                    free_trial: false,
                }),
                Err(err) => {
                    // Nothing was saved or charged: the photos must not stay behind either.
                    for key in stored.iter().flat_map(|(photo, thumb)| [photo, thumb]) {
                        setupiq_auth::service::profile::remove_media(media, key).await;
                    }
                    Err(err)
                }
            }
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
    let failed = |e: setupiq_core::media::MediaError| AnalysisError::Failed(format!("media store: {e}"));
    media.put(&photo, image.jpeg.clone()).await.map_err(failed)?;
    if let Err(e) = media.put(&thumb, image.thumbnail.clone()).await {
        setupiq_auth::service::profile::remove_media(media, &photo).await;
        return Err(failed(e));
    }
    Ok((photo, thumb))
}

/// The signed-in user's saved analyses, newest first.
#[utoipa::path(
    tag = "analysis",
    params(MyAnalysesQuery),
    responses(
        (status = 200, description = "Newest first", body = MyAnalysesResponse),
        (status = 400, description = "Invalid query", body = ErrorBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
    )
)]
#[get("/_api/my-analyses")]
async fn my_analyses(
    user: CurrentUser,
    query: web::Query<MyAnalysesQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<MyAnalysesResponse>, ApiError> {
    let query = query.into_inner();
    validate(&query)?;
    let (limit, offset) = (query.limit.unwrap_or(50), query.offset.unwrap_or(0));
    let user_id = user.id();
    let (analyses, total) = db.run(move |conn| service::list_for_owner(conn, user_id, limit, offset)).await?;
    Ok(web::Json(MyAnalysesResponse {
        analyses: analyses.into_iter().map(SavedAnalysisDto::from).collect(),
        total,
    }))
}

/// One of the signed-in user's saved analyses (another user's is not found).
#[utoipa::path(
    tag = "analysis",
    params(("id" = i64, Path, description = "The analysis id")),
    responses(
        (status = 200, description = "The saved analysis", body = SavedAnalysisDto),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "No such analysis of yours", body = ErrorBody),
    )
)]
#[get("/_api/analyses/{id}")]
async fn analysis_by_id(
    user: CurrentUser,
    id: web::Path<i64>,
    db: web::Data<Db>,
) -> Result<web::Json<SavedAnalysisDto>, ApiError> {
    let (id, user_id) = (id.into_inner(), user.id());
    let saved = db.run(move |conn| service::find_for_owner(conn, id, user_id)).await?;
    Ok(web::Json(saved.into()))
}
