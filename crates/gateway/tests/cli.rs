//! The `setupiq` binary itself: subcommands, configuration errors, serving real HTTP and
//! shutting down gracefully on SIGTERM.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use diesel::prelude::*;
use setupiq_db::Db;
use setupiq_db::schema::users;
use setupiq_test_utils::fixtures;

fn setupiq(data_dir: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_setupiq"));
    command.current_dir(data_dir).env("SETUPIQ_DATA_DIR", data_dir).env("NO_COLOR", "1");
    for (name, _) in std::env::vars() {
        if name.starts_with("SETUPIQ_") && name != "SETUPIQ_DATA_DIR" {
            command.env_remove(name);
        }
    }
    command.env("SETUPIQ_MODELS_DIR", concat!(env!("CARGO_MANIFEST_DIR"), "/../../models"));
    command
}

#[test]
fn migrate_applies_the_embedded_migrations_once() {
    let dir = tempfile::tempdir().unwrap();
    let first = setupiq(dir.path()).arg("migrate").output().unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let embedded = diesel::migration::MigrationSource::<diesel::sqlite::Sqlite>::migrations(
        &setupiq_db::SQLITE_MIGRATIONS,
    )
    .unwrap()
    .len();
    assert_ne!(embedded, 0);
    assert_eq!(String::from_utf8_lossy(&first.stdout).trim(), format!("{embedded} migration(s) applied"));
    assert!(dir.path().join("setupiq.db").exists(), "the default database lives in the data directory");
    let second = setupiq(dir.path()).arg("migrate").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&second.stdout).trim(), "0 migration(s) applied");
}

#[test]
fn an_unsupported_database_url_is_a_clear_start_up_error() {
    let dir = tempfile::tempdir().unwrap();
    let out =
        setupiq(dir.path()).env("SETUPIQ_DATABASE_URL", "mysql://root@localhost/setupiq").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("SETUPIQ_DATABASE_URL") && stderr.contains("unsupported scheme `mysql`"),
        "{stderr}"
    );
}

#[test]
fn admin_grant_gives_the_admin_role() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/setupiq.db", dir.path().display());
    let db = Db::connect(&url).unwrap();
    db.migrate().unwrap();
    fixtures::account(&mut db.conn().unwrap(), "chief@example.com");

    let out = setupiq(dir.path()).args(["admin", "grant", "Chief@Example.com"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("chief@example.com (@Test_Gamer) is now an admin"));
    let role: String = users::table.select(users::role).first(&mut *db.conn().unwrap()).unwrap();
    assert_eq!(role, "admin");

    let unknown = setupiq(dir.path()).args(["admin", "grant", "nobody@example.com"]).output().unwrap();
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("User not found."));
}

#[test]
fn openapi_check_passes_on_the_committed_document() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    let out = setupiq(dir.path()).current_dir(&root).args(["openapi", "--check"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stale = dir.path().join("stale.json");
    std::fs::write(&stale, "{}").unwrap();
    let out = setupiq(dir.path()).args(["openapi", "--check", "--output"]).arg(&stale).output().unwrap();
    assert!(!out.status.success(), "a stale document fails the check");
}

/// `setupiq serve` on a free port with `RUST_LOG=rust_log`: the child, its address and the
/// rest of its log (stderr).
fn serve(
    dir: &std::path::Path,
    rust_log: &str,
) -> (std::process::Child, String, impl Iterator<Item = String>) {
    let mut child = setupiq(dir)
        .arg("serve")
        .env("SETUPIQ_BIND", "127.0.0.1:0")
        .env("RUST_LOG", rust_log)
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines().map_while(Result::ok);
    let address = lines
        .by_ref()
        .find_map(|line| {
            line.split("listening on http://")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .map(str::to_owned)
        })
        .expect("the server reports its address");
    (child, address, lines)
}

fn get(address: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

fn stop(child: &mut std::process::Child) {
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "a SIGTERM is a clean stop: {status}");
}

#[test]
fn serve_answers_http_and_stops_gracefully_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, address, lines) = serve(dir.path(), "info");
    let response = get(&address, "/_api/health");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains(r#"{"status":"ok","database":"sqlite"}"#), "{response}");
    stop(&mut child);
    assert!(lines.into_iter().any(|line| line.contains("SetupIQ stopped")));
}

