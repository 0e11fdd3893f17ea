//! `POST /_api/analyze-setup`, `GET /_api/my-analyses`, `GET /_api/analyses/{id}`, sharing
//! (`POST /_api/analyses/{id}/share` and `…/unshare`), deleting (`…/delete`) and the shared
//! page and card visitors open (`/share/{token}`, `/share/{token}/card.png`).

use std::sync::Arc;

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use setupiq_analyzer::Engine;
use setupiq_analyzer::pipeline::{ImageRejection, MAX_FILE_BYTES};
use setupiq_analyzer::voice::Voice;
use setupiq_auth::arrivals::OnArrival;
use setupiq_auth::{CurrentUser, OptionalUser};
use setupiq_core::openapi::NotSignedIn;
use setupiq_core::validation::{ValidJson, ValidQuery};
use setupiq_core::{AnalysisId, ApiError, Config, ErrorBody, error, tokens};
use setupiq_db::{AppCtx, Db};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{
    AnalyzeRequest, AnalyzeResponse, MyAnalysesQuery, MyAnalysesResponse, SavedAnalysisDto, ShareResponse,
};
use crate::error::AnalysisError;
use crate::service::analyze::{self, Submission};
use crate::service::share::CardCache;
use crate::service::{self, Requester};

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
    .service(analysis_by_id)
    .service(share_analysis)
    .service(unshare_analysis)
    .service(delete_analysis);
}

/// Mounts the pages visitors open: `/share/{token}` and its card.
pub fn configure_pages(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::Data::new(CardCache::default())).service(shared_page).service(shared_card);
}

/// `?voice=roast` or `?voice=coach` on a shared page or card; anything else is Honest (a
/// link is never broken by its query).
#[derive(Debug, serde::Deserialize)]
struct VoiceQuery {
    voice: Option<String>,
}

impl VoiceQuery {
    fn voice(&self) -> Voice {
        Voice::from_query(self.voice.as_deref())
    }
}

/// An oversized body is an oversized photo: say so in the dropzone's words.
fn analyze_body_error(err: actix_web::error::JsonPayloadError, req: &HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    match err {
        JsonPayloadError::OverflowKnownLength { length, .. } => {
            AnalysisError::Image(ImageRejection::TooManyBytes { bytes: length / 4 * 3 }).into()
        }
        JsonPayloadError::Overflow { limit } => {
            AnalysisError::Image(ImageRejection::TooManyBytes { bytes: limit / 4 * 3 }).into()
        }
        other => error::json_error_handler(other, req),
    }
}

/// Analyses a photo or a description of a setup and returns the SetupIQ Score, the six
/// category scores, the cable inventory and upgrade suggestions.
///
/// Signed-in users need at least 1 credit, taken when the result is saved (Pro users are
/// not charged); an anonymous visitor gets one free analysis, kept a short while for this
/// browser only: signing up or signing in from it saves it to the account.
#[utoipa::path(
    tag = "analysis",
    request_body = AnalyzeRequest,
    responses(
        (status = 200, description = "The analysis", body = AnalyzeResponse),
        (status = 400, description = "Invalid input or unreadable image", body = ErrorBody),
        (status = 402, description = "No credits left (signed in) or the free trial is used (anonymous)", body = ErrorBody),
        (status = 404, description = "`previousAnalysisId` is not one of the caller's analyses", body = ErrorBody),
        (status = 409, description = "Another photo analysis of this account (or visitor) is running", body = ErrorBody),
        (status = 413, description = "The file is larger than 10 MB, or the picture larger than 40 megapixels", body = ErrorBody),
        (status = 422, description = "Not a desk or gaming setup, or not safe for work", body = ErrorBody),
        (status = 429, description = "Too many images of this account or address in flight", body = ErrorBody),
        (status = 503, description = "The image queue is full (see `Retry-After`), or the analyzer could not produce a result", body = ErrorBody),
    )
)]
#[post("")]
async fn analyze_setup(
    req: HttpRequest,
    user: OptionalUser,
    body: ValidJson<AnalyzeRequest>,
    ctx: web::Data<AppCtx>,
    engine: web::Data<Engine>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let (requester, new_visitor_token) = requester(&req, &user);
    let submission = Submission {
        input_type: body.input_type,
        value: body.value,
        description: body.description,
        previous: body.previous_analysis_id.map(AnalysisId),
    };
    let mut response = match analyze::analyze(&ctx, &engine, requester, submission).await {
        Ok(delivered) => HttpResponse::Ok().json(AnalyzeResponse::from(delivered)),
        Err(err) => actix_web::ResponseError::error_response(&ApiError::from(err)),
    };
    if let Some(token) = new_visitor_token {
        response.add_cookie(&visitor_cookie(&ctx.config, token)).map_err(ApiError::internal)?;
    }
    Ok(response)
}

