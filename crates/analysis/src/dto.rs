//! Request and response bodies of the analysis endpoints.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use validator::{Validate, ValidationError};

use crate::service::analyze::Delivered;
use crate::service::suggestions::Suggestion;
use crate::service::{AnalysisStatus, InputType, Progress, SavedAnalysis};
use setupiq_analyzer::AnalyzerName;
use setupiq_analyzer::result::{CableInventory, Category, Confidence, Points, percentile_text};
use setupiq_analyzer::voice::{ChangeLines, Voices};
use setupiq_core::media::MediaKey;

/// Shortest description accepted (spec 000 §5).
pub const MIN_DESCRIPTION: usize = 20;
/// Longest description accepted.
pub const MAX_DESCRIPTION: usize = 5000;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AnalyzeRequest {
    /// `image`: `value` is a `data:image/...;base64,` URL (JPEG, PNG or WebP, at most 10 MB);
    /// `text`: `value` describes the setup (at least 20 characters).
    #[serde(rename = "type")]
    pub input_type: InputType,
    #[schema(
        pattern = "^data:image/[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$|^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]{18,}[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    )]
    pub value: String,
    /// An optional note that came with a photo; kept with the saved analysis.
    #[schema(
        max_length = 5000,
        pattern = "^[ \\t\\n\\r]*$|^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]{18,}[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    )]
    pub description: Option<String>,
    /// Re-rate this setup: one of the caller's own analyses, which this one is compared with
    /// and linked to (`progress` in the answer). Anyone else's, or one that does not exist, is
    /// 404 before any work; an anonymous visitor has none.
    pub previous_analysis_id: Option<i64>,
}

impl Validate for AnalyzeRequest {
    fn validate(&self) -> Result<(), validator::ValidationErrors> {
        let mut errors = validator::ValidationErrors::new();
        let error = |message: &'static str| ValidationError::new("value").with_message(message.into());
        match self.input_type {
            InputType::Text => {
                let length = self.value.trim().chars().count();
                if length < MIN_DESCRIPTION {
                    errors.add("value", error("Please describe your setup in at least 20 characters."));
                } else if length > MAX_DESCRIPTION {
                    errors.add("value", error("Please keep your description under 5000 characters."));
                }
            }
            InputType::Image if !self.value.starts_with("data:image/") => {
                errors.add("value", error("Invalid image format."));
            }
            InputType::Image => {}
        }
        // The optional note with a photo: absent or blank is fine; otherwise it says something.
        let note = self.description.as_deref().map(str::trim).filter(|d| !d.is_empty());
        if note.is_some_and(|d| d.chars().count() < MIN_DESCRIPTION) {
            errors.add("description", error("Please describe your setup in at least 20 characters."));
        } else if note.is_some_and(|d| d.chars().count() > MAX_DESCRIPTION) {
            errors.add("description", error("Please keep your description under 5000 characters."));
        }
        if errors.is_empty() { Ok(()) } else { Err(errors) }
    }
}

/// One category's score as the results page shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryRatingDto {
    pub category: Category,
    /// 1 to 10 in steps of 0.5 (`6.5/10`; a whole score is written without a decimal, `7`);
    /// `null` when the photo or description doesn't show the category at all (no chair in
    /// view): the page shows `-/10`, and the overall score leaves it out.
    #[schema(value_type = Option<f64>, minimum = 1, maximum = 10, multiple_of = 0.5)]
    pub score: Option<Points>,
    /// What was seen, or why the category can't be judged.
    pub comment: String,
    /// e.g. "Top 30%"; `null` with the score.
    pub percentile: Option<String>,
    /// How firmly the score rests on what was seen (absent when the analyzer can't tell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
}

