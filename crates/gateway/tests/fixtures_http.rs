//! The shared test users (`app.user(..).sign_up()`) are what the product itself shows: a
//! test that asks for a Pro admin with 7 credits and a saved analysis gets exactly that
//! through the real endpoints, on both databases. Every other HTTP test builds on them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::StatusCode;
use setupiq_core::{AnalysisId, UserId};
use setupiq_test_utils::{FIXTURE_SETUP, TestApp, TestDb, both_backends_async};

both_backends_async!(a_plain_user_has_the_signup_bonus, every_option_shows_through_the_api);

async fn a_plain_user_has_the_signup_bonus(db: TestDb) {
    let app = TestApp::start(db).await;
    let gamer = app.user("plain@example.com").sign_up().await;
    let session = gamer.get("/_api/auth/session").await;
    assert_eq!(session.status, StatusCode::OK, "signed in after sign-up");
    let user = &session.json()["user"];
    assert_eq!(
        (user["id"].as_i64().map(UserId), user["email"].as_str()),
        (Some(gamer.id), Some("plain@example.com"))
    );
    assert_eq!(
        (user["credits"].as_i64(), user["isPro"].as_bool(), user["role"].as_str()),
        (Some(3), Some(false), Some("user"))
    );
    assert_eq!(gamer.get("/_api/my-analyses").await.json()["total"], 0);
    assert!(gamer.analysis_ids.is_empty());
}

async fn every_option_shows_through_the_api(db: TestDb) {
    let app = TestApp::start(db).await;
    let boss = app
        .user("boss@example.com")
        .named("Big Boss")
        .credits(7)
        .pro()
        .admin()
        .with_analysis()
        .sign_up()
        .await;
    let user = boss.get("/_api/auth/session").await.json()["user"].clone();
    assert_eq!(
        (user["credits"].as_i64(), user["isPro"].as_bool(), user["role"].as_str()),
        (Some(7), Some(true), Some("admin"))
    );
    assert_eq!(user["displayName"], "Big Boss");

    let history = boss.get("/_api/my-analyses").await.json();
    assert_eq!(history["total"], 1);
    let saved = &history["analyses"][0];
    assert_eq!(saved["id"].as_i64().map(AnalysisId), boss.analysis_ids.first().copied());
    assert_eq!(
        (saved["inputType"].as_str(), saved["inputData"].as_str()),
        (Some("text"), Some(FIXTURE_SETUP))
    );
    let opened = boss.get(&format!("/_api/analyses/{}", boss.analysis_ids[0])).await;
    assert_eq!(opened.status, StatusCode::OK, "{}", opened.text);
    assert_eq!(app.balance(boss.id), 7, "a fixture analysis takes no credit");
    app.assert_ledger_consistent(boss.id);

    // The browser signs in again with the fixture's password.
    let again = app.client().login(&boss.email, &boss.password).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
}
