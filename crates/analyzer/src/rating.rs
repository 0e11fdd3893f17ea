//! The bottom of the crate: what an analyzer takes ([`AnalysisInput`]), what it answers
//! ([`Rating`], or a [`RatingError`]: a [`Refusal`] the user reads, or a failure), and the
//! [`Analyzer`] trait the embedded analyzer and the provider client implement. It names no
//! analyzer, so every module can use it; [`crate::engine`] sits on top.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use setupiq_core::error::Cause;
use utoipa::ToSchema;

use crate::pipeline::PreparedImage;
use crate::result::Assessment;

/// What is analysed: a prepared photo, or a description.
#[derive(Debug, Clone)]
pub enum AnalysisInput {
    Image(Arc<PreparedImage>),
    Text(Arc<str>),
}

/// Which analyzer produced a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnalyzerName {
    /// The embedded, offline rubric.
    Local,
    /// An OpenAI-compatible provider.
    Openai,
}

impl AnalyzerName {
    pub fn as_str(self) -> &'static str {
        match self {
            AnalyzerName::Local => "local",
            AnalyzerName::Openai => "openai",
        }
    }
}

/// Why an input is not analysed at all; the message is what the user reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error(
        "This photo doesn't look like a desk or gaming setup. Please upload a photo of your desk with \
         its screen in view."
    )]
    NotASetup,
    #[error(
        "This looks like a screenshot or an illustration, not a photo of a real setup. Please upload \
         a photo of your desk."
    )]
    NotAPhoto,
    #[error("This image can't be analyzed: it appears to contain content that isn't safe for work.")]
    NotSafeForWork,
    #[error(
        "This description doesn't mention any desk or gaming gear. Describe your monitor, desk, chair, \
         lighting or cables."
    )]
    NotASetupDescription,
}

#[derive(Debug, thiserror::Error)]
pub enum RatingError {
    /// The input is not something we rate (nothing is charged).
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The analyzer could not produce a result (models missing, provider down, bad answer):
    /// the cause, for the log (a provider's message has its API key scrubbed).
    #[error("analysis failed")]
    Failed(#[source] Cause),
}

/// Something that rates setups. Implementations: [`crate::local::LocalAnalyzer`] and
/// [`crate::openai::OpenAiAnalyzer`].
pub trait Analyzer: Send + Sync {
    fn name(&self) -> AnalyzerName;

    /// Rates a setup. A photo has already passed screening.
    fn analyze(&self, input: AnalysisInput) -> BoxFuture<'_, Result<Assessment, RatingError>>;
}

/// A validated result and the analyzer that produced it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    pub assessment: Assessment,
    pub analyzer: AnalyzerName,
}
