//! Affiliate link checker: follows each product link the way a shopper's browser would and says
//! whether it still earns, catching the silent failures an HTTP status alone hides.
//!
//! A merchant rarely answers a retired product with a 404. It redirects to its home page, drops
//! the affiliate tag on the way, or puts a captcha in front of crawlers. So the checker follows
//! redirects itself, keeps the whole chain, and judges where the chain ends:
//! [`Verdict::HomePageRedirect`], [`Verdict::TagDropped`] and [`Verdict::BotCheck`] exist for
//! those cases, and a bot wall is reported as unknown rather than as healthy or dead, so nobody
//! deletes a working link because a merchant blocked the checker.
//!
//! The URLs come from admins and merchants, and every redirect is chosen by a remote server, so
//! each hop is a server-side request forgery risk (cloud metadata at 169.254.169.254, the
//! database on 10.x, services on loopback). Every hop is therefore checked before it is
//! requested: only http and https, and no host that is or resolves to a forbidden address
//! ([`is_forbidden`]). The HTTP client resolves names only through a resolver that drops
//! forbidden addresses, so a name that re-resolves elsewhere between our check and the connection
//! (DNS rebinding) still cannot reach one. Redirects are never followed by reqwest itself, and
//! proxies from the environment are ignored, so no request leaves without these checks.

use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{Client, Method, Response};
use setupiq_affiliate::service::link_health::LinkVerdict;
use tokio::time::Instant;
use url::{Host, Url};

pub use setupiq_core::net::is_forbidden;
use setupiq_core::net::is_localhost_name;

/// How a run of checks behaves. [`CheckerConfig::default`] is what production uses.
#[derive(Debug, Clone)]
pub struct CheckerConfig {
    /// Redirects followed per link; one more is an error. Affiliate links legitimately pass
    /// through two or three tracking hops, so five leaves room without chasing endless chains.
    pub max_hops: usize,
    /// Bound on each single request (connect, headers and the scanned body prefix).
    pub request_timeout: Duration,
    /// Links checked at once: enough to finish a catalogue quickly, few enough not to look like
    /// an attack to a merchant that many links point at.
    pub concurrency: usize,
    /// Bound on the whole run; links not finished by then are reported as [`Verdict::Timeout`],
    /// so an admin page waiting on the run always gets an answer.
    pub run_deadline: Duration,
    /// Sent with every request. Bot walls key on it, so it is configurable.
    pub user_agent: String,
    /// TEST-ONLY: lets loopback addresses (127.0.0.0/8, ::1, and the names `localhost`) through
    /// so tests can point the checker at local stand-in servers. Private, link-local and every
    /// other forbidden range stay refused even then.
    pub allow_loopback: bool,
}

impl Default for CheckerConfig {
    fn default() -> Self {
        Self {
            max_hops: 5,
            request_timeout: Duration::from_secs(10),
            concurrency: 8,
            run_deadline: Duration::from_secs(120),
            user_agent: "Mozilla/5.0 (compatible; SetupIQ-LinkChecker/1.0)".to_owned(),
            allow_loopback: false,
        }
    }
}

/// One link: a product's affiliate link, or a link on a member's RigPage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkToCheck<Id> {
    /// The product's id ([`setupiq_core::ProductId`]), or the RigPage link's
    /// ([`setupiq_core::LinkId`]): given back with the result.
    pub id: Id,
    pub url: String,
}

/// One URL the checker visited (or refused to visit) on the way to the final page.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hop {
    pub url: String,
    /// `None` when no answer came: refused, timed out or failed before a status line.
    pub status: Option<u16>,
}

/// What an admin should make of a link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The chain ends on a 2xx page that is not the home page and keeps every affiliate tag.
    Healthy,
    /// The chain ends on a 4xx or 5xx status (other than a bot wall).
    Dead,
    /// The chain ends on the merchant's home page ("/" or only a locale such as "/en-us") though
    /// the link pointed deeper: how most shops retire a product without a 404.
    HomePageRedirect,
    /// An affiliate tag of the original URL (`tag`, `affid`, `ref`, ...) is missing from the
    /// final URL or has another value there, so the click no longer earns.
    TagDropped,
    /// A captcha or bot-check page, or a 403/429 wall. Unknown, never healthy or dead: the
    /// merchant blocked the checker, not necessarily the shopper.
    BotCheck,
    /// A request, or the whole run, ran out of time after the connection was made.
    Timeout,
    /// The checker could not reach the link from where it runs: the name did not resolve, the
    /// connection was refused or timed out, TLS failed, the network is unreachable. Says
    /// nothing about the link (a server without internet gets this for every link), so it is
    /// never a failure.
    Unreachable(String),
    /// Too many redirects, a redirect loop, a broken answer, ...
    Error(String),
    /// Not requested because it is unsafe (SSRF): a scheme other than http/https, or a host that
    /// is or resolves to a forbidden address.
    Refused(String),
}

