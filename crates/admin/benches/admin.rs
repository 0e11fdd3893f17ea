//! `make bench`: what the admin panel costs on this machine.
//!
//! 1. A verification run of 200 links against stand-in merchants on loopback (the
//!    test-only allowance) with mixed answers: healthy, gone (404), slow (400 ms),
//!    redirecting three times, and never answering (a timeout): the run's wall time and
//!    this process's peak resident memory before and after.
//! 2. The four analytics queries on PostgreSQL with 1,000,000 clicks over 90 days (20,000
//!    sessions, 5,000 users, 2 % bots), seeded as the click path would have written them:
//!    p50 and p95 of each, for all time and the last 30 days. Clicks and revenue come from
//!    the per-day roll-up, unique users and sessions from each visitor's last click.
//!
//! Prints figures; asserts nothing about time. Needs PostgreSQL (`SETUPIQ_TEST_POSTGRES_URL`
//! or the default of the tests).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chrono::Utc;
use diesel::connection::SimpleConnection;
use setupiq_admin::service::analytics::{self, CategorySort, Period};
use setupiq_admin::service::checker::{self, CheckerConfig, LinkToCheck, Verdict};
use setupiq_test_utils::TestDb;
use setupiq_test_utils::bench::summarize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const CONVERSION_BP: u32 = 500;

/// `VmHWM` (peak) and `VmRSS` (now) of this process, in MiB.
fn memory_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
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

/// One stand-in merchant: answers by path, counting requests.
async fn merchant(requests: Arc<AtomicUsize>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(answer(stream, requests.clone()));
        }
    });
    port
}

async fn answer(mut stream: TcpStream, requests: Arc<AtomicUsize>) {
    let mut head = Vec::new();
    let mut buffer = [0_u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buffer[..n]),
        }
    }
    requests.fetch_add(1, Ordering::Relaxed);
    let head = String::from_utf8_lossy(&head);
    let mut line = head.split_whitespace();
    let method = line.next().unwrap_or_default().to_owned();
    let path = line.next().unwrap_or_default().to_owned();
    let (status, location, body) = if path.starts_with("/ok") {
        ("200 OK", None, "<h1>Product</h1>")
    } else if path.starts_with("/gone") {
        ("404 Not Found", None, "gone")
    } else if path.starts_with("/slow") {
        // A slow merchant: the answer takes 400 ms.
        tokio::time::sleep(Duration::from_millis(400)).await;
        ("200 OK", None, "<h1>Slow product</h1>")
    } else if let Some(rest) = path.strip_prefix("/hop/") {
        let left: u32 = rest.split(['/', '?']).next().and_then(|n| n.parse().ok()).unwrap_or(0);
        let next = if left == 0 {
            "/ok/landed?tag=setupiq-20".to_owned()
        } else {
            format!("/hop/{}?tag=setupiq-20", left - 1)
        };
        ("302 Found", Some(next), "")
    } else {
        // Never answers: the checker's request timeout ends it.
        std::future::pending::<()>().await;
        unreachable!()
    };
    let mut response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    if let Some(location) = location {
        response.push_str(&format!("location: {location}\r\n"));
    }
    response.push_str("\r\n");
    if method != "HEAD" {
        response.push_str(body);
    }
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

fn verification_run() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let requests = Arc::new(AtomicUsize::new(0));
        let port = merchant(requests.clone()).await;
        let kinds = [("ok", 60), ("gone", 40), ("slow", 40), ("hop/2", 40), ("hang", 20)];
        let links: Vec<LinkToCheck<i64>> = kinds
            .iter()
            .flat_map(|(path, n)| (0..*n).map(move |i| format!("http://127.0.0.1:{port}/{path}/{i}?tag=setupiq-20")))
            .enumerate()
            .map(|(i, url)| LinkToCheck { id: i64::try_from(i).unwrap(), url })
            .collect();
        let config = CheckerConfig {
            allow_loopback: true,
            request_timeout: Duration::from_secs(2),
            ..CheckerConfig::default()
        };
        let (peak_before, _) = memory_mib();
        let started = Instant::now();
        let results = checker::check_all(links, &config).await;
        let wall = started.elapsed();
        let (peak_after, now) = memory_mib();
        let count = |f: &dyn Fn(&Verdict) -> bool| results.iter().filter(|r| f(&r.verdict)).count();
        println!("== verification run: {} links, concurrency {}, request timeout {:?}", results.len(), config.concurrency, config.request_timeout);
        println!(
            "   healthy {}  dead {}  timeouts {}  other {}   ({} requests served)",
            count(&|v| *v == Verdict::Healthy),
            count(&|v| *v == Verdict::Dead),
            count(&|v| *v == Verdict::Timeout),
            count(&|v| !matches!(v, Verdict::Healthy | Verdict::Dead | Verdict::Timeout)),
            requests.load(Ordering::Relaxed)
        );
        println!("   wall time {wall:.2?}; peak RSS {peak_before:.1} MiB before, {peak_after:.1} MiB after (now {now:.1} MiB)");
    });
}

