//! RigPage over real HTTP on both databases: the editor's config with every validation
//! message of the specification and every refused URL scheme, the charges the server takes
//! (402 and nothing saved when short, 409 for a taken slug), uploads, the server-rendered
//! public page (escaping, every theme, the not-found page), the counting link redirect
//! (never an open redirect) and the creator's analytics.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use base64::Engine;
use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_test_utils::{TestApp, TestDb, TestUser, both_backends_async};

const PHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) \
                     Mobile/15E148 Instagram 300.0.0";

both_backends_async!(
    signed_out_visitors_get_401,
    every_field_is_validated_with_the_specification_messages,
    only_http_and_https_urls_are_accepted_anywhere_a_visitor_can_click,
    the_editor_loads_defaults_and_the_server_charges_on_save,
    the_public_page_is_rendered_by_the_server,
    a_renamed_page_answers_its_old_address_with_a_permanent_redirect,
    everything_user_written_is_escaped,
    every_theme_font_and_button_style_renders_in_the_preview,
    clicks_redirect_only_to_stored_links_and_visitors_are_counted,
    uploads_go_through_the_pipeline_and_leave_with_the_account,
    the_qr_code_and_the_themes,
);

/// A user with a photo analysis (id in `analysis_ids[0]`) and `credits`.
async fn creator(app: &TestApp, email: &str, credits: i32) -> TestUser {
    app.user(email).credits(credits).with_photo_analysis().sign_up().await
}

/// A config that may go live: slug and the user's photo setup.
fn page(me: &TestUser, slug: &str) -> Value {
    json!({ "rigpageSlug": slug, "rigpageSetupId": me.analysis_ids[0] })
}

fn with(mut base: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

fn links(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"label": format!("Link {i}"), "url": format!("https://example.com/{i}")}))
            .collect(),
    )
}

