//! The learned judgement: what a careful person would score a photo, and whether it is a
//! photo of a setup at all, read from the scene classifier's embedding of the whole photo
//! beside the mean embedding of its four crops ([`crate::scene::CROPS`]), and where the gate
//! is in doubt, the peaks of a closer look at the whole photo
//! ([`crate::scene::SceneModel::peaks`]). The scores read
//! each value square-rooted (power normalisation: a few large activations no longer drown
//! the many small ones; it orders more clear pairs in cross-validation), the gate reads them
//! as they are (it decides better so). The scores also read the rubric's measures
//! ([`super::measures`]: what the detector boxed, the light, the palette, the desk surface,
//! and the rubric's own evidence scores), which cross-validation found to help.
//!
//! One linear model per score (the six categories and the overall SetupIQ Score) and one
//! logistic setup gate, with a closer one where it is in doubt; a category's score leans on
//! the overall judgement by a share the cross-validation chose (a person's category scores
//! lean on how good the whole setup is), and most categories' scores are then mapped onto
//! people's scale ([`QuantileMap`]).
//! Fitted on every labelled shared photo by `scripts/fit-calibration.py`
//! (`make calibration`: ridge regressions stretched to the labels' spread, penalties chosen
//! by cross-validation grouped by source repository; `make eval` prints the cross-validated
//! figures). The weights are data (`crates/analyzer/data/calibration.json`), compiled into
//! the binary: the same photo gets the same scores on every machine.
//!
//! A person's score is about the whole scene (how tidy it feels, how warm the light is, how
//! finished it looks), which the embedding captures better than any handful of hand-set
//! thresholds; the rubric's evidence says *what* was seen in every comment.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::result::Category;
use crate::scene::EMBEDDING_DIM;

/// One linear model over the embedding and the crops' mean embedding.
#[derive(Debug, Deserialize)]
struct Linear {
    bias: f32,
    weights: Vec<f32>,
}

/// A block of values a linear model reads, and how it reads each one.
type Block<'a> = (&'a [f32], fn(f32) -> f32);

/// An embedding's value as the scores read it: its square root (the embedding is
/// non-negative; a stray negative counts as 0).
fn root(value: f32) -> f32 {
    value.max(0.0).sqrt()
}

fn as_is(value: f32) -> f32 {
    value
}

/// Where no chair was looked at: the chair's embedding the scores read (zeros, as fitted).
const NO_CHAIR: [f32; EMBEDDING_DIM] = [0.0; EMBEDDING_DIM];

