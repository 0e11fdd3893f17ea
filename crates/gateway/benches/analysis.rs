//! `make bench`: what an analysis costs on this machine, end to end.
//!
//! - `POST /_api/analyze-setup` end to end over real HTTP against the release `setupiq`
//!   binary in its own process (JSON with the data URL, pipeline, models, rubric,
//!   suggestions, saving with the credit and the media store) for a 1920x1080 photo, a 12 MP
//!   photo and a description: p50 and p95;
//! - the server process's CPU time per analysis (user + system, all threads: what a photo
//!   costs whatever else the machine does, where wall times move with a noisy neighbour);
//! - the server process's resident memory: idle after start-up, and its peak after the runs.
//!
//! With `SETUPIQ_BENCH_BASELINE=/path/to/an/older/setupiq` the same runs go to that binary and
//! to this build in turn, twice (baseline, this build, baseline, this build): before and after
//! a change, in one sitting, on the same machine. `SETUPIQ_BENCH_PHOTO` names another photo
//! of that folder to analyse (by default `setup05_rgb_dark_dual.jpg`, which has no chair
//! rated; `setup11_dual_monitor_chair.jpg` pays for the closer look at its chair).
//!
//! The analyzer's own stages and the pipeline against libvips are
//! `crates/analyzer/benches/analyzer.rs`. Needs the shared photos (`SETUPIQ_EVAL_PHOTOS`) and the models (`make models`). Prints
//! figures; asserts nothing about time.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;
use setupiq_core::UserId;
use setupiq_test_utils::bench::{bench_photos, data_url, summarize, time};

const PHOTO: &str = "setup05_rgb_dark_dual.jpg";

/// `VmHWM` (peak) and `VmRSS` (now) of a process, in MiB.
fn rss_mib(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| -> f64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (field("VmHWM:"), field("VmRSS:"))
}

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

const METRICS_TOKEN: &str = "bench-metrics-token";

/// Sums and counts of the server's histograms that tell where an analysis spends its time:
/// the analyzer's stages and the analyze route as the server measured it.
fn server_timings(client: &reqwest::blocking::Client, base: &str) -> Vec<(String, f64, f64)> {
    let text = client
        .get(format!("{base}/metrics"))
        .bearer_auth(METRICS_TOKEN)
        .send()
        .and_then(|r| r.text())
        .unwrap_or_default();
    let value = |line: &str| line.rsplit(' ').next().and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    let mut timings = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("analysis_stage_seconds_sum")) {
        let stage = line.split('"').nth(1).unwrap_or("?").to_owned();
        let count = text
            .lines()
            .find(|l| l.starts_with("analysis_stage_seconds_count") && l.contains(&format!("\"{stage}\"")))
            .map_or(0.0, value);
        timings.push((stage, value(line), count));
    }
    let route = |suffix: &str| {
        text.lines()
            .find(|l| {
                l.starts_with(&format!("http_request_duration_seconds_{suffix}"))
                    && l.contains("/_api/analyze-setup")
            })
            .map_or(0.0, value)
    };
    timings.push(("server, whole request".to_owned(), route("sum"), route("count")));
    timings
}

/// Mean time per call of each stage between two [`server_timings`] readings.
fn print_breakdown(before: &[(String, f64, f64)], after: &[(String, f64, f64)]) {
    for (stage, sum, count) in after {
        let (sum0, count0) =
            before.iter().find(|(s, ..)| s == stage).map_or((0.0, 0.0), |(_, sum, count)| (*sum, *count));
        if count - count0 > 0.0 {
            let mean = Duration::from_secs_f64((sum - sum0) / (count - count0));
            println!("{:<52} mean {mean:>9.1?}", format!("    {stage}"));
        }
    }
}

/// Seconds of CPU (user + system, every thread) a process has used so far.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name, which ends with the last ')': utime and stime are
    // the 14th and 15th of the line, in clock ticks.
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / clock_ticks_per_second()
}

fn clock_ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(100.0)
}

/// A `setupiq` binary, serving on a free port with its own SQLite database.
struct Server {
    child: std::process::Child,
    base: String,
    db_url: String,
}

