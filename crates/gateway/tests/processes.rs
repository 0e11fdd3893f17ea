//! Real `setupiq serve` processes.
//!
//! Two on one PostgreSQL database and one S3-compatible store, as replicas behind a proxy
//! run: whatever a user does through one holds on the other. Sessions and logout, the login throttle, uploaded photos, and credits under a
//! burst of concurrent analyses spread over both (exactly as many results as credits, and
//! the balance equal to the sum of the ledger).
//!
//! A database that stops answering under both is reported by both, and both recover.
//!
//! One killed with SIGKILL in the middle of a burst of writes (sign-ups, analyses,
//! deductions, card payments, rewarded-ad claims) on each backend: after a restart every
//! balance equals the sum of its ledger and nothing was granted twice.
//!
//! One killed with SIGKILL in the middle of a five-photo publish, on each backend: the
//! photos it stored are named by no row; restarted later, the server's sweep at start
//! removes them (and says how many and how many bytes), while the named media stay.
//!
//! The client keeps one cookie jar for both, as a browser behind one proxy would.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use diesel::prelude::*;
use setupiq_core::UserId;
use setupiq_db::schema::{community_setups, credit_ledger, users};

use reqwest::StatusCode;
use serde_json::{Value, json};
use setupiq_auth::service::ledger::{self, LedgerReason};
use setupiq_test_utils::bench::data_url;
use setupiq_test_utils::{FreezableProxy, S3StandIn, TestDb};

/// One `setupiq serve` process.
struct Replica {
    child: Child,
    base: String,
    data: tempfile::TempDir,
}

impl Replica {
    async fn start(db_url: &str, s3: &S3StandIn, public_url: &str) -> Replica {
        let vars = s3.vars();
        Replica::start_with(db_url, tempfile::tempdir().unwrap(), public_url, &vars).await
    }

