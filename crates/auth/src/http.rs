//! The account endpoints under `/_api/auth`. Each handler extracts, validates, calls the
//! service and maps the result; the rules live in `service`.

use actix_web::http::header::{CacheControl, CacheDirective, ContentDisposition};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use setupiq_core::openapi::{InvalidInput, NotSignedIn};
use setupiq_core::validation::ValidJson;
use setupiq_core::{ApiError, Config, ErrorBody, SharedClock};
use setupiq_db::{AppCtx, Db};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::arrivals;
use crate::dto::{
    AccountExportDto, ChangeEmailRequest, ChangePasswordRequest, DeleteAccountRequest, EmptyRequest,
    EndOtherSessionsResponse, ForgotPasswordRequest, LoginRequest, LoginResponse, RegisterRequest,
    RegisterResponse, ResetPasswordRequest, SessionResponse, SessionsResponse, SuccessResponse,
    UpdateDisplayNameRequest, UpdateProfileRequest, UploadProfilePictureRequest, UserResponse,
    VerifyEmailRequest, VerifyEmailResponse, VerifyResetTokenRequest, VerifyResetTokenResponse,
};
use crate::error::AuthError;
use crate::extract::{
    CurrentUser, OptionalUser, client, client_ip, removal_cookie, session_cookie, session_token,
};
use crate::service::email_change::{self, EmailChange};
use crate::service::export;
use crate::service::ledger::SIGNUP_BONUS;
use crate::service::login::{self, NewAccount};
use crate::service::password_change::{self, PasswordChange};
use crate::service::passwords::Passwords;
use crate::service::{accounts, deletion, profile, reset, sessions, verify};

pub const FORGOT_PASSWORD_MESSAGE: &str = "If an account exists with that email, you will receive a password reset link shortly. Please check your inbox.";

/// Mounts the account endpoints (the gateway puts them under `/_api/auth`).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_session)
        .service(login_with_password)
        .service(register_with_password)
        .service(logout)
        .service(list_sessions)
        .service(end_other_sessions)
        .service(delete_account)
        .service(update_profile)
        .service(update_display_name)
        .service(upload_profile_picture)
        .service(forgot_password)
        .service(verify_reset_token)
        .service(reset_password)
        .service(change_password)
        .service(change_email)
        .service(verify_email)
        .service(resend_verification_email);
}

/// Mounts the endpoints about the account as a whole (the gateway puts them under
/// `/_api/account`).
pub fn configure_account(cfg: &mut ServiceConfig) {
    cfg.service(export_account);
}

fn user_response(account: crate::models::Account) -> UserResponse {
    UserResponse { user: account.into() }
}

/// The signed-in user, or `user: null` with `error` when there is no valid session (spec:
/// "error means unauthenticated"). Always 200: a visitor is an answer, not a failure.
#[utoipa::path(
    tag = "auth",
    responses((status = 200, description = "The signed-in user, or null and why", body = SessionResponse))
)]
#[get("/session")]
async fn get_session(user: OptionalUser) -> web::Json<SessionResponse> {
    web::Json(match user.0 {
        Some(user) => SessionResponse { user: Some(user.account.into()), error: None },
        None => SessionResponse { user: None, error: Some(AuthError::NotAuthenticated.to_string()) },
    })
}

/// Signs in with e-mail and password; sets the session cookie.
///
/// Failures are throttled by account and client address together (429 with `Retry-After`):
/// 5 in 15 minutes lock that address out of that account, 20 lock it out of every account;
/// past 100 failures on an account from all addresses, every attempt on it waits a second
/// and the addresses that failed on it are locked out, but never one that has not. A
/// completed password reset clears the account's failures.
///
/// A free result this browser made as a visitor a moment before is saved to the account
/// (`claimedAnalysisId`).
#[utoipa::path(
    tag = "auth",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in; a new session cookie is set", body = LoginResponse),
        InvalidInput,
        (status = 401, description = "Wrong e-mail or password", body = ErrorBody),
        (status = 429, description = "Too many failed attempts", body = ErrorBody),
    )
)]
#[post("/login_with_password")]
async fn login_with_password(
    req: HttpRequest,
    body: ValidJson<LoginRequest>,
    ctx: web::Data<AppCtx>,
    passwords: web::Data<Passwords>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let (account, session) = login::login(&ctx, &passwords, &body.email, body.password, client(&req)).await?;
    // A session token the browser already had is replaced, not kept alongside.
    if let Some(previous) = session_token(&req) {
        ctx.db.run(move |conn| sessions::end(conn, &previous)).await?;
    }
    let claimed = arrivals::welcome(&ctx, &req, account.id).await;
    let body = LoginResponse { user: account.into(), claimed_analysis_id: claimed.map(|id| id.0) };
    Ok(HttpResponse::Ok().cookie(session_cookie(&ctx.config, session.token)).json(body))
}

