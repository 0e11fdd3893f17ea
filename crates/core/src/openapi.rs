//! Pieces of the OpenAPI document that every crate's endpoints share, so the same answer
//! is described the same way everywhere.
//!
//! An endpoint that needs a signed-in user declares `security(("session" = []))` and lists
//! [`NotSignedIn`] among its responses:
//!
//! ```ignore
//! #[utoipa::path(
//!     tag = "credits",
//!     security(("session" = [])),
//!     responses((status = 200, description = "History", body = HistoryResponse), NotSignedIn)
//! )]
//! ```

use utoipa::IntoResponses;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};

use crate::error::ErrorBody;

/// The name of the security scheme of the session cookie.
pub const SESSION_SCHEME: &str = "session";

/// 401: the endpoint needs a signed-in user.
#[derive(IntoResponses)]
#[response(status = 401, description = "Not signed in")]
pub struct NotSignedIn(#[allow(dead_code)] ErrorBody);

/// 400: the body or query failed its rules; `issues` names every field.
#[derive(IntoResponses)]
#[response(status = 400, description = "Invalid input")]
pub struct InvalidInput(#[allow(dead_code)] ErrorBody);

/// Declares the session cookie (`cookie_name` as the gateway sets it) as the
/// [`SESSION_SCHEME`] security scheme of `doc`.
pub fn add_session_scheme(doc: &mut utoipa::openapi::OpenApi, cookie_name: &str) {
    let scheme = SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
        cookie_name,
        "The session cookie set by sign-in and sign-up (HttpOnly; `__Host-setupiq_session` over https).",
    )));
    doc.components.get_or_insert_with(Default::default).add_security_scheme(SESSION_SCHEME, scheme);
}
