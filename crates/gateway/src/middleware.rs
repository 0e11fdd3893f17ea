//! Cross-cutting protection applied to every request: security headers on every response
//! (errors included), the CSRF rule for state-changing API calls, and request logging that
//! never records query strings (reset links carry their token there).

use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{Error, ResponseError, web};
use setupiq_core::{ApiError, Config};

/// The Content-Security-Policy of HTML documents: our own scripts only, no framing.
pub const HTML_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; \
    base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
/// The same with Stripe.js and its frames allowed, when card payments use Stripe Elements.
pub const HTML_CSP_WITH_STRIPE: &str = "default-src 'self'; script-src 'self' https://js.stripe.com; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https://*.stripe.com; font-src 'self' data:; \
    connect-src 'self' https://api.stripe.com; frame-src https://js.stripe.com https://hooks.stripe.com; \
    object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
/// Everything else (JSON, images) may not load anything or be framed.
pub const DEFAULT_CSP: &str = "default-src 'none'; frame-ancestors 'none'";

/// Adds the security headers to every response, errors included.
pub async fn security_headers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let config = req.app_data::<web::Data<Config>>();
    let https = config.is_some_and(|c| c.is_https());
    let stripe = config.is_some_and(|c| c.stripe.secret_key.is_some() && c.stripe.publishable_key.is_some());
    // Handler and extractor errors arrive here as responses already (actix renders them at
    // the route), and `csrf` answers with a response, so every answer passes through here.
    let mut res = next.call(req).await?.map_into_boxed_body();
    let is_html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    let headers = res.headers_mut();
    let set = |headers: &mut header::HeaderMap, name: HeaderName, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::REFERRER_POLICY, "strict-origin-when-cross-origin");
    set(headers, header::X_FRAME_OPTIONS, "DENY");
    let csp = match (is_html, stripe) {
        (true, true) => HTML_CSP_WITH_STRIPE,
        (true, false) => HTML_CSP,
        (false, _) => DEFAULT_CSP,
    };
    set(headers, header::CONTENT_SECURITY_POLICY, csp);
    set(headers, HeaderName::from_static("permissions-policy"), "camera=(), microphone=(), geolocation=()");
    set(headers, HeaderName::from_static("cross-origin-opener-policy"), "same-origin");
    if https {
        set(headers, header::STRICT_TRANSPORT_SECURITY, "max-age=31536000; includeSubDomains");
    }
    Ok(res)
}

/// API paths that take non-JSON bodies by design (e.g. a payment provider's webhook,
/// which is authenticated by its signature instead).
const CSRF_EXEMPT: &[&str] = &["/_api/stripe/webhook"];

/// A state-changing API request must be JSON and, when the browser says where it comes
/// from (`Origin`), come from our public origin. A cross-site form post can do neither.
pub async fn csrf(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes_state
        && req.path().starts_with("/_api/")
        && !CSRF_EXEMPT.contains(&req.path())
        && let Err(refusal) = check_csrf(&req)
    {
        return Ok(req.into_response(refusal.error_response()));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

fn check_csrf(req: &ServiceRequest) -> Result<(), ApiError> {
    let is_json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(ApiError::forbidden("Requests that change data must be sent as JSON."));
    }
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let expected = req.app_data::<web::Data<Config>>().map(|c| c.public_origin()).unwrap_or_default();
        if origin.to_str().ok() != Some(expected.as_str()) {
            return Err(ApiError::forbidden("Cross-origin requests are not allowed."));
        }
    }
    Ok(())
}

/// One log line per request: method, path (never the query), status, duration.
/// Requests slower than this are logged at `info`.
const SLOW_REQUEST: std::time::Duration = std::time::Duration::from_secs(2);

pub async fn log_requests(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.path().to_owned();
    let res = next.call(req).await?;
    let (status, elapsed) = (res.status().as_u16(), started.elapsed());
    let ms = elapsed.as_millis() as u64;
    // One line per request only at `debug`: at the default level a busy server would write
    // hundreds of megabytes a day. Failures are logged where they happen (5xx with their
    // cause); a slow answer is worth a line at any level.
    if elapsed >= SLOW_REQUEST {
        tracing::info!(%method, path = %path, status, ms, "slow request");
    } else {
        tracing::debug!(%method, path = %path, status, ms, "request");
    }
    Ok(res)
}
