//! Which methods each API path takes, read from the OpenAPI document the routes generate, so
//! that a known path asked with another method answers 405 with `Allow` (RFC 9110 §15.5.6)
//! rather than the 404 of a path that does not exist.

use actix_web::http::header;
use actix_web::http::header::HeaderValue;
use actix_web::{HttpResponse, ResponseError};
use setupiq_core::{ApiError, ErrorCode};
use utoipa::openapi::{OpenApi, PathItem};

/// Every documented API path (`/_api/analyses/{id}`) with the methods it answers.
#[derive(Debug, Clone, Default)]
pub struct AllowedMethods {
    routes: Vec<(Vec<Segment>, Vec<&'static str>)>,
}

/// One part of a path template: a literal, or a `{parameter}` that matches any one segment.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Literal(String),
    Parameter,
}

/// The methods in the order `Allow` lists them, and whether a path's item documents each.
type Documents = fn(&PathItem) -> bool;
const METHODS: [(&str, Documents); 7] = [
    ("GET", |item| item.get.is_some()),
    ("HEAD", |item| item.head.is_some()),
    ("POST", |item| item.post.is_some()),
    ("PUT", |item| item.put.is_some()),
    ("PATCH", |item| item.patch.is_some()),
    ("DELETE", |item| item.delete.is_some()),
    ("OPTIONS", |item| item.options.is_some()),
];

impl AllowedMethods {
    pub fn from_openapi(doc: &OpenApi) -> Self {
        let routes = doc
            .paths
            .paths
            .iter()
            .map(|(template, item)| {
                let segments = template
                    .split('/')
                    .map(|part| {
                        if part.starts_with('{') && part.ends_with('}') {
                            Segment::Parameter
                        } else {
                            Segment::Literal(part.to_owned())
                        }
                    })
                    .collect();
                let methods =
                    METHODS.iter().filter(|(_, documents)| documents(item)).map(|(name, _)| *name).collect();
                (segments, methods)
            })
            .collect();
        Self { routes }
    }

    /// The methods `path` answers, when it is a documented path (joined for `Allow`).
    pub fn of(&self, path: &str) -> Option<String> {
        let parts: Vec<&str> = path.split('/').collect();
        let mut allowed: Vec<&str> = self
            .routes
            .iter()
            .filter(|(segments, _)| {
                segments.len() == parts.len()
                    && segments.iter().zip(&parts).all(|(segment, part)| match segment {
                        Segment::Literal(literal) => literal == part,
                        Segment::Parameter => !part.is_empty(),
                    })
            })
            .flat_map(|(_, methods)| methods.iter().copied())
            .collect();
        allowed.sort_unstable_by_key(|m| METHODS.iter().position(|(name, _)| name == m));
        allowed.dedup();
        (!allowed.is_empty()).then(|| allowed.join(", "))
    }

    /// The 405 for a documented path asked with another method, or `None` for a path that is
    /// not one of ours.
    pub fn refusal(&self, path: &str) -> Option<HttpResponse> {
        self.of(path).map(|allow| method_not_allowed(&allow))
    }

    /// The 405 for a `TRACE` to any path: an API path lists what it takes, anything else
    /// (pages, static files, unknown paths) what the site's pages take.
    pub fn trace_refusal(&self, path: &str) -> HttpResponse {
        method_not_allowed(&self.of(path).unwrap_or_else(|| PAGE_METHODS.to_owned()))
    }
}

/// What pages, static files and media answer.
const PAGE_METHODS: &str = "GET, HEAD";

/// 405 with `Allow` (RFC 9110 §15.5.6 requires it).
fn method_not_allowed(allow: &str) -> HttpResponse {
    let message = format!("This address does not take that method. It takes: {allow}.");
    let mut response =
        ApiError::new(actix_web::http::StatusCode::METHOD_NOT_ALLOWED, ErrorCode::MethodNotAllowed, message)
            .error_response();
    if let Ok(value) = HeaderValue::from_str(allow) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_one_segment_per_parameter() {
        let doc = crate::app::api_doc();
        let allowed = AllowedMethods::from_openapi(&doc);
        assert_eq!(allowed.of("/_api/analyses/12/share").as_deref(), Some("POST"));
        assert_eq!(allowed.of("/_api/analyses/12").as_deref(), Some("GET"));
        assert_eq!(allowed.of("/_api/analyses//share"), None);
        assert_eq!(allowed.of("/_api/analyses/12/share/more"), None);
        assert_eq!(allowed.of("/_api/no-such-thing"), None);
    }
}