/// Who is asking: the signed-in user, or the visitor of the anonymous-id cookie (a new
/// one, returned to be set, when the browser has none).
fn requester(req: &HttpRequest, user: &OptionalUser) -> (Requester, Option<String>) {
    if let Some(user) = &user.0 {
        let account = &user.account;
        let requester = Requester::User { id: account.id, is_pro: account.is_pro, credits: account.credits };
        return (requester, None);
    }
    let ip = setupiq_auth::extract::client_ip(req).unwrap_or_else(|| "unknown".to_owned());
    let (token, new) = match visitor_token(req) {
        Some(token) => (token, None),
        None => {
            let token = tokens::generate();
            (token.clone(), Some(token))
        }
    };
    (Requester::Visitor { visitor_hash: tokens::digest(&token), ip }, new)
}

/// The browser's anonymous-id cookie, when it carries a well-formed one.
fn visitor_token(req: &HttpRequest) -> Option<String> {
    req.cookie(VISITOR_COOKIE).map(|c| c.value().to_owned()).filter(|v| v.len() >= 32)
}

/// The hand-over the gateway registers with sign-up and sign-in ([`Arrivals`]): the free
/// result the browser's visitor cookie made, while it is kept, becomes an analysis of the
/// account ([`service::visitor::claim`]).
///
/// [`Arrivals`]: setupiq_auth::arrivals::Arrivals
pub fn claim_on_arrival() -> OnArrival {
    Arc::new(move |ctx, req, user_id| {
        Box::pin(async move {
            let Some(token) = visitor_token(&req) else { return Ok(None) };
            let (visitor_hash, now) = (tokens::digest(&token), ctx.clock.now());
            let claimed = ctx
                .db
                .run(move |conn| service::visitor::claim(conn, &visitor_hash, user_id, now))
                .await
                .map_err(|e| e.to_string())?;
            Ok(claimed.map(|analysis| {
                tracing::info!(
                    user_id = user_id.0,
                    analysis_id = analysis.id.0,
                    "a visitor's free result saved to their account"
                );
                analysis.id
            }))
        })
    })
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

/// The signed-in user's saved analyses, newest first.
#[utoipa::path(
    tag = "analysis",
    security(("session" = [])),
    params(MyAnalysesQuery),
    responses(
        (status = 200, description = "Newest first", body = MyAnalysesResponse),
        (status = 400, description = "Invalid query", body = ErrorBody),
        NotSignedIn,
    )
)]
#[get("/_api/my-analyses")]
async fn my_analyses(
    user: CurrentUser,
    query: ValidQuery<MyAnalysesQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<MyAnalysesResponse>, ApiError> {
    let query = query.into_inner();
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
    security(("session" = [])),
    params(("id" = i64, Path, description = "The analysis id")),
    responses(
        (status = 200, description = "The saved analysis", body = SavedAnalysisDto),
        NotSignedIn,
        (status = 404, description = "No such analysis of yours", body = ErrorBody),
    )
)]
#[get("/_api/analyses/{id}")]
async fn analysis_by_id(
    user: CurrentUser,
    id: web::Path<i64>,
    db: web::Data<Db>,
) -> Result<web::Json<SavedAnalysisDto>, ApiError> {
    let (user_id, id) = (user.id(), AnalysisId(id.into_inner()));
    let saved = db.run(move |conn| service::find_for_owner(conn, user_id, id)).await?;
    Ok(web::Json(saved.into()))
}

