//! Prometheus metrics at `GET /metrics`, through the `metrics` facade and its Prometheus
//! exporter (rendered by our own handler: no second listener to secure).
//!
//! The endpoint is off unless `SETUPIQ_METRICS_TOKEN` is set, and then answers only
//! `Authorization: Bearer <token>`: route names and pool figures are not for the public.
//!
//! What is recorded:
//! - `http_requests_total{method, route, status}` and `http_request_duration_seconds{method,
//!   route}`: per matched route pattern (`/_api/analyses/{id}`, never the raw path, so ids
//!   and SPA paths cannot blow up the number of series; unmatched paths are `other`);
//! - `analysis_stage_seconds{stage}`: the analyzer's stages (recorded by the analyzer);
//! - `credits_granted_total{reason}`, `credits_spent_total{reason}`: ledger entries as
//!   they are written (recorded by the ledger);
//! - `db_pool_connections{state}` (`max`, `open`, `idle`), read at each scrape.

use std::sync::OnceLock;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{Error, HttpRequest, HttpResponse, get, web};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use setupiq_core::{ApiError, Config};
use setupiq_db::Db;

/// Latency buckets in seconds: from a cached page (~1 ms) to a slow analysis (10 s).
const BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The process's recorder, installed once (tests start many apps in one process).
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        // Only an empty bucket list is refused (ours is not); summaries would do otherwise.
        let builder = match PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), BUCKETS)
        {
            Ok(builder) => builder,
            Err(e) => {
                tracing::warn!(error = %e, "latency buckets refused; timings are summaries");
                PrometheusBuilder::new()
            }
        };
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        // Another recorder already installed (a test harness's) keeps working; ours then
        // renders nothing, which the metrics test would notice.
        if let Err(e) = metrics::set_global_recorder(recorder) {
            tracing::warn!(error = %e, "a metrics recorder was already installed");
        }
        handle
    })
}

/// Counts and times every request by its route pattern.
pub async fn record_requests(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let started = Instant::now();
    let method = req.method().to_string();
    let res = next.call(req).await?;
    let route = res.request().match_pattern().unwrap_or_else(|| "other".to_owned());
    let status = res.status().as_u16().to_string();
    metrics::counter!("http_requests_total", "method" => method.clone(), "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!("http_request_duration_seconds", "method" => method, "route" => route)
        .record(started.elapsed().as_secs_f64());
    Ok(res)
}

/// The metrics in Prometheus's text format, for a scraper holding the token.
#[get("/metrics")]
pub async fn scrape(
    req: HttpRequest,
    config: web::Data<Config>,
    db: web::Data<Db>,
) -> Result<HttpResponse, ApiError> {
    let Some(token) = config.metrics_token.as_ref() else {
        return Err(ApiError::not_found("Not found."));
    };
    let sent = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    // Compared as digests: the time taken says nothing about the token's characters.
    let digest = setupiq_core::tokens::digest;
    if sent.is_none_or(|sent| digest(sent) != digest(token.expose())) {
        return Err(ApiError::unauthenticated("A metrics token is required."));
    }
    let pool = db.pool_usage();
    for (state, value) in [("max", pool.max), ("open", pool.open), ("idle", pool.idle)] {
        metrics::gauge!("db_pool_connections", "state" => state).set(f64::from(value));
    }
    Ok(HttpResponse::Ok().content_type("text/plain; version=0.0.4").body(handle().render()))
}
