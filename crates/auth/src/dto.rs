//! Request and response bodies of the account endpoints, with the specification's
//! validation messages. Unknown fields in a request are an error.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use validator::{Validate, ValidationError};

use crate::models::{Account, Role};
use crate::service::accounts::is_valid_username_charset;
use crate::service::display_name;
use crate::service::export::AccountExport;
use crate::service::sessions::ActiveSession;

/// Longest password accepted (hashing cost grows with it).
pub const PASSWORD_MAX: u64 = 256;

/// The signed-in user.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserDto {
    pub id: i64,
    pub email: String,
    pub username: String,
    pub display_name: String,
    /// URL of the profile picture (`/media/avatars/…`), if any.
    pub profile_picture: Option<String>,
    pub is_pro: bool,
    /// Current credit balance.
    pub credits: i32,
    pub role: Role,
    pub created_at: DateTime<Utc>,
    /// The address is verified (its link was followed). Until then the app asks for it.
    pub email_verified: bool,
}

impl From<Account> for UserDto {
    fn from(a: Account) -> Self {
        Self {
            id: a.id.0,
            email: a.email,
            username: a.username,
            display_name: a.display_name,
            profile_picture: a.profile_picture,
            is_pro: a.is_pro,
            credits: a.credits,
            role: a.role,
            created_at: a.created_at,
            email_verified: a.email_verified,
        }
    }
}

/// A response carrying the user.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct UserResponse {
    pub user: UserDto,
}

/// The session check: the signed-in user, or `user: null` with why there is none. Not being
/// signed in is an answer (200), not an error: a visitor's every page asks.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SessionResponse {
    pub user: Option<UserDto>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "Not authenticated")]
    pub error: Option<String>,
}

/// A new account.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterResponse {
    pub user: UserDto,
    /// The credits the account started with: 3, or 0 when its network has had the signup
    /// bonus for 5 new accounts in the last 24 hours.
    pub signup_bonus: i32,
    /// The analysis the browser's free result, made just before as a visitor, became: saved
    /// to the new account (`GET /_api/analyses/{id}`). Absent when there was none to save
    /// (none made, or kept too long ago).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed_analysis_id: Option<i64>,
}

/// A signed-in browser.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginResponse {
    pub user: UserDto,
    /// The analysis the browser's free result, made just before as a visitor, became: saved
    /// to the account (`GET /_api/analyses/{id}`). Absent when there was none to save.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed_analysis_id: Option<i64>,
}

/// A followed verification link. The link proves only that its holder read the mailbox, and
/// links get forwarded and pasted: the account comes back only to a browser signed in as it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VerifyEmailResponse {
    pub success: bool,
    /// The account, now verified, when the request is signed in as it; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<UserDto>,
}

/// A plain acknowledgement.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SuccessResponse {
    pub success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl SuccessResponse {
    pub fn ok() -> Self {
        Self { success: true, message: None }
    }

    pub fn with_message(message: &str) -> Self {
        Self { success: true, message: Some(message.to_owned()) }
    }
}

/// Any JSON object; its fields are ignored (logout, "Sign out everywhere else").
#[derive(Debug, Default, Deserialize, Validate, ToSchema)]
pub struct EmptyRequest {}

fn not_blank(value: &str) -> Result<(), ValidationError> {
    if value.trim().is_empty() { Err(ValidationError::new("blank")) } else { Ok(()) }
}

fn fail(code: &'static str, message: &'static str) -> Result<(), ValidationError> {
    Err(ValidationError::new(code).with_message(message.into()))
}

fn username_rules(value: &str) -> Result<(), ValidationError> {
    if value.chars().count() > 50 {
        fail("length", "Username cannot be longer than 50 characters.")
    } else if !is_valid_username_charset(value) {
        fail("charset", "Username can only contain letters, numbers, and underscores.")
    } else {
        Ok(())
    }
}

/// Refused before a password is hashed for it; the service checks again (see
/// [`display_name::normalize`]).
fn display_name_characters(value: &str) -> Result<(), ValidationError> {
    if display_name::normalize(value).is_none() {
        fail("characters", display_name::HIDDEN_CHARACTERS)
    } else {
        Ok(())
    }
}

/// No reset link carries a longer token: it gets the answer any unknown token gets.
fn reset_token_max(value: &str) -> Result<(), ValidationError> {
    if value.chars().count() > 200 { fail("length", "Invalid or expired reset token.") } else { Ok(()) }
}

