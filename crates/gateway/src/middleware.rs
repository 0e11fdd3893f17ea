//! Cross-cutting protection applied to every request: security headers on every response
//! (errors included), the CSRF rule for state-changing API calls, a deadline for request
//! bodies, and request logging that never records query strings (reset links carry their
//! token there).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::Method;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage, ResponseError, web};
use futures_util::Stream;
use setupiq_core::{ApiError, Config};

use crate::allowed_methods::AllowedMethods;

/// Stripe.js and its frames, when card payments use Stripe Elements.
const STRIPE_SOURCES: CspSources = CspSources {
    script: "https://js.stripe.com",
    img: "https://*.stripe.com",
    connect: "https://api.stripe.com",
    frame: "https://js.stripe.com https://hooks.stripe.com",
};
/// Google's ad script, its frames and what they load, when `SETUPIQ_ADSENSE_CLIENT` is set.
const ADSENSE_SOURCES: CspSources = CspSources {
    script: "https://pagead2.googlesyndication.com https://*.googlesyndication.com https://*.adtrafficquality.google",
    img: "https:",
    connect: "https://*.googlesyndication.com https://*.google.com https://*.doubleclick.net https://*.adtrafficquality.google",
    frame: "https://*.googlesyndication.com https://*.doubleclick.net https://*.google.com https://*.adtrafficquality.google",
};

/// What a third party adds to the HTML documents' policy.
struct CspSources {
    script: &'static str,
    img: &'static str,
    connect: &'static str,
    frame: &'static str,
}

/// The Content-Security-Policy of HTML documents: our own scripts only, no framing, plus
/// Stripe.js when Elements takes cards and Google's ad script when ads are configured.
pub fn html_csp(stripe: bool, ads: bool) -> String {
    let extra: Vec<&CspSources> = [(stripe, &STRIPE_SOURCES), (ads, &ADSENSE_SOURCES)]
        .into_iter()
        .filter_map(|(on, sources)| on.then_some(sources))
        .collect();
    let with = |own: &str, pick: fn(&CspSources) -> &'static str| {
        extra.iter().map(|sources| pick(sources)).fold(own.to_owned(), |list, more| format!("{list} {more}"))
    };
    let frames = with("", |s| s.frame);
    let frame_src = if frames.is_empty() { String::new() } else { format!(" frame-src{frames};") };
    format!(
        "default-src 'self'; script-src {}; style-src 'self' 'unsafe-inline'; img-src {}; \
         font-src 'self' data:; connect-src {};{frame_src} object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'",
        with("'self'", |s| s.script),
        with("'self' data: blob:", |s| s.img),
        with("'self'", |s| s.connect),
    )
}

/// Everything else (JSON, images) may not load anything or be framed.
pub const DEFAULT_CSP: &str = "default-src 'none'; frame-ancestors 'none'";

/// Adds the security headers to every response, errors included, and keeps API answers out
/// of caches.
pub async fn security_headers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let config = req.app_data::<web::Data<Config>>();
    let https = config.is_some_and(|c| c.is_https());
    let stripe = config.is_some_and(|c| c.stripe.secret_key.is_some() && c.stripe.publishable_key.is_some());
    let ads = config.is_some_and(|c| c.adsense_client.is_some());
    let api = req.path().starts_with("/_api/");
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
    if is_html {
        // The policy is ASCII built from constants; were it not, the strictest one applies.
        let csp =
            HeaderValue::from_str(&html_csp(stripe, ads)).unwrap_or(HeaderValue::from_static(DEFAULT_CSP));
        headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    } else {
        set(headers, header::CONTENT_SECURITY_POLICY, DEFAULT_CSP);
    }
    set(headers, HeaderName::from_static("permissions-policy"), "camera=(), microphone=(), geolocation=()");
    set(headers, HeaderName::from_static("cross-origin-opener-policy"), "same-origin");
    if https {
        set(headers, header::STRICT_TRANSPORT_SECURITY, "max-age=31536000; includeSubDomains");
    }
    // API answers are about the viewer (the session, their feed, profile, setups): no cache
    // may keep one, unless the endpoint says otherwise (a share card is public).
    if api && !headers.contains_key(header::CACHE_CONTROL) {
        set(headers, header::CACHE_CONTROL, "private, no-store");
    }
    Ok(res)
}

