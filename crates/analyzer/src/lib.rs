//! The analyzers: a photo or a description in, a validated [`result::Assessment`] out.
//! No database and no HTTP server: the `analysis` crate charges, saves and serves what
//! this crate rates, through the [`Engine`].
//!
//! What other crates use, and all they can:
//!
//! - [`Engine`]: the configured analyzers, run in order; [`LocalAnalyzer`], the embedded one,
//!   whose image threads and safety classifier are also the upload path's
//!   ([`setupiq_core::upload::Uploads`]);
//! - what an analyzer takes and answers ([`AnalysisInput`], [`Rating`], [`RatingError`],
//!   [`Refusal`]) and the [`Analyzer`] trait;
//! - [`pipeline`]: the upload (data URL -> upright, fitted, metadata-free JPEG + thumbnail);
//! - [`result`]: the one result schema every analyzer's answer is validated against;
//! - [`voice`]: a result told as a roast or as coaching, from the same findings; [`words`]:
//!   the small pieces of English its sentences are made of; [`text::assess`]: the text
//!   rubric, which needs no models (test fixtures rate descriptions with it).
//!
//! The rest is the crate's own (`pub(crate)`): `rating` is the bottom (it names no
//! analyzer), `engine` the top; `local` (the default, offline) screens a photo with the
//! `safety` classifier, the COCO `detector` and the `scene` classifier (all on the ONNX
//! `runtime`), then rates it with the `vision` rubric, and rates descriptions with the `text`
//! lexicon; `openai` asks any OpenAI-compatible provider. The crate's examples, benches and
//! integration tests reach those modules as `setupiq_analyzer::internals::*`, which only its
//! `internals` feature compiles.

pub(crate) mod detector;
pub(crate) mod engine;
pub(crate) mod local;
pub(crate) mod openai;
pub mod pipeline;
pub(crate) mod rating;
pub mod result;
pub(crate) mod runtime;
pub(crate) mod safety;
pub(crate) mod scene;
pub mod text;
pub(crate) mod vision;
pub mod voice;
pub mod words;

pub use engine::Engine;
pub use local::{LocalAnalyzer, ModelError};
pub use openai::OpenAiError;
pub use pipeline::{ImageRejection, PreparedImage};
pub use rating::{AnalysisInput, Analyzer, AnalyzerName, Rating, RatingError, Refusal};

/// The crate's own modules, for this crate's examples, benches and tests only: no
/// stability. Their `Cargo.toml` turns the `internals` feature on through a dev-dependency
/// of the crate on itself; nothing else should.
#[cfg(feature = "internals")]
pub mod internals {
    pub mod detector {
        pub use crate::detector::*;
    }
    pub mod local {
        pub use crate::local::*;
    }
    pub mod openai {
        pub use crate::openai::*;
    }
    pub mod runtime {
        pub use crate::runtime::*;
    }
    pub mod safety {
        pub use crate::safety::*;
    }
    pub mod scene {
        pub use crate::scene::*;
    }
    pub mod vision {
        pub use crate::vision::*;
    }
}
