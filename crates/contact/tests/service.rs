//! The contact-form rules, run directly against both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Duration;
use diesel::prelude::*;
use setupiq_auth::service::accounts;
use setupiq_contact::service::{self, MAX_MESSAGES_PER_IP, NewContactMessage, WINDOW};
use setupiq_contact::{ContactError, ContactMessage};
use setupiq_core::{Config, UserId};
use setupiq_db::schema::contact_messages;
use setupiq_test_utils::{TestDb, both_backends, fixtures, test_epoch};

const TEXT: &str = "My SetupIQ score did not change after I tidied the cables.";

fn from_ip(ip: &str) -> NewContactMessage<'_> {
    NewContactMessage {
        name: "Pixel Pete",
        email: "pete@example.com",
        message: TEXT,
        user_id: None,
        ip: Some(ip),
    }
}

fn stored_from(conn: &mut setupiq_db::DbConnection, ip: &str) -> i64 {
    contact_messages::table.filter(contact_messages::ip.eq(ip)).count().get_result(conn).unwrap()
}

both_backends!(
    a_message_is_stored_trimmed_with_a_normalised_email,
    a_signed_in_senders_messages_go_with_their_account,
    each_ip_may_send_five_messages_an_hour,
    clients_without_a_known_ip_share_one_limit,
);

fn a_message_is_stored_trimmed_with_a_normalised_email(db: TestDb) {
    let mut conn = db.conn();
    let t0 = test_epoch();
    let new = NewContactMessage {
        name: "  Pixel Pete 🎮 ",
        email: "  Pixel.Pete@Example.COM ",
        message: &format!("\n  {TEXT}  \n"),
        user_id: None,
        ip: Some("203.0.113.7"),
    };
    let sent = service::submit(&mut conn, &new, t0).unwrap();
    assert_eq!(sent.name, "Pixel Pete 🎮");
    assert_eq!(sent.email, "pixel.pete@example.com");
    assert_eq!(sent.message, TEXT);
    assert_eq!((sent.user_id, sent.ip.as_deref(), sent.created_at), (None, Some("203.0.113.7"), t0));

    let row: (i64, String, String, String, Option<i64>, Option<String>) = contact_messages::table
        .select((
            contact_messages::id,
            contact_messages::name,
            contact_messages::email,
            contact_messages::message,
            contact_messages::user_id,
            contact_messages::ip,
        ))
        .first(&mut *conn)
        .unwrap();
    assert_eq!(
        row,
        (
            sent.id,
            "Pixel Pete 🎮".into(),
            "pixel.pete@example.com".into(),
            TEXT.into(),
            None,
            Some("203.0.113.7".into())
        )
    );
}

fn a_signed_in_senders_messages_go_with_their_account(db: TestDb) {
    let mut conn = db.conn();
    let me = fixtures::account(&mut conn, "sender@example.com");
    let t0 = test_epoch();
    let mine = service::submit(
        &mut conn,
        &NewContactMessage { user_id: Some(me.id), ..from_ip("198.51.100.1") },
        t0,
    )
    .unwrap();
    assert_eq!(mine.user_id, Some(me.id));
    let anonymous = service::submit(&mut conn, &from_ip("198.51.100.2"), t0).unwrap();

    accounts::delete_account(&mut conn, me.id, test_epoch()).unwrap();
    let left: Vec<i64> = contact_messages::table.select(contact_messages::id).load(&mut *conn).unwrap();
    assert_eq!(left, vec![anonymous.id]);
}

fn each_ip_may_send_five_messages_an_hour(db: TestDb) {
    let mut conn = db.conn();
    let ip = "203.0.113.9";
    let t0 = test_epoch();
    service::submit(&mut conn, &from_ip(ip), t0).unwrap();
    for _ in 1..MAX_MESSAGES_PER_IP {
        service::submit(&mut conn, &from_ip(ip), t0 + Duration::minutes(20)).unwrap();
    }

    // Half a second after t0 + 30 min, the oldest message leaves the window in 29 min
    // 59.5 s: rounded up to whole seconds.
    let sixth =
        service::submit(&mut conn, &from_ip(ip), t0 + Duration::minutes(30) + Duration::milliseconds(500));
    assert!(matches!(sixth, Err(ContactError::RateLimited { retry_after_secs: 1800 })), "{sixth:?}");
    assert_eq!(stored_from(&mut conn, ip), MAX_MESSAGES_PER_IP, "a refused message is not stored");
    // Another IP is not affected, and a signed-in sender shares their IP's limit.
    service::submit(&mut conn, &from_ip("203.0.113.10"), t0 + Duration::minutes(30)).unwrap();
    let me = fixtures::account(&mut conn, "limited@example.com");
    let signed_in = NewContactMessage { user_id: Some(me.id), ..from_ip(ip) };
    assert!(matches!(
        service::submit(&mut conn, &signed_in, t0 + Duration::minutes(30)),
        Err(ContactError::RateLimited { .. })
    ));

    // An hour after the first message it has left the window: one more fits…
    service::submit(&mut conn, &from_ip(ip), t0 + WINDOW).unwrap();
    // …and then the four from t0 + 20 min hold the window until t0 + 80 min.
    let next = service::submit(&mut conn, &from_ip(ip), t0 + Duration::minutes(61));
    assert!(matches!(next, Err(ContactError::RateLimited { retry_after_secs: 1140 })), "{next:?}");
    service::submit(&mut conn, &from_ip(ip), t0 + Duration::minutes(80)).unwrap();
    assert_eq!(stored_from(&mut conn, ip), MAX_MESSAGES_PER_IP + 2);
}

fn clients_without_a_known_ip_share_one_limit(db: TestDb) {
    let mut conn = db.conn();
    let t0 = test_epoch();
    let unknown = NewContactMessage { ip: None, ..from_ip("unused") };
    for _ in 0..MAX_MESSAGES_PER_IP {
        service::submit(&mut conn, &unknown, t0).unwrap();
    }
    assert!(matches!(
        service::submit(&mut conn, &unknown, t0),
        Err(ContactError::RateLimited { retry_after_secs: 3600 })
    ));
    service::submit(&mut conn, &from_ip("192.0.2.1"), t0).unwrap();
}

#[test]
fn the_support_email_carries_the_message_and_replies_go_to_the_sender() {
    let config = Config::from_lookup(|name| {
        (name == "SETUPIQ_SUPPORT_EMAIL").then(|| "help@setupiq.example".to_owned())
    })
    .unwrap();
    let message = ContactMessage {
        id: 7,
        name: "Pixel\r\nPete".into(),
        email: "pete@example.com".into(),
        message: TEXT.into(),
        user_id: Some(UserId(42)),
        ip: Some("203.0.113.7".into()),
        created_at: test_epoch(),
    };
    let mail = service::support_email(&config, &message);
    assert_eq!(mail.to, "help@setupiq.example");
    assert_eq!(mail.subject, "Contact form: Pixel Pete", "no line break in the subject");
    assert_eq!(mail.reply_to.as_deref(), Some("pete@example.com"));
    for part in ["pete@example.com", TEXT, "user 42"] {
        assert!(mail.text.contains(part), "{part}: {}", mail.text);
    }
}