/// A complete analysis result.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisResult {
    /// The saved analysis (signed-in users); absent for an anonymous trial.
    pub analysis_id: Option<i64>,
    /// The SetupIQ Score, 0 to 10, one decimal.
    pub overall_score: f64,
    pub summary: String,
    /// The kind of setup, e.g. "RGB Gaming Battlestation".
    pub category: String,
    /// The six categories, in the page's order.
    pub category_ratings: Vec<CategoryRatingDto>,
    /// Weakest categories first, best value first.
    pub suggestions: Vec<Suggestion>,
    pub cable_inventory: CableInventory,
    /// Which analyzer produced the result.
    pub analyzer: AnalyzerName,
    /// The analysed photo as stored (saved image analyses).
    pub image_url: Option<String>,
    pub thumbnail_url: Option<String>,
    pub created_at: DateTime<Utc>,
    /// The same result as a roast and as coaching (the scores are the same in every voice;
    /// Honest is `summary` and the categories' comments).
    pub voices: Voices,
    /// A re-rating's comparison with the analysis it re-rates, as it was when delivered;
    /// absent for a first rating.
    pub progress: Option<ProgressDto>,
}

/// What changed since the analysis a re-rating was made from.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgressDto {
    /// The analysis re-rated (it may have been deleted since: the numbers stay).
    pub previous_analysis_id: i64,
    /// Its SetupIQ Score, one decimal.
    pub previous_overall_score: f64,
    /// The SetupIQ Score now minus then, one decimal (negative when it fell).
    pub overall_delta: f64,
    /// Every category seen both times, in the page's order; a category unseen either time
    /// (`-/10`) has none.
    pub category_deltas: Vec<CategoryDeltaDto>,
    /// The earlier analysis's suggestions whose category rose by at least one point.
    pub followed_suggestions: Vec<FollowedSuggestionDto>,
    /// One line on the change in each voice.
    pub lines: ChangeLines,
    /// What the earlier analysis was made from, while it exists (`null` once deleted).
    pub previous_input_type: Option<InputType>,
    /// Its photo (image analyses), while it exists.
    pub previous_image_url: Option<String>,
    pub previous_thumbnail_url: Option<String>,
    /// Its description (or the note sent with its photo), while it exists.
    pub previous_description: Option<String>,
}

/// One category's score before and now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryDeltaDto {
    pub category: Category,
    #[schema(value_type = f64, minimum = 1, maximum = 10, multiple_of = 0.5)]
    pub from: Points,
    #[schema(value_type = f64, minimum = 1, maximum = 10, multiple_of = 0.5)]
    pub to: Points,
}

/// A suggestion of the earlier analysis that was followed.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowedSuggestionDto {
    pub category: Category,
    pub title: String,
}

impl From<&Progress> for ProgressDto {
    fn from(progress: &Progress) -> Self {
        let previous = progress.previous.as_ref();
        let url = |key: Option<&String>| key.and_then(|k| MediaKey::parse(k)).map(|k| k.url());
        Self {
            previous_analysis_id: progress.previous_analysis_id.0,
            previous_overall_score: progress.previous_overall_score,
            overall_delta: progress.overall_delta,
            category_deltas: progress
                .category_deltas
                .iter()
                .map(|d| CategoryDeltaDto { category: d.category, from: d.from, to: d.to })
                .collect(),
            followed_suggestions: progress
                .followed_suggestions
                .iter()
                .map(|f| FollowedSuggestionDto { category: f.category, title: f.title.clone() })
                .collect(),
            lines: progress.lines.clone(),
            previous_input_type: previous.map(|p| p.input_type),
            previous_image_url: url(previous.and_then(|p| p.image_key.as_ref())),
            previous_thumbnail_url: url(previous.and_then(|p| p.thumbnail_key.as_ref())),
            previous_description: previous.and_then(|p| p.input_text.clone()),
        }
    }
}

/// The answer to an analysis request.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalyzeResponse {
    #[serde(flatten)]
    pub result: AnalysisResult,
    /// The balance after this analysis (signed-in users).
    pub credits_remaining: Option<i32>,
    /// Whether this was an anonymous visitor's one free analysis.
    pub free_trial: bool,
}

/// A saved analysis in the history.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SavedAnalysisDto {
    pub id: i64,
    pub input_type: InputType,
    /// The photo's URL (image analyses) or the description (text analyses).
    pub input_data: String,
    pub thumbnail_url: Option<String>,
    /// The SetupIQ Score, one decimal.
    pub overall_rating: f64,
    /// The suggestions' titles.
    pub improvement_suggestions: Vec<String>,
    pub status: AnalysisStatus,
    pub created_at: DateTime<Utc>,
    pub result: AnalysisResult,
    /// `/share/{token}` while the owner shares it (`POST /_api/analyses/{id}/share`).
    pub share_path: Option<String>,
    /// The analysis this one re-rates, while it exists (a chain: follow it back).
    pub previous_analysis_id: Option<i64>,
}

