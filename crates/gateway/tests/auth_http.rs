//! The account endpoints over real HTTP through the real `App`, on both databases: what a
//! browser sees (status, body, cookies, headers) and what is left behind (rows, files, mail).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::Duration;
use diesel::prelude::*;
use reqwest::StatusCode;
use serde_json::json;
use setupiq_core::Clock;
use setupiq_core::UserId;
use setupiq_db::schema::users;
use setupiq_test_utils::{SentMail, TestApp, TestDb, both_backends_async};

/// The password of every account here; the tests log in with it.
const PASSWORD: &str = "hunter2hunter2";

fn session_cookie(res: &setupiq_test_utils::TestResponse) -> String {
    res.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.contains("setupiq_session="))
        .unwrap_or_default()
        .to_owned()
}

fn cookie_value(set_cookie: &str) -> String {
    set_cookie
        .split(';')
        .next()
        .unwrap_or_default()
        .split_once('=')
        .map(|(_, v)| v.to_owned())
        .unwrap_or_default()
}

/// A PNG of `width` x `height` carrying a text chunk, like a camera's metadata.
fn png_with_metadata(width: u32, height: u32, secret: &str) -> Vec<u8> {
    let mut png = Vec::new();
    image::DynamicImage::ImageRgb8(image::RgbImage::from_pixel(width, height, image::Rgb([30, 200, 120])))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let mut chunk_data = b"Comment\0".to_vec();
    chunk_data.extend_from_slice(secret.as_bytes());
    let mut chunk = (chunk_data.len() as u32).to_be_bytes().to_vec();
    let mut typed = b"tEXt".to_vec();
    typed.extend_from_slice(&chunk_data);
    chunk.extend_from_slice(&typed);
    chunk.extend_from_slice(&crc32fast::hash(&typed).to_be_bytes());
    // After the signature (8) and the IHDR chunk (25).
    png.splice(33..33, chunk);
    png
}

fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", STANDARD.encode(bytes))
}

fn reset_link(mail: &SentMail) -> String {
    mail.line_with("/reset-password?token=").expect("a reset link")
}

/// The e-mails with this subject, oldest first (every sign-up also mails a verification link).
fn mails_titled(app: &TestApp, subject: &str) -> Vec<SentMail> {
    app.outbox().into_iter().filter(|m| m.subject == subject).collect()
}

const RESET_SUBJECT: &str = "Reset your SetupIQ password";
const VERIFY_SUBJECT: &str = "Verify your SetupIQ e-mail address";

both_backends_async!(
    registering_signs_in_with_three_credits,
    registration_is_validated_with_the_specification_messages,
    twenty_simultaneous_registrations_create_one_account,
    login_logout_and_session_lifetime,
    repeated_failures_are_throttled_with_retry_after,
    an_attackers_locked_out_address_keeps_neither_the_owner_out_nor_outlives_a_reset,
    a_weak_password_hash_is_upgraded_at_login,
    profile_changes_need_a_session_and_follow_the_rules,
    the_display_name_is_changed_on_the_profile,
    profile_pictures_are_decoded_resized_stripped_and_served,
    password_reset_by_email_end_to_end,
    a_password_change_keeps_this_session_and_ends_the_others,
    repeated_wrong_current_passwords_are_throttled,
    reset_links_expire_after_an_hour,
    deleting_the_account_removes_everything,
    cross_site_and_non_json_writes_are_refused,
    a_listed_admin_address_becomes_admin_only_once_its_link_is_followed,
    verification_links_work_once_and_for_a_day_and_resends_are_limited,
    a_verification_link_followed_signed_out_answers_only_success,
    sign_ups_per_network_are_limited_and_the_bonus_with_them,
);

async fn registering_signs_in_with_three_credits(db: TestDb) {
    let app = TestApp::start(db).await;
    let client = app.client();
    let res = client.register("Pixel@Example.com", PASSWORD, "Pixel Pete 🎮").await;
    assert_eq!(res.status, StatusCode::CREATED);
    let user = &res.json()["user"];
    assert_eq!(user["email"], "pixel@example.com");
    assert_eq!(user["displayName"], "Pixel Pete 🎮");
    assert_eq!(user["username"], "Pixel_Pete");
    assert_eq!(user["credits"], 3);
    assert_eq!(user["isPro"], false);
    assert_eq!(user["role"], "user");
    assert_eq!(user["profilePicture"], serde_json::Value::Null);
    assert!(user["createdAt"].as_str().unwrap().starts_with("2026-03-14T09:26:53"));
    let cookie = session_cookie(&res);
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    assert!(!cookie.contains("Secure") && !cookie.starts_with("__Host-"), "plain http: {cookie}");
    assert_eq!(cookie_value(&cookie).len(), 43, "256 bits, base64url");

    let session = client.get("/_api/auth/session").await;
    assert_eq!(session.status, StatusCode::OK);
    assert_eq!(session.json()["user"]["email"], "pixel@example.com");
    assert!(!session.text.contains("password"), "{}", session.text);
}

