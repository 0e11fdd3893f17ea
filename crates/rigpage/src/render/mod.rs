//! The one renderer of a RigPage: the public page at `/rig/{slug}` and the editor's live
//! preview are the same HTML, so the preview cannot drift from the page.
//!
//! A complete document with its CSS inline and no script: visitors arrive from TikTok and
//! Instagram in-app browsers on phones and must see the page at once. maud escapes every
//! text and attribute; URLs a visitor can follow were checked to be `http:`/`https:` when
//! saved, and the ones that reach CSS (`url(…)`) are our own media keys only.

pub mod icons;
pub mod style;

use maud::{DOCTYPE, Markup, PreEscaped, html};
use setupiq_core::media::MediaKey;

use crate::service::config::Link;
use crate::service::public::PublicPage;

/// What the page is rendered for.
#[derive(Debug, Clone, Copy)]
pub enum Mode<'a> {
    /// The public page: links go through the counting redirect, tags carry absolute URLs.
    Public { base_url: &'a str, slug: &'a str },
    /// The editor's preview (in a sandboxed frame): links point at their targets.
    Preview,
}

pub const PRODUCT: &str = "SetupIQ";

/// 😭 below 3; 🤔 below 5; 🙂 below 7; 😎 below 9; otherwise 🔥 (spec 000 §4).
pub fn score_emoji(score: f64) -> &'static str {
    match score {
        s if s < 3.0 => "😭",
        s if s < 5.0 => "🤔",
        s if s < 7.0 => "🙂",
        s if s < 9.0 => "😎",
        _ => "🔥",
    }
}

/// The first two letters of the username in upper case (the avatar's fallback).
pub fn initials(username: &str) -> String {
    username.chars().take(2).flat_map(char::to_uppercase).collect()
}

/// `url(…)` for CSS, only for our own media (whose keys are plain `[a-z0-9/._-]`).
fn css_url(url: &str) -> Option<String> {
    MediaKey::from_url(url).map(|key| format!("url({})", key.url()))
}

fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(|h| h.trim_start_matches("www.").to_owned()))
        .unwrap_or_default()
}

/// The name shown for the page's owner: the display name, or the username without one.
fn shown_name(page: &PublicPage) -> &str {
    let name = page.display_name.trim();
    if name.is_empty() { &page.username } else { name }
}

/// The default description when the page has no tagline.
pub fn default_description(username: &str) -> String {
    format!("Check out {username}'s gaming setup, SetupIQ Score and links.")
}

