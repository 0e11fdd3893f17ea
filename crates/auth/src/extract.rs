//! The signed-in user as a handler argument: [`CurrentUser`] (401 when signed out),
//! [`OptionalUser`], and [`AdminUser`] (403 for everyone but admins). Also the session
//! cookie itself.

use std::future::Future;
use std::pin::Pin;

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use setupiq_core::{ApiError, Config, SharedClock, UserId};
use setupiq_db::Db;

use crate::error::AuthError;
use crate::models::Account;
use crate::service::login::Client;
use crate::service::sessions;

pub const COOKIE_NAME: &str = "setupiq_session";
/// Over https the `__Host-` prefix makes browsers insist on `Secure`, `Path=/` and no
/// `Domain`, so a sibling subdomain cannot plant or overwrite the cookie.
const SECURE_COOKIE_NAME: &str = "__Host-setupiq_session";

pub fn session_cookie_name(config: &Config) -> &'static str {
    if config.is_https() { SECURE_COOKIE_NAME } else { COOKIE_NAME }
}

/// The cookie that carries a new session token.
pub fn session_cookie(config: &Config, token: String) -> Cookie<'static> {
    Cookie::build(session_cookie_name(config), token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(config.is_https())
        .max_age(CookieDuration::seconds(sessions::ABSOLUTE_LIFETIME.num_seconds()))
        .finish()
}

/// A cookie that makes the browser drop the session cookie.
pub fn removal_cookie(config: &Config) -> Cookie<'static> {
    let mut cookie = session_cookie(config, String::new());
    cookie.make_removal();
    cookie
}

/// The client's IP address, for throttles and per-address limits: the TCP peer, or behind a
/// trusted proxy (`SETUPIQ_TRUSTED_PROXIES`) the address it forwards
/// ([`setupiq_core::forwarded::client_ip`]).
pub fn client_ip(req: &HttpRequest) -> Option<String> {
    let peer = req.peer_addr()?.ip();
    let trusted =
        req.app_data::<web::Data<Config>>().map(|c| c.trusted_proxies.as_slice()).unwrap_or_default();
    let values =
        |name: &str| -> Vec<&str> { req.headers().get_all(name).filter_map(|v| v.to_str().ok()).collect() };
    let (forwarded, x_forwarded_for) = (values("forwarded"), values("x-forwarded-for"));
    Some(setupiq_core::forwarded::client_ip(peer, &forwarded, &x_forwarded_for, trusted).to_string())
}

/// Where the request comes from: its address and its `User-Agent`.
pub fn client(req: &HttpRequest) -> Client {
    let user_agent = req.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(str::to_owned);
    Client { ip: client_ip(req), user_agent }
}

/// The session token the request carries, if any.
pub fn session_token(req: &HttpRequest) -> Option<String> {
    let config = req.app_data::<web::Data<Config>>()?;
    req.cookie(session_cookie_name(config)).map(|c| c.value().to_owned()).filter(|v| !v.is_empty())
}

/// The signed-in user of this request.
#[derive(Clone)]
pub struct CurrentUser {
    pub account: Account,
    token: String,
}

impl std::fmt::Debug for CurrentUser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CurrentUser").field("account", &self.account).finish_non_exhaustive()
    }
}

impl CurrentUser {
    /// The signed-in user's id.
    pub fn id(&self) -> UserId {
        self.account.id
    }

    /// The token of the session this request came with (to end it at logout).
    pub fn session_token(&self) -> &str {
        &self.token
    }
}

fn app_data<T: 'static>(req: &HttpRequest) -> Result<web::Data<T>, ApiError> {
    req.app_data::<web::Data<T>>().cloned().ok_or_else(|| {
        ApiError::internal(format!("app data {} is not configured", std::any::type_name::<T>()))
    })
}

