//! The shapes the OpenAPI document promises, as a client reads them over real HTTP, kept as
//! reviewed snapshots (`tests/snapshots/`): an analysis's result, a feed item, the data
//! export and the admin's summary. A change of shape fails here and is reviewed
//! (`cargo insta review`), not discovered by a client. Ids, dates, tokens and addresses that
//! differ between runs are redacted; both databases must answer the same snapshot.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use insta::assert_json_snapshot;
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_test_utils::{TestApp, TestDb, both_backends_async};

both_backends_async!(
    an_analysis_result_keeps_its_shape,
    a_feed_item_keeps_its_shape,
    the_export_keeps_its_shape,
    the_admin_summary_keeps_its_shape,
);

async fn an_analysis_result_keeps_its_shape(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("shape@example.com").with_photo_analysis().sign_up().await;
    let res = me.get(&format!("/_api/analyses/{}", me.analysis_ids[0].0)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    assert_json_snapshot!("analysis_result", res.json(), {
        ".id" => "[id]",
        ".createdAt" => "[date]",
        ".inputData" => "[media]",
        ".imageUrl" => "[media]",
        ".thumbnailUrl" => "[media]",
        ".result.analysisId" => "[id]",
        ".result.createdAt" => "[date]",
        ".result.imageUrl" => "[media]",
        ".result.thumbnailUrl" => "[media]",
    });
}

async fn a_feed_item_keeps_its_shape(db: TestDb) {
    let app = TestApp::start(db).await;
    let owner = app
        .user("feed-shape@example.com")
        .named("Shape Owner")
        .verified()
        .with_photo_analysis()
        .sign_up()
        .await;
    let body = json!({"analysisId": owner.analysis_ids[0].0, "title": "My battlestation", "description": "Two monitors"});
    let published = owner.post("/_api/community/setup", body).await;
    assert_eq!(published.status, StatusCode::OK, "{}", published.text);
    let feed = app.client().get("/_api/community/setups?filter=week&sort=new").await.json();
    assert_json_snapshot!("feed_item", feed["setups"][0], {
        ".id" => "[id]",
        ".analysis.id" => "[id]",
        ".uploaderId" => "[id]",
        ".createdAt" => "[date]",
        ".updatedAt" => "[date]",
        ".imageUrl" => "[media]",
        ".images[]" => "[media]",
        ".thumbnails[]" => "[media]",
    });
}

async fn the_export_keeps_its_shape(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("export-shape@example.com").named("Export Shape").with_photo_analysis().sign_up().await;
    let res = me.get("/_api/account/export").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let export: Value = res.json();
    assert_json_snapshot!("export", export, {
        ".exportedAt" => "[date]",
        ".profile.id" => "[id]",
        ".profile.createdAt" => "[date]",
        ".sessions[].signedInAt" => "[date]",
        ".sessions[].lastSeenAt" => "[date]",
        ".creditHistory[].id" => "[id]",
        ".creditHistory[].createdAt" => "[date]",
        ".analyses[].id" => "[id]",
        ".analyses[].createdAt" => "[date]",
        ".analyses[].inputData" => "[media]",
        ".analyses[].imageUrl" => "[media]",
        ".analyses[].thumbnailUrl" => "[media]",
        ".analyses[].result.analysisId" => "[id]",
        ".analyses[].result.createdAt" => "[date]",
        ".analyses[].result.imageUrl" => "[media]",
        ".analyses[].result.thumbnailUrl" => "[media]",
    });
}

async fn the_admin_summary_keeps_its_shape(db: TestDb) {
    let app = TestApp::start(db).await;
    let admin = app.user("summary-shape@example.com").admin().sign_up().await;
    let product = first_product(&app);
    let click = json!({"productId": product, "sessionId": "tab-1"});
    let person = app
        .browser("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36");
    assert_eq!(person.post("/_api/track-click", click).await.status, StatusCode::OK);
    let summary = admin.get("/_api/analytics/summary?period=7d").await;
    assert_eq!(summary.status, StatusCode::OK, "{}", summary.text);
    assert_json_snapshot!("admin_summary", summary.json());
}

/// The catalogue's cheapest monitor (seeded by the migrations).
fn first_product(app: &TestApp) -> i64 {
    use diesel::prelude::*;
    use setupiq_db::schema::products;
    products::table
        .filter(products::product_category.eq("Monitor"))
        .order(products::price_cents)
        .select(products::id)
        .first(&mut *app.db.conn())
        .unwrap()
}