impl Verdict {
    /// The verdict as stored and shown, without its reason.
    pub fn kind(&self) -> LinkVerdict {
        match self {
            Verdict::Healthy => LinkVerdict::Healthy,
            Verdict::Dead => LinkVerdict::Dead,
            Verdict::HomePageRedirect => LinkVerdict::HomePageRedirect,
            Verdict::TagDropped => LinkVerdict::TagDropped,
            Verdict::BotCheck => LinkVerdict::BotCheck,
            Verdict::Timeout => LinkVerdict::Timeout,
            Verdict::Unreachable(_) => LinkVerdict::Unreachable,
            Verdict::Error(_) => LinkVerdict::Error,
            Verdict::Refused(_) => LinkVerdict::Refused,
        }
    }
}

/// The outcome for one link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult<Id> {
    /// The [`LinkToCheck::id`] of the link.
    pub id: Id,
    pub url: String,
    /// The last URL of the chain, whether or not it answered; `None` when the link did not parse.
    pub final_url: Option<String>,
    /// The last status received on the final URL.
    pub status: Option<u16>,
    /// Every URL visited, the original first.
    pub chain: Vec<Hop>,
    pub elapsed: Duration,
    pub verdict: Verdict,
}

/// Query parameters that carry an affiliate's identity. `utm_*` are analytics, not tags:
/// a merchant dropping them costs nothing.
const AFFILIATE_PARAMS: &[&str] = &[
    "tag",
    "affid",
    "aff_id",
    "affiliate",
    "affiliate_id",
    "ref",
    "ref_id",
    "irclickid",
    "clickid",
    "wmlspartner",
];

/// Lower-case phrases of captcha and bot-check pages (Amazon, Cloudflare, PerimeterX, ...).
const BOT_CHECK_MARKERS: &[&str] = &[
    "captcha",
    "are you a robot",
    "robot check",
    "verify you are human",
    "cf-challenge",
    "just a moment",
    "px-captcha",
    "enter the characters you see below",
];

/// Challenge pages put their markers near the top; reading more only costs bandwidth.
const BODY_SCAN_LIMIT: usize = 64 * 1024;