/// Shares one of the signed-in user's analyses at a public URL (the same URL if it is
/// shared already).
#[utoipa::path(
    tag = "analysis",
    security(("session" = [])),
    params(("id" = i64, Path, description = "The analysis id")),
    responses(
        (status = 200, description = "Shared: the public page and its card image", body = ShareResponse),
        NotSignedIn,
        (status = 404, description = "No such analysis of yours", body = ErrorBody),
    )
)]
#[post("/_api/analyses/{id}/share")]
async fn share_analysis(
    user: CurrentUser,
    id: web::Path<i64>,
    db: web::Data<Db>,
    config: web::Data<Config>,
) -> Result<web::Json<ShareResponse>, ApiError> {
    let (user_id, id) = (user.id(), AnalysisId(id.into_inner()));
    let token = db.run(move |conn| service::share::share(conn, user_id, id)).await?;
    Ok(web::Json(ShareResponse::new(&config, &token)))
}

/// Stops sharing one of the signed-in user's analyses: its public URL stops working.
#[utoipa::path(
    tag = "analysis",
    security(("session" = [])),
    params(("id" = i64, Path, description = "The analysis id")),
    responses(
        (status = 204, description = "No longer shared (or never was)"),
        NotSignedIn,
        (status = 404, description = "No such analysis of yours", body = ErrorBody),
    )
)]
#[post("/_api/analyses/{id}/unshare")]
async fn unshare_analysis(
    user: CurrentUser,
    id: web::Path<i64>,
    db: web::Data<Db>,
) -> Result<HttpResponse, ApiError> {
    let (user_id, id) = (user.id(), AnalysisId(id.into_inner()));
    db.run(move |conn| service::share::unshare(conn, user_id, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Deletes one of the signed-in user's analyses for good, with its photos, its public share
/// link and the community post made of it.
#[utoipa::path(
    tag = "analysis",
    security(("session" = [])),
    params(("id" = i64, Path, description = "The analysis id")),
    responses(
        (status = 204, description = "Deleted"),
        NotSignedIn,
        (status = 404, description = "No such analysis of yours", body = ErrorBody),
    )
)]
#[post("/_api/analyses/{id}/delete")]
async fn delete_analysis(
    user: CurrentUser,
    id: web::Path<i64>,
    ctx: web::Data<AppCtx>,
) -> Result<HttpResponse, ApiError> {
    service::delete_analysis(&ctx, user.id(), AnalysisId(id.into_inner())).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The shared analysis's public page. Once revoked, or for a token that never existed, a
/// page in HTML (404) saying so, with a link home: whoever follows a dead link is a person
/// with a browser, not an API client.
#[get("/share/{token}")]
async fn shared_page(
    token: web::Path<String>,
    query: web::Query<VoiceQuery>,
    db: web::Data<Db>,
    config: web::Data<Config>,
) -> Result<HttpResponse, ApiError> {
    let token = token.into_inner();
    let lookup = token.clone();
    let (status, page) = match db.run(move |conn| service::share::find_shared(conn, &lookup)).await {
        Ok(analysis) => {
            (StatusCode::OK, crate::share::page(&analysis, &config.public_origin(), &token, query.voice()))
        }
        Err(AnalysisError::NotFound) => (StatusCode::NOT_FOUND, crate::share::gone_page()),
        Err(e) => return Err(e.into()),
    };
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(page.into_string()))
}

/// The shared analysis's card (1200x630 PNG); 404 once revoked.
#[get("/share/{token}/card.png")]
async fn shared_card(
    token: web::Path<String>,
    query: web::Query<VoiceQuery>,
    ctx: web::Data<AppCtx>,
    cards: web::Data<CardCache>,
) -> Result<HttpResponse, ApiError> {
    let png = service::share::card(&ctx, &cards.into_inner(), token.into_inner(), query.voice()).await?;
    Ok(HttpResponse::Ok()
        .content_type("image/png")
        .insert_header((header::CACHE_CONTROL, "public, max-age=600"))
        .body(png))
}
