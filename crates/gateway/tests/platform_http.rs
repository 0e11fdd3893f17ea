//! What every response shares: security headers, the JSON 404 for unknown API paths, the
//! single-page app with its caching, the API reference, health, real SMTP delivery, the
//! admin extractor and the committed OpenAPI document.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use actix_web::test as actix_test;
use actix_web::{App, HttpResponse, get, web};
use reqwest::StatusCode;
use serde_json::json;
use setupiq_auth::AdminUser;
use setupiq_core::SharedClock;
use setupiq_gateway::api_doc;
use setupiq_test_utils::{SentMail, SmtpSink, TestApp, TestDb};

fn assert_security_headers(res: &setupiq_test_utils::TestResponse, what: &str) {
    assert_eq!(res.header("x-content-type-options"), Some("nosniff"), "{what}");
    assert_eq!(res.header("referrer-policy"), Some("strict-origin-when-cross-origin"), "{what}");
    let csp = res.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
}

#[actix_web::test]
async fn every_response_carries_the_security_headers() {
    let app = TestApp::start(TestDb::sqlite()).await;
    let browser = app.client();
    let ok = browser.get("/_api/health").await;
    assert_eq!(ok.json(), json!({"status": "ok", "database": "sqlite"}));
    assert_security_headers(&ok, "200 JSON");
    let unauthorised = browser.get("/_api/my-analyses").await;
    assert_eq!(unauthorised.status, StatusCode::UNAUTHORIZED);
    assert_security_headers(&unauthorised, "401");
    let invalid = browser.post("/_api/auth/login_with_password", json!({"email": 1})).await;
    assert_eq!(invalid.status, StatusCode::BAD_REQUEST);
    assert_security_headers(&invalid, "400 from the JSON extractor");
    let missing = browser.get("/_api/no-such-thing").await;
    assert_eq!(
        (missing.status, missing.json()["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("Not found."))
    );
    assert_security_headers(&missing, "404");
    let page = browser.get("/profile").await;
    assert_security_headers(&page, "HTML");
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("script-src 'self'") && csp.contains("default-src 'self'"), "{csp}");
    assert!(ok.header("strict-transport-security").is_none(), "no HSTS over plain http");
}

#[actix_web::test]
async fn stripe_js_is_allowed_only_when_stripe_is_configured() {
    let plain = TestApp::start(TestDb::sqlite()).await;
    let csp = plain.client().get("/buy-credits").await.header("content-security-policy").unwrap().to_owned();
    assert!(!csp.contains("stripe.com"), "{csp}");
    let stripe = TestApp::start_with(
        TestDb::sqlite(),
        &[("STRIPE_SECRET_KEY", "sk_test_x"), ("STRIPE_PUBLISHABLE_KEY", "pk_test_x")],
    )
    .await;
    let csp = stripe.client().get("/buy-credits").await.header("content-security-policy").unwrap().to_owned();
    assert!(
        csp.contains("script-src 'self' https://js.stripe.com")
            && csp.contains("frame-src https://js.stripe.com"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"));
    assert!(!csp.contains("googlesyndication"), "no ad script without an ad client: {csp}");
}

#[actix_web::test]
async fn the_site_answers_its_operator_and_ads_only_as_configured() {
    let plain = TestApp::start(TestDb::sqlite()).await;
    let site = plain.client().get("/_api/site").await;
    assert_eq!(site.status, StatusCode::OK);
    assert_eq!(site.header("cache-control"), Some("public, max-age=300"));
    assert_eq!(
        site.json(),
        json!({
            "legal": {"operator": null, "address": [], "contactEmail": null, "phone": null, "representative": null,
                      "register": null, "vatId": null, "policyDate": null},
            "adsenseClient": null,
            "analyzer": "local",
            "supportEmail": "support@setupiq.local",
            "businessEmail": "business@setupiq.local",
        }),
        "nothing is invented"
    );
    let configured = TestApp::start_with(
        TestDb::sqlite(),
        &[
            ("SETUPIQ_LEGAL_OPERATOR", "Rig Labs GmbH"),
            ("SETUPIQ_LEGAL_ADDRESS", "Hauptstr. 1; 10115 Berlin"),
            ("SETUPIQ_LEGAL_CONTACT_EMAIL", "legal@riglabs.example"),
            ("SETUPIQ_LEGAL_POLICY_DATE", "2026-03-14"),
            ("SETUPIQ_ADSENSE_CLIENT", "ca-pub-123"),
            ("SETUPIQ_SUPPORT_EMAIL", "help@riglabs.example"),
            ("SETUPIQ_BUSINESS_EMAIL", "press@riglabs.example"),
        ],
    )
    .await;
    let site = configured.client().get("/_api/site").await.json();
    assert_eq!(site["legal"]["operator"], "Rig Labs GmbH");
    assert_eq!(site["legal"]["address"], json!(["Hauptstr. 1", "10115 Berlin"]));
    assert_eq!(site["legal"]["contactEmail"], "legal@riglabs.example");
    assert_eq!(site["legal"]["policyDate"], "2026-03-14");
    assert_eq!(site["adsenseClient"], "ca-pub-123");
    assert_eq!(site["supportEmail"], "help@riglabs.example", "the address contact messages go to");
    assert_eq!(site["businessEmail"], "press@riglabs.example", "the business-inquiries address");
    let csp =
        configured.client().get("/buy-credits").await.header("content-security-policy").unwrap().to_owned();
    assert!(csp.contains("script-src 'self' https://pagead2.googlesyndication.com"), "{csp}");
    assert!(csp.contains("frame-src https://*.googlesyndication.com"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
}

#[actix_web::test]
async fn the_single_page_app_is_served_with_the_right_caching() {
    let db = TestDb::sqlite();
    let dist = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dist.path().join("assets")).unwrap();
    std::fs::write(
        dist.path().join("index.html"),
        "<!doctype html><title>Gaming Setup Analyzer</title><div id=root></div>",
    )
    .unwrap();
    std::fs::write(dist.path().join("assets/index-3f9a.js"), "console.log('app')").unwrap();
    std::fs::write(dist.path().join("robots.txt"), "User-agent: *").unwrap();
    let dir = dist.path().display().to_string();
    let app = TestApp::start_with(db, &[("SETUPIQ_FRONTEND_DIR", &dir)]).await;
    let browser = app.client();

    for route in
        ["/", "/profile", "/rigpage-config", "/user/7", "/reset-password?token=abc", "/tips/some-guide"]
    {
        let res = browser.get(route).await;
        assert_eq!(res.status, StatusCode::OK, "{route}");
        assert!(res.text.contains("<div id=root>"), "{route}");
        assert_eq!(res.header("cache-control"), Some("no-cache"), "{route}");
        assert!(res.header("content-type").unwrap().starts_with("text/html"));
    }
    // A path no page of the app answers: the app (it shows Not Found), with 404.
    for unknown in ["/no/such/page", "/profil", "/user/7/extra"] {
        let res = browser.get(unknown).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{unknown}");
        assert!(res.text.contains("<div id=root>"), "{unknown}");
        assert!(res.header("content-type").unwrap().starts_with("text/html"));
    }
    let asset = browser.get("/assets/index-3f9a.js").await;
    assert_eq!(asset.text, "console.log('app')");
    assert!(asset.header("cache-control").unwrap().contains("max-age=31536000"));
    assert!(asset.header("cache-control").unwrap().contains("immutable"));
    assert_eq!(browser.get("/robots.txt").await.text, "User-agent: *");
    let api = browser.get("/_api/unknown/path").await;
    assert_eq!(api.status, StatusCode::NOT_FOUND);
    assert_eq!(api.header("content-type"), Some("application/json"), "never the app for /_api");
    let post = browser.post("/profile", json!({})).await;
    assert_eq!(post.status, StatusCode::NOT_FOUND);
}

#[actix_web::test]
async fn a_precompressed_asset_is_sent_as_brotli_to_clients_that_accept_it() {
    let dist = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dist.path().join("assets")).unwrap();
    std::fs::write(dist.path().join("assets/index-3f9a.js"), "console.log('app')").unwrap();
    // Not real brotli: the server sends the file as it is, it never decodes it.
    std::fs::write(dist.path().join("assets/index-3f9a.js.br"), "brotli bytes").unwrap();
    std::fs::write(dist.path().join("assets/index-3f9a.css"), "body{}").unwrap();
    let dir = dist.path().display().to_string();
    let app = TestApp::start_with(TestDb::sqlite(), &[("SETUPIQ_FRONTEND_DIR", &dir)]).await;
    let browser = app.client();
    let get = |path: &str, accept: &str| {
        browser.send(browser.http.get(browser.url(path)).header("accept-encoding", accept))
    };

    for accept in ["gzip, deflate, br, zstd", "br"] {
        let br = get("/assets/index-3f9a.js", accept).await;
        assert_eq!(br.status, StatusCode::OK, "{accept}");
        assert_eq!(br.text, "brotli bytes", "{accept}: sent as built, not compressed again");
        assert_eq!(br.header("content-encoding"), Some("br"), "{accept}");
        assert!(br.header("content-type").unwrap().starts_with("text/javascript"), "{accept}");
        assert_eq!(br.header("vary"), Some("Accept-Encoding"), "{accept}");
        assert!(br.header("cache-control").unwrap().contains("immutable"), "{accept}");
    }
    for accept in ["identity", "br;q=0"] {
        let plain = get("/assets/index-3f9a.js", accept).await;
        assert_eq!(plain.text, "console.log('app')", "{accept}");
        assert_eq!(plain.header("content-encoding"), None, "{accept}");
        assert!(plain.header("content-type").unwrap().starts_with("text/javascript"), "{accept}");
        assert_eq!(plain.header("vary"), Some("Accept-Encoding"), "{accept}");
        assert!(plain.header("cache-control").unwrap().contains("immutable"), "{accept}");
    }
    let no_sibling = get("/assets/index-3f9a.css", "br").await;
    assert_eq!((no_sibling.text.as_str(), no_sibling.header("content-encoding")), ("body{}", None));
}

#[actix_web::test]
async fn the_api_reference_is_served() {
    let app = TestApp::start(TestDb::sqlite()).await;
    let browser = app.client();
    let docs = browser.get("/_api/docs/").await;
    assert_eq!(docs.status, StatusCode::OK);
    assert!(docs.text.contains("swagger-ui"), "{}", docs.text);
    let doc = browser.get("/_api/openapi.json").await.json();
    assert!(doc["paths"]["/_api/auth/login_with_password"]["post"].is_object());
}

#[test]
fn the_committed_openapi_document_matches_the_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openapi/openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = format!("{}\n", api_doc().to_pretty_json().unwrap());
    assert!(
        committed == generated,
        "openapi/openapi.json is out of date: run `make openapi` (setupiq openapi)"
    );
}

#[test]
fn every_endpoint_is_documented_with_a_summary_and_its_errors() {
    let doc = serde_json::to_value(api_doc()).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 11, "{:?}", paths.keys());
    for (path, item) in paths {
        for (method, operation) in item.as_object().unwrap() {
            assert!(
                operation["summary"].as_str().is_some_and(|s| !s.is_empty()),
                "{method} {path} has no summary"
            );
            let responses = operation["responses"].as_object().unwrap();
            assert!(responses.keys().any(|code| code.starts_with('2')), "{method} {path}");
            if method == "post" && path != "/_api/auth/logout" {
                assert!(
                    responses.keys().any(|code| code.starts_with('4')),
                    "{method} {path} documents no error"
                );
            }
        }
    }
}

#[actix_web::test]
async fn reset_mail_goes_out_through_a_real_smtp_conversation() {
    let sink = SmtpSink::start().await;
    let url = sink.url();
    let app = TestApp::start_with(
        TestDb::sqlite(),
        &[("SETUPIQ_SMTP_URL", &url), ("SETUPIQ_MAIL_FROM", "SetupIQ <hello@setupiq.example>")],
    )
    .await;
    let browser = app.user("smtp@example.com").named("Mail Test").sign_up().await;
    let res = browser.post("/_api/auth/forgot-password", json!({"email": "smtp@example.com"})).await;
    assert_eq!(res.status, StatusCode::OK);
    // The sign-up's verification e-mail went first.
    let received = sink.received();
    assert_eq!(received.len(), 2);
    assert_eq!(SentMail::parse(received[0].data.as_bytes()).subject, "Verify your SetupIQ e-mail address");
    let received = &received[1..];
    assert_eq!(received[0].from, "<hello@setupiq.example>");
    assert_eq!(received[0].to, vec!["<smtp@example.com>"]);
    let mail = SentMail::parse(received[0].data.as_bytes());
    assert_eq!(mail.subject, "Reset your SetupIQ password");
    assert!(mail.line_with("http://127.0.0.1:8080/reset-password?token=").is_some(), "{}", mail.text);
    assert!(app.outbox().is_empty(), "with SMTP configured nothing goes to the outbox");
}

#[get("/admin-only")]
async fn admin_only(admin: AdminUser) -> HttpResponse {
    HttpResponse::Ok().body(admin.0.account.email)
}

#[actix_web::test]
async fn only_admins_pass_the_admin_extractor() {
    let app = TestApp::start_with(TestDb::sqlite(), &[("SETUPIQ_ADMIN_EMAILS", "boss@example.com")]).await;
    let boss = app.client();
    let boss_cookie = boss
        .register("boss@example.com", "hunter2hunter2", "Boss")
        .await
        .header("set-cookie")
        .unwrap()
        .to_owned();
    // The listed address is the admin's once it is verified.
    app.verify_email("boss@example.com").await;
    let user = app.client();
    let user_cookie = user
        .register("user@example.com", "hunter2hunter2", "User")
        .await
        .header("set-cookie")
        .unwrap()
        .to_owned();

    let state = app.state().clone();
    let service = actix_test::init_service(
        App::new()
            .app_data(web::Data::from(state.config.clone()))
            .app_data(web::Data::new(state.db.clone()))
            .app_data(web::Data::new(state.clock.clone() as SharedClock))
            .service(admin_only),
    )
    .await;
    let call = |cookie: Option<String>| {
        let mut req = actix_test::TestRequest::get().uri("/admin-only");
        if let Some(cookie) = cookie {
            req = req.insert_header(("cookie", cookie.split(';').next().unwrap().to_owned()));
        }
        req.to_request()
    };
    assert_eq!(actix_test::call_service(&service, call(None)).await.status(), 401);
    let forbidden = actix_test::call_service(&service, call(Some(user_cookie))).await;
    assert_eq!(forbidden.status(), 403);
    let body: serde_json::Value = actix_test::read_body_json(forbidden).await;
    assert_eq!(body["error"], "Admin access required.");
    let allowed = actix_test::call_service(&service, call(Some(boss_cookie))).await;
    assert_eq!(allowed.status(), 200);
    assert_eq!(actix_test::read_body(allowed).await, "boss@example.com");
}

/// A client that sends its body too slowly is answered 408 once `SETUPIQ_BODY_TIMEOUT_SECS`
/// has passed, instead of holding the request open for as long as it likes.
#[actix_web::test]
async fn a_body_sent_too_slowly_gets_a_408() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = TestApp::start_with(TestDb::sqlite(), &[("SETUPIQ_BODY_TIMEOUT_SECS", "1")]).await;
    let host = app.base_url.trim_start_matches("http://").to_owned();
    let mut socket = tokio::net::TcpStream::connect(&host).await.unwrap();
    let head = format!(
        "POST /_api/auth/login_with_password HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: 200\r\n\r\n{{\"email\":"
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    // The rest of the body never comes. The answer must, well before this test gives up.
    let read_answer = async {
        let mut answer = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            let n = socket.read(&mut chunk).await.unwrap();
            answer.extend_from_slice(&chunk[..n]);
            if n == 0 || String::from_utf8_lossy(&answer).contains("}") {
                return String::from_utf8_lossy(&answer).into_owned();
            }
        }
    };
    let answer = tokio::time::timeout(std::time::Duration::from_secs(20), read_answer)
        .await
        .expect("the server answered a stalled body");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("The request took too long to arrive."), "{answer}");

    // A body sent in time is unaffected.
    let res = app
        .client()
        .post("/_api/auth/login_with_password", json!({"email": "a@b.co", "password": "x"}))
        .await;
    assert_ne!(res.status, StatusCode::REQUEST_TIMEOUT);
}

