//! Who sent a request, by its `User-Agent`: people's browsers, or machines (crawlers,
//! link-preview fetchers, monitors, command-line tools, headless browsers). Views and
//! clicks of machines are kept out of every count people read.

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

#[cfg(test)]
mod tests {
    use super::*;

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