async fn registration_is_validated_with_the_specification_messages(db: TestDb) {
    let app = TestApp::start(db).await;
    let client = app.client();
    for (body, path, message) in [
        (json!({"email": "nope", "password": PASSWORD, "displayName": "A"}), "email", "Email is required"),
        (
            json!({"email": "a@b.co", "password": "short", "displayName": "A"}),
            "password",
            "Password must be at least 8 characters",
        ),
        // Long enough, but among the most common breached passwords: letter case aside.
        (
            json!({"email": "a@b.co", "password": "12345678", "displayName": "A"}),
            "password",
            "Password must be at least 8 characters",
        ),
        (
            json!({"email": "a@b.co", "password": "Password1", "displayName": "A"}),
            "password",
            "Password must be at least 8 characters",
        ),
        (
            json!({"email": "a@b.co", "password": PASSWORD, "displayName": "   "}),
            "displayName",
            "Name is required",
        ),
        (
            json!({"email": "a@b.co", "password": PASSWORD, "displayName": "\u{202e}admin\u{200b}"}),
            "displayName",
            "Name cannot contain invisible, text-direction or unassigned characters.",
        ),
    ] {
        let res = client.post("/_api/auth/register_with_password", body).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        assert_eq!(res.error(), message);
        assert_eq!(res.json()["issues"][0]["path"], path);
    }
    let extra = client
        .post(
            "/_api/auth/register_with_password",
            json!({"email": "a@b.co", "password": PASSWORD, "displayName": "A", "isPro": true}),
        )
        .await;
    assert_eq!(extra.status, StatusCode::BAD_REQUEST);
    assert!(extra.error().contains("unknown field `isPro`"), "{}", extra.text);
    let missing = client.post("/_api/auth/register_with_password", json!({"email": "a@b.co"})).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);

    assert_eq!(client.register("taken@example.com", PASSWORD, "A").await.status, StatusCode::CREATED);
    let again = app.client().register("TAKEN@example.com", PASSWORD, "B").await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert!(again.error().contains("Email already in use"));
    // The form says "already registered" from this code, not from the wording.
    assert_eq!(again.json()["code"], "email_taken", "{}", again.text);
    let count: i64 = users::table.count().get_result(&mut *app.db.conn()).unwrap();
    assert_eq!(count, 1, "nothing half-written");
}

async fn twenty_simultaneous_registrations_create_one_account(db: TestDb) {
    let app = TestApp::start(db).await;
    let clients: Vec<_> = (0..20).map(|_| app.client()).collect();
    let responses =
        futures_join_all(clients.iter().map(|c| c.register("race@example.com", PASSWORD, "Racer"))).await;
    let created = responses.iter().filter(|r| r.status == StatusCode::CREATED).count();
    let conflicts = responses.iter().filter(|r| r.status == StatusCode::CONFLICT).count();
    assert_eq!((created, conflicts), (1, 19), "{:?}", responses.iter().map(|r| r.status).collect::<Vec<_>>());
    let count: i64 = users::table.count().get_result(&mut *app.db.conn()).unwrap();
    assert_eq!(count, 1);
}

async fn login_logout_and_session_lifetime(db: TestDb) {
    let app = TestApp::start(db).await;
    app.user("gamer@example.com").password(PASSWORD).sign_up().await;
    let browser = app.client();
    let signed_out = browser.get("/_api/auth/session").await;
    assert!(!signed_out.has_user(), "a visitor is an answer, not an error: {}", signed_out.text);
    assert_eq!(signed_out.error(), "Not authenticated");

    let wrong = browser.login("gamer@example.com", "not-the-password").await;
    assert_eq!(
        (wrong.status, wrong.error().as_str()),
        (StatusCode::UNAUTHORIZED, "Invalid email or password.")
    );
    let unknown = browser.login("ghost@example.com", PASSWORD).await;
    assert_eq!(
        (unknown.status, unknown.error()),
        (StatusCode::UNAUTHORIZED, wrong.error()),
        "no account enumeration"
    );
    let invalid = browser.post("/_api/auth/login_with_password", json!({"email": "x", "password": ""})).await;
    let messages: Vec<_> = invalid.json()["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(messages, vec!["Email is required", "Password is required"]);

    let first = browser.login("GAMER@example.com", PASSWORD).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let first_token = cookie_value(&session_cookie(&first));
    let second = browser.login("gamer@example.com", PASSWORD).await;
    let second_token = cookie_value(&session_cookie(&second));
    assert_ne!(first_token, second_token, "a new token at every login");
    let replay = app.client();
    let old = replay
        .send(
            replay
                .http
                .get(replay.url("/_api/auth/session"))
                .header("cookie", format!("setupiq_session={first_token}")),
        )
        .await;
    assert!(!old.has_user(), "the replaced session is gone");

    assert!(browser.signed_in().await);
    app.clock.advance(Duration::days(8));
    assert!(!browser.signed_in().await, "idle expiry");

    assert_eq!(browser.login("gamer@example.com", PASSWORD).await.status, StatusCode::OK);
    let token = cookie_value(&session_cookie(&browser.login("gamer@example.com", PASSWORD).await));
    let out = browser.post("/_api/auth/logout", json!({})).await;
    assert_eq!(out.status, StatusCode::OK);
    assert!(session_cookie(&out).contains("Max-Age=0"), "the cookie is cleared");
    let stolen = replay
        .send(
            replay
                .http
                .get(replay.url("/_api/auth/session"))
                .header("cookie", format!("setupiq_session={token}")),
        )
        .await;
    assert!(!stolen.has_user(), "logout revokes the token on the server");
    assert_eq!(
        app.client().post("/_api/auth/logout", json!({})).await.status,
        StatusCode::OK,
        "signed out is fine"
    );
}

async fn repeated_failures_are_throttled_with_retry_after(db: TestDb) {
    let app = TestApp::start(db).await;
    app.user("target@example.com").password(PASSWORD).sign_up().await;
    let attacker = app.client();
    for _ in 0..5 {
        assert_eq!(
            attacker.login("target@example.com", "guess-guess").await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    let blocked = attacker.login("target@example.com", PASSWORD).await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS, "even the right password waits");
    let retry: u64 = blocked.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=900).contains(&retry), "{retry}");
    app.clock.advance(Duration::minutes(16));
    assert_eq!(attacker.login("target@example.com", PASSWORD).await.status, StatusCode::OK);
}

