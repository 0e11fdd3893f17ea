//! Sharing an analysis over real HTTP on both databases: only its owner shares it, at an
//! unguessable URL (never the database id) whose page is rendered by the server with the
//! preview tags a chat app reads, and whose card is a 1200x630 PNG; revoking ends both,
//! and sharing again makes a new link.
//!
//! The photo test reads the shared calibration photos (`SETUPIQ_EVAL_PHOTOS`) and says so
//! when it is skipped.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use base64::Engine as _;
use reqwest::StatusCode;
use serde_json::json;
use setupiq_test_utils::{TestApp, TestClient, TestDb, both_backends_async};

const DESCRIPTION: &str = "A clean white desk with a 27 inch 165Hz IPS monitor on a monitor arm, RGB light \
    strips behind the monitor, cables hidden in a cable tray and a Herman Miller chair.";

both_backends_async!(
    an_owner_shares_an_analysis_with_a_preview_and_revokes_it,
    a_shared_photo_has_a_card_with_the_photo_on_it,
    optional_notes_need_twenty_characters,
    a_shared_re_rating_shows_before_and_after,
);

/// The body of a GET as bytes, with its status and content type.
async fn fetch(client: &TestClient, url: &str) -> (StatusCode, Option<String>, Vec<u8>) {
    let res = client.http.get(url).send().await.unwrap();
    let status = res.status();
    let kind = res.headers().get("content-type").and_then(|v| v.to_str().ok()).map(str::to_owned);
    (status, kind, res.bytes().await.unwrap().to_vec())
}

