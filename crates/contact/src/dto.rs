//! The contact form's request body, with the specification's validation messages.
//! Unknown fields are an error. The response is the shared [`SuccessResponse`].
//!
//! [`SuccessResponse`]: setupiq_auth::dto::SuccessResponse

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use validator::{Validate, ValidationError};

use crate::ContactMessage;

/// Shortest name, counted after trimming.
pub const NAME_MIN: usize = 2;
/// Longest name, counted after trimming.
pub const NAME_MAX: usize = 100;
/// Shortest message, counted after trimming.
pub const MESSAGE_MIN: usize = 10;
/// Longest message, counted after trimming.
pub const MESSAGE_MAX: usize = 5000;
/// Longest e-mail address (RFC 5321).
pub const EMAIL_MAX: u64 = 254;

fn fail(code: &'static str, message: &'static str) -> Result<(), ValidationError> {
    Err(ValidationError::new(code).with_message(message.into()))
}

fn name_rules(value: &str) -> Result<(), ValidationError> {
    let chars = value.trim().chars().count();
    if chars < NAME_MIN {
        fail("length", "Name must be at least 2 characters.")
    } else if chars > NAME_MAX {
        fail("length", "Name cannot be longer than 100 characters.")
    } else {
        Ok(())
    }
}

fn message_rules(value: &str) -> Result<(), ValidationError> {
    let chars = value.trim().chars().count();
    if chars < MESSAGE_MIN {
        fail("length", "Message must be at least 10 characters.")
    } else if chars > MESSAGE_MAX {
        fail("length", "Message cannot be longer than 5000 characters.")
    } else {
        Ok(())
    }
}

/// A message to the SetupIQ support team.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContactRequest {
    /// 2 to 100 characters (surrounding spaces do not count).
    #[validate(custom(function = "name_rules"))]
    #[schema(
        example = "Pixel Pete",
        min_length = 2,
        max_length = 100,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    )]
    pub name: String,
    /// Where support can answer.
    #[validate(email(message = "Please enter a valid email address."))]
    #[validate(length(max = 254, message = "Email cannot be longer than 254 characters."))]
    #[schema(example = "gamer@example.com", format = Email, max_length = 254)]
    pub email: String,
    /// 10 to 5000 characters (surrounding spaces do not count).
    #[validate(custom(function = "message_rules"))]
    #[schema(
        example = "My score did not update after I re-ran the analysis.",
        min_length = 10,
        max_length = 5000,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]{8,}[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    )]
    pub message: String,
}

/// A page of the admin inbox.
#[derive(Debug, Deserialize, Validate, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct InboxQuery {
    /// Messages per page (1-100, default 20).
    #[serde(default = "default_inbox_limit")]
    #[validate(range(min = 1, max = 100, message = "Limit must be between 1 and 100."))]
    #[param(minimum = 1, maximum = 100)]
    pub limit: i64,
    #[serde(default)]
    #[validate(range(min = 0, message = "Offset must be 0 or more."))]
    #[param(minimum = 0)]
    pub offset: i64,
}

fn default_inbox_limit() -> i64 {
    20
}

/// One message as the admin inbox shows it (the sender's IP stays out: it is only for the
/// rate limit).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactMessageDto {
    pub id: i64,
    pub name: String,
    /// Where to answer.
    pub email: String,
    pub message: String,
    /// The sender's account, when they were signed in.
    pub user_id: Option<i64>,
    pub created_at: DateTime<Utc>,
}

impl From<ContactMessage> for ContactMessageDto {
    fn from(m: ContactMessage) -> Self {
        Self {
            id: m.id,
            name: m.name,
            email: m.email,
            message: m.message,
            user_id: m.user_id.map(|id| id.0),
            created_at: m.created_at,
        }
    }
}

/// A page of contact messages, newest first.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InboxResponse {
    pub messages: Vec<ContactMessageDto>,
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(name: &str, email: &str, message: &str) -> ContactRequest {
        ContactRequest { name: name.into(), email: email.into(), message: message.into() }
    }

    fn messages(req: &ContactRequest) -> Vec<(String, String)> {
        match setupiq_core::validation::validate(req) {
            Ok(()) => Vec::new(),
            Err(e) => e.issues().iter().map(|i| (i.path.clone(), i.message.clone())).collect(),
        }
    }

    #[test]
    fn limits_count_characters_after_trimming() {
        let ok = "A message long enough";
        assert!(messages(&request("Al", "a@b.co", ok)).is_empty());
        assert!(messages(&request(&"é".repeat(NAME_MAX), "a@b.co", &"ü".repeat(MESSAGE_MAX))).is_empty());
        assert_eq!(
            messages(&request("  A  ", "a@b.co", "   short   ")),
            vec![
                ("message".into(), "Message must be at least 10 characters.".into()),
                ("name".into(), "Name must be at least 2 characters.".into()),
            ]
        );
        assert_eq!(
            messages(&request(&"x".repeat(NAME_MAX + 1), "a@b.co", &"y".repeat(MESSAGE_MAX + 1))),
            vec![
                ("message".into(), "Message cannot be longer than 5000 characters.".into()),
                ("name".into(), "Name cannot be longer than 100 characters.".into()),
            ]
        );
        assert_eq!(
            messages(&request("Al", "not-an-email", ok)),
            vec![("email".into(), "Please enter a valid email address.".into())]
        );
    }
}
