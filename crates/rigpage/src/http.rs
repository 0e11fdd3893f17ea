//! The RigPage endpoints (`/_api/rigpage/…`) and the pages visitors open (`/rig/{slug}`,
//! its link redirects and the self-hosted font).

use actix_web::http::header::{self, CacheControl, CacheDirective};
use actix_web::{HttpRequest, HttpResponse, get, post, route, web};
use setupiq_auth::{CurrentUser, OptionalUser};
use setupiq_core::openapi::NotSignedIn;
use setupiq_core::upload::Uploads;
use setupiq_core::validation::ValidJson;
use setupiq_core::{ApiError, Config, ErrorBody, LinkId, SharedClock, UserId, error};
use setupiq_db::{AppCtx, Db};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{
    EditorParts, MAX_IMAGE_DATA, PreviewResponse, PublicRigpageResponse, RigpageConfigRequest,
    RigpageEditorResponse, RigpageStatsResponse, SaveRigpageResponse, ThemeDto, ThemesResponse,
    UploadImageRequest, UploadImageResponse,
};
use crate::error::{IMAGE_TOO_LARGE, RigpageError};
use crate::render::{self, Mode};
use crate::service::PublicPages;
use crate::service::cache::Served;
use crate::service::config::{self, slug_key};
use crate::service::themes::Theme;
use crate::service::visits;
use crate::service::{images, public, qr};

/// Mounts the API endpoints at their full `/_api/rigpage/…` paths (the public page of a
/// slug last, so it never shadows the others).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(
        utoipa_actix_web::scope("/_api/rigpage/images")
            .app_data(web::JsonConfig::default().limit(MAX_IMAGE_DATA + 1024).error_handler(image_body_error))
            .service(upload_image),
    )
    .service(get_config)
    .service(save_config)
    .service(preview)
    .service(stats)
    .service(qr_code)
    .service(themes)
    .service(public_config);
}

/// Mounts the pages visitors open: `/rig/{slug}`, `/rig/{slug}/go/{linkId}` and the font.
pub fn configure_pages(cfg: &mut web::ServiceConfig) {
    cfg.service(public_page).service(follow_link).service(gaming_font);
}

/// An oversized body is an oversized image: say so in the editor's words.
fn image_body_error(err: actix_web::error::JsonPayloadError, req: &HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    match err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::invalid("imageData", IMAGE_TOO_LARGE).into()
        }
        other => error::json_error_handler(other, req),
    }
}

/// The editor's data for the signed-in user: their page (with the defaults when never
/// saved), charges paid so far, balance, best score and photo analyses.
async fn editor_response(
    db: &Db,
    user: &CurrentUser,
    config: &Config,
    editor: Option<config::Editor>,
    credits: Option<i32>,
) -> Result<RigpageEditorResponse, ApiError> {
    let (user_id, username) = (user.id(), user.account.username.clone());
    let (editor, setups) = db
        .run(move |conn| {
            let editor = match editor {
                Some(editor) => editor,
                None => config::load(conn, user_id, &username)?,
            };
            let (setups, _) = setupiq_analysis::service::list_for_owner(conn, user_id, 50, 0)?;
            Ok::<_, RigpageError>((editor, setups))
        })
        .await?;
    Ok(EditorParts {
        editor,
        account: &user.account,
        credits: credits.unwrap_or(user.account.credits),
        setups: &setups,
        public_base: &config.public_origin(),
    }
    .into())
}

/// The signed-in user's RigPage config, with what the editor shows around it.
#[utoipa::path(
    tag = "rigpage",
    security(("session" = [])),
    responses((status = 200, description = "The config", body = RigpageEditorResponse), NotSignedIn)
)]
#[get("/_api/rigpage/config")]
async fn get_config(
    user: CurrentUser,
    db: web::Data<Db>,
    config: web::Data<Config>,
) -> Result<web::Json<RigpageEditorResponse>, ApiError> {
    Ok(web::Json(editor_response(&db, &user, &config, None, None).await?))
}

/// Saves the page. The server charges, in the same transaction: the first Go Live
/// (`rigpageEnabled` false -> true) 1 credit, and each started batch of 10 links beyond
/// the 5 free ones 1 credit, each batch once per account. Too few credits: 402, nothing saved.
#[utoipa::path(
    tag = "rigpage",
    security(("session" = [])),
    request_body = RigpageConfigRequest,
    responses(
        (status = 200, description = "Saved, with what it cost", body = SaveRigpageResponse),
        (status = 400, description = "Invalid field, a reserved slug, a setup or image that is not the user's, or Go Live without slug and setup", body = ErrorBody),
        NotSignedIn,
        (status = 402, description = "Not enough credits", body = ErrorBody),
        (status = 409, description = "The slug is taken", body = ErrorBody),
    )
)]
#[post("/_api/rigpage/config")]
async fn save_config(
    user: CurrentUser,
    body: ValidJson<RigpageConfigRequest>,
    ctx: web::Data<AppCtx>,
    pages: web::Data<PublicPages>,
) -> Result<web::Json<SaveRigpageResponse>, ApiError> {
    let saved = config::save_page(&ctx, &pages, user.id(), body.into_inner().into_settings()).await?;
    let page = editor_response(&ctx.db, &user, &ctx.config, Some(saved.editor), Some(saved.credits)).await?;
    Ok(web::Json(SaveRigpageResponse { page, charged: saved.charge.into() }))
}