/// Creates an account and signs it in. It starts with the signup bonus of 3 credits, unless
/// its network has had that bonus 5 times in 24 hours (`signupBonus` says which).
///
/// A link to verify the address is e-mailed at once (`user.emailVerified` is false until it
/// is followed); an address listed as an admin's gets the role only then.
///
/// At most 10 accounts an hour from one network (an IPv6 client counts by its /64).
///
/// A free result this browser made as a visitor a moment before is saved to the new
/// account (`claimedAnalysisId`).
#[utoipa::path(
    tag = "auth",
    request_body = RegisterRequest,
    responses(
        (status = 201, description = "Account created; the session cookie is set", body = RegisterResponse),
        InvalidInput,
        (status = 409, description = "Email already in use", body = ErrorBody),
        (status = 429, description = "Too many new accounts from this network (see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("/register_with_password")]
async fn register_with_password(
    req: HttpRequest,
    body: ValidJson<RegisterRequest>,
    ctx: web::Data<AppCtx>,
    passwords: web::Data<Passwords>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let new = NewAccount {
        email: body.email,
        display_name: body.display_name,
        password: body.password,
        client: client(&req),
        limits: ctx.config.signups,
    };
    let registered = login::register(&ctx, &passwords, new).await?;
    // The account exists and is signed in whatever the mail does; a failure is logged, and
    // the app's banner offers "Resend".
    let _ = verify::mail_link(&ctx, &registered.verification).await;
    let claimed = arrivals::welcome(&ctx, &req, registered.account.id).await;
    let body = RegisterResponse {
        signup_bonus: if registered.signup_bonus { SIGNUP_BONUS } else { 0 },
        user: registered.account.into(),
        claimed_analysis_id: claimed.map(|id| id.0),
    };
    Ok(HttpResponse::Created().cookie(session_cookie(&ctx.config, registered.session.token)).json(body))
}

/// Ends the current session and clears the cookie. Succeeds when signed out too.
#[utoipa::path(
    tag = "auth",
    request_body = EmptyRequest,
    responses((status = 200, description = "Signed out", body = SuccessResponse))
)]
#[post("/logout")]
async fn logout(
    user: OptionalUser,
    _body: ValidJson<EmptyRequest>,
    db: web::Data<Db>,
    config: web::Data<Config>,
) -> Result<HttpResponse, ApiError> {
    if let Some(user) = user.0 {
        let token = user.session_token().to_owned();
        db.run(move |conn| sessions::end(conn, &token)).await?;
    }
    Ok(HttpResponse::Ok().cookie(removal_cookie(&config)).json(SuccessResponse::ok()))
}

/// The browsers and devices signed in to the account, this one first.
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    responses((status = 200, description = "The live sessions", body = SessionsResponse), NotSignedIn)
)]
#[get("/sessions")]
async fn list_sessions(
    user: CurrentUser,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<SessionsResponse>, ApiError> {
    let (user_id, token, now) = (user.id(), user.session_token().to_owned(), clock.now());
    let active = db.run(move |conn| sessions::list(conn, user_id, &token, now)).await?;
    Ok(web::Json(SessionsResponse { sessions: active.into_iter().map(Into::into).collect() }))
}

/// Signs the account out of every other browser and device ("Sign out everywhere else");
/// this session stays. Outstanding password-reset links end with them.
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    request_body = EmptyRequest,
    responses(
        (status = 200, description = "The other sessions ended", body = EndOtherSessionsResponse),
        InvalidInput,
        NotSignedIn,
    )
)]
#[post("/sessions/end-others")]
async fn end_other_sessions(
    user: CurrentUser,
    _body: ValidJson<EmptyRequest>,
    db: web::Data<Db>,
) -> Result<web::Json<EndOtherSessionsResponse>, ApiError> {
    let (user_id, token) = (user.id(), user.session_token().to_owned());
    let ended = db.run(move |conn| password_change::end_other_sessions(conn, user_id, &token)).await?;
    Ok(web::Json(EndOtherSessionsResponse { ended }))
}

