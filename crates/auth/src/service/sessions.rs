//! Sessions: an opaque 256-bit token in a cookie, stored only as its SHA-256 digest. A
//! session ends at logout, at a password reset, at a password change or "Sign out everywhere
//! else" from another session of the account, after 7 idle days, or 30 days after login,
//! whichever comes first.

use chrono::{DateTime, Duration, Utc};
use setupiq_core::{UserId, tokens, user_agent};
use setupiq_db::DbConnection;

use crate::error::AuthError;
use crate::models::{Account, SessionInsertForm, SessionRow};
use crate::repo;

pub const IDLE_TIMEOUT: Duration = Duration::days(7);
pub const ABSOLUTE_LIFETIME: Duration = Duration::days(30);
/// `last_seen_at` is written at most this often, not on every request.
const TOUCH_INTERVAL: Duration = Duration::minutes(5);

/// A session just started: the token goes into the cookie and nowhere else.
#[derive(Debug)]
pub struct NewSession {
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// Longest `User-Agent` kept with a session (real browsers send 100 to 300 characters).
const USER_AGENT_MAX: usize = 512;

/// One of an account's signed-in browsers, as its owner sees it: no token, no address.
#[derive(Debug, Clone, PartialEq)]
pub struct ActiveSession {
    /// "Firefox on Windows", from the `User-Agent` it signed in with.
    pub device: String,
    pub signed_in_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    /// The session the list was asked from.
    pub current: bool,
}

/// Starts a session for `user_id` from a browser that sent `user_agent`.
pub fn start(
    conn: &mut DbConnection,
    user_id: UserId,
    user_agent: Option<&str>,
    now: DateTime<Utc>,
) -> Result<NewSession, AuthError> {
    let token = tokens::generate();
    let expires_at = now + ABSOLUTE_LIFETIME;
    let user_agent = user_agent.map(|agent| match agent.char_indices().nth(USER_AGENT_MAX) {
        Some((end, _)) => &agent[..end],
        None => agent,
    });
    repo::insert_session(
        conn,
        &SessionInsertForm {
            token_hash: &tokens::digest(&token),
            user_id,
            created_at: now.naive_utc(),
            last_seen_at: now.naive_utc(),
            expires_at: expires_at.naive_utc(),
            user_agent,
        },
    )?;
    Ok(NewSession { token, expires_at })
}

fn is_alive(session: &SessionRow, now: DateTime<Utc>) -> bool {
    let now = now.naive_utc();
    session.expires_at > now && session.last_seen_at + IDLE_TIMEOUT > now
}

/// The account's live sessions, the one with `current_token` first, then the most recently
/// used ("Active sessions" on the profile).
pub fn list(
    conn: &mut DbConnection,
    user_id: UserId,
    current_token: &str,
    now: DateTime<Utc>,
) -> Result<Vec<ActiveSession>, AuthError> {
    let current_hash = tokens::digest(current_token);
    let mut active: Vec<ActiveSession> = repo::sessions_of_user(conn, user_id)?
        .into_iter()
        .filter(|session| is_alive(session, now))
        .map(|session| ActiveSession {
            device: user_agent::device(session.user_agent.as_deref()),
            signed_in_at: session.created_at.and_utc(),
            last_seen_at: session.last_seen_at.and_utc(),
            current: session.token_hash == current_hash,
        })
        .collect();
    // A stable sort keeps the others most recent first.
    active.sort_by_key(|session| !session.current);
    Ok(active)
}

/// The account a session token belongs to, if the session is still alive.
pub fn authenticate(
    conn: &mut DbConnection,
    token: &str,
    now: DateTime<Utc>,
) -> Result<Option<Account>, AuthError> {
    let token_hash = tokens::digest(token);
    let Some((session, user)) = repo::find_session_and_user(conn, &token_hash)? else { return Ok(None) };
    if !is_alive(&session, now) {
        repo::delete_session(conn, &token_hash)?;
        return Ok(None);
    }
    let naive_now = now.naive_utc();
    if session.last_seen_at + TOUCH_INTERVAL <= naive_now {
        repo::touch_session(conn, &token_hash, naive_now)?;
    }
    Ok(Some(Account::from(user)))
}

/// Ends one session (logout).
pub fn end(conn: &mut DbConnection, token: &str) -> Result<(), AuthError> {
    repo::delete_session(conn, &tokens::digest(token))?;
    Ok(())
}

/// Ends every session of a user (password reset); returns how many there were.
pub fn end_all(conn: &mut DbConnection, user_id: UserId) -> Result<usize, AuthError> {
    Ok(repo::delete_sessions_of_user(conn, user_id)?)
}

/// Ends every session of a user but the one with `keep_token` (a password change or "Sign
/// out everywhere else" from it); returns how many ended.
pub fn end_others(conn: &mut DbConnection, user_id: UserId, keep_token: &str) -> Result<usize, AuthError> {
    Ok(repo::delete_other_sessions_of_user(conn, user_id, &tokens::digest(keep_token))?)
}