/// Signs in as a browser behind the trusted proxy at `address` would (`X-Forwarded-For`).
async fn login_from(
    client: &setupiq_test_utils::TestClient,
    address: &str,
    email: &str,
    password: &str,
) -> setupiq_test_utils::TestResponse {
    let request = client
        .http
        .post(client.url("/_api/auth/login_with_password"))
        .header("x-forwarded-for", address)
        .json(&json!({"email": email, "password": password}));
    client.send(request).await
}

async fn an_attackers_locked_out_address_keeps_neither_the_owner_out_nor_outlives_a_reset(db: TestDb) {
    // The tests connect from 127.0.0.1: here, that is the proxy in front of everyone.
    let app = TestApp::start_with(db, &[("SETUPIQ_TRUSTED_PROXIES", "127.0.0.1/32")]).await;
    let owner = app.user("owner@example.com").password(PASSWORD).sign_up().await;
    let (attacker, attackers_address, home) = (app.client(), "198.51.100.7", "203.0.113.20");
    for _ in 0..5 {
        let res = login_from(&attacker, attackers_address, "owner@example.com", "guess-guess").await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    }
    let locked = login_from(&attacker, attackers_address, "owner@example.com", PASSWORD).await;
    assert_eq!(locked.status, StatusCode::TOO_MANY_REQUESTS, "{}", locked.text);
    assert_eq!(locked.error(), "Too many login attempts. Please try again in 15 minute(s).");

    let laptop = app.client();
    let signed_in = login_from(&laptop, home, "Owner@example.com", PASSWORD).await;
    assert_eq!(signed_in.status, StatusCode::OK, "the owner at home is not locked out: {}", signed_in.text);
    let still = login_from(&attacker, attackers_address, "owner@example.com", PASSWORD).await;
    assert_eq!(still.status, StatusCode::TOO_MANY_REQUESTS, "the owner signing in lifts nobody else's lock");

    owner.post("/_api/auth/forgot-password", json!({"email": "owner@example.com"})).await;
    let link = reset_link(&mails_titled(&app, RESET_SUBJECT)[0]);
    let token = link.rsplit_once("token=").unwrap().1.to_owned();
    let reset = owner
        .post("/_api/auth/reset-password", json!({"resetToken": token, "newPassword": "brand-new-pass"}))
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.text);
    let after = login_from(&attacker, attackers_address, "owner@example.com", "brand-new-pass").await;
    assert_eq!(after.status, StatusCode::OK, "a completed reset clears the lock: {}", after.text);
}

