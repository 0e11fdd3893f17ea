//! The contact form over real HTTP through the real `App`, on both databases: what the
//! sender sees (status, body, headers), what support receives, and what is stored.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Duration;
use diesel::prelude::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_core::UserId;
use setupiq_db::schema::contact_messages;
use setupiq_test_utils::{TestApp, TestClient, TestDb, both_backends_async};

/// The messages sent to support (sign-ups also mail a verification link).
fn support_mail(app: &TestApp) -> Vec<setupiq_test_utils::SentMail> {
    app.outbox().into_iter().filter(|m| m.subject.starts_with("Contact form")).collect()
}

const PATH: &str = "/_api/contact";
const TEXT: &str = "The cable inventory missed my under-desk tray. Can you have a look?";

fn message(name: &str, email: &str, text: &str) -> Value {
    json!({ "name": name, "email": email, "message": text })
}

async fn send(client: &TestClient, name: &str) -> setupiq_test_utils::TestResponse {
    client.post(PATH, message(name, "sender@example.com", TEXT)).await
}

/// (name, email, user_id, ip) of every stored message, oldest first.
fn stored(app: &TestApp) -> Vec<(String, String, Option<UserId>, Option<String>)> {
    contact_messages::table
        .order(contact_messages::id)
        .select((
            contact_messages::name,
            contact_messages::email,
            contact_messages::user_id,
            contact_messages::ip,
        ))
        .load(&mut *app.db.conn())
        .unwrap()
}

both_backends_async!(
    the_form_is_validated_with_the_specification_messages,
    unknown_and_missing_fields_are_refused,
    an_anonymous_message_is_stored_and_sent_to_support,
    the_support_address_is_configurable,
    a_mail_failure_does_not_lose_the_message,
    a_signed_in_senders_messages_are_theirs_and_go_with_their_account,
    the_sixth_message_within_an_hour_from_one_ip_is_refused,
    admins_read_the_messages_newest_first_and_nobody_else_does,
);