impl Server {
    fn start(binary: &Path, data_dir: &Path) -> (Server, Duration) {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let db_url = format!("sqlite://{}/bench.db", data_dir.display());
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let child = Command::new(binary)
            .arg("serve")
            .env("SETUPIQ_BIND", format!("127.0.0.1:{port}"))
            .env("SETUPIQ_PUBLIC_URL", &base)
            .env("SETUPIQ_DATA_DIR", data_dir)
            .env("SETUPIQ_DATABASE_URL", &db_url)
            .env("SETUPIQ_MODELS_DIR", models_dir())
            .env("RUST_LOG", "warn")
            .env("SETUPIQ_METRICS_TOKEN", METRICS_TOKEN)
            .spawn()
            .unwrap();
        let server = Server { child, base, db_url };
        let health = format!("{}/_api/health", server.base);
        while reqwest::blocking::get(&health).map(|r| !r.status().is_success()).unwrap_or(true) {
            assert!(started.elapsed() < Duration::from_secs(60), "the server did not come up");
            std::thread::sleep(Duration::from_millis(20));
        }
        (server, started.elapsed())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// End to end against the real server process: start-up, latency, CPU and memory.
fn bench_http(binary: &Path, full_hd: &[u8], twelve_mp: &[u8]) {
    let data_dir = tempfile::tempdir().unwrap();
    let (server, startup) = Server::start(binary, data_dir.path());
    println!("{:<52} {startup:>9.1?}", "server start-up to first answer (incl. model load)");
    let (_, idle) = rss_mib(server.child.id());
    println!("{:<52} {idle:.0} MiB", "  server RSS, idle after start-up");

    let client = reqwest::blocking::Client::builder()
        .cookie_store(true)
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let post = |path: &str, body: &serde_json::Value| {
        client
            .post(format!("{}{path}", server.base))
            .header("Origin", &server.base)
            .json(body)
            .send()
            .unwrap()
    };
    let res = post(
        "/_api/auth/register_with_password",
        &json!({"email": "bench@example.com", "password": "hunter2hunter2", "displayName": "Bench"}),
    );
    let id = res.json::<serde_json::Value>().unwrap()["user"]["id"].as_i64().unwrap();
    // Enough credits for every run, through the ledger like any other credit.
    let db = setupiq_db::Db::connect(&server.db_url).unwrap();
    setupiq_auth::service::ledger::apply(
        &mut db.conn().unwrap(),
        UserId(id),
        1000,
        &setupiq_auth::service::ledger::LedgerReason::Spend("bench".into()),
        None,
        chrono::Utc::now(),
    )
    .unwrap();

    for (label, bytes, runs) in [
        ("HTTP analyze-setup, 1920x1080 photo", full_hd, 40),
        ("HTTP analyze-setup, 12 MP photo (4000x3000)", twelve_mp, 15),
    ] {
        let body = json!({"type": "image", "value": data_url(bytes)});
        let warm = post("/_api/analyze-setup", &body);
        assert!(warm.status().is_success(), "{}", warm.text().unwrap());
        let before = server_timings(&client, &server.base);
        let cpu_before = cpu_seconds(server.child.id());
        let samples = (0..runs)
            .map(|_| {
                let started = Instant::now();
                let res = post("/_api/analyze-setup", &body);
                assert!(res.status().is_success());
                res.bytes().unwrap();
                started.elapsed()
            })
            .collect();
        summarize(&format!("{label} ({} KB)", bytes.len() / 1024), samples);
        let cpu = (cpu_seconds(server.child.id()) - cpu_before) / f64::from(runs);
        println!("{:<52} {:.0} ms", "  server CPU per analysis (all threads)", cpu * 1000.0);
        println!("  where the time goes, as the server measured it:");
        print_breakdown(&before, &server_timings(&client, &server.base));
    }
    let text = json!({"type": "text", "value": "Dual 27 inch 165Hz monitors on arms, RGB strips, cables in a tray, Secretlab chair"});
    summarize(
        "HTTP analyze-setup, a description",
        (0..40).map(|_| time(|| post("/_api/analyze-setup", &text).bytes().unwrap()).1).collect(),
    );
    let (peak, now) = rss_mib(server.child.id());
    println!("{:<52} {peak:.0} MiB (now {now:.0} MiB)", "  server peak RSS after all runs");
}

fn main() {
    // Another shared photo with SETUPIQ_BENCH_PHOTO: a photo with a chair in view pays for
    // the closer look at the chair, which the default photo (no chair rated) does not.
    let photo = std::env::var("SETUPIQ_BENCH_PHOTO").unwrap_or_else(|_| PHOTO.to_owned());
    let Some(photos) = bench_photos(&photo, "analysis") else { return };
    let this_build = PathBuf::from(env!("CARGO_BIN_EXE_setupiq"));
    let Some(baseline) = std::env::var_os("SETUPIQ_BENCH_BASELINE").map(PathBuf::from) else {
        println!("== analysis over HTTP ({photo}) ==");
        bench_http(&this_build, &photos.full_hd, &photos.twelve_mp);
        return;
    };
    for round in 1..=2 {
        for (name, binary) in [("baseline", &baseline), ("this build", &this_build)] {
            println!("== analysis over HTTP ({photo}), {name} ({}), round {round} ==", binary.display());
            bench_http(binary, &photos.full_hd, &photos.twelve_mp);
        }
    }
}