impl Linear {
    /// `bias + weights . blocks`: the weights taken in turn by each block's values, each read
    /// as its block says, as far as there are weights (a model fitted on fewer blocks has
    /// weights for the first ones only).
    fn apply(&self, blocks: &[Block<'_>]) -> f32 {
        let mut weights = self.weights.as_slice();
        let mut sum = self.bias;
        for (values, read) in blocks {
            let (these, rest) = weights.split_at(values.len().min(weights.len()));
            sum += these.iter().zip(*values).map(|(w, v)| w * read(*v)).sum::<f32>();
            weights = rest;
        }
        sum
    }

    /// A score model's value: it reads the embeddings' square roots, then the measures, and
    /// (Chair & Comfort's only) the square roots of the chair's embedding and whether a chair
    /// was looked at.
    fn score(&self, features: &Features<'_>) -> f32 {
        let (chair, looked): (&[f32], f32) = features.chair.map_or((&NO_CHAIR, 0.0), |chair| (chair, 1.0));
        self.apply(&[
            (features.embedding, root),
            (features.crops, root),
            (features.measures, as_is),
            (chair, root),
            (&[looked], as_is),
        ])
    }
}

/// A score's model: the linear model, how much of the learned overall score (a category's
/// only) and how much of the rubric's own evidence score are mixed in (both chosen by the
/// fit's cross-validation), and where the fit made one, the map of the mixed score onto
/// people's scale.
#[derive(Debug, Deserialize)]
struct ScoreModel {
    #[serde(flatten)]
    linear: Linear,
    #[serde(default)]
    overall_share: f32,
    #[serde(default)]
    evidence_share: f32,
    #[serde(default)]
    quantile_map: Option<QuantileMap>,
}

/// A monotone piecewise-linear map of a score onto people's scale: the fit's held-out scores
/// at a few quantiles (`from`) go onto the labels at the same quantiles (`to`). A linear
/// stretch matches the labels' spread but not their shape (the scores crowd the middle and
/// overshoot at the ends); the map keeps the order and brings each score nearer the
/// person's (docs/scoring.md).
#[derive(Debug, Deserialize)]
struct QuantileMap {
    from: Vec<f32>,
    to: Vec<f32>,
}

impl QuantileMap {
    /// Linear between the knots; beyond the first and last knots the end segments go on.
    fn apply(&self, value: f32) -> f32 {
        let (from, to) = (&self.from, &self.to);
        let segment = from.windows(2).position(|pair| value < pair[1]).unwrap_or(from.len() - 2);
        let (x0, x1, y0, y1) = (from[segment], from[segment + 1], to[segment], to[segment + 1]);
        y0 + (value - x0) * (y1 - y0) / (x1 - x0)
    }
}

#[derive(Debug, Deserialize)]
struct Scores {
    cable_management: ScoreModel,
    rgb_lighting: ScoreModel,
    desk_cleanliness: ScoreModel,
    monitor_setup: ScoreModel,
    chair_comfort: ScoreModel,
    aesthetic_vibe: ScoreModel,
    overall: ScoreModel,
}

#[derive(Debug, Deserialize)]
struct Gate {
    #[serde(flatten)]
    model: Linear,
    /// The probability from which it says yes (a setup; a chair in view).
    threshold: f32,
    /// The probabilities between which the first gate and the chair gate are in doubt (the
    /// closer gates': none).
    #[serde(default)]
    doubt: Option<[f32; 2]>,
}

impl Gate {
    fn probability(&self, features: &Features<'_>) -> f32 {
        self.probability_of(features, &[features.peaks])
    }

    /// The probability of yes from the embeddings and `more` blocks of values, all as they are.
    fn probability_of(&self, features: &Features<'_>, more: &[&[f32]]) -> f32 {
        let blocks: Vec<Block<'_>> = [features.embedding, features.crops]
            .iter()
            .chain(more)
            .map(|values| (*values, as_is as fn(f32) -> f32))
            .collect();
        let logit = self.model.apply(&blocks);
        1.0 / (1.0 + (-logit).exp())
    }

    /// Whether probability `p` is within this gate's doubt band (a gate without one never doubts).
    fn doubts(&self, p: f32) -> bool {
        self.doubt.is_some_and(|[low, high]| (low..=high).contains(&p))
    }
}

#[derive(Debug, Deserialize)]
struct File {
    scores: Scores,
    gate: Gate,
    closer_gate: Gate,
    /// Whether a desk chair is in view: the embeddings and the detector's best chair score;
    /// where it is in doubt and a chair was boxed, the closer chair gate decides.
    chair_gate: Gate,
    /// The same and the scene classifier's look at the chair ([`super::chair_to_look_at`]).
    closer_chair_gate: Gate,
}

const WEIGHTS: &str = include_str!("../../data/calibration.json");

fn file() -> &'static File {
    static FILE: OnceLock<File> = OnceLock::new();
    FILE.get_or_init(|| {
        #[allow(clippy::expect_used)] // compiled in and checked by the unit test below
        serde_json::from_str(WEIGHTS).expect("data/calibration.json is valid")
    })
}

/// What the judgement reads: the scene classifier's embedding of the whole photo and the
/// mean embedding of its crops, each [`EMBEDDING_DIM`] long; the peaks of its closer look
/// at the whole photo ([`crate::scene::SceneModel::peaks`], as long; only the gate reads
/// them), the rubric's measures ([`super::measures`], [`super::MEASURES`] long; only the
/// scores read them, empty where only the gate is asked), and its embedding of the chair
/// in view ([`super::chair_to_look_at`], as long; only Chair & Comfort reads it, none where
/// no chair was looked at).
#[derive(Debug, Clone, Copy)]
pub struct Features<'a> {
    pub embedding: &'a [f32],
    pub crops: &'a [f32],
    pub peaks: &'a [f32],
    pub measures: &'a [f32],
    pub chair: Option<&'a [f32]>,
}

