//! The learned calibration: the scene classifier's embedding of the photo mapped to the six
//! category scores by one linear model per category, fitted to a careful person's 1-10
//! labels by `scripts/fit-calibration.py` (ridge with a pairwise ranking loss, on the tuning
//! split of `../shared/photos-extra` only; `make calibration`). The weights are data
//! (`crates/analyzer/data/calibration.json`), compiled into the binary: the same photo gets
//! the same scores on every machine.
//!
//! A person's label is about the whole scene (how tidy it feels, how warm the light is, how
//! finished it looks), which the embedding captures better than any handful of hand-set
//! thresholds; the rubric's evidence still says *what* was seen in every comment.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::result::Category;

/// One category's linear model: `bias + weights . embedding`, and how much of the rubric's
/// own evidence score is mixed in (chosen by the fit's cross-validation).
#[derive(Debug, Deserialize)]
struct Model {
    bias: f32,
    weights: Vec<f32>,
    evidence_share: f32,
}

#[derive(Debug, Deserialize)]
struct Calibration {
    cable_management: Model,
    rgb_lighting: Model,
    desk_cleanliness: Model,
    monitor_setup: Model,
    chair_comfort: Model,
    aesthetic_vibe: Model,
}

#[derive(Debug, Deserialize)]
struct File {
    categories: Calibration,
}

const WEIGHTS: &str = include_str!("../../data/calibration.json");

fn calibration() -> &'static Calibration {
    static CALIBRATION: OnceLock<Calibration> = OnceLock::new();
    CALIBRATION.get_or_init(|| {
        #[allow(clippy::expect_used)] // compiled in and checked by the unit test below
        let file: File = serde_json::from_str(WEIGHTS).expect("data/calibration.json is valid");
        file.categories
    })
}

/// The score in `category`, unrounded on the 1-10 scale: what a person would score the photo
/// (clamped to the scale) mixed with `evidence`, the rubric's own score from what it saw.
pub fn judge(category: Category, evidence: u8, embedding: &[f32]) -> f32 {
    let model = model(category);
    let predicted = predict(model, embedding).clamp(1.0, 10.0);
    (1.0 - model.evidence_share) * predicted + model.evidence_share * f32::from(evidence)
}

fn predict(model: &Model, embedding: &[f32]) -> f32 {
    model.bias + model.weights.iter().zip(embedding).map(|(w, e)| w * e).sum::<f32>()
}

fn model(category: Category) -> &'static Model {
    let c = calibration();
    match category {
        Category::CableManagement => &c.cable_management,
        Category::RgbLighting => &c.rgb_lighting,
        Category::DeskCleanliness => &c.desk_cleanliness,
        Category::MonitorSetup => &c.monitor_setup,
        Category::ChairComfort => &c.chair_comfort,
        Category::AestheticVibe => &c.aesthetic_vibe,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::EMBEDDING_DIM;

    #[test]
    fn every_category_has_a_full_model() {
        for category in Category::ALL {
            let score = judge(category, 5, &[0.0; EMBEDDING_DIM]);
            assert!((1.0..=10.0).contains(&score), "{category}: {score}");
            assert!((0.0..=1.0).contains(&model(category).evidence_share));
        }
        let c = calibration();
        for model in [
            &c.cable_management,
            &c.rgb_lighting,
            &c.desk_cleanliness,
            &c.monitor_setup,
            &c.chair_comfort,
            &c.aesthetic_vibe,
        ] {
            assert_eq!(model.weights.len(), EMBEDDING_DIM);
        }
    }
}
