#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The checker against local stand-in merchants: plain TcpListeners on 127.0.0.1 port 0 that
//! answer hand-written HTTP/1.1, count every request, and can hold a request forever. Tests that
//! need them set `allow_loopback: true` explicitly; the SSRF tests run without it and assert
//! the stand-in was never contacted.

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use setupiq_admin::service::checker::{
    CheckResult, CheckerConfig, Hop, LinkToCheck, Verdict, check_all, check_one, is_forbidden,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

#[derive(Debug, Clone)]
struct Request {
    method: String,
    /// Path and query, as sent on the request line.
    path: String,
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
    /// Never answer; keep the connection open.
    hang: bool,
}

impl Reply {
    fn html(status: u16, body: &str) -> Self {
        Self { status, headers: Vec::new(), body: body.to_owned(), hang: false }
    }
    fn redirect(status: u16, location: &str) -> Self {
        Self::html(status, "").header("location", location)
    }
    fn hang() -> Self {
        Self { hang: true, ..Self::html(200, "") }
    }
    fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
}

type Handler = Arc<dyn Fn(Request) -> Pin<Box<dyn Future<Output = Reply> + Send>> + Send + Sync>;

struct StandIn {
    port: u16,
    requests: Arc<AtomicUsize>,
    log: Arc<Mutex<Vec<String>>>,
}

impl StandIn {
    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

async fn stand_in(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> StandIn {
    stand_in_async(move |request| {
        let reply = handler(&request);
        async move { reply }
    })
    .await
}

async fn stand_in_async<F, Fut>(handler: F) -> StandIn
where
    F: Fn(Request) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Reply> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let requests = Arc::new(AtomicUsize::new(0));
    let log = Arc::new(Mutex::new(Vec::new()));
    let handler: Handler = Arc::new(move |request| Box::pin(handler(request)));
    let (counter, journal) = (requests.clone(), log.clone());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve(stream, handler.clone(), counter.clone(), journal.clone()));
        }
    });
    StandIn { port, requests, log }
}

async fn serve(
    mut stream: TcpStream,
    handler: Handler,
    requests: Arc<AtomicUsize>,
    log: Arc<Mutex<Vec<String>>>,
) {
    let mut head = Vec::new();
    let mut buffer = [0_u8; 4096];
    while !head.windows(4).any(|window| window == b"\r\n\r\n") {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => head.extend_from_slice(&buffer[..read]),
        }
    }
    let head = String::from_utf8_lossy(&head);
    let mut request_line = head.split_whitespace();
    let method = request_line.next().unwrap_or_default().to_owned();
    let path = request_line.next().unwrap_or_default().to_owned();
    requests.fetch_add(1, Ordering::SeqCst);
    log.lock().unwrap().push(format!("{method} {path}"));
    let reply = handler(Request { method: method.clone(), path }).await;
    if reply.hang {
        // Holds the open connection until the test's runtime shuts down.
        std::future::pending::<()>().await;
    }
    let mut response = format!(
        "HTTP/1.1 {} Stand-in\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        response.push_str(&format!("{name}: {value}\r\n"));
    }
    response.push_str("\r\n");
    if method != "HEAD" {
        response.push_str(&reply.body);
    }
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

fn local_config() -> CheckerConfig {
    CheckerConfig {
        allow_loopback: true,
        request_timeout: Duration::from_secs(10),
        run_deadline: Duration::from_secs(30),
        ..CheckerConfig::default()
    }
}

fn link(url: &str) -> LinkToCheck<i64> {
    LinkToCheck { id: 1, url: url.to_owned() }
}

async fn check(url: &str) -> CheckResult<i64> {
    check_one(&link(url), &local_config()).await
}

fn statuses(result: &CheckResult<i64>) -> Vec<Option<u16>> {
    result.chain.iter().map(|hop| hop.status).collect()
}

const PRODUCT_PAGE: &str = "<html><title>Desk lamp</title><body>Add to cart</body></html>";

// ---- verdicts -------------------------------------------------------------------------------

