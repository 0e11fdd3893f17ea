//! Accounts: registration (with the signup bonus in the same transaction), lookups,
//! username and profile-picture changes, the admin role and account deletion.

use chrono::{DateTime, Duration, Utc};
use rand::Rng;
use setupiq_core::UserId;
use setupiq_core::media::MediaKey;
use setupiq_core::validation::normalize_email;
use setupiq_db::{DbConnection, DieselError, is_unique_violation, write_transaction};

use crate::error::AuthError;
use crate::models::{Account, Role, UserInsertForm};
use crate::repo;
use crate::service::display_name;
use crate::service::ledger::{self, LedgerReason};

pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 50;

/// A validated registration; the password is already hashed.
#[derive(Debug)]
pub struct Registration<'a> {
    pub email: &'a str,
    pub display_name: &'a str,
    pub password_hash: &'a str,
    /// Whether the account starts with the signup bonus (see [`super::signups`]).
    pub signup_bonus: bool,
}

/// Creates the account and grants the signup bonus (when the registration has it) in one
/// transaction. The same e-mail
/// registered concurrently yields exactly one account; the others get `EmailTaken`.
pub fn register(
    conn: &mut DbConnection,
    registration: &Registration<'_>,
    now: DateTime<Utc>,
) -> Result<Account, AuthError> {
    let email = normalize_email(registration.email);
    let display_name =
        display_name::normalize(registration.display_name).ok_or(AuthError::DisplayNameCharacters)?;
    let display_name = display_name.as_str();
    // A username picked by someone else between our check and our insert is the one
    // conflict worth retrying; a taken e-mail is final.
    for _ in 0..5 {
        let result = write_transaction(conn, |conn| {
            if repo::find_user_by_email(conn, &email)?.is_some() {
                return Err(AuthError::EmailTaken);
            }
            let username = available_username(conn, display_name, &email)?;
            let form = UserInsertForm {
                email: &email,
                username: &username,
                display_name,
                password_hash: registration.password_hash,
                // Never an admin at sign-up: an address in `SETUPIQ_ADMIN_EMAILS` gets the role
                // once it is verified (see `super::verify`).
                role: Role::User,
                credits: 0,
                created_at: now.naive_utc(),
                updated_at: now.naive_utc(),
            };
            let user = repo::insert_user(conn, &form)?;
            let credits = if registration.signup_bonus {
                ledger::apply(conn, user.id, ledger::SIGNUP_BONUS, &LedgerReason::SignupBonus, None, now)?
            } else {
                0
            };
            Ok(Account { credits, ..user.into() })
        });
        match result {
            Err(AuthError::Db(setupiq_db::DbError::Query(ref e))) if is_unique_violation(e) => {
                if violated_constraint(e).is_some_and(|c| c.contains("username")) {
                    continue;
                }
                return Err(AuthError::EmailTaken);
            }
            other => return other,
        }
    }
    Err(AuthError::UsernameTaken)
}

fn violated_constraint(err: &DieselError) -> Option<&str> {
    match err {
        DieselError::DatabaseError(_, info) => info.constraint_name().or(Some(info.message())),
        _ => None,
    }
}

/// Names that would pass for the team's own accounts, in any case; any name that holds the
/// product's own name is reserved too. Slugs of RigPages follow the same rule.
const RESERVED_USERNAMES: &[&str] = &[
    "admin",
    "administrator",
    "api",
    "billing",
    "help",
    "helpdesk",
    "mod",
    "moderator",
    "null",
    "official",
    "root",
    "security",
    "staff",
    "support",
    "system",
    "team",
    "undefined",
];

/// Whether nobody may take `name` as a username (or slug): see [`RESERVED_USERNAMES`].
pub fn is_reserved_username(name: &str) -> bool {
    let key = name.to_ascii_lowercase();
    RESERVED_USERNAMES.contains(&key.as_str()) || key.contains("setupiq")
}

/// A unique username derived from the display name (or the e-mail's local part):
/// letters, digits and underscores, 3 to 50 characters, with a number added if taken or
/// reserved ("Admin" becomes "Admin_4821"; a name holding "setupiq" becomes "gamer").
fn available_username(conn: &mut DbConnection, display_name: &str, email: &str) -> Result<String, AuthError> {
    let base = [display_name, email.split('@').next().unwrap_or_default()]
        .into_iter()
        .map(username_base)
        .find(|b| b.len() >= USERNAME_MIN && !b.to_ascii_lowercase().contains("setupiq"))
        .unwrap_or_else(|| "gamer".to_owned());
    if !is_reserved_username(&base) && !repo::username_taken(conn, &base, None)? {
        return Ok(base);
    }
    let mut rng = rand::rng();
    for digits in [4, 4, 6, 6, 8] {
        let candidate = format!("{base}_{}", rng.random_range(10u32.pow(digits - 1)..10u32.pow(digits)));
        if !repo::username_taken(conn, &candidate, None)? {
            return Ok(candidate);
        }
    }
    Err(AuthError::UsernameTaken)
}

