//! The account as a whole over real HTTP, on both databases: the browsers signed in to it,
//! the download of everything it holds, and deleting it with its password.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use diesel::prelude::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_db::schema::{sessions, users};
use setupiq_test_utils::{TestApp, TestDb, both_backends_async};

const FIREFOX_ON_WINDOWS: &str =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_ON_IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

both_backends_async!(
    the_signed_in_devices_are_listed_with_this_one_first,
    the_export_holds_everything_the_account_made_and_nothing_else,
    deleting_the_account_asks_for_its_password,
    the_address_changes_when_the_new_one_is_confirmed,
    an_admin_who_moves_to_an_address_not_listed_is_told_and_loses_the_role,
);

async fn the_signed_in_devices_are_listed_with_this_one_first(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("devices@example.com").sign_up().await;
    let laptop = app.browser(FIREFOX_ON_WINDOWS);
    assert_eq!(laptop.login("devices@example.com", &me.password).await.status, StatusCode::OK);
    app.clock.advance(chrono::Duration::minutes(10));
    let phone = app.browser(SAFARI_ON_IPHONE);
    assert_eq!(phone.login("devices@example.com", &me.password).await.status, StatusCode::OK);

    assert_eq!(app.client().get("/_api/auth/sessions").await.status, StatusCode::UNAUTHORIZED);
    let listed = laptop.get("/_api/auth/sessions").await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let seen: Vec<(String, bool)> = listed.json()["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["device"].as_str().unwrap().to_owned(), s["current"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        seen,
        [
            ("Firefox on Windows".to_owned(), true),
            ("Safari on iPhone".to_owned(), false),
            // The sign-up's own browser (a test client: no browser it knows).
            ("Unknown device".to_owned(), false),
        ],
        "this browser first, then the most recently used"
    );
    let first = &listed.json()["sessions"][0];
    assert!(first.get("token").is_none() && first.get("ip").is_none(), "{first}");

    // "Sign out everywhere else" leaves this one alone in the list.
    assert_eq!(laptop.post("/_api/auth/sessions/end-others", json!({})).await.json()["ended"], 2);
    let after = laptop.get("/_api/auth/sessions").await.json();
    assert_eq!(after["sessions"].as_array().unwrap().len(), 1);
    assert!(!phone.signed_in().await && !me.signed_in().await);

    // An overlong User-Agent is cut, not refused.
    let odd = app.browser(&format!("Mozilla/5.0 {}", "x".repeat(2000)));
    assert_eq!(odd.login("devices@example.com", &me.password).await.status, StatusCode::OK);
    let agents: Vec<Option<String>> =
        sessions::table.select(sessions::user_agent).load(&mut *app.db.conn()).unwrap();
    let longest = agents.iter().flatten().map(|agent| agent.chars().count()).max();
    assert_eq!(longest, Some(512));
}

/// Every string anywhere in `value`.
fn strings(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(fields) => {
            fields.iter().flat_map(|(k, v)| [vec![k.clone()], strings(v)].concat()).collect()
        }
        _ => Vec::new(),
    }
}

