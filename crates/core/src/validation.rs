//! Request validation: `validator` rules on the DTOs, turned into our error format with
//! the specification's messages, plus the few checks the derive cannot express.
//!
//! Handlers take [`ValidJson`] / [`ValidQuery`] instead of `web::Json` / `web::Query`: the
//! body or query is parsed and its rules checked before the handler runs, so no handler
//! can forget to validate.

use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use serde::de::DeserializeOwned;
use validator::{Validate, ValidateEmail, ValidationErrors, ValidationErrorsKind};

use crate::error::{ApiError, Issue};

/// A JSON body that parsed and passed its `#[validate]` rules (else a 400 with every issue,
/// in the error format of [`validate`]). The `web::JsonConfig` of the scope still applies
/// (size limit, error handler).
#[derive(Debug)]
pub struct ValidJson<T>(pub T);

impl<T> ValidJson<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: DeserializeOwned + Validate + 'static> FromRequest for ValidJson<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json = web::Json::<T>::from_request(req, payload);
        Box::pin(async move {
            let value = json.await?.into_inner();
            validate(&value)?;
            Ok(Self(value))
        })
    }
}

/// A query string that parsed and passed its `#[validate]` rules.
#[derive(Debug)]
pub struct ValidQuery<T>(pub T);

impl<T> ValidQuery<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: DeserializeOwned + Validate + 'static> FromRequest for ValidQuery<T> {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let checked = web::Query::<T>::from_query(req.query_string())
            .map_err(|e| crate::error::query_error_handler(e, req))
            .and_then(|query| {
                let value = query.into_inner();
                validate(&value)?;
                Ok(Self(value))
            });
        std::future::ready(checked)
    }
}

/// Runs a DTO's `#[validate]` rules; on failure a 400 with every issue, the fields in a
/// stable (alphabetical) order, their rules in declaration order.
pub fn validate<T: Validate>(value: &T) -> Result<(), ApiError> {
    value.validate().map_err(|errors| ApiError::validation(issues(&errors)))
}

/// Flattens `validator`'s nested errors into `path`/`message` pairs with camelCase paths.
pub fn issues(errors: &ValidationErrors) -> Vec<Issue> {
    let mut out = Vec::new();
    collect(errors, "", &mut out);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn collect(errors: &ValidationErrors, prefix: &str, out: &mut Vec<Issue>) {
    for (field, kind) in errors.errors() {
        let path =
            if prefix.is_empty() { camel_case(field) } else { format!("{prefix}.{}", camel_case(field)) };
        match kind {
            ValidationErrorsKind::Field(list) => out.extend(list.iter().map(|e| Issue {
                path: path.clone(),
                message:
                    e.message.as_ref().map_or_else(|| format!("{path} is invalid."), ToString::to_string),
            })),
            ValidationErrorsKind::Struct(inner) => collect(inner, &path, out),
            ValidationErrorsKind::List(items) => {
                for (index, inner) in items {
                    collect(inner, &format!("{path}.{index}"), out);
                }
            }
        }
    }
}

fn camel_case(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut upper = false;
    for c in field.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// A syntactically valid e-mail address (HTML5 rules, as `validator` implements them).
pub fn is_email(value: &str) -> bool {
    value.validate_email()
}

/// The canonical form e-mails are stored and compared in.
pub fn normalize_email(value: &str) -> String {
    value.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Validate)]
    struct Form {
        #[validate(email(message = "Email is required"))]
        email: String,
        #[validate(length(min = 1, message = "Name is required"))]
        display_name: String,
    }

    #[test]
    fn issues_use_camel_case_paths_and_the_given_messages() {
        let err = validate(&Form { email: "nope".into(), display_name: String::new() }).unwrap_err();
        let paths: Vec<_> = err.issues().iter().map(|i| (i.path.as_str(), i.message.as_str())).collect();
        assert_eq!(paths, vec![("displayName", "Name is required"), ("email", "Email is required")]);
    }

    #[test]
    fn emails() {
        for good in ["a@b.co", "first.last+tag@example.com"] {
            assert!(is_email(good), "{good}");
        }
        for bad in ["", "plain", "a@", "@b.com", "a b@c.com"] {
            assert!(!is_email(bad), "{bad}");
        }
        assert_eq!(normalize_email("  Gamer@Example.COM "), "gamer@example.com");
    }
}