fn analytics_at_scale() {
    let Some(db) = TestDb::postgres() else {
        println!("== analytics: SKIPPED (no PostgreSQL)");
        return;
    };
    let mut conn = db.conn();
    let started = Instant::now();
    conn.batch_execute(
        "SET statement_timeout = 0;
         INSERT INTO users (email, username, display_name, password_hash, is_pro, role, credits, created_at, updated_at)
         SELECT 'u' || g || '@bench.test', 'bench_u' || g, 'Bench ' || g, 'x', false, 'user', 0,
                now() AT TIME ZONE 'utc', now() AT TIME ZONE 'utc'
         FROM generate_series(1, 5000) g;
         SELECT setseed(0.42);
         INSERT INTO affiliate_clicks (product_id, user_id, session_id, suggestion_context, analysis_id, created_at, is_bot)
         SELECT p.ids[1 + g % 24],
                CASE WHEN g % 3 = 0 THEN NULL ELSE u.first + (g::bigint * 7919) % 5000 END,
                's-' || ((g::bigint * 104729) % 20000),
                NULL, NULL,
                (now() AT TIME ZONE 'utc') - random() * interval '90 days',
                random() < 0.02
         FROM generate_series(1, 1000000) g
         CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM products) p
         CROSS JOIN (SELECT MIN(id) AS first FROM users WHERE email LIKE '%@bench.test') u;
         INSERT INTO affiliate_click_days (day, product_id, clicks)
         SELECT created_at::date, product_id, COUNT(*) FROM affiliate_clicks WHERE NOT is_bot GROUP BY 1, 2;
         INSERT INTO affiliate_click_visitors (visitor, category, last_click_at)
         SELECT 's:' || session_id, '', MAX(created_at) FROM affiliate_clicks WHERE NOT is_bot GROUP BY session_id;
         INSERT INTO affiliate_click_visitors (visitor, category, last_click_at)
         SELECT 's:' || c.session_id, p.product_category, MAX(c.created_at)
         FROM affiliate_clicks c JOIN products p ON p.id = c.product_id WHERE NOT c.is_bot GROUP BY 1, 2;
         INSERT INTO affiliate_click_visitors (visitor, category, last_click_at)
         SELECT 'u:' || user_id, '', MAX(created_at) FROM affiliate_clicks WHERE NOT is_bot AND user_id IS NOT NULL GROUP BY user_id;
         ANALYZE;",
    )
    .unwrap();
    println!("== analytics on PostgreSQL: 1,000,000 clicks over 90 days seeded in {:.1?}", started.elapsed());
    let now = Utc::now();
    for period in [Period::All, Period::Days30] {
        let runs = 30;
        let time = |label: &str, work: &mut dyn FnMut()| {
            work(); // warm
            let samples = (0..runs)
                .map(|_| {
                    let started = Instant::now();
                    work();
                    started.elapsed()
                })
                .collect();
            summarize(&format!("   {label} ({period:?})"), samples);
        };
        time("summary", &mut || {
            let _ = analytics::summary(&mut conn, period, now, CONVERSION_BP).unwrap();
        });
        time("top products", &mut || {
            drop(analytics::top_products(&mut conn, period, 5, now, CONVERSION_BP).unwrap())
        });
        time("category performance", &mut || {
            drop(
                analytics::categories(&mut conn, period, CategorySort::ClickCount, now, CONVERSION_BP)
                    .unwrap(),
            );
        });
        time("daily clicks", &mut || drop(analytics::daily_clicks(&mut conn, period, now).unwrap()));
    }
}

fn main() {
    verification_run();
    analytics_at_scale();
}
