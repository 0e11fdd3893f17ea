//! The analyzers: a photo or a description in, a validated [`result::Assessment`] out.
//! No database and no HTTP server: the `analysis` crate charges, saves and serves what
//! this crate rates, through the [`Engine`].
//!
//! - [`pipeline`]: the upload (data URL -> upright, fitted, metadata-free JPEG + thumbnail);
//! - [`rating`]: what an analyzer takes and answers, and the [`Analyzer`] trait (the bottom:
//!   it names no analyzer); [`engine`]: the [`Engine`] that runs the configured ones;
//!   [`local`] (the default, offline) screens a photo with the [`safety`] classifier and the
//!   COCO [`detector`], then rates it with the [`vision`] rubric, and rates descriptions with
//!   the [`text`] lexicon; [`openai`] asks any OpenAI-compatible provider;
//! - [`result`]: the one result schema every analyzer's answer is validated against;
//! - [`voice`]: a result told as a roast or as coaching, from the same findings.

pub mod detector;
pub mod engine;
pub mod local;
pub mod openai;
pub mod pipeline;
pub mod rating;
pub mod result;
pub mod runtime;
pub mod safety;
pub mod scene;
pub mod text;
pub mod vision;
pub mod voice;
pub mod words;

pub use engine::Engine;
pub use pipeline::{ImageRejection, PreparedImage};
pub use rating::{AnalysisInput, Analyzer, AnalyzerName, Rating, RatingError, Refusal};