#[tokio::test]
async fn a_200_product_page_is_healthy() {
    let merchant = stand_in(|_| Reply::html(200, PRODUCT_PAGE)).await;
    let result = check(&merchant.url("/p/1")).await;
    assert_eq!(result.verdict, Verdict::Healthy);
    assert_eq!(result.status, Some(200));
    assert_eq!(result.final_url.as_deref(), Some(merchant.url("/p/1").as_str()));
    assert_eq!(result.chain, vec![Hop { url: merchant.url("/p/1"), status: Some(200) }]);
    // HEAD, then GET to scan the body for a bot check.
    assert_eq!(merchant.log(), vec!["HEAD /p/1", "GET /p/1"]);
}

#[tokio::test]
async fn a_404_is_dead() {
    let merchant = stand_in(|_| Reply::html(404, "not found")).await;
    let result = check(&merchant.url("/p/1")).await;
    assert_eq!(result.verdict, Verdict::Dead);
    assert_eq!(result.status, Some(404));
}

#[tokio::test]
async fn a_500_is_dead() {
    let merchant = stand_in(|_| Reply::html(500, "oops")).await;
    assert_eq!(check(&merchant.url("/p/1")).await.verdict, Verdict::Dead);
}

#[tokio::test]
async fn a_redirect_chain_to_a_deep_page_is_healthy_and_recorded() {
    let merchant = stand_in_with_port(|port, request| match request.path.as_str() {
        "/go/1" => Reply::redirect(301, "/track?id=1"), // relative
        "/track?id=1" => Reply::redirect(302, &format!("http://127.0.0.1:{port}/product/desk-lamp")), // absolute
        "/product/desk-lamp" => Reply::html(200, PRODUCT_PAGE),
        _ => Reply::html(404, ""),
    })
    .await;
    let result = check(&merchant.url("/go/1")).await;
    assert_eq!(result.verdict, Verdict::Healthy);
    let urls: Vec<&str> = result.chain.iter().map(|hop| hop.url.as_str()).collect();
    assert_eq!(
        urls,
        [merchant.url("/go/1"), merchant.url("/track?id=1"), merchant.url("/product/desk-lamp")]
    );
    assert_eq!(statuses(&result), [Some(301), Some(302), Some(200)]);
    assert_eq!(result.final_url, Some(merchant.url("/product/desk-lamp")));
}

#[tokio::test]
async fn a_redirect_to_the_home_page_is_reported() {
    let merchant = stand_in(|request| match request.path.as_str() {
        "/product/retired" => Reply::redirect(302, "/"),
        "/p/retired" => Reply::redirect(301, "/en-us/"),
        "/" | "/en-us/" => Reply::html(200, "<html>Welcome to the shop</html>"),
        _ => Reply::html(404, ""),
    })
    .await;
    assert_eq!(check(&merchant.url("/product/retired")).await.verdict, Verdict::HomePageRedirect);
    assert_eq!(check(&merchant.url("/p/retired")).await.verdict, Verdict::HomePageRedirect);
    // A link to the home page itself is not a retired product.
    assert_eq!(check(&merchant.url("/")).await.verdict, Verdict::Healthy);
}

#[tokio::test]
async fn a_dropped_affiliate_tag_is_reported_and_a_kept_one_is_healthy() {
    let merchant = stand_in(|request| match request.path.as_str() {
        "/dp/B01?tag=setupiq-20" => Reply::redirect(302, "/dp/B01"),
        "/keep/B01?tag=setupiq-20" => Reply::redirect(302, "/dp/B01?th=1&tag=setupiq-20"),
        _ => Reply::html(200, PRODUCT_PAGE),
    })
    .await;
    let dropped = check(&merchant.url("/dp/B01?tag=setupiq-20")).await;
    assert_eq!(dropped.verdict, Verdict::TagDropped);
    assert_eq!(dropped.final_url, Some(merchant.url("/dp/B01")));
    assert_eq!(check(&merchant.url("/keep/B01?tag=setupiq-20")).await.verdict, Verdict::Healthy);
}

#[tokio::test]
async fn a_200_captcha_page_is_a_bot_check() {
    let merchant = stand_in(|_| {
        Reply::html(200, "<html><title>Robot Check</title><p>Enter the characters you see below</p></html>")
    })
    .await;
    assert_eq!(check(&merchant.url("/dp/B01")).await.verdict, Verdict::BotCheck);
}