/// Checks every link, at most `config.concurrency` at once, and returns one result per link in
/// input order. Links not finished when `config.run_deadline` passes come back as
/// [`Verdict::Timeout`].
pub async fn check_all<Id: Copy + fmt::Display>(
    links: Vec<LinkToCheck<Id>>,
    config: &CheckerConfig,
) -> Vec<CheckResult<Id>> {
    let deadline = Instant::now() + config.run_deadline;
    let client = match build_client(config) {
        Ok(client) => client,
        Err(error) => {
            tracing::error!(%error, "link checker: cannot build the HTTP client");
            let message = format!("cannot build the HTTP client: {error}");
            return links.iter().map(|link| unchecked(link, Verdict::Error(message.clone()))).collect();
        }
    };
    let client = &client;
    let mut results: Vec<(usize, CheckResult<Id>)> = futures_util::stream::iter(links.iter().enumerate())
        .map(|(index, link)| async move { (index, check_link(client, link, config, deadline).await) })
        .buffer_unordered(config.concurrency.max(1))
        .collect()
        .await;
    results.sort_unstable_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

/// Checks a single link with its own client; the run deadline applies to it alone.
pub async fn check_one<Id: Copy + fmt::Display>(
    link: &LinkToCheck<Id>,
    config: &CheckerConfig,
) -> CheckResult<Id> {
    let deadline = Instant::now() + config.run_deadline;
    match build_client(config) {
        Ok(client) => check_link(&client, link, config, deadline).await,
        Err(error) => unchecked(link, Verdict::Error(format!("cannot build the HTTP client: {error}"))),
    }
}

/// Why one hop could not be judged by its response.
#[derive(Debug, thiserror::Error)]
enum HopError {
    #[error("timed out")]
    Timeout,
    #[error("{0}")]
    Unreachable(String),
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Failed(String),
}

impl From<HopError> for Verdict {
    fn from(error: HopError) -> Self {
        match error {
            HopError::Timeout => Verdict::Timeout,
            HopError::Unreachable(reason) => Verdict::Unreachable(reason),
            HopError::Refused(reason) => Verdict::Refused(reason),
            HopError::Failed(reason) => Verdict::Error(reason),
        }
    }
}

/// Raised by [`SafeResolver`] and found again in reqwest's error chain, so a connection blocked
/// by the resolver is reported as [`Verdict::Refused`] rather than as a network error.
#[derive(Debug, thiserror::Error)]
#[error("{name} resolves only to forbidden addresses")]
struct ForbiddenAddress {
    name: String,
}

/// The only resolver the HTTP client uses. Our own check before each hop resolves the name
/// separately; this second resolution is what the connection really uses, and it drops forbidden
/// addresses, so a DNS answer that changes in between (rebinding) cannot reach one.
#[derive(Debug, Clone, Copy)]
struct SafeResolver {
    allow_loopback: bool,
}

impl reqwest::dns::Resolve for SafeResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let allow_loopback = self.allow_loopback;
        let name = name.as_str().to_owned();
        Box::pin(async move {
            if is_localhost_name(&name) && !allow_loopback {
                return Err(ForbiddenAddress { name }.into());
            }
            // Port 0: reqwest puts in the URL's port.
            let allowed: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0))
                .await?
                .filter(|addr| !is_forbidden(addr.ip(), allow_loopback))
                .collect();
            if allowed.is_empty() {
                return Err(ForbiddenAddress { name }.into());
            }
            let addrs: reqwest::dns::Addrs = Box::new(allowed.into_iter());
            Ok(addrs)
        })
    }
}

fn build_client(config: &CheckerConfig) -> Result<Client, reqwest::Error> {
    let mut headers = HeaderMap::new();
    // Some bot walls challenge any client that does not ask for HTML like a browser does.
    headers.insert(
        header::ACCEPT,
        HeaderValue::from_static("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
    );
    headers.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("en-US,en;q=0.8"));
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .dns_resolver(SafeResolver { allow_loopback: config.allow_loopback })
        .user_agent(config.user_agent.as_str())
        .default_headers(headers)
        .connect_timeout(config.request_timeout)
        // A backstop only: every request is also bounded by `within` so the run deadline applies.
        .timeout(config.request_timeout)
        .build()
}

/// A result for a link that was never requested.
fn unchecked<Id: Copy>(link: &LinkToCheck<Id>, verdict: Verdict) -> CheckResult<Id> {
    CheckResult {
        id: link.id,
        url: link.url.clone(),
        final_url: None,
        status: None,
        chain: Vec::new(),
        elapsed: Duration::ZERO,
        verdict,
    }
}

async fn check_link<Id: Copy + fmt::Display>(
    client: &Client,
    link: &LinkToCheck<Id>,
    config: &CheckerConfig,
    deadline: Instant,
) -> CheckResult<Id> {
    let started = Instant::now();
    let mut chain = Vec::new();
    let verdict = match follow_chain(client, &link.url, config, deadline, &mut chain).await {
        Ok(landing) => classify(&link.url, &landing),
        Err(error) => error.into(),
    };
    tracing::debug!(id = %link.id, url = %link.url, ?verdict, hops = chain.len(), "link checked");
    let last = chain.last();
    CheckResult {
        id: link.id,
        url: link.url.clone(),
        final_url: last.map(|hop| hop.url.clone()),
        status: last.and_then(|hop| hop.status),
        elapsed: started.elapsed(),
        chain,
        verdict,
    }
}

/// Where a chain ended: the first answer that is not a redirect to follow.
struct Landing {
    url: Url,
    status: u16,
    redirected: bool,
    /// A challenge header or a bot-check marker in the body prefix.
    bot_check: bool,
}