async fn a_weak_password_hash_is_upgraded_at_login(db: TestDb) {
    let app = TestApp::start(db).await;
    app.user("old@example.com").password(PASSWORD).sign_up().await;
    let weak = {
        use argon2_weak::hash;
        hash(PASSWORD)
    };
    diesel::update(users::table).set(users::password_hash.eq(&weak)).execute(&mut *app.db.conn()).unwrap();
    assert_eq!(app.client().login("old@example.com", PASSWORD).await.status, StatusCode::OK);
    let stored: String = users::table.select(users::password_hash).first(&mut *app.db.conn()).unwrap();
    assert!(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{stored}");
    assert_eq!(app.client().login("old@example.com", PASSWORD).await.status, StatusCode::OK);
}

async fn profile_changes_need_a_session_and_follow_the_rules(db: TestDb) {
    let app = TestApp::start(db).await;
    let stranger = app.client();
    for path in
        ["/_api/auth/update-profile", "/_api/auth/upload-profile-picture", "/_api/auth/delete-account"]
    {
        let res = stranger.post(path, json!({})).await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{path}: {}", res.text);
    }
    // Both named alike: `me` gets the username Pixel_Pete, `other` Pixel_Pete with a number.
    let me = app.user("me@example.com").named("Pixel Pete").password(PASSWORD).sign_up().await;
    app.user("other@example.com").named("Pixel Pete").password(PASSWORD).sign_up().await;
    for (username, message) in [
        ("ab", "Username must be at least 3 characters long."),
        (&"a".repeat(51)[..], "Username cannot be longer than 50 characters."),
        ("no spaces", "Username can only contain letters, numbers, and underscores."),
        ("Pixel_Pete", "This is already your username."),
    ] {
        let res = me.post("/_api/auth/update-profile", json!({ "username": username })).await;
        assert_eq!((res.status, res.error().as_str()), (StatusCode::BAD_REQUEST, message), "{username}");
    }
    let other_name = users::table
        .filter(users::email.eq("other@example.com"))
        .select(users::username)
        .first::<String>(&mut *app.db.conn())
        .unwrap();
    let taken = me.post("/_api/auth/update-profile", json!({ "username": other_name.to_uppercase() })).await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    let ok = me.post("/_api/auth/update-profile", json!({ "username": "Rig_Master_3000" })).await;
    assert_eq!(ok.json()["user"]["username"], "Rig_Master_3000");
    assert_eq!(me.get("/_api/auth/session").await.json()["user"]["username"], "Rig_Master_3000");
}

async fn the_display_name_is_changed_on_the_profile(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("named@example.com").named("Pixel Pete").sign_up().await;
    let visitor = app.client().post("/_api/auth/update-display-name", json!({"displayName": "Nobody"})).await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
    for (name, message) in [
        ("   ", "Name is required"),
        (&"x".repeat(101) as &str, "Name cannot be longer than 100 characters."),
        ("\u{202e}admin\u{200b}", "Name cannot contain invisible, text-direction or unassigned characters."),
        ("Pete\u{e0001}", "Name cannot contain invisible, text-direction or unassigned characters."),
    ] {
        let res = me.post("/_api/auth/update-display-name", json!({"displayName": name})).await;
        assert_eq!((res.status, res.error().as_str()), (StatusCode::BAD_REQUEST, message));
    }
    let done = me.post("/_api/auth/update-display-name", json!({"displayName": "  Rig Queen 👑  "})).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(done.json()["user"]["displayName"], "Rig Queen 👑");
    let session = me.get("/_api/auth/session").await;
    assert_eq!(session.json()["user"]["displayName"], "Rig Queen 👑", "kept, not just answered");
    let composed = me.post("/_api/auth/update-display-name", json!({"displayName": "Jose\u{301}"})).await;
    assert_eq!(composed.json()["user"]["displayName"], "Jos\u{e9}", "stored in NFC");
}

async fn profile_pictures_are_decoded_resized_stripped_and_served(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("pic@example.com").password(PASSWORD).sign_up().await;
    let upload = |image: String| me.post("/_api/auth/upload-profile-picture", json!({ "imageData": image }));

    let gif = upload(data_url("image/gif", b"GIF89a")).await;
    assert_eq!(
        (gif.status, gif.error().as_str()),
        (StatusCode::BAD_REQUEST, "Image must be a valid PNG or JPEG data URL.")
    );
    assert_eq!(gif.json()["issues"][0]["message"], "Image must be a valid PNG or JPEG data URL.");
    let lying = upload(data_url("image/png", b"\x89PNG\r\n\x1a\nthis is not really a png")).await;
    assert_eq!(lying.error(), "Image must be a valid PNG or JPEG data URL.");
    let huge = upload(format!("data:image/png;base64,{}", "A".repeat(700_001))).await;
    assert_eq!(huge.error(), "Image size cannot exceed 500KB.");
    assert!(app.media_files().is_empty(), "nothing stored for refused uploads");

    let res = upload(data_url("image/png", &png_with_metadata(1600, 400, "GPS 52.52N 13.40E"))).await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.text);
    let url = res.json()["user"]["profilePicture"].as_str().unwrap().to_owned();
    assert!(url.starts_with("/media/avatars/") && url.ends_with(".png"), "{url}");
    let served = me.http.get(me.url(&url)).send().await.unwrap();
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    let bytes = served.bytes().await.unwrap();
    let image = image::load_from_memory(&bytes).unwrap();
    assert_eq!((image.width(), image.height()), (800, 200), "scaled to 800 px");
    assert!(!bytes.windows(3).any(|w| w == b"GPS"), "metadata stripped");

    let jpeg = {
        let mut out = Vec::new();
        image::DynamicImage::ImageRgb8(image::RgbImage::new(64, 64))
            .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Jpeg)
            .unwrap();
        out
    };
    let second = upload(data_url("image/jpeg", &jpeg)).await;
    let second_url = second.json()["user"]["profilePicture"].as_str().unwrap().to_owned();
    assert!(second_url.ends_with(".jpg"));
    assert_eq!(me.get(&url).await.status, StatusCode::NOT_FOUND, "the old picture is deleted");
    assert_eq!(app.media_files().len(), 1);
    assert_eq!(me.get("/media/avatars%2F..%2F..%2Fetc%2Fpasswd").await.status, StatusCode::NOT_FOUND);
    assert_eq!(me.get("/media/avatars/..%2F..%2Fsecret.png").await.status, StatusCode::NOT_FOUND);
}

