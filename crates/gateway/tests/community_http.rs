//! The community over real HTTP on both databases: visitors browse but cannot act, members
//! vote and report only from a verified address, every validation message of the
//! specification, a setup published, voted on, reported, listed in My Posts and on a
//! profile without an e-mail leaking, the edit window, deletion, a hidden post's comments.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::Duration;
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_core::AnalysisId;
use setupiq_core::clock::Clock as _;
use setupiq_core::media::{MediaKey, MediaStore};
use setupiq_test_utils::{TestApp, TestDb, both_backends_async, fixtures};

both_backends_async!(
    visitors_browse_but_cannot_act,
    every_field_is_validated_with_the_specification_messages,
    a_setup_is_published_voted_reported_and_deleted,
    an_unverified_member_votes_and_reports_once_the_address_is_verified,
    photos_are_stored_and_the_edit_window_is_an_hour,
    the_analysis_photo_is_placed_among_extra_photos_without_a_copy,
    the_third_report_hides_a_setup_from_kept_pages_at_once,
    reports_from_fresh_accounts_reach_the_queue_but_do_not_hide_a_setup,
    a_profile_page_carries_its_title_and_preview_tags,
    a_setup_has_its_own_page_with_preview_tags,
    a_rerated_post_shows_the_before_photo_in_the_feed_and_on_its_page,
    deleting_an_analysis_takes_its_post_and_photos,
    a_post_leaves_kept_pages_counts_and_rankings_with_its_analysis_or_account,
    people_talk_under_a_setup,
    every_comment_rule_answers_with_its_message,
    a_reported_comment_reaches_the_moderators_who_remove_it,
    a_hidden_posts_comments_cannot_be_edited_but_may_be_deleted,
    the_daily_digest_is_opt_in_mails_only_news_and_unsubscribes_in_one_click,
);

async fn visitors_browse_but_cannot_act(db: TestDb) {
    let app = TestApp::start(db).await;
    let visitor = app.client();
    let feed = visitor.get("/_api/community/setups").await;
    assert_eq!(feed.status, StatusCode::OK);
    assert_eq!(feed.json()["pagination"], json!({"total": 0, "limit": 20, "offset": 0, "hasMore": false}));
    assert_eq!(visitor.get("/_api/community/leaderboard?filter=week").await.json(), json!([]));
    assert_eq!(visitor.get("/_api/community/my-posts/analytics").await.status, StatusCode::UNAUTHORIZED);
    for (path, body) in [
        ("/_api/community/setup", json!({"analysisId": 1})),
        ("/_api/community/setup/edit", json!({"setupId": 1, "images": ["data:image/png;base64,AA"]})),
        ("/_api/community/setup/delete", json!({"setupId": 1})),
        ("/_api/community/vote", json!({"setupId": 1, "value": 1})),
        ("/_api/community/report", json!({"setupId": 1, "reason": "spam"})),
    ] {
        assert_eq!(visitor.post(path, body).await.status, StatusCode::UNAUTHORIZED, "{path}");
    }
}

async fn every_field_is_validated_with_the_specification_messages(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("rules@example.com").sign_up().await;
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        ("/_api/community/setup", json!({"analysisId": 0}), "analysisId", "Analysis ID is required."),
        (
            "/_api/community/setup",
            json!({"analysisId": 1, "images": ["http://x/y.png"]}),
            "images",
            "Each image must be a valid data URL.",
        ),
        (
            "/_api/community/setup",
            json!({"analysisId": 1, "images": vec!["data:image/png;base64,AA"; 6]}),
            "images",
            "Maximum 5 images allowed.",
        ),
        (
            "/_api/community/setup",
            json!({"analysisId": 1, "title": "t".repeat(201)}),
            "title",
            "Title cannot exceed 200 characters.",
        ),
        (
            "/_api/community/setup",
            json!({"analysisId": 1, "description": "d".repeat(501)}),
            "description",
            "Description cannot exceed 500 characters.",
        ),
        (
            "/_api/community/setup/edit",
            json!({"setupId": 1, "images": []}),
            "images",
            "At least 1 image is required.",
        ),
        (
            "/_api/community/setup/delete",
            json!({"setupId": 0}),
            "setupId",
            "Setup ID must be a positive integer.",
        ),
        ("/_api/community/vote", json!({"setupId": 1, "value": 2}), "value", "Vote must be 1 or -1."),
        (
            "/_api/community/report",
            json!({"setupId": 0, "reason": "spam"}),
            "setupId",
            "A valid setup ID is required.",
        ),
        (
            "/_api/community/report",
            json!({"setupId": 1, "reason": "rude"}),
            "reason",
            "Please select a valid reason category.",
        ),
        (
            "/_api/community/report",
            json!({"setupId": 1, "reason": "spam", "additionalDetails": "x".repeat(501)}),
            "additionalDetails",
            "Additional details cannot exceed 500 characters.",
        ),
    ];
    for (path, body, field, message) in cases {
        let res = me.post(path, body.clone()).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{path} {body}");
        assert!(res.issues().contains(&(field.into(), message.into())), "{path} {body}: {:?}", res.issues());
    }
    for path in [
        "/_api/community/setups?limit=0",
        "/_api/community/setups?limit=51",
        "/_api/community/setups?offset=-1",
        "/_api/community/setups?filter=year",
        "/_api/community/leaderboard?limit=101",
        "/_api/community/user-profile?userId=0",
    ] {
        assert_eq!(me.get(path).await.status, StatusCode::BAD_REQUEST, "{path}");
    }
    assert_eq!(me.get("/_api/community/user-profile?userId=999999").await.status, StatusCode::NOT_FOUND);
}

