//! Analysis over real HTTP on both databases: validation, the credit taken with the saved
//! result (never below zero, exactly once under concurrency), Pro users, the anonymous
//! trial, history with its owner rule, and photos through the embedded models (stored,
//! served without metadata, deleted with the account; non-setups refused for free).
//!
//! The photo tests read the shared calibration photos (`SETUPIQ_EVAL_PHOTOS`) and say so
//! when they are skipped.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use base64::Engine as _;
use diesel::prelude::*;
use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_core::{Clock, UserId};
use setupiq_db::schema::{analyses, analysis_trials};
use setupiq_test_utils::fixtures::PASSWORD;
use setupiq_test_utils::{OpenAiBehaviour, OpenAiStandIn, TestApp, TestClient, TestDb, both_backends_async};

const TIDY: &str = "A clean white desk with a 27 inch 165Hz IPS monitor on a monitor arm, a mechanical \
    keyboard, RGB light strips behind the monitor, cables hidden in a cable tray and a Herman Miller chair.";

fn saved_count(app: &TestApp, user_id: UserId) -> i64 {
    analyses::table.filter(analyses::user_id.eq(user_id)).count().get_result(&mut app.db.conn()).unwrap()
}

async fn analyze_text(client: &TestClient, text: &str) -> setupiq_test_utils::TestResponse {
    client.post("/_api/analyze-setup", json!({"type": "text", "value": text})).await
}

fn assert_complete(result: &Value) {
    let score = result["overallScore"].as_f64().unwrap();
    assert!((0.0..=10.0).contains(&score), "{score}");
    let ratings = result["categoryRatings"].as_array().unwrap();
    let names: Vec<_> = ratings.iter().map(|r| r["category"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "Cable Management",
            "RGB/Lighting",
            "Desk Cleanliness",
            "Monitor Setup",
            "Chair & Comfort",
            "Aesthetic Vibe"
        ]
    );
    for rating in ratings {
        assert!(!rating["comment"].as_str().unwrap().is_empty());
        if rating["score"].is_null() {
            // Unseen: only the chair or the screens, without a percentile.
            assert!(["Monitor Setup", "Chair & Comfort"].contains(&rating["category"].as_str().unwrap()));
            assert_eq!(rating["percentile"], Value::Null);
            continue;
        }
        // 1 to 10 in half points: 7 is written as an integer, 6.5 with its half.
        let score = rating["score"].as_f64().unwrap();
        assert!((1.0..=10.0).contains(&score) && (score * 2.0).fract() == 0.0, "{score}");
        assert_eq!(rating["score"].is_u64(), score.fract() == 0.0, "{score}");
        assert!(rating["percentile"].as_str().unwrap().contains('%'));
    }
    assert!(!result["summary"].as_str().unwrap().is_empty());
    for suggestion in result["suggestions"].as_array().unwrap() {
        let product = &suggestion["productRecommendation"];
        assert!(product["productId"].as_i64().unwrap() > 0);
        assert!(product["price"].as_str().unwrap().starts_with('$'));
        assert!(product["link"].as_str().unwrap().starts_with("https://"));
        for tier in ["budget", "balanced", "premium"] {
            assert_eq!(suggestion["tiers"][tier]["tier"], tier);
        }
    }
}