async fn follow_chain(
    client: &Client,
    raw_url: &str,
    config: &CheckerConfig,
    deadline: Instant,
    chain: &mut Vec<Hop>,
) -> Result<Landing, HopError> {
    let mut current =
        Url::parse(raw_url).map_err(|error| HopError::Failed(format!("invalid URL: {error}")))?;
    let mut seen = HashSet::new();
    let mut redirects = 0;
    loop {
        chain.push(Hop { url: current.to_string(), status: None });
        if !seen.insert(current.clone()) {
            return Err(HopError::Failed("redirect loop".to_owned()));
        }
        if Instant::now() >= deadline {
            return Err(HopError::Timeout);
        }
        ensure_allowed(&current, config, deadline).await?;
        let answer = probe(client, &current, config, deadline).await?;
        if let Some(hop) = chain.last_mut() {
            hop.status = Some(answer.status);
        }
        let Some(location) = answer.location else {
            return Ok(Landing {
                url: current,
                status: answer.status,
                redirected: redirects > 0,
                bot_check: answer.bot_check,
            });
        };
        redirects += 1;
        if redirects > config.max_hops {
            return Err(HopError::Failed(format!("too many redirects (more than {})", config.max_hops)));
        }
        current = current
            .join(&location)
            .map_err(|error| HopError::Failed(format!("invalid redirect Location {location:?}: {error}")))?;
        tracing::trace!(to = %current, "following redirect");
    }
}

/// Refuses a URL before any byte is sent to it: wrong scheme, forbidden IP literal, or a name
/// that resolves to any forbidden address. IP literals never reach the client's resolver, so
/// this is their only check.
async fn ensure_allowed(url: &Url, config: &CheckerConfig, deadline: Instant) -> Result<(), HopError> {
    let allow_loopback = config.allow_loopback;
    match url.scheme() {
        "http" | "https" => {}
        other => return Err(HopError::Refused(format!("scheme {other}: is not allowed"))),
    }
    let ip = match url.host() {
        None => return Err(HopError::Refused("URL has no host".to_owned())),
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip),
        Some(Host::Domain(name)) => {
            if is_localhost_name(name) && !allow_loopback {
                return Err(HopError::Refused(format!("{name} is a loopback name")));
            }
            let port = url.port_or_known_default().unwrap_or(80);
            // A name that does not resolve is the checker's problem as much as the link's: a
            // server without DNS gets this for every link.
            let addrs: Vec<SocketAddr> = within(request_deadline(config, deadline), async {
                tokio::net::lookup_host((name, port))
                    .await
                    .map(Iterator::collect)
                    .map_err(|error| HopError::Unreachable(format!("DNS lookup of {name} failed: {error}")))
            })
            .await
            .map_err(|error| match error {
                HopError::Timeout => HopError::Unreachable(format!("DNS lookup of {name} timed out")),
                other => other,
            })?;
            if addrs.is_empty() {
                return Err(HopError::Unreachable(format!("DNS lookup of {name} returned no address")));
            }
            return match addrs.iter().find(|addr| is_forbidden(addr.ip(), allow_loopback)) {
                Some(addr) => {
                    Err(HopError::Refused(format!("{name} resolves to forbidden address {}", addr.ip())))
                }
                None => Ok(()),
            };
        }
    };
    if is_forbidden(ip, allow_loopback) {
        return Err(HopError::Refused(format!("{ip} is a forbidden address")));
    }
    Ok(())
}

/// One hop's answer.
struct Answer {
    status: u16,
    /// Set for a 3xx with a Location: the hop to follow.
    location: Option<String>,
    bot_check: bool,
}

