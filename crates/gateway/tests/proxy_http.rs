//! Behind a reverse proxy (`SETUPIQ_TRUSTED_PROXIES`) over real HTTP on both databases: the
//! per-address limits count each visitor by the address the proxy forwards, and a client
//! that writes `X-Forwarded-For` itself, straight to the server, changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::StatusCode;
use serde_json::json;
use setupiq_test_utils::{TestApp, TestClient, TestDb, both_backends_async};

const TIDY: &str = "A clean white desk with a 27 inch 165Hz IPS monitor on a monitor arm, RGB light strips \
    behind the monitor, cables hidden in a cable tray and a Herman Miller chair.";

both_backends_async!(
    behind_a_trusted_proxy_each_visitor_has_their_own_trial_cap,
    without_a_trusted_proxy_a_forged_address_changes_nothing,
);

/// A free analysis by a new visitor whose request arrives with `X-Forwarded-For: address`.
async fn free_analysis_from(client: &TestClient, address: &str) -> StatusCode {
    let request = client
        .http
        .post(client.url("/_api/analyze-setup"))
        .header("x-forwarded-for", address)
        .json(&json!({"type": "text", "value": TIDY}));
    client.send(request).await.status
}

async fn behind_a_trusted_proxy_each_visitor_has_their_own_trial_cap(db: TestDb) {
    // The tests connect from 127.0.0.1: here, that is the proxy.
    let app = TestApp::start_with(db, &[("SETUPIQ_TRUSTED_PROXIES", "127.0.0.1/32, ::1")]).await;
    for _ in 0..3 {
        assert_eq!(free_analysis_from(&app.client(), "203.0.113.1").await, StatusCode::OK);
    }
    // The household at 203.0.113.1 has had its three; a neighbour has not.
    assert_eq!(free_analysis_from(&app.client(), "203.0.113.1").await, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(free_analysis_from(&app.client(), "203.0.113.2").await, StatusCode::OK);
    // A client prepending a forged address through the proxy is still counted by its own.
    assert_eq!(
        free_analysis_from(&app.client(), "198.51.100.9, 203.0.113.1").await,
        StatusCode::PAYMENT_REQUIRED
    );
}

async fn without_a_trusted_proxy_a_forged_address_changes_nothing(db: TestDb) {
    let app = TestApp::start(db).await;
    for i in 0..3 {
        assert_eq!(free_analysis_from(&app.client(), &format!("203.0.113.{i}")).await, StatusCode::OK);
    }
    // Every request came from 127.0.0.1, whatever it claimed: the cap is reached.
    assert_eq!(free_analysis_from(&app.client(), "203.0.113.200").await, StatusCode::PAYMENT_REQUIRED);
}