impl From<SavedAnalysis> for SavedAnalysisDto {
    fn from(saved: SavedAnalysis) -> Self {
        let input_data = match saved.input_type {
            InputType::Image => saved.image.as_ref().map(|k| k.url()).unwrap_or_default(),
            InputType::Text => saved.input_text.clone().unwrap_or_default(),
        };
        Self {
            id: saved.id.0,
            input_type: saved.input_type,
            input_data,
            thumbnail_url: saved.thumbnail.as_ref().map(|k| k.url()),
            overall_rating: saved.report.assessment.overall_score,
            improvement_suggestions: saved.report.suggestions.iter().map(|s| s.title.clone()).collect(),
            status: saved.status,
            created_at: saved.created_at,
            result: AnalysisResult::from(&saved),
            share_path: saved.share_token.as_ref().map(|token| format!("/share/{token}")),
            previous_analysis_id: saved.previous_analysis_id.map(|id| id.0),
        }
    }
}

impl From<&SavedAnalysis> for AnalysisResult {
    fn from(saved: &SavedAnalysis) -> Self {
        let mut result = AnalysisResult::new(&saved.report, saved.created_at);
        result.analysis_id = Some(saved.id.0);
        result.image_url = saved.image.as_ref().map(|k| k.url());
        result.thumbnail_url = saved.thumbnail.as_ref().map(|k| k.url());
        result
    }
}

impl From<Delivered> for AnalyzeResponse {
    fn from(delivered: Delivered) -> Self {
        match delivered {
            Delivered::Trial { report, at } => {
                Self { result: AnalysisResult::new(&report, at), credits_remaining: None, free_trial: true }
            }
            Delivered::Saved { analysis, balance } => Self {
                result: AnalysisResult::from(&analysis),
                credits_remaining: Some(balance),
                free_trial: false,
            },
        }
    }
}

impl AnalysisResult {
    /// The result of a report that was not saved.
    pub fn new(report: &crate::service::Report, created_at: DateTime<Utc>) -> Self {
        let assessment = &report.assessment;
        let mut ratings = assessment.category_ratings.clone();
        ratings.sort_by_key(|r| r.category);
        Self {
            analysis_id: None,
            overall_score: assessment.overall_score,
            summary: assessment.summary.clone(),
            category: assessment.category.clone(),
            category_ratings: ratings
                .into_iter()
                .map(|r| CategoryRatingDto {
                    category: r.category,
                    score: r.score,
                    percentile: r.score.map(|score| percentile_text(score.value()).to_owned()),
                    comment: r.comment,
                    confidence: r.confidence,
                })
                .collect(),
            suggestions: report.suggestions.clone(),
            cable_inventory: assessment.cable_inventory.clone(),
            analyzer: report.analyzer,
            image_url: None,
            thumbnail_url: None,
            created_at,
            voices: report.voices(),
            progress: report.progress.as_ref().map(ProgressDto::from),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams, Validate)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MyAnalysesQuery {
    /// 1 to 100, default 50.
    #[validate(range(min = 1, max = 100, message = "Limit must be between 1 and 100."))]
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// At least 0, default 0.
    #[validate(range(min = 0, message = "Offset must be at least 0."))]
    #[param(minimum = 0)]
    pub offset: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MyAnalysesResponse {
    /// Newest first.
    pub analyses: Vec<SavedAnalysisDto>,
    /// How many analyses the user has in all.
    pub total: i64,
}

/// Where a shared analysis can be seen.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareResponse {
    /// The public page, e.g. `https://setupiq.example/share/…`.
    pub url: String,
    /// Its 1200x630 card image (what link previews show).
    pub image_url: String,
}

impl ShareResponse {
    pub fn new(config: &setupiq_core::Config, token: &str) -> Self {
        let url = config.public_link(&format!("/share/{token}"));
        Self { image_url: format!("{url}/card.png"), url }
    }
}