/// Permanently deletes the account with its sessions, reset links, credits and uploads,
/// once `currentPassword` proves it is the owner (wrong guesses count towards the login
/// throttle).
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    request_body = DeleteAccountRequest,
    responses(
        (status = 200, description = "Deleted; the cookie is cleared", body = SuccessResponse),
        InvalidInput,
        NotSignedIn,
        (status = 429, description = "Too many wrong passwords (see `Retry-After`)", body = ErrorBody),
        (status = 503, description = "The Pro subscription could not be ended; nothing was deleted", body = ErrorBody),
    )
)]
#[post("/delete-account")]
async fn delete_account(
    req: HttpRequest,
    user: CurrentUser,
    body: ValidJson<DeleteAccountRequest>,
    ctx: web::Data<AppCtx>,
    passwords: web::Data<Passwords>,
) -> Result<HttpResponse, ApiError> {
    let password = body.into_inner().current_password;
    deletion::delete_account(&ctx, &passwords, user.id(), password, client_ip(&req)).await?;
    Ok(HttpResponse::Ok()
        .cookie(removal_cookie(&ctx.config))
        .json(SuccessResponse::with_message("Account deleted successfully")))
}

/// Everything the account holds, as a JSON file to download ("Download my data"): the
/// profile, signed-in devices, analyses with their results and photo links, community posts,
/// votes and reports made, the RigPage with its links, credit history, payments and contact
/// messages. Never a password hash, a token, an address it was used from, or another
/// member's data.
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    responses(
        (status = 200, description = "The account's data, as an attachment", body = AccountExportDto,
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"setupiq-data-{username}.json\"`"))),
        NotSignedIn,
    )
)]
#[get("/export")]
async fn export_account(user: CurrentUser, ctx: web::Data<AppCtx>) -> Result<HttpResponse, ApiError> {
    let exported = export::for_download(&ctx, user.id(), user.session_token().to_owned()).await?;
    let file_name = format!("setupiq-data-{}.json", exported.account.username);
    Ok(HttpResponse::Ok()
        .insert_header(ContentDisposition::attachment(file_name))
        .insert_header(CacheControl(vec![CacheDirective::NoStore]))
        .json(AccountExportDto::new(exported, ctx.config.public_link(""))))
}