#[tokio::test]
async fn a_503_cloudflare_challenge_is_a_bot_check() {
    let merchant = stand_in(|_| Reply::html(503, "").header("cf-mitigated", "challenge")).await;
    let result = check(&merchant.url("/p/1")).await;
    assert_eq!(result.verdict, Verdict::BotCheck);
    assert_eq!(result.status, Some(503));
}

#[tokio::test]
async fn a_429_wall_is_a_bot_check_not_dead() {
    let merchant = stand_in(|_| Reply::html(429, "slow down")).await;
    assert_eq!(check(&merchant.url("/p/1")).await.verdict, Verdict::BotCheck);
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let merchant = stand_in(|_| Reply::hang()).await;
    let config = CheckerConfig { request_timeout: Duration::from_millis(300), ..local_config() };
    let result = check_one(&link(&merchant.url("/p/1")), &config).await;
    assert_eq!(result.verdict, Verdict::Timeout);
    assert_eq!(statuses(&result), [None]);
    assert_eq!(merchant.requests(), 1, "a timed-out HEAD is not retried as GET");
}

/// A refused connection says nothing about the link: from a server without internet every
/// link is refused. It is "could not check", never dead.
#[tokio::test]
async fn a_refused_connection_could_not_be_checked() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let result = check(&format!("http://127.0.0.1:{port}/p/1")).await;
    assert!(
        matches!(&result.verdict, Verdict::Unreachable(cause) if cause.contains("Connection refused")),
        "{:?}",
        result.verdict
    );
}

/// A name that does not resolve (`.invalid` never does, RFC 6761), as on a server without DNS.
#[tokio::test]
async fn a_name_that_does_not_resolve_could_not_be_checked() {
    let result = check("https://shop.setupiq-test.invalid/p/1?tag=setupiq-20").await;
    assert!(
        matches!(&result.verdict, Verdict::Unreachable(cause) if cause.contains("shop.setupiq-test.invalid")),
        "{:?}",
        result.verdict
    );
    assert_eq!(statuses(&result), [None]);
}

#[tokio::test]
async fn a_redirect_loop_is_an_error() {
    let merchant = stand_in(|request| match request.path.as_str() {
        "/a" => Reply::redirect(302, "/b"),
        _ => Reply::redirect(302, "/a"),
    })
    .await;
    let result = check(&merchant.url("/a")).await;
    assert_eq!(result.verdict, Verdict::Error("redirect loop".to_owned()));
    assert_eq!(statuses(&result), [Some(302), Some(302), None]);
}

#[tokio::test]
async fn more_than_max_hops_redirects_is_an_error() {
    // /r/N redirects to /r/N-1; /r/0 is the product.
    let merchant = stand_in(|request| {
        let n: usize = request.path.trim_start_matches("/r/").parse().unwrap_or(0);
        if n == 0 { Reply::html(200, PRODUCT_PAGE) } else { Reply::redirect(302, &format!("/r/{}", n - 1)) }
    })
    .await;
    let config = CheckerConfig { max_hops: 5, ..local_config() };
    let at_limit = check_one(&link(&merchant.url("/r/5")), &config).await;
    assert_eq!(at_limit.verdict, Verdict::Healthy);
    assert_eq!(at_limit.chain.len(), 6);
    let over = check_one(&link(&merchant.url("/r/6")), &config).await;
    assert!(
        matches!(&over.verdict, Verdict::Error(reason) if reason.contains("too many redirects")),
        "{:?}",
        over.verdict
    );
}

#[tokio::test]
async fn head_answering_405_falls_back_to_get() {
    let merchant = stand_in(|request| match (request.method.as_str(), request.path.as_str()) {
        ("HEAD", _) => Reply::html(405, ""),
        ("GET", "/a") => Reply::redirect(302, "/b"),
        ("GET", "/b") => Reply::html(200, PRODUCT_PAGE),
        _ => Reply::html(404, ""),
    })
    .await;
    let result = check(&merchant.url("/a")).await;
    assert_eq!(result.verdict, Verdict::Healthy);
    assert_eq!(statuses(&result), [Some(302), Some(200)]);
    assert_eq!(merchant.log(), ["HEAD /a", "GET /a", "HEAD /b", "GET /b"]);
}

