//! The auth crate's queries. Plain functions over a connection; no business rules.

use chrono::NaiveDateTime;
use diesel::dsl::{count_star, min};
use diesel::prelude::*;
use setupiq_core::UserId;
use setupiq_db::schema::{
    credit_ledger, email_verification_tokens, login_attempts, password_reset_tokens, sessions, signups, users,
};
use setupiq_db::{DbConnection, on_backend};

use crate::models::{
    LedgerInsertForm, LedgerRow, LoginAttemptInsertForm, ResetTokenInsertForm, ResetTokenRow, Role,
    SessionInsertForm, SessionRow, SignupInsertForm, UserInsertForm, UserRow, VerificationTokenInsertForm,
    VerificationTokenRow,
};

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

// --- users ---------------------------------------------------------------------------

pub(crate) fn find_user(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<UserRow>> {
    users::table.find(id).select(UserRow::as_select()).first(conn).optional()
}

pub(crate) fn find_users(conn: &mut DbConnection, ids: &[UserId]) -> QueryResult<Vec<UserRow>> {
    users::table.filter(users::id.eq_any(ids)).select(UserRow::as_select()).load(conn)
}

/// Accounts whose e-mail or username holds `text` anywhere (case-insensitively; empty: every
/// account), newest first, `limit` from `offset`, and how many match in all.
pub(crate) fn search_users(
    conn: &mut DbConnection,
    text: &str,
    limit: i64,
    offset: i64,
) -> QueryResult<(Vec<UserRow>, i64)> {
    // LIKE's wildcards in the typed text match themselves.
    let escaped = text.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    let pattern = format!("%{escaped}%");
    let matching = lower(users::email)
        .like(pattern.clone())
        .escape('\\')
        .or(lower(users::username).like(pattern).escape('\\'));
    let rows = users::table
        .filter(matching.clone())
        .order(users::id.desc())
        .limit(limit)
        .offset(offset)
        .select(UserRow::as_select())
        .load(conn)?;
    let total = users::table.filter(matching).count().get_result(conn)?;
    Ok((rows, total))
}

/// By normalised (trimmed, lower-cased) e-mail.
pub(crate) fn find_user_by_email(conn: &mut DbConnection, email: &str) -> QueryResult<Option<UserRow>> {
    users::table.filter(users::email.eq(email)).select(UserRow::as_select()).first(conn).optional()
}

/// Whether a username is taken (case-insensitively) by anyone but `except`.
pub(crate) fn username_taken(
    conn: &mut DbConnection,
    username: &str,
    except: Option<UserId>,
) -> QueryResult<bool> {
    let taken_by: Option<UserId> = users::table
        .filter(lower(users::username).eq(username.to_ascii_lowercase()))
        .select(users::id)
        .first(conn)
        .optional()?;
    Ok(taken_by.is_some_and(|id| Some(id) != except))
}

pub(crate) fn insert_user(conn: &mut DbConnection, form: &UserInsertForm<'_>) -> QueryResult<UserRow> {
    on_backend!(conn, |c| diesel::insert_into(users::table)
        .values(form)
        .returning(UserRow::as_returning())
        .get_result(c))
}

pub(crate) fn update_display_name(
    conn: &mut DbConnection,
    id: UserId,
    display_name: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((users::display_name.eq(display_name), users::updated_at.eq(now)))
        .execute(conn)
}

pub(crate) fn update_username(
    conn: &mut DbConnection,
    id: UserId,
    username: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((users::username.eq(username), users::updated_at.eq(now)))
        .execute(conn)
}

pub(crate) fn update_password_hash(
    conn: &mut DbConnection,
    id: UserId,
    hash: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((users::password_hash.eq(hash), users::updated_at.eq(now)))
        .execute(conn)
}

/// The profile picture URL of every account that has one.
pub(crate) fn all_profile_pictures(conn: &mut DbConnection) -> QueryResult<Vec<String>> {
    users::table
        .filter(users::profile_picture.is_not_null())
        .select(users::profile_picture.assume_not_null())
        .load(conn)
}

pub(crate) fn update_profile_picture(
    conn: &mut DbConnection,
    id: UserId,
    url: Option<&str>,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((users::profile_picture.eq(url), users::updated_at.eq(now)))
        .execute(conn)
}

/// Grants or withdraws an admin's Pro; the account stays Pro while a subscription is paid up.
pub(crate) fn set_pro_granted(
    conn: &mut DbConnection,
    id: UserId,
    granted: bool,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((
            users::pro_granted.eq(granted),
            users::is_pro.eq(users::pro_subscribed.or(granted.into_sql::<diesel::sql_types::Bool>())),
            users::updated_at.eq(now),
        ))
        .execute(conn)
}

/// Marks whether a subscription is paid up; the account stays Pro while an admin's grant stands.
pub(crate) fn set_pro_subscribed(
    conn: &mut DbConnection,
    id: UserId,
    subscribed: bool,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((
            users::pro_subscribed.eq(subscribed),
            users::is_pro.eq(users::pro_granted.or(subscribed.into_sql::<diesel::sql_types::Bool>())),
            users::updated_at.eq(now),
        ))
        .execute(conn)
}

pub(crate) fn set_role(
    conn: &mut DbConnection,
    id: UserId,
    role: Role,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id)).set((users::role.eq(role), users::updated_at.eq(now))).execute(conn)
}