/// Changes the username (3 to 50 letters, numbers or underscores, unique).
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    request_body = UpdateProfileRequest,
    responses(
        (status = 200, description = "Updated", body = UserResponse),
        (status = 400, description = "Invalid or unchanged username", body = ErrorBody),
        NotSignedIn,
        (status = 409, description = "Username taken", body = ErrorBody),
    )
)]
#[post("/update-profile")]
async fn update_profile(
    user: CurrentUser,
    body: ValidJson<UpdateProfileRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<UserResponse>, ApiError> {
    let body = body.into_inner();
    let user_id = user.id();
    let clock = clock.get_ref().clone();
    let account =
        db.run(move |conn| accounts::change_username(conn, user_id, &body.username, clock.now())).await?;
    Ok(web::Json(user_response(account)))
}

/// Changes the display name (1 to 100 characters, spaces, emojis and special characters
/// allowed; invisible, text-direction and unassigned characters refused; stored trimmed and
/// in NFC).
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    request_body = UpdateDisplayNameRequest,
    responses((status = 200, description = "Updated", body = UserResponse), InvalidInput, NotSignedIn)
)]
#[post("/update-display-name")]
async fn update_display_name(
    user: CurrentUser,
    body: ValidJson<UpdateDisplayNameRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<UserResponse>, ApiError> {
    let (user_id, name, clock) = (user.id(), body.into_inner().display_name, clock.get_ref().clone());
    let account =
        db.run(move |conn| accounts::change_display_name(conn, user_id, &name, clock.now())).await?;
    Ok(web::Json(user_response(account)))
}

/// Replaces the profile picture with a PNG or JPEG data URL (at most 700000 characters).
///
/// The image is decoded, scaled to at most 800 px, re-encoded without metadata and must
/// pass the safety classifier (the picture is public).
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    request_body = UploadProfilePictureRequest,
    responses(
        (status = 200, description = "Updated; `user.profilePicture` is the new URL", body = UserResponse),
        (status = 400, description = "Not a valid PNG or JPEG, or longer than 700000 characters", body = ErrorBody),
        NotSignedIn,
        (status = 413, description = "The picture is larger than 40 megapixels", body = ErrorBody),
        (status = 422, description = "The picture is not safe for work", body = ErrorBody),
        (status = 429, description = "This account's images are still being processed", body = ErrorBody),
        (status = 503, description = "The image queue is full (see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("/upload-profile-picture")]
async fn upload_profile_picture(
    user: CurrentUser,
    body: ValidJson<UploadProfilePictureRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<UserResponse>, ApiError> {
    let account = profile::upload_picture(&ctx, user.id(), body.into_inner().image_data).await?;
    Ok(web::Json(user_response(account)))
}

/// Sends a password-reset link if the account exists. The answer is the same either way.
#[utoipa::path(
    tag = "auth",
    request_body = ForgotPasswordRequest,
    responses(
        (status = 200, description = "Accepted", body = SuccessResponse),
        (status = 400, description = "Invalid e-mail", body = ErrorBody),
    )
)]
#[post("/forgot-password")]
async fn forgot_password(
    body: ValidJson<ForgotPasswordRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let body = body.into_inner();
    reset::send_link(&ctx, body.email).await?;
    Ok(web::Json(SuccessResponse::with_message(FORGOT_PASSWORD_MESSAGE)))
}

/// Checks a reset link's token; answers with the account's e-mail when it is valid.
#[utoipa::path(
    tag = "auth",
    request_body = VerifyResetTokenRequest,
    responses(
        (status = 200, description = "Valid", body = VerifyResetTokenResponse),
        (status = 400, description = "Invalid, used or expired", body = ErrorBody),
    )
)]
#[post("/verify-reset-token")]
async fn verify_reset_token(
    body: ValidJson<VerifyResetTokenRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<VerifyResetTokenResponse>, ApiError> {
    let body = body.into_inner();
    let clock = clock.get_ref().clone();
    let account = db.run(move |conn| reset::verify(conn, &body.reset_token, clock.now())).await?;
    Ok(web::Json(VerifyResetTokenResponse { valid: true, email: account.email }))
}

/// Sets a new password with a reset token; every session of the account ends.
#[utoipa::path(
    tag = "auth",
    request_body = ResetPasswordRequest,
    responses(
        (status = 200, description = "Password changed", body = SuccessResponse),
        (status = 400, description = "Invalid input or token", body = ErrorBody),
    )
)]
#[post("/reset-password")]
async fn reset_password(
    body: ValidJson<ResetPasswordRequest>,
    ctx: web::Data<AppCtx>,
    passwords: web::Data<Passwords>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    if body.confirm_password.as_ref().is_some_and(|confirm| *confirm != body.new_password) {
        return Err(ApiError::invalid("confirmPassword", "Passwords don't match"));
    }
    reset::reset_password(&ctx, &passwords, body.reset_token, body.new_password).await?;
    Ok(HttpResponse::Ok()
        .cookie(removal_cookie(&ctx.config))
        .json(SuccessResponse::with_message("Password reset successfully!")))
}

pub const PASSWORD_CHANGED_MESSAGE: &str = "Password changed. Your other devices were signed out.";