async fn a_setup_is_published_voted_reported_and_deleted(db: TestDb) {
    let app = TestApp::start(db).await;
    let owner = app.user("owner@example.com").verified().with_photo_analysis().sign_up().await;
    let voter = app.user("voter@example.com").verified().sign_up().await;

    let published = owner
        .post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0], "title": "  My battlestation  ", "description": "  "}))
        .await;
    assert_eq!(published.status, StatusCode::OK, "{}", published.text);
    let id = published.json()["setupId"].as_i64().unwrap();
    let not_mine = voter.post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]})).await;
    assert_eq!(not_mine.status, StatusCode::NOT_FOUND);
    let again = owner.post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]})).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "one post per analysis: {}", again.text);
    assert_eq!(
        (again.json()["error"].as_str(), again.json()["code"].as_str()),
        (Some("You have already published this analysis to Community."), Some("already_published"))
    );
    assert_eq!(
        owner.get("/_api/community/setups").await.json()["pagination"]["total"],
        1,
        "nothing counted twice"
    );

    let own_vote = owner.post("/_api/community/vote", json!({"setupId": id, "value": 1})).await;
    assert_eq!(
        (own_vote.status, own_vote.error().as_str()),
        (StatusCode::FORBIDDEN, "You can't vote on your own setup.")
    );
    let voted = voter.post("/_api/community/vote", json!({"setupId": id, "value": 1})).await;
    assert_eq!(voted.json(), json!({"score": 1, "userVote": 1}));

    let seen = voter.get("/_api/community/setups?filter=week&sort=new").await.json();
    let item = &seen["setups"][0];
    assert_eq!(
        (item["id"].as_i64(), item["score"].as_i64(), item["userVote"].as_i64()),
        (Some(id), Some(1), Some(1))
    );
    assert_eq!(item["title"], "My battlestation");
    assert_eq!(item["description"], Value::Null);
    assert_eq!(item["uploaderEmail"], Value::Null, "never another user's e-mail");
    assert!(item["imageUrl"].as_str().unwrap().starts_with("/media/analyses/"), "the analysis's own photo");
    assert!(item["analysis"]["overallRating"].as_f64().unwrap() > 0.0);
    let own = owner.get("/_api/community/setups").await.json();
    assert_eq!(own["setups"][0]["uploaderEmail"], "owner@example.com");

    let leaders = voter.get("/_api/community/leaderboard").await.json();
    assert_eq!((leaders[0]["totalScore"].as_i64(), leaders[0]["setupCount"].as_i64()), (Some(1), Some(1)));
    assert_eq!(leaders[0]["email"], Value::Null);
    assert_eq!(leaders[0]["displayName"], "Test Gamer", "the name shown on posts and profiles");
    let posts = owner.get("/_api/community/my-posts/analytics").await.json();
    assert_eq!(posts["summary"]["totalPosts"], 1);
    assert_eq!(posts["summary"]["totalUpvotes"], 1);
    assert_eq!(posts["posts"][0]["imageCount"], 1);
    let profile = app.client().get(&format!("/_api/community/user-profile?userId={}", owner.id)).await;
    assert_eq!(profile.status, StatusCode::OK);
    assert_eq!(profile.json()["stats"]["totalLikes"], 1);
    assert!(!profile.text.contains("owner@example.com"), "a profile never carries an e-mail");

    let reported = voter.post("/_api/community/report", json!({"setupId": id, "reason": "spam"})).await;
    assert_eq!(reported.json(), json!({"success": true, "counted": true}));
    let again = voter.post("/_api/community/report", json!({"setupId": id, "reason": "copyright"})).await;
    assert_eq!(again.json(), json!({"success": true, "counted": false}), "a repeat counts nothing");
    assert_eq!(
        voter.get("/_api/community/setups").await.json()["pagination"]["total"],
        0,
        "gone for the reporter"
    );
    assert_eq!(app.client().get("/_api/community/setups").await.json()["pagination"]["total"], 1);

    let theirs = voter.post("/_api/community/setup/delete", json!({"setupId": id})).await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN);
    assert_eq!(
        owner.post("/_api/community/setup/delete", json!({"setupId": id})).await.status,
        StatusCode::OK
    );
    assert_eq!(app.client().get("/_api/community/setups").await.json()["pagination"]["total"], 0);
}

/// Ten sign-ups an hour per address would be ~240 votes a day: an unverified account's vote
/// and reports are refused with the comment's kind of message, and nothing is counted.
async fn an_unverified_member_votes_and_reports_once_the_address_is_verified(db: TestDb) {
    let app = TestApp::start(db).await;
    let admin = app.user("verify-mod@example.com").admin().sign_up().await;
    let owner = app.user("verify-owner@example.com").verified().with_photo_analysis().sign_up().await;
    let fresh = app.user("verify-fresh@example.com").sign_up().await;
    let id = owner.post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]})).await.json()
        ["setupId"]
        .clone();
    let comment_id = owner
        .post("/_api/community/comment", json!({"setupId": id, "body": "Ask me about the desk"}))
        .await
        .json()["commentId"]
        .clone();
    let vote = json!({"setupId": id, "value": 1});
    let report = json!({"setupId": id, "reason": "spam"});
    let comment_report = json!({"commentId": comment_id, "reason": "spam"});

    for (path, body, message) in [
        ("/_api/community/vote", &vote, "Please verify your email address before voting."),
        ("/_api/community/report", &report, "Please verify your email address before reporting."),
        (
            "/_api/community/comment/report",
            &comment_report,
            "Please verify your email address before reporting.",
        ),
    ] {
        let res = fresh.post(path, body.clone()).await;
        assert_eq!(
            (res.status, res.error().as_str()),
            (StatusCode::FORBIDDEN, message),
            "{path}: {}",
            res.text
        );
    }
    let seen = fresh.get("/_api/community/setups").await.json();
    assert_eq!(
        (
            seen["pagination"]["total"].clone(),
            seen["setups"][0]["score"].clone(),
            seen["setups"][0]["userVote"].clone()
        ),
        (json!(1), json!(0), Value::Null),
        "no vote counted, and not reported: still in their feed"
    );
    assert_eq!(admin.get("/_api/admin/reports").await.json(), json!([]));
    assert_eq!(admin.get("/_api/admin/comment-reports").await.json(), json!([]));

    app.verify_email("verify-fresh@example.com").await;
    let voted = fresh.post("/_api/community/vote", vote).await;
    assert_eq!(
        (voted.status, voted.json()),
        (StatusCode::OK, json!({"score": 1, "userVote": 1})),
        "{}",
        voted.text
    );
    let seen = fresh.get("/_api/community/setups").await.json();
    assert_eq!(
        (seen["setups"][0]["score"].clone(), seen["setups"][0]["userVote"].clone()),
        (json!(1), json!(1))
    );
    for (path, body) in
        [("/_api/community/comment/report", comment_report), ("/_api/community/report", report)]
    {
        let res = fresh.post(path, body).await;
        assert_eq!(res.json(), json!({"success": true, "counted": true}), "{path}: {}", res.text);
    }
    assert_eq!(admin.get("/_api/admin/reports").await.json()[0]["setupId"], id);
    assert_eq!(admin.get("/_api/admin/comment-reports").await.json()[0]["commentId"], comment_id);
}