/// Deletes the user; sessions, reset tokens and ledger rows go with it (ON DELETE CASCADE).
pub(crate) fn delete_user(conn: &mut DbConnection, id: UserId) -> QueryResult<usize> {
    diesel::delete(users::table.find(id)).execute(conn)
}

/// Adds `amount` (may be negative) to the balance unless that would take it below zero.
/// Returns the new balance, or `None` when the guard refused (or the user is gone).
pub(crate) fn change_credits(
    conn: &mut DbConnection,
    id: UserId,
    amount: i32,
    now: NaiveDateTime,
) -> QueryResult<Option<i32>> {
    let changed = diesel::update(users::table.find(id).filter(users::credits.ge(-amount)))
        .set((users::credits.eq(users::credits + amount), users::updated_at.eq(now)))
        .execute(conn)?;
    if changed == 0 {
        return Ok(None);
    }
    users::table.find(id).select(users::credits).first(conn).map(Some)
}

pub(crate) fn insert_ledger_entry(
    conn: &mut DbConnection,
    form: &LedgerInsertForm<'_>,
) -> QueryResult<usize> {
    diesel::insert_into(credit_ledger::table).values(form).execute(conn)
}

pub(crate) fn ledger_entries(
    conn: &mut DbConnection,
    user_id: UserId,
    limit: i64,
) -> QueryResult<Vec<LedgerRow>> {
    credit_ledger::table
        .filter(credit_ledger::user_id.eq(user_id))
        .order(credit_ledger::id.desc())
        .limit(limit)
        .select(LedgerRow::as_select())
        .load(conn)
}

pub(crate) fn ledger_entry_exists(conn: &mut DbConnection, external_ref: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        credit_ledger::table.filter(credit_ledger::external_ref.eq(external_ref)),
    ))
    .get_result(conn)
}

/// `SELECT … FOR UPDATE` on PostgreSQL; SQLite has no row locks (and needs none inside
/// `BEGIN IMMEDIATE`).
pub(crate) fn lock_user(conn: &mut DbConnection, id: UserId) -> QueryResult<()> {
    match conn {
        DbConnection::Postgres(pg) => {
            users::table.find(id).select(users::id).for_update().first::<UserId>(pg).optional()?;
        }
        DbConnection::Sqlite(_) => {}
    }
    Ok(())
}