async fn the_export_holds_everything_the_account_made_and_nothing_else(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_PUBLIC_URL", "https://setupiq.example")]).await;
    let me =
        app.user("mine@example.com").named("Data Owner").verified().with_photo_analysis().sign_up().await;
    let other =
        app.user("other@example.com").named("Someone Else").verified().with_photo_analysis().sign_up().await;

    // What the account makes: a post, a vote and a report on another's post, a RigPage with
    // a link, a contact message, a card purchase in test mode, a shared analysis.
    let mine = me
        .post("/_api/community/setup", json!({"analysisId": me.analysis_ids[0], "title": "Walnut desk"}))
        .await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
    let theirs = other
        .post(
            "/_api/community/setup",
            json!({"analysisId": other.analysis_ids[0], "title": "Their secret title"}),
        )
        .await
        .json()["setupId"]
        .as_i64()
        .unwrap();
    assert_eq!(
        me.post("/_api/community/vote", json!({"setupId": theirs, "value": 1})).await.status,
        StatusCode::OK
    );
    let voted_on_mine =
        other.post("/_api/community/vote", json!({"setupId": mine.json()["setupId"], "value": 1})).await;
    assert_eq!(voted_on_mine.status, StatusCode::OK);
    let reported = me.post("/_api/community/report", json!({"setupId": theirs, "reason": "spam"})).await;
    assert_eq!(reported.status, StatusCode::OK, "{}", reported.text);
    let page = json!({
        "rigpageSlug": "data-owner",
        "rigpageSetupId": me.analysis_ids[0],
        "links": [{"label": "My keyboard", "url": "https://example.com/keyboard"}],
    });
    let saved = me.post("/_api/rigpage/config", page).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let contact = json!({"name": "Data Owner", "email": "mine@example.com", "message": "Where is my cable inventory kept?"});
    assert_eq!(me.post("/_api/contact", contact).await.status, StatusCode::OK);
    let intent = me.post("/_api/stripe/create-payment-intent", json!({"packageId": "starter"})).await.json();
    let intent_id = intent["paymentIntentId"].as_str().unwrap().to_owned();
    let paid = me
        .post(
            "/_api/stripe/test-mode/pay",
            json!({"paymentIntentId": intent_id, "cardNumber": "4242 4242 4242 4242"}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    let confirmed = me.post("/_api/stripe/confirm-payment", json!({"paymentIntentId": intent_id})).await;
    assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text);
    let shared = me.post(&format!("/_api/analyses/{}/share", me.analysis_ids[0]), json!({})).await;
    assert_eq!(shared.status, StatusCode::OK, "{}", shared.text);
    let share_url = shared.json()["url"].as_str().unwrap().to_owned();

    assert_eq!(app.client().get("/_api/account/export").await.status, StatusCode::UNAUTHORIZED);
    // A second browser, whose session token the test reads off the sign-in.
    let browser = app.client();
    let signed_in = browser.login("mine@example.com", &me.password).await;
    let session_token = signed_in
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .and_then(|pair| pair.split_once('='))
        .map(|(_, token)| token.to_owned())
        .unwrap();
    let res = browser.get("/_api/account/export").await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    assert_eq!(
        res.header("content-disposition"),
        Some("attachment; filename=\"setupiq-data-Data_Owner.json\"")
    );
    assert_eq!(res.header("cache-control"), Some("no-store"));
    let export = res.json();

    assert_eq!(export["site"], "https://setupiq.example");
    assert_eq!(export["profile"]["email"], "mine@example.com");
    assert_eq!(export["profile"]["displayName"], "Data Owner");
    assert_eq!(export["sessions"][0]["current"], true);
    let analyses = export["analyses"].as_array().unwrap();
    assert_eq!(analyses.len(), 1);
    assert_eq!(analyses[0]["id"], json!(me.analysis_ids[0]));
    assert!(analyses[0]["inputData"].as_str().unwrap().starts_with("/media/"), "{}", analyses[0]);
    assert!(analyses[0]["result"]["overallScore"].is_number(), "the whole result: {}", analyses[0]);
    let share_path = analyses[0]["sharePath"].as_str().expect("the live share link is in the export");
    assert!(share_url.ends_with(share_path), "{share_path} is not {share_url}");
    assert_eq!(app.client().get(share_path).await.status, StatusCode::OK, "the exported link answers");
    let posts = export["communityPosts"].as_array().unwrap();
    assert_eq!(
        (posts.len(), posts[0]["title"].as_str(), posts[0]["upvotes"].as_i64()),
        (1, Some("Walnut desk"), Some(1))
    );
    assert!(posts[0]["photos"][0].as_str().unwrap().starts_with("/media/"), "{}", posts[0]);
    assert_eq!(
        export["votes"],
        json!([{"setupId": theirs, "value": 1, "createdAt": export["votes"][0]["createdAt"]}])
    );
    assert_eq!(
        (export["reports"][0]["setupId"].as_i64(), export["reports"][0]["reason"].as_str()),
        (Some(theirs), Some("spam"))
    );
    assert_eq!(export["rigpage"]["rigpageSlug"], "data-owner");
    assert_eq!(export["rigpage"]["links"][0]["url"], "https://example.com/keyboard");
    assert_eq!(export["contactMessages"][0]["message"], "Where is my cable inventory kept?");
    let payments = export["payments"].as_array().unwrap();
    assert_eq!(
        (payments.len(), payments[0]["status"].as_str(), payments[0]["packageId"].as_str()),
        (1, Some("succeeded"), Some("starter"))
    );
    let reasons: Vec<&str> =
        export["creditHistory"].as_array().unwrap().iter().map(|e| e["reason"].as_str().unwrap()).collect();
    assert!(reasons.contains(&"signup_bonus") && reasons.contains(&"purchase:starter"), "{reasons:?}");
    assert!(export["affiliateClicks"].is_array());
    assert_eq!(export["notifications"]["emailDigestSince"], serde_json::Value::Null, "the digest is off");
    assert!(export["notifications"]["items"].is_array());

    // Never a password hash, a session token, an address, or another member's data.
    let texts = strings(&export).join("\n");
    for secret in [
        "$argon2",
        session_token.as_str(),
        "client_secret",
        "clientSecret",
        "passwordHash",
        "127.0.0.1",
        "other@example.com",
        "Someone Else",
        "Their secret title",
    ] {
        assert!(!texts.contains(secret), "the export must not hold {secret:?}");
    }
    let their_export = other.get("/_api/account/export").await.json();
    assert!(
        !strings(&their_export).join("\n").contains("mine@example.com"),
        "each export is its owner's alone"
    );
}

async fn deleting_the_account_asks_for_its_password(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("careful@example.com").sign_up().await;
    for (body, message) in [
        (json!({"currentPassword": ""}), "Please enter your current password."),
        (json!({"currentPassword": "not-my-password"}), "Your current password is incorrect."),
    ] {
        let res = me.post("/_api/auth/delete-account", body).await;
        assert_eq!((res.status, res.error().as_str()), (StatusCode::BAD_REQUEST, message), "{}", res.text);
    }
    let refused = me.post("/_api/auth/delete-account", json!({})).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "no password, no deletion: {}", refused.text);
    let count = || users::table.count().get_result::<i64>(&mut *app.db.conn()).unwrap();
    assert_eq!(count(), 1, "nothing deleted");
    assert!(me.signed_in().await, "and still signed in");

    // A borrowed session cannot guess its way through: wrong guesses meet the login throttle.
    let mut throttled = false;
    for _ in 0..12 {
        let res = me.post("/_api/auth/delete-account", json!({"currentPassword": "a-wrong-guess"})).await;
        if res.status == StatusCode::TOO_MANY_REQUESTS {
            throttled = true;
            break;
        }
    }
    assert!(throttled, "repeated wrong passwords are throttled");
    assert_eq!(count(), 1);

    app.clock.advance(chrono::Duration::hours(2));
    let deleted = me.delete_account().await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(deleted.json()["message"], "Account deleted successfully");
    assert_eq!(count(), 0);
}

