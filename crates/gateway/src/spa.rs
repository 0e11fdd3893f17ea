//! Serving the built single-page app (`frontend/dist`) and the media store.
//!
//! Client routes (`/profile`, `/rig/x`, …) get `index.html`, never cached, so a deploy is
//! seen at once; hashed assets under `/assets/` are cached for a year. Unknown `/_api/…`
//! paths get a JSON 404, never the app.

use std::path::{Path, PathBuf};

use actix_files::NamedFile;
use actix_web::http::Method;
use actix_web::http::header::{self, CacheControl, CacheDirective};
use actix_web::{HttpRequest, HttpResponse, Responder, get, web};
use setupiq_core::ApiError;
use setupiq_core::media::{MediaKey, MediaStore};

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
pub async fn fallback(req: HttpRequest, frontend: web::Data<Frontend>) -> HttpResponse {
    if req.path() == "/_api" || req.path().starts_with("/_api/") || req.path().starts_with("/media/") {
        return HttpResponse::from_error(ApiError::not_found("Not found."));
    }
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        return HttpResponse::from_error(ApiError::not_found("Not found."));
    }
    if let Some(file) = static_file(&frontend.dir, req.path()) {
        let immutable = req.path().starts_with("/assets/");
        if let Ok(named) = NamedFile::open_async(&file).await {
            let cache = if immutable {
                CacheControl(vec![
                    CacheDirective::Public,
                    CacheDirective::MaxAge(31_536_000),
                    CacheDirective::Extension("immutable".into(), None),
                ])
            } else {
                CacheControl(vec![CacheDirective::NoCache])
            };
            return named.customize().insert_header(cache).respond_to(&req).map_into_boxed_body();
        }
    }
    index_html(&frontend.dir).await
}

async fn index_html(dir: &Path) -> HttpResponse {
    let html =
        tokio::fs::read_to_string(dir.join("index.html")).await.unwrap_or_else(|_| NOT_BUILT_PAGE.to_owned());
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

/// A stored upload, with its real content type. Keys are random and never rewritten,
/// so the response may be cached for good.
#[get("/media/{key:.*}")]
pub async fn media(key: web::Path<String>, store: web::Data<MediaStore>) -> Result<HttpResponse, ApiError> {
    let key = MediaKey::parse(&key).ok_or_else(|| ApiError::not_found("Not found."))?;
    let bytes = store
        .get(&key)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::not_found("Not found."))?;
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