/// The `issues` of a 400 as (path, message).
fn issues(res: &setupiq_test_utils::TestResponse) -> Vec<(String, String)> {
    res.json()["issues"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|i| (i["path"].as_str().unwrap().to_owned(), i["message"].as_str().unwrap().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

async fn signed_out_visitors_get_401(db: TestDb) {
    let app = TestApp::start(db).await;
    let visitor = app.client();
    for path in ["/_api/rigpage/config", "/_api/rigpage/stats", "/_api/rigpage/qr"] {
        assert_eq!(visitor.get(path).await.status, StatusCode::UNAUTHORIZED, "GET {path}");
    }
    for path in ["/_api/rigpage/config", "/_api/rigpage/preview"] {
        assert_eq!(visitor.post(path, json!({})).await.status, StatusCode::UNAUTHORIZED, "POST {path}");
    }
    let upload = visitor.post("/_api/rigpage/images", json!({"kind": "avatar", "imageData": "data:x"})).await;
    assert_eq!(upload.status, StatusCode::UNAUTHORIZED);
}

async fn every_field_is_validated_with_the_specification_messages(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "valid@example.com", 5).await;
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({"rigpageSlug": "ab"}), "rigpageSlug", "URL must be at least 3 characters."),
        (json!({"rigpageSlug": "a".repeat(31)}), "rigpageSlug", "URL must be 30 characters or less."),
        (
            json!({"rigpageSlug": "my rig!"}),
            "rigpageSlug",
            "URL can only contain letters, numbers, hyphens, and underscores.",
        ),
        (
            json!({"links": [{"label": "  ", "url": "https://x.com"}]}),
            "links.0.label",
            "Label cannot be empty.",
        ),
        (json!({"links": [{"label": "X", "url": "not a url"}]}), "links.0.url", "Please enter a valid URL."),
        (
            json!({"rigpageTagline": "t".repeat(101)}),
            "rigpageTagline",
            "Tagline must be 100 characters or less.",
        ),
        (json!({"rigpageBio": "b".repeat(151)}), "rigpageBio", "Bio must be 150 characters or less."),
        (
            json!({"rigpageHighlightColor": "#12345"}),
            "rigpageHighlightColor",
            "Please enter a colour as a six-digit hex code, e.g. #8B5CF6.",
        ),
        (
            json!({"backgroundOverlay": "red"}),
            "backgroundOverlay",
            "Please enter a colour as a six-digit hex code, e.g. #8B5CF6.",
        ),
        (
            json!({"buttonCornerRadius": 101}),
            "buttonCornerRadius",
            "Corner radius must be between 0 and 100.",
        ),
        (json!({"backgroundBlur": 51}), "backgroundBlur", "Blur must be between 0 and 50."),
        (json!({"backgroundOpacity": -1}), "backgroundOpacity", "Opacity must be between 0 and 100."),
        (
            json!({"rigpageSocialLinks": {"email": "nope"}}),
            "rigpageSocialLinks.email",
            "Please enter a valid email address.",
        ),
        (json!({"rigpageSetupId": 0}), "rigpageSetupId", "Please choose one of your setups."),
    ];
    for (body, path, message) in cases {
        let res = me.post("/_api/rigpage/config", body.clone()).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(issues(&res).contains(&(path.into(), message.into())), "{body}: {:?}", issues(&res));
    }
    for (body, wanted) in [
        (json!({"rigpageTheme": "hotdog"}), "rigpageTheme"),
        (json!({"fontStyle": "comic"}), "fontStyle"),
        (json!({"buttonStyle": "wobbly"}), "buttonStyle"),
        (json!({"rigpageSocialLinks": "{not json"}), "rigpageSocialLinks"),
    ] {
        let res = me.post("/_api/rigpage/config", body.clone()).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}");
        assert!(res.error().contains(wanted), "{body}: {}", res.error());
    }
    // Trimmed, empty as none; socials as a JSON string and links as `rigpageLinks` are read.
    let res = me
        .post(
            "/_api/rigpage/config",
            json!({
                "rigpageSlug": "  Trimmed_Rig  ", "rigpageTagline": "   ", "rigpageBio": " Hi ",
                "rigpageSocialLinks": "{\"twitch\": \"https://twitch.tv/me\", \"email\": \"\"}",
                "rigpageLinks": [{"label": " Shop ", "url": " https://shop.example.com "}],
                "sections": [" Gear ", "", "Gear"],
            }),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let saved = res.json();
    assert_eq!(saved["rigpageSlug"], "Trimmed_Rig");
    assert_eq!(saved["rigpageTagline"], Value::Null);
    assert_eq!(saved["rigpageBio"], "Hi");
    assert_eq!(saved["rigpageSocialLinks"]["twitch"], "https://twitch.tv/me");
    assert_eq!(saved["rigpageSocialLinks"]["email"], Value::Null);
    assert_eq!(saved["links"][0]["label"], "Shop");
    assert_eq!(saved["links"][0]["url"], "https://shop.example.com");
    assert_eq!(saved["sections"], json!(["Gear"]));
    // A link in a section the page does not have.
    let res = me
        .post(
            "/_api/rigpage/config",
            json!({"links": [{"label": "A", "url": "https://a.io", "section": "Nope"}]}),
        )
        .await;
    assert_eq!(
        issues(&res),
        [("links.0.section".to_owned(), "Please choose one of your sections.".to_owned())]
    );
}

async fn only_http_and_https_urls_are_accepted_anywhere_a_visitor_can_click(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "schemes@example.com", 5).await;
    let long = format!("https://example.com/{}", "a".repeat(2048));
    let bad = [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        long.as_str(),
    ];
    for url in bad {
        for (body, path) in [
            (json!({"links": [{"label": "X", "url": url}]}), "links.0.url"),
            (json!({"rigpageSocialLinks": {"twitch": url}}), "rigpageSocialLinks.twitch"),
            (json!({"rigpageSocialLinks": {"instagram": url}}), "rigpageSocialLinks.instagram"),
            (json!({"backgroundImage": url}), "backgroundImage"),
            (json!({"rigpageAvatar": url}), "rigpageAvatar"),
            (json!({"links": [{"label": "X", "url": "https://ok.io", "imageUrl": url}]}), "links.0.imageUrl"),
        ] {
            let res = me.post("/_api/rigpage/config", body).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{url:?} at {path}");
            assert!(
                issues(&res).contains(&(path.into(), "Please enter a valid URL.".into())),
                "{url:?} at {path}: {:?}",
                issues(&res)
            );
        }
    }
    // An image must be the user's own upload, not any address.
    let res = me
        .post("/_api/rigpage/config", json!({"backgroundImage": "https://tracker.example.com/pixel.png"}))
        .await;
    assert_eq!(
        issues(&res),
        [("backgroundImage".to_owned(), "Please upload this image from the editor.".to_owned())]
    );
}

