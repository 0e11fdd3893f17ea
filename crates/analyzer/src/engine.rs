//! The [`Engine`]: the configured analyzers, run in order.
//!
//! Every photo is screened first by the embedded models (not safe for work, or no desk gear
//! in it: refused before anything is charged), whichever analyzer rates it. With
//! `SETUPIQ_ANALYZER=openai` the provider rates it; when the provider fails, the embedded
//! analyzer answers and the result says so. Whatever produced a result, it is validated
//! against the one schema of [`crate::result`] before anyone sees it.

use std::sync::Arc;

use setupiq_core::error::chain;

use crate::local::LocalAnalyzer;
use crate::rating::{AnalysisInput, Analyzer, AnalyzerName, Rating, RatingError};
use crate::result::Assessment;

/// The configured analyzers; one per process, shared by every request.
#[derive(Clone)]
pub struct Engine {
    local: Arc<LocalAnalyzer>,
    remote: Option<Arc<dyn Analyzer>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("remote", &self.remote.as_ref().map(|r| r.name()))
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// The embedded analyzer alone (`SETUPIQ_ANALYZER=local`).
    pub fn local(local: Arc<LocalAnalyzer>) -> Self {
        Self { local, remote: None }
    }

    /// A provider first, the embedded analyzer when it fails.
    pub fn with_remote(local: Arc<LocalAnalyzer>, remote: Arc<dyn Analyzer>) -> Self {
        Self { local, remote: Some(remote) }
    }

    /// The engine `SETUPIQ_ANALYZER` selects (the models are loaded at first use or by
    /// [`LocalAnalyzer::preload`]).
    pub fn from_config(config: &setupiq_core::Config) -> Result<Self, crate::openai::OpenAiError> {
        let local = Arc::new(LocalAnalyzer::new(config.models_dir.clone()));
        Ok(match config.analyzer {
            setupiq_core::config::AnalyzerKind::Local => Self::local(local),
            setupiq_core::config::AnalyzerKind::OpenAi => {
                let remote = crate::openai::OpenAiAnalyzer::from_config(&config.openai)?;
                Self::with_remote(local, Arc::new(remote))
            }
        })
    }

    pub fn local_analyzer(&self) -> &Arc<LocalAnalyzer> {
        &self.local
    }

    /// Screens and rates `input`.
    pub async fn analyze(&self, input: AnalysisInput) -> Result<Rating, RatingError> {
        let screening = match &input {
            AnalysisInput::Image(image) => Some(self.local.screen(image.clone()).await?),
            AnalysisInput::Text(_) => None,
        };
        if let Some(remote) = &self.remote {
            match remote.analyze(input.clone()).await.and_then(|a| validated(a, remote.name())) {
                Ok(analysis) => return Ok(analysis),
                Err(RatingError::Refused(refusal)) => return Err(refusal.into()),
                Err(failure @ RatingError::Failed(_)) => {
                    let why = chain(&failure);
                    tracing::warn!(provider = remote.name().as_str(), %why, "provider failed; the embedded analyzer answers");
                }
            }
        }
        let assessment = match (input, screening) {
            (AnalysisInput::Image(_), Some(screening)) => self.local.assess_screened(screening).await?,
            (input, _) => self.local.analyze(input).await?,
        };
        validated(assessment, AnalyzerName::Local)
    }
}

fn validated(assessment: Assessment, analyzer: AnalyzerName) -> Result<Rating, RatingError> {
    assessment
        .validate()
        .map_err(|e| RatingError::Failed(format!("{} analyzer: {e}", analyzer.as_str()).into()))?;
    Ok(Rating { assessment, analyzer })
}
