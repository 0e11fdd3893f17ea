//! How the embedded analyzer's judgement compares with a careful person's, on a folder of
//! labelled photos (`labels.tsv`, `pairs.tsv`: `../shared/photos-extra/`).
//!
//! ```sh
//! cargo run --release -p setupiq-analyzer --example pairs -- /work/shared/photos-extra   # or: make eval
//! ```
//!
//! Every photo goes through what an upload goes through (data URL, upload pipeline,
//! detector and scene classifier, screening, `vision::assess`). Printed:
//! - the clear pairs (a gap of 3+ points in the person's 1-10 labels) ordered the same way
//!   by the analyzer, per category and overall, **separately for the tuning and the
//!   validation split**. The split is fixed (the analyzer issue): every third setup by file
//!   number (x03, x06, ..., x30) is validation, and so is every pair that includes one; the
//!   rest is tuning. Nothing may be tuned by looking at the validation figures' photos.
//! - the refusal table: each photo's kind (setup, negative, edge), what the analyzer did,
//!   and whether that is what it should do (negatives and illustrations refused, setups
//!   accepted; the other edge cases are listed with the decision taken).
//!
//! A tie in the analyzer's scores counts as wrong: the person saw a clear difference.

use std::collections::{BTreeMap, HashMap};
use std::error::Error;
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use setupiq_analyzer::local::LocalModels;
use setupiq_analyzer::pipeline;
use setupiq_analyzer::result::{Assessment, Category};

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

/// Whether a photo of the labelled set is kept for validation: every third setup by its
/// file number (x03, x06, ..., x30).
fn is_validation(file: &str) -> bool {
    file.strip_prefix('x')
        .and_then(|rest| rest.get(..2))
        .and_then(|digits| digits.parse::<u32>().ok())
        .is_some_and(|n| n % 3 == 0)
}

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
            .map_or(f64::NAN, |r| r.score.map_or(UNSEEN_RANK, f64::from)),
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
    println!("| photo | kind | split | analyzer | expected | |");
    println!("|---|---|---|---|---|---|");
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
            // Screenshots and illustrations are not photos of a setup, whatever they show.
            _ if file.contains("illustration") => ("refuse (not a photo)", outcome.is_err()),
            _ => ("a defended decision (docs/scoring.md)", true),
        };
        if !right {
            wrong_decisions += 1;
        }
        let split = if kind == "setup" && is_validation(file) { "validation" } else { "tuning" };
        println!(
            "| {file} | {kind} | {split} | {did} | {expected} | {} |",
            if right { "" } else { "**wrong**" }
        );
        outcomes.insert(file.clone(), outcome);
    }
    println!("\n{wrong_decisions} wrong decisions (setups refused, negatives or illustrations accepted)\n");

    // category -> split -> (right, total)
    let mut tally: BTreeMap<&str, BTreeMap<&str, (u32, u32)>> = BTreeMap::new();
    let mut misses = Vec::new();
    let pairs = std::fs::read_to_string(folder.join("pairs.tsv"))?;
    for line in pairs.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [category, better, worse, ..] = cols[..] else { continue };
        let Some((name, rated)) = CATEGORIES.iter().find(|(name, _)| *name == category) else { continue };
        let split = if is_validation(better) || is_validation(worse) { "validation" } else { "tuning" };
        let ordered = match (outcomes.get(better), outcomes.get(worse)) {
            (Some(Ok(b)), Some(Ok(w))) => score(b, *rated) > score(w, *rated),
            // A refused photo cannot be ordered: wrong for a refused better one, right for
            // a refused worse one only if it is not a setup.
            (Some(Ok(_)), Some(Err(_))) => true,
            _ => false,
        };
        let entry = tally.entry(name).or_default().entry(split).or_default();
        entry.1 += 1;
        if ordered {
            entry.0 += 1;
        } else {
            misses.push(format!("{split}: {category}: {better} should beat {worse}"));
        }
    }
    println!("## Clear pairs ordered like the person (3+ points apart)\n");
    println!("| category | tuning | validation |");
    println!("|---|---|---|");
    let mut totals: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    let show = |(right, total): (u32, u32)| {
        if total == 0 {
            "-".to_owned()
        } else {
            format!("{right}/{total} ({:.0} %)", f64::from(right) * 100.0 / f64::from(total))
        }
    };
    for (name, _) in CATEGORIES {
        let splits = tally.get(name).cloned().unwrap_or_default();
        let tuning = splits.get("tuning").copied().unwrap_or_default();
        let validation = splits.get("validation").copied().unwrap_or_default();
        for (split, (right, total)) in [("tuning", tuning), ("validation", validation)] {
            let sum = totals.entry(split).or_default();
            sum.0 += right;
            sum.1 += total;
        }
        println!("| {name} | {} | {} |", show(tuning), show(validation));
    }
    let all = |split| totals.get(split).copied().unwrap_or_default();
    println!("| **all pairs** | **{}** | **{}** |\n", show(all("tuning")), show(all("validation")));
    println!("Goal on validation: >= 90 % of all pairs, >= 80 % in each category and overall.\n");
    println!("### Pairs ordered the other way\n");
    for miss in misses {
        println!("- {miss}");
    }
    Ok(())
}
