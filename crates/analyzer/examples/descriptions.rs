//! The labelled shared photos' notes rated as descriptions, one JSON object per note, for
//! `scripts/fit-calibration.py descriptions` (`make eval`):
//!
//! ```sh
//! cargo run --release -p setupiq-analyzer --example descriptions -- ../shared/photos-train ../shared/photos-extra > descriptions.jsonl
//! ```
//!
//! Each labelled photo's `note` column (`labels.tsv`: what the labeller saw, "desk buried in
//! papers and boxes: Apple display, white keyboard and mouse, Coke can, ...") is what a member
//! might type about the same desk; the text rubric rates it as `POST /_api/analyze-setup`
//! rates a description, and the person's labels for the photo are the labels of the note.
//! Printed per note: the folder, the file, the source repository (cross-validation groups by
//! it), the labels, and the rubric's scores, overall score and kind, or why it refused, and
//! what the rules read (`evidence`), on which `fit-calibration.py fit-descriptions` fits the
//! learned reading.

use std::error::Error;
use std::path::PathBuf;

use serde_json::{Value, json};
use setupiq_analyzer::result::Category;
use setupiq_analyzer::text;

mod common;
use common::{labelled_photos, repositories};

fn main() -> Result<(), Box<dyn Error>> {
    let folders: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if folders.is_empty() {
        return Err("usage: descriptions PHOTO_FOLDER...".into());
    }
    for folder in &folders {
        let repos = repositories(folder);
        for (file, labels) in labelled_photos(folder)? {
            let Some(note) = labels.get("note").and_then(Value::as_str).filter(|n| !n.trim().is_empty())
            else {
                continue;
            };
            let rated = match text::assess(note) {
                Ok(assessment) => json!({
                    "overall": assessment.overall_score,
                    "kind": assessment.category,
                    // The categories the note is silent on (a middling score, or none for a chair).
                    "silent": assessment
                        .category_ratings
                        .iter()
                        .filter(|r| r.comment.starts_with("The description doesn't"))
                        .map(|r| r.category.to_string())
                        .collect::<Vec<_>>(),
                    "scores": Category::ALL
                        .iter()
                        .map(|&c| (c.to_string(), json!(assessment.category_ratings.iter().find(|r| r.category == c).and_then(|r| r.score))))
                        .collect::<serde_json::Map<_, _>>(),
                    // What the rules read, as the learned reading takes it (fit-descriptions).
                    "evidence": text::evidence(note).map(|e| e.features().to_vec()),
                }),
                Err(refusal) => json!({ "refused": format!("{refusal:?}") }),
            };
            let row = json!({
                "folder": folder.file_name().and_then(|f| f.to_str()).unwrap_or_default(),
                "file": file,
                "repo": repos.get(&file).cloned().unwrap_or_else(|| file.clone()),
                "labels": labels,
                "rated": rated,
            });
            println!("{row}");
        }
    }
    Ok(())
}