/// Resolves the session once per request; later extractors reuse the result.
async fn resolve(req: HttpRequest) -> Result<Option<CurrentUser>, ApiError> {
    if let Some(resolved) = req.extensions().get::<Option<CurrentUser>>() {
        return Ok(resolved.clone());
    }
    let resolved = match session_token(&req) {
        None => None,
        Some(token) => {
            let db = app_data::<Db>(&req)?;
            let clock = app_data::<SharedClock>(&req)?;
            let lookup = token.clone();
            let account = db
                .run(move |conn| sessions::authenticate(conn, &lookup, clock.now()))
                .await
                .map_err(ApiError::from)?;
            account.map(|account| CurrentUser { account, token })
        }
    };
    req.extensions_mut().insert(resolved.clone());
    Ok(resolved)
}

type Pending<T> = Pin<Box<dyn Future<Output = Result<T, ApiError>>>>;

impl FromRequest for CurrentUser {
    type Error = ApiError;
    type Future = Pending<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { resolve(req).await?.ok_or_else(|| AuthError::NotAuthenticated.into()) })
    }
}

/// The signed-in user, if there is one.
#[derive(Debug, Clone)]
pub struct OptionalUser(pub Option<CurrentUser>);

impl FromRequest for OptionalUser {
    type Error = ApiError;
    type Future = Pending<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { resolve(req).await.map(OptionalUser) })
    }
}

/// The session a request carries, not looked up yet: for a handler whose own call to the
/// database threads can look it up too ([`Session::account`]), one trip there instead of
/// the two that [`OptionalUser`] and the handler's query would take (the community feed).
/// A visitor without a cookie costs no trip at all.
#[derive(Clone)]
pub struct Session(Lookup);

#[derive(Clone)]
enum Lookup {
    /// No session cookie.
    Visitor,
    /// Looked up already by another extractor of this request.
    Resolved(Option<Account>),
    /// The cookie's token, to look up.
    Token(String),
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a secret: never in a log line.
        let state = match &self.0 {
            Lookup::Visitor => "visitor",
            Lookup::Resolved(_) => "resolved",
            Lookup::Token(_) => "unresolved",
        };
        f.debug_tuple("Session").field(&state).finish()
    }
}

impl Session {
    /// The session whose token is `token` (a service test's request).
    pub fn of_token(token: impl Into<String>) -> Self {
        Self(Lookup::Token(token.into()))
    }

    /// A request without a session cookie.
    pub fn visitor() -> Self {
        Self(Lookup::Visitor)
    }

    /// Whether the request carries no session cookie: it is a visitor without a lookup.
    pub fn is_visitor(&self) -> bool {
        matches!(self.0, Lookup::Visitor)
    }

    /// The account the session signs in, none when it ended or never was, exactly as
    /// [`OptionalUser`] resolves it (an expired session is deleted, a used one touched).
    pub fn account(
        &self,
        conn: &mut setupiq_db::DbConnection,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<Option<Account>, AuthError> {
        match &self.0 {
            Lookup::Visitor => Ok(None),
            Lookup::Resolved(account) => Ok(account.clone()),
            Lookup::Token(token) => sessions::authenticate(conn, token, now),
        }
    }
}

impl FromRequest for Session {
    type Error = std::convert::Infallible;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let lookup = if let Some(resolved) = req.extensions().get::<Option<CurrentUser>>() {
            Lookup::Resolved(resolved.as_ref().map(|user| user.account.clone()))
        } else {
            session_token(req).map_or(Lookup::Visitor, Lookup::Token)
        };
        std::future::ready(Ok(Session(lookup)))
    }
}

/// A signed-in admin: 401 when signed out, 403 for any other role.
#[derive(Debug, Clone)]
pub struct AdminUser(pub CurrentUser);

impl FromRequest for AdminUser {
    type Error = ApiError;
    type Future = Pending<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let user = resolve(req).await?.ok_or(AuthError::NotAuthenticated)?;
            if user.account.is_admin() { Ok(AdminUser(user)) } else { Err(AuthError::NotAdmin.into()) }
        })
    }
}