/// "Jane Doe-Smith!" -> "Jane_Doe_Smith"; at most 30 characters, leaving room for a suffix.
pub fn username_base(source: &str) -> String {
    let mut out = String::new();
    for c in source.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
        if out.len() >= 30 {
            break;
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// Whether a username satisfies the specification's character rule.
pub fn is_valid_username_charset(username: &str) -> bool {
    username.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

pub fn find(conn: &mut DbConnection, user_id: UserId) -> Result<Option<Account>, AuthError> {
    Ok(repo::find_user(conn, user_id)?.map(Account::from))
}

/// The accounts of `ids` that exist, in no particular order (one query, for lists).
pub fn find_many(conn: &mut DbConnection, ids: &[UserId]) -> Result<Vec<Account>, AuthError> {
    Ok(repo::find_users(conn, ids)?.into_iter().map(Account::from).collect())
}

pub fn find_by_email(conn: &mut DbConnection, email: &str) -> Result<Option<Account>, AuthError> {
    Ok(repo::find_user_by_email(conn, &normalize_email(email))?.map(Account::from))
}

/// The account and its password hash, for login.
pub(crate) fn find_credentials(
    conn: &mut DbConnection,
    email: &str,
) -> Result<Option<(Account, String)>, AuthError> {
    Ok(repo::find_user_by_email(conn, &normalize_email(email))?.map(|row| {
        let hash = row.password_hash.clone();
        (Account::from(row), hash)
    }))
}

pub(crate) fn replace_password_hash(
    conn: &mut DbConnection,
    user_id: UserId,
    hash: &str,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    repo::update_password_hash(conn, user_id, hash, now.naive_utc())?;
    Ok(())
}

/// Changes the username (already validated for length and characters).
pub fn change_username(
    conn: &mut DbConnection,
    user_id: UserId,
    username: &str,
    now: DateTime<Utc>,
) -> Result<Account, AuthError> {
    write_transaction(conn, |conn| {
        let user = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?;
        if user.username == username {
            return Err(AuthError::SameUsername);
        }
        if is_reserved_username(username) {
            return Err(AuthError::UsernameReserved);
        }
        if repo::username_taken(conn, username, Some(user_id))? {
            return Err(AuthError::UsernameTaken);
        }
        match repo::update_username(conn, user_id, username, now.naive_utc()) {
            Err(e) if is_unique_violation(&e) => return Err(AuthError::UsernameTaken),
            other => other?,
        };
        Ok(Account { username: username.to_owned(), ..user.into() })
    })
}

/// Sets the name shown on the profile and the member's posts (trimmed and in NFC, without
/// format or unassigned characters: see [`display_name`]; the request's rules checked its
/// length).
pub fn change_display_name(
    conn: &mut DbConnection,
    user_id: UserId,
    display_name: &str,
    now: DateTime<Utc>,
) -> Result<Account, AuthError> {
    let display_name = display_name::normalize(display_name).ok_or(AuthError::DisplayNameCharacters)?;
    write_transaction(conn, |conn| {
        let user = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?;
        repo::update_display_name(conn, user_id, &display_name, now.naive_utc())?;
        Ok(Account { display_name, ..user.into() })
    })
}

/// Points the profile picture at `url`; returns the account and the picture it replaced
/// (whose media the caller deletes once this has committed).
pub fn replace_profile_picture(
    conn: &mut DbConnection,
    user_id: UserId,
    url: &str,
    now: DateTime<Utc>,
) -> Result<(Account, Option<MediaKey>), AuthError> {
    write_transaction(conn, |conn| {
        let user = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?;
        repo::update_profile_picture(conn, user_id, Some(url), now.naive_utc())?;
        let old = user.profile_picture.as_deref().and_then(MediaKey::from_url);
        Ok((Account { profile_picture: Some(url.to_owned()), ..user.into() }, old))
    })
}

pub use setupiq_db::hooks::{BeforeDeletion, Departures, MediaOfUser, OwnedMedia};

/// Deletes the account with its sessions, reset tokens and ledger; returns the media
/// keys the caller removes from the media store after the commit.
pub fn delete_account(
    conn: &mut DbConnection,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, AuthError> {
    delete_account_with(conn, user_id, &OwnedMedia::default(), now)
}

/// [`delete_account`], also collecting the media other crates keep for the user.
pub fn delete_account_with(
    conn: &mut DbConnection,
    user_id: UserId,
    owned: &OwnedMedia,
    now: DateTime<Utc>,
) -> Result<Vec<MediaKey>, AuthError> {
    write_transaction(conn, |conn| {
        let user = repo::find_user(conn, user_id)?.ok_or(AuthError::UserNotFound)?;
        let mut media: Vec<MediaKey> =
            user.profile_picture.as_deref().and_then(MediaKey::from_url).into_iter().collect();
        for media_of_user in &owned.0 {
            media.extend(media_of_user(conn, user_id, now)?);
        }
        repo::delete_user(conn, user_id)?;
        Ok(media)
    })
}

/// Gives the admin role to the account with this e-mail (`setupiq admin grant EMAIL`).
pub fn grant_admin(conn: &mut DbConnection, email: &str, now: DateTime<Utc>) -> Result<Account, AuthError> {
    let user = repo::find_user_by_email(conn, &normalize_email(email))?.ok_or(AuthError::UserNotFound)?;
    repo::set_role(conn, user.id, Role::Admin, now.naive_utc())?;
    Ok(Account { role: Role::Admin, ..user.into() })
}

/// An admin grants (or withdraws) Pro: analyses without a credit (DESIGN.md §5). A member
/// whose subscription is paid up stays Pro when the grant is withdrawn.
pub fn set_pro(
    conn: &mut DbConnection,
    user_id: UserId,
    granted: bool,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    match repo::set_pro_granted(conn, user_id, granted, now.naive_utc())? {
        0 => Err(AuthError::UserNotFound),
        _ => Ok(()),
    }
}

/// Records whether the member's Pro subscription is paid up (the subscription's own rules
/// live in `credits`). A member with an admin's grant stays Pro when it ends.
pub fn set_subscribed(
    conn: &mut DbConnection,
    user_id: UserId,
    subscribed: bool,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    match repo::set_pro_subscribed(conn, user_id, subscribed, now.naive_utc())? {
        0 => Err(AuthError::UserNotFound),
        _ => Ok(()),
    }
}

/// Gives or withdraws the admin role.
pub fn set_role(
    conn: &mut DbConnection,
    user_id: UserId,
    role: Role,
    now: DateTime<Utc>,
) -> Result<(), AuthError> {
    match repo::set_role(conn, user_id, role, now.naive_utc())? {
        0 => Err(AuthError::UserNotFound),
        _ => Ok(()),
    }
}

/// Accounts whose e-mail or username holds `query` anywhere (case-insensitively; blank:
/// every account), newest first, `limit` from `offset`, and how many match in all: what an
/// admin looks people up by.
pub fn search(
    conn: &mut DbConnection,
    query: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Account>, i64), AuthError> {
    let (rows, total) = repo::search_users(conn, query.trim(), limit, offset)?;
    Ok((rows.into_iter().map(Account::from).collect(), total))
}

/// How old an account must be before its reports count towards hiding a setup.
pub const ESTABLISHED_AGE: Duration = Duration::hours(24);

/// Whether the account is *established*: its address is verified and it is at least
/// [`ESTABLISHED_AGE`] old. The community counts only such accounts' reports (with an
/// analysis of their own) towards hiding a setup, so fresh accounts made in bulk cannot.
pub fn is_established(
    conn: &mut DbConnection,
    user_id: UserId,
    now: DateTime<Utc>,
) -> Result<bool, AuthError> {
    Ok(repo::find_user(conn, user_id)?.is_some_and(|user| {
        user.email_verified_at.is_some() && user.created_at.and_utc() + ESTABLISHED_AGE <= now
    }))
}

/// Gives the admin role to every existing account listed in `SETUPIQ_ADMIN_EMAILS` whose
/// address is verified (an unverified one gets it when its link is followed).
pub fn promote_admins(
    conn: &mut DbConnection,
    emails: &[String],
    now: DateTime<Utc>,
) -> Result<usize, AuthError> {
    let mut promoted = 0;
    for email in emails {
        if let Some(user) = repo::find_user_by_email(conn, email)?
            && user.role != Role::Admin
            && user.email_verified_at.is_some()
        {
            repo::set_role(conn, user.id, Role::Admin, now.naive_utc())?;
            promoted += 1;
        }
    }
    Ok(promoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_derived_from_names() {
        assert_eq!(username_base("Jane Doe-Smith!"), "Jane_Doe_Smith");
        assert_eq!(username_base("  🎮 Pro   Gamer 🎮 "), "Pro_Gamer");
        assert_eq!(username_base("Zoë"), "Zo");
        assert_eq!(username_base(&"a".repeat(80)).len(), 30);
        assert!(is_valid_username_charset("Jane_Doe_2"));
        assert!(!is_valid_username_charset("jane doe") && !is_valid_username_charset("jäne"));
    }
}