// ---- SSRF -----------------------------------------------------------------------------------

#[tokio::test]
async fn redirects_to_private_addresses_are_refused_even_with_loopback_allowed() {
    let merchant = stand_in(|request| match request.path.as_str() {
        "/private" => Reply::redirect(302, "http://10.0.0.1/"),
        "/metadata" => Reply::redirect(302, "http://169.254.169.254/latest/meta-data"),
        "/mapped" => Reply::redirect(302, "http://[::ffff:10.0.0.1]/"),
        "/decimal" => Reply::redirect(302, "http://167772161/"), // 10.0.0.1
        "/ftp" => Reply::redirect(302, "ftp://example.com/"),
        "/file" => Reply::redirect(302, "file:///etc/passwd"),
        _ => Reply::html(404, ""),
    })
    .await;
    for path in ["/private", "/metadata", "/mapped", "/decimal", "/ftp", "/file"] {
        let result = check(&merchant.url(path)).await;
        assert!(matches!(result.verdict, Verdict::Refused(_)), "{path}: {:?}", result.verdict);
        assert_eq!(statuses(&result), [Some(302), None], "{path}");
    }
    // Only the stand-in's own hops were requested.
    assert!(merchant.log().iter().all(|line| line.starts_with("HEAD ")), "{:?}", merchant.log());
}

#[tokio::test]
async fn forbidden_targets_are_refused_without_contacting_anything() {
    let merchant = stand_in(|_| Reply::html(200, PRODUCT_PAGE)).await;
    let port = merchant.port;
    let mut urls: Vec<String> = [
        "http://127.0.0.1/",
        "http://0.0.0.0/",
        "http://[::]/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://169.254.169.254/latest/meta-data",
        "http://2130706433/",
        "http://0x7f.1/",
        "http://127.1/",
        "http://localhost./",
        "http://localhost/",
        "http://10.1.2.3/",
        "http://192.168.0.1/",
        "http://172.16.0.1/",
        "http://[fe80::1]/",
        "http://[fc00::1]/",
        "http://100.64.0.1/",
        "ftp://example.com/",
        "file:///etc/passwd",
    ]
    .map(str::to_owned)
    .to_vec();
    // The loopback forms again on the stand-in's port, so a leak would show in its counter.
    for host in [
        "127.0.0.1",
        "0.0.0.0",
        "[::ffff:127.0.0.1]",
        "2130706433",
        "0x7f.1",
        "127.1",
        "localhost.",
        "localhost",
    ] {
        urls.push(format!("http://{host}:{port}/p/1"));
    }
    let links =
        urls.iter().enumerate().map(|(id, url)| LinkToCheck { id: id as i64, url: url.clone() }).collect();
    let config = CheckerConfig { allow_loopback: false, ..local_config() };
    let results = check_all(links, &config).await;
    assert_eq!(results.len(), urls.len());
    for (result, url) in results.iter().zip(&urls) {
        assert_eq!(&result.url, url);
        assert!(matches!(result.verdict, Verdict::Refused(_)), "{url}: {:?}", result.verdict);
    }
    assert_eq!(merchant.requests(), 0, "the stand-in on loopback was contacted");

    // Control: the same stand-in is reachable with the test allowance, so the counter works.
    let allowed = check_one(&link(&format!("http://0x7f.1:{port}/p/1")), &local_config()).await;
    assert_eq!(allowed.verdict, Verdict::Healthy);
    assert!(merchant.requests() > 0);
}

#[test]
fn whatwg_parsing_normalises_numeric_hosts() {
    for text in
        ["http://2130706433/", "http://0x7f.1/", "http://127.1/", "http://0177.0.0.1/", "http://127.0.0.1./"]
    {
        let url = url::Url::parse(text).unwrap();
        assert_eq!(url.host(), Some(url::Host::Ipv4(Ipv4Addr::LOCALHOST)), "{text}");
    }
    let mapped = url::Url::parse("http://[::ffff:127.0.0.1]/").unwrap();
    let Some(url::Host::Ipv6(ip)) = mapped.host() else { panic!("not an IPv6 host") };
    assert_eq!(ip.to_ipv4_mapped(), Some(Ipv4Addr::LOCALHOST));
}

