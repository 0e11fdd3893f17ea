//! Serving the built single-page app (`frontend/dist`) and the media store.
//!
//! Client routes (`/profile`, `/rig/x`, …) get `index.html`, never cached, so a deploy is
//! seen at once; any other page path gets it with 404 (the app shows Not Found); hashed assets under `/assets/` are cached for a year. Unknown `/_api/…`
//! paths get a JSON 404, never the app (a known one asked with another method, a 405). A file the build also wrote brotli-compressed
//! (`X.br`, see `frontend/scripts/precompress.mjs`) is sent that way to clients that accept
//! br.

use std::path::{Path, PathBuf};

use actix_files::NamedFile;
use actix_web::http::Method;
use actix_web::http::header::{
    self, AcceptEncoding, CacheControl, CacheDirective, ContentEncoding, Encoding,
};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, Responder, get, web};
use setupiq_auth::Account;
use setupiq_auth::service::accounts;
use setupiq_core::UserId;
use setupiq_core::media::{MediaKey, MediaStore};
use setupiq_core::{ApiError, Config, SetupId};
use setupiq_db::Db;

use crate::allowed_methods::AllowedMethods;

/// Where the built app lives.
#[derive(Debug, Clone)]
pub struct Frontend {
    pub dir: PathBuf,
}

const NOT_BUILT_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gaming Setup Analyzer</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;background:#0b0b12;color:#e7e7f0;padding:3rem">
<h1>SetupIQ</h1><p>The API is running. The web app has not been built yet: run <code>make build</code>.</p>
<p><a style="color:#a78bfa" href="/_api/docs/">API reference</a></p></body></html>"#;

/// Everything no route matched: the app's files, or `index.html` for client routes.
pub async fn fallback(
    req: HttpRequest,
    frontend: web::Data<Frontend>,
    allowed: web::Data<AllowedMethods>,
) -> HttpResponse {
    if req.path() == "/_api" || req.path().starts_with("/_api/") || req.path().starts_with("/media/") {
        // A route of ours asked with another method: 405 with what it takes.
        if let Some(refusal) = allowed.refusal(req.path()) {
            return refusal;
        }
        return HttpResponse::from_error(ApiError::not_found("Not found."));
    }
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        return HttpResponse::from_error(ApiError::not_found("Not found."));
    }
    if let Some(file) = static_file(&frontend.dir, req.path()) {
        let immutable = req.path().starts_with("/assets/");
        let brotli = brotli_sibling(&file);
        if let Ok(named) = open_static(&req, &file, brotli.as_deref()).await {
            let cache = if immutable {
                CacheControl(vec![
                    CacheDirective::Public,
                    CacheDirective::MaxAge(31_536_000),
                    CacheDirective::Extension("immutable".into(), None),
                ])
            } else {
                CacheControl(vec![CacheDirective::NoCache])
            };
            let mut response = named.customize().insert_header(cache);
            if brotli.is_some() {
                // Shared caches must keep the br and the plain bytes apart.
                response = response.insert_header((header::VARY, "Accept-Encoding"));
            }
            return response.respond_to(&req).map_into_boxed_body();
        }
    }
    let page = index_html(&frontend.dir).await;
    if is_client_route(req.path()) { page } else { not_found_page(page) }
}

/// The routes of the app's router (`frontend/src/app/router.tsx`), `:name` standing for
/// one segment. A path matching none gets the app with 404, so crawlers and link checkers
/// see the Not Found page the app shows for what it is. Kept equal to the router's list
/// by `the_client_routes_are_the_routers_own`.
const CLIENT_ROUTES: &[&str] = &[
    "/",
    "/about",
    "/tips",
    "/tips/:slug",
    "/how-we-score",
    "/terms",
    "/privacy-policy",
    "/privacy",
    "/impressum",
    "/affiliate-disclaimer",
    "/contact",
    "/profile",
    "/receipts/:reference",
    "/reset-password",
    "/verify-email",
    "/login",
    "/admin",
    "/community",
    "/community/setup/:setupId",
    "/notifications",
    "/unsubscribe",
    "/buy-credits",
    "/my-setups",
    "/my-posts",
    "/results",
    "/rigpage-config",
    "/user/:userId",
];

