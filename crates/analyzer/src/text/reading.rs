//! The learned reading: the six category scores of a description from everything the rules
//! read in it, not each from its own phrases alone.
//!
//! People score a whole desk: the notes of the labelled shared photos ("desk buried in papers
//! and boxes: ..., cables and junk under the desk") were scored low on cables, lighting and
//! style too, though they say little about those. Rated by the rules alone, a described
//! buried desk came out at 4.7 overall where people gave it 1-2, and every category a note is
//! silent on sat at a middling 5 (many ties). So each category's score is a linear model
//! over every category's read: the rules' score less the middling 5 where the description
//! speaks about it, 0 where it doesn't ([`Evidence`]).
//!
//! Fitted by `scripts/fit-calibration.py fit-descriptions` on the labelled photos' notes rated
//! as descriptions (the `descriptions` example): a ridge per category on what the person's
//! label adds to the rules' own score (so it leans towards the rules: a short description of
//! one thing reads much as the rules read it), its penalty chosen by cross-validation grouped
//! by source repository, stretched to the labels' spread; `make eval`
//! prints the held-out figures. The weights are data (`crates/analyzer/data/descriptions.json`),
//! compiled in: the same text gets the same scores on every machine.

use std::sync::OnceLock;

use serde::Deserialize;

use super::rubric::{self, Read};
use crate::result::{Category, Points};

/// One feature per category, in [`Category::ALL`]'s order: the rules' score less the
/// middling [`rubric::BASE`] where the description speaks about it, 0 where it doesn't.
pub const FEATURES: usize = Category::ALL.len();

/// What the rules read in a description, as the learned reading takes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evidence([f32; FEATURES]);

impl Evidence {
    pub(super) fn of(reads: &[(Category, Read)]) -> Evidence {
        let mut features = [0.0; FEATURES];
        for (category, read) in reads {
            let position = Category::ALL.iter().position(|c| c == category);
            if let (Read::Said { score, .. }, Some(at)) = (read, position) {
                features[at] = score.value() as f32 - rubric::BASE;
            }
        }
        Evidence(features)
    }

    pub fn features(&self) -> &[f32; FEATURES] {
        &self.0
    }
}

/// One linear model per category.
#[derive(Debug, Deserialize)]
struct Linear {
    bias: f32,
    weights: Vec<f32>,
}

/// The models, named as the labels' columns are.
#[derive(Debug, Deserialize)]
struct Scores {
    cable_management: Linear,
    rgb_lighting: Linear,
    desk_cleanliness: Linear,
    monitor_setup: Linear,
    chair_comfort: Linear,
    aesthetic_vibe: Linear,
}

impl Scores {
    fn of(&self, category: Category) -> &Linear {
        match category {
            Category::CableManagement => &self.cable_management,
            Category::RgbLighting => &self.rgb_lighting,
            Category::DeskCleanliness => &self.desk_cleanliness,
            Category::MonitorSetup => &self.monitor_setup,
            Category::ChairComfort => &self.chair_comfort,
            Category::AestheticVibe => &self.aesthetic_vibe,
        }
    }
}

#[derive(Debug, Deserialize)]
struct File {
    scores: Scores,
}

const WEIGHTS: &str = include_str!("../../data/descriptions.json");

fn file() -> &'static File {
    static FILE: OnceLock<File> = OnceLock::new();
    FILE.get_or_init(|| {
        #[allow(clippy::expect_used)] // compiled in and checked by the unit test below
        serde_json::from_str(WEIGHTS).expect("data/descriptions.json is valid")
    })
}

/// Where a category the description is silent on may land: judged from the rest, but never
/// far from the middle (a description of a chair alone says little about its lighting).
/// Held out, 89.9 % of clear pairs against 90.3 % unclamped (`make eval`).
const SILENT_RANGE: (f32, f32) = (3.0, 7.0);

/// The learned score of `category` for `evidence`, in half points within 1-10; `silent` when
/// the description says nothing about the category.
pub(super) fn score(category: Category, evidence: &Evidence, silent: bool) -> Points {
    let model = file().scores.of(category);
    let raw = model.bias + model.weights.iter().zip(evidence.features()).map(|(w, x)| w * x).sum::<f32>();
    rubric::to_score(if silent { raw.clamp(SILENT_RANGE.0, SILENT_RANGE.1) } else { raw })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_has_a_model_over_every_feature() {
        for category in Category::ALL {
            let model = file().scores.of(category);
            assert_eq!(model.weights.len(), FEATURES, "{category}");
            assert!(model.bias.is_finite() && model.weights.iter().all(|w| w.is_finite()));
        }
    }

    #[test]
    fn a_category_rises_with_what_is_said_about_it() {
        for (at, category) in Category::ALL.iter().enumerate() {
            let said = |score: u8| {
                let mut features = [0.0; FEATURES];
                features[at] = f32::from(score) - rubric::BASE;
                super::score(*category, &Evidence(features), false)
            };
            assert!(said(9) > said(2), "{category}: {} vs {}", said(9), said(2));
        }
    }

    #[test]
    fn a_silent_category_stays_near_the_middle() {
        let buried = Evidence([-4.0, 0.0, -4.0, -2.0, 0.0, -4.0]);
        let polished = Evidence([4.0, 0.0, 4.0, 4.0, 0.0, 4.0]);
        assert!(score(Category::RgbLighting, &buried, true) >= Points::whole(3));
        assert!(score(Category::RgbLighting, &polished, true) <= Points::whole(7));
        assert!(score(Category::RgbLighting, &buried, true) < score(Category::RgbLighting, &polished, true));
    }
}
