//! The answers every endpoint can give whatever it does, added to the OpenAPI document in
//! one place so it says what the server really answers (checked by schemathesis in `make
//! test`): the middleware's and extractors' answers are not in any handler's
//! `#[utoipa::path]`.
//!
//! - a write (`POST`): 403 when the CSRF rule refuses it (a cross-site `Origin`, or a body
//!   that is not JSON);
//! - a JSON body: 400 when it is not valid JSON of the right shape, 413 when it is larger
//!   than the limit; path or query parameters: 400 when they do not parse;
//! - a call that needs a session: 401;
//! - every call: 503 when the database does not answer (with `Retry-After`).
//!
//! Answers a handler documents itself are kept as they are.

use utoipa::openapi::path::Operation;
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, Response, ResponseBuilder};

/// Adds the common answers to every operation of `doc` that lacks them.
pub fn add_common_answers(doc: &mut OpenApi) {
    for (path, item) in doc.paths.paths.iter_mut() {
        let is_health = path == "/_api/health";
        if let Some(operation) = item.post.as_mut() {
            add(operation, "403", "Refused: a cross-site or non-JSON write (CSRF protection)");
            add_for(operation, is_health);
        }
        if let Some(operation) = item.get.as_mut() {
            add_for(operation, is_health);
        }
    }
}

fn add_for(operation: &mut Operation, is_health: bool) {
    if operation.request_body.is_some() {
        add(operation, "400", "Invalid request body");
        add(operation, "413", "The request body is too large");
    }
    if operation.parameters.as_ref().is_some_and(|parameters| !parameters.is_empty()) {
        add(operation, "400", "Invalid path or query parameters");
    }
    let needs_session = operation.security.as_ref().is_some_and(|requirements| !requirements.is_empty());
    if needs_session {
        add(operation, "401", "Not signed in");
    }
    if !is_health {
        add(operation, "503", "The service is temporarily unavailable (see `Retry-After`)");
    }
}

fn add(operation: &mut Operation, status: &str, description: &str) {
    operation.responses.responses.entry(status.to_owned()).or_insert_with(|| error_response(description));
}

fn error_response(description: &str) -> RefOr<Response> {
    let body = ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build();
    RefOr::T(ResponseBuilder::new().description(description).content("application/json", body).build())
}
