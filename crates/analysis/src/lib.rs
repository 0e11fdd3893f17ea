//! Analyses as a product: who may analyse (credits, Pro, the anonymous free trial), the
//! analyse flow, saving a delivered result with its credit in one transaction, and the
//! history. The rating itself is `setupiq_analyzer`'s, reached through its `Engine`.
//!
//! - [`service`]: the rules over a connection, and [`service::analyze`], the one flow that
//!   ties them to the analyzer and the media store;
//! - [`share`]: a shared analysis's public page and card image;
//! - [`dto`] and [`http`]: the endpoints.

pub mod dto;
pub mod error;
pub mod http;
mod models;
mod repo;
pub mod service;
pub mod share;

pub use error::AnalysisError;