/// Changes the signed-in member's password: `currentPassword` must be right (wrong guesses
/// count towards the login throttle), `newPassword` follows the sign-up rules and differs
/// from it. Every other session of the account ends and its reset links stop working; this
/// one stays signed in. An e-mail tells the account's address.
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    request_body = ChangePasswordRequest,
    responses(
        (status = 200, description = "Password changed; other sessions ended", body = SuccessResponse),
        InvalidInput,
        NotSignedIn,
        (status = 429, description = "Too many wrong passwords (see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("/change-password")]
// Each extractor is one thing the change needs; one application context (issue 28) will
// carry the shared ones.
async fn change_password(
    req: HttpRequest,
    user: CurrentUser,
    body: ValidJson<ChangePasswordRequest>,
    ctx: web::Data<AppCtx>,
    passwords: web::Data<Passwords>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let body = body.into_inner();
    let change = PasswordChange {
        user_id: user.id(),
        session_token: user.session_token().to_owned(),
        current_password: body.current_password,
        new_password: body.new_password,
        ip: client_ip(&req),
    };
    password_change::change_password(&ctx, &passwords, change).await?;
    Ok(web::Json(SuccessResponse::with_message(PASSWORD_CHANGED_MESSAGE)))
}

/// Starts moving the account to `newEmail`: `currentPassword` must be right (wrong guesses
/// count towards the login throttle); a link is mailed to the new address and the account
/// moves only when it is followed (`POST /verify-email`), verified, with a notice to the
/// old address. Until then the account keeps its address. The link counts towards the 5
/// verification e-mails an hour.
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    request_body = ChangeEmailRequest,
    responses(
        (status = 200, description = "The link is on its way to the new address", body = SuccessResponse),
        InvalidInput,
        NotSignedIn,
        (status = 409, description = "Another account has that address", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords or links in the last hour (see `Retry-After`)", body = ErrorBody),
        (status = 503, description = "The e-mail could not be sent", body = ErrorBody),
    )
)]
#[post("/change-email")]
// Each extractor is one thing the change needs; one application context (issue 28) will
// carry the shared ones.
async fn change_email(
    req: HttpRequest,
    user: CurrentUser,
    body: ValidJson<ChangeEmailRequest>,
    ctx: web::Data<AppCtx>,
    passwords: web::Data<Passwords>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let body = body.into_inner();
    let change = EmailChange {
        user_id: user.id(),
        new_email: body.new_email,
        current_password: body.current_password,
        ip: client_ip(&req),
    };
    let to = email_change::request(&ctx, &passwords, change).await?;
    Ok(web::Json(SuccessResponse::with_message(&format!(
        "We sent a link to {to}. Your address changes when you open it."
    ))))
}

pub const VERIFICATION_SENT_MESSAGE: &str = "We sent a new verification link. Please check your inbox.";

/// Verifies the account's e-mail address with the token from its link (no session needed:
/// the link may be opened in another browser). A link sent by a change of address moves the
/// account to it and tells the old one. An address listed as an admin's gets the admin role
/// now; an admin moving to an address not listed loses it.
///
/// The answer carries the account only when the request is signed in as it: whoever else
/// holds the link learns that it worked, not whose it was.
#[utoipa::path(
    tag = "auth",
    request_body = VerifyEmailRequest,
    responses(
        (status = 200, description = "Verified; `user` (with `emailVerified` true) only when signed in as the account", body = VerifyEmailResponse),
        (status = 400, description = "The link is not valid, has expired or was used", body = ErrorBody),
        (status = 409, description = "Another account took the new address meanwhile", body = ErrorBody),
    )
)]
#[post("/verify-email")]
async fn verify_email(
    user: OptionalUser,
    body: ValidJson<VerifyEmailRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<VerifyEmailResponse>, ApiError> {
    let account = verify::verify_email(&ctx, body.into_inner().token).await?;
    let own = user.0.is_some_and(|signed_in| signed_in.id() == account.id);
    Ok(web::Json(VerifyEmailResponse { success: true, user: own.then(|| account.into()) }))
}

/// E-mails the signed-in user a new verification link (at most 5 an hour, the sign-up's
/// included; 429 with `Retry-After` beyond). Earlier links keep working until they expire.
#[utoipa::path(
    tag = "auth",
    security(("session" = [])),
    request_body = EmptyRequest,
    responses(
        (status = 200, description = "Sent", body = SuccessResponse),
        NotSignedIn,
        (status = 409, description = "The address is verified already", body = ErrorBody),
        (status = 429, description = "Too many links asked for in the last hour (see `Retry-After`)", body = ErrorBody),
        (status = 503, description = "The e-mail could not be sent", body = ErrorBody),
    )
)]
#[post("/verify-email/resend")]
async fn resend_verification_email(
    user: CurrentUser,
    _body: ValidJson<EmptyRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    verify::send_link(&ctx, user.id()).await?;
    Ok(web::Json(SuccessResponse::with_message(VERIFICATION_SENT_MESSAGE)))
}