async fn password_reset_by_email_end_to_end(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_PUBLIC_URL", "https://setupiq.example")]).await;
    // Signed in: the reset must end this browser's session too.
    let browser = app.user("forgetful@example.com").named("Forgetful").password(PASSWORD).sign_up().await;

    let unknown = browser.post("/_api/auth/forgot-password", json!({"email": "nobody@example.com"})).await;
    let known = browser
        .send(
            browser
                .http
                .post(browser.url("/_api/auth/forgot-password"))
                .header("host", "evil.example")
                .json(&json!({"email": "Forgetful@example.com"})),
        )
        .await;
    assert_eq!((unknown.status, known.status), (StatusCode::OK, StatusCode::OK));
    assert_eq!(unknown.text, known.text, "the same answer for known and unknown e-mails");
    assert_eq!(
        known.json()["message"],
        "If an account exists with that email, you will receive a password reset link shortly. Please check your inbox."
    );
    let bad = browser.post("/_api/auth/forgot-password", json!({"email": "nope"})).await;
    assert_eq!(bad.error(), "Please enter a valid email address.");

    let outbox = mails_titled(&app, RESET_SUBJECT);
    assert_eq!(outbox.len(), 1, "one e-mail, for the known account");
    assert_eq!(outbox[0].to, "forgetful@example.com");
    assert_eq!(outbox[0].subject, "Reset your SetupIQ password");
    let link = reset_link(&outbox[0]);
    assert!(
        link.starts_with("https://setupiq.example/reset-password?token="),
        "built from the public URL: {link}"
    );
    let token = link.rsplit_once("token=").unwrap().1.to_owned();

    let verified = browser.post("/_api/auth/verify-reset-token", json!({"resetToken": token})).await;
    assert_eq!(verified.json(), json!({"valid": true, "email": "forgetful@example.com"}));
    let forged = browser.post("/_api/auth/verify-reset-token", json!({"resetToken": "forged"})).await;
    assert_eq!(
        (forged.status, forged.error().as_str()),
        (StatusCode::BAD_REQUEST, "Invalid or expired reset token.")
    );
    // Longer than the document's 200 characters: no link carries one, so the same answer.
    let endless = browser.post("/_api/auth/verify-reset-token", json!({"resetToken": "t".repeat(201)})).await;
    assert_eq!((endless.status, endless.error()), (forged.status, forged.error()));

    for (body, message) in [
        (json!({"resetToken": "", "newPassword": "longenough"}), "Reset token is required."),
        (
            json!({"resetToken": token, "newPassword": "short"}),
            "Password must be at least 8 characters long.",
        ),
        (
            json!({"resetToken": token, "newPassword": "sunshine", "confirmPassword": "sunshine"}),
            "Password must be at least 8 characters long.",
        ),
        (
            json!({"resetToken": token, "newPassword": "longenough", "confirmPassword": ""}),
            "Please confirm your password.",
        ),
        (
            json!({"resetToken": token, "newPassword": "longenough", "confirmPassword": "different"}),
            "Passwords don't match",
        ),
    ] {
        let res = browser.post("/_api/auth/reset-password", body).await;
        assert_eq!((res.status, res.error().as_str()), (StatusCode::BAD_REQUEST, message));
    }
    let done = browser.post("/_api/auth/reset-password",
        json!({"resetToken": token, "newPassword": "brand-new-pass", "confirmPassword": "brand-new-pass"})).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert!(!browser.signed_in().await, "sessions revoked");
    let again = browser
        .post("/_api/auth/reset-password", json!({"resetToken": token, "newPassword": "another-pass"}))
        .await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "single use");
    assert_eq!(browser.login("forgetful@example.com", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    let back = browser.login("forgetful@example.com", "brand-new-pass").await;
    assert_eq!(back.status, StatusCode::OK);
    let cookie = session_cookie(&back);
    assert!(cookie.starts_with("__Host-setupiq_session=") && cookie.contains("Secure"), "https: {cookie}");
}

async fn a_password_change_keeps_this_session_and_ends_the_others(db: TestDb) {
    let app = TestApp::start_with(db, &[("SETUPIQ_PUBLIC_URL", "https://setupiq.example")]).await;
    let laptop = app.user("mover@example.com").password(PASSWORD).sign_up().await;
    let phone = app.client();
    assert_eq!(phone.login("mover@example.com", PASSWORD).await.status, StatusCode::OK);
    // A reset link mailed before the change must not undo it afterwards.
    laptop.post("/_api/auth/forgot-password", json!({"email": "mover@example.com"})).await;
    let stale_link = reset_link(&mails_titled(&app, RESET_SUBJECT)[0]);

    let visitor = app
        .client()
        .post(
            "/_api/auth/change-password",
            json!({"currentPassword": PASSWORD, "newPassword": "a-new-password"}),
        )
        .await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
    for (body, message) in [
        (
            json!({"currentPassword": "", "newPassword": "a-new-password"}),
            "Please enter your current password.",
        ),
        (
            json!({"currentPassword": PASSWORD, "newPassword": "short"}),
            "Password must be at least 8 characters long.",
        ),
        (
            json!({"currentPassword": PASSWORD, "newPassword": "qwertyuiop"}),
            "Password must be at least 8 characters long.",
        ),
        (
            json!({"currentPassword": "not-the-password", "newPassword": "a-new-password"}),
            "Your current password is incorrect.",
        ),
        (
            json!({"currentPassword": PASSWORD, "newPassword": PASSWORD}),
            "Your new password must be different from your current one.",
        ),
    ] {
        let res = laptop.post("/_api/auth/change-password", body).await;
        assert_eq!((res.status, res.error().as_str()), (StatusCode::BAD_REQUEST, message), "{}", res.text);
    }
    assert!(phone.signed_in().await, "a refused change ends nothing");

    let done = laptop
        .post(
            "/_api/auth/change-password",
            json!({"currentPassword": PASSWORD, "newPassword": "a-new-password"}),
        )
        .await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(done.json()["message"], "Password changed. Your other devices were signed out.");
    assert!(laptop.signed_in().await, "the session it was changed from stays signed in");
    assert!(!phone.signed_in().await, "every other session ends");
    assert_eq!(phone.login("mover@example.com", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(phone.login("mover@example.com", "a-new-password").await.status, StatusCode::OK);
    let token = stale_link.rsplit_once("token=").unwrap().1.to_owned();
    let stale = laptop.post("/_api/auth/verify-reset-token", json!({"resetToken": token})).await;
    assert_eq!(stale.status, StatusCode::BAD_REQUEST, "the earlier reset link died with the old password");

    let notices = mails_titled(&app, "Your SetupIQ password was changed");
    assert_eq!(notices.len(), 1, "one notice, for the change that happened");
    assert_eq!(notices[0].to, "mover@example.com");
    assert!(notices[0].text.contains("https://setupiq.example/login"), "{}", notices[0].text);
    assert!(!notices[0].text.contains("a-new-password"), "the e-mail never carries the password");

    // "Sign out everywhere else" ends the phone's new session too, and only it.
    let visitor = app.client().post("/_api/auth/sessions/end-others", json!({})).await;
    assert_eq!(visitor.status, StatusCode::UNAUTHORIZED);
    assert!(phone.signed_in().await);
    let ended = laptop.post("/_api/auth/sessions/end-others", json!({})).await;
    assert_eq!((ended.status, ended.json()["ended"].as_u64()), (StatusCode::OK, Some(1)), "{}", ended.text);
    assert!(laptop.signed_in().await && !phone.signed_in().await);
    let again = laptop.post("/_api/auth/sessions/end-others", json!({})).await;
    assert_eq!(again.json()["ended"], 0);
}

async fn repeated_wrong_current_passwords_are_throttled(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("guess@example.com").password(PASSWORD).sign_up().await;
    let mut last = None;
    for _ in 0..12 {
        let res = me
            .post(
                "/_api/auth/change-password",
                json!({"currentPassword": "a-wrong-guess", "newPassword": "a-new-password"}),
            )
            .await;
        if res.status == StatusCode::TOO_MANY_REQUESTS {
            last = Some(res);
            break;
        }
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
    }
    let throttled = last.expect("a borrowed session cannot guess the password forever");
    assert!(throttled.header("retry-after").is_some());
    let right = me
        .post(
            "/_api/auth/change-password",
            json!({"currentPassword": PASSWORD, "newPassword": "a-new-password"}),
        )
        .await;
    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS, "not even the right one while throttled");
}

async fn reset_links_expire_after_an_hour(db: TestDb) {
    let app = TestApp::start(db).await;
    app.user("late@example.com").password(PASSWORD).sign_up().await;
    let browser = app.client();
    browser.post("/_api/auth/forgot-password", json!({"email": "late@example.com"})).await;
    let link = reset_link(&mails_titled(&app, RESET_SUBJECT)[0]);
    let token = link.rsplit_once("token=").unwrap().1.to_owned();
    app.clock.advance(Duration::minutes(61));
    let res = browser
        .post("/_api/auth/reset-password", json!({"resetToken": token, "newPassword": "too-late-now"}))
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        browser.login("late@example.com", PASSWORD).await.status,
        StatusCode::OK,
        "the password is unchanged"
    );
}

async fn deleting_the_account_removes_everything(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("gone@example.com").password(PASSWORD).sign_up().await;
    let png = data_url("image/png", &png_with_metadata(10, 10, "x"));
    assert_eq!(
        me.post("/_api/auth/upload-profile-picture", json!({"imageData": png})).await.status,
        StatusCode::OK
    );
    assert_eq!(app.media_files().len(), 1);
    let res = me.delete_account().await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(session_cookie(&res).contains("Max-Age=0"));
    assert!(app.media_files().is_empty(), "uploads deleted");
    assert!(!me.signed_in().await);
    assert_eq!(app.client().login("gone@example.com", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    let count: i64 = users::table.count().get_result(&mut *app.db.conn()).unwrap();
    assert_eq!(count, 0);
    assert_eq!(
        app.client().register("gone@example.com", PASSWORD, "Back").await.status,
        StatusCode::CREATED,
        "the e-mail is free again"
    );
}

async fn cross_site_and_non_json_writes_are_refused(db: TestDb) {
    let app = TestApp::start(db).await;
    let browser = app.client();
    let form = browser
        .send(
            browser
                .http
                .post(browser.url("/_api/auth/register_with_password"))
                .header("content-type", "application/x-www-form-urlencoded")
                .body("email=a%40b.co&password=hunter2hunter2&displayName=A"),
        )
        .await;
    assert_eq!(form.status, StatusCode::FORBIDDEN);
    let plain = browser
        .send(
            browser
                .http
                .post(browser.url("/_api/auth/logout"))
                .header("content-type", "text/plain")
                .body("{}"),
        )
        .await;
    assert_eq!(plain.status, StatusCode::FORBIDDEN);
    let evil = browser
        .send(
            browser
                .http
                .post(browser.url("/_api/auth/register_with_password"))
                .header("origin", "https://evil.example")
                .json(&json!({"email": "a@b.co", "password": PASSWORD, "displayName": "A"})),
        )
        .await;
    assert_eq!(evil.status, StatusCode::FORBIDDEN);
    assert_eq!(evil.header("x-content-type-options"), Some("nosniff"), "refusals carry the security headers");
    let count: i64 = users::table.count().get_result(&mut *app.db.conn()).unwrap();
    assert_eq!(count, 0);
    let same_site = browser
        .send(
            browser
                .http
                .post(browser.url("/_api/auth/register_with_password"))
                .header("origin", "http://127.0.0.1:8080")
                .json(&json!({"email": "a@b.co", "password": PASSWORD, "displayName": "A"})),
        )
        .await;
    assert_eq!(same_site.status, StatusCode::CREATED);
}

async fn a_listed_admin_address_becomes_admin_only_once_its_link_is_followed(db: TestDb) {
    let app = TestApp::start_with(
        db,
        &[("SETUPIQ_ADMIN_EMAILS", "Boss@Example.com"), ("SETUPIQ_PUBLIC_URL", "https://setupiq.example")],
    )
    .await;
    // Whoever registers the listed address first, in any letter case, is signed in with the
    // signup bonus like anyone, but is no admin.
    let claimer = app.client();
    let res = claimer.register("BOSS@example.COM", PASSWORD, "Boss").await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.text);
    let user = &res.json()["user"];
    assert_eq!((user["role"].as_str(), user["emailVerified"].as_bool()), (Some("user"), Some(false)));
    assert_eq!((res.json()["signupBonus"].as_i64(), user["credits"].as_i64()), (Some(3), Some(3)));
    assert_eq!(claimer.get("/_api/admin/reports").await.status, StatusCode::FORBIDDEN);
    let login = app.client().login("boss@example.com", PASSWORD).await;
    assert_eq!(login.json()["user"]["role"], "user", "nor at login");
    assert_eq!(claimer.get("/_api/auth/session").await.json()["user"]["emailVerified"], false);

    // The link goes to the address, built from the public URL.
    let mails = mails_titled(&app, VERIFY_SUBJECT);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "boss@example.com");
    let link = mails[0].line_with("/verify-email?token=").unwrap();
    assert!(link.starts_with("https://setupiq.example/verify-email?token="), "{link}");
    let token = link.rsplit_once("token=").unwrap().1.to_owned();
    assert!(token.len() >= 22, "at least 128 bits: {token}");

    // Only whoever reads that mailbox can follow it, from any browser; the one signed in as
    // the account is answered with it.
    let verified = claimer.post("/_api/auth/verify-email", json!({"token": token})).await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.text);
    assert_eq!(verified.json()["user"]["role"], "admin");
    assert_eq!(verified.json()["user"]["emailVerified"], true);
    let session = claimer.get("/_api/auth/session").await.json();
    assert_eq!(
        (session["user"]["role"].as_str(), session["user"]["emailVerified"].as_bool()),
        (Some("admin"), Some(true))
    );
    assert_eq!(claimer.get("/_api/admin/reports").await.status, StatusCode::OK);

    // A verified listed address that lost the role gets it back at its next login.
    let id = session["user"]["id"].as_i64().unwrap();
    setupiq_auth::service::accounts::set_role(
        &mut app.db.conn(),
        UserId(id),
        setupiq_auth::Role::User,
        app.clock.now(),
    )
    .unwrap();
    assert_eq!(app.client().login("Boss@Example.com", PASSWORD).await.json()["user"]["role"], "admin");

    let other = app.client().register("user@example.com", PASSWORD, "User").await;
    assert_eq!(other.json()["user"]["role"], "user");
    app.verify_email("user@example.com").await;
    let login = app.client().login("user@example.com", PASSWORD).await;
    assert_eq!(
        (login.json()["user"]["role"].as_str(), login.json()["user"]["emailVerified"].as_bool()),
        (Some("user"), Some(true))
    );
}

