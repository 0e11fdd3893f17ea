//! What the committed analyzer does with a folder of labelled photos (`labels.tsv`,
//! `pairs.tsv`: `../shared/photos-train`, `../shared/photos-extra`), end to end:
//!
//! ```sh
//! cargo run --release -p setupiq-analyzer --example pairs -- ../shared/photos-train   # or: make eval
//! ```
//!
//! Every photo goes through what an upload goes through (data URL, upload pipeline, detector
//! and scene classifier, screening, the rubric and the learned judgement). Printed: each
//! photo's decision against its kind, and the clear pairs (3+ points apart) ordered like the
//! person, per category and overall. **In-sample**: the learned judgement was fitted on these
//! photos, so these figures only check that the binary does what the fit wrote; the figures
//! that measure quality are the cross-validated ones `scripts/fit-calibration.py eval` prints.
//!
//! A tie in the analyzer's scores (the same half point in a category, the same tenth overall)
//! counts as wrong: the person saw a clear difference.

use std::collections::{BTreeMap, HashMap};
use std::error::Error;
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use setupiq_analyzer::internals::local::LocalModels;
use setupiq_analyzer::pipeline;
use setupiq_analyzer::result::{Assessment, Category, Points};

/// The columns of `labels.tsv` and `pairs.tsv`, and how the results name them.
const CATEGORIES: [(&str, Option<Category>); 7] = [
    ("cable_management", Some(Category::CableManagement)),
    ("rgb_lighting", Some(Category::RgbLighting)),
    ("desk_cleanliness", Some(Category::DeskCleanliness)),
    ("monitor_setup", Some(Category::MonitorSetup)),
    ("chair_comfort", Some(Category::ChairComfort)),
    ("aesthetic_vibe", Some(Category::AestheticVibe)),
    ("overall", None),
];

/// Where an unseen category ranks in a pair: the middle of the scale, the neutral score such a
/// category had before it could be left unscored.
const UNSEEN_RANK: f64 = 5.0;

/// The analyzer's score of a photo in a category (`overall`: the SetupIQ Score).
fn score(assessment: &Assessment, category: Option<Category>) -> f64 {
    match category {
        None => assessment.overall_score,
        Some(category) => assessment
            .category_ratings
            .iter()
            .find(|r| r.category == category)
            // An unseen category (no chair in the photo) ranks as the middle of the scale.
            // Category scores are half points, exact as f64: 6.5 beats 6 and ties 6.5.
            .map_or(f64::NAN, |r| r.score.map_or(UNSEEN_RANK, Points::value)),
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let folder = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .ok_or("usage: pairs LABELLED_PHOTO_FOLDER (with labels.tsv and pairs.tsv)")?;
    let models = LocalModels::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models"))?;

    // file -> (kind, note)
    let labels = std::fs::read_to_string(folder.join("labels.tsv"))?;
    let photos: Vec<(String, String, String)> = labels
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            Some((cols.first()?.to_string(), cols.get(1)?.to_string(), cols.last()?.to_string()))
        })
        .collect();

    let mut outcomes: HashMap<String, Result<Assessment, String>> = HashMap::new();
    println!("## What the analyzer did with each photo\n");
    println!("| photo | kind | analyzer | expected | |");
    println!("|---|---|---|---|---|");
    let mut wrong_decisions = 0;
    for (file, kind, _) in &photos {
        let bytes = std::fs::read(folder.join(file))?;
        let mime = if file.ends_with(".png") { "image/png" } else { "image/jpeg" };
        let data_url = format!("data:{mime};base64,{}", STANDARD.encode(&bytes));
        let outcome = match pipeline::prepare(&data_url) {
            Err(rejection) => Err(format!("rejected: {rejection}")),
            Ok(prepared) => match models.look(&prepared.pixels) {
                Ok(screening) => Ok(screening.assess()),
                Err(setupiq_analyzer::RatingError::Refused(refusal)) => Err(format!("refused: {refusal:?}")),
                Err(failed) => return Err(failed.into()),
            },
        };
        let did = match &outcome {
            Ok(a) => format!("accepted, {:.1}", a.overall_score),
            Err(why) => why.clone(),
        };
        let (expected, right) = match kind.as_str() {
            "setup" => ("accept", outcome.is_ok()),
            "negative" => ("refuse", outcome.is_err()),
            // Close-ups, a PC case alone, a screen head-on, screenshots, renders: not a setup.
            _ => ("refuse", outcome.is_err()),
        };
        if !right {
            wrong_decisions += 1;
        }
        println!("| {file} | {kind} | {did} | {expected} | {} |", if right { "" } else { "**wrong**" });
        outcomes.insert(file.clone(), outcome);
    }
    println!("\n{wrong_decisions} wrong decisions (setups refused, negatives or illustrations accepted)\n");

    // category -> (right, total)
    let mut tally: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    let mut misses = Vec::new();
    let pairs = std::fs::read_to_string(folder.join("pairs.tsv"))?;
    for line in pairs.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [category, better, worse, ..] = cols[..] else { continue };
        let Some((name, rated)) = CATEGORIES.iter().find(|(name, _)| *name == category) else { continue };
        let ordered = match (outcomes.get(better), outcomes.get(worse)) {
            (Some(Ok(b)), Some(Ok(w))) => score(b, *rated) > score(w, *rated),
            // A refused photo cannot be ordered: wrong for a refused better one, right for
            // a refused worse one only if it is not a setup.
            (Some(Ok(_)), Some(Err(_))) => true,
            _ => false,
        };
        let entry = tally.entry(name).or_default();
        entry.1 += 1;
        if ordered {
            entry.0 += 1;
        } else {
            misses.push(format!("{category}: {better} should beat {worse}"));
        }
    }
    println!("## Clear pairs ordered like the person (3+ points apart)\n");
    println!("| category | in-sample |");
    println!("|---|---|");
    let mut all = (0, 0);
    let show = |(right, total): (u32, u32)| {
        if total == 0 {
            "-".to_owned()
        } else {
            format!("{right}/{total} ({:.0} %)", f64::from(right) * 100.0 / f64::from(total))
        }
    };
    for (name, _) in CATEGORIES {
        let (right, total) = tally.get(name).copied().unwrap_or_default();
        all = (all.0 + right, all.1 + total);
        println!("| {name} | {} |", show((right, total)));
    }
    println!("| **all pairs** | **{}** |\n", show(all));
    println!("### Pairs ordered the other way\n");
    for miss in misses {
        println!("- {miss}");
    }
    Ok(())
}
