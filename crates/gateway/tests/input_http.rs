//! Text nobody types — NUL and the other control characters — is refused by every endpoint
//! that takes text, the same way on both databases (PostgreSQL cannot store a NUL, SQLite
//! can: without the shared check the backends disagreed), and nothing is stored.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use diesel::prelude::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_core::validation::CONTROL_CHARACTERS;
use setupiq_db::schema::{affiliate_clicks, analyses, contact_messages, users};
use setupiq_test_utils::{TestApp, TestDb, TestResponse, both_backends_async};

both_backends_async!(
    control_characters_are_refused_everywhere_and_nothing_is_stored,
    typed_line_breaks_and_tabs_are_text
);

fn refused_for(res: &TestResponse, field: &str) {
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text);
    let body = res.json();
    assert_eq!(body["error"], CONTROL_CHARACTERS, "{body}");
    assert_eq!(body["issues"][0], json!({"path": field, "message": CONTROL_CHARACTERS}), "{body}");
}

fn count(app: &TestApp, table: &str) -> i64 {
    let mut conn = app.db.conn();
    match table {
        "users" => users::table.count().get_result(&mut conn),
        "analyses" => analyses::table.count().get_result(&mut conn),
        "contact_messages" => contact_messages::table.count().get_result(&mut conn),
        "affiliate_clicks" => affiliate_clicks::table.count().get_result(&mut conn),
        other => panic!("no such table {other}"),
    }
    .unwrap()
}

async fn control_characters_are_refused_everywhere_and_nothing_is_stored(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("careful@example.com").sign_up().await;
    let setup = "A 27 inch monitor, a mechanical keyboard and a mouse on a tidy desk";
    let cases: [(&str, Value, &str); 8] = [
        (
            "/_api/contact",
            json!({"name": "Eve\u{0}", "email": "eve@example.com", "message": "Hello there, a question about credits."}),
            "name",
        ),
        (
            "/_api/contact",
            json!({"name": "Eve", "email": "eve@example.com", "message": "Ring the bell \u{7} please, thanks a lot"}),
            "message",
        ),
        (
            "/_api/auth/register_with_password",
            json!({"email": "nul@example.com", "password": "hunter2hunter2", "displayName": "Nul\u{0}Byte"}),
            "displayName",
        ),
        ("/_api/auth/update-profile", json!({"username": "nul\u{0}name"}), "username"),
        ("/_api/credits/deduct", json!({"amount": 1, "reason": "publish\u{0}"}), "reason"),
        ("/_api/stripe/confirm-payment", json!({"paymentIntentId": "pi_\u{0}"}), "paymentIntentId"),
        ("/_api/track-click", json!({"productId": 1, "sessionId": "session\u{1b}[31m"}), "sessionId"),
        ("/_api/analyze-setup", json!({"type": "text", "value": format!("{setup}\u{0}")}), "value"),
    ];
    for (path, body, field) in cases {
        refused_for(&me.post(path, body).await, field);
    }
    refused_for(&me.get("/_api/my-analyses?limit=5%00").await, "limit");

    assert_eq!((count(&app, "users"), count(&app, "analyses")), (1, 0));
    assert_eq!((count(&app, "contact_messages"), count(&app, "affiliate_clicks")), (0, 0));
    assert_eq!(app.balance(me.id), 3, "nothing deducted, nothing charged");
}

async fn typed_line_breaks_and_tabs_are_text(db: TestDb) {
    let app = TestApp::start(db).await;
    let visitor = app.client();
    let message = "Hi!\r\nTwo questions:\n\t1. credits\n\t2. RigPage";
    let res = visitor
        .post(
            "/_api/contact",
            json!({"name": "Zoë Gamer 🎮", "email": "zoe@example.com", "message": message}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let stored: String =
        contact_messages::table.select(contact_messages::message).first(&mut app.db.conn()).unwrap();
    assert_eq!(stored, message);
}