async fn verification_links_work_once_and_for_a_day_and_resends_are_limited(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("verify-me@example.com").sign_up().await;
    let stranger = app.client();
    let verify = |token: &str| stranger.post("/_api/auth/verify-email", json!({"token": token}));
    let first = app.verification_token("verify-me@example.com");

    for (token, message) in [
        ("", "The verification link is incomplete."),
        (
            "forged",
            "This verification link is not valid. Check that you opened the whole link from the e-mail, or ask for a new one.",
        ),
    ] {
        let res = verify(token).await;
        assert_eq!((res.status, res.error().as_str()), (StatusCode::BAD_REQUEST, message));
    }
    app.clock.advance(Duration::hours(24));
    let expired = verify(&first).await;
    assert_eq!(
        (expired.status, expired.error().as_str()),
        (
            StatusCode::BAD_REQUEST,
            "This verification link has expired: links work for 24 hours. Please ask for a new one."
        )
    );
    assert_eq!(me.get("/_api/auth/session").await.json()["user"]["emailVerified"], false);

    // Resend: five links an hour, then 429 until the oldest leaves the hour.
    let resend = || me.post("/_api/auth/verify-email/resend", json!({}));
    for _ in 0..5 {
        let res = resend().await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
        assert_eq!(res.json()["message"], "We sent a new verification link. Please check your inbox.");
    }
    app.clock.advance(Duration::minutes(10));
    let refused = resend().await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{}", refused.text);
    assert_eq!(refused.header("retry-after"), Some("3000"));
    assert_eq!(
        refused.error(),
        "You have asked for 5 verification e-mails in the last hour. Please try again in 50 minute(s)."
    );
    assert_eq!(mails_titled(&app, VERIFY_SUBJECT).len(), 6, "the sign-up's and five resends");
    assert_eq!(
        app.client().post("/_api/auth/verify-email/resend", json!({})).await.status,
        StatusCode::UNAUTHORIZED
    );

    // The newest link verifies; the older ones are used up with it. Followed again, a link of
    // the verified address says it is verified (the same answer), never that it failed.
    let second = mails_titled(&app, VERIFY_SUBJECT)[1].line_with("token=").unwrap();
    let second = second.rsplit_once("token=").unwrap().1.to_owned();
    let newest = app.verification_token("verify-me@example.com");
    let done = verify(&newest).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    for token in [newest, second] {
        let again = verify(&token).await;
        assert_eq!(again.status, StatusCode::OK, "{}", again.text);
        assert_eq!(again.json(), done.json());
    }
    assert_eq!(me.get("/_api/auth/session").await.json()["user"]["emailVerified"], true);
    app.clock.advance(Duration::hours(1));
    let verified_already = resend().await;
    assert_eq!(
        (verified_already.status, verified_already.error().as_str()),
        (StatusCode::CONFLICT, "Your e-mail address is already verified.")
    );
}

