//! The one upload path over real HTTP on both databases: every upload endpoint (analysis,
//! community posts, RigPage images, the profile picture) refuses a 12000x12000 PNG and a
//! WebP decompression bomb from their headers, with a message naming the picture's size;
//! one account holds one photo analysis at a time and only with its credit; one account
//! flooding the image work does not stop another user's analysis; request bodies beyond
//! the in-flight budget are answered 503 with `Retry-After`; uploads beyond the pixel
//! budget wait their turn and go through.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use base64::Engine as _;
use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_test_utils::{TestApp, TestDb, TestResponse, both_backends_async, fixtures};

both_backends_async!(
    every_upload_endpoint_refuses_bombs_from_their_headers,
    parallel_photo_analyses_on_one_credit_process_one,
    another_users_analysis_is_answered_while_one_account_floods,
    a_body_beyond_the_budget_is_refused_with_retry_after,
    parallel_uploads_beyond_the_pixel_budget_all_go_through,
);

fn bombs() -> [(&'static str, String); 2] {
    [
        ("PNG", fixtures::data_url("image/png", &fixtures::png_header(12_000, 12_000))),
        ("WebP", fixtures::data_url("image/webp", &fixtures::webp_bomb(12_000, 12_000))),
    ]
}

/// A noisy picture (it compresses badly and takes real work to decode) as a PNG data URL.
fn noisy_png(width: u32, height: u32) -> String {
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        let v = x.wrapping_mul(2_654_435_761).wrapping_add(y.wrapping_mul(40_503)) >> 7;
        image::Rgb([v as u8, (v >> 8) as u8, (v >> 16) as u8])
    });
    let mut bytes = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    fixtures::data_url("image/png", &bytes)
}

/// A 12 MP picture that compresses well: a small file that takes real work to decode.
fn gradient_png(width: u32, height: u32) -> String {
    let image =
        image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x / 16) as u8, (y / 12) as u8, 90]));
    let mut bytes = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    fixtures::data_url("image/png", &bytes)
}

fn statuses(responses: &[TestResponse]) -> Vec<u16> {
    responses.iter().map(|r| r.status.as_u16()).collect()
}

const TOO_BIG: &str = "This picture is 12000x12000 pixels; the largest we take is 40 megapixels, at most 10000 pixels on a side.";

async fn every_upload_endpoint_refuses_bombs_from_their_headers(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("bombs@example.com").credits(5).with_analysis().sign_up().await;
    let analysis_id = me.analysis_ids[0];
    let visitor = app.client();
    for (what, bomb) in bombs() {
        let requests: [(&str, &str, Value); 4] = [
            ("analysis", "/_api/analyze-setup", json!({"type": "image", "value": bomb})),
            ("community", "/_api/community/setup", json!({"analysisId": analysis_id, "images": [bomb]})),
            ("rigpage", "/_api/rigpage/images", json!({"kind": "background", "imageData": bomb})),
            ("anonymous analysis", "/_api/analyze-setup", json!({"type": "image", "value": bomb})),
        ];
        for (endpoint, path, body) in requests {
            let client = if endpoint.starts_with("anonymous") { &visitor } else { &me.client };
            let res = client.post(path, body).await;
            assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE, "{what} to {endpoint}: {}", res.text);
            assert_eq!(res.error(), TOO_BIG, "{what} to {endpoint}");
        }
    }
    // The profile picture takes PNG and JPEG only: the PNG bomb by its size, the WebP one
    // by its format, neither decoded.
    let [(_, png), (_, webp)] = bombs();
    let res = me.post("/_api/auth/upload-profile-picture", json!({"imageData": png})).await;
    assert_eq!((res.status, res.error()), (StatusCode::PAYLOAD_TOO_LARGE, TOO_BIG.to_owned()));
    let res = me.post("/_api/auth/upload-profile-picture", json!({"imageData": webp})).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text);
    // Nothing charged, stored or held.
    assert_eq!(app.balance(me.id), 5);
    assert!(app.media_files().is_empty(), "{:?}", app.media_files());
    assert_eq!(app.state().uploads.queue().in_flight(), 0);
    let text = me.post("/_api/analyze-setup", json!({"type": "text", "value": TIDY})).await;
    assert_eq!(text.status, StatusCode::OK, "{}", text.text);
}

const TIDY: &str = "A clean white desk with a 27 inch 165Hz IPS monitor on a monitor arm, a mechanical \
    keyboard, RGB light strips behind the monitor, cables hidden in a cable tray and a Herman Miller chair.";