/// The score a person would give in `category` (clamped to the 1-10 scale, mixed with the
/// overall judgement) mixed with `evidence`, the rubric's own score from what it measured,
/// and mapped onto people's scale where the fit made a map; unrounded, within 1-10.
pub fn score(category: Category, features: &Features<'_>, evidence: u8) -> f32 {
    let model = model(category);
    let own = model.linear.score(features).clamp(1.0, 10.0);
    let learned = (1.0 - model.overall_share) * own + model.overall_share * overall(features);
    let mixed = (1.0 - model.evidence_share) * learned + model.evidence_share * f32::from(evidence);
    model.quantile_map.as_ref().map_or(mixed, |map| map.apply(mixed)).clamp(1.0, 10.0)
}

/// The overall SetupIQ Score a person would give, unrounded, clamped to the 1-10 scale.
pub fn overall(features: &Features<'_>) -> f32 {
    file().scores.overall.linear.score(features).clamp(1.0, 10.0)
}

/// What the learned gate makes of a photo from its embeddings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstLook {
    Setup,
    NotASetup,
    /// Its probability is within the doubt band: the closer gate decides
    /// ([`is_setup_on_closer_look`]).
    InDoubt,
}

/// Whether the photo is of a desk or gaming setup, by the learned gate on the embeddings
/// (it has no weights for `features.peaks`): yes, no, or in doubt.
pub fn first_look(features: &Features<'_>) -> FirstLook {
    let gate = &file().gate;
    let p = gate.probability(features);
    if gate.doubts(p) {
        FirstLook::InDoubt
    } else if p >= gate.threshold {
        FirstLook::Setup
    } else {
        FirstLook::NotASetup
    }
}

/// Whether a photo the first gate doubts is of a desk or gaming setup, by the closer gate: the
/// embeddings and the peaks of the closer look at the whole photo
/// ([`crate::scene::SceneModel::peaks`]).
pub fn is_setup_on_closer_look(features: &Features<'_>) -> bool {
    let gate = &file().closer_gate;
    gate.probability(features) >= gate.threshold
}

/// Whether a desk chair is in view, by the chair gate on the embeddings and `chair_score`,
/// the detector's best chair score anywhere in the photo, faint chairs included
/// ([`super::Layout::chair_score`]); where it is in doubt and the chair was looked at
/// (`features.chair`), by the closer chair gate, which also reads that look. The detector
/// alone misses the chairs seen from behind at the edge of a photo (they score under its
/// threshold) and takes a stool or a sofa corner for one; the whole photo's look settles most
/// of them, the look at the chair more (docs/scoring.md).
pub fn chair_in_view(features: &Features<'_>, chair_score: f32) -> bool {
    let (gate, closer) = (&file().chair_gate, &file().closer_chair_gate);
    let p = gate.probability_of(features, &[&[chair_score]]);
    match features.chair {
        Some(chair) if gate.doubts(p) => {
            closer.probability_of(features, &[&[chair_score], chair, &[1.0]]) >= closer.threshold
        }
        _ => p >= gate.threshold,
    }
}

/// Whether the chair gate is in doubt: [`chair_in_view`] then needs the look at the chair.
pub fn chair_gate_in_doubt(features: &Features<'_>, chair_score: f32) -> bool {
    let gate = &file().chair_gate;
    gate.doubts(gate.probability_of(features, &[&[chair_score]]))
}