async fn photos_are_stored_and_the_edit_window_is_an_hour(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("photos@example.com").with_analysis().sign_up().await;
    let described = me.post("/_api/community/setup", json!({"analysisId": me.analysis_ids[0]})).await;
    assert_eq!(described.status, StatusCode::BAD_REQUEST, "a described setup needs a photo");
    assert_eq!(described.issues(), [("images".to_owned(), "At least 1 image is required.".to_owned())]);

    let res = me
        .post(
            "/_api/community/setup",
            json!({"analysisId": me.analysis_ids[0], "images": [fixtures::jpeg_data_url(40), fixtures::jpeg_data_url(40)]}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let id = res.json()["setupId"].as_i64().unwrap();
    assert_eq!(app.media_files().len(), 4, "two photos and their thumbnails");
    let photos: Vec<String> = me.get("/_api/community/setups").await.json()["setups"][0]["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let served = app.client().get(&photos[0]).await;
    assert_eq!((served.status, served.header("content-type")), (StatusCode::OK, Some("image/jpeg")));

    let edit = me
        .post("/_api/community/setup/edit", json!({"setupId": id, "images": [photos[1]], "title": "Tidier"}))
        .await;
    assert_eq!(edit.status, StatusCode::OK, "{}", edit.text);
    assert_eq!(app.media_files().len(), 2, "the dropped photo is deleted");

    app.clock.advance(Duration::minutes(61));
    let late = me.post("/_api/community/setup/edit", json!({"setupId": id, "images": [photos[1]]})).await;
    assert_eq!(late.status, StatusCode::FORBIDDEN);
    assert!(late.error().contains("1 hour"), "{}", late.error());

    assert_eq!(me.delete_account().await.status, StatusCode::OK);
    assert!(app.media_files().is_empty(), "a deleted account takes its posts' photos");
}

async fn the_analysis_photo_is_placed_among_extra_photos_without_a_copy(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("mixed@example.com").with_photo_analysis().sign_up().await;
    let analysis_id = me.analysis_ids[0];
    let own = me.get(&format!("/_api/analyses/{analysis_id}")).await.json()["inputData"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(own.starts_with("/media/analyses/"), "{own}");

    // Someone else's photo URL, or the same photo twice, is refused with nothing stored.
    let other = app.user("mixed-other@example.com").with_photo_analysis().sign_up().await;
    let theirs = other.get(&format!("/_api/analyses/{}", other.analysis_ids[0])).await.json()["inputData"]
        .as_str()
        .unwrap()
        .to_owned();
    for images in [json!([fixtures::jpeg_data_url(40), theirs]), json!([own, own])] {
        let res =
            me.post("/_api/community/setup", json!({"analysisId": analysis_id, "images": images})).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.text);
        assert_eq!(res.issues()[0].0, "images");
        assert!(app.media_files().is_empty(), "a refused post leaves no photo behind");
    }

    let res = me
        .post(
            "/_api/community/setup",
            json!({"analysisId": analysis_id, "images": [fixtures::jpeg_data_url(40), own]}),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    assert_eq!(app.media_files().len(), 2, "one new photo and its thumbnail; the analysis's is not copied");
    let images = me.get("/_api/community/setups").await.json()["setups"][0]["images"].clone();
    assert_eq!(images.as_array().unwrap().len(), 2);
    assert!(images[0].as_str().unwrap().starts_with("/media/community/"), "{images}");
    assert_eq!(images[1], own.as_str(), "in the order sent");
}

async fn the_third_report_hides_a_setup_from_kept_pages_at_once(db: TestDb) {
    let app = TestApp::start(db).await;
    // Reporters whose reports weigh: verified, with an analysis, a day old.
    let mut reporters = Vec::new();
    for i in 0..3 {
        reporters.push(app.user(&format!("hide-{i}@example.com")).verified().with_analysis().sign_up().await);
    }
    app.clock.advance(Duration::hours(24));
    let owner = app.user("hide-owner@example.com").with_photo_analysis().sign_up().await;
    let published = owner.post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]})).await;
    assert_eq!(published.status, StatusCode::OK, "{}", published.text);
    let visitor = app.client();
    assert_eq!(visitor.get("/_api/community/setups").await.json()["pagination"]["total"], 1, "now kept");
    let watcher = app.user("hide-watcher@example.com").sign_up().await;
    assert_eq!(watcher.get("/_api/community/setups").await.json()["setups"].as_array().unwrap().len(), 1);

    let id = published.json()["setupId"].clone();
    for reporter in &reporters {
        let res = reporter.post("/_api/community/report", json!({"setupId": id, "reason": "spam"})).await;
        assert_eq!(res.json()["counted"], true);
    }
    for seen in [visitor.get("/_api/community/setups").await, watcher.get("/_api/community/setups").await] {
        assert_eq!(seen.json()["setups"], json!([]), "hidden from everyone at once");
        assert_eq!(seen.json()["pagination"]["total"], 0);
    }
}

async fn reports_from_fresh_accounts_reach_the_queue_but_do_not_hide_a_setup(db: TestDb) {
    let app = TestApp::start(db).await;
    let admin = app.user("mod@example.com").admin().sign_up().await;
    let mut trusted = Vec::new();
    for i in 0..3 {
        trusted.push(app.user(&format!("old-{i}@example.com")).verified().with_analysis().sign_up().await);
    }
    app.clock.advance(Duration::hours(24));
    let owner = app.user("target@example.com").with_photo_analysis().sign_up().await;
    let id = owner.post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]})).await.json()
        ["setupId"]
        .clone();
    // Four accounts made and verified just now (an analysis each, with the signup bonus):
    // none of them weighs yet.
    let mut fresh = Vec::new();
    for i in 0..4 {
        fresh.push(app.user(&format!("fresh-{i}@example.com")).verified().with_analysis().sign_up().await);
    }
    for reporter in &fresh {
        let res = reporter.post("/_api/community/report", json!({"setupId": id, "reason": "spam"})).await;
        assert_eq!(res.json(), json!({"success": true, "counted": true}), "{}", res.text);
    }
    let visitor = app.client();
    assert_eq!(visitor.get("/_api/community/setups").await.json()["pagination"]["total"], 1, "still shown");
    let queue = admin.get("/_api/admin/reports").await.json();
    assert_eq!(queue[0]["setupId"], id);
    assert_eq!(
        (queue[0]["hidden"].as_bool(), queue[0]["reports"].as_array().map(Vec::len)),
        (Some(false), Some(4))
    );
    let addresses: Vec<Option<String>> = {
        use diesel::prelude::*;
        use setupiq_db::schema::community_reports;
        community_reports::table
            .select(community_reports::reporter_address)
            .load(&mut *app.db.conn())
            .unwrap()
    };
    assert_eq!(addresses, vec![Some("127.0.0.1".to_owned()); 4], "each report knows its network");

    for (i, reporter) in trusted.iter().enumerate() {
        reporter.post("/_api/community/report", json!({"setupId": id, "reason": "spam"})).await;
        let total = visitor.get("/_api/community/setups").await.json()["pagination"]["total"].clone();
        assert_eq!(total, if i < 2 { 1 } else { 0 }, "the third report that weighs hides it");
    }
    let queue = admin.get("/_api/admin/reports").await.json();
    assert_eq!(
        (queue[0]["hidden"].as_bool(), queue[0]["reports"].as_array().map(Vec::len)),
        (Some(true), Some(7))
    );
}