/// Every answer carries a request id (the proxy's, when plausible), and Prometheus metrics
/// are served only to a scraper with the token: per route, never per raw path.
#[actix_web::test]
async fn requests_have_ids_and_metrics_need_the_token() {
    let closed = TestApp::start(TestDb::sqlite()).await;
    assert_eq!(closed.client().get("/metrics").await.status, StatusCode::NOT_FOUND, "off without a token");

    let app = TestApp::start_with(TestDb::sqlite(), &[("SETUPIQ_METRICS_TOKEN", "scrape-me-please")]).await;
    let browser = app.client();
    let health = browser.get("/_api/health").await;
    let id = health.header("x-request-id").unwrap().to_owned();
    assert_eq!(id.len(), 16, "{id}");
    assert_ne!(
        browser.get("/_api/health").await.header("x-request-id"),
        Some(id.as_str()),
        "one per request"
    );
    let forwarded = |value: &str| {
        let request = browser.http.get(browser.url("/_api/health")).header("x-request-id", value);
        browser.send(request)
    };
    assert_eq!(forwarded("proxy-id-1234").await.header("x-request-id"), Some("proxy-id-1234"));
    let forged = forwarded("bad id\twith spaces").await;
    assert_ne!(forged.header("x-request-id"), Some("bad id\twith spaces"));

    app.user("counted@example.com").sign_up().await;
    assert_eq!(browser.get("/_api/analyses/12345").await.status, StatusCode::UNAUTHORIZED);

    for auth in [None, Some("Bearer wrong-token"), Some("scrape-me-please")] {
        let mut request = browser.http.get(browser.url("/metrics"));
        if let Some(auth) = auth {
            request = request.header("authorization", auth);
        }
        assert_eq!(browser.send(request).await.status, StatusCode::UNAUTHORIZED, "{auth:?}");
    }
    let request =
        browser.http.get(browser.url("/metrics")).header("authorization", "Bearer scrape-me-please");
    let metrics = browser.send(request).await;
    assert_eq!(metrics.status, StatusCode::OK);
    let text = &metrics.text;
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="/_api/health",status="200"} 4"#),
        "{text}"
    );
    assert!(text.contains(r#"route="/_api/analyses/{id}",status="401"}"#), "by route, not by id: {text}");
    assert!(!text.contains("12345"), "{text}");
    assert!(
        text.contains(r#"http_request_duration_seconds_bucket{method="GET",route="/_api/health""#),
        "{text}"
    );
    assert!(text.contains(r#"credits_granted_total{reason="signup_bonus"}"#), "{text}");
    assert!(text.contains(r#"db_pool_connections{state="max"} 8"#), "{text}");
}

/// Answers about the viewer never stay in a cache; the public share card keeps its caching.
#[actix_web::test]
async fn personalised_answers_are_never_cached() {
    let app = TestApp::start(TestDb::sqlite()).await;
    let gamer = app.user("cache@example.com").with_analysis().sign_up().await;
    for path in [
        "/_api/auth/session".to_owned(),
        "/_api/my-analyses".to_owned(),
        "/_api/community/setups?period=all".to_owned(),
        format!("/_api/community/user-profile?userId={}", gamer.id),
        "/_api/community/my-posts/analytics".to_owned(),
        "/_api/credits/history".to_owned(),
        "/_api/rigpage/config".to_owned(),
    ] {
        let path = path.as_str();
        let res = gamer.get(path).await;
        assert_eq!(res.status, StatusCode::OK, "{path}: {}", res.text);
        assert_eq!(res.header("cache-control"), Some("private, no-store"), "{path}");
    }
    assert_eq!(
        app.client().get("/_api/auth/session").await.header("cache-control"),
        Some("private, no-store"),
        "a visitor's session answer too"
    );
    assert_eq!(
        app.client().get("/_api/my-analyses").await.header("cache-control"),
        Some("no-store"),
        "errors too"
    );
}

/// Every string, number and list a request may carry, found through its `$ref`s: each with
/// where it sits (`POST /_api/auth/register_with_password body.email`) and its schema.
fn request_values(doc: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    fn walk(
        doc: &serde_json::Value,
        schema: &serde_json::Value,
        at: String,
        out: &mut Vec<(String, serde_json::Value)>,
    ) {
        if let Some(name) = schema["$ref"].as_str().and_then(|r| r.rsplit('/').next()) {
            return walk(doc, &doc["components"]["schemas"][name], at, out);
        }
        for alternative in ["allOf", "oneOf", "anyOf"].iter().filter_map(|k| schema[*k].as_array()).flatten()
        {
            walk(doc, alternative, at.clone(), out);
        }
        for (name, property) in schema["properties"].as_object().into_iter().flatten() {
            walk(doc, property, format!("{at}.{name}"), out);
        }
        let types = match &schema["type"] {
            serde_json::Value::Array(types) => types.iter().filter_map(|t| t.as_str()).collect(),
            other => other.as_str().into_iter().collect::<Vec<_>>(),
        };
        if types.contains(&"array") {
            walk(doc, &schema["items"], format!("{at}[]"), out);
        }
        if types.iter().any(|t| ["string", "integer", "number", "array"].contains(t)) {
            out.push((at, schema.clone()));
        }
    }
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let at = format!("{} {path}", method.to_uppercase());
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let name = format!(
                    "{at} {}:{}",
                    parameter["in"].as_str().unwrap(),
                    parameter["name"].as_str().unwrap()
                );
                walk(doc, &parameter["schema"], name, &mut out);
            }
            for content in
                operation["requestBody"]["content"].as_object().into_iter().flatten().map(|(_, c)| c)
            {
                walk(doc, &content["schema"], format!("{at} body"), &mut out);
            }
        }
    }
    out
}

/// Texts no length rule bounds: a photo's data URL (bounded by the body's size limit, 413),
/// Stripe's raw webhook body, and identifiers the server looks up (any other is not found).
const BOUNDED_ELSEWHERE: [&str; 9] = [
    "POST /_api/analyze-setup body.value",
    "POST /_api/community/setup body.images[]",
    "POST /_api/community/setup/edit body.images[]",
    "POST /_api/rigpage/images body.imageData",
    "POST /_api/stripe/webhook body",
    "GET /_api/credits/payments/{reference} path:reference",
    "POST /_api/stripe/confirm-payment body.paymentIntentId",
    "POST /_api/stripe/test-mode/pay body.paymentIntentId",
    "POST /_api/watch-ad body.adToken",
];

/// A generated client refuses what the server would: every string a request carries states
/// its longest length (or is one of an `enum`), and every list its longest length.
#[test]
fn every_request_string_and_list_states_its_longest_length() {
    let doc = serde_json::to_value(api_doc()).unwrap();
    let unbounded: Vec<String> = request_values(&doc)
        .into_iter()
        .filter(|(at, _)| !BOUNDED_ELSEWHERE.contains(&at.as_str()))
        .filter(|(_, schema)| {
            let kind = schema["type"].to_string();
            let string =
                kind.contains("string") && schema["enum"].is_null() && schema["format"] != "date-time";
            (string && schema["maxLength"].is_null())
                || (kind.contains("array") && schema["maxItems"].is_null())
        })
        .map(|(at, _)| at)
        .collect();
    assert!(unbounded.is_empty(), "no longest length stated: {unbounded:#?}");
}

/// Each e-mail address a request carries is stated as one, at most 254 characters (RFC 5321).
#[test]
fn every_request_email_states_the_email_format_and_254_characters() {
    let doc = serde_json::to_value(api_doc()).unwrap();
    let emails: Vec<(String, serde_json::Value)> = request_values(&doc)
        .into_iter()
        .filter(|(at, _)| at.to_lowercase().ends_with("email") && !at.ends_with("rigpageSocialLinks.email"))
        .collect();
    assert!(emails.len() >= 5, "register, sign-in, reset, change of address, contact: {emails:#?}");
    for (at, schema) in emails {
        assert_eq!(
            (schema["format"].as_str(), schema["maxLength"].as_u64()),
            (Some("email"), Some(254)),
            "{at}"
        );
    }
    let register = &doc["components"]["schemas"]["RegisterRequest"]["properties"]["email"];
    assert_eq!((register["format"].as_str(), register["maxLength"].as_u64()), (Some("email"), Some(254)));
}

/// A path of ours asked with the wrong method is a 405 that says which methods it takes; a
/// path that does not exist stays a 404.
#[actix_web::test]
async fn a_known_path_with_the_wrong_method_is_a_405_with_allow() {
    let app = TestApp::start(TestDb::sqlite()).await;
    let browser = app.client();
    let wrong = browser.get("/_api/auth/logout").await;
    assert_eq!(wrong.status, StatusCode::METHOD_NOT_ALLOWED, "{}", wrong.text);
    assert_eq!(wrong.header("allow"), Some("POST"));
    assert_eq!(wrong.json()["code"], "method_not_allowed");
    let put = browser.send(browser.http.put(browser.url("/_api/analyses/12")).json(&json!({}))).await;
    assert_eq!((put.status, put.header("allow")), (StatusCode::METHOD_NOT_ALLOWED, Some("GET")));
    let unknown = browser.get("/_api/analyses/12/nothing").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

/// `TRACE` would echo a request back, cookies included: every path refuses it, API paths with
/// the methods they take and pages with GET and HEAD.
#[actix_web::test]
async fn trace_is_refused_with_405_on_api_paths_and_pages() {
    let app = TestApp::start(TestDb::sqlite()).await;
    let browser = app.client();
    let trace = |path: &str| browser.send(browser.http.request(reqwest::Method::TRACE, browser.url(path)));
    for (path, allow) in [
        ("/_api/auth/session", "GET"),
        ("/_api/auth/logout", "POST"),
        ("/_api/no-such-thing", "GET, HEAD"),
        ("/", "GET, HEAD"),
        ("/community", "GET, HEAD"),
        ("/community/setup/1", "GET, HEAD"),
        ("/share/abc", "GET, HEAD"),
        ("/assets/index.js", "GET, HEAD"),
    ] {
        let refused = trace(path).await;
        assert_eq!(
            (refused.status, refused.header("allow")),
            (StatusCode::METHOD_NOT_ALLOWED, Some(allow)),
            "TRACE {path}: {}",
            refused.text
        );
        assert_eq!(refused.json()["code"], "method_not_allowed", "TRACE {path}");
    }
}

/// JSON has one number type: `1.0` is the integer 1 wherever the document says `integer`.
#[actix_web::test]
async fn integer_fields_take_numbers_with_an_integral_value() {
    let app = TestApp::start(TestDb::sqlite()).await;
    let admin = app.user("numbers@example.com").admin().sign_up().await;
    let off = admin.post("/_api/admin/products/set-active", json!({"productId": 1.0, "active": false})).await;
    assert_eq!(off.status, StatusCode::OK, "{}", off.text);
    let half = admin.post("/_api/admin/products/set-active", json!({"productId": 1.5, "active": true})).await;
    assert_eq!(half.status, StatusCode::BAD_REQUEST, "{}", half.text);
}