pub(crate) fn ledger_sum(conn: &mut DbConnection, user_id: UserId) -> QueryResult<i64> {
    let amounts: Vec<i32> = credit_ledger::table
        .filter(credit_ledger::user_id.eq(user_id))
        .select(credit_ledger::amount)
        .load(conn)?;
    Ok(amounts.into_iter().map(i64::from).sum())
}

// --- sessions ------------------------------------------------------------------------

pub(crate) fn insert_session(conn: &mut DbConnection, form: &SessionInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(sessions::table).values(form).execute(conn)
}

/// A session with its account, in one query, on every signed-in request: run on the
/// concrete connection, since through the `MultiConnection` diesel writes a query's SQL text
/// out again on each execution, cached statement or not (`SerializedQuery`: SQL building was
/// the next cost in the signed-in feed's profile after the statements themselves).
pub(crate) fn find_session_and_user(
    conn: &mut DbConnection,
    token_hash: &str,
) -> QueryResult<Option<(SessionRow, UserRow)>> {
    on_backend!(conn, |c| sessions::table
        .inner_join(users::table)
        .filter(sessions::token_hash.eq(token_hash))
        .select((SessionRow::as_select(), UserRow::as_select()))
        .first(c)
        .optional())
}

pub(crate) fn touch_session(
    conn: &mut DbConnection,
    token_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(sessions::table.find(token_hash)).set(sessions::last_seen_at.eq(now)).execute(conn)
}

pub(crate) fn delete_session(conn: &mut DbConnection, token_hash: &str) -> QueryResult<usize> {
    diesel::delete(sessions::table.find(token_hash)).execute(conn)
}

pub(crate) fn delete_sessions_of_user(conn: &mut DbConnection, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::user_id.eq(user_id))).execute(conn)
}

/// Deletes the user's sessions but the one with `keep` (a password change from that one).
pub(crate) fn delete_other_sessions_of_user(
    conn: &mut DbConnection,
    user_id: UserId,
    keep: &str,
) -> QueryResult<usize> {
    diesel::delete(
        sessions::table.filter(sessions::user_id.eq(user_id)).filter(sessions::token_hash.ne(keep)),
    )
    .execute(conn)
}

/// The user's sessions, the most recently used first.
pub(crate) fn sessions_of_user(conn: &mut DbConnection, user_id: UserId) -> QueryResult<Vec<SessionRow>> {
    sessions::table
        .filter(sessions::user_id.eq(user_id))
        .order((sessions::last_seen_at.desc(), sessions::created_at.desc()))
        .select(SessionRow::as_select())
        .load(conn)
}

// --- password reset tokens -------------------------------------------------------------

pub(crate) fn insert_reset_token(
    conn: &mut DbConnection,
    form: &ResetTokenInsertForm<'_>,
) -> QueryResult<usize> {
    diesel::insert_into(password_reset_tokens::table).values(form).execute(conn)
}

pub(crate) fn find_reset_token(
    conn: &mut DbConnection,
    token_hash: &str,
) -> QueryResult<Option<ResetTokenRow>> {
    password_reset_tokens::table.find(token_hash).select(ResetTokenRow::as_select()).first(conn).optional()
}

/// Marks a token used, once: returns 0 when it was already used (a concurrent reset).
pub(crate) fn mark_reset_token_used(
    conn: &mut DbConnection,
    token_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        password_reset_tokens::table.find(token_hash).filter(password_reset_tokens::used_at.is_null()),
    )
    .set(password_reset_tokens::used_at.eq(now))
    .execute(conn)
}

/// Deletes every reset token of the user (a password change makes their links stale).
pub(crate) fn delete_reset_tokens_of_user(conn: &mut DbConnection, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(password_reset_tokens::table.filter(password_reset_tokens::user_id.eq(user_id)))
        .execute(conn)
}

/// Deletes the user's other reset tokens, so an older e-mail's link stops working too.
pub(crate) fn delete_other_reset_tokens(
    conn: &mut DbConnection,
    user_id: UserId,
    keep: &str,
) -> QueryResult<usize> {
    diesel::delete(
        password_reset_tokens::table
            .filter(password_reset_tokens::user_id.eq(user_id))
            .filter(password_reset_tokens::token_hash.ne(keep)),
    )
    .execute(conn)
}

