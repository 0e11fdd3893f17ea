//! Who sent a request, by its `User-Agent`: people's browsers, or machines (crawlers,
//! link-preview fetchers, monitors, command-line tools, headless browsers). Views and
//! clicks of machines are kept out of every count people read. People see their own
//! signed-in browsers by [`device`] ("Firefox on Windows").

/// Parts of a user agent that only crawlers, link-preview fetchers, monitors and
/// command-line tools send (matched without regard to case). An empty one counts too.
const BOT_MARKERS: &[&str] = &[
    "bot",
    "crawl",
    "spider",
    "slurp",
    "facebookexternalhit",
    "facebookcatalog",
    "embedly",
    "preview",
    "lighthouse",
    "pagespeed",
    "pingdom",
    "uptime",
    "monitor",
    "curl/",
    "wget/",
    "python-requests",
    "python-urllib",
    "go-http-client",
    "okhttp",
    "java/",
    "httpclient",
    "scrapy",
    "headlesschrome",
    "phantomjs",
];

/// Whether a request's `User-Agent` is a machine's.
pub fn is_bot(user_agent: Option<&str>) -> bool {
    let Some(agent) = user_agent.map(str::trim).filter(|a| !a.is_empty()) else { return true };
    let agent = agent.to_ascii_lowercase();
    BOT_MARKERS.iter().any(|marker| agent.contains(marker))
}

/// Browsers by the token that names them, most specific first: Edge and Opera also say
/// "Chrome", and every Chromium browser also says "Safari".
const BROWSERS: &[(&str, &str)] = &[
    ("edg/", "Edge"),
    ("edga/", "Edge"),
    ("edgios/", "Edge"),
    ("opr/", "Opera"),
    ("samsungbrowser/", "Samsung Internet"),
    ("firefox/", "Firefox"),
    ("fxios/", "Firefox"),
    ("crios/", "Chrome"),
    ("chrome/", "Chrome"),
    ("chromium/", "Chromium"),
    ("safari/", "Safari"),
];

/// Operating systems by the token that names them, most specific first: an iPad or an
/// Android phone also says "like Mac OS X" or "Linux".
const SYSTEMS: &[(&str, &str)] = &[
    ("iphone", "iPhone"),
    ("ipad", "iPad"),
    ("android", "Android"),
    ("cros", "ChromeOS"),
    ("windows", "Windows"),
    ("mac os x", "macOS"),
    ("macintosh", "macOS"),
    ("linux", "Linux"),
];

/// A person-readable name for the browser a `User-Agent` belongs to ("Chrome on Android"),
/// for the list of an account's signed-in devices; "Unknown device" when it says nothing
/// we know.
pub fn device(user_agent: Option<&str>) -> String {
    let agent = user_agent.unwrap_or_default().to_ascii_lowercase();
    let first = |table: &[(&str, &'static str)]| {
        table.iter().find(|(token, _)| agent.contains(token)).map(|&(_, name)| name)
    };
    match (first(BROWSERS), first(SYSTEMS)) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(name), None) | (None, Some(name)) => name.to_owned(),
        (None, None) => "Unknown device".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_named_by_browser_and_system() {
        for (agent, expected) in [
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Chrome on Windows",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                "Edge on Windows",
            ),
            ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
                "Safari on macOS",
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
                "Chrome on Android",
            ),
            ("curl/8.5.0", "Unknown device"),
        ] {
            assert_eq!(device(Some(agent)), expected, "{agent}");
        }
        assert_eq!(device(None), "Unknown device");
    }

    #[test]
    fn crawlers_and_tools_are_bots_and_browsers_are_not() {
        for agent in [
            None,
            Some(""),
            Some("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
            Some("facebookexternalhit/1.1"),
            Some("Mozilla/5.0 (X11; Linux x86_64) Chrome/120 Safari/537.36 Chrome-Lighthouse"),
            Some("curl/8.5.0"),
            Some("Discordbot/2.0"),
            Some("Twitterbot/1.0"),
            Some(
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0 Safari/537.36",
            ),
        ] {
            assert!(is_bot(agent), "{agent:?} should be a bot");
        }
        for agent in [
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Instagram 300.0",
            "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36 trill_320",
        ] {
            assert!(!is_bot(Some(agent)), "{agent} is a person's browser");
        }
    }
}
