//! Outgoing e-mail through lettre: SMTP when `SETUPIQ_SMTP_URL` is set, otherwise each
//! message is written as an `.eml` file to `$SETUPIQ_DATA_DIR/outbox/` (and its subject
//! logged) so the whole product works on a laptop without a mail server.

use std::path::PathBuf;

use lettre::message::Mailbox;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::Config;
use crate::error::Cause;

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
    /// A setting does not parse (which one; the cause, with any password cut out).
    #[error("mail configuration is invalid: {setting}")]
    Config {
        setting: &'static str,
        #[source]
        cause: Cause,
    },
    /// The message could not be put together (which part: the recipient, the reply-to, the body).
    #[error("the message could not be built: {part}")]
    Build {
        part: &'static str,
        #[source]
        cause: Cause,
    },
    /// The SMTP server or the outbox folder refused it.
    #[error("the message could not be delivered")]
    Transport(#[source] Cause),
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
        let from: Mailbox = config.mail_from.parse().map_err(|e: lettre::address::AddressError| {
            MailError::Config { setting: "SETUPIQ_MAIL_FROM", cause: e.into() }
        })?;
        match &config.smtp_url {
            Some(url) => {
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())
                    // The URL may hold a password: report only the kind of problem.
                    .map_err(|e| MailError::Config {
                        setting: "SETUPIQ_SMTP_URL",
                        cause: e.to_string().replace(url.expose(), "…").into(),
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
        let to: Mailbox = email.to.parse().map_err(|e: lettre::address::AddressError| MailError::Build {
            part: "recipient",
            cause: e.into(),
        })?;
        let mut builder = Message::builder().from(self.from.clone()).to(to);
        if let Some(reply_to) = &email.reply_to {
            let reply_to: Mailbox = reply_to.parse().map_err(|e: lettre::address::AddressError| {
                MailError::Build { part: "reply-to", cause: e.into() }
            })?;
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
            .map_err(|e| MailError::Build { part: "body", cause: e.into() })?;
        match &self.transport {
            Transport::Smtp(smtp) => {
                smtp.send(message).await.map_err(|e| MailError::Transport(e.into()))?;
                tracing::info!(subject = %email.subject, "e-mail sent over SMTP");
            }
            Transport::Outbox(file, dir) => {
                tokio::fs::create_dir_all(dir).await.map_err(|e| MailError::Transport(e.into()))?;
                let id = file.send(message).await.map_err(|e| MailError::Transport(e.into()))?;
                tracing::info!(subject = %email.subject, file = %dir.join(format!("{id}.eml")).display(), "e-mail written to the outbox");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::chain;

    #[tokio::test]
    async fn a_recipient_that_does_not_parse_keeps_the_parser_error_as_its_cause() {
        let mailer =
            Mailer::outbox("SetupIQ <noreply@example.com>".parse().unwrap(), PathBuf::from("unused"));
        let email = OutgoingEmail {
            to: "not an address".to_owned(),
            subject: "Hello".to_owned(),
            text: "Hi".to_owned(),
            reply_to: None,
            unsubscribe: None,
        };
        let err = mailer.send(email).await.unwrap_err();
        assert!(matches!(err, MailError::Build { part: "recipient", .. }));
        let logged = chain(&err);
        assert!(logged.starts_with("the message could not be built: recipient: "), "{logged}");
        assert!(logged.len() > "the message could not be built: recipient: ".len(), "{logged}");
    }
}