/// Refuses one of the most common breached passwords; the field's own message says why
/// (`message = …` on the rule). A shorter one is left to the length rule.
fn not_common_password(value: &str) -> Result<(), ValidationError> {
    if value.chars().count() >= 8 && crate::service::passwords::is_common(value) {
        Err(ValidationError::new("common_password"))
    } else {
        Ok(())
    }
}

fn password_max(value: &str) -> Result<(), ValidationError> {
    if value.chars().count() as u64 > PASSWORD_MAX {
        fail("length", "Password cannot be longer than 256 characters.")
    } else {
        Ok(())
    }
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    #[validate(email(message = "Email is required"))]
    #[schema(example = "gamer@example.com", format = Email, max_length = 254)]
    pub email: String,
    #[validate(length(min = 1, message = "Password is required"))]
    #[validate(custom(function = "password_max"))]
    #[schema(min_length = 1, max_length = 256)]
    pub password: String,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RegisterRequest {
    #[validate(email(message = "Email is required"))]
    #[validate(length(max = 254, message = "Email cannot be longer than 254 characters."))]
    #[schema(example = "gamer@example.com", format = Email, max_length = 254)]
    pub email: String,
    /// One of the 10,000 most common breached passwords is refused, as too short ones are.
    #[validate(length(min = 8, message = "Password must be at least 8 characters"))]
    #[validate(custom(
        function = "not_common_password",
        message = "Password must be at least 8 characters"
    ))]
    #[validate(custom(function = "password_max"))]
    #[schema(min_length = 8, max_length = 256)]
    pub password: String,
    /// Spaces, emojis and special characters are allowed; invisible, text-direction and
    /// unassigned characters are not. Stored trimmed and in NFC.
    #[validate(custom(function = "not_blank", message = "Name is required"))]
    #[validate(length(max = 100, message = "Name cannot be longer than 100 characters."))]
    #[validate(custom(function = "display_name_characters"))]
    #[schema(
        example = "Pixel Pete",
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200C\\u200E-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200C\\u200E-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200C\\u200E-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]*$"
    )]
    pub display_name: String,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateProfileRequest {
    #[validate(length(min = 3, message = "Username must be at least 3 characters long."))]
    #[validate(custom(function = "username_rules"))]
    #[schema(example = "pixel_pete", min_length = 3, max_length = 50, pattern = "^[A-Za-z0-9_]+$")]
    pub username: String,
}

/// The name shown on the profile and on the member's posts.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UpdateDisplayNameRequest {
    /// Spaces, emojis and special characters are allowed; invisible, text-direction and
    /// unassigned characters are not. Stored trimmed and in NFC.
    #[validate(custom(function = "not_blank", message = "Name is required"))]
    #[validate(length(max = 100, message = "Name cannot be longer than 100 characters."))]
    #[validate(custom(function = "display_name_characters"))]
    #[schema(
        example = "Pixel Pete",
        min_length = 1,
        max_length = 100,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200C\\u200E-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200C\\u200E-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u180E\\u200B-\\u200C\\u200E-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]*$"
    )]
    pub display_name: String,
}

/// Longest accepted data URL (the specification's "500KB" after base64).
pub const PROFILE_PICTURE_MAX_CHARS: usize = 700_000;

/// The picture's own checks (type, size, pixels) are made when it is decoded.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UploadProfilePictureRequest {
    /// `data:image/png;base64,…` or `data:image/jpeg;base64,…`, at most 700000 characters.
    #[schema(max_length = 700000)]
    pub image_data: String,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgotPasswordRequest {
    #[validate(email(message = "Please enter a valid email address."))]
    #[schema(format = Email, max_length = 254)]
    pub email: String,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct VerifyResetTokenRequest {
    #[validate(length(min = 1, message = "Reset token is required."))]
    #[validate(custom(function = "reset_token_max"))]
    #[schema(min_length = 1, max_length = 200)]
    pub reset_token: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct VerifyResetTokenResponse {
    pub valid: bool,
    /// The account the link resets.
    pub email: String,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResetPasswordRequest {
    #[validate(length(min = 1, message = "Reset token is required."))]
    #[validate(custom(function = "reset_token_max"))]
    #[schema(min_length = 1, max_length = 200)]
    pub reset_token: String,
    /// One of the 10,000 most common breached passwords is refused, as too short ones are.
    #[validate(length(min = 8, message = "Password must be at least 8 characters long."))]
    #[validate(custom(
        function = "not_common_password",
        message = "Password must be at least 8 characters long."
    ))]
    #[validate(custom(function = "password_max"))]
    #[schema(min_length = 8, max_length = 256)]
    pub new_password: String,
    /// When sent, it must equal `newPassword`.
    #[validate(length(min = 1, message = "Please confirm your password."))]
    #[schema(min_length = 1, max_length = 256)]
    pub confirm_password: Option<String>,
}