/// Whether the app's router has a page for the path (one trailing slash allowed, as the
/// router allows it).
fn is_client_route(path: &str) -> bool {
    let path = match path.strip_suffix('/') {
        Some(trimmed) if !trimmed.is_empty() => trimmed,
        _ => path,
    };
    CLIENT_ROUTES.iter().any(|route| route_matches(route, path))
}

/// Whether a path matches a route, segment by segment, `:name` matching any one segment.
fn route_matches(route: &str, path: &str) -> bool {
    let mut route_segments = route.split('/');
    let mut path_segments = path.split('/');
    loop {
        match (route_segments.next(), path_segments.next()) {
            (None, None) => return true,
            (Some(r), Some(p)) if r.starts_with(':') && !p.is_empty() => {}
            (Some(r), Some(p)) if r == p => {}
            _ => return false,
        }
    }
}

/// The app's page with status 404: the app shows its Not Found page for the path.
fn not_found_page(mut page: HttpResponse) -> HttpResponse {
    *page.status_mut() = actix_web::http::StatusCode::NOT_FOUND;
    page
}

/// `X.br` beside a file `X` of the build, if the build wrote one.
fn brotli_sibling(file: &Path) -> Option<PathBuf> {
    let mut name = file.file_name()?.to_os_string();
    name.push(".br");
    let sibling = file.with_file_name(name);
    sibling.is_file().then_some(sibling)
}

/// The file, or its brotli sibling when the client accepts br: named after the original,
/// so it keeps the original's Content-Type. Its Content-Encoding header makes the
/// `Compress` middleware leave it alone (no second compression).
async fn open_static(req: &HttpRequest, file: &Path, brotli: Option<&Path>) -> std::io::Result<NamedFile> {
    let accepts_brotli = req
        .get_header::<AcceptEncoding>()
        .and_then(|accept| accept.negotiate([Encoding::brotli()].iter()))
        .is_some_and(|chosen| chosen == Encoding::brotli());
    match brotli {
        Some(compressed) if accepts_brotli => {
            // Opened as `NamedFile::open_async` opens files (a plain open, then metadata).
            let compressed = std::fs::File::open(compressed)?;
            Ok(NamedFile::from_file(compressed, file)?.set_content_encoding(ContentEncoding::Brotli))
        }
        _ => NamedFile::open_async(file).await,
    }
}

async fn index_html(dir: &Path) -> HttpResponse {
    app_document(read_index(dir).await)
}

/// The app's `index.html`, or a note that it has not been built.
async fn read_index(dir: &Path) -> String {
    tokio::fs::read_to_string(dir.join("index.html")).await.unwrap_or_else(|_| NOT_BUILT_PAGE.to_owned())
}

/// An app document, never cached (a deploy is seen at once).
fn app_document(html: String) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header(CacheControl(vec![CacheDirective::NoCache]))
        .body(html)
}

/// A file of the build for a request path, if the path is plain and the file exists.
/// Only `[A-Za-z0-9._-]` segments not starting with a dot: no traversal, no hidden files.
fn static_file(dir: &Path, request_path: &str) -> Option<PathBuf> {
    let relative = request_path.trim_start_matches('/');
    if relative.is_empty() {
        return None;
    }
    let plain = relative.split('/').all(|segment| {
        !segment.is_empty()
            && !segment.starts_with('.')
            && segment.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    });
    let path = dir.join(relative);
    (plain && path.is_file()).then_some(path)
}

/// `/user/{id}`: the app, with the profile's title and Open Graph tags in the document
/// itself, since link previews (Discord, X, iMessage) do not run the app. An unknown user
/// gets the app as it is (it shows 'User Not Found').
#[get("/user/{id}")]
pub async fn user_profile_page(
    id: web::Path<String>,
    frontend: web::Data<Frontend>,
    db: web::Data<Db>,
    config: web::Data<Config>,
) -> HttpResponse {
    let html = read_index(&frontend.dir).await;
    let account = match id.parse::<i64>() {
        Ok(user_id) if user_id > 0 => {
            db.run(move |conn| accounts::find(conn, UserId(user_id))).await.ok().flatten()
        }
        _ => None,
    };
    let html = match account {
        Some(account) => with_preview(&html, &profile_preview(&account, &config.public_origin())),
        None => html,
    };
    app_document(html)
}