pub(crate) fn latest_reset_request(
    conn: &mut DbConnection,
    user_id: UserId,
) -> QueryResult<Option<NaiveDateTime>> {
    password_reset_tokens::table
        .filter(password_reset_tokens::user_id.eq(user_id))
        .select(diesel::dsl::max(password_reset_tokens::created_at))
        .first(conn)
}

// --- e-mail verification tokens ------------------------------------------------------

pub(crate) fn insert_verification_token(
    conn: &mut DbConnection,
    form: &VerificationTokenInsertForm<'_>,
) -> QueryResult<usize> {
    diesel::insert_into(email_verification_tokens::table).values(form).execute(conn)
}

pub(crate) fn find_verification_token(
    conn: &mut DbConnection,
    token_hash: &str,
) -> QueryResult<Option<VerificationTokenRow>> {
    email_verification_tokens::table
        .find(token_hash)
        .select(VerificationTokenRow::as_select())
        .first(conn)
        .optional()
}

/// Marks a token used, once: returns 0 when it was already used (a concurrent use).
pub(crate) fn mark_verification_token_used(
    conn: &mut DbConnection,
    token_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        email_verification_tokens::table
            .find(token_hash)
            .filter(email_verification_tokens::used_at.is_null()),
    )
    .set(email_verification_tokens::used_at.eq(now))
    .execute(conn)
}

/// Marks every unused token of the user used (the address is verified: older links are done).
pub(crate) fn use_up_verification_tokens(
    conn: &mut DbConnection,
    user_id: UserId,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        email_verification_tokens::table
            .filter(email_verification_tokens::user_id.eq(user_id))
            .filter(email_verification_tokens::used_at.is_null()),
    )
    .set(email_verification_tokens::used_at.eq(now))
    .execute(conn)
}

/// When the user's verification links sent after `since` were made, oldest first.
pub(crate) fn verification_tokens_since(
    conn: &mut DbConnection,
    user_id: UserId,
    since: NaiveDateTime,
) -> QueryResult<Vec<NaiveDateTime>> {
    email_verification_tokens::table
        .filter(email_verification_tokens::user_id.eq(user_id))
        .filter(email_verification_tokens::created_at.gt(since))
        .select(email_verification_tokens::created_at)
        .order(email_verification_tokens::created_at.asc())
        .load(conn)
}

/// Records that the user's address is verified (once: a later call changes nothing).
/// Moves the user to another address, verified now (its link was followed).
pub(crate) fn move_to_email(
    conn: &mut DbConnection,
    id: UserId,
    email: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id))
        .set((users::email.eq(email), users::email_verified_at.eq(now), users::updated_at.eq(now)))
        .execute(conn)
}

pub(crate) fn set_email_verified(
    conn: &mut DbConnection,
    id: UserId,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(users::table.find(id).filter(users::email_verified_at.is_null()))
        .set((users::email_verified_at.eq(now), users::updated_at.eq(now)))
        .execute(conn)
}

// --- login attempts --------------------------------------------------------------------

pub(crate) fn insert_login_attempt(
    conn: &mut DbConnection,
    form: &LoginAttemptInsertForm<'_>,
) -> QueryResult<usize> {
    diesel::insert_into(login_attempts::table).values(form).execute(conn)
}

/// Failed attempts for an account since `since`: how many, and when the oldest was.
pub(crate) fn account_failures_since(
    conn: &mut DbConnection,
    account_key: &str,
    since: NaiveDateTime,
) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    login_attempts::table
        .filter(login_attempts::account_key.eq(account_key))
        .filter(login_attempts::succeeded.eq(false))
        .filter(login_attempts::attempted_at.gt(since))
        .select((count_star(), min(login_attempts::attempted_at)))
        .first(conn)
}

