//! The `setupiq` binary's library: configuration in, a running service out. It assembles
//! the domain crates' endpoints into one actix `App` with the cross-cutting middleware
//! (security headers, CSRF, body deadline, request ids and logging, metrics), generates the OpenAPI document, and serves
//! the single-page app and media. It holds no business rules.

pub mod allowed_methods;
pub mod app;
pub mod cli;
pub mod health;
pub mod media_sweep;
pub mod metrics;
pub mod middleware;
pub mod openapi;
pub mod report;
pub mod site;
pub mod spa;
pub mod telemetry;

pub use app::{AppState, api_doc, build_app};