/// What a link preview shows of a page.
struct Preview {
    title: String,
    description: String,
    /// `profile`, `article`, …
    kind: &'static str,
    url: String,
    image: Option<String>,
    /// `summary` (a small square) or `summary_large_image` (a photo).
    card: &'static str,
}

fn absolute(path: &str, base_url: &str) -> String {
    if path.starts_with('/') { format!("{base_url}{path}") } else { path.to_owned() }
}

/// The profile's preview.
fn profile_preview(account: &Account, base_url: &str) -> Preview {
    let name = account.shown_name();
    Preview {
        title: format!("{name}'s Profile"),
        description: format!("{name} (@{}) on SetupIQ: their rated gaming setups.", account.username),
        kind: "profile",
        url: format!("{base_url}/user/{}", account.id),
        image: account.profile_picture.as_deref().map(|p| absolute(p, base_url)),
        card: "summary",
    }
}

/// The document with its `<title>` replaced by the page's, followed by the tags a link
/// preview reads. Every value is escaped.
fn with_preview(html: &str, preview: &Preview) -> String {
    let tags = maud::html! {
        title { (preview.title) }
        meta property="og:title" content=(preview.title);
        meta property="og:description" content=(preview.description);
        meta property="og:type" content=(preview.kind);
        meta property="og:url" content=(preview.url);
        @if let Some(image) = &preview.image { meta property="og:image" content=(image); }
        meta name="twitter:card" content=(preview.card);
        meta name="twitter:title" content=(preview.title);
    }
    .into_string();
    match (html.find("<title>"), html.find("</title>")) {
        (Some(start), Some(end)) if end > start => {
            format!("{}{tags}{}", &html[..start], &html[end + "</title>".len()..])
        }
        _ => html.replacen("</head>", &format!("{tags}</head>"), 1),
    }
}

/// `/community/setup/{id}`: the app, with the setup's title, photo and score in the document
/// for link previews. A setup a visitor may not see (hidden, gone) gets the app as it is.
#[get("/community/setup/{id}")]
pub async fn setup_page(
    id: web::Path<String>,
    frontend: web::Data<Frontend>,
    db: web::Data<Db>,
    config: web::Data<Config>,
) -> HttpResponse {
    let html = read_index(&frontend.dir).await;
    let setup = match id.parse::<i64>() {
        Ok(setup_id) if setup_id > 0 => db
            .run(move |conn| setupiq_community::service::feed::setup(conn, None, SetupId(setup_id)))
            .await
            .ok()
            .flatten(),
        _ => None,
    };
    let Some(setup) = setup else { return app_document(html) };
    let base_url = config.public_origin();
    let title = setup
        .text
        .title
        .clone()
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| "A gaming setup".to_owned());
    let by = if setup.uploader.display_name.trim().is_empty() {
        &setup.uploader.username
    } else {
        &setup.uploader.display_name
    };
    let score = setup
        .analysis
        .as_ref()
        .map(|a| format!(", SetupIQ Score {:.1}/10", a.overall_rating))
        .unwrap_or_default();
    let gear = if setup.gear.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = setup.gear.iter().map(|g| g.name.as_str()).collect();
        format!(" Gear: {}.", names.join(", "))
    };
    let preview = Preview {
        title: format!("{title} by {by} | SetupIQ Community"),
        description: format!(
            "{title} by {by}{score}, {} upvotes and {} comments on SetupIQ.{gear}",
            setup.score, setup.comment_count
        ),
        kind: "article",
        url: format!("{base_url}/community/setup/{}", setup.id),
        image: setup.images.first().map(|photo| absolute(&photo.image.url(), &base_url)),
        card: "summary_large_image",
    };
    let html = with_preview(&html, &preview);
    app_document(with_gear(&with_before_and_after(&html, &setup.images), &setup.gear))
}