/// Follows the newest verification link mailed to `email` in `holder`'s browser.
async fn follow_link(
    app: &TestApp,
    holder: &setupiq_test_utils::TestClient,
    email: &str,
) -> setupiq_test_utils::TestResponse {
    holder.post("/_api/auth/verify-email", json!({"token": app.verification_token(email)})).await
}

async fn a_verification_link_followed_signed_out_answers_only_success(db: TestDb) {
    let app = TestApp::start(db).await;
    let me = app.user("private@example.com").sign_up().await;
    let other = app.user("other@example.com").sign_up().await;

    // Whoever else holds a link (forwarded, pasted, another member) learns that it worked,
    // not whose it was.
    let signed_out = follow_link(&app, &app.client(), "private@example.com").await;
    let someone_else = follow_link(&app, &me, "other@example.com").await;
    for res in [signed_out, someone_else] {
        assert_eq!(res.status, StatusCode::OK, "{}", res.text);
        assert_eq!(res.json(), json!({"success": true}));
    }
    for user in [&me, &other] {
        assert_eq!(user.get("/_api/auth/session").await.json()["user"]["emailVerified"], true);
    }

    // Signed in as the account, the browser is answered with it, verified.
    let third = app.user("third@example.com").sign_up().await;
    let own = follow_link(&app, &third, "third@example.com").await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text);
    let user = &own.json()["user"];
    assert_eq!(
        (user["email"].as_str(), user["emailVerified"].as_bool(), user["credits"].as_i64()),
        (Some("third@example.com"), Some(true), Some(3))
    );
}