/// Asks one URL. HEAD first, because most hops are redirects and HEAD follows them without
/// bodies. Anything else is confirmed with GET: many shops answer HEAD with 405, 404 or a bot
/// wall while serving GET fine, and only a GET body shows a captcha.
async fn probe(
    client: &Client,
    url: &Url,
    config: &CheckerConfig,
    deadline: Instant,
) -> Result<Answer, HopError> {
    match send(client, Method::HEAD, url, config, deadline).await {
        Ok((response, _)) if response.status().is_redirection() => {
            if let Some(location) = location_of(&response) {
                return Ok(Answer {
                    status: response.status().as_u16(),
                    location: Some(location),
                    bot_check: false,
                });
            }
        }
        Ok(_) => {}
        // A server that hangs up on HEAD may still serve GET; a timeout or refusal would repeat.
        Err(HopError::Failed(reason)) => tracing::debug!(%url, %reason, "HEAD failed, trying GET"),
        Err(error) => return Err(error),
    }
    let (response, until) = send(client, Method::GET, url, config, deadline).await?;
    let status = response.status().as_u16();
    if response.status().is_redirection() {
        return Ok(Answer { status, location: location_of(&response), bot_check: false });
    }
    let challenge_header = response
        .headers()
        .get("cf-mitigated")
        .is_some_and(|value| value.as_bytes().eq_ignore_ascii_case(b"challenge"));
    // Only statuses a bot wall uses are worth reading; a plain 404 body says nothing more.
    let bot_check = if challenge_header {
        true
    } else if response.status().is_success() || matches!(status, 403 | 429 | 503) {
        body_has_bot_check(response, until).await?
    } else {
        false
    };
    Ok(Answer { status, location: None, bot_check })
}

fn location_of(response: &Response) -> Option<String> {
    let location = response.headers().get(header::LOCATION)?;
    Some(String::from_utf8_lossy(location.as_bytes()).into_owned())
}

/// Sends one request bounded by the request timeout and the run deadline; returns the response
/// with that bound so reading its body stays within the same request budget.
async fn send(
    client: &Client,
    method: Method,
    url: &Url,
    config: &CheckerConfig,
    deadline: Instant,
) -> Result<(Response, Instant), HopError> {
    let until = request_deadline(config, deadline);
    let request = client.request(method, url.clone()).send();
    let response = within(until, async { request.await.map_err(hop_error) }).await?;
    Ok((response, until))
}

async fn body_has_bot_check(mut response: Response, until: Instant) -> Result<bool, HopError> {
    let mut prefix = Vec::with_capacity(8 * 1024);
    within(until, async {
        while prefix.len() < BODY_SCAN_LIMIT {
            let Some(chunk) = response.chunk().await.map_err(hop_error)? else { break };
            let take = chunk.len().min(BODY_SCAN_LIMIT - prefix.len());
            prefix.extend_from_slice(chunk.get(..take).unwrap_or_default());
        }
        Ok(())
    })
    .await?;
    prefix.make_ascii_lowercase();
    Ok(BOT_CHECK_MARKERS
        .iter()
        .any(|marker| prefix.windows(marker.len()).any(|window| window == marker.as_bytes())))
}

fn request_deadline(config: &CheckerConfig, deadline: Instant) -> Instant {
    (Instant::now() + config.request_timeout).min(deadline)
}

async fn within<T>(until: Instant, work: impl Future<Output = Result<T, HopError>>) -> Result<T, HopError> {
    tokio::time::timeout_at(until, work).await.unwrap_or(Err(HopError::Timeout))
}

fn hop_error(error: reqwest::Error) -> HopError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
    let mut causes = Vec::new();
    while let Some(cause) = source {
        if let Some(forbidden) = cause.downcast_ref::<ForbiddenAddress>() {
            return HopError::Refused(forbidden.to_string());
        }
        causes.push(cause.to_string());
        source = cause.source();
    }
    // reqwest's own message only says "error sending request"; the causes say why.
    let causes = causes.join(": ");
    // No connection was made (the name, the route, the port, TLS, or the connect timeout):
    // nothing was learnt about the link itself.
    if error.is_connect() {
        return HopError::Unreachable(causes);
    }
    if error.is_timeout() {
        return HopError::Timeout;
    }
    HopError::Failed(causes)
}

fn classify(original: &str, landing: &Landing) -> Verdict {
    let status = landing.status;
    if landing.bot_check && ((200..300).contains(&status) || matches!(status, 403 | 429 | 503)) {
        return Verdict::BotCheck;
    }
    match status {
        // Bot walls answer crawlers with these; a shopper may well see the product.
        403 | 429 => Verdict::BotCheck,
        400..=599 => Verdict::Dead,
        300..=399 => Verdict::Error(format!("redirect status {status} without a Location header")),
        200..=299 => {
            let Ok(original) = Url::parse(original) else {
                return Verdict::Error("invalid URL".to_owned());
            };
            if landing.redirected && is_home_page(&landing.url) && !is_home_page(&original) {
                Verdict::HomePageRedirect
            } else if let Some(param) = dropped_affiliate_param(&original, &landing.url) {
                tracing::debug!(%param, final_url = %landing.url, "affiliate tag dropped");
                Verdict::TagDropped
            } else {
                Verdict::Healthy
            }
        }
        _ => Verdict::Error(format!("unexpected status {status}")),
    }
}