/// Failed attempts from an IP address since `since`: how many, and when the oldest was.
pub(crate) fn ip_failures_since(
    conn: &mut DbConnection,
    ip: &str,
    since: NaiveDateTime,
) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    login_attempts::table
        .filter(login_attempts::ip.eq(ip))
        .filter(login_attempts::succeeded.eq(false))
        .filter(login_attempts::attempted_at.gt(since))
        .select((count_star(), min(login_attempts::attempted_at)))
        .first(conn)
}

/// Failed attempts for an account from one client address (`None`: attempts whose address
/// was unknown) since `since`: how many, and when the oldest was.
pub(crate) fn account_failures_from_since(
    conn: &mut DbConnection,
    account_key: &str,
    ip: Option<&str>,
    since: NaiveDateTime,
) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    let query = login_attempts::table
        .filter(login_attempts::account_key.eq(account_key))
        .filter(login_attempts::succeeded.eq(false))
        .filter(login_attempts::attempted_at.gt(since))
        .into_boxed();
    let query = match ip {
        Some(ip) => query.filter(login_attempts::ip.eq(ip)),
        None => query.filter(login_attempts::ip.is_null()),
    };
    query.select((count_star(), min(login_attempts::attempted_at))).first(conn)
}

/// Forgets every failed attempt for an account, from every address.
pub(crate) fn clear_account_failures(conn: &mut DbConnection, account_key: &str) -> QueryResult<usize> {
    diesel::delete(
        login_attempts::table
            .filter(login_attempts::account_key.eq(account_key))
            .filter(login_attempts::succeeded.eq(false)),
    )
    .execute(conn)
}

/// Forgets the failed attempts for an account from one client address (`None`: those whose
/// address was unknown).
pub(crate) fn clear_account_failures_from(
    conn: &mut DbConnection,
    account_key: &str,
    ip: Option<&str>,
) -> QueryResult<usize> {
    let failures = login_attempts::table
        .filter(login_attempts::account_key.eq(account_key))
        .filter(login_attempts::succeeded.eq(false));
    match ip {
        Some(ip) => diesel::delete(failures.filter(login_attempts::ip.eq(ip))).execute(conn),
        None => diesel::delete(failures.filter(login_attempts::ip.is_null())).execute(conn),
    }
}

pub(crate) fn prune_login_attempts(conn: &mut DbConnection, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(login_attempts::table.filter(login_attempts::attempted_at.lt(before))).execute(conn)
}

/// Serialises sign-ups on PostgreSQL until the transaction ends, so that concurrent sign-ups
/// from one address cannot both pass a count (SQLite's write transaction already runs alone).
pub(crate) fn lock_signups(conn: &mut DbConnection) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query("LOCK TABLE signups IN SHARE ROW EXCLUSIVE MODE").execute(pg)?;
    }
    Ok(())
}

/// The times of an address's sign-ups since `since` (with or without the bonus), oldest first.
pub(crate) fn signups_since(
    conn: &mut DbConnection,
    address: &str,
    since: NaiveDateTime,
    bonus_only: bool,
) -> QueryResult<Vec<NaiveDateTime>> {
    let window = signups::table.filter(signups::address.eq(address)).filter(signups::created_at.gt(since));
    if bonus_only {
        window
            .filter(signups::bonus.eq(true))
            .select(signups::created_at)
            .order(signups::created_at.asc())
            .load(conn)
    } else {
        window.select(signups::created_at).order(signups::created_at.asc()).load(conn)
    }
}

pub(crate) fn insert_signup(conn: &mut DbConnection, form: &SignupInsertForm<'_>) -> QueryResult<usize> {
    diesel::insert_into(signups::table).values(form).execute(conn)
}

pub(crate) fn prune_signups(
    conn: &mut DbConnection,
    address: &str,
    before: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::delete(signups::table.filter(signups::address.eq(address)).filter(signups::created_at.le(before)))
        .execute(conn)
}