/// The whole page.
pub fn page(page: &PublicPage, mode: Mode<'_>) -> String {
    let s = &page.settings;
    let title = format!("{}'s RigPage", page.username);
    let description = s.tagline.clone().unwrap_or_else(|| default_description(&page.username));
    let absolute = |path: &str| match mode {
        Mode::Public { base_url, .. } if path.starts_with('/') => format!("{base_url}{path}"),
        _ => path.to_owned(),
    };
    let canonical = match mode {
        Mode::Public { base_url, slug } => Some(format!("{base_url}/rig/{slug}")),
        Mode::Preview => None,
    };
    let og_image = page.setup.as_ref().map(|setup| absolute(&setup.image_url));
    let avatar = s.avatar.as_deref().or(page.profile_picture.as_deref());
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                meta name="description" content=(description);
                @if let Some(canonical) = &canonical {
                    link rel="canonical" href=(canonical);
                    meta property="og:url" content=(canonical);
                }
                meta property="og:type" content="profile";
                meta property="og:site_name" content=(PRODUCT);
                meta property="og:title" content=(title);
                meta property="og:description" content=(description);
                meta name="twitter:title" content=(title);
                meta name="twitter:description" content=(description);
                @if let Some(image) = &og_image {
                    meta property="og:image" content=(image);
                    meta name="twitter:card" content="summary_large_image";
                    meta name="twitter:image" content=(image);
                } @else {
                    meta name="twitter:card" content="summary";
                }
                meta name="theme-color" content=(s.highlight_color);
                @if s.font == crate::service::themes::FontStyle::Gaming {
                    link rel="preload" href=(style::GAMING_FONT_URL) as="font" type="font/woff2" crossorigin;
                }
                style { (PreEscaped(style::css(s))) }
            }
            body {
                @if let Some(bg) = s.background.as_deref().and_then(css_url) {
                    div.bg style=(format!("background-image:{bg}")) {}
                    div."bg-overlay" style=(format!("background:{};opacity:.55", s.overlay)) {}
                }
                main.page {
                    (hero(page, avatar))
                    @if let Some(setup) = &page.setup {
                        section.showcase aria-label="Setup showcase" {
                            img src=(setup.image_url) alt=(format!("{}'s gaming setup", page.username)) loading="lazy" decoding="async";
                            dl.facts {
                                div { dt { "Setup Type" } dd { "Photo" } }
                                div { dt { "Analyzed" } dd { (setup.created_at.format("%b %-d, %Y")) } }
                                div { dt { "Overall Score" } dd { (format!("{:.1}/10", setup.overall_rating)) } }
                            }
                        }
                    }
                    @if !page.gear.is_empty() {
                        section.gear aria-label="My gear" {
                            h2 { "My gear" }
                            ul.links {
                                @for item in &page.gear {
                                    li {
                                        @if item.has_link {
                                            a.btn href=(format!("/go/gear/{}", item.id)) target="_blank" rel="nofollow sponsored noopener" {
                                                span { span.label { (item.name) } span.url { (item.category) } }
                                            }
                                        } @else {
                                            div.btn.gear-item { span { span.label { (item.name) } span.url { (item.category) } } }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    (links(&s.links, &s.sections, mode))
                    footer {
                        "Powered by " (PRODUCT) " – " a href=(absolute("/")) { "Create your RigPage" }
                    }
                }
            }
        }
    };
    markup.into_string()
}

fn hero(page: &PublicPage, avatar: Option<&str>) -> Markup {
    let s = &page.settings;
    let hero_image = page
        .setup
        .as_ref()
        .filter(|_| s.show_setup_in_background)
        .and_then(|setup| css_url(setup.thumbnail_url.as_deref().unwrap_or(&setup.image_url)));
    html! {
        header.hero {
            @if let Some(image) = hero_image {
                div."hero-img" aria-hidden="true" style=(format!(
                    "background-image:{image};filter:blur({}px);opacity:{}", s.blur, f64::from(s.opacity) / 100.0
                )) {}
                // Keeps the texts readable on any photo.
                div."hero-scrim" aria-hidden="true" {}
            }
            div.avatar {
                @if let Some(avatar) = avatar {
                    img src=(avatar) alt=(format!("{}'s avatar", shown_name(page))) width="96" height="96";
                } @else {
                    span aria-hidden="true" { (initials(&page.username)) }
                }
            }
            // The member's name as everywhere else; the handle below it, as the profile has.
            h1 { (shown_name(page)) }
            p.handle { "@" (page.username) }
            @if let Some(tagline) = &s.tagline { p.tagline { (tagline) } }
            @if let Some(bio) = &s.bio { p.bio { (bio) } }
            @if let Some(setup) = &page.setup {
                p.score {
                    span aria-hidden="true" { (score_emoji(setup.overall_rating)) }
                    span { (format!("{:.1}", setup.overall_rating)) }
                    small { (PRODUCT) " Score" }
                }
            }
            @let socials = s.socials.public();
            @if !socials.is_empty() {
                nav.socials aria-label="Social links" {
                    @for (platform, url) in socials {
                        @if let Some(path) = icons::path(platform) {
                            a href=(url) target="_blank" rel="noopener nofollow ugc" aria-label=(icons::label(platform)) {
                                svg viewBox="0 0 24 24" aria-hidden="true" { path d=(path) {} }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The links grouped by section, in the sections' order; links without a section come
/// last, under "Other Links" only when named sections exist.
fn links(links: &[Link], sections: &[String], mode: Mode<'_>) -> Markup {
    let named: Vec<(&str, Vec<&Link>)> = sections
        .iter()
        .map(|name| {
            (name.as_str(), links.iter().filter(|l| l.section.as_deref() == Some(name)).collect::<Vec<_>>())
        })
        .filter(|(_, links)| !links.is_empty())
        .collect();
    let other: Vec<&Link> = links
        .iter()
        .filter(|l| l.section.as_deref().is_none_or(|s| !sections.iter().any(|n| n == s)))
        .collect();
    html! {
        @for (name, group) in &named {
            section aria-label=(name) {
                h2 { (name) }
                (link_list(group, mode))
            }
        }
        @if !other.is_empty() {
            section aria-label="Links" {
                @if !named.is_empty() { h2 { "Other Links" } }
                (link_list(&other, mode))
            }
        }
    }
}

fn link_list(links: &[&Link], mode: Mode<'_>) -> Markup {
    html! {
        ul.links {
            @for link in links {
                @let href = match (mode, link.id) {
                    (Mode::Public { slug, .. }, Some(id)) => format!("/rig/{slug}/go/{id}"),
                    _ => link.url.clone(),
                };
                li {
                    a.btn href=(href) target="_blank" rel="noopener nofollow ugc" {
                        @if let Some(image) = &link.image_url {
                            img src=(image) alt="" width="36" height="36" loading="lazy";
                        } @else {
                            svg viewBox="0 0 24 24" aria-hidden="true" {
                                path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7" {}
                            }
                        }
                        span {
                            span.label { (link.label) }
                            span.url { (host_of(&link.url)) }
                        }
                    }
                }
            }
        }
    }
}

/// The page for an unknown or private slug (served with status 404).
pub fn not_found(slug: &str) -> String {
    let settings = crate::service::config::Settings::default();
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                title { "RigPage Not Found" }
                style { (PreEscaped(style::css(&settings))) }
            }
            body {
                main.page.missing {
                    h1 { "RigPage Not Found" }
                    p { (format!("The RigPage for \"{slug}\" could not be found or is not available.")) }
                    a.home href="/" { "Return Home" }
                }
            }
        }
    }
    .into_string()
}