async fn the_form_is_validated_with_the_specification_messages(db: TestDb) {
    let app = TestApp::start(db).await;
    let browser = app.client();
    let long_name = "N".repeat(101);
    let long_text = "M".repeat(5001);
    for (body, path, error) in [
        (message("A", "a@b.co", TEXT), "name", "Name must be at least 2 characters."),
        (message("   A   ", "a@b.co", TEXT), "name", "Name must be at least 2 characters."),
        (message(&long_name, "a@b.co", TEXT), "name", "Name cannot be longer than 100 characters."),
        (message("Pixel Pete", "nope", TEXT), "email", "Please enter a valid email address."),
        (message("Pixel Pete", "", TEXT), "email", "Please enter a valid email address."),
        (message("Pixel Pete", "a@b.co", "Too short"), "message", "Message must be at least 10 characters."),
        (
            message("Pixel Pete", "a@b.co", "   short      "),
            "message",
            "Message must be at least 10 characters.",
        ),
        (
            message("Pixel Pete", "a@b.co", &long_text),
            "message",
            "Message cannot be longer than 5000 characters.",
        ),
    ] {
        let res = browser.post(PATH, body).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text);
        assert_eq!(res.error(), error);
        assert_eq!(res.json()["code"], "validation_failed");
        assert_eq!(res.json()["issues"], json!([{ "path": path, "message": error }]));
    }

    let empty = browser.post(PATH, message("", "", "")).await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST);
    let issues = empty.json()["issues"].clone();
    let paths: Vec<&str> = issues.as_array().unwrap().iter().map(|i| i["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["email", "message", "name"]);

    assert!(stored(&app).is_empty(), "nothing invalid is stored");
    assert!(app.outbox().is_empty(), "nor sent to support");
}

async fn unknown_and_missing_fields_are_refused(db: TestDb) {
    let app = TestApp::start(db).await;
    let browser = app.client();
    let extra = browser
        .post(PATH, json!({ "name": "Pixel Pete", "email": "a@b.co", "message": TEXT, "userId": 1 }))
        .await;
    assert_eq!(extra.status, StatusCode::BAD_REQUEST);
    assert!(extra.error().contains("unknown field `userId`"), "{}", extra.text);
    let missing = browser.post(PATH, json!({ "name": "Pixel Pete", "email": "a@b.co" })).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    assert!(missing.error().contains("missing field `message`"), "{}", missing.text);
    assert!(stored(&app).is_empty());
}

async fn an_anonymous_message_is_stored_and_sent_to_support(db: TestDb) {
    let app = TestApp::start(db).await;
    let browser = app.client();
    let res = browser
        .post(PATH, message("  Pixel Pete 🎮 ", "Pete@Example.COM", &format!("{TEXT}\nThanks!")))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    assert_eq!(res.json(), json!({ "success": true, "message": "Your message has been sent!" }));

    assert_eq!(
        stored(&app),
        vec![("Pixel Pete 🎮".to_owned(), "pete@example.com".to_owned(), None, Some("127.0.0.1".to_owned()))]
    );
    let outbox = app.outbox();
    assert_eq!(outbox.len(), 1);
    let mail = &outbox[0];
    assert_eq!(mail.to, "support@setupiq.local");
    assert_eq!(mail.subject, "Contact form: Pixel Pete 🎮");
    assert_eq!(mail.reply_to.as_deref(), Some("pete@example.com"), "replying answers the sender");
    for part in ["Pixel Pete 🎮", "pete@example.com", TEXT, "Thanks!", "not signed in"] {
        assert!(mail.text.contains(part), "{part:?} missing from {}", mail.text);
    }
}

async fn the_support_address_is_configurable(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_SUPPORT_EMAIL", "help@setupiq.example")]).await;
    let res = send(&app.client(), "Pixel Pete").await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(app.outbox().iter().map(|m| m.to.as_str()).collect::<Vec<_>>(), ["help@setupiq.example"]);
}

async fn a_mail_failure_does_not_lose_the_message(db: TestDb) {
    // Nothing listens on port 1: every delivery fails.
    let app = TestApp::start_with(db, &[("SETUPIQ_SMTP_URL", "smtp://127.0.0.1:1")]).await;
    let res = send(&app.client(), "Pixel Pete").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    assert_eq!(res.json()["message"], "Your message has been sent!");
    assert_eq!(stored(&app).len(), 1, "the message is kept for support to read");
}

async fn a_signed_in_senders_messages_are_theirs_and_go_with_their_account(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("member@example.com").named("Member").sign_up().await;
    let my_id = me.id;
    assert_eq!(send(&me, "Member").await.status, StatusCode::OK);
    assert_eq!(send(&app.client(), "Visitor").await.status, StatusCode::OK);
    let owners: Vec<(String, Option<UserId>)> =
        stored(&app).into_iter().map(|(name, _, user, _)| (name, user)).collect();
    assert_eq!(owners, vec![("Member".to_owned(), Some(my_id)), ("Visitor".to_owned(), None)]);
    let sent = support_mail(&app);
    assert!(sent[0].text.contains(&format!("signed in as user {my_id}")), "{}", sent[0].text);

    let deleted = me.delete_account().await;
    assert_eq!(deleted.status, StatusCode::OK);
    let names: Vec<String> = stored(&app).into_iter().map(|(name, ..)| name).collect();
    assert_eq!(names, ["Visitor"], "the deleted account's messages are gone, the visitor's stay");
}

async fn the_sixth_message_within_an_hour_from_one_ip_is_refused(db: TestDb) {
    let app = TestApp::start(db).await;
    let browser = app.client();
    assert_eq!(send(&browser, "First").await.status, StatusCode::OK);
    app.clock.advance(Duration::minutes(20));
    for i in 2..=5 {
        let res = send(&browser, &format!("Message {i}")).await;
        assert_eq!(res.status, StatusCode::OK, "message {i}: {}", res.text);
    }

    // Another browser, even signed in, comes from the same IP.
    let other = app.user("other@example.com").named("Other").sign_up().await;
    let sixth = send(&other, "Sixth").await;
    assert_eq!(sixth.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(sixth.error(), "You have sent too many messages. Please try again later.");
    assert_eq!(sixth.json()["code"], "rate_limited");
    assert_eq!(
        sixth.header("retry-after"),
        Some("2400"),
        "the first message leaves the window in 40 minutes"
    );
    assert_eq!(
        (stored(&app).len(), support_mail(&app).len()),
        (5, 5),
        "the refused message is neither stored nor sent"
    );

    app.clock.advance(Duration::minutes(61));
    let later = send(&other, "Sixth").await;
    assert_eq!(later.status, StatusCode::OK, "{}", later.text);
    assert_eq!(stored(&app).len(), 6);
}

async fn admins_read_the_messages_newest_first_and_nobody_else_does(db: TestDb) {
    let app = TestApp::start(db).await;
    for name in ["First Sender", "Second Sender", "Third Sender"] {
        assert_eq!(send(&app.client(), name).await.status, StatusCode::OK);
        app.clock.advance(Duration::minutes(1));
    }
    let inbox = "/_api/admin/contact-messages";
    assert_eq!(app.client().get(inbox).await.status, StatusCode::UNAUTHORIZED);
    let member = app.user("member@example.com").sign_up().await;
    assert_eq!(member.get(inbox).await.status, StatusCode::FORBIDDEN);

    let admin = app.user("admin@example.com").admin().sign_up().await;
    let page = admin.get(inbox).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(page.header("cache-control"), Some("private, no-store"));
    let body = page.json();
    let names: Vec<&str> =
        body["messages"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Third Sender", "Second Sender", "First Sender"]);
    assert_eq!((body["total"].as_i64(), body["hasMore"].as_bool()), (Some(3), Some(false)));
    let newest = &body["messages"][0];
    assert_eq!(
        (newest["email"].as_str(), newest["message"].as_str()),
        (Some("sender@example.com"), Some(TEXT))
    );
    assert!(newest.get("ip").is_none(), "the sender's IP is only for the rate limit: {newest}");

    let second = admin.get(&format!("{inbox}?limit=1&offset=1")).await.json();
    assert_eq!(second["messages"][0]["name"], "Second Sender");
    assert_eq!(second["hasMore"], true);
    let bad = admin.get(&format!("{inbox}?limit=0")).await;
    assert_eq!(
        (bad.status, bad.error().as_str()),
        (StatusCode::BAD_REQUEST, "Limit must be between 1 and 100.")
    );
}
