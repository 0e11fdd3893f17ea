//! A database that stops answering — not refusing, just silent, like a stuck server or a
//! dropped network path — must not hang the service: the readiness check answers 503
//! within a second while the liveness check stays 200 (nothing to restart), every other
//! call answers 503 "temporarily unavailable" with `Retry-After` once its deadline passes,
//! and the service recovers by itself when the database answers again. PostgreSQL only: it is the backend reached over a network (through a proxy the
//! test freezes).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::StatusCode;
use setupiq_core::error::UNAVAILABLE_MESSAGE;
use setupiq_test_utils::{FreezableProxy, TestApp, TestDb, TestResponse, TestUser};

fn unavailable(res: &TestResponse, what: &str) {
    assert_eq!(res.status, StatusCode::SERVICE_UNAVAILABLE, "{what}: {}", res.text);
    assert_eq!(res.error(), UNAVAILABLE_MESSAGE, "{what}");
    assert!(res.header("retry-after").is_some_and(|s| s.parse::<u64>().is_ok()), "{what}: Retry-After");
}

/// Once the database answers again, so does the service: the readiness check within a few
/// tries (pooled connections come back as their stuck work finishes), then every call.
async fn recovers(me: &TestUser) {
    let mut recovered = me.get("/_api/ready").await;
    for _ in 0..20 {
        if recovered.status == StatusCode::OK {
            break;
        }
        recovered = me.get("/_api/ready").await;
    }
    assert_eq!(recovered.status, StatusCode::OK, "{}", recovered.text);
    let history = me.get("/_api/credits/history").await;
    assert_eq!(history.status, StatusCode::OK, "{}", history.text);
}

#[actix_web::test]
async fn a_silent_database_gets_quick_503s_and_the_service_recovers() {
    let Some(db) = TestDb::postgres() else { return };
    let proxy = FreezableProxy::start(&db.postgres_addr().unwrap());
    let app = TestApp::start(db.through(proxy.addr())).await;
    let me = app.user("patient@example.com").sign_up().await;
    assert!(me.signed_in().await);

    proxy.freeze();
    let started = std::time::Instant::now();
    unavailable(&me.get("/_api/ready").await, "ready");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(3),
        "ready answers quickly: {:?}",
        started.elapsed()
    );
    assert_eq!(me.get("/_api/health").await.status, StatusCode::OK, "alive: nothing to restart");
    let history = me.get("/_api/credits/history").await;
    unavailable(&history, "a signed-in call");
    let anonymous = app.client().get("/_api/trending-gear").await;
    unavailable(&anonymous, "an anonymous call");

    proxy.thaw();
    recovers(&me).await;
}

#[actix_web::test]
async fn a_database_that_refuses_gets_503_with_retry_after_and_the_service_recovers() {
    let Some(db) = TestDb::postgres() else { return };
    let proxy = FreezableProxy::start(&db.postgres_addr().unwrap());
    let app = TestApp::start(db.through(proxy.addr())).await;
    let me = app.user("down@example.com").sign_up().await;

    proxy.refuse();
    unavailable(&me.get("/_api/ready").await, "ready");
    assert_eq!(me.get("/_api/health").await.status, StatusCode::OK, "alive: nothing to restart");
    unavailable(&me.get("/_api/credits/history").await, "a signed-in call");
    unavailable(&app.client().get("/_api/trending-gear").await, "an anonymous call");

    proxy.accept();
    recovers(&me).await;
}