/// Runs futures concurrently on the current task (like `futures::future::join_all`).
async fn futures_join_all<F: std::future::Future>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output> {
    let handles: Vec<_> = futures.into_iter().map(Box::pin).collect();
    let mut outputs = Vec::with_capacity(handles.len());
    let mut pending: Vec<_> = handles.into_iter().map(Some).collect();
    let mut results: Vec<Option<F::Output>> = (0..pending.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all_done = true;
        for (slot, result) in pending.iter_mut().zip(results.iter_mut()) {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(out) => {
                        *result = Some(out);
                        *slot = None;
                    }
                    std::task::Poll::Pending => all_done = false,
                }
            }
        }
        if all_done { std::task::Poll::Ready(()) } else { std::task::Poll::Pending }
    })
    .await;
    outputs.extend(results.into_iter().flatten());
    outputs
}

mod argon2_weak {
    /// A hash from an older, weaker policy (m = 4096 KiB, t = 1).
    pub fn hash(password: &str) -> String {
        use argon2::password_hash::{PasswordHasher, SaltString, rand_core::OsRng};
        let params = argon2::Params::new(4096, 1, 1, None).unwrap();
        argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
            .hash_password(password.as_bytes(), &SaltString::generate(&mut OsRng))
            .unwrap()
            .to_string()
    }
}

async fn sign_ups_per_network_are_limited_and_the_bonus_with_them(db: TestDb) {
    let app = TestApp::start_with(
        db,
        &[("SETUPIQ_SIGNUPS_PER_HOUR_PER_IP", "3"), ("SETUPIQ_SIGNUP_BONUS_PER_DAY_PER_IP", "2")],
    )
    .await;
    let app = &app;
    let sign_up = |n: u32| async move {
        app.client().register(&format!("farm{n}@example.com"), PASSWORD, "Farmer").await
    };
    let mut started_with = Vec::new();
    for n in 0..3 {
        let res = sign_up(n).await;
        assert_eq!(res.status, StatusCode::CREATED, "{}", res.text);
        let body = res.json();
        assert_eq!(body["signupBonus"], body["user"]["credits"], "the response says what the account got");
        started_with.push(body["user"]["credits"].as_i64().unwrap());
    }
    assert_eq!(started_with, [3, 3, 0], "the bonus for the first two of the day");

    let refused = sign_up(3).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{}", refused.text);
    assert_eq!(refused.error(), "Too many new accounts from your network. Please try again in 60 minute(s).");
    assert_eq!(refused.header("retry-after"), Some("3600"));
    let accounts: i64 = users::table.count().get_result(&mut *app.db.conn()).unwrap();
    assert_eq!(accounts, 3, "nothing created");

    app.clock.advance(Duration::minutes(61));
    let next_hour = sign_up(4).await;
    assert_eq!(next_hour.status, StatusCode::CREATED, "{}", next_hour.text);
    assert_eq!(
        (next_hour.json()["signupBonus"].as_i64(), next_hour.json()["user"]["credits"].as_i64()),
        (Some(0), Some(0))
    );

    app.clock.advance(Duration::hours(24));
    let next_day = sign_up(5).await;
    assert_eq!(next_day.json()["signupBonus"], 3, "a new day, a new bonus");
}