/// API paths that take non-JSON bodies by design: a payment provider's webhook (authenticated
/// by its signature) and the digest's one-click unsubscribe, which mail clients post as a
/// form (RFC 8058; authenticated by its token, and it can only stop an e-mail).
const CSRF_EXEMPT: &[&str] = &["/_api/stripe/webhook", "/_api/notifications/unsubscribe"];

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

/// Refuses `TRACE` on every path with 405, before the CSRF rule or a route sees it: no route
/// takes it, and a server that echoes a request back hands a script the cookies it may not
/// read (cross-site tracing); pages would otherwise answer the single-page app's 404.
pub async fn refuse_trace(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    if req.method() == Method::TRACE {
        let refusal = match req.app_data::<web::Data<AllowedMethods>>() {
            Some(allowed) => allowed.trace_refusal(req.path()),
            None => AllowedMethods::default().trace_refusal(req.path()),
        };
        return Ok(req.into_response(refusal));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

/// Gives every request's body [`Config::body_timeout`] to arrive, from the moment its head
/// did. A client that sends a body slowly (a slow-loris upload) then gets a 408 instead of
/// keeping the request, its connection and the memory of a half-read 10 MB photo for as
/// long as it likes; actix bounds the head itself (`client_request_timeout`).
pub async fn body_deadline(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let limit = req.app_data::<web::Data<Config>>().map_or(DEFAULT_BODY_TIMEOUT, |c| c.body_timeout);
    let body =
        Deadline { inner: req.take_payload(), timer: Box::pin(tokio::time::sleep(limit)), expired: false };
    req.set_payload(Payload::Stream { payload: Box::pin(body) });
    next.call(req).await
}

const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// A request body that fails with `TimedOut` once its timer has fired.
struct Deadline {
    inner: Payload,
    timer: Pin<Box<tokio::time::Sleep>>,
    expired: bool,
}

impl Stream for Deadline {
    type Item = Result<web::Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.expired {
            return Poll::Ready(None);
        }
        if let Poll::Ready(chunk) = Pin::new(&mut self.inner).poll_next(cx) {
            return Poll::Ready(chunk);
        }
        if self.timer.as_mut().poll(cx).is_ready() {
            self.expired = true;
            let late = std::io::Error::new(std::io::ErrorKind::TimedOut, "the request body took too long");
            return Poll::Ready(Some(Err(PayloadError::Io(late))));
        }
        Poll::Pending
    }
}

/// The request bodies being received at once, counted against one budget
/// ([`Config::body_budget_bytes`]): a JSON body is buffered whole before its handler runs,
/// so 150 slow uploaders of 14 MB would otherwise hold 2 GB between them.
#[derive(Debug)]
pub struct BodyBudget {
    capacity: usize,
    used: AtomicUsize,
}

/// Bodies declared this small are not counted: normal requests are never refused for the
/// uploads in flight (the connection limits and the body deadline bound them).
const SMALL_BODY: usize = 64 * 1024;
/// Seconds a client is asked to wait when the budget is spent.
const BUDGET_RETRY_SECS: u64 = 5;
pub const BUDGET_SPENT: &str =
    "We are receiving too many uploads right now. Please try again in a few seconds.";

impl BodyBudget {
    pub fn new(capacity: usize) -> Self {
        Self { capacity, used: AtomicUsize::new(0) }
    }

    /// Takes `bytes` from the budget if they are there.
    fn take(&self, bytes: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|&total| total <= self.capacity)
            })
            .is_ok()
    }

    fn give(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::AcqRel);
    }

    /// Bytes taken now.
    pub fn in_use(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }
}

