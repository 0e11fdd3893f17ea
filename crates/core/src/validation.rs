//! Request validation: `validator` rules on the DTOs, turned into our error format with
//! the specification's messages, plus the few checks the derive cannot express.
//!
//! Handlers take [`ValidJson`] / [`ValidQuery`] instead of `web::Json` / `web::Query`: the
//! body or query is parsed and its rules checked before the handler runs, so no handler
//! can forget to validate. Both refuse control characters in any text first (see
//! [`CONTROL_CHARACTERS`]), the one place that keeps them out of every field on both
//! databases.

use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use serde::de::DeserializeOwned;
use serde_json::Value;
use validator::{Validate, ValidateEmail, ValidationErrors, ValidationErrorsKind};

use crate::error::{ApiError, Issue};

/// What the user reads when a text carries a character nobody types.
pub const CONTROL_CHARACTERS: &str = "Text fields must not contain control characters.";

/// Whether `text` holds a character a person never types into a form: a control character
/// other than tab, line feed and carriage return (NUL, which PostgreSQL cannot store in
/// text while SQLite can, escape, DEL, the C1 range…).
pub fn has_control_characters(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

/// One issue per text (object key or string value) of a JSON document that holds control
/// characters; `path` is the field as sent (`profile.displayName`, `images.0`).
pub fn control_character_issues(value: &Value) -> Vec<Issue> {
    fn walk(value: &Value, path: &str, out: &mut Vec<Issue>) {
        let issue = |path: &str| Issue { path: path.to_owned(), message: CONTROL_CHARACTERS.to_owned() };
        match value {
            Value::String(text) if has_control_characters(text) => out.push(issue(path)),
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    walk(item, &join(path, &index.to_string()), out);
                }
            }
            Value::Object(fields) => {
                for (key, item) in fields {
                    let field = join(path, key);
                    if has_control_characters(key) {
                        out.push(issue(&field));
                    }
                    walk(item, &field, out);
                }
            }
            _ => {}
        }
    }
    fn join(path: &str, key: &str) -> String {
        if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") }
    }
    let mut out = Vec::new();
    walk(value, "", &mut out);
    out
}

/// JSON has one number type: `1.0` is the integer 1 to JavaScript and to the OpenAPI
/// `integer` type, but serde refuses it for an `i64`. Numbers with an integral value (within
/// the range a double holds exactly) become integers, so every integer field takes them;
/// float fields take integers anyway.
pub fn integral_numbers_as_integers(value: &mut Value) {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    match value {
        Value::Number(number) if !number.is_i64() && !number.is_u64() => {
            if let Some(float) = number.as_f64().filter(|f| f.fract() == 0.0 && f.abs() <= EXACT) {
                // Exact: an integral double within 2^53 converts without loss.
                #[allow(clippy::cast_possible_truncation)]
                let integer = float as i64;
                *value = Value::from(integer);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_numbers_as_integers),
        Value::Object(fields) => fields.values_mut().for_each(integral_numbers_as_integers),
        _ => {}
    }
}

/// A JSON body that parsed, holds no control characters and passed its `#[validate]` rules
/// (else a 400 with every issue, in the error format of [`validate`]). The
/// `web::JsonConfig` of the scope still applies (size limit, error handler).
#[derive(Debug)]
pub struct ValidJson<T>(pub T);

impl<T> ValidJson<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for ValidJson<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + Validate + 'static> FromRequest for ValidJson<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json = web::Json::<Value>::from_request(req, payload);
        Box::pin(async move {
            let mut document = json.await?.into_inner();
            integral_numbers_as_integers(&mut document);
            let issues = control_character_issues(&document);
            if !issues.is_empty() {
                return Err(ApiError::validation(issues).into());
            }
            // The error names the field it failed at (`rigpageTheme: unknown variant …`).
            let value: T = serde_path_to_error::deserialize(document)
                .map_err(|e| ApiError::bad_request(format!("Invalid request body: {e}")))?;
            validate(&value)?;
            Ok(Self(value))
        })
    }
}

/// A query string that parsed, holds no control characters and passed its `#[validate]`
/// rules.
#[derive(Debug)]
pub struct ValidQuery<T>(pub T);

impl<T> ValidQuery<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for ValidQuery<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + Validate + 'static> FromRequest for ValidQuery<T> {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let controls: Vec<Issue> = url::form_urlencoded::parse(req.query_string().as_bytes())
            .filter(|(key, value)| has_control_characters(key) || has_control_characters(value))
            .map(|(key, _)| Issue { path: key.into_owned(), message: CONTROL_CHARACTERS.to_owned() })
            .collect();
        if !controls.is_empty() {
            return std::future::ready(Err(ApiError::validation(controls).into()));
        }
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
    fn numbers_with_an_integral_value_become_integers_and_others_stay() {
        let mut body = serde_json::json!({"id": 1.0, "ids": [2.0, -3.0, 4], "nested": {"n": 1e3}, "ratio": 0.5, "huge": 1e300});
        integral_numbers_as_integers(&mut body);
        assert_eq!(
            body,
            serde_json::json!({"id": 1, "ids": [2, -3, 4], "nested": {"n": 1000}, "ratio": 0.5, "huge": 1e300})
        );
        assert!(body["id"].is_i64() && body["nested"]["n"].is_i64() && body["huge"].is_f64());
    }

    #[test]
    fn control_characters_are_found_in_every_text_but_tabs_and_new_lines_are_typed() {
        for bad in ["a\u{0}b", "\u{1b}[31m", "x\u{7f}", "\u{85}", "\u{8}"] {
            assert!(has_control_characters(bad), "{bad:?}");
        }
        for good in ["", "Line one\nline two\r\n\tindented", "Pixel Pete 🎮", "Zoë ß €"] {
            assert!(!has_control_characters(good), "{good:?}");
        }
        let body = serde_json::json!({
            "name": "ok",
            "profile": {"displayName": "Nul\u{0}"},
            "images": ["fine", "bell\u{7}"],
            "we\u{0}ird": 1,
            "count": 3,
        });
        let paths: Vec<String> = control_character_issues(&body).into_iter().map(|i| i.path).collect();
        assert_eq!(paths, vec!["images.1", "profile.displayName", "we\u{0}ird"]);
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
