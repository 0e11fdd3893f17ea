//! Re-rating the same setup (issue 58): an analysis made from an earlier one of the same
//! owner (`previousAnalysisId`) is compared with it when it is saved, and the comparison is
//! stored with it (inside its `result_json`), never recomputed: deleting the earlier analysis
//! unlinks it (`ON DELETE SET NULL`, its photo goes) and the later one keeps its numbers.
//! Re-rating a re-rated analysis continues the chain.

use serde::{Deserialize, Serialize};
use setupiq_analyzer::result::{Assessment, Category, Points, round1};
use setupiq_analyzer::voice::{ChangeLines, Moved, change_lines};
use setupiq_core::AnalysisId;

use super::{InputType, SavedAnalysis};

/// A category whose score rose by at least this many half points counts its suggestion as
/// followed: one whole point.
const FOLLOWED_HALVES: i32 = 2;

/// One category seen in both ratings: its score before and now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryDelta {
    pub category: Category,
    pub from: Points,
    pub to: Points,
}

/// A suggestion of the earlier analysis whose category rose by at least a point since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FollowedSuggestion {
    pub category: Category,
    pub title: String,
}

/// What the earlier analysis was made from, kept for the side-by-side view while it exists
/// (shown only while the link stands: once it is deleted, so is its photo).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreviousInput {
    pub input_type: InputType,
    pub input_text: Option<String>,
    pub image_key: Option<String>,
    pub thumbnail_key: Option<String>,
}

/// A re-rating compared with the analysis it was made from, as stored with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub previous_analysis_id: AnalysisId,
    pub previous_overall_score: f64,
    /// The overall score now minus before, one decimal.
    pub overall_delta: f64,
    /// Every category seen both times, in the page's order (unseen either time: none).
    pub category_deltas: Vec<CategoryDelta>,
    pub followed_suggestions: Vec<FollowedSuggestion>,
    /// One line on the change per voice.
    pub lines: ChangeLines,
    /// `None` once the earlier analysis is gone ([`Progress::unlinked`]).
    pub previous: Option<PreviousInput>,
}

impl Progress {
    /// `now` compared with `previous`, the analysis it re-rates.
    pub fn between(previous: &SavedAnalysis, now: &Assessment) -> Progress {
        let before = &previous.report.assessment;
        let category_deltas: Vec<CategoryDelta> = Category::ALL
            .into_iter()
            .filter_map(|category| {
                let (from, to) = (before.score_of(category)?, now.score_of(category)?);
                Some(CategoryDelta { category, from, to })
            })
            .collect();
        let followed_suggestions = previous
            .report
            .suggestions
            .iter()
            .filter(|s| {
                category_deltas.iter().any(|d| {
                    d.category == s.category && d.to.count_halves() - d.from.count_halves() >= FOLLOWED_HALVES
                })
            })
            .map(|s| FollowedSuggestion { category: s.category, title: s.title.clone() })
            .collect();
        let moved: Vec<Moved> =
            category_deltas.iter().map(|d| Moved { category: d.category, from: d.from, to: d.to }).collect();
        let (from, to) = (before.overall_score, now.overall_score);
        Progress {
            previous_analysis_id: previous.id,
            previous_overall_score: from,
            overall_delta: round1(to - from),
            category_deltas,
            followed_suggestions,
            lines: change_lines(from, to, &moved, now),
            previous: Some(PreviousInput {
                input_type: previous.input_type,
                input_text: previous.input_text.clone(),
                image_key: previous.image.as_ref().map(|k| k.as_str().to_owned()),
                thumbnail_key: previous.thumbnail.as_ref().map(|k| k.as_str().to_owned()),
            }),
        }
    }

    /// The stored comparison once the earlier analysis was deleted: the numbers stay, what
    /// it was made from (its photo is gone) does not.
    pub fn unlinked(mut self) -> Progress {
        self.previous = None;
        self
    }
}
