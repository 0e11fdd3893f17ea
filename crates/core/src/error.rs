//! The one error every endpoint answers with: `{"error": "<message>", "code": "...",
//! "issues": [{"path", "message"}]}` and the matching HTTP status (DESIGN.md §3).
//!
//! Domain crates keep their own `thiserror` enums and convert into [`ApiError`]. A 5xx
//! keeps its cause private: it is logged here and the client gets a generic message.

use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What caused a failure, kept for the log: any error, or a message where the failure
/// starts (`"text".into()`).
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// A stable, machine-readable name for the kind of failure; the UI may switch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    BadRequest,
    ValidationFailed,
    Unauthenticated,
    /// 402: a signed-in user has too few credits for what they asked.
    InsufficientCredits,
    /// 402: an anonymous visitor's one free analysis is used up.
    TrialUsed,
    /// 402: the card was declined (the test card 4000 0000 0000 0002, or the bank).
    CardDeclined,
    /// 402: the payment did not succeed (still processing, cancelled, needs action).
    PaymentFailed,
    /// 429: today's rewarded ads are used up; more tomorrow (UTC).
    DailyAdLimit,
    Forbidden,
    NotFound,
    /// 405: the path exists, the method does not (the `Allow` header lists those that do).
    MethodNotAllowed,
    Conflict,
    /// 409: this analysis already has its community post.
    AlreadyPublished,
    /// 409: another account already has this e-mail address (registering, or changing to it).
    EmailTaken,
    PayloadTooLarge,
    /// 408: the request's body did not arrive in time (`SETUPIQ_BODY_TIMEOUT_SECS`).
    RequestTimeout,
    /// Well-formed, but not something the service handles (a photo that is not a setup).
    Unprocessable,
    RateLimited,
    Unavailable,
    Internal,
}

/// One failed rule of a request: the field (`path`, camelCase as in the JSON) and the
/// specification's message for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Issue {
    pub path: String,
    pub message: String,
}

/// The JSON body of every error response.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// A human-readable message, safe to show to the user.
    #[schema(example = "Email is required")]
    pub error: String,
    pub code: ErrorCode,
    /// For validation errors: every failed rule, in field order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<Issue>,
}

pub struct ApiError {
    status: StatusCode,
    code: ErrorCode,
    message: String,
    issues: Vec<Issue>,
    retry_after_secs: Option<u64>,
    source: Option<Cause>,
}

const INTERNAL_MESSAGE: &str = "Something went wrong on our side. Please try again.";
pub const UNAVAILABLE_MESSAGE: &str = "The service is temporarily unavailable. Please try again in a moment.";
/// `Retry-After` of a 503.
const UNAVAILABLE_RETRY_SECS: u64 = 5;

impl ApiError {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            issues: Vec::new(),
            retry_after_secs: None,
            source: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ErrorCode::BadRequest, message)
    }

    /// A validation failure; the first issue's message becomes the `error` text.
    pub fn validation(issues: Vec<Issue>) -> Self {
        let message = issues.first().map_or_else(|| "Invalid request.".to_owned(), |i| i.message.clone());
        Self { issues, ..Self::new(StatusCode::BAD_REQUEST, ErrorCode::ValidationFailed, message) }
    }

    /// A validation failure on a single field.
    pub fn invalid(path: &str, message: impl Into<String>) -> Self {
        Self::validation(vec![Issue { path: path.to_owned(), message: message.into() }])
    }

    pub fn unauthenticated(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, ErrorCode::Unauthenticated, message)
    }

    pub fn insufficient_credits(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYMENT_REQUIRED, ErrorCode::InsufficientCredits, message)
    }

    pub fn trial_used(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYMENT_REQUIRED, ErrorCode::TrialUsed, message)
    }

    /// A 402 for a payment that did not go through (`CardDeclined` or `PaymentFailed`).
    pub fn payment_required(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYMENT_REQUIRED, code, message)
    }

    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::Unprocessable, message)
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, ErrorCode::Forbidden, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, message)
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, ErrorCode::Conflict, message)
    }

    pub fn already_published(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, ErrorCode::AlreadyPublished, message)
    }

    pub fn payload_too_large(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::PayloadTooLarge, message)
    }

    pub fn request_timeout(message: impl Into<String>) -> Self {
        Self::new(StatusCode::REQUEST_TIMEOUT, ErrorCode::RequestTimeout, message)
    }

    pub fn rate_limited(message: impl Into<String>, retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs.max(1)),
            ..Self::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited, message)
        }
    }

    /// The service cannot do this right now for a reason the caller may read (a full queue,
    /// no room for a request body, the network out of reach): 503 with `Retry-After` and a
    /// message that says so.
    pub fn busy(message: impl Into<String>, retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs.max(1)),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, message)
        }
    }

    /// The service cannot answer right now (the database does not answer or refuses, a
    /// dependency is down): 503 with `Retry-After`.
    pub fn unavailable(source: impl Into<Cause>) -> Self {
        Self {
            source: Some(source.into()),
            retry_after_secs: Some(UNAVAILABLE_RETRY_SECS),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, UNAVAILABLE_MESSAGE)
        }
    }

    /// A bug or an unexpected failure; `source` is logged, never sent.
    pub fn internal(source: impl Into<Cause>) -> Self {
        Self {
            source: Some(source.into()),
            ..Self::new(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, INTERNAL_MESSAGE)
        }
    }

    /// The same error with a more specific code the UI can switch on (e.g. a 429 that is
    /// [`ErrorCode::DailyAdLimit`] rather than a plain [`ErrorCode::RateLimited`]).
    pub fn with_code(self, code: ErrorCode) -> Self {
        Self { code, ..self }
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn code(&self) -> ErrorCode {
        self.code
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody { error: self.message.clone(), code: self.code, issues: self.issues.clone() }
    }
}