async fn a_profile_page_carries_its_title_and_preview_tags(db: TestDb) {
    let (_shell, app) = TestApp::start_with_app_shell(db).await;
    let eve = app.user("eve@example.com").named("<b>Eve & Co</b>").sign_up().await;

    let page = app.client().get(&format!("/user/{}", eve.id)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("<title>&lt;b&gt;Eve &amp; Co&lt;/b&gt;'s Profile</title>"), "{}", page.text);
    assert!(
        page.text
            .contains(r#"<meta property="og:title" content="&lt;b&gt;Eve &amp; Co&lt;/b&gt;'s Profile">"#)
    );
    assert!(
        page.text.contains(&format!(
            r#"<meta property="og:url" content="http://127.0.0.1:8080/user/{}">"#,
            eve.id
        ))
    );
    assert!(!page.text.contains("<b>") && !page.text.contains("Gaming Setup Analyzer"));
    assert!(page.text.contains("<div id=root>"), "still the app");
    assert!(!page.text.contains("eve@example.com"));
    for unknown in ["/user/999999", "/user/abc", "/user/0"] {
        let res = app.client().get(unknown).await;
        assert_eq!(res.status, StatusCode::OK, "{unknown}");
        assert!(res.text.contains("<title>Gaming Setup Analyzer</title>"), "{unknown}: the app as it is");
    }
}

async fn deleting_an_analysis_takes_its_post_and_photos(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("forget@example.com").with_photo_analysis().with_analysis().sign_up().await;
    let (published_id, kept_id) = (me.analysis_ids[0], me.analysis_ids[1]);
    let own = me.get(&format!("/_api/analyses/{published_id}")).await.json()["inputData"]
        .as_str()
        .unwrap()
        .to_owned();
    let post = me
        .post(
            "/_api/community/setup",
            json!({"analysisId": published_id, "images": [fixtures::jpeg_data_url(40), own]}),
        )
        .await;
    assert_eq!(post.status, StatusCode::OK, "{}", post.text);
    let setup_id = post.json()["setupId"].clone();
    let fan = app.user("forget-fan@example.com").verified().sign_up().await;
    assert_eq!(
        fan.post("/_api/community/vote", json!({"setupId": setup_id, "value": 1})).await.status,
        StatusCode::OK
    );
    assert_eq!(app.media_files().len(), 2, "the post's own photo and its thumbnail");

    // Nobody else can delete it, signed in or not; nothing changes when they try.
    let path = format!("/_api/analyses/{published_id}/delete");
    assert_eq!(fan.post(&path, json!({})).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.client().post(&path, json!({})).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(me.get(&format!("/_api/analyses/{published_id}")).await.status, StatusCode::OK);
    assert_eq!(app.media_files().len(), 2);

    let deleted = me.post(&path, json!({})).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    assert_eq!(me.get(&format!("/_api/analyses/{published_id}")).await.status, StatusCode::NOT_FOUND);
    assert!(app.media_files().is_empty(), "the post's photos are deleted with it");
    let vote = fan.post("/_api/community/vote", json!({"setupId": setup_id, "value": -1})).await;
    assert_eq!(vote.status, StatusCode::NOT_FOUND, "the post went with its analysis");
    let history = me.get("/_api/my-analyses").await.json();
    let ids: Vec<AnalysisId> = history["analyses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| AnalysisId(a["id"].as_i64().unwrap()))
        .collect();
    assert_eq!(ids, vec![kept_id], "the other analysis stays");
    assert_eq!(me.post(&path, json!({})).await.status, StatusCode::NOT_FOUND, "deleted once");
}

/// Deleting an analysis or an account takes the post with it: the feed a visitor was just
/// served (and keeps for a few seconds), its total and the leaderboard drop it at once.
async fn a_post_leaves_kept_pages_counts_and_rankings_with_its_analysis_or_account(db: TestDb) {
    let app = TestApp::start(db).await;
    let leaving = app.user("leaving@example.com").with_photo_analysis().sign_up().await;
    let forgetting = app.user("forgetting@example.com").with_photo_analysis().sign_up().await;
    let staying = app.user("staying@example.com").with_photo_analysis().sign_up().await;
    for owner in [&leaving, &forgetting, &staying] {
        let res = owner.post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]})).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    }
    let visitor = app.client();
    // The feed's total and the number of users on the leaderboard.
    let seen = || async {
        let feed = visitor.get("/_api/community/setups").await.json();
        let board = visitor.get("/_api/community/leaderboard?filter=all&limit=10").await.json();
        (feed["pagination"]["total"].as_i64().unwrap(), board.as_array().unwrap().len())
    };
    assert_eq!(seen().await, (3, 3), "kept now");

    let path = format!("/_api/analyses/{}/delete", forgetting.analysis_ids[0]);
    assert_eq!(forgetting.post(&path, json!({})).await.status, StatusCode::NO_CONTENT);
    assert_eq!(seen().await, (2, 2), "the analysis took its post along");

    let deleted = leaving.delete_account().await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    let feed = visitor.get("/_api/community/setups").await.json();
    assert_eq!(feed["pagination"]["total"], 1, "the account took its post along: {feed}");
    assert_eq!(feed["setups"][0]["uploaderId"], json!(staying.id));
    assert_eq!(seen().await, (1, 1));
}

