//! `POST /_api/contact`: the contact form. The handler extracts, validates, stores the
//! message through the service and then e-mails support; the rules live in `service`.
//! `GET /_api/admin/contact-messages`: the admins' inbox of those messages.

use actix_web::{HttpRequest, get, post, web};
use setupiq_auth::dto::SuccessResponse;
use setupiq_auth::{AdminUser, OptionalUser};
use setupiq_core::mail::Mailer;
use setupiq_core::openapi::InvalidInput;
use setupiq_core::openapi::NotSignedIn;
use setupiq_core::validation::{ValidJson, ValidQuery};
use setupiq_core::{ApiError, Config, ErrorBody, SharedClock};
use setupiq_db::Db;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{ContactMessageDto, ContactRequest, InboxQuery, InboxResponse};
use crate::service::{self, NewContactMessage};

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
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    config: web::Data<Config>,
    mailer: web::Data<Mailer>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let body = body.into_inner();
    let user_id = user.0.map(|u| u.id());
    let ip = setupiq_auth::extract::client_ip(&req);
    let clock = clock.get_ref().clone();
    let stored = db
        .run(move |conn| {
            let new = NewContactMessage {
                name: &body.name,
                email: &body.email,
                message: &body.message,
                user_id,
                ip: ip.as_deref(),
            };
            service::submit(conn, &new, clock.now())
        })
        .await?;
    // The message is safely stored; a mail failure is ours to fix, not the sender's.
    if let Err(e) = mailer.send(service::support_email(&config, &stored)).await {
        tracing::error!(error = %e, message_id = stored.id, "could not e-mail the contact message to support");
    }
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
