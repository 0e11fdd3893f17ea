//! `POST /_api/track-click` and `GET /_api/trending-gear`.

use actix_web::{get, post, web};
use setupiq_auth::OptionalUser;
use setupiq_core::openapi::InvalidInput;
use setupiq_core::validation::ValidJson;
use setupiq_core::{AnalysisId, ApiError, ErrorBody, ProductId, SharedClock};
use setupiq_db::Db;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{ProductDto, TrackClickRequest, TrackClickResponse, TrendingGearResponse};
use crate::service::{self, NewClick};

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(track_click).service(trending_gear);
}

/// Records a click on a suggestion's product link (signed in or not).
#[utoipa::path(
    tag = "affiliate",
    request_body = TrackClickRequest,
    responses(
        (status = 200, description = "Recorded", body = TrackClickResponse),
        InvalidInput,
        (status = 404, description = "No such product", body = ErrorBody),
    )
)]
#[post("/_api/track-click")]
async fn track_click(
    req: actix_web::HttpRequest,
    user: OptionalUser,
    body: ValidJson<TrackClickRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<TrackClickResponse>, ApiError> {
    let body = body.into_inner();
    let user_id = user.0.map(|u| u.id());
    let agent = req.headers().get(actix_web::http::header::USER_AGENT).and_then(|v| v.to_str().ok());
    let is_bot = setupiq_core::user_agent::is_bot(agent);
    let clock = clock.get_ref().clone();
    db.run(move |conn| {
        let click = NewClick {
            product_id: ProductId(body.product_id),
            session_id: body.session_id.trim(),
            suggestion_context: body.suggestion_context.as_deref(),
            analysis_id: body.analysis_id.map(AnalysisId),
            user_id,
            is_bot,
        };
        service::track_click(conn, &click, clock.now())
    })
    .await?;
    Ok(web::Json(TrackClickResponse { success: true }))
}

/// The trending gear list: three best-rated products of the catalogue.
#[utoipa::path(tag = "affiliate", responses((status = 200, description = "Trending gear", body = TrendingGearResponse)))]
#[get("/_api/trending-gear")]
async fn trending_gear(db: web::Data<Db>) -> Result<web::Json<TrendingGearResponse>, ApiError> {
    let items = db.run(service::trending).await?;
    Ok(web::Json(TrendingGearResponse { items: items.into_iter().map(ProductDto::from).collect() }))
}