/// A visitor reads a thread, members comment and reply, the counts reach the cards and My
/// Posts, the author edits and deletes.
async fn people_talk_under_a_setup(db: TestDb) {
    let app = TestApp::start(db).await;
    let owner = app.user("talk-owner@example.com").verified().with_photo_analysis().sign_up().await;
    let asker = app.user("talk-asker@example.com").named("Asker").verified().sign_up().await;
    let setup_id = owner
        .post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]}))
        .await
        .json()["setupId"]
        .clone();
    let visitor = app.client();
    let path = format!("/_api/community/comments?setupId={setup_id}");
    assert_eq!(visitor.get(&path).await.json()["comments"], json!([]));
    assert_eq!(
        visitor.get("/_api/community/setups").await.json()["setups"][0]["commentCount"],
        0,
        "kept now"
    );

    let asked = asker
        .post(
            "/_api/community/comment",
            json!({"setupId": setup_id, "body": "What's that <b>monitor</b> arm?"}),
        )
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    let question = asked.json()["commentId"].clone();
    let answer = owner
        .post(
            "/_api/community/comment",
            json!({"setupId": setup_id, "body": "An Ergotron LX", "parentId": question}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);

    // The bell: each hears of the other's words, never of their own.
    assert_eq!(visitor.get("/_api/notifications").await.status, StatusCode::UNAUTHORIZED);
    let bell = asker.get("/_api/notifications").await.json();
    assert_eq!(
        (bell["unread"].clone(), bell["notifications"][0]["kind"].clone()),
        (json!(1), json!("reply"))
    );
    assert_eq!(bell["notifications"][0]["excerpt"], "An Ergotron LX");
    assert_eq!(bell["notifications"][0]["setupId"], setup_id);
    let owners = owner.get("/_api/notifications").await.json();
    assert_eq!(
        (owners["unread"].clone(), owners["notifications"][0]["kind"].clone()),
        (json!(1), json!("comment"))
    );
    let refused = asker.post("/_api/notifications/read", json!({})).await;
    assert_eq!(
        (refused.status, refused.error().as_str()),
        (StatusCode::BAD_REQUEST, "Send either 1 to 100 notification ids or all: true.")
    );
    let read = asker.post("/_api/notifications/read", json!({"all": true})).await;
    assert_eq!((read.status, read.json()["marked"].clone()), (StatusCode::OK, json!(1)), "{}", read.text);
    assert_eq!(asker.get("/_api/notifications").await.json()["unread"], 0);
    assert_eq!(asker.get("/_api/notifications/unread").await.json(), json!({"unread": 0}));
    assert_eq!(owner.get("/_api/notifications/unread").await.json(), json!({"unread": 1}));
    assert_eq!(visitor.get("/_api/notifications/unread").await.status, StatusCode::UNAUTHORIZED);
    let id = owners["notifications"][0]["id"].clone();
    assert_eq!(
        asker.post("/_api/notifications/read", json!({"ids": [id]})).await.json()["marked"],
        0,
        "not theirs"
    );
    assert_eq!(owner.get("/_api/notifications").await.json()["unread"], 1);

    let thread = visitor.get(&path).await.json();
    let first = &thread["comments"][0];
    assert_eq!(
        first["body"], "What's that <b>monitor</b> arm?",
        "plain text, as written: the page escapes it"
    );
    assert_eq!(
        (first["authorDisplayName"].clone(), first["authorId"].clone()),
        (json!("Asker"), json!(asker.id))
    );
    assert_eq!((first["mine"].clone(), first["deleted"].clone()), (json!(false), json!(false)));
    assert_eq!(first["replies"][0]["body"], "An Ergotron LX");
    assert!(first.get("authorEmail").is_none() && !thread.to_string().contains("@example.com"), "no e-mails");
    assert_eq!(thread["pagination"]["total"], 1);
    assert_eq!(asker.get(&path).await.json()["comments"][0]["mine"], true);
    assert_eq!(
        visitor.get("/_api/community/setups").await.json()["setups"][0]["commentCount"],
        2,
        "the card counts them at once"
    );
    assert_eq!(owner.get("/_api/community/my-posts/analytics").await.json()["posts"][0]["commentCount"], 2);

    let edited = asker
        .post("/_api/community/comment/edit", json!({"commentId": question, "body": "Which arm is that?"}))
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    let seen = visitor.get(&path).await.json();
    assert_eq!(seen["comments"][0]["body"], "Which arm is that?");
    assert!(seen["comments"][0]["editedAt"].is_string(), "marked edited");

    let deleted = asker.post("/_api/community/comment/delete", json!({"commentId": question})).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    let seen = visitor.get(&path).await.json();
    let root = &seen["comments"][0];
    assert_eq!(
        (root["deleted"].clone(), root["body"].clone(), root["authorUsername"].clone()),
        (json!(true), json!(null), json!(null))
    );
    assert_eq!(root["replies"][0]["body"], "An Ergotron LX", "the answer keeps its thread");
    assert_eq!(visitor.get("/_api/community/setups").await.json()["setups"][0]["commentCount"], 1);
}

async fn every_comment_rule_answers_with_its_message(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_COMMENT_FILTER", r"\bbadword\b")]).await;
    let owner = app.user("rule-owner@example.com").verified().with_photo_analysis().sign_up().await;
    let member = app.user("rule-member@example.com").verified().sign_up().await;
    let unverified = app.user("rule-new@example.com").sign_up().await;
    let setup_id = owner
        .post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]}))
        .await
        .json()["setupId"]
        .clone();
    let comment = |body: &str| json!({"setupId": setup_id, "body": body});

    let visitor = app.client().post("/_api/community/comment", comment("Hi")).await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
    for (who, body, status, message) in [
        (
            &unverified,
            comment("Hi"),
            StatusCode::FORBIDDEN,
            "Please verify your email address before commenting.",
        ),
        (&member, comment("   "), StatusCode::BAD_REQUEST, "Comment must be between 1 and 1000 characters."),
        (
            &member,
            comment(&"x".repeat(1001)),
            StatusCode::BAD_REQUEST,
            "Comment must be between 1 and 1000 characters.",
        ),
        (
            &member,
            comment("a BADWORD here"),
            StatusCode::BAD_REQUEST,
            "Your comment contains words that aren't allowed here.",
        ),
        (&member, json!({"setupId": 999_999, "body": "Hi"}), StatusCode::NOT_FOUND, "Setup not found."),
        (
            &member,
            json!({"setupId": setup_id, "body": "Hi", "parentId": 999_999}),
            StatusCode::NOT_FOUND,
            "Comment not found.",
        ),
    ] {
        let res = who.post("/_api/community/comment", body).await;
        assert_eq!((res.status, res.error().as_str()), (status, message), "{}", res.text);
    }
    let mut ids = Vec::new();
    for i in 0..5 {
        let res = member.post("/_api/community/comment", comment(&format!("Comment {i}"))).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
        ids.push(res.json()["commentId"].clone());
    }
    let sixth = member.post("/_api/community/comment", comment("One more")).await;
    assert_eq!(
        (sixth.status, sixth.error().as_str()),
        (StatusCode::TOO_MANY_REQUESTS, "You're commenting too fast. Please wait a moment and try again.")
    );
    assert_eq!(sixth.header("retry-after"), Some("60"));

    let edit = |id: &serde_json::Value, body: &str| json!({"commentId": id, "body": body});
    let res = owner.post("/_api/community/comment/edit", edit(&ids[0], "Mine")).await;
    assert_eq!(
        (res.status, res.error().as_str()),
        (StatusCode::FORBIDDEN, "Only the author can edit this comment.")
    );
    app.clock.advance(Duration::minutes(61));
    let res = member.post("/_api/community/comment/edit", edit(&ids[0], "Later")).await;
    assert_eq!(
        (res.status, res.error().as_str()),
        (StatusCode::FORBIDDEN, "Comments can only be edited within 1 hour of posting.")
    );
    let stranger = app.user("rule-stranger@example.com").verified().sign_up().await;
    let res = stranger.post("/_api/community/comment/delete", json!({"commentId": ids[0]})).await;
    assert_eq!(
        (res.status, res.error().as_str()),
        (StatusCode::FORBIDDEN, "Only the author, the setup's owner or an admin can delete this comment.")
    );
    assert_eq!(
        owner.post("/_api/community/comment/delete", json!({"commentId": ids[0]})).await.status,
        StatusCode::OK
    );
    let res = owner.post("/_api/community/comment/delete", json!({"commentId": ids[0]})).await;
    assert_eq!((res.status, res.error().as_str()), (StatusCode::NOT_FOUND, "Comment not found."));
    let listed = app.client().get(&format!("/_api/community/comments?setupId={setup_id}")).await.json();
    assert_eq!(listed["pagination"]["total"], 4);
    let res = app.client().get("/_api/community/comments?setupId=999999").await;
    assert_eq!((res.status, res.error().as_str()), (StatusCode::NOT_FOUND, "Setup not found."));
}

