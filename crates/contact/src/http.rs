//! `POST /_api/contact`: the contact form. The handler extracts, validates, stores the
//! message through the service and then e-mails support; the rules live in `service`.
//! `GET /_api/admin/contact-messages`: the admins' inbox of those messages.

use actix_web::{HttpRequest, get, post, web};
use setupiq_auth::dto::SuccessResponse;
use setupiq_auth::{AdminUser, OptionalUser};
use setupiq_core::openapi::InvalidInput;
use setupiq_core::openapi::NotSignedIn;
use setupiq_core::validation::{ValidJson, ValidQuery};
use setupiq_core::{ApiError, ErrorBody};
use setupiq_db::{AppCtx, Db};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{ContactMessageDto, ContactRequest, InboxQuery, InboxResponse};
use crate::service::{self, ContactForm};

pub const SENT_MESSAGE: &str = "Your message has been sent!";

/// Mounts the contact endpoints. Their full paths are in the routes themselves: there is no
/// `/_api` scope to put them under (see the gateway's `api`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(send_contact_message).service(contact_inbox);
}

/// Sends a message to the SetupIQ support team.
///
/// Anyone may write; a signed-in sender's message is linked to their account (and deleted
/// with it). At most 5 messages per hour from one IP address (429 with `Retry-After`).
#[utoipa::path(
    tag = "contact",
    request_body = ContactRequest,
    responses(
        (status = 200, description = "Sent", body = SuccessResponse),
        InvalidInput,
        (status = 429, description = "Too many messages from this IP address", body = ErrorBody),
    )
)]
#[post("/_api/contact")]
async fn send_contact_message(
    req: HttpRequest,
    user: OptionalUser,
    body: ValidJson<ContactRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let ContactRequest { name, email, message } = body.into_inner();
    let (user_id, ip) = (user.0.map(|u| u.id()), setupiq_auth::extract::client_ip(&req));
    service::send(&ctx, ContactForm { name, email, message, user_id, ip }).await?;
    Ok(web::Json(SuccessResponse::with_message(SENT_MESSAGE)))
}

/// The admin inbox: every contact message, newest first (they are e-mailed to support too).
#[utoipa::path(
    tag = "admin",
    params(InboxQuery),
    security(("session" = [])),
    responses(
        (status = 200, description = "A page of messages", body = InboxResponse),
        InvalidInput,
        NotSignedIn,
        (status = 403, description = "Not an admin", body = ErrorBody),
    )
)]
#[get("/_api/admin/contact-messages")]
async fn contact_inbox(
    _admin: AdminUser,
    query: ValidQuery<InboxQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<InboxResponse>, ApiError> {
    let InboxQuery { limit, offset } = query.into_inner();
    let (messages, total) = db.run(move |conn| service::inbox(conn, limit, offset)).await?;
    let shown = i64::try_from(messages.len()).unwrap_or(i64::MAX);
    Ok(web::Json(InboxResponse {
        messages: messages.into_iter().map(ContactMessageDto::from).collect(),
        total,
        limit,
        offset,
        has_more: offset.saturating_add(shown) < total,
    }))
}
