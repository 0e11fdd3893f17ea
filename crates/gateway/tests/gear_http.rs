//! A post's gear over real HTTP on both databases (issue 59): its owner sets it (every rule
//! answered with its message, others refused), the feed and the post's page show it without
//! a URL, `/go/gear/{id}` redirects only where the item points and counts people (not bots,
//! not the owner), My Posts and the admin's analytics show the clicks.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_test_utils::{TestApp, TestDb, TestUser, both_backends_async};

const PHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const ARM: &str = "https://www.amazon.com/dp/B0ARM?tag=owner-20";
const LED_STRIP: &str = "Govee RGBIC LED Strip Lights (5 m)";

both_backends_async!(
    the_owner_sets_the_gear_and_everyone_sees_it_without_its_links,
    a_gear_link_redirects_where_the_item_points_and_counts_people,
    a_rigpage_shows_the_showcased_setups_gear_when_its_owner_asks,
);

async fn published(owner: &TestUser) -> i64 {
    let post = json!({"analysisId": owner.analysis_ids[0], "title": "Gear rig"});
    let res = owner.post("/_api/community/setup", post).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    res.json()["setupId"].as_i64().unwrap()
}

async fn the_owner_sets_the_gear_and_everyone_sees_it_without_its_links(db: TestDb) {
    let app = TestApp::start(db).await;
    let owner = app.user("gear-owner@example.com").verified().with_photo_analysis().sign_up().await;
    let other = app.user("gear-other@example.com").verified().sign_up().await;
    let id = published(&owner).await;
    let items = json!([
        {"name": "  LG 27GP850 ", "category": "monitor", "url": ARM},
        {"name": "Keychron Q1", "category": "keyboard"},
        {"name": LED_STRIP, "category": "lighting", "url": ""},
    ]);
    let body = json!({"setupId": id, "items": items});

    assert_eq!(
        app.client().post("/_api/community/gear", body.clone()).await.status,
        StatusCode::UNAUTHORIZED
    );
    let theirs = other.post("/_api/community/gear", body.clone()).await;
    assert_eq!(
        (theirs.status, theirs.error().as_str()),
        (StatusCode::FORBIDDEN, "Only the owner can change this setup.")
    );
    let unknown = owner.post("/_api/community/gear", json!({"setupId": 999_999, "items": []})).await;
    assert_eq!((unknown.status, unknown.error().as_str()), (StatusCode::NOT_FOUND, "Setup not found."));

    let many: Vec<Value> =
        (0..21).map(|i| json!({"name": format!("Thing {i}"), "category": "other"})).collect();
    let cases: Vec<(Value, &str)> = vec![
        (json!(many), "A setup can list at most 20 pieces of gear."),
        (
            json!([{"name": "  ", "category": "desk"}]),
            "Each piece of gear needs a name of 1 to 80 characters.",
        ),
        (
            json!([{"name": "x".repeat(81), "category": "desk"}]),
            "Each piece of gear needs a name of 1 to 80 characters.",
        ),
        (
            json!([{"name": "Arm", "category": "monitor", "url": "javascript:alert(1)"}]),
            "Gear links must be http or https addresses of a public website.",
        ),
        (
            json!([{"name": "Arm", "category": "monitor", "url": "http://169.254.169.254/latest/meta-data/"}]),
            "Gear links must be http or https addresses of a public website.",
        ),
        (
            json!([{"name": "Arm", "category": "monitor", "url": "http://localhost:8080/_api/admin"}]),
            "Gear links must be http or https addresses of a public website.",
        ),
    ];
    for (items, message) in cases {
        let res = owner.post("/_api/community/gear", json!({"setupId": id, "items": items})).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{message}");
        assert_eq!(res.issues(), [("items".to_owned(), message.to_owned())]);
    }
    let spaceship = json!({"setupId": id, "items": [{"name": "Rocket", "category": "spaceship"}]});
    assert_eq!(owner.post("/_api/community/gear", spaceship).await.status, StatusCode::BAD_REQUEST);

    let saved = owner.post("/_api/community/gear", body).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let saved = saved.json();
    assert_eq!(saved["items"][0]["name"], "LG 27GP850");
    assert_eq!(saved["items"][0]["url"], ARM);
    assert_eq!(saved["items"][2]["url"], Value::Null);

    // Everyone sees names, categories and whether there is a link; never the URL.
    let page = app.client().get(&format!("/_api/community/setups/{id}")).await;
    let shown: Vec<(String, String, bool)> = page.json()["gear"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            assert_eq!(g.as_object().unwrap().len(), 4, "id, name, category, hasLink: {g}");
            (
                g["name"].as_str().unwrap().into(),
                g["category"].as_str().unwrap().into(),
                g["hasLink"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("LG 27GP850".into(), "monitor".into(), true),
            ("Keychron Q1".into(), "keyboard".into(), false),
            (LED_STRIP.into(), "lighting".into(), true),
        ]
    );
    assert!(!page.text.contains("B0ARM"), "the URL is the redirect's to know");
    let feed = other.get("/_api/community/setups?sort=new").await;
    assert_eq!(feed.json()["setups"][0]["gear"], page.json()["gear"], "the feed shows the same list");
    assert!(!feed.text.contains("B0ARM"));

    // The owner reads their list back with its links (the edit dialog).
    assert_eq!(other.get(&format!("/_api/community/gear/{id}")).await.status, StatusCode::FORBIDDEN);
    let own = owner.get(&format!("/_api/community/gear/{id}")).await.json();
    assert_eq!(own["items"][0]["url"], ARM);
    assert_eq!(own["items"], saved["items"]);

    // Replaced whole; an empty list removes it.
    let one = json!({"setupId": id, "items": [{"name": "Grandpa's old armchair", "category": "chair"}]});
    assert_eq!(owner.post("/_api/community/gear", one).await.json()["items"].as_array().unwrap().len(), 1);
    assert_eq!(
        app.client().get(&format!("/_api/community/setups/{id}")).await.json()["gear"][0]["category"],
        "chair"
    );
    owner.post("/_api/community/gear", json!({"setupId": id, "items": []})).await;
    assert_eq!(app.client().get(&format!("/_api/community/setups/{id}")).await.json()["gear"], json!([]));
}

async fn a_gear_link_redirects_where_the_item_points_and_counts_people(db: TestDb) {
    let (_shell, app) = TestApp::start_with_app_shell(db).await;
    let owner = app.user("gear-links@example.com").verified().with_photo_analysis().sign_up().await;
    let id = published(&owner).await;
    let items = json!([
        {"name": "Monitor arm", "category": "monitor", "url": ARM},
        {"name": LED_STRIP.to_lowercase(), "category": "lighting"},
        {"name": "My own desk", "category": "desk"},
    ]);
    let saved = owner.post("/_api/community/gear", json!({"setupId": id, "items": items})).await.json();
    let ids: Vec<i64> =
        saved["items"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    let (arm, strip, desk) = (ids[0], ids[1], ids[2]);

    // The server's page of the post lists the gear for readers without the script.
    let page = app.client().get(&format!("/community/setup/{id}")).await;
    assert!(
        page.text.contains(&format!(
            r#"<a href="/go/gear/{arm}" rel="nofollow sponsored noopener">Monitor arm</a>"#
        )),
        "{}",
        page.text
    );
    assert!(page.text.contains("<li>My own desk</li>"), "no link where there is none");
    assert!(page.text.contains("Gear: Monitor arm, "), "and names it in the preview's description");
    assert!(!page.text.contains("B0ARM"));

    let visitor = app.browser(PHONE);
    let go = visitor.get(&format!("/go/gear/{arm}")).await;
    assert_eq!((go.status, go.header("location")), (StatusCode::FOUND, Some(ARM)));
    assert_eq!(go.header("cache-control"), Some("no-store"));
    let go = visitor.get(&format!("/go/gear/{strip}")).await;
    assert_eq!(go.status, StatusCode::FOUND);
    let to = go.header("location").unwrap();
    assert!(
        to.starts_with("https://www.amazon.com/s?k=Govee+RGBIC+LED+Strip") && to.contains("tag=setupiq-20"),
        "{to}"
    );
    // Never a redirect the item does not hold: no link, a forged or malformed id.
    for path in
        [format!("/go/gear/{desk}"), "/go/gear/999999".into(), "/go/gear/0".into(), "/go/gear/abc".into()]
    {
        let res = visitor.get(&path).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}");
        assert!(res.header("location").is_none(), "{path}");
    }
    // Not counted: a bot (redirected all the same) and the owner.
    let bot = app.browser(GOOGLEBOT).get(&format!("/go/gear/{arm}")).await;
    assert_eq!(bot.status, StatusCode::FOUND);
    let own_browser = app.browser(PHONE);
    assert_eq!(own_browser.login(&owner.email, &owner.password).await.status, StatusCode::OK);
    assert_eq!(own_browser.get(&format!("/go/gear/{arm}")).await.status, StatusCode::FOUND);

    let posts = owner.get("/_api/community/my-posts/analytics").await.json();
    assert_eq!(posts["posts"][0]["gearClicks"], 2, "the visitor's two clicks");
    let own = owner.get(&format!("/_api/community/gear/{id}")).await.json();
    let clicks: Vec<i64> =
        own["items"].as_array().unwrap().iter().map(|g| g["clicks"].as_i64().unwrap()).collect();
    assert_eq!(clicks, [1, 1, 0]);

    let admin = app.user("gear-admin@example.com").admin().sign_up().await;
    assert_eq!(owner.get("/_api/analytics/gear-clicks").await.status, StatusCode::FORBIDDEN);
    let stats = admin.get("/_api/analytics/gear-clicks?period=7d").await;
    assert_eq!(stats.status, StatusCode::OK, "{}", stats.text);
    assert_eq!(
        stats.json(),
        json!({
            "totalClicks": 2,
            "byCategory": [{"category": "monitor", "clicks": 1}, {"category": "lighting", "clicks": 1}],
            "byNetwork": [{"network": "Amazon", "clicks": 2}],
        })
    );
}

async fn a_rigpage_shows_the_showcased_setups_gear_when_its_owner_asks(db: TestDb) {
    let app = TestApp::start(db).await;
    let owner = app.user("gear-rig@example.com").verified().credits(5).with_photo_analysis().sign_up().await;
    let id = published(&owner).await;
    let items = json!([
        {"name": "Monitor arm", "category": "monitor", "url": ARM},
        {"name": "Gaming PC <3", "category": "pc"},
    ]);
    let saved = owner.post("/_api/community/gear", json!({"setupId": id, "items": items})).await.json();
    let arm = saved["items"][0]["id"].as_i64().unwrap();
    let config = |show_gear: bool| {
        json!({
            "rigpageEnabled": true,
            "rigpageSlug": "gear_rig",
            "rigpageSetupId": owner.analysis_ids[0],
            "showGear": show_gear,
        })
    };

    let res = owner.post("/_api/rigpage/config", config(false)).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let page = app.browser(PHONE).get("/rig/gear_rig").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.text.contains("My gear"), "off unless the owner asks");

    let res = owner.post("/_api/rigpage/config", config(true)).await;
    assert_eq!(res.json()["showGear"], true, "{}", res.text);
    let page = app.browser(PHONE).get("/rig/gear_rig").await;
    assert!(
        page.text.contains(r#"<section class="gear" aria-label="My gear"><h2>My gear</h2>"#),
        "{}",
        page.text
    );
    assert!(
        page.text
            .contains(&format!(r#"href="/go/gear/{arm}" target="_blank" rel="nofollow sponsored noopener""#))
    );
    assert!(page.text.contains("Gaming PC &lt;3"), "escaped, and without a link");
    assert!(!page.text.contains("B0ARM"), "the URL stays behind the redirect");
    assert!(!page.text.contains("<script"), "rendered by the server, no script");
    let go = app.browser(PHONE).get(&format!("/go/gear/{arm}")).await;
    assert_eq!((go.status, go.header("location")), (StatusCode::FOUND, Some(ARM)));
}
