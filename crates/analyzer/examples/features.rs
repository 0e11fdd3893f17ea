//! The features the calibration is fitted on, one JSON object per labelled photo, for
//! `scripts/fit-calibration.py` (`make calibration`):
//!
//! ```sh
//! cargo run --release -p setupiq-analyzer --example features -- /work/shared/photos-extra > features.jsonl
//! ```
//!
//! Each photo goes through the upload pipeline first (what the browser's upload becomes), so
//! the features are those the server computes. Printed per photo: the file, its kind and
//! labels from `labels.tsv`, the rubric's evidence scores, the scene classifier's embedding
//! and its desk-like share.

use std::error::Error;
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use setupiq_analyzer::detector::{CocoClass, Detector};
use setupiq_analyzer::scene::SceneModel;
use setupiq_analyzer::vision::Texture;
use setupiq_analyzer::{pipeline, vision};

fn main() -> Result<(), Box<dyn Error>> {
    let folder = std::env::args().nth(1).map(PathBuf::from).ok_or("usage: features LABELLED_PHOTO_FOLDER")?;
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let detector = Detector::load(models.join("nanodet-coco.onnx"))?;
    let scene_model = SceneModel::load(models.join("efficientnet-lite0-imagenet.onnx"))?;
    // Without labels.tsv, every photo of the folder with no labels.
    let labels = std::fs::read_to_string(folder.join("labels.tsv")).or_else(|_| {
        let mut files: Vec<String> = std::fs::read_dir(&folder)?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|f| f.ends_with(".jpg") || f.ends_with(".png"))
            .collect();
        files.sort();
        Ok::<_, std::io::Error>(format!("file\tkind\n{}", files.join("\tunlabelled\n") + "\tunlabelled"))
    })?;
    let mut lines = labels.lines();
    let header: Vec<&str> = lines.next().ok_or("empty labels.tsv")?.split('\t').collect();
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        let Some(file) = cols.first() else { continue };
        let bytes = std::fs::read(folder.join(file))?;
        let mime = if file.ends_with(".png") { "image/png" } else { "image/jpeg" };
        let prepared = pipeline::prepare(&format!("data:{mime};base64,{}", STANDARD.encode(&bytes)))?;
        let detections = detector.detect(&prepared.pixels)?;
        let evidence = vision::gather(&prepared.pixels, &detections);
        let scene = scene_model.see(&prepared.pixels)?;
        let labels: serde_json::Map<String, serde_json::Value> = header
            .iter()
            .zip(&cols)
            .skip(1)
            .map(|(k, v)| ((*k).to_owned(), serde_json::Value::String((*v).to_owned())))
            .collect();
        // The evidence scores: the rubric without the calibration (what the fit mixes in).
        let rubric: serde_json::Map<String, serde_json::Value> = vision::evidence_scores(&evidence)
            .into_iter()
            .map(|(category, score)| (category.to_string(), serde_json::Value::from(score)))
            .collect();
        let row = serde_json::json!({
            "file": file,
            "labels": labels,
            "desk_gear": detections.iter().any(|d| d.class.is_desk_gear()),
            "input_device": detections
                .iter()
                .filter(|d| matches!(d.class, CocoClass::KEYBOARD | CocoClass::MOUSE | CocoClass::LAPTOP))
                .map(|d| d.score)
                .fold(0.0_f32, f32::max),
            "flat_share": Texture::measure(&prepared.pixels).flat_share,
            "rubric": rubric,
            "seats": evidence.layout.seats.iter().filter(|s| !s.is_couch).count(),
            "couches": evidence.layout.seats.iter().filter(|s| s.is_couch).count(),
            "probabilities": scene.probabilities,
            "embedding": scene.embedding,
        });
        println!("{row}");
    }
    Ok(())
}
