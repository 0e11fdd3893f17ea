//! The admin panel over real HTTP on both databases: every endpoint refuses visitors (401)
//! and other users (403); validation; a verification run against stand-in merchants on
//! loopback (through the test-only allowance) that finds a dead link, a home-page redirect,
//! a dropped tag, a bot check and a redirect to a private address, and switches the dead
//! link off on the second run; moderation and accounts (one at a time and in bulk, a bulk
//! deletion removing what the member's own would), each written to the admin log.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::TcpListener;

use actix_web::{App, HttpResponse, HttpServer, web};
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_test_utils::{TestApp, TestDb, both_backends_async};

both_backends_async!(
    every_admin_endpoint_refuses_visitors_and_users,
    queries_and_bodies_are_validated,
    a_verification_run_finds_silent_failures_and_the_second_failure_switches_a_link_off,
    a_server_without_internet_keeps_its_catalogue_and_keeps_rating_setups,
    moderation_and_accounts_are_done_from_the_panel_and_logged,
    bulk_actions_change_the_chosen_accounts_and_say_which_were_skipped,
    a_crawlers_clicks_are_kept_but_not_counted,
);

fn endpoints() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("GET", "/_api/analytics/summary", Value::Null),
        ("GET", "/_api/analytics/top-products?limit=5", Value::Null),
        ("GET", "/_api/analytics/category-performance?sortBy=clickCount", Value::Null),
        ("GET", "/_api/analytics/daily-clicks?period=30d", Value::Null),
        ("GET", "/_api/admin/link-health-report", Value::Null),
        ("POST", "/_api/admin/verify-links", json!({})),
        ("POST", "/_api/admin/products/replace-link", json!({"productId": 1, "url": "https://example.com/"})),
        ("POST", "/_api/admin/products/set-active", json!({"productId": 1, "active": false})),
        ("POST", "/_api/admin/products/activate", json!({"productIds": [1]})),
        ("POST", "/_api/admin/products/deactivate", json!({"productIds": [1]})),
        ("POST", "/_api/admin/products/expect-redirect", json!({"productId": 1})),
        ("GET", "/_api/admin/reports", Value::Null),
        ("POST", "/_api/admin/reports/decide", json!({"setupId": 1, "decision": "dismiss"})),
        ("GET", "/_api/admin/comment-reports", Value::Null),
        ("POST", "/_api/admin/comment-reports/decide", json!({"commentId": 1, "decision": "dismiss"})),
        ("GET", "/_api/admin/users?query=someone", Value::Null),
        ("POST", "/_api/admin/users/change", json!({"userId": 1, "change": "grant_pro"})),
        ("POST", "/_api/admin/users/bulk", json!({"userIds": [1], "action": "delete"})),
        ("GET", "/_api/admin/log", Value::Null),
    ]
}

async fn call(
    client: &setupiq_test_utils::TestClient,
    method: &str,
    path: &str,
    body: Value,
) -> setupiq_test_utils::TestResponse {
    if method == "GET" { client.get(path).await } else { client.post(path, body).await }
}

async fn every_admin_endpoint_refuses_visitors_and_users(db: TestDb) {
    let app = TestApp::start(db).await;
    let visitor = app.client();
    let user = app.user("plain@example.com").sign_up().await;
    let admin = app.user("admin@example.com").admin().sign_up().await;
    for (method, path, body) in endpoints() {
        assert_eq!(
            call(&visitor, method, path, body.clone()).await.status,
            StatusCode::UNAUTHORIZED,
            "{method} {path}"
        );
        assert_eq!(
            call(&user, method, path, body.clone()).await.status,
            StatusCode::FORBIDDEN,
            "{method} {path}"
        );
    }
    // The read-only ones answer an admin.
    for (method, path, _) in endpoints().into_iter().filter(|(m, _, _)| *m == "GET") {
        assert_eq!(call(&admin, method, path, Value::Null).await.status, StatusCode::OK, "{path}");
    }
    let nothing_changed = admin.get("/_api/admin/log").await.json();
    assert_eq!(nothing_changed["total"], 0, "refused calls did nothing");
}

