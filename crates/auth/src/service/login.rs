//! The two flows that hash passwords, orchestrated over the pool: registration and login.
//! Hashing happens outside any transaction (it takes tens of milliseconds).

use setupiq_core::config::SignupLimits;
use setupiq_core::validation::normalize_email;
use setupiq_db::{AppCtx, write_transaction};

use crate::error::AuthError;
use crate::models::Account;
use crate::service::accounts::{self, Registration};
use crate::service::passwords::{Passwords, Verification};
use crate::service::sessions::{self, NewSession};
use crate::service::verify::{self, VerificationLink};
use crate::service::{signups, throttle};

/// Where a sign-in or sign-up comes from.
#[derive(Debug, Clone, Default)]
pub struct Client {
    /// The client's address (`None` when unknown), for the throttle and sign-up limits.
    pub ip: Option<String>,
    /// Its `User-Agent`, kept with the session so the owner can tell their devices apart.
    pub user_agent: Option<String>,
}

/// Everything registration needs besides the pool.
pub struct NewAccount {
    pub email: String,
    pub display_name: String,
    pub password: String,
    pub client: Client,
    pub limits: SignupLimits,
}

/// A new, signed-in account.
#[derive(Debug)]
pub struct Registered {
    pub account: Account,
    pub session: NewSession,
    /// The link to e-mail so the account can verify its address.
    pub verification: VerificationLink,
    /// Whether it got the signup bonus (a few accounts per address a day do).
    pub signup_bonus: bool,
}

/// Creates the account (with the signup bonus, within the address's allowance), signs it
/// in and makes its first verification link (the caller mails it). An address over its hourly sign-ups is refused before any work.
pub async fn register(ctx: &AppCtx, passwords: &Passwords, new: NewAccount) -> Result<Registered, AuthError> {
    let AppCtx { db, clock, .. } = ctx;
    // Cheap early answers for the common cases; the transaction re-checks.
    let email = normalize_email(&new.email);
    let address = signups::address_key(new.client.ip.as_deref().unwrap_or("unknown"));
    let known = {
        let (email, address, limits, now) = (email.clone(), address.clone(), new.limits, clock.now());
        db.run(move |conn| {
            signups::check_rate(conn, &address, limits, now)?;
            accounts::find_by_email(conn, &email)
        })
        .await?
    };
    if known.is_some() {
        return Err(AuthError::EmailTaken);
    }
    let password_hash = passwords.hash(new.password).await?;
    let clock = clock.clone();
    db.run(move |conn| {
        let now = clock.now();
        write_transaction(conn, |conn| {
            signups::lock(conn)?;
            signups::check_rate(conn, &address, new.limits, now)?;
            let signup_bonus = signups::bonus_allowed(conn, &address, new.limits, now)?;
            let registration = Registration {
                email: &email,
                display_name: &new.display_name,
                password_hash: &password_hash,
                signup_bonus,
            };
            let account = accounts::register(conn, &registration, now)?;
            signups::record(conn, &address, signup_bonus, now)?;
            let session = sessions::start(conn, account.id, new.client.user_agent.as_deref(), now)?;
            let verification = verify::create_link(conn, account.id, now)?;
            Ok(Registered { account, session, verification, signup_bonus })
        })
    })
    .await
}

/// Checks the throttle and the password, upgrades a weak hash, and starts a session.
pub async fn login(
    ctx: &AppCtx,
    passwords: &Passwords,
    email: &str,
    password: String,
    client: Client,
) -> Result<(Account, NewSession), AuthError> {
    let AppCtx { db, clock, config, .. } = ctx;
    let Client { ip, user_agent } = client;
    let key = normalize_email(email);
    let (pace, found) = {
        let (key, ip, clock) = (key.clone(), ip.clone(), clock.clone());
        db.run(move |conn| {
            let pace = throttle::check(conn, &key, ip.as_deref(), clock.now())?;
            Ok::<_, AuthError>((pace, accounts::find_credentials(conn, &key)?))
        })
        .await?
    };
    pace.wait().await;
    let (account, stored) = match found {
        Some((account, hash)) => (Some(account), Some(hash)),
        None => (None, None),
    };
    let verification = passwords.verify(password.clone(), stored).await?;
    let (Some(account), Verification::Match { needs_rehash }) = (account, verification) else {
        let clock = clock.clone();
        db.run(move |conn| throttle::record_failure(conn, &key, ip.as_deref(), clock.now())).await?;
        return Err(AuthError::InvalidCredentials);
    };
    let upgraded_hash = if needs_rehash { Some(passwords.hash(password).await?) } else { None };
    // Only an address proven to be the account's own takes the role from the list.
    let make_admin = !account.is_admin() && account.email_verified && config.admin_emails.contains(&key);
    let clock = clock.clone();
    db.run(move |conn| {
        let now = clock.now();
        write_transaction(conn, |conn| {
            throttle::record_success(conn, &key, ip.as_deref())?;
            if let Some(hash) = &upgraded_hash {
                accounts::replace_password_hash(conn, account.id, hash, now)?;
            }
            let account = if make_admin { accounts::grant_admin(conn, &key, now)? } else { account };
            let session = sessions::start(conn, account.id, user_agent.as_deref(), now)?;
            Ok((account, session))
        })
    })
    .await
}
