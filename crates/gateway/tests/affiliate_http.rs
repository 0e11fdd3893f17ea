//! Click tracking and trending gear over HTTP on both databases.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use diesel::prelude::*;
use reqwest::StatusCode;
use serde_json::json;
use setupiq_core::UserId;
use setupiq_db::schema::affiliate_clicks;
use setupiq_test_utils::{TestApp, TestDb, both_backends_async};

both_backends_async!(clicks_are_validated_and_recorded,);

async fn clicks_are_validated_and_recorded(db: TestDb) {
    let app = TestApp::start(db).await;
    let visitor = app.client();
    let gear = visitor.get("/_api/trending-gear").await.json();
    let items = gear["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    let product_id = items[0]["productId"].as_i64().unwrap();
    assert!(items[0]["name"].is_string() && items[0]["priceCents"].is_i64() && items[0]["rating"].is_f64());

    for (body, message) in [
        (json!({"productId": 0, "sessionId": "s"}), "Product ID must be a positive integer."),
        (json!({"productId": product_id, "sessionId": ""}), "Session ID is required."),
        (
            json!({"productId": product_id, "sessionId": "s", "analysisId": -3}),
            "Analysis ID must be a positive integer.",
        ),
    ] {
        let res = visitor.post("/_api/track-click", body).await;
        assert_eq!((res.status, res.error().as_str()), (StatusCode::BAD_REQUEST, message));
    }
    let unknown = visitor.post("/_api/track-click", json!({"productId": 999_999, "sessionId": "s"})).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let ok = visitor
        .post(
            "/_api/track-click",
            json!({"productId": product_id, "sessionId": "sess-42", "suggestionContext": "Chair & Comfort"}),
        )
        .await;
    assert_eq!(ok.json(), json!({"success": true}));

    let signed_in = app.user("clicks@example.com").sign_up().await;
    assert_eq!(
        signed_in
            .post("/_api/track-click", json!({"productId": product_id, "sessionId": "sess-43"}))
            .await
            .status,
        StatusCode::OK
    );
    let rows: Vec<(String, Option<UserId>, Option<String>)> = affiliate_clicks::table
        .order(affiliate_clicks::id)
        .select((
            affiliate_clicks::session_id,
            affiliate_clicks::user_id,
            affiliate_clicks::suggestion_context,
        ))
        .load(&mut *app.db.conn())
        .unwrap();
    assert_eq!(
        rows,
        vec![
            ("sess-42".to_owned(), None, Some("Chair & Comfort".to_owned())),
            ("sess-43".to_owned(), Some(signed_in.id), None),
        ]
    );
}