async fn an_owner_shares_an_analysis_with_a_preview_and_revokes_it(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("sharer@example.com").sign_up().await;
    let result = me.post("/_api/analyze-setup", json!({"type": "text", "value": DESCRIPTION})).await.json();
    let id = result["analysisId"].as_i64().unwrap();
    let saved = me.get(&format!("/_api/analyses/{id}")).await.json();
    assert!(saved["sharePath"].is_null(), "not shared until the owner asks");

    // Only the owner can share; nobody signed out.
    let other = app.user("other@example.com").sign_up().await;
    assert_eq!(
        other.post(&format!("/_api/analyses/{id}/share"), json!({})).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.client().post(&format!("/_api/analyses/{id}/share"), json!({})).await.status,
        StatusCode::UNAUTHORIZED
    );

    let shared = me.post(&format!("/_api/analyses/{id}/share"), json!({})).await;
    assert_eq!(shared.status, StatusCode::OK, "{}", shared.text);
    let url = shared.json()["url"].as_str().unwrap().to_owned();
    let token = url.rsplit('/').next().unwrap().to_owned();
    // 256 random bits, URL-safe base64: not the id, not guessable.
    assert_eq!(token.len(), 43, "{token}");
    assert!(token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{token}");
    // Sharing again is the same link.
    assert_eq!(me.post(&format!("/_api/analyses/{id}/share"), json!({})).await.json()["url"], url.as_str());
    assert_eq!(me.get(&format!("/_api/analyses/{id}")).await.json()["sharePath"], format!("/share/{token}"));

    // Signed out, the page is there with its preview tags, every text escaped.
    let visitor = app.client();
    let page = visitor.get(&format!("/share/{token}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    let score = format!("{:.1}", result["overallScore"].as_f64().unwrap());
    let title = format!("<title>{score}/10 · {} · SetupIQ</title>", result["category"].as_str().unwrap());
    assert!(page.text.contains(&title), "{}", page.text);
    for tag in ["og:title", "og:description", "og:image", "twitter:card", "twitter:image"] {
        assert!(page.text.contains(tag), "{tag} in {}", page.text);
    }
    assert!(page.text.contains(&format!("/share/{token}/card.png")));
    assert!(page.text.contains("Cable Management") && page.text.contains("Rate your own setup"));

    let (status, kind, png) = fetch(&visitor, &visitor.url(&format!("/share/{token}/card.png"))).await;
    assert_eq!((status, kind.as_deref()), (StatusCode::OK, Some("image/png")));
    let card = image::load_from_memory(&png).unwrap();
    assert_eq!((card.width(), card.height()), (1200, 630));

    // The same result as coaching and as a roast: the same scores, other words, each with
    // its own card.
    let voices = &saved["result"]["voices"];
    for voice in ["roast", "coach"] {
        assert_eq!(voices[voice]["comments"].as_array().unwrap().len(), 6, "{voices}");
        let page = visitor.get(&format!("/share/{token}?voice={voice}")).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.text.contains(&title), "same score and kind in every voice");
        let summary = voices[voice]["summary"].as_str().unwrap();
        assert!(
            page.text.contains(&summary.replace('\'', "&#39;")) || page.text.contains(summary),
            "{summary}"
        );
        assert!(page.text.contains(&format!("/share/{token}/card.png?voice={voice}")), "its own card");
        let (status, _, voiced_png) =
            fetch(&visitor, &visitor.url(&format!("/share/{token}/card.png?voice={voice}"))).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(image::load_from_memory(&voiced_png).unwrap().width(), 1200);
        assert_ne!(voiced_png, png, "the {voice} card shows its line");
    }
    let coached = visitor.get(&format!("/share/{token}?voice=coach")).await.text;
    assert!(coached.contains("Next step:") || coached.contains("Keep it:"), "{coached}");

    // Revoked: the page and the card are gone; only the owner can revoke.
    let unshare = format!("/_api/analyses/{id}/unshare");
    assert_eq!(other.post(&unshare, json!({})).await.status, StatusCode::NOT_FOUND);
    let revoked = me.post(&unshare, json!({})).await;
    assert_eq!(revoked.status, StatusCode::NO_CONTENT);
    // A person follows a dead link: the app's page in HTML saying so, with the way home, not
    // the API's JSON.
    let gone = visitor.get(&format!("/share/{token}")).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert!(gone.headers["content-type"].to_str().unwrap().starts_with("text/html"), "{:?}", gone.headers);
    assert!(gone.text.contains("removed by the person who shared it, or it never existed"), "{}", gone.text);
    assert!(
        gone.text.contains(r#"<a href="/">Go Home</a>"#) && !gone.text.contains("\"error\""),
        "{}",
        gone.text
    );
    assert_eq!(
        fetch(&visitor, &visitor.url(&format!("/share/{token}/card.png"))).await.0,
        StatusCode::NOT_FOUND
    );
    assert!(me.get(&format!("/_api/analyses/{id}")).await.json()["sharePath"].is_null());
    // Sharing again makes a new link; the old one stays dead.
    let again = me.post(&format!("/_api/analyses/{id}/share"), json!({})).await.json();
    assert_ne!(again["url"], url.as_str());
    assert_eq!(visitor.get(&format!("/share/{token}")).await.status, StatusCode::NOT_FOUND);
    let unknown = visitor.get("/share/not-a-token").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(unknown.text.contains("This shared setup is gone"), "{}", unknown.text);
}

async fn a_shared_photo_has_a_card_with_the_photo_on_it(db: TestDb) {
    let Some(dir) = setupiq_test_utils::eval_photos("share a photo analysis") else { return };
    let bytes = std::fs::read(dir.join("setup05_rgb_dark_dual.jpg")).unwrap();
    let data_url =
        format!("data:image/jpeg;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes));
    let app = TestApp::start(db).await;
    let me = app.user("photo-sharer@example.com").sign_up().await;
    let result = me.post("/_api/analyze-setup", json!({"type": "image", "value": data_url})).await;
    assert_eq!(result.status, StatusCode::OK, "{}", result.text);
    let id = result.json()["analysisId"].as_i64().unwrap();
    let shared = me.post(&format!("/_api/analyses/{id}/share"), json!({})).await.json();
    let visitor = app.client();
    // The answer's URLs are on the configured public origin; this server listens elsewhere.
    let token = shared["url"].as_str().unwrap().rsplit('/').next().unwrap();
    assert!(shared["imageUrl"].as_str().unwrap().ends_with(&format!("/share/{token}/card.png")));
    let page = visitor.get(&format!("/share/{token}")).await;
    assert!(page.text.contains(r#"alt="The rated setup""#), "the page shows the photo");
    let (status, _, png) = fetch(&visitor, &visitor.url(&format!("/share/{token}/card.png"))).await;
    assert_eq!(status, StatusCode::OK);
    let card = image::load_from_memory(&png).unwrap().to_rgb8();
    assert_eq!(card.dimensions(), (1200, 630));
    // The left part is the photo (a dark room lit pink), not the card's plain background.
    let left: Vec<_> = (0..560).step_by(7).flat_map(|x| (0..630).step_by(7).map(move |y| (x, y))).collect();
    let distinct: std::collections::HashSet<_> = left.iter().map(|&(x, y)| card.get_pixel(x, y).0).collect();
    assert!(distinct.len() > 500, "{} colours on the photo side", distinct.len());
}

async fn optional_notes_need_twenty_characters(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("notes@example.com").sign_up().await;
    let short = me
        .post(
            "/_api/analyze-setup",
            json!({"type": "image", "value": "data:image/png;base64,AAAA", "description": "my rig"}),
        )
        .await;
    assert_eq!(short.status, StatusCode::BAD_REQUEST, "{}", short.text);
    assert!(short.text.contains("Please describe your setup in at least 20 characters."), "{}", short.text);
    assert_eq!(app.balance(me.id), 3);
}

/// A re-rating shared: its page and card say where the score came from ("5.2 → 7.8") and
/// tell the change; once the analysis it re-rated is deleted, the numbers stay.
async fn a_shared_re_rating_shows_before_and_after(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("rerated@example.com").sign_up().await;
    let messy = "Cables everywhere under the desk, old pizza boxes and energy drink cans next to a small \
        22 inch monitor and a wobbly office chair.";
    let before = me.post("/_api/analyze-setup", json!({"type": "text", "value": messy})).await.json();
    let after = me
        .post(
            "/_api/analyze-setup",
            json!({"type": "text", "value": DESCRIPTION, "previousAnalysisId": before["analysisId"]}),
        )
        .await
        .json();
    let id = after["analysisId"].as_i64().unwrap();
    let url = me.post(&format!("/_api/analyses/{id}/share"), json!({})).await.json()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = url.split_once("/share/").map(|(_, token)| format!("/share/{token}")).unwrap();

    let visitor = app.client();
    let page = visitor.get(&path).await;
    assert_eq!(page.status, StatusCode::OK);
    let (from, to) = (before["overallScore"].as_f64().unwrap(), after["overallScore"].as_f64().unwrap());
    let change = format!("{from:.1} \u{2192} {to:.1}");
    let title = format!("<title>{change} · {} · SetupIQ</title>", after["category"].as_str().unwrap());
    assert!(page.text.contains(&title), "{}", page.text);
    assert!(page.text.contains(&format!(r#"<span class="big">{change}</span>"#)), "{}", page.text);
    assert!(page.text.contains(&format!("+{:.1}", after["progress"]["overallDelta"].as_f64().unwrap())));
    let honest = after["progress"]["lines"]["honest"].as_str().unwrap();
    assert!(page.text.contains(&maud_escaped(honest)), "{honest} in {}", page.text);
    let roast = visitor.get(&format!("{path}?voice=roast")).await.text;
    assert!(roast.contains(&maud_escaped(after["progress"]["lines"]["roast"].as_str().unwrap())));
    let (status, kind, png) = fetch(&visitor, &visitor.url(&format!("{path}/card.png"))).await;
    assert_eq!((status, kind.as_deref()), (StatusCode::OK, Some("image/png")));
    let card = image::load_from_memory(&png).unwrap();
    assert_eq!((card.width(), card.height()), (1200, 630));

    // The analysis it re-rated is deleted: the page keeps the numbers.
    let first = before["analysisId"].as_i64().unwrap();
    assert_eq!(
        me.post(&format!("/_api/analyses/{first}/delete"), json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    assert!(visitor.get(&path).await.text.contains(&format!(r#"<span class="big">{change}</span>"#)));
}

/// `text` as the share page writes it (maud escapes `&`, `<`, `>`, `"`).
fn maud_escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