async fn the_address_changes_when_the_new_one_is_confirmed(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_PUBLIC_URL", "https://setupiq.example")]).await;
    let me = app.user("before@example.com").verified().sign_up().await;
    app.user("someone@example.com").sign_up().await;
    let change = |email: &str, password: &str| json!({"newEmail": email, "currentPassword": password});

    let visitor =
        app.client().post("/_api/auth/change-email", change("after@example.com", &me.password)).await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
    for (body, status, message) in [
        (
            change("not an address", &me.password),
            StatusCode::BAD_REQUEST,
            "Please enter a valid email address.",
        ),
        (
            change("after@example.com", "not-my-password"),
            StatusCode::BAD_REQUEST,
            "Your current password is incorrect.",
        ),
        (
            change("Before@Example.com", &me.password),
            StatusCode::BAD_REQUEST,
            "This is already your e-mail address.",
        ),
        (change("someone@example.com", &me.password), StatusCode::CONFLICT, "Email already in use"),
    ] {
        let res = me.post("/_api/auth/change-email", body).await;
        assert_eq!((res.status, res.error().as_str()), (status, message), "{}", res.text);
        if status == StatusCode::CONFLICT {
            assert_eq!(res.json()["code"], "email_taken", "{}", res.text);
        }
    }

    let asked = me.post("/_api/auth/change-email", change("After@Example.com", &me.password)).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    assert_eq!(
        asked.json()["message"],
        "We sent a link to after@example.com. Your address changes when you open it."
    );
    let link = app
        .outbox()
        .into_iter()
        .rev()
        .find(|m| m.to == "after@example.com")
        .expect("a link to the new address");
    assert_eq!(link.subject, "Confirm your new SetupIQ e-mail address");
    assert!(link.text.contains("https://setupiq.example/verify-email?token="), "{}", link.text);
    assert_eq!(
        me.get("/_api/auth/session").await.json()["user"]["email"],
        "before@example.com",
        "nothing moves yet"
    );
    assert_eq!(app.client().login("before@example.com", &me.password).await.status, StatusCode::OK);

    app.verify_email("after@example.com").await;
    let session = me.get("/_api/auth/session").await.json();
    assert_eq!(
        (session["user"]["email"].as_str(), session["user"]["emailVerified"].as_bool()),
        (Some("after@example.com"), Some(true))
    );
    assert_eq!(app.client().login("before@example.com", &me.password).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.client().login("after@example.com", &me.password).await.status, StatusCode::OK);
    let notice = app.outbox().into_iter().rev().find(|m| m.to == "before@example.com").unwrap();
    assert_eq!(notice.subject, "Your SetupIQ e-mail address was changed");
    assert!(!notice.text.contains("token="), "the notice carries no link to follow: {}", notice.text);
}