/// What one request took from the [`BodyBudget`], given back when the request is done.
struct Taken {
    budget: web::Data<BodyBudget>,
    bytes: Arc<AtomicUsize>,
}

impl Drop for Taken {
    fn drop(&mut self) {
        self.budget.give(self.bytes.load(Ordering::Acquire));
    }
}

/// Counts a request's body against the [`BodyBudget`] before it is read: a body whose
/// declared length does not fit is answered 503 with `Retry-After` at once, never
/// buffered; a body without a declared length (chunked) is counted as it arrives and cut
/// off when the budget is spent. The bytes are given back when the response is ready (the
/// handler, and the body it held, are done).
pub async fn body_budget(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let Some(budget) = req.app_data::<web::Data<BodyBudget>>().cloned() else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = declared.is_none() && req.headers().contains_key(header::TRANSFER_ENCODING);
    let taken = Taken { budget: budget.clone(), bytes: Arc::new(AtomicUsize::new(0)) };
    match declared {
        Some(bytes) if bytes > SMALL_BODY => {
            if !budget.take(bytes) {
                metrics::counter!("request_bodies_refused_total").increment(1);
                let busy = ApiError::busy(BUDGET_SPENT, BUDGET_RETRY_SECS);
                return Ok(req.into_response(busy.error_response()));
            }
            taken.bytes.store(bytes, Ordering::Release);
        }
        None if chunked => {
            let body =
                Counted { inner: req.take_payload(), taken: taken.bytes.clone(), budget: budget.clone() };
            req.set_payload(Payload::Stream { payload: Box::pin(body) });
        }
        _ => {}
    }
    let res = next.call(req).await?.map_into_boxed_body();
    drop(taken);
    Ok(res)
}

/// A body of undeclared length, taken from the budget chunk by chunk.
struct Counted {
    inner: Payload,
    taken: Arc<AtomicUsize>,
    budget: web::Data<BodyBudget>,
}

impl Stream for Counted {
    type Item = Result<web::Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                if !self.budget.take(chunk.len()) {
                    let spent = std::io::Error::new(std::io::ErrorKind::OutOfMemory, BUDGET_SPENT);
                    return Poll::Ready(Some(Err(PayloadError::Io(spent))));
                }
                self.taken.fetch_add(chunk.len(), Ordering::AcqRel);
                Poll::Ready(Some(Ok(chunk)))
            }
            other => other,
        }
    }
}

/// One log line per request: method, path (never the query), status, duration, and its
/// request id. Requests slower than this are logged at `info`.
const SLOW_REQUEST: std::time::Duration = std::time::Duration::from_secs(2);

/// The header that carries a request's id, to the client and from a proxy.
pub const REQUEST_ID: &str = "x-request-id";

/// Gives each request an id (the proxy's `X-Request-Id` when it sent a plausible one, else
/// a new one), logs everything said while handling it inside a `request` span carrying that
/// id (with `SETUPIQ_LOG_FORMAT=json`, a field of every line), and returns it in the
/// response's `X-Request-Id`: a user's report of a failure leads to its log lines.
pub async fn log_requests(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.path().to_owned();
    let id = req
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| is_plausible_id(v))
        .map_or_else(new_request_id, str::to_owned);
    let span = tracing::info_span!("request", id = %id);
    let mut res = tracing::Instrument::instrument(next.call(req), span.clone()).await?;
    if let Ok(value) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(HeaderName::from_static(REQUEST_ID), value);
    }
    let (status, elapsed) = (res.status().as_u16(), started.elapsed());
    let ms = elapsed.as_millis() as u64;
    let _entered = span.enter();
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

/// An id a proxy may hand us: short, and only characters safe in a log line and a header.
fn is_plausible_id(id: &str) -> bool {
    (8..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// 16 random hex digits: unique enough to find one request's lines in a day of logs.
fn new_request_id() -> String {
    format!("{:016x}", rand::random::<u64>())
}