async fn a_reported_comment_reaches_the_moderators_who_remove_it(db: TestDb) {
    let app = TestApp::start(db).await;
    let owner = app.user("flag-owner@example.com").verified().with_photo_analysis().sign_up().await;
    let spammer = app.user("flag-spammer@example.com").verified().sign_up().await;
    let reader = app.user("flag-reader@example.com").verified().sign_up().await;
    let admin = app.user("flag-mod@example.com").admin().sign_up().await;
    let setup_id = owner
        .post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]}))
        .await
        .json()["setupId"]
        .clone();
    let spam = spammer
        .post("/_api/community/comment", json!({"setupId": setup_id, "body": "Free skins at scam.example"}))
        .await
        .json()["commentId"]
        .clone();
    let report =
        |reason: &str| json!({"commentId": spam, "reason": reason, "additionalDetails": "Scam link"});

    let res = app.client().post("/_api/community/comment/report", report("spam")).await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    let res = reader.post("/_api/community/comment/report", report("rude")).await;
    assert_eq!(
        (res.status, res.issues()),
        (
            StatusCode::BAD_REQUEST,
            vec![("reason".to_owned(), "Please select a valid reason category.".to_owned())]
        )
    );
    let res = spammer.post("/_api/community/comment/report", report("spam")).await;
    assert_eq!(
        (res.status, res.error().as_str()),
        (StatusCode::FORBIDDEN, "You can't report your own comment.")
    );
    let res =
        reader.post("/_api/community/comment/report", json!({"commentId": 999_999, "reason": "spam"})).await;
    assert_eq!((res.status, res.error().as_str()), (StatusCode::NOT_FOUND, "Comment not found."));
    // 'other' is a reason too, its details saying what.
    let res = reader.post("/_api/community/comment/report", report("other")).await;
    assert_eq!((res.status, res.json()["counted"].clone()), (StatusCode::OK, json!(true)), "{}", res.text);
    let again = reader.post("/_api/community/comment/report", report("spam")).await;
    assert_eq!(again.json()["counted"], false, "once per member");

    assert_eq!(reader.get("/_api/admin/comment-reports").await.status, StatusCode::FORBIDDEN);
    let queue = admin.get("/_api/admin/comment-reports").await.json();
    assert_eq!(queue.as_array().map(Vec::len), Some(1), "{queue}");
    assert_eq!(
        (&queue[0]["commentId"], &queue[0]["setupId"], queue[0]["body"].as_str()),
        (&spam, &setup_id, Some("Free skins at scam.example"))
    );
    assert_eq!(
        (queue[0]["reports"][0]["reason"].as_str(), queue[0]["reports"][0]["details"].as_str()),
        (Some("other"), Some("Scam link"))
    );

    let decide = json!({"commentId": spam, "decision": "remove", "note": "Scam"});
    assert_eq!(admin.post("/_api/admin/comment-reports/decide", decide).await.status, StatusCode::OK);
    assert_eq!(admin.get("/_api/admin/comment-reports").await.json(), json!([]));
    let thread = app.client().get(&format!("/_api/community/comments?setupId={setup_id}")).await.json();
    assert_eq!(thread["pagination"]["total"], 0, "the comment is gone: {thread}");
    assert_eq!(app.client().get("/_api/community/setups").await.json()["setups"][0]["commentCount"], 0);
    let log = admin.get("/_api/admin/log").await.json();
    assert_eq!(
        (log["entries"][0]["action"].as_str(), log["entries"][0]["details"].as_str()),
        (Some("remove_comment"), Some("1 open report closed. Scam"))
    );
    for (who, kind) in [(&reader, "report_upheld"), (&spammer, "comment_removed")] {
        let inbox = who.get("/_api/notifications").await.json();
        let first = &inbox["notifications"][0];
        assert_eq!(
            (first["kind"].as_str(), first["excerpt"].as_str(), &first["setupId"], &first["commentId"]),
            (Some(kind), Some("Free skins at scam.example"), &setup_id, &Value::Null),
            "{inbox}"
        );
        assert_eq!(inbox["unread"], 1);
    }
    let res = admin
        .post("/_api/admin/comment-reports/decide", json!({"commentId": spam, "decision": "dismiss"}))
        .await;
    assert_eq!((res.status, res.error().as_str()), (StatusCode::NOT_FOUND, "Comment not found."));
}