/// A shared calibration photo as a data URL, or `None` (with a message) when absent.
fn photo(name: &str) -> Option<String> {
    let dir = setupiq_test_utils::eval_photos(&format!("analyze {name} over HTTP"))?;
    let bytes = std::fs::read(dir.join(name)).unwrap();
    Some(format!("data:image/jpeg;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes)))
}

both_backends_async!(
    a_signed_in_text_analysis_is_saved_and_costs_one_credit,
    history_is_newest_first_and_private,
    invalid_requests_get_the_spec_messages_and_cost_nothing,
    an_oversized_photo_is_refused_before_decoding,
    without_credits_the_answer_is_402_and_nothing_is_saved,
    ten_parallel_analyses_on_three_credits_deliver_exactly_three,
    pro_users_are_not_charged,
    an_anonymous_visitor_gets_one_free_analysis_that_is_not_saved_to_any_account,
    a_visitors_free_result_is_saved_to_the_account_they_sign_up_to_and_shared,
    a_visitors_free_result_is_saved_to_the_account_they_sign_in_to,
    a_free_result_kept_too_long_is_not_saved_and_goes_with_its_photo,
    a_visitors_photo_is_kept_for_their_account_and_not_swept,
    parallel_free_analyses_of_one_browser_deliver_one,
    free_analyses_are_capped_per_ip_and_day,
    a_photo_is_rated_stored_without_metadata_and_deleted_with_the_account,
    a_photo_that_is_not_a_setup_is_refused_for_free,
    a_category_the_input_does_not_show_is_null_and_left_out_of_the_overall,
    an_analysis_saved_before_unseen_categories_still_reads,
    an_analysis_saved_in_whole_points_reads_and_renders_unchanged,
    a_half_point_analysis_reads_and_shares_as_6_5_out_of_10,
    a_re_rating_carries_its_progress_and_links_the_chain,
    only_ones_own_analysis_can_be_re_rated_and_a_refusal_links_nothing,
);

/// TIDY without its chair.
const NO_CHAIR: &str = "A clean white desk with a 27 inch 165Hz IPS monitor on a monitor arm, a mechanical \
    keyboard, RGB light strips behind the monitor and cables hidden in a cable tray.";

/// The weighted mean of the category scores that are not null (the weights of spec'd
/// categories: Monitor, Desk, Aesthetic 20 %, Cables and RGB 15 %, Chair 10 %), one decimal.
fn mean_of_seen(ratings: &Value) -> f64 {
    let weight = |category: &str| match category {
        "Monitor Setup" | "Desk Cleanliness" | "Aesthetic Vibe" => 0.2,
        "Cable Management" | "RGB/Lighting" => 0.15,
        _ => 0.1,
    };
    let (total, weights) = ratings
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| Some((r["score"].as_f64()?, weight(r["category"].as_str().unwrap()))))
        .fold((0.0, 0.0), |(t, w), (score, weight)| (t + score * weight, w + weight));
    (total / weights * 10.0).round() / 10.0
}

async fn a_category_the_input_does_not_show_is_null_and_left_out_of_the_overall(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("unseen@example.com").sign_up().await;
    let res = analyze_text(&me, NO_CHAIR).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let result = res.json();
    assert_complete(&result);
    let chair = &result["categoryRatings"][4];
    assert_eq!(chair["category"], "Chair & Comfort");
    assert_eq!(chair["score"], Value::Null, "{chair}");
    assert_eq!(chair["percentile"], Value::Null);
    assert!(chair["comment"].as_str().unwrap().contains("doesn't mention a chair"), "{chair}");
    let overall = result["overallScore"].as_f64().unwrap();
    assert_eq!(overall, mean_of_seen(&result["categoryRatings"]));
    // With a chair described, the chair is scored; the other five read the same words and
    // move by at most a point (a described seat says a little about the whole desk).
    let with_chair = analyze_text(&me, TIDY).await.json();
    let others = |r: &Value| {
        r["categoryRatings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["category"] != "Chair & Comfort")
            .map(|c| (c["category"].as_str().unwrap().to_owned(), c["score"].as_f64().unwrap()))
            .collect::<Vec<_>>()
    };
    for ((category, with), (_, without)) in others(&with_chair).into_iter().zip(others(&result)) {
        assert!((with - without).abs() <= 1.0, "{category}: {with} with the chair, {without} without");
    }
    assert!(with_chair["categoryRatings"][4]["score"].as_f64().unwrap() >= 8.0);
    for suggestion in result["suggestions"].as_array().unwrap() {
        assert_ne!(suggestion["category"], "Chair & Comfort", "{suggestion}");
    }
    // No photo is spoken of anywhere in a description's result, voices included.
    let said = serde_json::to_string(&result).unwrap();
    for photo_word in ["photo", "in view", "picture"] {
        assert!(!said.contains(photo_word), "{photo_word:?} in {said}");
    }
    // Saved as delivered: the history reads the same null and overall.
    let saved = &me.get("/_api/my-analyses").await.json()["analyses"][1];
    assert_eq!(saved["result"]["categoryRatings"], result["categoryRatings"]);
    assert_eq!(saved["overallRating"], overall);
}

/// A result stored before unseen categories existed (every score a number, the chair's the
/// neutral 5; no source, no voices) still reads, with its numbers, and is voiced as the
/// description it was.
async fn an_analysis_saved_before_unseen_categories_still_reads(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("old@example.com").sign_up().await;
    let id = analyze_text(&me, TIDY).await.json()["analysisId"].as_i64().unwrap();
    let stored: String =
        analyses::table.find(id).select(analyses::result_json).get_result(&mut app.db.conn()).unwrap();
    let mut old: Value = serde_json::from_str(&stored).unwrap();
    old.as_object_mut().unwrap().remove("voices");
    let assessment = old["assessment"].as_object_mut().unwrap();
    assert_eq!(assessment.remove("source"), Some(json!("description")));
    assessment["categoryRatings"][4] = json!({
        "category": "Chair & Comfort",
        "score": 5,
        "comment": "The description doesn't mention a chair or how you sit, so this gets a middling score.",
        "confidence": "low",
    });
    diesel::update(analyses::table.find(id))
        .set(analyses::result_json.eq(old.to_string()))
        .execute(&mut app.db.conn())
        .unwrap();

    let res = me.get(&format!("/_api/analyses/{id}")).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let result = &res.json()["result"];
    assert_complete(result);
    assert_eq!(result["categoryRatings"][4]["score"], 5);
    assert_eq!(result["categoryRatings"][4]["percentile"], "Top 65%");
    let coach = serde_json::to_string(&result["voices"]["coach"]).unwrap();
    assert!(coach.contains("in the description, so it can be rated"), "{coach}");
    assert!(!coach.contains("photo"), "{coach}");
}

/// Overwrites the stored result of analysis `id` with `scores` (in the page's order), as
/// `json!` writes each number.
fn store_scores(app: &TestApp, id: i64, scores: [Value; 6]) {
    let stored: String =
        analyses::table.find(id).select(analyses::result_json).get_result(&mut app.db.conn()).unwrap();
    let mut row: Value = serde_json::from_str(&stored).unwrap();
    for (rating, score) in row["assessment"]["categoryRatings"].as_array_mut().unwrap().iter_mut().zip(scores)
    {
        rating["score"] = score;
    }
    diesel::update(analyses::table.find(id))
        .set(analyses::result_json.eq(row.to_string()))
        .execute(&mut app.db.conn())
        .unwrap();
}

/// A result stored before half points (every score a JSON integer, as whole points were
/// written) reads with the same integers, percentiles and validity, and its share page shows
/// `7/10`, never `7.0/10`.
async fn an_analysis_saved_in_whole_points_reads_and_renders_unchanged(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("whole@example.com").sign_up().await;
    let id = analyze_text(&me, TIDY).await.json()["analysisId"].as_i64().unwrap();
    store_scores(&app, id, [json!(7), json!(8), json!(9), json!(6), json!(5), json!(4)]);

    let res = me.get(&format!("/_api/analyses/{id}")).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let result = &res.json()["result"];
    assert_complete(result);
    let ratings = result["categoryRatings"].as_array().unwrap();
    let scores: Vec<&Value> = ratings.iter().map(|r| &r["score"]).collect();
    assert_eq!(scores, [&json!(7), &json!(8), &json!(9), &json!(6), &json!(5), &json!(4)]);
    assert!(ratings.iter().all(|r| r["score"].is_u64()), "still integers: {ratings:?}");
    assert_eq!(ratings[0]["percentile"], "Top 30%");
    let history = me.get("/_api/my-analyses").await;
    assert_eq!(history.status, StatusCode::OK, "{}", history.text);

    let url = me.post(&format!("/_api/analyses/{id}/share"), json!({})).await.json()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let token = url.rsplit('/').next().unwrap();
    let page = app.client().get(&format!("/share/{token}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("7/10") && !page.text.contains("7.0/10"), "{}", page.text);
}

/// A half point reads back as it was stored and the share page and its card show it.
async fn a_half_point_analysis_reads_and_shares_as_6_5_out_of_10(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("half@example.com").sign_up().await;
    let id = analyze_text(&me, TIDY).await.json()["analysisId"].as_i64().unwrap();
    store_scores(&app, id, [json!(6.5), json!(7), json!(8.5), json!(6), json!(5), json!(4)]);

    let result = me.get(&format!("/_api/analyses/{id}")).await.json()["result"].clone();
    assert_complete(&result);
    assert_eq!(result["categoryRatings"][0]["score"], json!(6.5));
    assert_eq!(result["categoryRatings"][0]["percentile"], "Top 50%");
    assert_eq!(result["categoryRatings"][1]["score"], json!(7));

    let url = me.post(&format!("/_api/analyses/{id}/share"), json!({})).await.json()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let token = url.rsplit('/').next().unwrap();
    let visitor = app.client();
    let page = visitor.get(&format!("/share/{token}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("6.5/10"), "{}", page.text);
    assert!(page.text.contains("8.5/10"), "{}", page.text);
    let card = visitor.http.get(visitor.url(&format!("/share/{token}/card.png"))).send().await.unwrap();
    assert_eq!(card.status(), StatusCode::OK);
    let png = image::load_from_memory(&card.bytes().await.unwrap()).unwrap();
    assert_eq!((png.width(), png.height()), (1200, 630));
}

async fn a_signed_in_text_analysis_is_saved_and_costs_one_credit(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("text@example.com").sign_up().await;
    let res = analyze_text(&me, TIDY).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let result = res.json();
    assert_complete(&result);
    assert_eq!(result["analyzer"], "local");
    assert_eq!(result["freeTrial"], false);
    assert_eq!(result["creditsRemaining"], 2);
    assert_eq!(app.balance(me.id), 2);
    app.assert_ledger_consistent(me.id);

    let analysis_id = result["analysisId"].as_i64().unwrap();
    let history = me.get("/_api/my-analyses").await.json();
    assert_eq!(history["total"], 1);
    let saved = &history["analyses"][0];
    assert_eq!(saved["id"], analysis_id);
    assert_eq!(saved["inputType"], "text");
    assert_eq!(saved["inputData"], TIDY);
    assert_eq!(saved["overallRating"], result["overallScore"]);
    assert_eq!(saved["result"]["categoryRatings"], result["categoryRatings"]);
    assert_eq!(saved["result"]["suggestions"], result["suggestions"]);

    let one = me.get(&format!("/_api/analyses/{analysis_id}")).await;
    assert_eq!(one.status, StatusCode::OK);
    assert_eq!(one.json()["result"]["summary"], result["summary"]);
}

async fn history_is_newest_first_and_private(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("mine@example.com").sign_up().await;
    let first = analyze_text(&me, TIDY).await.json()["analysisId"].as_i64().unwrap();
    app.clock.advance(chrono::Duration::minutes(5));
    let messy = "Cables everywhere under the desk, old pizza boxes and energy drink cans next to a small 22 inch monitor.";
    let second = analyze_text(&me, messy).await.json()["analysisId"].as_i64().unwrap();
    let ids: Vec<_> = me.get("/_api/my-analyses").await.json()["analyses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [second, first]);
    let paged = me.get("/_api/my-analyses?limit=1&offset=1").await.json();
    assert_eq!((paged["analyses"][0]["id"].as_i64().unwrap(), paged["total"].as_i64().unwrap()), (first, 2));

    let other = app.user("other@example.com").sign_up().await;
    assert_eq!(other.get(&format!("/_api/analyses/{first}")).await.status, StatusCode::NOT_FOUND);
    assert_eq!(other.get("/_api/my-analyses").await.json()["total"], 0);
    let anonymous = app.client();
    assert_eq!(anonymous.get("/_api/my-analyses").await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(anonymous.get(&format!("/_api/analyses/{first}")).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(me.get("/_api/my-analyses?limit=0").await.status, StatusCode::BAD_REQUEST);
}

async fn invalid_requests_get_the_spec_messages_and_cost_nothing(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("invalid@example.com").sign_up().await;
    let short = analyze_text(&me, "  a tiny desk        ").await;
    assert_eq!(short.status, StatusCode::BAD_REQUEST);
    assert_eq!(short.error(), "Please describe your setup in at least 20 characters.");
    assert_eq!(short.json()["issues"][0]["path"], "value");
    let not_image =
        me.post("/_api/analyze-setup", json!({"type": "image", "value": "https://example.com/a.jpg"})).await;
    assert_eq!(not_image.error(), "Invalid image format.");
    let truncated = me
        .post(
            "/_api/analyze-setup",
            json!({"type": "image", "value": "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ"}),
        )
        .await;
    assert_eq!(truncated.status, StatusCode::BAD_REQUEST, "{}", truncated.text);
    let wrong_type = me.post("/_api/analyze-setup", json!({"type": "video", "value": "x"})).await;
    assert_eq!(wrong_type.status, StatusCode::BAD_REQUEST);
    let unrelated = analyze_text(&me, "I like turtles and long walks on the beach at sunset.").await;
    assert_eq!(unrelated.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", unrelated.text);
    assert!(unrelated.error().contains("doesn't mention any desk or gaming gear"));
    assert_eq!((app.balance(me.id), saved_count(&app, me.id)), (3, 0));
}

async fn an_oversized_photo_is_refused_before_decoding(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("big@example.com").sign_up().await;
    let eleven_mb = format!("data:image/jpeg;base64,{}", "A".repeat(11 * 1024 * 1024 / 3 * 4));
    let res = me.post("/_api/analyze-setup", json!({"type": "image", "value": eleven_mb})).await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE);
    // The refusal names the file's size, not only the limit.
    assert_eq!(res.error(), "This file is 11.1 MB; the largest we take is 10 MB.");
    assert_eq!(app.balance(me.id), 3);
}

async fn without_credits_the_answer_is_402_and_nothing_is_saved(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("broke@example.com").credits(0).sign_up().await;
    let res = analyze_text(&me, TIDY).await;
    assert_eq!(res.status, StatusCode::PAYMENT_REQUIRED);
    assert!(res.error().contains("credits"), "{}", res.error());
    assert_eq!(res.json()["code"], "insufficient_credits");
    assert_eq!((app.balance(me.id), saved_count(&app, me.id)), (0, 0));
}

async fn ten_parallel_analyses_on_three_credits_deliver_exactly_three(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("race@example.com").sign_up().await;
    let responses = join_all((0..10).map(|_| analyze_text(&me, TIDY))).await;
    let delivered = responses.iter().filter(|r| r.status == StatusCode::OK).count();
    let refused = responses.iter().filter(|r| r.status == StatusCode::PAYMENT_REQUIRED).count();
    assert_eq!((delivered, refused), (3, 7), "{:?}", responses.iter().map(|r| r.status).collect::<Vec<_>>());
    assert_eq!((app.balance(me.id), saved_count(&app, me.id)), (0, 3));
    app.assert_ledger_consistent(me.id);
}

async fn pro_users_are_not_charged(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("pro@example.com").pro().credits(0).sign_up().await;
    for _ in 0..2 {
        let res = analyze_text(&me, TIDY).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
        assert_eq!(res.json()["creditsRemaining"], 0);
    }
    assert_eq!((app.balance(me.id), saved_count(&app, me.id)), (0, 2));
}

async fn an_anonymous_visitor_gets_one_free_analysis_that_is_not_saved_to_any_account(db: TestDb) {
    let app = TestApp::start(db).await;
    let visitor = app.client();
    let first = analyze_text(&visitor, TIDY).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let result = first.json();
    assert_complete(&result);
    assert_eq!((result["freeTrial"].clone(), result["analysisId"].clone()), (json!(true), Value::Null));
    let cookie = first.header("set-cookie").unwrap();
    assert!(cookie.starts_with("setupiq_visitor=") && cookie.contains("HttpOnly"), "{cookie}");
    let kept: i64 = analyses::table.count().get_result(&mut app.db.conn()).unwrap();
    assert_eq!(kept, 0);

    let second = analyze_text(&visitor, TIDY).await;
    assert_eq!(second.status, StatusCode::PAYMENT_REQUIRED);
    assert!(second.error().contains("trial"), "{}", second.error());
    assert_eq!(second.json()["code"], "trial_used");
}

async fn parallel_free_analyses_of_one_browser_deliver_one(db: TestDb) {
    let app = TestApp::start(db).await;
    let visitor = app.client();
    // A refused description sets the anonymous-id cookie without using the trial.
    let refused = analyze_text(&visitor, "I like turtles and long walks on the beach at sunset.").await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let responses = join_all((0..10).map(|_| analyze_text(&visitor, TIDY))).await;
    let delivered = responses.iter().filter(|r| r.status == StatusCode::OK).count();
    assert_eq!(delivered, 1, "{:?}", responses.iter().map(|r| (r.status, r.error())).collect::<Vec<_>>());
    assert!(responses.iter().filter(|r| r.status != StatusCode::OK).all(|r| r.error().contains("trial")));
}

async fn free_analyses_are_capped_per_ip_and_day(db: TestDb) {
    let app = TestApp::start(db).await;
    for _ in 0..3 {
        assert_eq!(analyze_text(&app.client(), TIDY).await.status, StatusCode::OK);
    }
    let fourth = analyze_text(&app.client(), TIDY).await;
    assert_eq!(fourth.status, StatusCode::PAYMENT_REQUIRED);
    assert!(fourth.error().contains("trial"));
    app.clock.advance(chrono::Duration::hours(25));
    assert_eq!(analyze_text(&app.client(), TIDY).await.status, StatusCode::OK);
    let trials: i64 = analysis_trials::table.count().get_result(&mut app.db.conn()).unwrap();
    assert_eq!(trials, 4);
}

async fn a_photo_is_rated_stored_without_metadata_and_deleted_with_the_account(db: TestDb) {
    let Some(data_url) = photo("setup05_rgb_dark_dual.jpg") else { return };
    let app = TestApp::start(db).await;
    let me = app.user("photo@example.com").sign_up().await;
    let res = me
        .post(
            "/_api/analyze-setup",
            json!({"type": "image", "value": data_url, "description": "my dual-monitor RGB gaming rig"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let result = res.json();
    assert_complete(&result);
    assert_eq!(app.balance(me.id), 2);

    let image = me.get(result["imageUrl"].as_str().unwrap()).await;
    assert_eq!(image.status, StatusCode::OK);
    assert_eq!(image.header("content-type"), Some("image/jpeg"));
    let thumb = me.send(me.http.get(me.url(result["thumbnailUrl"].as_str().unwrap()))).await;
    assert_eq!(thumb.status, StatusCode::OK);
    let stored = std::fs::read(
        app.media_files().into_iter().find(|p| p.to_string_lossy().contains("/analyses/")).unwrap(),
    )
    .unwrap();
    let decoded = image::load_from_memory(&stored).unwrap();
    assert!(decoded.width() <= 1920 && decoded.height() <= 1080);
    assert!(!stored.windows(4).any(|w| w == b"Exif"), "the stored photo keeps no EXIF");

    let saved = &me.get("/_api/my-analyses").await.json()["analyses"][0];
    assert_eq!(saved["inputType"], "image");
    assert_eq!(saved["inputData"], result["imageUrl"]);

    assert_eq!(app.media_files().len(), 2);
    assert_eq!(me.delete_account().await.status, StatusCode::OK);
    assert!(app.media_files().is_empty(), "{:?}", app.media_files());
    assert_eq!(saved_count(&app, me.id), 0);
}

async fn a_photo_that_is_not_a_setup_is_refused_for_free(db: TestDb) {
    let Some(cat) = photo("neg03_cat.jpg") else { return };
    let app = TestApp::start(db).await;
    let me = app.user("cat@example.com").sign_up().await;
    let res = me.post("/_api/analyze-setup", json!({"type": "image", "value": cat})).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
    assert!(res.error().contains("doesn't look like a desk or gaming setup"), "{}", res.error());
    assert_eq!((app.balance(me.id), saved_count(&app, me.id)), (3, 0));
    assert!(app.media_files().is_empty());
}

#[actix_web::test]
async fn the_models_are_checked_before_anything_is_charged() {
    let models = tempfile::tempdir().unwrap();
    std::fs::write(models.path().join("nanodet-coco.onnx"), b"not the model").unwrap();
    let app = TestApp::start_with(
        setupiq_test_utils::TestDb::sqlite(),
        &[("SETUPIQ_MODELS_DIR", models.path().to_str().unwrap())],
    )
    .await;
    let Some(data_url) = photo("setup01_tidy_monitor_laptop.jpg") else { return };
    let me = app.user("models@example.com").sign_up().await;
    let res = me.post("/_api/analyze-setup", json!({"type": "image", "value": data_url})).await;
    assert_eq!(res.status, StatusCode::SERVICE_UNAVAILABLE, "{}", res.text);
    assert_eq!(res.error(), "Sorry, we couldn't analyze your setup right now. Please try again.");
    assert_eq!(app.balance(me.id), 3);
}

/// `SETUPIQ_ANALYZER=openai` through the whole app, against a local stand-in speaking the
/// chat-completions API: the provider's result is delivered and says so; when the provider
/// fails, the embedded analyzer answers, and either way one credit is taken.
#[actix_web::test]
async fn the_configured_provider_rates_and_the_embedded_analyzer_stands_in_for_it() {
    let provider = OpenAiStandIn::start(OpenAiBehaviour::Success(OpenAiStandIn::sample_assessment())).await;
    let base_url = provider.base_url();
    let app = TestApp::start_with(
        setupiq_test_utils::TestDb::sqlite(),
        &[
            ("SETUPIQ_ANALYZER", "openai"),
            ("SETUPIQ_OPENAI_BASE_URL", &base_url),
            ("SETUPIQ_OPENAI_API_KEY", OpenAiStandIn::API_KEY),
            ("SETUPIQ_OPENAI_MODEL", "gpt-4o-mini"),
            ("SETUPIQ_OPENAI_TIMEOUT_SECS", "5"),
        ],
    )
    .await;
    let me = app.user("provider@example.com").sign_up().await;

    let rated = analyze_text(&me, TIDY).await;
    assert_eq!(rated.status, StatusCode::OK, "{}", rated.text);
    let result = rated.json();
    assert_complete(&result);
    assert_eq!(result["analyzer"], "openai");
    let sent = OpenAiStandIn::sample_assessment();
    assert_eq!(result["summary"], sent["summary"]);
    assert_eq!(provider.requests().len(), 1);

    provider.set_behaviour(OpenAiBehaviour::ServerError);
    let fallback = analyze_text(&me, TIDY).await;
    assert_eq!(fallback.status, StatusCode::OK, "{}", fallback.text);
    assert_eq!(fallback.json()["analyzer"], "local");
    assert_complete(&fallback.json());

    let body = serde_json::to_string(&me.get("/_api/my-analyses").await.json()).unwrap();
    assert!(!body.contains(OpenAiStandIn::API_KEY));
    assert_eq!((app.balance(me.id), saved_count(&app, me.id)), (1, 2));
}

/// A visitor's free analysis of TIDY, from `visitor`'s browser.
async fn free_result(visitor: &TestClient) -> Value {
    let res = analyze_text(visitor, TIDY).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let result = res.json();
    assert_eq!(result["freeTrial"], json!(true));
    result
}

async fn a_visitors_free_result_is_saved_to_the_account_they_sign_up_to_and_shared(db: TestDb) {
    let app = TestApp::start(db).await;
    let visitor = app.client();
    let result = free_result(&visitor).await;

    // Another browser signing up gets nothing of it.
    let stranger = app.client();
    let other = stranger.register("stranger@example.com", PASSWORD, "Stranger").await;
    assert_eq!(other.status, StatusCode::CREATED, "{}", other.text);
    assert_eq!(other.json()["claimedAnalysisId"], Value::Null);
    assert_eq!(stranger.get("/_api/my-analyses").await.json()["total"], 0);

    app.clock.advance(chrono::Duration::minutes(5));
    let res = visitor.register("visitor@example.com", PASSWORD, "Visitor").await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text);
    let body = res.json();
    let id = body["claimedAnalysisId"].as_i64().expect("the free result was saved");
    // No credit taken: the whole signup bonus is there.
    assert_eq!((body["signupBonus"].clone(), body["user"]["credits"].clone()), (json!(3), json!(3)));

    let mine = visitor.get("/_api/my-analyses").await.json();
    assert_eq!(mine["total"], 1, "{mine}");
    let saved = &mine["analyses"][0];
    assert_eq!(saved["id"], id);
    assert_eq!(saved["inputType"], "text");
    assert_eq!(saved["result"]["overallScore"], result["overallScore"], "{saved}");
    assert_eq!(saved["result"]["suggestions"], result["suggestions"]);
    let user_id = UserId(body["user"]["id"].as_i64().unwrap());
    assert_eq!((app.balance(user_id), saved_count(&app, user_id)), (3, 1));

    // Sharing works from it, as for any analysis of the account.
    let shared = visitor.post(&format!("/_api/analyses/{id}/share"), json!({})).await;
    assert_eq!(shared.status, StatusCode::OK, "{}", shared.text);
    let url = reqwest::Url::parse(shared.json()["url"].as_str().unwrap()).unwrap();
    let page = app.client().get(url.path()).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text.contains(&result["overallScore"].to_string()),
        "the shared page shows the free result's score"
    );

    // The trial stays used: signed out, that browser gets no second free analysis.
    assert_eq!(visitor.post("/_api/auth/logout", json!({})).await.status, StatusCode::OK);
    let again = analyze_text(&visitor, TIDY).await;
    assert_eq!(again.status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(again.json()["code"], "trial_used");
}

async fn a_visitors_free_result_is_saved_to_the_account_they_sign_in_to(db: TestDb) {
    let app = TestApp::start(db).await;
    let member = app.user("member@example.com").sign_up().await;
    let visitor = app.client();
    free_result(&visitor).await;

    let res = visitor.login("member@example.com", PASSWORD).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let id = res.json()["claimedAnalysisId"].as_i64().expect("the free result was saved");
    let mine = visitor.get("/_api/my-analyses").await.json();
    assert_eq!((mine["total"].clone(), mine["analyses"][0]["id"].clone()), (json!(1), json!(id)));
    assert_eq!(app.balance(member.id), 3, "no credit taken");
    assert_eq!(visitor.get(&format!("/_api/analyses/{id}")).await.status, StatusCode::OK);

    // Signing in again from that browser saves nothing more.
    visitor.post("/_api/auth/logout", json!({})).await;
    let again = visitor.login("member@example.com", PASSWORD).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json()["claimedAnalysisId"], Value::Null);
    assert_eq!(saved_count(&app, member.id), 1);
}

async fn a_free_result_kept_too_long_is_not_saved_and_goes_with_its_photo(db: TestDb) {
    let Some(data_url) = photo("setup05_rgb_dark_dual.jpg") else { return };
    let app = TestApp::start_with(db, &[("SETUPIQ_VISITOR_RESULT_MINUTES", "30")]).await;
    let visitor = app.client();
    let res = visitor.post("/_api/analyze-setup", json!({"type": "image", "value": data_url})).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    assert_eq!(app.media_files().len(), 2, "the photo and its thumbnail are kept for the visitor");

    app.clock.advance(chrono::Duration::minutes(30));
    let late = visitor.register("late@example.com", PASSWORD, "Late").await;
    assert_eq!(late.status, StatusCode::CREATED, "{}", late.text);
    assert_eq!(late.json()["claimedAnalysisId"], Value::Null);
    assert_eq!(visitor.get("/_api/my-analyses").await.json()["total"], 0);

    // The next free result (another browser's) purges the expired one with its photos.
    free_result(&app.client()).await;
    assert!(app.media_files().is_empty(), "{:?}", app.media_files());
}

async fn a_visitors_photo_is_kept_for_their_account_and_not_swept(db: TestDb) {
    let Some(data_url) = photo("setup05_rgb_dark_dual.jpg") else { return };
    let app = TestApp::start_with(db, &[("SETUPIQ_VISITOR_RESULT_MINUTES", "180")]).await;
    // The sweep measures the files' age against the app's clock: let it be the real time.
    app.clock.set(chrono::Utc::now());
    let visitor = app.client();
    let res = visitor
        .post(
            "/_api/analyze-setup",
            json!({"type": "image", "value": data_url, "description": "my dual-monitor RGB gaming rig"}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);

    // Two hours on, past the sweep's grace period, the kept photo is still named.
    app.clock.advance(chrono::Duration::hours(2));
    let swept = setupiq_gateway::media_sweep::sweep(app.state(), app.clock.now()).await.unwrap();
    assert_eq!((swept.listed, swept.removed), (2, 0), "{swept:?}");

    let body = visitor.register("rig@example.com", PASSWORD, "Rig").await.json();
    let id = body["claimedAnalysisId"].as_i64().expect("the free result was saved");
    let saved = &visitor.get("/_api/my-analyses").await.json()["analyses"][0];
    assert_eq!((saved["id"].as_i64(), saved["inputType"].as_str()), (Some(id), Some("image")));
    let image = visitor.get(saved["inputData"].as_str().unwrap()).await;
    assert_eq!((image.status, image.header("content-type")), (StatusCode::OK, Some("image/jpeg")));

    // Deleted with the analysis like any member's photo.
    assert_eq!(app.media_files().len(), 2);
    let deleted = visitor.post(&format!("/_api/analyses/{id}/delete"), json!({})).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    assert!(app.media_files().is_empty(), "{:?}", app.media_files());
}

/// A messy desk, then the same desk tidied up (TIDY).
const MESSY: &str = "Cables everywhere under the desk, old pizza boxes and energy drink cans next to a \
    small 22 inch monitor and a wobbly office chair.";

async fn re_rate(client: &TestClient, text: &str, previous: Value) -> setupiq_test_utils::TestResponse {
    client
        .post("/_api/analyze-setup", json!({"type": "text", "value": text, "previousAnalysisId": previous}))
        .await
}

async fn a_re_rating_carries_its_progress_and_links_the_chain(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("rerate@example.com").sign_up().await;
    let before = analyze_text(&me, MESSY).await.json();
    assert_eq!(before["progress"], Value::Null, "a first rating compares with nothing");
    let first = before["analysisId"].clone();

    let res = re_rate(&me, TIDY, first.clone()).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let after = res.json();
    assert_complete(&after);
    assert_eq!(after["creditsRemaining"], 1, "a re-rating costs a credit like any analysis");
    let progress = &after["progress"];
    assert_eq!(progress["previousAnalysisId"], first);
    assert_eq!(progress["previousOverallScore"], before["overallScore"]);
    let (from, to) = (before["overallScore"].as_f64().unwrap(), after["overallScore"].as_f64().unwrap());
    assert_eq!(progress["overallDelta"].as_f64().unwrap(), ((to - from) * 10.0).round() / 10.0);
    assert!(to > from, "the tidy desk rates higher: {from} -> {to}");
    // Each category seen both times, from its score then to its score now.
    let score_of = |result: &Value, category: &Value| {
        result["categoryRatings"].as_array().unwrap().iter().find(|r| &r["category"] == category).unwrap()["score"]
            .clone()
    };
    let deltas = progress["categoryDeltas"].as_array().unwrap();
    assert!(!deltas.is_empty());
    for delta in deltas {
        assert_eq!(delta["from"], score_of(&before, &delta["category"]), "{delta}");
        assert_eq!(delta["to"], score_of(&after, &delta["category"]), "{delta}");
    }
    // Followed: exactly the earlier suggestions whose category rose by a point or more.
    let rose = |category: &Value| {
        deltas.iter().any(|d| {
            &d["category"] == category && d["to"].as_f64().unwrap() - d["from"].as_f64().unwrap() >= 1.0
        })
    };
    let expected: Vec<Value> = before["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| rose(&s["category"]))
        .map(|s| json!({"category": s["category"], "title": s["title"]}))
        .collect();
    assert!(!expected.is_empty(), "tidying up follows some suggestion");
    assert_eq!(progress["followedSuggestions"], Value::Array(expected));
    for voice in ["honest", "roast", "coach"] {
        assert!(!progress["lines"][voice].as_str().unwrap().is_empty(), "{voice}");
    }
    assert_eq!(progress["previousInputType"], "text");
    assert_eq!(progress["previousDescription"], MESSY);

    // A chain: re-rating the re-rating links to it.
    let second = after["analysisId"].clone();
    let third = re_rate(&me, TIDY, second.clone()).await.json();
    assert_eq!(third["progress"]["previousAnalysisId"], second);
    let history = me.get("/_api/my-analyses").await.json();
    let links: Vec<(Value, Value)> = history["analyses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["id"].clone(), a["previousAnalysisId"].clone()))
        .collect();
    assert_eq!(
        links,
        [
            (third["analysisId"].clone(), second.clone()),
            (second.clone(), first.clone()),
            (first.clone(), Value::Null)
        ]
    );
    assert_eq!(history["analyses"][1]["result"]["progress"], after["progress"]);

    // Deleting the middle one keeps the others and the third's numbers.
    let id = second.as_i64().unwrap();
    assert_eq!(
        me.post(&format!("/_api/analyses/{id}/delete"), json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    let history = me.get("/_api/my-analyses").await.json();
    assert_eq!(history["total"], 2);
    let kept = &history["analyses"][0];
    assert_eq!(kept["previousAnalysisId"], Value::Null);
    assert_eq!(kept["result"]["progress"]["overallDelta"], third["progress"]["overallDelta"]);
    assert_eq!(kept["result"]["progress"]["categoryDeltas"], third["progress"]["categoryDeltas"]);
    assert_eq!(kept["result"]["progress"]["previousDescription"], Value::Null, "what it re-rated is gone");

    // The export holds the links.
    let export = me.get("/_api/account/export").await.json();
    let exported: Vec<Value> =
        export["analyses"].as_array().unwrap().iter().map(|a| a["previousAnalysisId"].clone()).collect();
    assert_eq!(exported, [Value::Null, Value::Null]);
}

async fn only_ones_own_analysis_can_be_re_rated_and_a_refusal_links_nothing(db: TestDb) {
    let app = TestApp::start(db).await;
    let other = app.user("owner@example.com").sign_up().await;
    let theirs = analyze_text(&other, MESSY).await.json()["analysisId"].clone();
    let me = app.user("stranger@example.com").sign_up().await;
    let mine = analyze_text(&me, MESSY).await.json()["analysisId"].clone();

    for previous in [theirs.clone(), json!(theirs.as_i64().unwrap() + 1000), json!(0)] {
        let res = re_rate(&me, TIDY, previous.clone()).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{previous}: {}", res.text);
        assert_eq!(res.error(), "Analysis not found.");
    }
    let anonymous = re_rate(&app.client(), TIDY, mine.clone()).await;
    assert_eq!(anonymous.status, StatusCode::NOT_FOUND, "{}", anonymous.text);
    let not_a_number = re_rate(&me, TIDY, json!("one")).await;
    assert_eq!(not_a_number.status, StatusCode::BAD_REQUEST, "{}", not_a_number.text);
    // A refused input is free and links nothing.
    let refused = re_rate(&me, "I like turtles and long walks on the beach at sunset.", mine.clone()).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", refused.text);
    assert_eq!((app.balance(me.id), saved_count(&app, me.id)), (2, 1));
    // Nothing of the other's changed; the anonymous trial was not used up by the 404.
    assert_eq!(other.get("/_api/my-analyses").await.json()["total"], 1);
    assert_eq!(analyze_text(&app.client(), TIDY).await.status, StatusCode::OK);
}