impl fmt::Debug for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiError")
            .field("status", &self.status)
            .field("code", &self.code)
            .field("message", &self.message)
            .field("issues", &self.issues)
            .field("source", &self.source.as_ref().map(ToString::to_string))
            .finish()
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.status)
    }
}

impl std::error::Error for ApiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|s| s as &(dyn std::error::Error + 'static))
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        if self.status.is_server_error() {
            // The whole chain of causes (`#[source]`), so an error that wraps another keeps it in the log.
            match &self.source {
                Some(source) => {
                    tracing::error!(status = %self.status, error = %chain(source.as_ref()), "request failed")
                }
                None => tracing::error!(status = %self.status, "request failed"),
            }
        }
        let mut response = HttpResponse::build(self.status);
        if let Some(secs) = self.retry_after_secs {
            response.insert_header((header::RETRY_AFTER, HeaderValue::from(secs)));
        }
        response.insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-store")));
        response.json(self.body())
    }
}

/// Turns actix's JSON extractor failures (bad syntax, unknown fields, wrong types, too
/// large) into our error format. Mounted by the gateway with `JsonConfig::error_handler`.
pub fn json_error_handler(err: actix_web::error::JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    let api = match &err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ApiError::payload_too_large("The request body is too large.")
        }
        JsonPayloadError::ContentType => {
            ApiError::bad_request("The request body must be JSON (Content-Type: application/json).")
        }
        JsonPayloadError::Deserialize(e) => ApiError::bad_request(format!("Invalid request body: {e}")),
        JsonPayloadError::Payload(actix_web::error::PayloadError::Io(e))
            if e.kind() == std::io::ErrorKind::TimedOut =>
        {
            ApiError::request_timeout("The request took too long to arrive. Please try again.")
        }
        _ => ApiError::bad_request("Invalid request body."),
    };
    api.into()
}

/// Same for query strings.
pub fn query_error_handler(err: actix_web::error::QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::bad_request(format!("Invalid query string: {err}")).into()
}

/// Same for path parameters.
pub fn path_error_handler(err: actix_web::error::PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::bad_request(format!("Invalid path parameter: {err}")).into()
}

/// An error and each of its causes, outermost first: "a: b: c".
pub fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        cause = inner.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::to_bytes;

    #[test]
    fn a_logged_error_names_every_cause() {
        #[derive(Debug, thiserror::Error)]
        #[error("the result cannot be read")]
        struct Outer(#[source] serde_json::Error);
        let inner = serde_json::from_str::<u8>("x").unwrap_err();
        let text = chain(&Outer(inner));
        assert!(text.starts_with("the result cannot be read: expected value"), "{text}");
    }

    #[actix_web::test]
    async fn internal_errors_hide_their_cause() {
        let err = ApiError::internal("database password is hunter2");
        let response = err.error_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = to_bytes(response.into_body()).await.unwrap_or_default();
        let text = String::from_utf8_lossy(&body);
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains(INTERNAL_MESSAGE));
    }

    #[actix_web::test]
    async fn validation_errors_carry_issues_and_the_first_message() {
        let err = ApiError::validation(vec![
            Issue { path: "email".into(), message: "Email is required".into() },
            Issue { path: "password".into(), message: "Password is required".into() },
        ]);
        let body: serde_json::Value =
            serde_json::from_slice(&to_bytes(err.error_response().into_body()).await.unwrap_or_default())
                .unwrap_or_default();
        assert_eq!(body["error"], "Email is required");
        assert_eq!(body["code"], "validation_failed");
        assert_eq!(body["issues"][1]["path"], "password");
    }

    #[test]
    fn rate_limited_sets_retry_after() {
        let response = ApiError::rate_limited("Too many attempts", 42).error_response();
        assert_eq!(response.headers().get(header::RETRY_AFTER).and_then(|v| v.to_str().ok()), Some("42"));
    }
}