/// The root, or only a locale segment (`/de`, `/en-us/`, `/en_GB`), whatever the query.
fn is_home_page(url: &Url) -> bool {
    let mut segments = url.path().split('/').filter(|segment| !segment.is_empty());
    match (segments.next(), segments.next()) {
        (None, _) => true,
        (Some(only), None) => is_locale(only),
        _ => false,
    }
}

fn is_locale(segment: &str) -> bool {
    match segment.as_bytes() {
        [a, b] => a.is_ascii_alphabetic() && b.is_ascii_alphabetic(),
        [a, b, b'-' | b'_', c, d] => [a, b, c, d].iter().all(|byte| byte.is_ascii_alphabetic()),
        _ => false,
    }
}

/// The first affiliate parameter of `original` that `landing` lacks with the same value; a
/// changed value is as bad as a missing one (someone else's tag earns the click).
fn dropped_affiliate_param(original: &Url, landing: &Url) -> Option<String> {
    original
        .query_pairs()
        .filter(|(name, _)| AFFILIATE_PARAMS.iter().any(|param| param.eq_ignore_ascii_case(name)))
        .find(|(name, value)| {
            !landing
                .query_pairs()
                .any(|(kept, kept_value)| kept.eq_ignore_ascii_case(name) && kept_value == *value)
        })
        .map(|(name, _)| name.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    #[test]
    fn home_pages_are_the_root_or_a_locale() {
        for home in [
            "https://shop.example/",
            "https://shop.example/?ref=x",
            "https://shop.example/de",
            "https://shop.example/en-us/",
            "https://shop.example/en_GB",
        ] {
            assert!(is_home_page(&url(home)), "{home}");
        }
        for deep in [
            "https://shop.example/dp/B0001",
            "https://shop.example/en-us/p/1",
            "https://shop.example/deals",
            "https://shop.example/x1",
        ] {
            assert!(!is_home_page(&url(deep)), "{deep}");
        }
    }

    #[test]
    fn affiliate_params_must_survive_with_their_value() {
        let original = url("https://shop.example/p?tag=setupiq-20&utm_source=x");
        assert_eq!(dropped_affiliate_param(&original, &url("https://shop.example/p?tag=setupiq-20")), None);
        assert_eq!(
            dropped_affiliate_param(&original, &url("https://shop.example/p?TAG=setupiq-20&th=1")),
            None
        );
        assert_eq!(
            dropped_affiliate_param(&original, &url("https://shop.example/p")),
            Some("tag".to_owned())
        );
        assert_eq!(
            dropped_affiliate_param(&original, &url("https://shop.example/p?tag=other-20")),
            Some("tag".to_owned())
        );
        // utm_source is analytics, not a tag.
        assert_eq!(
            dropped_affiliate_param(
                &url("https://shop.example/p?utm_source=x"),
                &url("https://shop.example/p")
            ),
            None
        );
    }

    #[test]
    fn localhost_names() {
        for name in ["localhost", "localhost.", "LOCALHOST", "api.localhost", "api.localhost."] {
            assert!(is_localhost_name(name), "{name}");
        }
        for name in ["localhost.example", "notlocalhost", "example.com"] {
            assert!(!is_localhost_name(name), "{name}");
        }
    }

    /// The client's resolver is the second line: even a request that skipped `ensure_allowed`
    /// cannot connect to a name resolving to loopback, and the error says Refused.
    #[tokio::test]
    async fn the_client_resolver_refuses_forbidden_names() {
        let config = CheckerConfig::default();
        let client = build_client(&config).unwrap_or_else(|error| panic!("client: {error}"));
        let target = url("http://localhost:9/");
        let error =
            match send(&client, Method::GET, &target, &config, Instant::now() + Duration::from_secs(5)).await
            {
                Ok(_) => panic!("connected to localhost"),
                Err(error) => error,
            };
        assert!(matches!(error, HopError::Refused(_)), "{error:?}");
    }
}
