//! The rules of RigPage: the config and its charges ([`config`]), the looks ([`themes`]),
//! uploads ([`images`]), the public page ([`public`]) with its short-lived cache
//! ([`cache`]), the creator's analytics ([`visits`]), whether their links still work
//! ([`link_health`]) and the page's QR code ([`qr`]).

pub mod cache;
pub mod config;
pub mod images;
pub mod link_health;
pub mod public;
pub mod qr;
pub mod themes;
pub mod visits;

/// What the public pages keep in memory, shared by every worker of a process: rendered
/// pages for a few seconds, and visitors' counts until the next flush.
#[derive(Debug)]
pub struct PublicPages {
    pub cache: cache::PageCache,
    pub visits: visits::Visits,
}

impl Default for PublicPages {
    fn default() -> Self {
        Self { cache: cache::page_cache(), visits: visits::Visits::default() }
    }
}
