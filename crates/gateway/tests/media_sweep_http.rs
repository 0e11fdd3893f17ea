//! The media sweep ([`setupiq_gateway::media_sweep`]) over what the app really stores, on
//! the local disk and in an S3-compatible bucket (moto's server), on both backends: a
//! profile picture, an analysis's photo and thumbnail, a post's photos and thumbnails and a
//! RigPage upload the editor has not saved yet all stay; objects no row names stay while
//! they are recent (a publish in flight) and go once past the grace period.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::json;
use setupiq_core::media::{MediaKey, MediaKind};
use setupiq_core::media_sweep::Swept;
use setupiq_gateway::media_sweep;
use setupiq_test_utils::{S3StandIn, TestApp, TestDb, both_backends_async, fixtures};

both_backends_async!(
    on_disk_only_old_media_no_row_names_is_swept,
    in_the_bucket_only_old_media_no_row_names_is_swept
);

/// Every name in the app's media store.
async fn stored(app: &TestApp) -> BTreeSet<String> {
    app.state().media.list().await.unwrap().iter().map(|o| o.name().to_owned()).collect()
}

/// What each crate that writes media keeps, through the API: a profile picture, a photo
/// analysis (its photo and thumbnail), a post with two photos of its own beside the
/// analysis's, and a RigPage upload not saved into the page yet.
async fn store_named_media(app: &TestApp) {
    let me = app.user("named@example.com").verified().with_photo_analysis().sign_up().await;
    let analysis = &me.get("/_api/my-analyses").await.json()["analyses"][0];
    for url in [&analysis["inputData"], &analysis["thumbnailUrl"]] {
        let key = MediaKey::from_url(url.as_str().unwrap()).unwrap();
        app.state().media.put(&key, vec![7; 64]).await.unwrap();
    }
    let avatar =
        me.post("/_api/auth/upload-profile-picture", json!({"imageData": fixtures::jpeg_data_url(10)})).await;
    assert_eq!(avatar.status, StatusCode::OK, "{}", avatar.text);
    let photo = analysis["inputData"].as_str().unwrap();
    let post = json!({"analysisId": me.analysis_ids[0], "images": [photo, fixtures::jpeg_data_url(20), fixtures::jpeg_data_url(30)]});
    let published = me.post("/_api/community/setup", post).await;
    assert_eq!(published.status, StatusCode::OK, "{}", published.text);
    let upload = me
        .post("/_api/rigpage/images", json!({"kind": "avatar", "imageData": fixtures::jpeg_data_url(40)}))
        .await;
    assert_eq!(upload.status, StatusCode::OK, "{}", upload.text);
}

/// Writes an object no row names in each folder, as a process killed mid-upload leaves them;
/// returns their bytes in all.
async fn leave_orphans(app: &TestApp) -> u64 {
    let folders = ["avatars", "analyses", "analysis_thumbs", "community", "community_thumbs", "rigpage"];
    for (i, folder) in folders.iter().enumerate() {
        let key = MediaKey::generate(folder, MediaKind::Jpeg);
        app.state().media.put(&key, vec![1; 100 + i]).await.unwrap();
    }
    (100..106).sum()
}

/// The named media and the orphans are stored; a sweep now keeps everything, a sweep two
/// hours later removes exactly the orphans.
async fn sweep_keeps_named_and_recent_media(app: &TestApp) {
    store_named_media(app).await;
    let named = stored(app).await;
    let folders: BTreeSet<&str> = named.iter().map(|n| n.split_once('/').unwrap().0).collect();
    assert_eq!(
        folders,
        BTreeSet::from([
            "analyses",
            "analysis_thumbs",
            "avatars",
            "community",
            "community_thumbs",
            "rigpage"
        ]),
        "every crate that writes media stored some"
    );
    assert_eq!(named.len(), 8, "{named:?}");
    let orphan_bytes = leave_orphans(app).await;

    let now = media_sweep::sweep(app.state(), Utc::now()).await.unwrap();
    assert_eq!(now, Swept { listed: 14, removed: 0, bytes: 0, failed: 0 }, "recent: possibly in flight");

    let later = media_sweep::sweep(app.state(), Utc::now() + Duration::hours(2)).await.unwrap();
    assert_eq!(later, Swept { listed: 14, removed: 6, bytes: orphan_bytes, failed: 0 });
    assert_eq!(stored(app).await, named, "every named object stays, every orphan went");
}

async fn on_disk_only_old_media_no_row_names_is_swept(db: TestDb) {
    let app = TestApp::start(db).await;
    sweep_keeps_named_and_recent_media(&app).await;
    assert_eq!(app.media_files().len(), 8, "on the disk");
}

async fn in_the_bucket_only_old_media_no_row_names_is_swept(db: TestDb) {
    let Some(s3) = S3StandIn::start().await else { return };
    let vars = s3.vars();
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let app = TestApp::start_with(db, &vars).await;
    sweep_keeps_named_and_recent_media(&app).await;
    assert_eq!(s3.keys().await.len(), 8, "in the bucket");
    assert!(app.media_files().is_empty(), "nothing on the local disk");
}