    async fn start_with(
        db_url: &str,
        data: tempfile::TempDir,
        public_url: &str,
        vars: &[(&'static str, String)],
    ) -> Replica {
        Replica::launch(db_url, data, public_url, vars, Stdio::inherit()).await
    }

    /// [`Replica::start_with`], its log (JSON lines) written to `log` for the test to read.
    async fn start_logging_to(
        db_url: &str,
        data: tempfile::TempDir,
        vars: &[(&'static str, String)],
        log: &std::path::Path,
    ) -> Replica {
        let mut vars = vars.to_vec();
        vars.extend([
            ("SETUPIQ_LOG_FORMAT", "json".to_owned()),
            ("RUST_LOG", "warn,setupiq_gateway=info".to_owned()),
        ]);
        let log = std::fs::File::create(log).unwrap();
        Replica::launch(db_url, data, "http://127.0.0.1:9", &vars, Stdio::from(log)).await
    }

    async fn launch(
        db_url: &str,
        data: tempfile::TempDir,
        public_url: &str,
        vars: &[(&'static str, String)],
        stderr: Stdio,
    ) -> Replica {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut command = Command::new(env!("CARGO_BIN_EXE_setupiq"));
        for (name, _) in std::env::vars() {
            if name.starts_with("SETUPIQ_") || name.starts_with("AWS_") {
                command.env_remove(name);
            }
        }
        command
            .arg("serve")
            .current_dir(data.path())
            .env("SETUPIQ_DATA_DIR", data.path())
            .env("SETUPIQ_DATABASE_URL", db_url)
            .env("SETUPIQ_BIND", format!("127.0.0.1:{port}"))
            .env("SETUPIQ_PUBLIC_URL", public_url)
            .env("SETUPIQ_MODELS_DIR", concat!(env!("CARGO_MANIFEST_DIR"), "/../../models"))
            .env("SETUPIQ_FRONTEND_DIR", data.path())
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(stderr);
        for (name, value) in vars {
            command.env(name, value);
        }
        let child = command.spawn().unwrap();
        let replica = Replica { child, base: format!("http://127.0.0.1:{port}"), data };
        let deadline = Instant::now() + Duration::from_secs(180);
        let probe = reqwest::Client::new();
        while probe.get(format!("{}/_api/ready", replica.base)).send().await.ok().map(|r| r.status())
            != Some(StatusCode::OK)
        {
            assert!(Instant::now() < deadline, "replica {} did not become ready", replica.base);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        replica
    }
}

impl Replica {
    /// SIGKILL: no shutdown of any kind. Returns the data directory for a restart.
    fn kill(mut self) -> tempfile::TempDir {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        std::mem::replace(&mut self.data, tempfile::tempdir().unwrap())
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser whose requests go to whichever replica the test names.
struct Browser {
    http: reqwest::Client,
}

impl Browser {
    fn new() -> Browser {
        Browser { http: reqwest::Client::builder().cookie_store(true).build().unwrap() }
    }

    async fn post(&self, replica: &Replica, path: &str, body: Value) -> (StatusCode, Value) {
        let res = self.http.post(format!("{}{path}", replica.base)).json(&body).send().await.unwrap();
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn get(&self, replica: &Replica, path: &str) -> (StatusCode, Vec<u8>) {
        let res = self.http.get(format!("{}{path}", replica.base)).send().await.unwrap();
        (res.status(), res.bytes().await.unwrap().to_vec())
    }

    /// Whether the session check on `replica` answers a user.
    async fn signed_in(&self, replica: &Replica) -> bool {
        let (status, body) = self.get(replica, "/_api/auth/session").await;
        assert_eq!(status, StatusCode::OK);
        !serde_json::from_slice::<serde_json::Value>(&body).unwrap()["user"].is_null()
    }
}

const PASSWORD: &str = "replicated-password";

#[actix_web::test]
async fn two_replicas_share_sessions_limits_media_and_credits() {
    let Some(db) = TestDb::postgres() else { return };
    let Some(s3) = S3StandIn::start().await else { return };
    let public = "http://127.0.0.1:9";
    let (a, b) = (Replica::start(db.url(), &s3, public).await, Replica::start(db.url(), &s3, public).await);

    // A session made on A works on B; a logout on B ends it on A.
    let browser = Browser::new();
    let (status, signed_up) = browser
        .post(
            &a,
            "/_api/auth/register_with_password",
            json!({"email": "twin@example.com", "password": PASSWORD, "displayName": "Twin"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{signed_up}");
    assert!(browser.signed_in(&b).await, "signed in on B too");
    assert_eq!(browser.post(&b, "/_api/auth/logout", json!({})).await.0, StatusCode::OK);
    assert!(!browser.signed_in(&a).await, "signed out on A too");

    // The login throttle counts the failures made on both.
    let attacker = Browser::new();
    for i in 0..5 {
        let replica = if i % 2 == 0 { &a } else { &b };
        let wrong = json!({"email": "twin@example.com", "password": format!("wrong-{i}")});
        assert_eq!(
            attacker.post(replica, "/_api/auth/login_with_password", wrong).await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    let right = json!({"email": "twin@example.com", "password": PASSWORD});
    for replica in [&a, &b] {
        let (status, _) = attacker.post(replica, "/_api/auth/login_with_password", right.clone()).await;
        assert_eq!(
            status,
            StatusCode::TOO_MANY_REQUESTS,
            "locked on {} after 5 failures spread over both",
            replica.base
        );
    }

    // A photo uploaded through A is served by B.
    let owner = Browser::new();
    let (status, me) = owner
        .post(
            &a,
            "/_api/auth/register_with_password",
            json!({"email": "photos@example.com", "password": PASSWORD, "displayName": "Photos"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{me}");
    let image = image::RgbImage::from_fn(200, 150, |x, y| image::Rgb([90, (x % 256) as u8, (y % 256) as u8]));
    let mut jpeg = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg).unwrap();
    let (status, uploaded) =
        owner.post(&a, "/_api/auth/upload-profile-picture", json!({"imageData": data_url(&jpeg)})).await;
    assert_eq!(status, StatusCode::OK, "{uploaded}");
    let url = uploaded["user"]["profilePicture"].as_str().unwrap();
    let (status, served) = Browser::new().get(&b, url).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(image::load_from_memory(&served).unwrap().width(), 200);

    // 50 concurrent analyses over both replicas with 10 credits: exactly 10 results.
    let user_id = UserId(me["user"]["id"].as_i64().unwrap());
    let pool = setupiq_db::Db::connect(db.url()).unwrap();
    let mut conn = pool.conn().unwrap();
    let balance = ledger::balance(&mut conn, user_id).unwrap();
    ledger::apply(
        &mut conn,
        user_id,
        10 - balance,
        &LedgerReason::Spend("test top-up".into()),
        None,
        chrono::Utc::now(),
    )
    .unwrap();
    let description = json!({"type": "text", "value": "Two 27 inch monitors on arms, RGB strips behind the desk, cables in a tray"});
    let requests = (0..50)
        .map(|i| owner.post(if i % 2 == 0 { &a } else { &b }, "/_api/analyze-setup", description.clone()));
    let answers = futures_util::future::join_all(requests).await;
    let delivered = answers.iter().filter(|(status, _)| *status == StatusCode::OK).count();
    let refused = answers.iter().filter(|(status, _)| *status == StatusCode::PAYMENT_REQUIRED).count();
    assert_eq!((delivered, refused), (10, 40), "{:?}", answers.iter().map(|a| a.0).collect::<Vec<_>>());
    assert_eq!(ledger::balance(&mut conn, user_id).unwrap(), 0);
    assert!(ledger::balance_matches_ledger(&mut conn, user_id).unwrap(), "balance == sum of the ledger");
    let (_, history) = owner.get(&b, "/_api/my-analyses").await;
    let history: Value = serde_json::from_slice(&history).unwrap();
    assert_eq!(history["total"], 10, "{history}");
}

/// The database stops answering under both replicas (a frozen network path): each says so
/// on `/_api/ready` within a second and answers API calls 503 with `Retry-After`, while
/// `/_api/health` stays 200 (nothing to restart); both recover by themselves.
#[actix_web::test]
async fn both_replicas_report_a_silent_database_and_recover() {
    let Some(db) = TestDb::postgres() else { return };
    let Some(s3) = S3StandIn::start().await else { return };
    let proxy = FreezableProxy::start(&db.postgres_addr().unwrap());
    let db = db.through(proxy.addr());
    let public = "http://127.0.0.1:9";
    let replicas = [Replica::start(db.url(), &s3, public).await, Replica::start(db.url(), &s3, public).await];
    let browser = Browser::new();
    let (status, _) = browser
        .post(
            &replicas[0],
            "/_api/auth/register_with_password",
            json!({"email": "outage@example.com", "password": PASSWORD, "displayName": "Outage"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);

    proxy.freeze();
    for replica in &replicas {
        let started = Instant::now();
        let ready = browser.http.get(format!("{}/_api/ready", replica.base)).send().await.unwrap();
        assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE, "{}", replica.base);
        assert!(ready.headers().contains_key("retry-after"));
        assert!(started.elapsed() < Duration::from_secs(3), "ready answered in {:?}", started.elapsed());
        assert_eq!(browser.get(replica, "/_api/health").await.0, StatusCode::OK, "alive: nothing to restart");
        let call = browser.http.get(format!("{}/_api/credits/history", replica.base)).send().await.unwrap();
        assert_eq!(call.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(call.headers().contains_key("retry-after"));
    }

    proxy.thaw();
    for replica in &replicas {
        let mut status = StatusCode::SERVICE_UNAVAILABLE;
        for _ in 0..40 {
            status = browser.get(replica, "/_api/ready").await.0;
            if status == StatusCode::OK {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        assert_eq!(status, StatusCode::OK, "{} recovered by itself", replica.base);
        assert_eq!(browser.get(replica, "/_api/credits/history").await.0, StatusCode::OK);
    }
}

setupiq_test_utils::both_backends_async!(a_kill_mid_burst_loses_no_credit_and_grants_nothing_twice);

/// One user's share of the burst: sign up, then analyses, deductions and card payments
/// until the server goes away. Returns the payment intents the server said it paid, each
/// with whether its confirmation (the credit) was answered.
/// Also returns the user's browser (its session outlives the restart).
async fn burst_of(
    base: String,
    i: usize,
    answered: Arc<AtomicUsize>,
) -> (reqwest::Client, Vec<(String, bool)>) {
    let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
    let post = |path: &str, body: Value| {
        let request = http.post(format!("{base}{path}")).json(&body).send();
        let answered = answered.clone();
        async move {
            let res = request.await.ok()?;
            answered.fetch_add(1, Ordering::SeqCst);
            let status = res.status();
            Some((status, res.json::<Value>().await.unwrap_or(Value::Null)))
        }
    };
    let mut paid = Vec::new();
    let account = json!({"email": format!("burst{i}@example.com"), "password": PASSWORD, "displayName": format!("Burst{i}")});
    if post("/_api/auth/register_with_password", account).await.is_none() {
        return (http, paid);
    }
    let description =
        json!({"type": "text", "value": "A desk with two monitors on arms, RGB strips and a cable tray"});
    for _ in 0..4 {
        let Some(_) = post("/_api/analyze-setup", description.clone()).await else { break };
        let Some(_) = post("/_api/credits/deduct", json!({"amount": 1, "reason": "burst"})).await else {
            break;
        };
        let Some((_, intent)) =
            post("/_api/stripe/create-payment-intent", json!({"packageId": "starter"})).await
        else {
            break;
        };
        let Some(id) = intent["paymentIntentId"].as_str().map(str::to_owned) else { break };
        let pay = json!({"paymentIntentId": id, "cardNumber": "4242 4242 4242 4242"});
        match post("/_api/stripe/test-mode/pay", pay).await {
            Some((StatusCode::OK, _)) => {}
            Some(_) => continue,
            None => break,
        }
        let confirmed = post("/_api/stripe/confirm-payment", json!({"paymentIntentId": id})).await;
        paid.push((id, matches!(confirmed, Some((StatusCode::OK, _)))));
        if confirmed.is_none() {
            break;
        }
    }
    (http, paid)
}

/// How far the burst has gone: answers received, and whether the server was killed.
struct Burst {
    answered: Arc<AtomicUsize>,
    killed: std::sync::atomic::AtomicBool,
}

/// A viewer who started three rewarded ads before the burst: its browser and ad tokens.
struct Viewer {
    http: reqwest::Client,
    tokens: Vec<String>,
}

impl Viewer {
    /// Signs up, watches two ads to the end (one at a time, as a member can) and starts a
    /// third: the one whose claim earns a credit (every third counted ad does).
    async fn start(base: &str, i: usize) -> Viewer {
        let http = reqwest::Client::builder().cookie_store(true).build().unwrap();
        let account = json!({"email": format!("viewer{i}@example.com"), "password": PASSWORD, "displayName": format!("Viewer{i}")});
        let res = http
            .post(format!("{base}/_api/auth/register_with_password"))
            .json(&account)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        let start_ad = || async {
            let res = http.post(format!("{base}/_api/watch-ad/start")).json(&json!({})).send().await.unwrap();
            let started: Value = res.json().await.unwrap();
            started["adToken"].as_str().unwrap().to_owned()
        };
        for _ in 0..2 {
            let token = start_ad().await;
            // An ad counts once it has played for 3 s on the server's clock.
            tokio::time::sleep(Duration::from_millis(3100)).await;
            let claim = http.post(format!("{base}/_api/watch-ad")).json(&json!({"adToken": token}));
            assert_eq!(claim.send().await.unwrap().status(), StatusCode::OK);
        }
        let tokens = vec![start_ad().await];
        Viewer { http, tokens }
    }

    /// Claims each ad once; the statuses answered (none once the server is gone).
    async fn claim_all(&self, base: &str) -> Vec<StatusCode> {
        self.claim_paced(base, None, 0).await
    }

    /// [`Self::claim_all`] during the burst: each claim waits until the burst has had its
    /// share of answers, so that the claims of all viewers spread over the burst (claims
    /// are quick; sent at once they would all be answered before the kill).
    async fn claim_paced(&self, base: &str, burst: Option<&Burst>, first: usize) -> Vec<StatusCode> {
        let mut statuses = Vec::new();
        for (k, token) in self.tokens.iter().enumerate() {
            if let Some(burst) = burst {
                while burst.answered.load(Ordering::SeqCst) < first + 30 * k
                    && !burst.killed.load(Ordering::SeqCst)
                {
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            }
            let claim = self.http.post(format!("{base}/_api/watch-ad")).json(&json!({"adToken": token}));
            let Ok(res) = claim.send().await else { break };
            if let Some(burst) = burst {
                burst.answered.fetch_add(1, Ordering::SeqCst);
            }
            statuses.push(res.status());
        }
        statuses
    }
}

async fn a_kill_mid_burst_loses_no_credit_and_grants_nothing_twice(db: TestDb) {
    let vars = [
        ("SETUPIQ_SIGNUPS_PER_HOUR_PER_IP", "1000".to_owned()),
        ("SETUPIQ_SIGNUP_BONUS_PER_DAY_PER_IP", "1000".to_owned()),
    ];
    let public = "http://127.0.0.1:9";
    let server = Replica::start_with(db.url(), tempfile::tempdir().unwrap(), public, &vars).await;
    let base = server.base.clone();

    // Twelve viewers watch two ads each and start a third before the burst; an ad counts
    // only once it has played for 3 s, so the third's claims wait for that, then join the
    // burst.
    let viewers = futures_util::future::join_all((0..12).map(|i| Viewer::start(&base, i))).await;
    tokio::time::sleep(Duration::from_millis(3100)).await;

    // 24 users at once, and the viewers' claims; the server is killed once 80 answers have
    // come back, with many requests in flight.
    let answered = Arc::new(AtomicUsize::new(0));
    let burst = futures_util::future::join_all((0..24).map(|i| burst_of(base.clone(), i, answered.clone())));
    // Viewer i claims its third ad (the one that earns a credit) after 4i answers: the first
    // viewers' claims come before the kill (at 80), others are in flight or refused.
    let progress = Burst { answered: answered.clone(), killed: false.into() };
    let claims = futures_util::future::join_all(
        viewers.iter().enumerate().map(|(i, v)| v.claim_paced(&base, Some(&progress), 4 * i)),
    );
    let killer = async {
        while answered.load(Ordering::SeqCst) < 80 {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let data = server.kill();
        progress.killed.store(true, Ordering::SeqCst);
        data
    };
    let (paid, claimed, data) = tokio::join!(burst, claims, killer);
    let browsers: Vec<(reqwest::Client, (String, bool))> =
        paid.into_iter().flat_map(|(http, paid)| paid.into_iter().map(move |p| (http.clone(), p))).collect();
    let paid: Vec<(String, bool)> = browsers.iter().map(|(_, p)| p.clone()).collect();
    assert!(answered.load(Ordering::SeqCst) < 24 * 17, "the kill came mid-burst");

    let server = Replica::start_with(db.url(), data, public, &vars).await;
    let check = |db: &TestDb| {
        let mut conn = db.conn();
        let users: Vec<UserId> = users::table.select(users::id).load(&mut conn).unwrap();
        for &user in &users {
            assert!(
                ledger::balance_matches_ledger(&mut conn, user).unwrap(),
                "user {user}: balance == ledger"
            );
        }
        let bonuses: Vec<(i64, i64)> = credit_ledger::table
            .filter(credit_ledger::reason.eq("signup_bonus"))
            .group_by(credit_ledger::user_id)
            .select((credit_ledger::user_id, diesel::dsl::count_star()))
            .load(&mut conn)
            .unwrap();
        assert!(bonuses.iter().all(|(_, n)| *n == 1), "one signup bonus each: {bonuses:?}");
        credit_ledger::table
            .filter(credit_ledger::reason.like("purchase:%"))
            .select(credit_ledger::external_ref)
            .load::<Option<String>>(&mut conn)
            .unwrap()
    };
    let ad_credits = |db: &TestDb| {
        let mut users: Vec<i64> = credit_ledger::table
            .filter(credit_ledger::reason.eq(LedgerReason::AdReward.to_db().into_owned()))
            .select(credit_ledger::user_id)
            .load(&mut db.conn())
            .unwrap();
        users.sort();
        users
    };
    let granted_once = |purchases: &[Option<String>], id: &str| {
        purchases.iter().filter(|r| r.as_deref() == Some(&format!("payment:{id}"))).count() == 1
    };
    let purchases = check(&db);
    for (id, _) in paid.iter().filter(|(_, confirmed)| *confirmed) {
        assert!(granted_once(&purchases, id), "{id}: confirmed before the kill, credited once");
    }

    // Confirming every paid intent after the restart (twice) credits the ones whose
    // confirmation the kill cut off, once, and nothing else.
    for (http, (id, _)) in browsers.iter().chain(&browsers) {
        let confirm = http
            .post(format!("{}/_api/stripe/confirm-payment", server.base))
            .json(&json!({"paymentIntentId": id}));
        assert_eq!(confirm.send().await.unwrap().status(), StatusCode::OK, "{id}");
    }
    let after = check(&db);
    for (id, _) in &paid {
        assert!(granted_once(&after, id), "{id} credited exactly once");
    }

    // Every ad claim answered before the kill counted; a third counted ad earned its credit
    // once (no viewer holds more than one ad credit).
    let before = ad_credits(&db);
    assert!(claimed.iter().flatten().all(|s| *s == StatusCode::OK), "claims before the kill: {claimed:?}");
    let credited_before = claimed.iter().filter(|statuses| !statuses.is_empty()).count();
    assert!(
        before.len() >= credited_before,
        "{credited_before} viewers credited before the kill: {before:?}"
    );
    assert!(before.windows(2).all(|w| w[0] != w[1]), "no viewer credited twice: {before:?}");
    // Claiming every ad again (twice) after the restart counts those the kill cut off and
    // refuses the rest as already counted: three ads, exactly one credit, per viewer.
    for viewer in viewers.iter().chain(&viewers) {
        let statuses = viewer.claim_all(&server.base).await;
        assert!(statuses.iter().all(|s| [StatusCode::OK, StatusCode::CONFLICT].contains(s)), "{statuses:?}");
    }
    let credited = ad_credits(&db);
    assert_eq!(credited.len(), viewers.len(), "one ad credit per viewer: {credited:?}");
    assert!(credited.windows(2).all(|w| w[0] != w[1]), "no viewer credited twice: {credited:?}");
    check(&db);
}

setupiq_test_utils::both_backends_async!(a_kill_mid_publish_leaves_photos_that_the_restart_sweeps);

/// A JPEG data URL of a `width` x `height` picture of squares in shades of `seed`.
fn busy_photo(width: u32, height: u32, seed: u32) -> String {
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        let v = ((x / 16) ^ (y / 16)).wrapping_mul(37).wrapping_add(seed);
        image::Rgb([v as u8, (x % 256) as u8, (y % 256) as u8])
    });
    let mut jpeg = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg).unwrap();
    data_url(&jpeg)
}

/// Every file under the media directory, with its size, by its name (`folder/file`).
fn media_files(data: &std::path::Path) -> std::collections::BTreeMap<String, u64> {
    let mut files = std::collections::BTreeMap::new();
    for folder in std::fs::read_dir(data.join("media")).into_iter().flatten().flatten() {
        for file in std::fs::read_dir(folder.path()).unwrap().flatten() {
            let name =
                format!("{}/{}", folder.file_name().to_string_lossy(), file.file_name().to_string_lossy());
            files.insert(name, file.metadata().unwrap().len());
        }
    }
    files
}

/// Moves every media file's last write two hours back: the restart comes after the grace
/// period, as it does after a crash in the night (the sweep's clock is the system's).
fn age_media(data: &std::path::Path, files: &std::collections::BTreeMap<String, u64>) {
    let then = std::time::SystemTime::now() - Duration::from_secs(2 * 3600);
    for name in files.keys() {
        let file = std::fs::File::options().write(true).open(data.join("media").join(name)).unwrap();
        file.set_times(std::fs::FileTimes::new().set_modified(then)).unwrap();
    }
}

/// The `fields` of the first log line whose message starts with `message`, waiting for it
/// (up to 180 s: a restart on a machine busy with other work can be slow to get there).
async fn logged(server: &mut Replica, log: &std::path::Path, message: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let found = text
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|line| line["fields"]["message"].as_str().is_some_and(|m| m.starts_with(message)));
        if let Some(line) = found {
            return line["fields"].clone();
        }
        assert!(
            Instant::now() < deadline,
            "no `{message}` in the log of {} ({:?}):\n{text}",
            server.base,
            server.child.try_wait()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn a_kill_mid_publish_leaves_photos_that_the_restart_sweeps(db: TestDb) {
    let logs = tempfile::tempdir().unwrap();
    let server = Replica::start_logging_to(
        db.url(),
        tempfile::tempdir().unwrap(),
        &[],
        &logs.path().join("first.log"),
    )
    .await;
    // A connection each: a kept-alive one the server closes while the next request is sent
    // would fail that request before the kill.
    let browser = Browser {
        http: reqwest::Client::builder().cookie_store(true).pool_max_idle_per_host(0).build().unwrap(),
    };
    let (status, me) = browser
        .post(
            &server,
            "/_api/auth/register_with_password",
            json!({"email": "crash@example.com", "password": PASSWORD, "displayName": "Crash"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{me}");
    let user_id = UserId(me["user"]["id"].as_i64().unwrap());
    let (kept, cut) = {
        let mut conn = db.conn();
        diesel::update(users::table.find(user_id))
            .set(users::email_verified_at.eq(chrono::Utc::now().naive_utc()))
            .execute(&mut conn)
            .unwrap();
        let now = chrono::Utc::now();
        let fixture = |conn: &mut setupiq_db::DbConnection| {
            setupiq_test_utils::fixtures::analysis(conn, user_id, true, now)
        };
        (fixture(&mut conn), fixture(&mut conn))
    };

    // Named media: a profile picture and a post's two photos with their thumbnails.
    let (status, avatar) = browser
        .post(&server, "/_api/auth/upload-profile-picture", json!({"imageData": busy_photo(300, 300, 1)}))
        .await;
    assert_eq!(status, StatusCode::OK, "{avatar}");
    let post = json!({"analysisId": kept.0, "images": [busy_photo(640, 480, 2), busy_photo(640, 480, 3)]});
    let (status, published) = browser.post(&server, "/_api/community/setup", post).await;
    assert_eq!(status, StatusCode::OK, "{published}");
    let named = media_files(server.data.path());
    assert_eq!(named.len(), 5, "{named:?}");

    // A five-photo publish, killed once its first photo is in the store.
    let photos: Vec<String> = (0..5).map(|i| busy_photo(1920, 1080, 10 + i)).collect();
    let publish = browser
        .http
        .post(format!("{}/_api/community/setup", server.base))
        .json(&json!({"analysisId": cut.0, "images": photos}))
        .send();
    tokio::pin!(publish);
    let first_photo = async {
        let deadline = Instant::now() + Duration::from_secs(120);
        while media_files(server.data.path()).len() == named.len() {
            assert!(Instant::now() < deadline, "the publish stored no photo");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    };
    tokio::select! {
        answered = &mut publish => panic!(
            "answered before it stored a photo: {:?}\n{}",
            answered.map(|r| r.status()),
            std::fs::read_to_string(logs.path().join("first.log")).unwrap_or_default()
        ),
        () = first_photo => {}
    }
    let data = server.kill();
    let answered = publish.await;
    assert!(answered.is_err(), "the kill came mid-publish: {answered:?}");
    let left = media_files(data.path());
    let orphans: std::collections::BTreeMap<&String, &u64> =
        left.iter().filter(|(name, _)| !named.contains_key(*name)).collect();
    assert!(!orphans.is_empty(), "the publish left photos behind");
    assert!(orphans.keys().all(|name| name.starts_with("community")), "{orphans:?}");
    let published: i64 = community_setups::table.count().get_result(&mut db.conn()).unwrap();
    assert_eq!(published, 1, "no row names the killed publish's photos");

    // Restarted after the grace period: the orphans go, the named media stay; an upload
    // of a moment ago (a publish in flight on another replica) stays too.
    age_media(data.path(), &left);
    let in_flight = format!("community/{}.jpg", uuid_like(7));
    std::fs::write(data.path().join("media").join(&in_flight), [1; 10]).unwrap();
    let log = logs.path().join("restart.log");
    let mut server = Replica::start_logging_to(db.url(), data, &[], &log).await;
    let swept = logged(&mut server, &log, "media swept").await;
    eprintln!("the kill left {} files; the restart's sweep: {swept}", orphans.len());
    assert_eq!(swept["removed"], orphans.len(), "{swept}");
    assert_eq!(swept["bytes"], orphans.values().copied().sum::<u64>(), "{swept}");
    assert_eq!(swept["failed"], 0, "{swept}");
    let mut expected = named.clone();
    expected.insert(in_flight, 10);
    assert_eq!(media_files(server.data.path()), expected);
    let avatar_url = avatar["user"]["profilePicture"].as_str().unwrap();
    assert_eq!(browser.get(&server, avatar_url).await.0, StatusCode::OK, "the named picture is served");
}

/// A name shaped like a media key's (32 hex digits).
fn uuid_like(digit: u8) -> String {
    std::iter::repeat_n(char::from(b'0' + digit), 32).collect()
}
