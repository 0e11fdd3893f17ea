//! `POST /_api/contact`: the contact form. The handler extracts, validates, stores the
//! message through the service and then e-mails support; the rules live in `service`.

use actix_web::{HttpRequest, post, web};
use setupiq_auth::OptionalUser;
use setupiq_auth::dto::SuccessResponse;
use setupiq_core::mail::Mailer;
use setupiq_core::openapi::InvalidInput;
use setupiq_core::validation::ValidJson;
use setupiq_core::{ApiError, Config, ErrorBody, SharedClock};
use setupiq_db::Db;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::ContactRequest;
use crate::service::{self, NewContactMessage};

pub const SENT_MESSAGE: &str = "Your message has been sent!";

/// Mounts the contact endpoint. Its full path is in the route itself: there is no `/_api`
/// scope to put it under (see the gateway's `api`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(send_contact_message);
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