#[test]
fn requests_are_logged_one_line_each_only_at_debug() {
    for (level, expect_lines) in [("info", false), ("debug", true)] {
        let dir = tempfile::tempdir().unwrap();
        let (mut child, address, lines) = serve(dir.path(), level);
        for path in ["/_api/health", "/_api/no-such-thing", "/_api/health"] {
            get(&address, path);
        }
        stop(&mut child);
        let logged = lines.into_iter().filter(|line| line.contains("path=/_api/health")).count();
        if expect_lines {
            assert_eq!(logged, 2, "RUST_LOG=debug: one line per request");
        } else {
            assert_eq!(logged, 0, "RUST_LOG=info (the default): no line per request");
        }
    }
}

/// `setupiq serve` with `models` as its models folder, which must fail: what it printed.
fn serve_fails_with_models(models: &std::path::Path) -> String {
    let data = tempfile::tempdir().unwrap();
    let output = setupiq(data.path())
        .arg("serve")
        .env("SETUPIQ_BIND", "127.0.0.1:0")
        .env("SETUPIQ_MODELS_DIR", models)
        .output()
        .unwrap();
    assert!(!output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn serve_refuses_to_start_without_its_models() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = serve_fails_with_models(dir.path());
    assert!(stderr.contains("run `make models`"), "{stderr}");
}

#[test]
fn serve_refuses_to_start_without_the_onnx_runtime_or_with_another_library() {
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    for (library, expected) in
        [(None, "ONNX Runtime library"), (Some(b"not the runtime".as_slice()), "not the expected file")]
    {
        let dir = tempfile::tempdir().unwrap();
        for model in ["nanodet-coco.onnx", "efficientnet-lite0-imagenet.onnx", "open-nsfw.onnx"] {
            std::os::unix::fs::symlink(models.join(model), dir.path().join(model)).unwrap();
        }
        if let Some(bytes) = library {
            std::fs::write(dir.path().join("libonnxruntime.so"), bytes).unwrap();
        }
        let stderr = serve_fails_with_models(dir.path());
        assert!(stderr.contains(expected) && stderr.contains("make models"), "{stderr}");
    }
}

#[test]
fn analyze_prints_the_score_and_what_was_understood() {
    let dir = tempfile::tempdir().unwrap();
    let output = setupiq(dir.path())
        .args([
            "analyze",
            "--text",
            "Two 27 inch 165Hz monitors on arms, RGB strips behind the desk, cables everywhere",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("SetupIQ Score: "), "{stdout}");
    assert!(stdout.contains("Monitor Setup") && stdout.contains("27-inch"), "{stdout}");
    // No chair described: the placeholder, with the reason.
    assert!(stdout.contains("Chair & Comfort     -/10  The description doesn't mention a chair"), "{stdout}");

    let json = setupiq(dir.path())
        .args(["analyze", "--json", "--text", "a clean desk with one 24 inch monitor"])
        .output()
        .unwrap();
    let result: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(result["categoryRatings"].as_array().unwrap().len(), 6);
    assert_eq!(result["categoryRatings"][4]["category"], "Chair & Comfort");
    assert_eq!(result["categoryRatings"][4]["score"], serde_json::Value::Null);
    assert_eq!(result["source"], "description");

    let refused = setupiq(dir.path())
        .args(["analyze", "--text", "I like turtles and long walks on the beach"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("doesn't mention any desk or gaming gear"));
}

#[test]
fn analyze_json_of_a_photo_prints_the_result_alone_on_stdout() {
    let Some(photos) = setupiq_test_utils::eval_photos("analyze a photo from the command line") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let output = setupiq(dir.path())
        .env_remove("RUST_LOG")
        .args(["analyze", "--json"])
        .arg(photos.join("setup11_dual_monitor_chair.jpg"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // A script reads stdout as JSON: the models' loading and the logs go to stderr.
    let result: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("stdout is not the JSON result alone ({e}): {}", String::from_utf8_lossy(&output.stdout))
    });
    assert_eq!(result["source"], "photo");
    assert_eq!(result["categoryRatings"].as_array().unwrap().len(), 6);
    let overall = result["overallScore"].as_f64().unwrap();
    assert!((1.0..=10.0).contains(&overall), "{overall}");
}