/// `/community/setup/{id}`: the app with the setup's title and photo for link previews, and
/// the setup itself from `/_api/community/setups/{id}` for whoever may see it.
/// A post hidden for review takes no new words: the author's edit of their comment under it
/// is refused with the 404 a new comment, a reply or a vote gets. Deleting stays open to
/// the author (DESIGN.md §5: the author, the setup's owner or an admin deletes).
async fn a_hidden_posts_comments_cannot_be_edited_but_may_be_deleted(db: TestDb) {
    let app = TestApp::start(db).await;
    let mut reporters = Vec::new();
    for i in 0..3 {
        reporters
            .push(app.user(&format!("frozen-{i}@example.com")).verified().with_analysis().sign_up().await);
    }
    app.clock.advance(Duration::hours(24));
    let owner = app.user("frozen-owner@example.com").verified().with_photo_analysis().sign_up().await;
    let author = app.user("frozen-author@example.com").verified().sign_up().await;
    let setup_id = owner
        .post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]}))
        .await
        .json()["setupId"]
        .clone();
    let comment = |body: &str| json!({"setupId": setup_id, "body": body});
    let said = author.post("/_api/community/comment", comment("Nice rig")).await.json()["commentId"].clone();
    let other =
        author.post("/_api/community/comment", comment("Still nice")).await.json()["commentId"].clone();
    for reporter in &reporters {
        let res =
            reporter.post("/_api/community/report", json!({"setupId": setup_id, "reason": "spam"})).await;
        assert_eq!(res.json()["counted"], true, "{}", res.text);
    }

    let not_found = (StatusCode::NOT_FOUND, "Setup not found.");
    let edit = author
        .post(
            "/_api/community/comment/edit",
            json!({"commentId": said, "body": "Buy followers at spam.example"}),
        )
        .await;
    assert_eq!((edit.status, edit.error().as_str()), not_found, "{}", edit.text);
    for refused in [
        author.post("/_api/community/comment", comment("And more")).await,
        author
            .post("/_api/community/comment", json!({"setupId": setup_id, "body": "Reply", "parentId": said}))
            .await,
        author.post("/_api/community/vote", json!({"setupId": setup_id, "value": 1})).await,
    ] {
        assert_eq!(
            (refused.status, refused.error().as_str()),
            not_found,
            "the same answer: {}",
            refused.text
        );
    }
    let thread = owner.get(&format!("/_api/community/comments?setupId={setup_id}")).await.json();
    let kept = thread["comments"].as_array().unwrap().iter().find(|c| c["id"] == said).unwrap().clone();
    assert_eq!((kept["body"].as_str(), &kept["editedAt"]), (Some("Nice rig"), &Value::Null), "as written");

    let deleted = author.post("/_api/community/comment/delete", json!({"commentId": other})).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    let thread = owner.get(&format!("/_api/community/comments?setupId={setup_id}")).await.json();
    assert_eq!(thread["pagination"]["total"], 1, "the author took theirs back: {thread}");
}