/// Renders a draft config with the public page's renderer (sample links when it has none),
/// for the editor's live preview. Nothing is saved or charged.
#[utoipa::path(
    tag = "rigpage",
    security(("session" = [])),
    request_body = RigpageConfigRequest,
    responses(
        (status = 200, description = "The page as HTML", body = PreviewResponse),
        (status = 400, description = "Invalid field, or a setup or image that is not the user's", body = ErrorBody),
        NotSignedIn,
    )
)]
#[post("/_api/rigpage/preview")]
async fn preview(
    user: CurrentUser,
    body: ValidJson<RigpageConfigRequest>,
    db: web::Data<Db>,
) -> Result<web::Json<PreviewResponse>, ApiError> {
    let (user_id, draft) = (user.id(), body.into_inner().into_settings());
    let page = db.run(move |conn| public::preview(conn, user_id, draft)).await?;
    Ok(web::Json(PreviewResponse { html: render::page(&page, Mode::Preview) }))
}

/// Uploads an avatar, background or link image (PNG, JPEG or WebP, at most 10 MB and 40
/// megapixels); it is
/// re-encoded without metadata and must pass the safety classifier (the page is public).
/// Put the returned URL in the config and save.
#[utoipa::path(
    tag = "rigpage",
    security(("session" = [])),
    request_body = UploadImageRequest,
    responses(
        (status = 200, description = "Stored", body = UploadImageResponse),
        (status = 400, description = "Not a PNG, JPEG or WebP image, or a larger body than 10 MB of image takes", body = ErrorBody),
        NotSignedIn,
        (status = 413, description = "The file is larger than 10 MB, or the picture larger than 40 megapixels", body = ErrorBody),
        (status = 422, description = "The image is not safe for work", body = ErrorBody),
        (status = 429, description = "Too many uploads in the last hour, or this account's images are still being processed", body = ErrorBody),
        (status = 503, description = "The image queue is full (see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("")]
async fn upload_image(
    user: CurrentUser,
    body: ValidJson<UploadImageRequest>,
    db: web::Data<Db>,
    uploads: web::Data<Uploads>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<UploadImageResponse>, ApiError> {
    let body = body.into_inner();
    let url = images::upload(&db, &uploads, &clock, user.id(), body.kind, body.image_data).await?;
    Ok(web::Json(UploadImageResponse { url }))
}

/// The creator's analytics of the last 30 days: visitors' page views and link clicks
/// (never the owner's own visits or known bots), per link and per day.
#[utoipa::path(
    tag = "rigpage",
    security(("session" = [])),
    responses((status = 200, description = "Views and clicks", body = RigpageStatsResponse), NotSignedIn)
)]
#[get("/_api/rigpage/stats")]
async fn stats(
    user: CurrentUser,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    pages: web::Data<PublicPages>,
) -> Result<web::Json<RigpageStatsResponse>, ApiError> {
    let (user_id, now) = (user.id(), clock.now());
    let stats = db
        .run(move |conn| {
            pages.visits.flush(conn)?;
            visits::stats(conn, user_id, now)
        })
        .await?;
    Ok(web::Json(stats.into()))
}

/// A QR code (SVG) of the page's public address, for print and stream overlays.
#[utoipa::path(
    tag = "rigpage",
    security(("session" = [])),
    responses(
        (status = 200, description = "The QR code", content_type = "image/svg+xml", body = String),
        NotSignedIn,
        (status = 404, description = "The page has no slug yet", body = ErrorBody),
    )
)]
#[get("/_api/rigpage/qr")]
async fn qr_code(user: CurrentUser, ctx: web::Data<AppCtx>) -> Result<HttpResponse, ApiError> {
    let svg = qr::svg(&ctx, user.id(), user.account.username.clone()).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
        .insert_header(CacheControl(vec![CacheDirective::Private, CacheDirective::NoCache]))
        .body(svg))
}

/// The 13 themes with the preset the editor applies on choosing one.
#[utoipa::path(tag = "rigpage", responses((status = 200, description = "Themes", body = ThemesResponse)))]
#[get("/_api/rigpage/themes")]
async fn themes() -> web::Json<ThemesResponse> {
    web::Json(ThemesResponse { themes: Theme::ALL.into_iter().map(ThemeDto::from).collect() })
}