/// The document with a post's before photo beside its first photo of the setup now, each
/// labelled, for readers without the app's script; no before photo, no change.
fn with_before_and_after(html: &str, images: &[setupiq_community::service::setups::SetupImage]) -> String {
    let before = images.iter().find(|i| i.is_before);
    let after = images.iter().find(|i| !i.is_before);
    let (Some(before), Some(after)) = (before, after) else { return html.to_owned() };
    let photos = maud::html! {
        noscript {
            section aria-label="Before and after" {
                h2 { "Before and after" }
                figure {
                    img src=(before.image.url()) alt="The setup before";
                    figcaption { "Before" }
                }
                figure {
                    img src=(after.image.url()) alt="The setup after";
                    figcaption { "After" }
                }
            }
        }
    }
    .into_string();
    before_body_end(html, &photos)
}

/// The document with the post's gear as a plain list for readers without the app's script
/// (crawlers, reading modes), each item with a link through its counted redirect. Every
/// value is escaped; no gear, no list.
fn with_gear(html: &str, gear: &[setupiq_community::service::gear::GearItem]) -> String {
    if gear.is_empty() {
        return html.to_owned();
    }
    let list = maud::html! {
        noscript {
            section aria-label="Gear in this setup" {
                h2 { "Gear in this setup" }
                ul {
                    @for item in gear {
                        li {
                            @if item.has_link {
                                a href=(format!("/go/gear/{}", item.id)) rel="nofollow sponsored noopener" { (item.name) }
                            } @else {
                                (item.name)
                            }
                        }
                    }
                }
            }
        }
    }
    .into_string();
    before_body_end(html, &list)
}

/// `html` with `markup` at the end of its body.
fn before_body_end(html: &str, markup: &str) -> String {
    match html.rfind("</body>") {
        Some(end) => format!("{}{markup}{}", &html[..end], &html[end..]),
        None => format!("{html}{markup}"),
    }
}

/// A stored upload, with its real content type. Keys are random and never rewritten,
/// so the response may be cached for good.
#[get("/media/{key:.*}")]
pub async fn media(key: web::Path<String>, store: web::Data<MediaStore>) -> Result<HttpResponse, ApiError> {
    let key = MediaKey::parse(&key).ok_or_else(|| ApiError::not_found("Not found."))?;
    let bytes = store.get(&key).await?.ok_or_else(|| ApiError::not_found("Not found."))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, key.kind().content_type()))
        .insert_header(CacheControl(vec![
            CacheDirective::Public,
            CacheDirective::MaxAge(31_536_000),
            CacheDirective::Extension("immutable".into(), None),
        ]))
        .body(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `path: '…'` entries of the app's router, as absolute paths (`index: true` is `/`,
    /// the catch-all `*` is no route).
    fn router_paths() -> Vec<String> {
        let router = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../frontend/src/app/router.tsx"
        ))
        .unwrap();
        let mut paths = vec!["/".to_owned()];
        for piece in router.split("path: '").skip(1) {
            let path = piece.split('\'').next().unwrap();
            if path != "*" {
                paths.push(format!("/{path}"));
            }
        }
        paths
    }

    #[test]
    fn the_client_routes_are_the_routers_own() {
        let mut ours: Vec<String> = CLIENT_ROUTES.iter().map(|r| (*r).to_owned()).collect();
        let mut theirs = router_paths();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "CLIENT_ROUTES must list frontend/src/app/router.tsx's routes");
    }

    #[test]
    fn a_path_is_a_client_route_only_if_a_route_matches_it() {
        for known in ["/", "/about", "/about/", "/tips/cable-management", "/user/7", "/community/setup/12"] {
            assert!(is_client_route(known), "{known}");
        }
        for unknown in ["/no/such/page", "/about/more", "/user", "/user/", "/community/setup", "/aboutx"] {
            assert!(!is_client_route(unknown), "{unknown}");
        }
    }

    #[test]
    fn only_plain_paths_map_to_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("assets")).unwrap();
        std::fs::write(dir.path().join("assets/app-1a2b.js"), "x").unwrap();
        std::fs::write(dir.path().join(".env"), "SECRET").unwrap();
        assert!(static_file(dir.path(), "/assets/app-1a2b.js").is_some());
        for bad in [
            "/",
            "/.env",
            "/assets/../.env",
            "/assets/%2e%2e/x",
            "/assets",
            "/assets//app-1a2b.js",
            "/profile",
        ] {
            assert!(static_file(dir.path(), bad).is_none(), "{bad}");
        }
    }
}