#[test]
fn is_forbidden_edge_cases() {
    // (address, forbidden without the allowance, forbidden with it)
    let cases: &[(&str, bool, bool)] = &[
        ("127.0.0.1", true, false),
        ("127.255.255.254", true, false),
        ("::1", true, false),
        ("::ffff:127.0.0.1", true, false),
        ("0.0.0.0", true, true),
        ("0.1.2.3", true, true),
        ("::", true, true),
        ("10.0.0.0", true, true),
        ("10.255.255.255", true, true),
        ("172.15.255.255", false, false),
        ("172.16.0.0", true, true),
        ("172.31.255.255", true, true),
        ("172.32.0.0", false, false),
        ("192.168.0.1", true, true),
        ("169.254.169.254", true, true),
        ("100.63.255.255", false, false),
        ("100.64.0.0", true, true),
        ("100.127.255.255", true, true),
        ("100.128.0.0", false, false),
        ("192.0.0.8", true, true),
        ("192.0.2.1", true, true),
        ("198.18.0.1", true, true),
        ("203.0.113.9", true, true),
        ("224.0.0.1", true, true),
        ("239.255.255.250", true, true),
        ("240.0.0.1", true, true),
        ("255.255.255.255", true, true),
        ("8.8.8.8", false, false),
        ("93.184.216.34", false, false),
        ("::ffff:10.0.0.1", true, true),
        ("::ffff:169.254.169.254", true, true),
        ("::ffff:8.8.8.8", false, false),
        ("::10.0.0.1", true, true),          // IPv4-compatible
        ("::127.0.0.1", true, false),        // IPv4-compatible loopback
        ("64:ff9b::a00:1", true, true),      // NAT64 of 10.0.0.1
        ("64:ff9b::808:808", false, false),  // NAT64 of 8.8.8.8
        ("2002:a9fe:a9fe::1", true, true),   // 6to4 of 169.254.169.254
        ("2002:808:808::1", false, false),   // 6to4 of 8.8.8.8
        ("2001:0:4136:e378::1", true, true), // Teredo
        ("fe80::1", true, true),
        ("febf:ffff::1", true, true),
        ("fec0::1", true, true),
        ("fc00::1", true, true),
        ("fdff:ffff::1", true, true),
        ("ff02::1", true, true),
        ("2001:db8::1", true, true),
        ("2606:4700:4700::1111", false, false),
        ("2a00:1450:4001::200e", false, false),
    ];
    for &(text, without, with) in cases {
        let ip: IpAddr = text.parse().unwrap();
        assert_eq!(is_forbidden(ip, false), without, "{text} without the allowance");
        assert_eq!(is_forbidden(ip, true), with, "{text} with the allowance");
    }
    assert!(is_forbidden(IpAddr::V6(Ipv6Addr::LOCALHOST), false));
}

// ---- run limits -----------------------------------------------------------------------------

/// The stand-in holds every GET until `LIMIT` of them are waiting (or all remaining links are),
/// so the checker's real parallelism shows in the server's count without any timing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn never_more_links_in_flight_than_concurrency() {
    const LINKS: usize = 20;
    const LIMIT: usize = 4;
    #[derive(Default)]
    struct Gate {
        in_flight: usize,
        max_in_flight: usize,
        held: usize,
        released: usize,
    }
    let gate = Arc::new(Mutex::new(Gate::default()));
    let (opened, _) = watch::channel(0_u64);
    let opened = Arc::new(opened);
    let state = gate.clone();
    let merchant = stand_in_async(move |request| {
        let (gate, opened) = (state.clone(), opened.clone());
        async move {
            let wait_past = {
                let mut gate = gate.lock().unwrap();
                gate.in_flight += 1;
                gate.max_in_flight = gate.max_in_flight.max(gate.in_flight);
                if request.method != "GET" {
                    None
                } else {
                    gate.held += 1;
                    if gate.held >= LIMIT.min(LINKS - gate.released) {
                        gate.released += gate.held;
                        gate.held = 0;
                        opened.send_modify(|generation| *generation += 1);
                        None
                    } else {
                        Some(*opened.borrow())
                    }
                }
            };
            if let Some(generation) = wait_past {
                let _ = opened.subscribe().wait_for(|current| *current > generation).await;
            }
            // Counted out before answering, so the next request of the same link never overlaps.
            gate.lock().unwrap().in_flight -= 1;
            Reply::html(200, PRODUCT_PAGE)
        }
    })
    .await;
    let links: Vec<LinkToCheck<i64>> =
        (0..LINKS).map(|id| LinkToCheck { id: id as i64, url: merchant.url(&format!("/p/{id}")) }).collect();
    let config = CheckerConfig { concurrency: LIMIT, ..local_config() };
    let results = check_all(links, &config).await;
    for (id, result) in results.iter().enumerate() {
        assert_eq!(result.id, id as i64, "results in input order");
        assert_eq!(result.verdict, Verdict::Healthy, "link {id}");
    }
    assert_eq!(gate.lock().unwrap().max_in_flight, LIMIT);
}