/// A public RigPage by its slug (any case): the owner's looks and texts (never an e-mail),
/// the showcased setup and the links that are switched on.
#[utoipa::path(
    tag = "rigpage",
    params(("slug" = String, Path, max_length = 30, description = "The page's slug, in any case")),
    responses(
        (status = 200, description = "The page", body = PublicRigpageResponse),
        (status = 404, description = "No such page, or it is not public", body = ErrorBody),
    )
)]
#[get("/_api/rigpage/{slug}")]
async fn public_config(
    slug: web::Path<String>,
    db: web::Data<Db>,
) -> Result<web::Json<PublicRigpageResponse>, ApiError> {
    let slug = slug.into_inner();
    let name = slug.clone();
    let page = db.run(move |conn| public::find(conn, &slug)).await?;
    page.map(|p| web::Json(p.into()))
        .ok_or_else(|| ApiError::not_found(format!("Failed to fetch RigPage for {name}.")))
}

fn html(status: actix_web::http::StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header(CacheControl(vec![CacheDirective::NoCache]))
        .body(body)
}

/// Whether this request is a visitor worth counting: not a bot, not the page's owner.
fn counts(req: &HttpRequest, viewer: &OptionalUser, owner_id: UserId) -> bool {
    let agent = req.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok());
    !setupiq_core::user_agent::is_bot(agent) && viewer.0.as_ref().is_none_or(|u| u.id() != owner_id)
}

/// The public page, rendered by the server: no framework script, CSS inline. `HEAD` (link
/// previewers ask it first) answers the same headers and counts nothing.
#[route("/rig/{slug}", method = "GET", method = "HEAD")]
async fn public_page(
    req: HttpRequest,
    slug: web::Path<String>,
    viewer: OptionalUser,
    ctx: web::Data<AppCtx>,
    pages: web::Data<PublicPages>,
) -> Result<HttpResponse, ApiError> {
    let slug = slug.into_inner();
    let key = slug_key(&slug);
    let kept = pages.kept(&ctx.changes);
    let served = match kept.get(&key) {
        Some(cached) => cached,
        None => {
            let (wanted, now) = (slug.clone(), ctx.clock.now());
            let found = ctx.db.run(move |conn| public::resolve(conn, &wanted, now)).await?;
            let base = ctx.config.public_origin();
            let served = found.map(|found| {
                std::sync::Arc::new(match found {
                    public::Found::Page(page) => {
                        // The canonical address carries the slug as its owner wrote it.
                        let canonical = page.settings.slug.clone().unwrap_or_else(|| slug.clone());
                        let html = render::page(&page, Mode::Public { base_url: &base, slug: &canonical });
                        Served::Page { owner_id: page.owner_id, html }
                    }
                    public::Found::MovedTo(new_slug) => Served::MovedTo(new_slug),
                })
            });
            kept.put(key, served.clone());
            served
        }
    };
    match served.as_deref() {
        None => Ok(html(actix_web::http::StatusCode::NOT_FOUND, render::not_found(&slug))),
        // Printed QR codes and shared links of a renamed page keep working for 90 days.
        Some(Served::MovedTo(new_slug)) => Ok(HttpResponse::MovedPermanently()
            .insert_header((header::LOCATION, format!("/rig/{new_slug}")))
            .insert_header(CacheControl(vec![CacheDirective::NoCache]))
            .finish()),
        Some(Served::Page { owner_id, html: page }) => {
            if req.method() == actix_web::http::Method::GET && counts(&req, &viewer, *owner_id) {
                pages.visits.count_view(*owner_id, ctx.clock.now());
            }
            Ok(html(actix_web::http::StatusCode::OK, page.clone()))
        }
    }
}

/// A visitor's click on a link: counted, then sent to the link's stored URL. Only links of
/// that public page, switched on, ever redirect (never an open redirect).
#[get("/rig/{slug}/go/{link_id}")]
async fn follow_link(
    req: HttpRequest,
    path: web::Path<(String, i64)>,
    viewer: OptionalUser,
    db: web::Data<Db>,
    pages: web::Data<PublicPages>,
    clock: web::Data<SharedClock>,
) -> Result<HttpResponse, ApiError> {
    let (slug, link_id) = path.into_inner();
    let link_id = LinkId(link_id);
    let wanted = slug.clone();
    let target = db.run(move |conn| public::link_target(conn, &wanted, link_id)).await?;
    let Some((owner_id, url)) = target else {
        return Ok(html(actix_web::http::StatusCode::NOT_FOUND, render::not_found(&slug)));
    };
    if counts(&req, &viewer, owner_id) {
        pages.visits.count_click(link_id, clock.now());
    }
    Ok(HttpResponse::Found()
        .insert_header((header::LOCATION, url))
        .insert_header(CacheControl(vec![CacheDirective::NoStore]))
        .finish())
}

/// Orbitron (SIL Open Font License 1.1, `crates/rigpage/assets/OFL-orbitron.txt`), the
/// gaming font, served by us: no font CDN. Any origin may load it: the editor's preview is
/// a sandboxed frame, whose origin is `null`.
#[get("/rig-assets/orbitron-latin-700.woff2")]
async fn gaming_font() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "font/woff2"))
        .insert_header((header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"))
        .insert_header(CacheControl(vec![
            CacheDirective::Public,
            CacheDirective::MaxAge(31_536_000),
            CacheDirective::Extension("immutable".into(), None),
        ]))
        .body(&include_bytes!("../assets/orbitron-latin-700.woff2")[..])
}
