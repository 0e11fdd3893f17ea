//! What the local stand-ins for external APIs (Stripe, OpenAI) share: random ids in the
//! providers' style, masked API keys in their error messages, and error answers that carry
//! a request id header.

use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use rand::Rng;
use rand::distr::Alphanumeric;
use serde_json::Value;

/// `prefix` followed by 24 random letters and digits (`pi_…`, `chatcmpl-…`).
pub(crate) fn random_id(prefix: &str) -> String {
    format!("{prefix}{}", random_chars(24))
}

pub(crate) fn random_chars(n: usize) -> String {
    rand::rng().sample_iter(Alphanumeric).take(n).map(char::from).collect()
}

/// A wrong API key as providers echo it: the first `head` characters and the last four,
/// stars between; all stars when it is too short to show any of it.
pub(crate) fn masked_key(key: &str, head: usize) -> String {
    match (key.get(..head), key.len().checked_sub(4).and_then(|at| key.get(at..))) {
        (Some(start), Some(end)) if key.len() > head + 4 => {
            format!("{start}{}{end}", "*".repeat(key.len() - head - 4))
        }
        _ => "*".repeat(key.len()),
    }
}

/// An error answer: its status, the provider's error body, and the name of the header
/// that carries the request id (`Request-Id` at Stripe, `x-request-id` at OpenAI).
pub(crate) struct ErrorAnswer {
    pub status: StatusCode,
    pub body: Value,
    pub request_id_header: &'static str,
}

impl From<ErrorAnswer> for HttpResponse {
    fn from(answer: ErrorAnswer) -> Self {
        HttpResponse::build(answer.status)
            .insert_header((answer.request_id_header, random_id("req_")))
            .json(answer.body)
    }
}
