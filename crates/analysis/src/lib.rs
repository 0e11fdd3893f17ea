//! Setup analysis: a photo or a description in, a validated [`result::Assessment`] out,
//! saved with its images and paid for with a credit in one transaction.
//!
//! - [`pipeline`]: the upload (data URL -> upright, fitted, metadata-free JPEG + thumbnail);
//! - [`engine`]: the [`engine::Analyzer`]s and the [`engine::Engine`] that picks one;
//!   [`local`] (the default, offline) screens a photo with the [`safety`] classifier and the
//!   COCO [`detector`], then rates it with the [`vision`] rubric, and rates descriptions with
//!   the [`text`] lexicon; [`openai`] asks any OpenAI-compatible provider;
//! - [`service`] (rules over a connection), [`http`] (the endpoints).

pub mod detector;
pub mod engine;
pub mod local;
pub mod openai;
pub mod pipeline;
pub mod result;
pub mod safety;
pub mod text;
pub mod vision;

pub mod dto;
pub mod error;
pub mod http;
mod models;
mod repo;
pub mod service;

pub use engine::{Analysis, AnalysisInput, Analyzer, AnalyzerName, Engine};
pub use error::AnalysisError;
