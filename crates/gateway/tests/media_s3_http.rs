//! Media on an S3-compatible store (`SETUPIQ_OBJECT_STORE_URL=s3://bucket` with the `AWS_*`
//! variables), over real HTTP against moto's S3 server on a loopback port: uploads land in
//! the bucket and are served from it at their `/media/…` URLs with their type and
//! `nosniff`, replaced and deleted uploads leave the bucket, and a store that is down
//! fails an upload cleanly (503, nothing half-written) without taking the rest down.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::StatusCode;
use serde_json::json;
use setupiq_test_utils::bench::data_url;
use setupiq_test_utils::{S3StandIn, TestApp, TestDb, both_backends_async};

both_backends_async!(
    uploads_live_in_the_bucket_and_are_served_from_it,
    a_store_that_is_down_fails_uploads_cleanly
);

fn jpeg(shade: u8) -> String {
    let image =
        image::RgbImage::from_fn(240, 180, |x, y| image::Rgb([shade, (x % 256) as u8, (y % 256) as u8]));
    let mut bytes = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Jpeg).unwrap();
    data_url(&bytes)
}

async fn start(db: TestDb, s3: &S3StandIn) -> TestApp {
    let vars = s3.vars();
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    TestApp::start_with(db, &vars).await
}

async fn uploads_live_in_the_bucket_and_are_served_from_it(db: TestDb) {
    let Some(s3) = S3StandIn::start().await else { return };
    let app = start(db, &s3).await;
    let me = app.user("bucket@example.com").sign_up().await;

    let first = me.post("/_api/auth/upload-profile-picture", json!({"imageData": jpeg(10)})).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let url = first.json()["user"]["profilePicture"].as_str().unwrap().to_owned();
    let key = url.strip_prefix("/media/").unwrap().to_owned();
    assert_eq!(s3.keys().await, vec![key.clone()], "in the bucket, under its key");
    assert!(app.media_files().is_empty(), "nothing on the local disk");

    let served = app.client().http.get(app.client().url(&url)).send().await.unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.headers()["content-type"], "image/jpeg");
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    let bytes = served.bytes().await.unwrap();
    assert_eq!(image::load_from_memory(&bytes).unwrap().width(), 240, "the photo itself");
    assert_eq!(app.client().get("/media/avatars/0000000000000000.jpg").await.status, StatusCode::NOT_FOUND);

    // A new picture replaces the old one in the bucket; a deleted account takes it along.
    let second = me.post("/_api/auth/upload-profile-picture", json!({"imageData": jpeg(200)})).await;
    let new_url = second.json()["user"]["profilePicture"].as_str().unwrap().to_owned();
    assert_eq!(s3.keys().await, vec![new_url.strip_prefix("/media/").unwrap().to_owned()]);
    assert_eq!(app.client().get(&url).await.status, StatusCode::NOT_FOUND);
    assert_eq!(me.delete_account().await.status, StatusCode::OK);
    assert!(s3.keys().await.is_empty(), "the bucket is empty again");
}

async fn a_store_that_is_down_fails_uploads_cleanly(db: TestDb) {
    let Some(mut s3) = S3StandIn::start().await else { return };
    let app = start(db, &s3).await;
    let me = app.user("store-down@example.com").sign_up().await;
    s3.stop();

    let upload = me.post("/_api/auth/upload-profile-picture", json!({"imageData": jpeg(30)})).await;
    assert_eq!(upload.status, StatusCode::SERVICE_UNAVAILABLE, "{}", upload.text);
    assert!(upload.header("retry-after").is_some(), "told to try again later");
    let session = me.get("/_api/auth/session").await;
    assert_eq!(session.status, StatusCode::OK, "the rest of the service works");
    assert!(session.json()["user"]["profilePicture"].is_null(), "no row points at a missing object");
}
