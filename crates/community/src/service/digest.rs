//! The daily e-mail digest: off until a member asks for it (with a verified address), then at
//! most one e-mail a day listing the notifications they have not read, and none on a day
//! without any. Each digest carries a one-click unsubscribe link (in its text and as
//! `List-Unsubscribe`), plain text, with no tracking: no pixel, no redirecting links.
//!
//! A subscription remembers up to when its notifications were mailed (`covered_until`). The
//! server asks for the digests due every few minutes; each is claimed by moving that time
//! forward (a conditional update, so two processes never send the same digest), and moved
//! back when the e-mail could not be sent, so the next round tries again.

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use setupiq_auth::Account;
use setupiq_core::UserId;
use setupiq_core::config::Config;
use setupiq_core::mail::OutgoingEmail;
use setupiq_db::{AppCtx, DbConnection};

use super::notifications::{self, Notification};
use crate::error::CommunityError;
use crate::models::DigestSubscriptionRow;
use crate::repo;

/// Digests claimed per round.
pub const BATCH: i64 = 50;
/// At most one digest per this long.
pub const EVERY: Duration = Duration::hours(24);
/// Notifications listed in one digest; the rest are counted.
pub const LISTED: i64 = 10;

/// Whether the member gets the digest.
pub fn subscribed(conn: &mut DbConnection, user_id: UserId) -> Result<bool, CommunityError> {
    Ok(repo::find_digest_subscription(conn, user_id)?.is_some())
}

/// Turns the digest on or off for the member. Turning it on needs a verified address (the
/// digest goes nowhere else); notifications from before are not mailed.
pub fn set(
    conn: &mut DbConnection,
    account: &Account,
    on: bool,
    now: DateTime<Utc>,
) -> Result<(), CommunityError> {
    if !on {
        repo::delete_digest_subscription(conn, account.id)?;
        return Ok(());
    }
    if !account.email_verified {
        return Err(CommunityError::DigestNeedsVerifiedEmail);
    }
    let row = DigestSubscriptionRow {
        user_id: account.id,
        token: setupiq_core::tokens::generate(),
        subscribed_at: now.naive_utc(),
        covered_until: now.naive_utc(),
    };
    repo::insert_digest_subscription(conn, &row)?;
    Ok(())
}

/// Stops the digest of whoever the unsubscribe link was mailed to.
pub fn unsubscribe(conn: &mut DbConnection, token: &str) -> Result<(), CommunityError> {
    match repo::delete_digest_subscription_by_token(conn, token)? {
        0 => Err(CommunityError::UnsubscribeLinkUnknown),
        _ => Ok(()),
    }
}

/// A digest claimed for sending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest {
    pub user_id: UserId,
    pub email: String,
    pub name: String,
    /// The newest unread notifications since the last digest, at most [`LISTED`].
    pub notifications: Vec<Notification>,
    /// How many more unread notifications there are since then.
    pub more: i64,
    token: String,
    covered_from: NaiveDateTime,
    covered_until: NaiveDateTime,
}

/// Claims up to `limit` digests that are due at `now`: a day since the last one, with unread
/// notifications since. A claimed digest that cannot be sent goes back with [`release`].
pub fn claim_due(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<Digest>, CommunityError> {
    let until = now.naive_utc();
    let mut digests = Vec::new();
    for due in repo::digests_due(conn, (now - EVERY).naive_utc(), limit)? {
        if repo::move_digest_cover(conn, due.user_id, due.covered_until, until)? == 0 {
            continue;
        }
        let Some(account) = setupiq_auth::service::accounts::find(conn, due.user_id)? else { continue };
        let rows = repo::unread_between(conn, due.user_id, due.covered_until, until, LISTED)?;
        let total = repo::count_unread_between(conn, due.user_id, due.covered_until, until)?;
        let notifications = notifications::described(conn, rows)?;
        digests.push(Digest {
            user_id: due.user_id,
            email: account.email.clone(),
            name: account.shown_name().to_owned(),
            more: total - i64::try_from(notifications.len()).unwrap_or(total),
            notifications,
            token: due.token,
            covered_from: due.covered_until,
            covered_until: until,
        });
    }
    Ok(digests)
}

/// Gives a digest that could not be sent back to the next round (unless the member
/// unsubscribed or another round took it since).
pub fn release(conn: &mut DbConnection, digest: &Digest) -> Result<(), CommunityError> {
    repo::move_digest_cover(conn, digest.user_id, digest.covered_until, digest.covered_from)?;
    Ok(())
}

/// What a round of [`send_due`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Round {
    pub sent: usize,
    /// Digests that could not be sent, left for the next round.
    pub failed: usize,
}

/// Sends the digests due now (at most [`BATCH`]); one that cannot be sent is released for
/// the next round.
pub async fn send_due(ctx: &AppCtx) -> Result<Round, CommunityError> {
    let AppCtx { db, clock, mailer, config, .. } = ctx;
    let now = clock.now();
    let digests = db.run(move |conn| claim_due(conn, now, BATCH)).await?;
    let mut round = Round::default();
    for digest in digests {
        match mailer.send(digest.email(config)).await {
            Ok(()) => round.sent += 1,
            Err(error) => {
                tracing::warn!(%error, user_id = digest.user_id.0, "a digest could not be sent; it goes in the next round");
                round.failed += 1;
                db.run(move |conn| release(conn, &digest)).await?;
            }
        }
    }
    Ok(round)
}

impl Digest {
    /// The one-click unsubscribe page of this digest.
    pub fn unsubscribe_page(&self, config: &Config) -> String {
        config.public_link(&format!("/unsubscribe?token={}", self.token))
    }

    /// The e-mail: each notification's sentence and where it leads, then the way out.
    pub fn email(&self, config: &Config) -> OutgoingEmail {
        let count = self.notifications.len() as i64 + self.more;
        let mut text = format!(
            "Hi {},\n\nYou have {count} unread notification{} on SetupIQ:\n\n",
            self.name,
            if count == 1 { "" } else { "s" }
        );
        for n in &self.notifications {
            text.push_str(&format!("- {}\n", n.sentence()));
            if let Some(path) = n.path() {
                text.push_str(&format!("  {}\n", config.public_link(&path)));
            }
        }
        if self.more > 0 {
            text.push_str(&format!("- and {} more\n", self.more));
        }
        text.push_str(&format!(
            "\nAll your notifications: {}\n\n\
             You get this e-mail because you turned on the daily digest. \
             Unsubscribe with one click: {}\n",
            config.public_link("/notifications"),
            self.unsubscribe_page(config)
        ));
        OutgoingEmail {
            to: self.email.clone(),
            subject: format!("SetupIQ: {count} unread notification{}", if count == 1 { "" } else { "s" }),
            text,
            reply_to: None,
            unsubscribe: Some(
                config.public_link(&format!("/_api/notifications/unsubscribe?token={}", self.token)),
            ),
        }
    }
}
