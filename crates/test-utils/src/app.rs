//! [`TestApp`]: the real `App` built by the gateway, served over real HTTP on a loopback
//! port, with a manual clock, a scratch data directory (outbox, media) and its own
//! database. [`TestClient`] is one browser: it keeps its cookies.

use std::collections::HashMap;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use serde_json::Value;
use setupiq_admin::service::checker::CheckerConfig;
use setupiq_core::Config;
use setupiq_core::clock::ManualClock;
use setupiq_gateway::{AppState, build_app};

use crate::TestDb;

pub struct TestApp {
    pub db: TestDb,
    pub clock: Arc<ManualClock>,
    pub config: Config,
    pub base_url: String,
    state: AppState,
    data_dir: tempfile::TempDir,
    server: actix_web::dev::ServerHandle,
}

/// The start of every test's clock: a fixed, known instant.
pub fn test_epoch() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 14, 9, 26, 53).single().unwrap_or_default()
}

impl TestApp {
    /// Serves the app on `db` with the default configuration.
    pub async fn start(db: TestDb) -> Self {
        Self::start_with(db, &[]).await
    }

    /// Serves the app with extra configuration variables (`SETUPIQ_*`).
    pub async fn start_with(db: TestDb, vars: &[(&str, &str)]) -> Self {
        Self::launch(db, vars, |_| {}).await
    }

    /// Serves the app with a built web app of one `index.html` (the shell the server fills in
    /// with a page's title and preview tags). The folder lives as long as the returned handle.
    pub async fn start_with_app_shell(db: TestDb) -> (tempfile::TempDir, Self) {
        let dist = tempfile::tempdir().unwrap();
        std::fs::write(
            dist.path().join("index.html"),
            "<!doctype html><html><head><title>Gaming Setup Analyzer</title></head><body><div id=root></div></body></html>",
        )
        .unwrap();
        let dir = dist.path().display().to_string();
        let app = Self::start_with(db, &[("SETUPIQ_FRONTEND_DIR", &dir)]).await;
        (dist, app)
    }

    /// Serves the app with link verification allowed to visit loopback, where tests run
    /// their stand-in merchants (the test-only allowance; production never has it), with
    /// short timeouts.
    pub async fn start_with_loopback_links(db: TestDb) -> Self {
        Self::launch(db, &[], |state| {
            state.link_checker = actix_web::web::Data::new(CheckerConfig {
                allow_loopback: true,
                request_timeout: std::time::Duration::from_secs(2),
                run_deadline: std::time::Duration::from_secs(20),
                ..CheckerConfig::default()
            });
        })
        .await
    }

    async fn launch(db: TestDb, vars: &[(&str, &str)], customise: impl FnOnce(&mut AppState)) -> Self {
        let data_dir = tempfile::tempdir().unwrap();
        let mut env: HashMap<String, String> =
            vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        env.insert("SETUPIQ_DATA_DIR".into(), data_dir.path().display().to_string());
        env.insert("SETUPIQ_DATABASE_URL".into(), db.url().to_owned());
        env.entry("SETUPIQ_MODELS_DIR".into())
            .or_insert_with(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../models").to_owned());
        env.entry("SETUPIQ_FRONTEND_DIR".into())
            .or_insert_with(|| data_dir.path().join("dist").display().to_string());
        let config = Config::from_lookup(|name| env.get(name).cloned()).unwrap();
        let clock = Arc::new(ManualClock::new(test_epoch()));
        let mut state = AppState::with_db(config.clone(), db.db().clone(), clock.clone()).unwrap();
        customise(&mut state);

        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let server_state = state.clone();
        let server = actix_web::HttpServer::new(move || build_app(server_state.clone()))
            .workers(2)
            .disable_signals()
            .listen(listener)
            .unwrap()
            .run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Self { db, clock, config, base_url, state, data_dir, server: handle }
    }

    /// A new browser with an empty cookie jar.
    pub fn client(&self) -> TestClient {
        TestClient {
            http: reqwest::Client::builder().cookie_store(true).build().unwrap(),
            base_url: self.base_url.clone(),
        }
    }

    /// A visitor's browser that sends `user_agent` and does not follow redirects (to see
    /// where a link sends it).
    pub fn browser(&self, user_agent: &str) -> TestClient {
        TestClient {
            http: reqwest::Client::builder()
                .cookie_store(true)
                .user_agent(user_agent)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            base_url: self.base_url.clone(),
        }
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    pub fn data_dir(&self) -> PathBuf {
        self.data_dir.path().to_owned()
    }

    /// The e-mails written to the outbox, oldest first.
    pub fn outbox(&self) -> Vec<SentMail> {
        let Ok(entries) = std::fs::read_dir(self.config.outbox_dir()) else { return Vec::new() };
        let mut files: Vec<_> = entries
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
            .map(|e| (e.metadata().and_then(|m| m.modified()).ok(), e.path()))
            .collect();
        files.sort();
        files.into_iter().map(|(_, path)| SentMail::parse(&std::fs::read(path).unwrap())).collect()
    }

    /// Files currently in the media store.
    pub fn media_files(&self) -> Vec<PathBuf> {
        fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() { walk(&path, out) } else { out.push(path) }
            }
        }
        let mut out = Vec::new();
        walk(&self.config.media_dir(), &mut out);
        out
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        // Stop accepting; the system ends with the test anyway.
        drop(self.server.stop(false));
    }
}