async fn a_setup_has_its_own_page_with_preview_tags(db: TestDb) {
    let (_shell, app) = TestApp::start_with_app_shell(db).await;
    let owner = app.user("page-owner@example.com").named("Nova").with_photo_analysis().sign_up().await;
    let post = json!({"analysisId": owner.analysis_ids[0], "title": "Neon <Den>"});
    let id = owner.post("/_api/community/setup", post).await.json()["setupId"].as_i64().unwrap();

    let page = app.client().get(&format!("/community/setup/{id}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text.contains("<title>Neon &lt;Den&gt; by Nova | SetupIQ Community</title>"),
        "{}",
        page.text
    );
    assert!(page.text.contains(&format!(
        r#"<meta property="og:url" content="http://127.0.0.1:8080/community/setup/{id}">"#
    )));
    assert!(
        page.text.contains(r#"<meta property="og:image" content="http://127.0.0.1:8080/media/"#),
        "the photo"
    );
    assert!(page.text.contains(r#"<meta name="twitter:card" content="summary_large_image">"#));
    for unknown in ["/community/setup/999999", "/community/setup/abc"] {
        let res = app.client().get(unknown).await;
        assert!(res.text.contains("<title>Gaming Setup Analyzer</title>"), "{unknown}: the app as it is");
    }

    let setup = app.client().get(&format!("/_api/community/setups/{id}")).await;
    assert_eq!((setup.status, setup.json()["title"].clone()), (StatusCode::OK, json!("Neon <Den>")));
    let missing = app.client().get("/_api/community/setups/999999").await;
    assert_eq!((missing.status, missing.error().as_str()), (StatusCode::NOT_FOUND, "Setup not found."));
}

/// The path of a media URL (`/media/{key}`) as a key of the app's media store.
fn media_key(url: &Value) -> MediaKey {
    MediaKey::from_url(url.as_str().unwrap()).unwrap()
}

async fn a_rerated_post_shows_the_before_photo_in_the_feed_and_on_its_page(db: TestDb) {
    let (_shell, app) = TestApp::start_with_app_shell(db).await;
    let me = app.user("rerated@example.com").named("Nova").with_photo_analysis().sign_up().await;
    let earlier = me.analysis_ids[0];
    let later = fixtures::rerated_analysis(&mut app.db.conn(), me.id, earlier, true, app.clock.now());
    // The fixture names the earlier photo; put its bytes where the analysis pipeline would.
    let first = me.get(&format!("/_api/analyses/{earlier}")).await.json();
    let store = MediaStore::local(app.config.media_dir());
    let photo = fixtures::jpeg_data_url(25).into_bytes();
    for url in [&first["inputData"], &first["thumbnailUrl"]] {
        store.put(&media_key(url), photo.clone()).await.unwrap();
    }
    let now = me.get(&format!("/_api/analyses/{later}")).await.json()["inputData"].clone();

    let res = me.post("/_api/community/setup", json!({"analysisId": later, "withBeforePhoto": true})).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let id = res.json()["setupId"].as_i64().unwrap();
    let setup = app.client().get(&format!("/_api/community/setups/{id}")).await.json();
    assert_eq!(setup["beforeImageIndex"], 1);
    assert_eq!((setup["images"][0].clone(), setup["imageUrl"].clone()), (now.clone(), now.clone()));
    let before = setup["images"][1].as_str().unwrap().to_owned();
    assert!(before.starts_with("/media/community/"), "a copy for the post: {before}");
    let served = app.client().get(&before).await;
    assert_eq!((served.status, served.text.into_bytes()), (StatusCode::OK, photo));
    let feed = app.client().get("/_api/community/setups").await.json();
    assert_eq!(feed["setups"][0]["beforeImageIndex"], 1, "the feed item says the same");

    // Deleting the earlier analysis leaves the post's copy.
    let deleted = me.post(&format!("/_api/analyses/{earlier}/delete"), json!({})).await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT, "{}", deleted.text);
    assert_eq!(app.client().get(&before).await.status, StatusCode::OK);

    let page = app.client().get(&format!("/community/setup/{id}")).await.text;
    assert!(
        page.contains(&format!(
            r#"<img src="{before}" alt="The setup before"><figcaption>Before</figcaption>"#
        )),
        "{page}"
    );
    assert!(page.contains(&format!(
        r#"<img src="{}" alt="The setup after"><figcaption>After</figcaption>"#,
        now.as_str().unwrap()
    )));

    // A first rating has no before photo to show: the post goes without one.
    let other = app.user("first-rating@example.com").with_photo_analysis().sign_up().await;
    let body = json!({"analysisId": other.analysis_ids[0], "withBeforePhoto": true});
    let id = other.post("/_api/community/setup", body).await.json()["setupId"].as_i64().unwrap();
    let setup = app.client().get(&format!("/_api/community/setups/{id}")).await.json();
    assert_eq!(
        (setup["images"].as_array().unwrap().len(), setup["beforeImageIndex"].clone()),
        (1, Value::Null)
    );
    let page = app.client().get(&format!("/community/setup/{id}")).await.text;
    assert!(!page.contains("Before and after"));
}

/// Sends the digests due now, as the server does every ten minutes; returns how many went.
async fn send_digests(app: &TestApp) -> usize {
    let round = setupiq_community::service::digest::send_due(&app.state().ctx()).await.unwrap();
    assert_eq!(round.failed, 0);
    round.sent
}

async fn the_daily_digest_is_opt_in_mails_only_news_and_unsubscribes_in_one_click(db: TestDb) {
    let app = TestApp::start(db).await;
    let owner = app.user("digest-owner@example.com").verified().with_photo_analysis().sign_up().await;
    let first = app.user("digest-first@example.com").named("First Asker").verified().sign_up().await;
    let second = app.user("digest-second@example.com").named("Second Asker").verified().sign_up().await;
    let unverified = app.user("digest-unverified@example.com").sign_up().await;
    let setup_id = owner
        .post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0], "title": "Walnut Desk"}))
        .await
        .json()["setupId"]
        .clone();

    // Off by default; on only with a verified address.
    assert_eq!(app.client().get("/_api/notifications/settings").await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        owner.get("/_api/notifications/settings").await.json(),
        json!({"emailDigest": false, "emailVerified": true})
    );
    let refused = unverified.post("/_api/notifications/settings", json!({"emailDigest": true})).await;
    assert_eq!(
        (refused.status, refused.error()),
        (StatusCode::FORBIDDEN, "Please verify your email address to get the daily digest.".to_owned())
    );
    let on = owner.post("/_api/notifications/settings", json!({"emailDigest": true})).await;
    assert_eq!(on.json()["emailDigest"], true, "{}", on.text);
    assert_eq!(owner.get("/_api/notifications/settings").await.json()["emailDigest"], true);

    app.clock.advance(Duration::minutes(1));
    first.post("/_api/community/comment", json!({"setupId": setup_id, "body": "Which lamp is that?"})).await;
    assert_eq!(send_digests(&app).await, 0, "a day after subscribing at the earliest");
    app.clock.advance(Duration::hours(24));
    assert_eq!(send_digests(&app).await, 1);
    assert_eq!(send_digests(&app).await, 0, "once a day");
    let digests_to_owner = || {
        app.outbox()
            .into_iter()
            .filter(|m| m.to == "digest-owner@example.com" && m.subject.contains("unread notification"))
            .collect::<Vec<_>>()
    };
    let mails = digests_to_owner();
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert_eq!(mail.subject, "SetupIQ: 1 unread notification");
    assert!(mail.text.contains("- First Asker commented on “Walnut Desk”"), "{}", mail.text);
    let setup_link = app.config.public_link(&format!("/community/setup/{setup_id}"));
    assert!(mail.line_with(&setup_link).is_some(), "{}", mail.text);
    // No tracking: every link is a plain link to the site.
    let links: Vec<&str> = mail.text.split_whitespace().filter(|w| w.contains("://")).collect();
    assert!(links.iter().all(|l| l.starts_with(&app.config.public_link("/"))), "{links:?}");

    // Only news: the next day's digest lists the new comment, not yesterday's again, and
    // nothing goes on a day without news.
    app.clock.advance(Duration::hours(1));
    second.post("/_api/community/comment", json!({"setupId": setup_id, "body": "Love it"})).await;
    app.clock.advance(Duration::hours(24));
    assert_eq!(send_digests(&app).await, 1);
    let latest = digests_to_owner().pop().unwrap();
    assert!(latest.text.contains("Second Asker commented"), "{}", latest.text);
    assert!(!latest.text.contains("First Asker"), "{}", latest.text);
    app.clock.advance(Duration::hours(25));
    assert_eq!(send_digests(&app).await, 0, "no news, no e-mail");

    // Mail clients unsubscribe with a form post to the List-Unsubscribe address, no session.
    let raw: Vec<String> = std::fs::read_dir(app.config.outbox_dir())
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .filter(|m| m.contains("digest-owner@example.com") && m.contains("List-Unsubscribe"))
        .collect();
    assert_eq!(raw.len(), 2);
    assert!(raw[0].contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    let page = mail.line_with("/unsubscribe?token=").unwrap();
    let token = page.rsplit("token=").next().unwrap().to_owned();
    assert!(raw[0].contains(&format!("/_api/notifications/unsubscribe?token={token}>")));
    let mail_client = app.client();
    let one_click = mail_client
        .send(
            mail_client
                .http
                .post(mail_client.url(&format!("/_api/notifications/unsubscribe?token={token}")))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body("List-Unsubscribe=One-Click"),
        )
        .await;
    assert_eq!(one_click.status, StatusCode::OK, "{}", one_click.text);
    assert_eq!(owner.get("/_api/notifications/settings").await.json()["emailDigest"], false);
    let again = mail_client.post(&format!("/_api/notifications/unsubscribe?token={token}"), json!({})).await;
    assert_eq!(
        (again.status, again.error()),
        (
            StatusCode::NOT_FOUND,
            "This unsubscribe link is no longer valid. Sign in to change your e-mail settings.".to_owned()
        )
    );
    first.post("/_api/community/comment", json!({"setupId": setup_id, "body": "Still there?"})).await;
    app.clock.advance(Duration::hours(25));
    assert_eq!(send_digests(&app).await, 0, "unsubscribed");
}