async fn an_admin_who_moves_to_an_address_not_listed_is_told_and_loses_the_role(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_ADMIN_EMAILS", "boss@example.com")]).await;
    let boss = app.user("boss@example.com").verified().sign_up().await;
    assert_eq!(boss.get("/_api/auth/session").await.json()["user"]["role"], "admin");
    let member = app.user("member@example.com").verified().sign_up().await;
    let move_to = |email: &str, password: &str| json!({"newEmail": email, "currentPassword": password});

    let asked = boss.post("/_api/auth/change-email", move_to("boss-home@example.com", &boss.password)).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    let link = app.outbox().into_iter().rev().find(|m| m.to == "boss-home@example.com").unwrap();
    assert!(
        link.text.contains(
            "This account is an admin, and this address is not one of SetupIQ's admin addresses: \
             the admin role ends when the account moves here."
        ),
        "{}",
        link.text
    );
    member.post("/_api/auth/change-email", move_to("member-new@example.com", &member.password)).await;
    let members_link = app.outbox().into_iter().rev().find(|m| m.to == "member-new@example.com").unwrap();
    assert!(!members_link.text.contains("admin role"), "{}", members_link.text);

    assert_eq!(boss.get("/_api/admin/reports").await.status, StatusCode::OK, "nothing changes yet");
    app.verify_email("boss-home@example.com").await;
    let session = boss.get("/_api/auth/session").await.json();
    assert_eq!(
        (session["user"]["email"].as_str(), session["user"]["role"].as_str()),
        (Some("boss-home@example.com"), Some("user"))
    );
    assert_eq!(boss.get("/_api/admin/reports").await.status, StatusCode::FORBIDDEN);
}