async fn the_editor_loads_defaults_and_the_server_charges_on_save(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "charges@example.com", 2).await;
    let loaded = me.get("/_api/rigpage/config").await.json();
    let username = loaded["username"].as_str().unwrap().to_owned();
    assert_eq!(loaded["rigpageSlug"], username.as_str(), "the slug defaults to the username");
    assert_eq!(loaded["rigpageSetupId"], json!(me.analysis_ids[0]));
    assert_eq!((loaded["saved"].clone(), loaded["credits"].clone()), (json!(false), json!(2)));
    assert_eq!(loaded["setups"][0]["inputType"], "image");

    // Go Live: 1 credit, taken by the server.
    let live = me
        .post("/_api/rigpage/config", with(page(&me, "charged_rig"), json!({"rigpageEnabled": true})))
        .await;
    assert_eq!(live.status, StatusCode::OK, "{}", live.text);
    assert_eq!(live.json()["charged"], json!({"credits": 1, "publish": true, "linkBatches": 0}));
    assert_eq!((live.json()["credits"].clone(), app.balance(me.id)), (json!(1), 1));
    assert_eq!(live.json()["publicUrl"], format!("http://127.0.0.1:8080/rig/charged_rig"));

    // The 6th link: 1 credit. Then 16 links with 0 credits left: 402, nothing saved.
    let six = with(page(&me, "charged_rig"), json!({"rigpageEnabled": true, "links": links(6)}));
    assert_eq!(me.post("/_api/rigpage/config", six).await.json()["charged"]["linkBatches"], 1);
    let sixteen = with(
        page(&me, "charged_rig"),
        json!({"rigpageEnabled": true, "links": links(16), "rigpageBio": "new"}),
    );
    let short = me.post("/_api/rigpage/config", sixteen).await;
    assert_eq!(short.status, StatusCode::PAYMENT_REQUIRED);
    assert_eq!(short.json()["code"], "insufficient_credits");
    assert!(short.error().contains("credits"), "{}", short.error());
    let kept = me.get("/_api/rigpage/config").await.json();
    assert_eq!((kept["links"].as_array().unwrap().len(), kept["rigpageBio"].clone()), (6, Value::Null));
    app.assert_ledger_consistent(me.id);

    // A taken slug: 409, in any case.
    let other = creator(&app, "taker@example.com", 2).await;
    let taken = other.post("/_api/rigpage/config", page(&other, "CHARGED_RIG")).await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    assert!(taken.error().contains("taken") && taken.error().contains("slug"), "{}", taken.error());
    let reserved = other.post("/_api/rigpage/config", page(&other, "Admin")).await;
    assert_eq!(issues(&reserved)[0].0, "rigpageSlug");

    // Going live with another user's setup, or without a setup: 400.
    let foreign = other
        .post(
            "/_api/rigpage/config",
            json!({"rigpageSlug": "x_rig", "rigpageSetupId": me.analysis_ids[0], "rigpageEnabled": true}),
        )
        .await;
    assert_eq!(issues(&foreign)[0].0, "rigpageSetupId");
    let bare =
        other.post("/_api/rigpage/config", json!({"rigpageSlug": "x_rig", "rigpageEnabled": true})).await;
    assert_eq!(bare.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.balance(other.id), 2);
}

async fn a_renamed_page_answers_its_old_address_with_a_permanent_redirect(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "rename@example.com", 5).await;
    let live = json!({"rigpageEnabled": true});
    let saved = me.post("/_api/rigpage/config", with(page(&me, "Old_Rig"), live.clone())).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let visitor = app.browser(PHONE);
    assert_eq!(
        visitor.get("/rig/old_rig").await.status,
        StatusCode::OK,
        "the page is kept a few seconds too"
    );

    let renamed = me.post("/_api/rigpage/config", with(page(&me, "New_Rig"), live)).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    let old = visitor.get("/rig/old_rig").await;
    assert_eq!(old.status, StatusCode::MOVED_PERMANENTLY, "{}", old.text);
    assert_eq!(old.header("location"), Some("/rig/New_Rig"));
    assert_eq!(visitor.get("/rig/New_Rig").await.status, StatusCode::OK);
    let squatter = creator(&app, "squat@example.com", 5).await;
    let taken = squatter.post("/_api/rigpage/config", page(&squatter, "Old_Rig")).await;
    assert_eq!(taken.status, StatusCode::CONFLICT, "{}", taken.text);

    app.clock.advance(chrono::Duration::days(91));
    app.state().pages.cache.clear();
    assert_eq!(
        visitor.get("/rig/old_rig").await.status,
        StatusCode::NOT_FOUND,
        "after 90 days the old address is free"
    );
}

