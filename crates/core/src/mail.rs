//! Outgoing e-mail through lettre: SMTP when `SETUPIQ_SMTP_URL` is set, otherwise each
//! message is written as an `.eml` file to `$SETUPIQ_DATA_DIR/outbox/` (and its subject
//! logged) so the whole product works on a laptop without a mail server.

use std::path::PathBuf;

use lettre::message::Mailbox;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::Config;

/// A message to one recipient, plain text.
#[derive(Debug, Clone)]
pub struct OutgoingEmail {
    pub to: String,
    pub subject: String,
    pub text: String,
    /// Where the recipient's "Reply" goes instead of the sender (e.g. a contact-form author).
    pub reply_to: Option<String>,
    /// For mail a member asked for (the digest): the https address that unsubscribes them in
    /// one POST, sent as `List-Unsubscribe` with `List-Unsubscribe-Post` (RFC 8058) so mail
    /// clients show their own "Unsubscribe" button.
    pub unsubscribe: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("mail configuration is invalid: {0}")]
    Config(String),
    #[error("the message could not be built: {0}")]
    Build(String),
    #[error("the message could not be delivered: {0}")]
    Transport(String),
}

#[derive(Clone)]
enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Outbox(AsyncFileTransport<Tokio1Executor>, PathBuf),
}

#[derive(Clone)]
pub struct Mailer {
    from: Mailbox,
    transport: Transport,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.transport {
            Transport::Smtp(_) => "smtp".to_owned(),
            Transport::Outbox(_, dir) => format!("outbox {}", dir.display()),
        };
        f.debug_struct("Mailer").field("from", &self.from.to_string()).field("transport", &kind).finish()
    }
}

impl Mailer {
    pub fn from_config(config: &Config) -> Result<Self, MailError> {
        let from: Mailbox =
            config.mail_from.parse().map_err(|e| MailError::Config(format!("SETUPIQ_MAIL_FROM: {e}")))?;
        match &config.smtp_url {
            Some(url) => {
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())
                    // The URL may hold a password: report only the kind of problem.
                    .map_err(|e| {
                        MailError::Config(format!(
                            "SETUPIQ_SMTP_URL: {}",
                            e.to_string().replace(url.expose(), "…")
                        ))
                    })?
                    .build();
                Ok(Self { from, transport: Transport::Smtp(transport) })
            }
            None => Ok(Self::outbox(from, config.outbox_dir())),
        }
    }

    fn outbox(from: Mailbox, dir: PathBuf) -> Self {
        Self { from, transport: Transport::Outbox(AsyncFileTransport::new(&dir), dir) }
    }

    pub async fn send(&self, email: OutgoingEmail) -> Result<(), MailError> {
        let to: Mailbox = email.to.parse().map_err(|e| MailError::Build(format!("recipient: {e}")))?;
        let mut builder = Message::builder().from(self.from.clone()).to(to);
        if let Some(reply_to) = &email.reply_to {
            let reply_to: Mailbox =
                reply_to.parse().map_err(|e| MailError::Build(format!("reply-to: {e}")))?;
            builder = builder.reply_to(reply_to);
        }
        if let Some(url) = &email.unsubscribe {
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{url}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        let message = builder
            .subject(email.subject.clone())
            .header(ContentType::TEXT_PLAIN)
            .body(email.text)
            .map_err(|e| MailError::Build(e.to_string()))?;
        match &self.transport {
            Transport::Smtp(smtp) => {
                smtp.send(message).await.map_err(|e| MailError::Transport(e.to_string()))?;
                tracing::info!(subject = %email.subject, "e-mail sent over SMTP");
            }
            Transport::Outbox(file, dir) => {
                tokio::fs::create_dir_all(dir).await.map_err(|e| MailError::Transport(e.to_string()))?;
                let id = file.send(message).await.map_err(|e| MailError::Transport(e.to_string()))?;
                tracing::info!(subject = %email.subject, file = %dir.join(format!("{id}.eml")).display(), "e-mail written to the outbox");
            }
        }
        Ok(())
    }
}