async fn parallel_photo_analyses_on_one_credit_process_one(db: TestDb) {
    let Some(dir) = setupiq_test_utils::eval_photos("parallel photo analyses on one credit") else { return };
    let bytes = std::fs::read(dir.join("setup01_tidy_monitor_laptop.jpg")).unwrap();
    let photo = format!("data:image/jpeg;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes));
    let app = TestApp::start(db).await;
    let me = app.user("one-credit@example.com").credits(1).sign_up().await;
    let responses = join_all(
        (0..12).map(|_| me.post("/_api/analyze-setup", json!({"type": "image", "value": photo.clone()}))),
    )
    .await;
    let delivered = responses.iter().filter(|r| r.status == StatusCode::OK).count();
    // The others are refused at once: the one running holds the account (409), or it has
    // finished and took the credit (402).
    let running = responses.iter().filter(|r| r.status == StatusCode::CONFLICT).count();
    let broke = responses.iter().filter(|r| r.status == StatusCode::PAYMENT_REQUIRED).count();
    assert_eq!((delivered, running + broke), (1, 11), "{:?}", statuses(&responses));
    let conflict = responses.iter().find(|r| r.status == StatusCode::CONFLICT).unwrap();
    assert!(conflict.error().contains("already running"), "{}", conflict.error());
    assert_eq!(app.balance(me.id), 0);
    app.assert_ledger_consistent(me.id);
    // No credit: 402 before the photo is looked at.
    let res = me.post("/_api/analyze-setup", json!({"type": "image", "value": photo})).await;
    assert_eq!(res.status, StatusCode::PAYMENT_REQUIRED, "{}", res.text);
    assert_eq!(app.state().uploads.queue().in_flight(), 0);
}

async fn another_users_analysis_is_answered_while_one_account_floods(db: TestDb) {
    let app = TestApp::start(db).await;
    let flooder = app.user("flood@example.com").credits(50).with_analysis().sign_up().await;
    let other = app.user("patient@example.com").sign_up().await;
    let heavy = gradient_png(4000, 3000);
    let flood = async {
        let uploads = (0..12).map(|_| {
            flooder.post("/_api/rigpage/images", json!({"kind": "background", "imageData": heavy.clone()}))
        });
        let analyses = (0..6)
            .map(|_| flooder.post("/_api/analyze-setup", json!({"type": "image", "value": heavy.clone()})));
        let (mut uploads, analyses) = futures_util::join!(join_all(uploads), join_all(analyses));
        uploads.extend(analyses);
        uploads
    };
    let patient = async {
        // Let the flood arrive first.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let started = std::time::Instant::now();
        let res = other.post("/_api/analyze-setup", json!({"type": "text", "value": TIDY})).await;
        (res, started.elapsed())
    };
    let (flooded, (answer, took)) = futures_util::join!(flood, patient);
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    // Generous: the point is that it is not stuck behind the flood (46 s before).
    assert!(took < Duration::from_secs(20), "the other user's analysis took {took:?}");
    let refused = flooded
        .iter()
        .filter(|r| matches!(r.status.as_u16(), 409 | 429 | 503))
        .inspect(|r| assert!(r.header("retry-after").is_some() || r.status == StatusCode::CONFLICT))
        .count();
    assert!(refused >= 10, "one account may not fill the queue: {:?}", statuses(&flooded));
    assert_eq!(app.state().uploads.queue().in_flight(), 0);
}

async fn a_body_beyond_the_budget_is_refused_with_retry_after(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_BODY_BUDGET_MB", "1")]).await;
    let me = app.user("budget@example.com").credits(2).sign_up().await;
    let big = noisy_png(800, 600);
    assert!(big.len() > 1024 * 1024, "{}", big.len());
    let res = me.post("/_api/analyze-setup", json!({"type": "image", "value": big})).await;
    assert_eq!(res.status, StatusCode::SERVICE_UNAVAILABLE, "{}", res.text);
    assert!(res.header("retry-after").is_some());
    assert!(res.error().contains("too many uploads"), "{}", res.error());
    assert_eq!(app.state().bodies.in_use(), 0, "given back");
    // Small bodies are not counted: normal requests are answered.
    let text = me.post("/_api/analyze-setup", json!({"type": "text", "value": TIDY})).await;
    assert_eq!(text.status, StatusCode::OK, "{}", text.text);
}

async fn parallel_uploads_beyond_the_pixel_budget_all_go_through(db: TestDb) {
    // 1 megapixel in all: each 2 MP picture holds the whole budget, so they decode one at a
    // time and the others wait instead of being refused.
    let app = TestApp::start_with(db, &[("SETUPIQ_PIXEL_BUDGET_MP", "1")]).await;
    let first = app.user("pixels1@example.com").sign_up().await;
    let second = app.user("pixels2@example.com").sign_up().await;
    let picture = gradient_png(1600, 1200);
    let uploads = [&first, &second].into_iter().flat_map(|member| {
        [
            member.post("/_api/rigpage/images", json!({"kind": "background", "imageData": picture.clone()})),
            member.post("/_api/auth/upload-profile-picture", json!({"imageData": picture.clone()})),
        ]
    });
    let responses = join_all(uploads).await;
    assert_eq!(statuses(&responses), [200; 4], "{:?}", responses.iter().map(|r| &r.text).collect::<Vec<_>>());
    assert_eq!(app.media_files().len(), 4, "{:?}", app.media_files());
    let pixels = &app.state().uploads.pixels();
    assert_eq!((pixels.available(), pixels.total()), (1, 1), "every megapixel given back");
    assert_eq!(app.state().uploads.queue().in_flight(), 0);
}