/// How many other sessions "Sign out everywhere else" ended.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EndOtherSessionsResponse {
    pub ended: usize,
}

/// One browser or device signed in to the account. Where it is, or was, is not kept.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionDto {
    /// The browser and system it signed in with ("Firefox on Windows"), or "Unknown device".
    #[schema(example = "Chrome on Android")]
    pub device: String,
    pub signed_in_at: DateTime<Utc>,
    /// When it was last used (to within five minutes).
    pub last_seen_at: DateTime<Utc>,
    /// This is the browser asking.
    pub current: bool,
}

impl From<ActiveSession> for SessionDto {
    fn from(s: ActiveSession) -> Self {
        Self {
            device: s.device,
            signed_in_at: s.signed_in_at,
            last_seen_at: s.last_seen_at,
            current: s.current,
        }
    }
}

/// The account's signed-in browsers and devices: this one first, then the most recently used.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SessionsResponse {
    pub sessions: Vec<SessionDto>,
}

/// Moving the account to another e-mail address, with the current password as proof.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeEmailRequest {
    #[validate(email(message = "Please enter a valid email address."))]
    #[validate(length(max = 254, message = "Email cannot be longer than 254 characters."))]
    #[schema(example = "new.address@example.com", format = Email, max_length = 254)]
    pub new_email: String,
    #[validate(length(min = 1, message = "Please enter your current password."))]
    #[validate(custom(function = "password_max"))]
    #[schema(min_length = 1, max_length = 256)]
    pub current_password: String,
}

/// Deleting the account: the current password, so that a borrowed session cannot.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteAccountRequest {
    #[validate(length(min = 1, message = "Please enter your current password."))]
    #[validate(custom(function = "password_max"))]
    #[schema(min_length = 1, max_length = 256)]
    pub current_password: String,
}

/// Everything the account holds ("Download my data"): never a password hash, a token, an
/// address it was used from, or another member's data.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountExportDto {
    pub exported_at: DateTime<Utc>,
    /// The site's address: the links in the file (photos, pages) are relative to it.
    #[schema(example = "https://setupiq.example")]
    pub site: String,
    pub profile: UserDto,
    /// The browsers and devices signed in now.
    pub sessions: Vec<SessionDto>,
    /// One member per part of the product: `analyses` (with their results and photo links),
    /// `communityPosts`, `votes`, `reports` and `comments` made, `rigpage` (its settings and links),
    /// `creditHistory`, `payments`, `contactMessages` and `affiliateClicks`.
    #[serde(flatten)]
    pub sections: BTreeMap<String, serde_json::Value>,
}

impl AccountExportDto {
    /// The export of an account of the site at `site`.
    pub fn new(e: AccountExport, site: String) -> Self {
        Self {
            exported_at: e.exported_at,
            site,
            profile: e.account.into(),
            sessions: e.sessions.into_iter().map(SessionDto::from).collect(),
            sections: e.sections.into_iter().map(|s| (s.name.to_owned(), s.data)).collect(),
        }
    }
}

/// A signed-in member's new password, with the current one as proof.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    #[validate(length(min = 1, message = "Please enter your current password."))]
    #[validate(custom(function = "password_max"))]
    #[schema(min_length = 1, max_length = 256)]
    pub current_password: String,
    /// One of the 10,000 most common breached passwords is refused, as too short ones are.
    #[validate(length(min = 8, message = "Password must be at least 8 characters long."))]
    #[validate(custom(
        function = "not_common_password",
        message = "Password must be at least 8 characters long."
    ))]
    #[validate(custom(function = "password_max"))]
    #[schema(min_length = 8, max_length = 256)]
    pub new_password: String,
}

/// The token of a verification link (`/verify-email?token=…`).
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyEmailRequest {
    #[validate(length(min = 1, max = 200, message = "The verification link is incomplete."))]
    #[schema(min_length = 1, max_length = 200)]
    pub token: String,
}
