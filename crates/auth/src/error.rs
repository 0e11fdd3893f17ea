//! What can go wrong in accounts and sessions, and how each failure reaches the client.

use setupiq_core::ApiError;
use setupiq_core::error::{Cause, chain};
use setupiq_core::mail::MailError;
use setupiq_core::media::MediaError;
use setupiq_db::DbError;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("Not authenticated")]
    NotAuthenticated,
    #[error("Invalid email or password.")]
    InvalidCredentials,
    #[error("Email already in use")]
    EmailTaken,
    #[error("Username is already taken.")]
    UsernameTaken,
    #[error("This is already your username.")]
    SameUsername,
    #[error("This username is reserved. Please choose another.")]
    UsernameReserved,
    #[error("Your current password is incorrect.")]
    WrongCurrentPassword,
    #[error("Your new password must be different from your current one.")]
    SamePassword,
    #[error("This is already your e-mail address.")]
    SameEmail,
    #[error("{}", crate::service::display_name::HIDDEN_CHARACTERS)]
    DisplayNameCharacters,
    #[error("Invalid or expired reset token.")]
    InvalidResetToken,
    #[error("Too many login attempts. Please try again in {} minute(s).", retry_after_secs.div_ceil(60))]
    Throttled { retry_after_secs: u64 },
    #[error(
        "Too many new accounts from your network. Please try again in {} minute(s).",
        retry_after_secs.div_ceil(60)
    )]
    TooManySignups { retry_after_secs: u64 },
    #[error(
        "This verification link is not valid. Check that you opened the whole link from the e-mail, or ask for a new one."
    )]
    VerificationLinkInvalid,
    #[error("This verification link has expired: links work for 24 hours. Please ask for a new one.")]
    VerificationLinkExpired,
    #[error(
        "This verification link has already been used. Please ask for a new one if your address is not verified yet."
    )]
    VerificationLinkUsed,
    #[error("Your e-mail address is already verified.")]
    AlreadyVerified,
    #[error(
        "You have asked for {} verification e-mails in the last hour. Please try again in {} minute(s).",
        crate::service::verify::LINKS_PER_HOUR,
        retry_after_secs.div_ceil(60)
    )]
    TooManyVerificationEmails { retry_after_secs: u64 },
    #[error("the e-mail could not be sent")]
    Mail(#[source] MailError),
    #[error(
        "Your Pro subscription could not be ended with our payment provider just now, so your account \
         was not deleted. Please try again in a few minutes."
    )]
    DeletionBlocked(#[source] Cause),
    #[error("Admin access required.")]
    NotAdmin,
    #[error("User not found.")]
    UserNotFound,
    #[error("Not enough credits: {needed} needed, {available} available.")]
    InsufficientCredits { needed: i32, available: i32 },
    #[error("This credit has already been applied.")]
    AlreadyApplied,
    #[error("password hashing failed")]
    Hashing(#[source] Cause),
    #[error("the data export failed: {0}")]
    Export(crate::service::export::SectionError),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Media(#[from] MediaError),
}

setupiq_db::query_errors_into!(AuthError);

impl From<AuthError> for ApiError {
    fn from(err: AuthError) -> Self {
        let message = err.to_string();
        match err {
            AuthError::NotAuthenticated | AuthError::InvalidCredentials => ApiError::unauthenticated(message),
            AuthError::EmailTaken => ApiError::new(
                actix_web::http::StatusCode::CONFLICT,
                setupiq_core::error::ErrorCode::EmailTaken,
                message,
            ),
            AuthError::UsernameTaken | AuthError::AlreadyApplied => ApiError::conflict(message),
            AuthError::SameUsername | AuthError::UsernameReserved => ApiError::invalid("username", message),
            AuthError::InvalidResetToken => ApiError::invalid("resetToken", message),
            AuthError::WrongCurrentPassword => ApiError::invalid("currentPassword", message),
            AuthError::SamePassword => ApiError::invalid("newPassword", message),
            AuthError::SameEmail => ApiError::invalid("newEmail", message),
            AuthError::DisplayNameCharacters => ApiError::invalid("displayName", message),
            AuthError::VerificationLinkInvalid
            | AuthError::VerificationLinkExpired
            | AuthError::VerificationLinkUsed => ApiError::invalid("token", message),
            AuthError::AlreadyVerified => ApiError::conflict(message),
            AuthError::Throttled { retry_after_secs }
            | AuthError::TooManySignups { retry_after_secs }
            | AuthError::TooManyVerificationEmails { retry_after_secs } => {
                ApiError::rate_limited(message, retry_after_secs)
            }
            AuthError::NotAdmin => ApiError::forbidden(message),
            AuthError::UserNotFound => ApiError::not_found(message),
            AuthError::InsufficientCredits { .. } => ApiError::insufficient_credits(message),
            AuthError::Db(db) => db.into(),
            AuthError::DeletionBlocked(cause) => {
                tracing::error!(error = %chain(cause.as_ref()), "an account could not be deleted");
                ApiError::new(
                    actix_web::http::StatusCode::SERVICE_UNAVAILABLE,
                    setupiq_core::error::ErrorCode::Unavailable,
                    message,
                )
            }
            AuthError::Media(_) | AuthError::Mail(_) => ApiError::unavailable(err),
            AuthError::Hashing(_) | AuthError::Export(_) => ApiError::internal(err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_that_wraps_another_keeps_it_for_the_log() {
        let mail = AuthError::Mail(MailError::Transport("connection refused".into()));
        assert_eq!(
            chain(&mail),
            "the e-mail could not be sent: the message could not be delivered: connection refused"
        );
        let blocked = AuthError::DeletionBlocked("stripe: card_error".into());
        assert!(
            chain(&blocked).ends_with("Please try again in a few minutes.: stripe: card_error"),
            "{}",
            chain(&blocked)
        );
        assert_eq!(
            chain(&AuthError::Hashing("out of memory".into())),
            "password hashing failed: out of memory"
        );
    }
}
