//! Pro by subscription over real HTTP, on both databases, in the test mode: the plans, a
//! subscription paid with the test card and confirmed as a pack is, the analyses it makes
//! free, cancel and resume, and the end of Pro when the paid period is over (the injected
//! clock moves it).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Duration;
use reqwest::StatusCode;
use serde_json::json;
use setupiq_core::Clock;
use setupiq_test_utils::{TestApp, TestDb, both_backends_async};

both_backends_async!(
    pro_is_bought_kept_until_the_period_ends_and_left,
    subscribing_is_validated_and_needs_a_session,
);

async fn pro_is_bought_kept_until_the_period_ends_and_left(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_PRO_MONTHLY_CENTS", "599")]).await;
    let visitor = app.client().get("/_api/pro").await.json();
    assert_eq!(
        visitor["plans"][0],
        json!({"plan": "monthly", "name": "SetupIQ Pro, monthly", "priceCents": 599, "currency": "usd", "interval": "month"})
    );
    assert_eq!(
        (visitor["plans"][1]["priceCents"].as_i64(), visitor["isPro"].as_bool()),
        (Some(3999), Some(false))
    );
    assert!(visitor["subscription"].is_null());

    let me = app.user("subscriber@example.com").sign_up().await;
    let started = me.post("/_api/pro/subscribe", json!({"plan": "yearly"})).await;
    assert_eq!(started.status, StatusCode::OK, "{}", started.text);
    let intent_id = started.json()["paymentIntentId"].as_str().unwrap().to_owned();
    assert_eq!(started.json()["testMode"], true);
    let paid = me
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": intent_id, "cardNumber": "4242 4242 4242 4242"}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    let confirmed = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    let until = confirmed.json()["proUntil"].as_str().unwrap().to_owned();
    assert!(until.starts_with("2027-03-14"), "a year from the test epoch: {until}");
    assert_eq!(confirmed.json()["creditsAdded"], 0);

    let session = me.get("/_api/auth/session").await.json();
    assert_eq!(
        (session["user"]["isPro"].as_bool(), session["user"]["credits"].as_i64()),
        (Some(true), Some(3))
    );
    let again = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await;
    assert_eq!(
        (again.status, again.error().as_str()),
        (StatusCode::CONFLICT, "You are already a Pro member.")
    );
    let state = me.get("/_api/pro").await.json();
    assert_eq!(state["subscription"]["status"], "active");
    assert_eq!(state["subscription"]["currentPeriodEnd"], until.as_str());
    let receipt =
        app.outbox().into_iter().find(|m| m.subject == "Your SetupIQ receipt: SetupIQ Pro, yearly").unwrap();
    assert!(receipt.text.contains("Amount paid: $39.99"), "{}", receipt.text);

    // Cancelled: still Pro until the period ends; resumed; cancelled again.
    let cancelled = me.post("/_api/pro/cancel", json!({})).await;
    assert_eq!(cancelled.json()["subscription"]["cancelAtPeriodEnd"], true, "{}", cancelled.text);
    assert_eq!(
        me.post("/_api/pro/resume", json!({})).await.json()["subscription"]["cancelAtPeriodEnd"],
        false
    );
    me.post("/_api/pro/cancel", json!({})).await;
    // A year on, every session has ended: the member signs in again.
    app.clock.advance(Duration::days(364));
    assert_eq!(me.login("subscriber@example.com", &me.password).await.status, StatusCode::OK);
    let still = me.get("/_api/pro").await.json();
    assert_eq!(
        (still["isPro"].as_bool(), still["subscription"]["status"].as_str()),
        (Some(true), Some("active"))
    );
    app.clock.advance(Duration::days(2));
    assert_eq!(me.login("subscriber@example.com", &me.password).await.status, StatusCode::OK);
    let over = me.get("/_api/pro").await.json();
    assert_eq!(
        (over["isPro"].as_bool(), over["subscription"]["status"].as_str()),
        (Some(false), Some("canceled"))
    );
    assert_eq!(me.get("/_api/auth/session").await.json()["user"]["isPro"], false);
    assert_eq!(me.post("/_api/pro/cancel", json!({})).await.status, StatusCode::NOT_FOUND);
    let payments = me.get("/_api/credits/payments").await.json();
    assert_eq!(payments["payments"].as_array().unwrap().len(), 1, "nothing charged after the cancel");
    assert!(app.clock.now() > chrono::DateTime::parse_from_rfc3339(&until).unwrap());
}

async fn subscribing_is_validated_and_needs_a_session(db: TestDb) {
    let app = TestApp::start(db).await;
    assert_eq!(
        app.client().post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.status,
        StatusCode::UNAUTHORIZED
    );
    let me = app.user("picky@example.com").sign_up().await;
    let weekly = me.post("/_api/pro/subscribe", json!({"plan": "weekly"})).await;
    assert_eq!(weekly.status, StatusCode::BAD_REQUEST, "{}", weekly.text);
    assert_eq!(me.post("/_api/pro/resume", json!({})).await.status, StatusCode::NOT_FOUND);
    // Asked twice before paying: one payment, answered twice.
    let first = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    let second = me.post("/_api/pro/subscribe", json!({"plan": "monthly"})).await.json();
    assert_eq!(first["paymentIntentId"], second["paymentIntentId"]);
    let declined = me
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": first["paymentIntentId"], "cardNumber": "4000 0000 0000 0002"}),
        )
        .await;
    assert_eq!(declined.status, StatusCode::PAYMENT_REQUIRED);
    let unpaid =
        me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": first["paymentIntentId"]})).await;
    assert_eq!(unpaid.status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(me.get("/_api/pro").await.json()["isPro"], false);
}