/// An e-mail as its recipient's mail program shows it (transfer encodings decoded).
#[derive(Debug, Clone)]
pub struct SentMail {
    pub to: String,
    /// Where the mail program's "Reply" goes, when the mail says.
    pub reply_to: Option<String>,
    pub subject: String,
    pub text: String,
}

impl SentMail {
    pub fn parse(raw: &[u8]) -> Self {
        let message = mail_parser::MessageParser::default().parse(raw).unwrap();
        let to =
            message.to().and_then(|a| a.first()).and_then(|a| a.address()).unwrap_or_default().to_owned();
        let reply_to =
            message.reply_to().and_then(|a| a.first()).and_then(|a| a.address()).map(str::to_owned);
        Self {
            to,
            reply_to,
            subject: message.subject().unwrap_or_default().to_owned(),
            text: message.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
        }
    }

    /// The first line holding `needle` (e.g. a link), trimmed.
    pub fn line_with(&self, needle: &str) -> Option<String> {
        self.text.lines().find(|l| l.contains(needle)).map(|l| l.trim().to_owned())
    }
}

/// One browser session against a [`TestApp`].
pub struct TestClient {
    pub http: reqwest::Client,
    base_url: String,
}

#[derive(Debug)]
pub struct TestResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
}

impl TestResponse {
    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }

    /// A validation error's `issues` as (path, message) pairs (none for any other answer).
    pub fn issues(&self) -> Vec<(String, String)> {
        self.json()["issues"]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|i| {
                        (i["path"].as_str().unwrap().to_owned(), i["message"].as_str().unwrap().to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The `error` message of an error body.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_default().to_owned()
    }

    /// For a session check: whether it answered a user (it answers 200 either way).
    pub fn has_user(&self) -> bool {
        assert_eq!(self.status, StatusCode::OK, "the session check always answers: {}", self.text);
        !self.json()["user"].is_null()
    }
}

impl TestClient {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> TestResponse {
        let response = request.send().await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap();
        TestResponse { status, headers, text }
    }

    pub async fn get(&self, path: &str) -> TestResponse {
        self.send(self.http.get(self.url(path))).await
    }

    /// Whether this client's cookie is a live session (`GET /_api/auth/session` answers a user).
    pub async fn signed_in(&self) -> bool {
        self.get("/_api/auth/session").await.has_user()
    }

    /// Stripe delivering a webhook: the raw `body`, signed by `signature` (`Stripe-Signature`,
    /// left out when `None`).
    pub async fn stripe_webhook(&self, body: String, signature: Option<String>) -> TestResponse {
        let mut request = self
            .http
            .post(self.url("/_api/stripe/webhook"))
            .header("content-type", "application/json")
            .body(body);
        if let Some(signature) = signature {
            request = request.header("stripe-signature", signature);
        }
        self.send(request).await
    }

    /// A JSON POST, as the app's own frontend sends it.
    pub async fn post(&self, path: &str, body: Value) -> TestResponse {
        self.send(self.http.request(Method::POST, self.url(path)).json(&body)).await
    }

    pub async fn register(&self, email: &str, password: &str, display_name: &str) -> TestResponse {
        self.post(
            "/_api/auth/register_with_password",
            serde_json::json!({ "email": email, "password": password, "displayName": display_name }),
        )
        .await
    }

    pub async fn login(&self, email: &str, password: &str) -> TestResponse {
        self.post(
            "/_api/auth/login_with_password",
            serde_json::json!({ "email": email, "password": password }),
        )
        .await
    }
}