async fn queries_and_bodies_are_validated(db: TestDb) {
    let app = TestApp::start(db).await;
    let admin = app.user("admin@example.com").admin().sign_up().await;
    for path in [
        "/_api/analytics/top-products?limit=0",
        "/_api/analytics/top-products?limit=abc",
        "/_api/analytics/category-performance?sortBy=popularity",
        "/_api/analytics/summary?period=week",
        "/_api/admin/users?offset=-1",
        "/_api/admin/log?limit=0",
    ] {
        assert_eq!(admin.get(path).await.status, StatusCode::BAD_REQUEST, "{path}");
    }
    let limit = admin.get("/_api/analytics/top-products?limit=0").await;
    assert!(limit.text.contains("Limit must be a positive integer."), "{}", limit.text);
    for body in [json!({"category": "Toasters"}), json!({"network": "eBay"}), json!({"category": "lighting"})]
    {
        assert_eq!(
            admin.post("/_api/admin/verify-links", body.clone()).await.status,
            StatusCode::BAD_REQUEST,
            "{body}"
        );
    }
    for url in ["javascript:alert(1)", "ftp://example.com/x", "not a url"] {
        let res = admin.post("/_api/admin/products/replace-link", json!({"productId": 1, "url": url})).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{url}");
        assert!(res.text.contains("Please enter a valid URL."));
    }
    for ids in [json!([]), json!([0]), json!([1, -3]), json!((1..=1001).collect::<Vec<i64>>())] {
        for path in ["/_api/admin/products/activate", "/_api/admin/products/deactivate"] {
            let res = admin.post(path, json!({"productIds": ids})).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{path} {ids}");
        }
    }
    for (body, issue) in [
        (json!({"userIds": [], "action": "verify"}), "Choose between 1 and 50 accounts."),
        (
            json!({"userIds": (1..=51).collect::<Vec<i64>>(), "action": "verify"}),
            "Choose between 1 and 50 accounts.",
        ),
        (json!({"userIds": [2, 0], "action": "verify"}), "User ID must be a positive integer."),
        (json!({"userIds": [2, 3, 2], "action": "delete"}), "Each account can be chosen once."),
    ] {
        let res = admin.post("/_api/admin/users/bulk", body.clone()).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(res.issues(), [("userIds".to_owned(), issue.to_owned())], "{body}");
    }
    let unknown = admin.post("/_api/admin/users/bulk", json!({"userIds": [2], "action": "ban"})).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    let decision = admin.post("/_api/admin/reports/decide", json!({"setupId": 1, "decision": "ban"})).await;
    assert_eq!(decision.status, StatusCode::BAD_REQUEST);
    assert_eq!(admin.get("/_api/analytics/top-products").await.json(), json!([]), "no clicks yet");
}

/// A merchant on loopback: a product page, a gone one, redirects to the home page, one
/// that drops the affiliate tag, a captcha wall and one to the cloud metadata address.
fn stand_in_merchant() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = HttpServer::new(|| {
        App::new()
            .route("/", web::get().to(|| async { HttpResponse::Ok().body("<h1>Welcome to the shop</h1>") }))
            .route("/dp/ok", web::get().to(|| async { HttpResponse::Ok().body("<h1>RGB strip</h1>") }))
            .route("/dp/gone", web::get().to(|| async { HttpResponse::NotFound().body("gone") }))
            .route(
                "/dp/retired",
                web::get().to(|| async { HttpResponse::Found().insert_header(("Location", "/")).finish() }),
            )
            .route(
                "/dp/untagged",
                web::get().to(|| async {
                    HttpResponse::MovedPermanently().insert_header(("Location", "/dp/ok")).finish()
                }),
            )
            .route(
                "/dp/wall",
                web::get().to(|| async {
                    HttpResponse::Ok()
                        .body("<title>Robot Check</title><p>Enter the characters you see below</p>")
                }),
            )
            .route(
                "/dp/metadata",
                web::get().to(|| async {
                    HttpResponse::Found()
                        .insert_header(("Location", "http://169.254.169.254/latest/meta-data"))
                        .finish()
                }),
            )
    })
    .workers(1)
    .disable_signals()
    .listen(listener)
    .unwrap()
    .run();
    actix_web::rt::spawn(server);
    base
}

