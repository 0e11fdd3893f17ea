//! `make bench`: the cost of the two things every request or login pays for.
//!
//! - argon2id hashing at the OWASP policy (m = 19456 KiB, t = 2, p = 1), single and under
//!   a burst of concurrent logins through the bounded hasher;
//! - session lookup (`sessions::authenticate`: token digest, session row, user row) on
//!   SQLite and, when reachable, PostgreSQL, with 1000 users signed in.
//!
//! Prints figures; asserts nothing about time.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use chrono::Utc;
use setupiq_auth::Passwords;
use setupiq_auth::service::{passwords, sessions};
use setupiq_test_utils::{TestDb, fixtures};

fn summarize(label: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let n = samples.len();
    let total: Duration = samples.iter().sum();
    let pick = |q: f64| samples[((n as f64 * q) as usize).min(n - 1)];
    println!(
        "{label:<44} n={n:<6} mean={:>10.3?} p50={:>10.3?} p95={:>10.3?} p99={:>10.3?}",
        total / n as u32,
        pick(0.50),
        pick(0.95),
        pick(0.99)
    );
}

fn bench_hashing() {
    let samples = (0..20)
        .map(|_| {
            let started = Instant::now();
            passwords::hash_blocking("correct horse battery staple").unwrap();
            started.elapsed()
        })
        .collect();
    summarize("argon2id hash (m=19456 KiB, t=2, p=1)", samples);

    let stored = passwords::hash_blocking("correct horse battery staple").unwrap();
    let verifier = Passwords::new(1);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let samples = (0..20)
        .map(|_| {
            let started = Instant::now();
            runtime
                .block_on(verifier.verify("correct horse battery staple".into(), Some(stored.clone())))
                .unwrap();
            started.elapsed()
        })
        .collect();
    summarize("argon2id verify via Passwords (off-thread)", samples);

    let cores = std::thread::available_parallelism().map(usize::from).unwrap_or(2);
    let bounded = Passwords::new(cores);
    let burst = 32;
    let started = Instant::now();
    runtime.block_on(async {
        let tasks: Vec<_> = (0..burst)
            .map(|_| {
                let hasher = bounded.clone();
                tokio::spawn(async move { hasher.hash("burst password".into()).await.unwrap() })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
    });
    let elapsed = started.elapsed();
    println!(
        "{:<44} {burst} hashes on {cores} permits in {elapsed:.2?} = {:.1} logins/s (peak argon2 memory {} MiB)",
        "argon2id burst through the bounded hasher",
        burst as f64 / elapsed.as_secs_f64(),
        cores * 19
    );
}

fn bench_session_lookup(name: &str, db: &TestDb) {
    let mut conn = db.conn();
    let now = Utc::now();
    let tokens: Vec<String> = (0..1000)
        .map(|i| {
            let account = fixtures::account(&mut conn, &format!("user{i}@example.com"));
            sessions::start(&mut conn, account.id, None, now).unwrap().token
        })
        .collect();
    let samples = tokens
        .iter()
        .cycle()
        .take(10_000)
        .map(|token| {
            let started = Instant::now();
            let account = sessions::authenticate(&mut conn, token, now).unwrap();
            let elapsed = started.elapsed();
            assert!(account.is_some());
            elapsed
        })
        .collect();
    summarize(&format!("session lookup, {name}, 1000 sessions"), samples);
}

fn main() {
    println!(
        "SetupIQ auth benchmarks ({} cores)",
        std::thread::available_parallelism().map(usize::from).unwrap_or(0)
    );
    bench_hashing();
    bench_session_lookup("SQLite", &TestDb::sqlite());
    match TestDb::postgres() {
        Some(db) => bench_session_lookup("PostgreSQL", &db),
        None => println!("session lookup, PostgreSQL: SKIPPED (no server at 127.0.0.1:5432)"),
    }
}