async fn the_public_page_is_rendered_by_the_server(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "render@example.com", 5).await;
    let config = json!({
        "rigpageEnabled": true, "rigpageTagline": "Night streams, clean cables", "rigpageBio": "FPS and chill",
        "rigpageSocialLinks": {"twitch": "https://twitch.tv/me", "youtube": "", "email": "secret@example.com"},
        "sections": ["Gear", "Socials"],
        "links": [
            {"label": "Keyboard", "url": "https://shop.example.com/kb", "section": "Gear"},
            {"label": "Loose link", "url": "https://loose.example.com"},
            {"label": "Hidden", "url": "https://hidden.example.com", "enabled": false},
            {"label": "Mouse", "url": "https://shop.example.com/mouse", "section": "Gear"},
        ],
    });
    let saved = me.post("/_api/rigpage/config", with(page(&me, "Render_Rig"), config)).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let username = saved.json()["username"].as_str().unwrap().to_owned();

    let visitor = app.browser(PHONE);
    let res = visitor.get("/rig/render_rig").await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    let html = &res.text;
    assert!(html.contains(&format!("<title>{username}'s RigPage</title>")), "{html}");
    // The member's name as everywhere else, the handle beneath it.
    assert!(html.contains("<h1>Test Gamer</h1>"), "{html}");
    assert!(html.contains(&format!(r#"<p class="handle">@{username}</p>"#)), "{html}");
    assert!(html.contains(r#"<meta name="description" content="Night streams, clean cables">"#));
    assert!(html.contains(r#"<link rel="canonical" href="http://127.0.0.1:8080/rig/Render_Rig">"#));
    assert!(html.contains(r#"<meta property="og:image" content="http://127.0.0.1:8080/media/analyses/"#));
    assert!(html.contains(r#"<meta name="twitter:card" content="summary_large_image">"#));
    assert!(!html.contains("<script"), "no script at all");
    assert!(!html.contains("secret@example.com"), "never the e-mail");
    assert!(
        html.contains(r#"aria-label="Twitch""#) && !html.contains(r#"aria-label="YouTube""#),
        "non-empty socials only"
    );
    assert!(html.contains("SetupIQ Score") && html.contains("Overall Score") && html.contains("Setup Type"));
    assert!(html.contains("Powered by SetupIQ – <a href=\"http://127.0.0.1:8080/\">Create your RigPage</a>"));
    // Sections in order, the unsectioned link under "Other Links", the hidden one nowhere.
    let order: Vec<usize> = ["<h2>Gear</h2>", "Keyboard", "Mouse", "<h2>Other Links</h2>", "Loose link"]
        .iter()
        .map(|needle| html.find(needle).unwrap_or_else(|| panic!("{needle} missing")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(!html.contains("Hidden") && !html.contains("<h2>Socials</h2>"), "empty sections are not drawn");
    assert!(html.contains(r#"target="_blank" rel="noopener nofollow ugc""#));

    // The JSON form, in any case; never an e-mail.
    let public = visitor.get("/_api/rigpage/RENDER_RIG").await;
    assert_eq!(public.status, StatusCode::OK);
    let body = public.json();
    assert_eq!(body["user"]["username"], username.as_str());
    assert_eq!(body["links"].as_array().unwrap().len(), 3);
    assert!(!public.text.contains("secret@example.com") && !public.text.contains("render@example.com"));

    // Unknown and private pages: the not-found page, 404.
    let missing = visitor.get("/rig/no_such_rig").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.text.contains("RigPage Not Found"));
    assert!(
        missing
            .text
            .contains("The RigPage for &quot;no_such_rig&quot; could not be found or is not available.")
    );
    assert!(missing.text.contains("Return Home"));
    assert_eq!(visitor.get("/_api/rigpage/no_such_rig").await.status, StatusCode::NOT_FOUND);
    me.post("/_api/rigpage/config", with(page(&me, "Render_Rig"), json!({"rigpageEnabled": false}))).await;
    assert_eq!(
        visitor.get("/rig/render_rig").await.status,
        StatusCode::NOT_FOUND,
        "private at once after a save"
    );
}

async fn everything_user_written_is_escaped(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "xss@example.com", 5).await;
    let evil = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>";
    let section = "<script>s</script><b>";
    let config = json!({
        "rigpageEnabled": true, "rigpageTagline": evil, "rigpageBio": evil, "sections": [section],
        "links": [
            {"label": evil, "url": "https://example.com/?q=<script>&x=\"'", "section": section},
            {"label": evil, "url": "https://example.com/b"},
        ],
    });
    let saved = me.post("/_api/rigpage/config", with(page(&me, "xss_rig"), config.clone())).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let preview = me.post("/_api/rigpage/preview", with(page(&me, "xss_rig"), config)).await.json()["html"]
        .as_str()
        .unwrap()
        .to_owned();
    for html in [app.browser(PHONE).get("/rig/xss_rig").await.text, preview] {
        assert!(!html.contains("<script"), "a script tag got through");
        assert!(!html.contains("<img src=x"), "an element got through");
        assert!(!html.contains("<b>"), "an element got through");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;"), "shown as text");
        assert!(html.contains("<h2>&lt;script&gt;s&lt;/script&gt;&lt;b&gt;</h2>"), "section names as text");
    }
}

async fn every_theme_font_and_button_style_renders_in_the_preview(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "themes@example.com", 5).await;
    let themes = app.client().get("/_api/rigpage/themes").await.json()["themes"].as_array().unwrap().clone();
    assert_eq!(themes.len(), 13);
    for theme in &themes {
        let body = with(
            page(&me, "theme_rig"),
            json!({
                "rigpageTheme": theme["id"], "rigpageHighlightColor": theme["highlightColor"],
                "buttonStyle": theme["buttonStyle"], "buttonCornerRadius": theme["buttonCornerRadius"],
                "fontStyle": theme["fontStyle"], "backgroundOverlay": theme["backgroundOverlay"],
            }),
        );
        let res = me.post("/_api/rigpage/preview", body).await;
        assert_eq!(res.status, StatusCode::OK, "{}: {}", theme["id"], res.text);
        let html = res.json()["html"].as_str().unwrap().to_owned();
        assert!(html.contains(theme["highlightColor"].as_str().unwrap()), "{}", theme["id"]);
        assert!(html.contains("My Stream"), "sample links when there are none");
        assert_eq!(html.contains("@font-face"), theme["fontStyle"] == "gaming", "{}", theme["id"]);
    }
    let mut outputs = Vec::new();
    for button in ["solid", "outline", "soft", "glass", "rounded", "pill", "sharp", "gradient"] {
        let res = me
            .post("/_api/rigpage/preview", with(page(&me, "theme_rig"), json!({"buttonStyle": button})))
            .await;
        assert_eq!(res.status, StatusCode::OK, "{button}");
        outputs.push(res.json()["html"].as_str().unwrap().to_owned());
    }
    outputs.dedup();
    assert_eq!(outputs.len(), 8, "each button style draws differently");
    let font = app.client().get("/rig-assets/orbitron-latin-700.woff2").await;
    assert_eq!((font.status, font.header("content-type")), (StatusCode::OK, Some("font/woff2")));
    assert_eq!(
        font.header("access-control-allow-origin"),
        Some("*"),
        "the sandboxed preview (origin null) loads it"
    );
    // The preview checks the setup like a save.
    let other = creator(&app, "themes-other@example.com", 5).await;
    let foreign = other.post("/_api/rigpage/preview", json!({"rigpageSetupId": me.analysis_ids[0]})).await;
    assert_eq!(foreign.status, StatusCode::BAD_REQUEST);
}

async fn clicks_redirect_only_to_stored_links_and_visitors_are_counted(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "clicks@example.com", 5).await;
    let config = json!({"rigpageEnabled": true, "links": [
        {"label": "Shop", "url": "https://shop.example.com/a?b=1"},
        {"label": "Off", "url": "https://off.example.com", "enabled": false},
    ]});
    let saved = me.post("/_api/rigpage/config", with(page(&me, "click_rig"), config)).await.json();
    let (shop, off) = (saved["links"][0]["id"].as_i64().unwrap(), saved["links"][1]["id"].as_i64().unwrap());
    let other = creator(&app, "clicks-other@example.com", 5).await;
    let theirs = other
        .post(
            "/_api/rigpage/config",
            with(page(&other, "other_click_rig"), json!({"rigpageEnabled": true, "links": links(1)})),
        )
        .await
        .json();
    let their_link = theirs["links"][0]["id"].as_i64().unwrap();

    let visitor = app.browser(PHONE);
    assert_eq!(visitor.get("/rig/click_rig").await.status, StatusCode::OK);
    assert_eq!(visitor.get("/rig/CLICK_RIG").await.status, StatusCode::OK);
    let go = visitor.get(&format!("/rig/click_rig/go/{shop}")).await;
    assert_eq!(go.status, StatusCode::FOUND);
    assert_eq!(go.header("location"), Some("https://shop.example.com/a?b=1"));
    // Never an open redirect: a link of another page, a switched-off link, no link.
    for path in [
        format!("/rig/click_rig/go/{their_link}"),
        format!("/rig/click_rig/go/{off}"),
        "/rig/click_rig/go/999999".into(),
    ] {
        let res = visitor.get(&path).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}");
        assert!(res.header("location").is_none());
    }
    // Not counted: bots, the owner, and HEAD requests.
    app.browser("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
        .get("/rig/click_rig")
        .await;
    app.client().get("/rig/click_rig").await; // no User-Agent at all
    me.get("/rig/click_rig").await;
    let head = visitor.send(visitor.http.head(visitor.url("/rig/click_rig"))).await;
    assert_eq!(
        (head.status, head.header("content-type")),
        (StatusCode::OK, Some("text/html; charset=utf-8"))
    );

    let stats = me.get("/_api/rigpage/stats").await.json();
    assert_eq!((stats["views"].clone(), stats["clicks"].clone()), (json!(2), json!(1)), "{stats}");
    assert_eq!(stats["topLink"]["label"], "Shop");
    assert_eq!(stats["clickThroughRate"], 0.5);
    assert_eq!(stats["daily"].as_array().unwrap().len(), 30);
    assert_eq!(other.get("/_api/rigpage/stats").await.json()["views"], 0, "each creator sees their own");
}

fn png_data_url(width: u32, height: u32) -> String {
    let image = image::RgbImage::from_pixel(width, height, image::Rgb([30, 200, 120]));
    let mut bytes = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

async fn uploads_go_through_the_pipeline_and_leave_with_the_account(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "uploads@example.com", 5).await;
    let res = me
        .post("/_api/rigpage/images", json!({"kind": "background", "imageData": png_data_url(40, 30)}))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let url = res.json()["url"].as_str().unwrap().to_owned();
    let served = app.client().get(&url).await;
    assert_eq!((served.status, served.header("content-type")), (StatusCode::OK, Some("image/png")));

    let gif = format!(
        "data:image/gif;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(b"GIF89a\x01\x00\x01\x00")
    );
    let refused = me.post("/_api/rigpage/images", json!({"kind": "link", "imageData": gif})).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(refused.error(), "Please upload a valid image (PNG, JPG, or WebP)");
    let huge = format!("data:image/png;base64,{}", "A".repeat(14 * 1024 * 1024));
    let too_big = me.post("/_api/rigpage/images", json!({"kind": "avatar", "imageData": huge})).await;
    assert_eq!(too_big.status, StatusCode::BAD_REQUEST);
    assert_eq!(too_big.error(), "Image must be less than 10MB");

    let saved =
        me.post("/_api/rigpage/config", with(page(&me, "upload_rig"), json!({"backgroundImage": url}))).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(app.media_files().len(), 1);
    assert_eq!(me.delete_account().await.status, StatusCode::OK);
    assert!(app.media_files().is_empty(), "the account's RigPage images are deleted with it");
    assert_eq!(app.client().get("/rig/upload_rig").await.status, StatusCode::NOT_FOUND);
}

async fn the_qr_code_and_the_themes(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = creator(&app, "qr@example.com", 5).await;
    assert_eq!(me.get("/_api/rigpage/qr").await.status, StatusCode::NOT_FOUND, "not saved yet");
    me.post("/_api/rigpage/config", page(&me, "qr_rig")).await;
    let qr = me.get("/_api/rigpage/qr").await;
    assert_eq!((qr.status, qr.header("content-type")), (StatusCode::OK, Some("image/svg+xml")));
    assert!(qr.text.contains("<svg") && qr.text.contains("<path"), "{}", &qr.text[..qr.text.len().min(200)]);

    let themes = app.client().get("/_api/rigpage/themes").await.json();
    assert_eq!(
        themes["themes"][0],
        json!({"id": "dark_neon", "name": "Dark Neon", "highlightColor": "#8B5CF6", "buttonStyle": "outline",
               "buttonCornerRadius": 50, "fontStyle": "gaming", "backgroundOverlay": "#000000"})
    );
    assert_eq!(themes["themes"][12]["name"], "Retro Arcade");
}