/// The gate above releases as soon as `LIMIT` requests wait, so it cannot see a checker that
/// overshoots. Here nothing is ever answered: every link the checker starts stays in flight until
/// the run deadline, so the requests the stand-in received are exactly the links started at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_beyond_concurrency_wait_for_a_free_slot() {
    const LIMIT: usize = 3;
    let merchant = stand_in(|_| Reply::hang()).await;
    let links = (0..20).map(|id| LinkToCheck { id, url: merchant.url(&format!("/p/{id}")) }).collect();
    let config = CheckerConfig {
        concurrency: LIMIT,
        run_deadline: Duration::from_secs(1),
        request_timeout: Duration::from_secs(60),
        ..local_config()
    };
    let results = check_all(links, &config).await;
    assert!(results.iter().all(|result| result.verdict == Verdict::Timeout));
    assert_eq!(merchant.requests(), LIMIT, "{:?}", merchant.log());
}

#[tokio::test]
async fn links_running_at_the_run_deadline_are_timeouts() {
    let merchant = stand_in(|request| {
        if request.path.starts_with("/hang") { Reply::hang() } else { Reply::html(200, PRODUCT_PAGE) }
    })
    .await;
    let config = CheckerConfig {
        run_deadline: Duration::from_millis(500),
        request_timeout: Duration::from_secs(60),
        ..local_config()
    };
    let paths = ["/ok/1", "/hang/1", "/ok/2", "/hang/2"];
    let links = paths.iter().map(|path| link(&merchant.url(path))).collect();
    let started = std::time::Instant::now();
    let results = check_all(links, &config).await;
    let verdicts: Vec<&Verdict> = results.iter().map(|result| &result.verdict).collect();
    assert_eq!(verdicts, [&Verdict::Healthy, &Verdict::Timeout, &Verdict::Healthy, &Verdict::Timeout]);
    assert!(started.elapsed() < Duration::from_secs(30), "the run outlived its deadline");
}

#[tokio::test]
async fn links_not_started_by_the_run_deadline_are_timeouts() {
    let merchant = stand_in(|request| {
        if request.path.starts_with("/hang") { Reply::hang() } else { Reply::html(200, PRODUCT_PAGE) }
    })
    .await;
    let config = CheckerConfig {
        concurrency: 1,
        run_deadline: Duration::from_millis(300),
        request_timeout: Duration::from_secs(60),
        ..local_config()
    };
    let links = vec![link(&merchant.url("/hang")), link(&merchant.url("/ok"))];
    let results = check_all(links, &config).await;
    assert_eq!(results[0].verdict, Verdict::Timeout);
    assert_eq!(results[1].verdict, Verdict::Timeout);
    assert!(!merchant.log().iter().any(|line| line.ends_with("/ok")), "{:?}", merchant.log());
}

/// A stand-in whose handler knows its own port, for absolute redirects back to itself.
async fn stand_in_with_port(handler: impl Fn(u16, &Request) -> Reply + Send + Sync + 'static) -> StandIn {
    let port = Arc::new(AtomicUsize::new(0));
    let known = port.clone();
    let merchant = stand_in(move |request| handler(known.load(Ordering::SeqCst) as u16, request)).await;
    port.store(usize::from(merchant.port), Ordering::SeqCst);
    merchant
}
