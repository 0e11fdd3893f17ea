//! The contact form's rules: a message is stored with its sender's normalised e-mail (and
//! account, when signed in), at most [`MAX_MESSAGES_PER_IP`] per client IP in any
//! [`WINDOW`], and e-mailed to support. Plain functions over a connection; no actix.

use chrono::{DateTime, Duration, Utc};
use setupiq_auth::service::export::{Section, SectionError};
use setupiq_core::mail::OutgoingEmail;
use setupiq_core::validation::normalize_email;
use setupiq_core::{Config, UserId};
use setupiq_db::{AppCtx, DbConnection, write_transaction};

use crate::dto::ContactMessageDto;
use crate::error::ContactError;
use crate::models::{ContactMessage, ContactMessageInsertForm};
use crate::repo;

/// The sliding window of the per-IP limit.
pub const WINDOW: Duration = Duration::hours(1);
/// Messages one client IP may send within the window.
pub const MAX_MESSAGES_PER_IP: i64 = 5;

/// A message as the sender wrote it (already validated).
#[derive(Debug, Clone, Copy)]
pub struct NewContactMessage<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub message: &'a str,
    /// The signed-in sender, if any: their messages are deleted with their account.
    pub user_id: Option<UserId>,
    /// The client IP. Clients whose IP is unknown share one limit.
    pub ip: Option<&'a str>,
}

/// A message as the contact form sent it (already validated), owned for the flow.
#[derive(Debug, Clone)]
pub struct ContactForm {
    pub name: String,
    pub email: String,
    pub message: String,
    pub user_id: Option<UserId>,
    pub ip: Option<String>,
}

/// Stores the message ([`submit`]) and e-mails it to support. Once it is stored the sender
/// is told it was sent: a mail failure is ours to fix, not the sender's, and is logged.
pub async fn send(ctx: &AppCtx, form: ContactForm) -> Result<(), ContactError> {
    let clock = ctx.clock.clone();
    let stored = ctx
        .db
        .run(move |conn| {
            let new = NewContactMessage {
                name: &form.name,
                email: &form.email,
                message: &form.message,
                user_id: form.user_id,
                ip: form.ip.as_deref(),
            };
            submit(conn, &new, clock.now())
        })
        .await?;
    if let Err(e) = ctx.mailer.send(support_email(&ctx.config, &stored)).await {
        tracing::error!(error = %e, message_id = stored.id, "could not e-mail the contact message to support");
    }
    Ok(())
}

/// Stores the message unless its IP has reached the limit. Name and message are trimmed,
/// the e-mail normalised. Refused messages are not stored, so they do not extend the wait.
pub fn submit(
    conn: &mut DbConnection,
    new: &NewContactMessage<'_>,
    now: DateTime<Utc>,
) -> Result<ContactMessage, ContactError> {
    // On SQLite this takes the write lock first, so concurrent messages from one IP are
    // counted one after the other.
    write_transaction(conn, |conn| {
        check_limit(conn, new.ip, now)?;
        let row = repo::insert_message(
            conn,
            &ContactMessageInsertForm {
                name: new.name.trim(),
                email: &normalize_email(new.email),
                message: new.message.trim(),
                user_id: new.user_id,
                ip: new.ip,
                created_at: now.naive_utc(),
            },
        )?;
        Ok(row.into())
    })
}

/// The admin inbox: a page of messages, newest first, and how many there are.
pub fn inbox(
    conn: &mut DbConnection,
    limit: i64,
    offset: i64,
) -> Result<(Vec<ContactMessage>, i64), ContactError> {
    let rows = repo::page(conn, limit, offset)?;
    Ok((rows.into_iter().map(Into::into).collect(), repo::count(conn)?))
}

/// The messages the user sent while signed in, newest first, for their data export
/// (`contactMessages`; the address they came from is left out).
pub fn export_messages(conn: &mut DbConnection, user_id: UserId) -> Result<Section, SectionError> {
    let messages: Vec<ContactMessageDto> = repo::messages_of_user(conn, user_id)?
        .into_iter()
        .map(|row| ContactMessage::from(row).into())
        .collect();
    Section::new("contactMessages", &messages)
}

/// Refuses with the time until the oldest message in the window leaves it.
fn check_limit(conn: &mut DbConnection, ip: Option<&str>, now: DateTime<Utc>) -> Result<(), ContactError> {
    let (sent, oldest) = repo::messages_from_ip_since(conn, ip, (now - WINDOW).naive_utc())?;
    if sent < MAX_MESSAGES_PER_IP {
        return Ok(());
    }
    let until = oldest.map_or(now, |t| t.and_utc()) + WINDOW;
    Err(ContactError::RateLimited { retry_after_secs: setupiq_core::clock::retry_after_secs(until, now) })
}

/// The e-mail to support. Replying to it answers the sender.
pub fn support_email(config: &Config, message: &ContactMessage) -> OutgoingEmail {
    // Line breaks in the name would be encoded into the subject, not injected, but they
    // make a poor subject line.
    let name = message.name.split_whitespace().collect::<Vec<_>>().join(" ");
    let account = match message.user_id {
        Some(id) => format!("signed in as user {id}"),
        None => "not signed in".to_owned(),
    };
    OutgoingEmail {
        to: config.support_email.clone(),
        subject: format!("Contact form: {name}"),
        text: format!(
            "New message from the SetupIQ contact form.\n\n\
             Name: {}\n\
             E-mail: {}\n\
             Account: {account}\n\
             Sent: {}\n\n\
             {}\n",
            message.name,
            message.email,
            message.created_at.to_rfc3339(),
            message.message,
        ),
        reply_to: Some(message.email.clone()),
        unsubscribe: None,
    }
}