async fn a_verification_run_finds_silent_failures_and_the_second_failure_switches_a_link_off(db: TestDb) {
    let app = TestApp::start_with_loopback_links(db).await;
    let merchant = stand_in_merchant();
    let admin = app.user("admin@example.com").admin().sign_up().await;
    let none =
        admin.post("/_api/admin/verify-links", json!({"category": "Lighting", "network": "Other"})).await;
    assert_eq!(
        none.json()["totalChecked"],
        0,
        "the filter narrows the run: no Lighting product of another network"
    );
    // Point every Cable Management and Monitor product of the catalogue at the stand-in
    // merchant, and check only those: three of each with a problem, the rest healthy.
    let cables = products_of(&app, "Cable Management");
    let monitor = products_of(&app, "Monitor");
    let links = [
        (cables[0], format!("{merchant}/dp/ok?tag=setupiq-20")),
        (cables[1], format!("{merchant}/dp/gone?tag=setupiq-20")),
        (cables[2], format!("{merchant}/dp/retired?tag=setupiq-20")),
        (monitor[0], format!("{merchant}/dp/untagged?tag=setupiq-20")),
        (monitor[1], format!("{merchant}/dp/wall?tag=setupiq-20")),
        (monitor[2], format!("{merchant}/dp/metadata?tag=setupiq-20")),
    ];
    let healthy: Vec<(i64, String)> = cables[3..]
        .iter()
        .chain(&monitor[3..])
        .map(|id| (*id, format!("{merchant}/dp/ok?tag=setupiq-20")))
        .collect();
    for (id, url) in links.iter().chain(&healthy) {
        let res = admin.post("/_api/admin/products/replace-link", json!({"productId": id, "url": url})).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    }

    let run = admin.post("/_api/admin/verify-links", json!({"category": "Cable Management"})).await;
    assert_eq!(run.status, StatusCode::OK, "{}", run.text);
    let found = run.json();
    assert_eq!(
        (
            found["totalChecked"].as_i64(),
            found["healthy"].as_i64(),
            found["dead"].as_i64(),
            found["warnings"].as_i64()
        ),
        (Some(cables.len() as i64), Some(cables.len() as i64 - 2), Some(1), Some(1))
    );
    assert_eq!(
        found["deadLinks"],
        json!([{"productId": cables[1], "url": links[1].1, "statusCode": 404, "verdict": "dead"}])
    );

    let run = admin.post("/_api/admin/verify-links", json!({"category": "Monitor"})).await.json();
    assert_eq!(
        (
            run["totalChecked"].as_i64(),
            run["warnings"].as_i64(),
            run["unknown"].as_i64(),
            run["errors"].as_i64()
        ),
        (Some(monitor.len() as i64), Some(1), Some(1), Some(1))
    );
    assert_eq!(
        run["deadLinks"][0]["verdict"], "refused",
        "a redirect to a private address is never followed"
    );

    let report = admin.get("/_api/admin/link-health-report").await.json();
    let verdict = |id: i64| {
        report["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["productId"] == id)
            .map(|p| p["verdict"].clone())
    };
    assert_eq!(verdict(cables[0]), None, "healthy links are not problems");
    assert_eq!(verdict(cables[1]), Some(json!("dead")));
    assert_eq!(verdict(cables[2]), Some(json!("home_page_redirect")));
    assert_eq!(verdict(monitor[0]), Some(json!("tag_dropped")));
    assert_eq!(verdict(monitor[1]), Some(json!("bot_check")));
    assert_eq!(verdict(monitor[2]), Some(json!("refused")));
    let catalogue = report["total"].as_i64().unwrap();
    assert_eq!(report["active"], catalogue, "one failed run switches nothing off");
    assert_eq!(report["lastRun"]["status"], "completed");

    // The second failure in a row switches the dead link off.
    admin.post("/_api/admin/verify-links", json!({"category": "Cable Management"})).await;
    let report = admin.get("/_api/admin/link-health-report").await.json();
    assert_eq!((report["active"].as_i64(), report["inactive"].as_i64()), (Some(catalogue - 1), Some(1)));
    assert_eq!(report["total"], catalogue);
    assert_eq!(report["neverVerified"], catalogue - (cables.len() + monitor.len()) as i64);

    // The admin accepts the home-page redirect; the log has every step.
    assert_eq!(
        admin.post("/_api/admin/products/expect-redirect", json!({"productId": cables[2]})).await.status,
        StatusCode::OK
    );
    let log = admin.get("/_api/admin/log?limit=100").await.json();
    let actions: Vec<&str> =
        log["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions.iter().filter(|a| **a == "verify_links").count(), 4);
    assert_eq!(actions.iter().filter(|a| **a == "replace_link").count(), links.len() + healthy.len());
    assert_eq!(actions[0], "expect_redirect");
}

/// A server without internet (every name fails to resolve; `.invalid` never resolves, RFC
/// 6761). Before: two runs switched off all 68 products and every analysis then answered 500.
/// Now each run fails with its reason and changes nothing; with the catalogue switched off by
/// hand, analyses still get their suggestions; one call switches everything back on.
async fn a_server_without_internet_keeps_its_catalogue_and_keeps_rating_setups(db: TestDb) {
    use diesel::RunQueryDsl;
    let app = TestApp::start(db).await;
    let admin = app.user("admin@example.com").admin().sign_up().await;
    let gamer = app.user("gamer@example.com").credits(5).sign_up().await;
    diesel::sql_query(
        "UPDATE products SET link = 'https://shop.setupiq-test.invalid/p/' || id || '?tag=setupiq-20'",
    )
    .execute(&mut *app.db.conn())
    .unwrap();
    let catalogue = admin.get("/_api/admin/link-health-report").await.json()["total"].as_i64().unwrap();
    for _ in 0..2 {
        let run = admin.post("/_api/admin/verify-links", json!({})).await;
        assert_eq!(run.status, StatusCode::SERVICE_UNAVAILABLE, "{}", run.text);
        assert!(run.header("retry-after").is_some());
        assert!(
            run.error().starts_with(&format!(
                "The link check could not reach the network: {catalogue} of {catalogue} links could not be checked (DNS lookup of shop.setupiq-test.invalid"
            )),
            "{}",
            run.error()
        );
        assert!(run.error().ends_with("No product was changed; try again when the server is online."));
    }
    let report = admin.get("/_api/admin/link-health-report").await.json();
    assert_eq!((report["active"].as_i64(), report["inactive"].as_i64()), (Some(catalogue), Some(0)));
    assert_eq!(report["problems"], json!([]), "no product was marked");
    assert_eq!(report["lastRun"]["status"], "failed");
    assert_eq!(report["lastRun"]["unreachable"], catalogue);
    assert!(report["lastRun"]["failureReason"].as_str().unwrap().contains("could not reach the network"));
    // The log says each check failed, and why, after the entry that started it.
    let log = admin.get("/_api/admin/log?limit=100").await.json();
    let entries = log["entries"].as_array().unwrap();
    let actions: Vec<&str> = entries.iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["verify_links_failed", "verify_links", "verify_links_failed", "verify_links"]);
    assert!(
        entries[0]["details"].as_str().unwrap().starts_with("The link check could not reach the network")
    );

    let rate = || {
        gamer.post("/_api/analyze-setup", json!({"type": "text", "value": "A messy desk with one monitor, no lights and cables everywhere."}))
    };
    let rated = rate().await;
    assert_eq!(rated.status, StatusCode::OK, "{}", rated.text);
    assert!(rated.json()["suggestions"][0]["productRecommendation"]["productId"].is_i64());

    // An admin (or an older server) switched the whole catalogue off, in one call: analyses
    // still answer.
    let ids: Vec<i64> = report_ids(&app);
    let off = admin.post("/_api/admin/products/deactivate", json!({"productIds": ids})).await;
    assert_eq!(off.json(), json!({"deactivated": catalogue}));
    let rated = rate().await;
    assert_eq!(rated.status, StatusCode::OK, "{}", rated.text);
    let suggestions = rated.json()["suggestions"].as_array().unwrap().clone();
    assert!(!suggestions.is_empty(), "still suggested");
    for suggestion in &suggestions {
        assert_eq!(suggestion["productRecommendation"], Value::Null, "{suggestion}");
        assert_eq!(suggestion["tiers"], json!({"budget": null, "balanced": null, "premium": null}));
    }

    // One call, not 68 clicks.
    let back = admin.post("/_api/admin/products/activate", json!({"productIds": ids})).await;
    assert_eq!(back.json(), json!({"activated": catalogue}));
    let report = admin.get("/_api/admin/link-health-report").await.json();
    assert_eq!((report["active"].as_i64(), report["inactive"].as_i64()), (Some(catalogue), Some(0)));
    let again = admin.post("/_api/admin/products/activate", json!({"productIds": ids})).await;
    assert_eq!(again.json(), json!({"activated": 0}), "those already on are left as they are");
    let rated = rate().await;
    assert!(rated.json()["suggestions"][0]["productRecommendation"]["productId"].is_i64());
}

/// Every product id, read from the database.
fn report_ids(app: &TestApp) -> Vec<i64> {
    use diesel::prelude::*;
    use setupiq_db::schema::products;
    products::table.order(products::id).select(products::id).load(&mut *app.db.conn()).unwrap()
}

/// The ids of one category's products (cheapest first), read from the database.
fn products_of(app: &TestApp, category: &str) -> Vec<i64> {
    use diesel::prelude::*;
    use setupiq_db::schema::products;
    products::table
        .filter(products::product_category.eq(category))
        .order(products::price_cents)
        .select(products::id)
        .load(&mut *app.db.conn())
        .unwrap()
}

async fn moderation_and_accounts_are_done_from_the_panel_and_logged(db: TestDb) {
    let app = TestApp::start(db).await;
    let admin = app.user("admin@example.com").admin().sign_up().await;
    // Reporters whose reports weigh towards hiding: verified, with an analysis, a day old.
    let mut reporters = Vec::new();
    for i in 0..3 {
        reporters.push(app.user(&format!("rep-{i}@example.com")).verified().with_analysis().sign_up().await);
    }
    app.clock.advance(chrono::Duration::hours(24));
    let owner = app.user("owner@example.com").with_photo_analysis().sign_up().await;
    let setup = owner
        .post("/_api/community/setup", json!({"analysisId": owner.analysis_ids[0]}))
        .await
        .json()["setupId"]
        .clone();
    // The reasons beyond the specification's four are stored and weigh the same.
    let reasons = [("spam", "ads"), ("harassment", "Mocks my name"), ("other", "It shows my flat")];
    for (reporter, (reason, details)) in reporters.iter().zip(reasons) {
        let res = reporter
            .post(
                "/_api/community/report",
                json!({"setupId": setup, "reason": reason, "additionalDetails": details}),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    }
    assert_eq!(
        app.client().get("/_api/community/setups").await.json()["setups"],
        json!([]),
        "hidden by three reports"
    );

    let queue = admin.get("/_api/admin/reports").await.json();
    assert_eq!(queue[0]["setupId"], setup);
    assert_eq!(queue[0]["hidden"], true);
    let mut counted: Vec<_> = queue[0]["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["reason"].as_str().unwrap().to_owned(), r["count"].as_i64().unwrap()))
        .collect();
    counted.sort();
    assert_eq!(
        counted,
        [("harassment".to_owned(), 1), ("other".to_owned(), 1), ("spam".to_owned(), 1)],
        "{queue}"
    );
    assert_eq!(queue[0]["reports"][0]["reporterEmail"], "rep-0@example.com");
    let other = queue[0]["reports"].as_array().unwrap().iter().find(|r| r["reason"] == "other").cloned();
    assert_eq!(other.map(|r| r["details"].clone()), Some(json!("It shows my flat")));

    let dismissed = admin
        .post("/_api/admin/reports/decide", json!({"setupId": setup, "decision": "dismiss", "note": "Fine"}))
        .await;
    assert_eq!(dismissed.status, StatusCode::OK, "{}", dismissed.text);
    assert_eq!(
        app.client().get("/_api/community/setups").await.json()["pagination"]["total"],
        1,
        "shown again at once"
    );
    assert_eq!(admin.get("/_api/admin/reports").await.json(), json!([]));

    let found = admin.get("/_api/admin/users?query=owner@example.com").await.json();
    assert_eq!(found["users"][0]["id"], json!(owner.id));
    assert_eq!(found["users"][0]["isPro"], false);
    let everyone = admin.get("/_api/admin/users").await.json();
    assert_eq!(
        (everyone["total"].as_i64(), everyone["hasMore"].as_bool()),
        (Some(5), Some(false)),
        "{everyone}"
    );
    assert!(everyone["users"][0]["id"].as_i64() > everyone["users"][4]["id"].as_i64(), "newest first");
    let granted =
        admin.post("/_api/admin/users/change", json!({"userId": owner.id, "change": "grant_pro"})).await;
    assert_eq!(granted.json()["isPro"], true);
    assert_eq!(owner.get("/_api/auth/session").await.json()["user"]["isPro"], true, "the user sees Pro");
    let own =
        admin.post("/_api/admin/users/change", json!({"userId": admin.id, "change": "revoke_admin"})).await;
    assert_eq!(own.status, StatusCode::FORBIDDEN);
    assert!(own.text.contains("You can't remove your own admin role."));

    let log = admin.get("/_api/admin/log").await.json();
    let actions: Vec<&str> =
        log["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["grant_pro", "dismiss_reports"]);
    assert_eq!(log["entries"][1]["details"], "3 open reports closed. Fine");
    assert_eq!(
        log["entries"][1]["adminName"],
        admin.get("/_api/auth/session").await.json()["user"]["username"]
    );
}

async fn bulk_actions_change_the_chosen_accounts_and_say_which_were_skipped(db: TestDb) {
    let app = TestApp::start(db).await;
    let admin = app.user("admin@example.com").admin().sign_up().await;
    let leaving = app.user("leaving@example.com").with_photo_analysis().sign_up().await;
    let staying = app.user("staying@example.com").sign_up().await;
    let picture = setupiq_test_utils::fixtures::jpeg_data_url(10);
    let uploaded = leaving.post("/_api/auth/upload-profile-picture", json!({"imageData": picture})).await;
    assert_eq!(uploaded.status, StatusCode::OK, "{}", uploaded.text);
    let posted = leaving.post("/_api/community/setup", json!({"analysisId": leaving.analysis_ids[0]})).await;
    assert_eq!(posted.status, StatusCode::OK, "{}", posted.text);
    assert_eq!(app.media_files().len(), 1);
    let bulk = |ids: Vec<i64>, action: &str| {
        admin.post("/_api/admin/users/bulk", json!({"userIds": ids, "action": action}))
    };

    let granted = bulk(vec![leaving.id.0, staying.id.0], "grant_pro").await;
    assert_eq!(granted.status, StatusCode::OK, "{}", granted.text);
    assert_eq!((granted.json()["changed"].as_i64(), granted.json()["skipped"].as_i64()), (Some(2), Some(0)));
    assert_eq!(staying.get("/_api/auth/session").await.json()["user"]["isPro"], true, "the member sees Pro");
    let again = bulk(vec![staying.id.0], "grant_pro").await.json();
    assert_eq!(
        again["results"],
        json!([{"userId": staying.id.0, "changed": false, "reason": "already_pro", "message": "Already has Pro granted."}])
    );

    let verified = bulk(vec![staying.id.0], "verify").await.json();
    assert_eq!(verified["changed"], 1);
    let found = admin.get("/_api/admin/users?query=staying@example.com").await.json();
    assert_eq!(found["users"][0]["emailVerified"], true, "the table shows it");

    let deleted = bulk(vec![leaving.id.0, admin.id.0, 999_999], "delete").await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    let deleted = deleted.json();
    assert_eq!((deleted["changed"].as_i64(), deleted["skipped"].as_i64()), (Some(1), Some(2)));
    let reasons: Vec<_> =
        deleted["results"].as_array().unwrap().iter().map(|r| r["reason"].clone()).collect();
    assert_eq!(reasons, [Value::Null, json!("yourself"), json!("not_found")]);
    assert!(!leaving.signed_in().await, "their sessions went with them");
    assert!(app.media_files().is_empty(), "their uploads are removed: {:?}", app.media_files());
    let feed = app.client().get("/_api/community/setups").await.json();
    assert_eq!(feed["pagination"]["total"], 0, "their post is gone from the feed at once");
    assert!(admin.get("/_api/auth/session").await.json()["user"].is_object(), "the admin stays");

    let log = admin.get("/_api/admin/log").await.json();
    let actions: Vec<&str> =
        log["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(
        actions,
        ["delete_account", "verify_email", "grant_pro", "grant_pro"],
        "one entry per account changed"
    );
    assert_eq!(log["entries"][0]["targetId"], json!(leaving.id.0));
}

async fn a_crawlers_clicks_are_kept_but_not_counted(db: TestDb) {
    let app = TestApp::start(db).await;
    let admin = app.user("admin@example.com").admin().sign_up().await;
    let product = products_of(&app, "Monitor")[0];
    let click = json!({"productId": product, "sessionId": "tab-1"});
    let crawler = app.browser("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)");
    assert_eq!(crawler.post("/_api/track-click", click.clone()).await.status, StatusCode::OK);
    let person = app
        .browser("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36");
    assert_eq!(person.post("/_api/track-click", click).await.status, StatusCode::OK);

    let summary = admin.get("/_api/analytics/summary?period=7d").await.json();
    assert_eq!((summary["totalClicks"].as_i64(), summary["uniqueSessions"].as_i64()), (Some(1), Some(1)));
    assert!(summary["estimatedRevenueCents"].as_i64().unwrap() >= 0);
    let top = admin.get("/_api/analytics/top-products").await.json();
    assert_eq!((top[0]["id"].as_i64(), top[0]["clickCount"].as_i64()), (Some(product), Some(1)));
    let days = admin.get("/_api/analytics/daily-clicks?period=7d").await.json();
    assert_eq!(days.as_array().unwrap().len(), 7);
    assert_eq!(days[6]["clicks"], 1);
    let categories = admin.get("/_api/analytics/category-performance?sortBy=estimatedRevenue").await.json();
    assert_eq!(
        categories,
        json!([{
            "category": "Monitor", "clickCount": 1, "uniqueSessions": 1,
            "estimatedRevenue": top[0]["estimatedRevenue"], "estimatedRevenueCents": top[0]["estimatedRevenueCents"]
        }])
    );
}