fn model(category: Category) -> &'static ScoreModel {
    let s = &file().scores;
    match category {
        Category::CableManagement => &s.cable_management,
        Category::RgbLighting => &s.rgb_lighting,
        Category::DeskCleanliness => &s.desk_cleanliness,
        Category::MonitorSetup => &s.monitor_setup,
        Category::ChairComfort => &s.chair_comfort,
        Category::AestheticVibe => &s.aesthetic_vibe,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_is_complete() {
        let s = &file().scores;
        for model in [
            &s.cable_management,
            &s.rgb_lighting,
            &s.desk_cleanliness,
            &s.monitor_setup,
            &s.chair_comfort,
            &s.aesthetic_vibe,
            &s.overall,
        ]
        .map(|m| {
            assert!((0.0..=1.0).contains(&m.evidence_share));
            assert!((0.0..=1.0).contains(&m.overall_share));
            if let Some(map) = &m.quantile_map {
                assert!(map.from.len() >= 2 && map.from.len() == map.to.len());
                assert!(map.from.windows(2).all(|p| p[0] < p[1]) && map.to.windows(2).all(|p| p[0] < p[1]));
            }
            let chair = if std::ptr::eq(m, &s.chair_comfort) { EMBEDDING_DIM + 1 } else { 0 };
            assert_eq!(m.linear.weights.len(), 2 * EMBEDDING_DIM + super::super::MEASURES + chair);
            &m.linear
        })
        .into_iter()
        .chain([
            &file().gate.model,
            &file().closer_gate.model,
            &file().chair_gate.model,
            &file().closer_chair_gate.model,
        ]) {
            assert!(model.weights.len() >= 2 * EMBEDDING_DIM);
            assert!(model.bias.is_finite() && model.weights.iter().all(|w| w.is_finite()));
        }
        assert_eq!(file().gate.model.weights.len(), 2 * EMBEDDING_DIM, "the gate reads the embeddings");
        assert_eq!(
            file().closer_gate.model.weights.len(),
            3 * EMBEDDING_DIM,
            "the closer gate reads the peaks too"
        );
        assert_eq!(
            file().chair_gate.model.weights.len(),
            2 * EMBEDDING_DIM + 1,
            "the chair gate reads the embeddings and the best chair score"
        );
        assert!((0.0..1.0).contains(&file().chair_gate.threshold));
        assert_eq!(
            file().closer_chair_gate.model.weights.len(),
            3 * EMBEDDING_DIM + 2,
            "the closer chair gate reads the look at the chair and whether there was one too"
        );
        let [low, high] = file().chair_gate.doubt.expect("the chair gate has a doubt band");
        assert!(
            0.0 < low
                && low < file().chair_gate.threshold
                && file().chair_gate.threshold < high
                && high < 1.0
        );
        let [low, high] = file().gate.doubt.expect("the first gate has a doubt band");
        assert!(0.0 < low && low < file().gate.threshold && file().gate.threshold < high && high < 1.0);
        let zero = [0.0; EMBEDDING_DIM];
        let measures = [0.0; super::super::MEASURES];
        let features =
            Features { embedding: &zero, crops: &zero, peaks: &zero, measures: &measures, chair: None };
        for chair in [None, Some(&zero[..])] {
            for category in Category::ALL {
                assert!(
                    (1.0..=10.0).contains(&score(category, &Features { chair, ..features }, 5)),
                    "{category}"
                );
            }
        }
        assert!((0.0..=1.0).contains(&file().gate.probability(&features)));
        assert!((0.0..=1.0).contains(&file().closer_gate.probability(&features)));
        assert_eq!(s.overall.overall_share, 0.0, "the overall does not lean on itself");
        assert!(s.cable_management.quantile_map.is_some(), "the categories are mapped onto people's scale");
        assert!(s.chair_comfort.quantile_map.is_none() && s.overall.quantile_map.is_none());
    }

    #[test]
    fn the_quantile_map_is_linear_between_its_knots_and_goes_on_beyond_them() {
        let map = QuantileMap { from: vec![3.0, 5.0, 6.0], to: vec![2.0, 5.0, 8.0] };
        for (value, mapped) in
            [(3.0, 2.0), (4.0, 3.5), (5.0, 5.0), (5.5, 6.5), (6.0, 8.0), (2.0, 0.5), (7.0, 11.0)]
        {
            assert!(
                (map.apply(value) - mapped).abs() < 1e-5,
                "{value} -> {} instead of {mapped}",
                map.apply(value)
            );
        }
    }
}
