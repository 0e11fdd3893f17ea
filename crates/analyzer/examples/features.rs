//! The features the learned judgement is fitted on, one JSON object per photo, for
//! `scripts/fit-calibration.py` (`make calibration`, `make eval`):
//!
//! ```sh
//! cargo run --release -p setupiq-analyzer --example features -- ../shared/photos-train ../shared/photos-extra > features.jsonl
//! cargo run --release -p setupiq-analyzer --example features -- --browser ../shared/photos-train > browser.jsonl
//! ```
//!
//! Every photo goes through the upload pipeline first (what the server computes from an
//! upload); with `--browser`, first through what the web app does before it uploads (fitted
//! into 1920x1080 and re-encoded as JPEG at quality 0.9). Printed per photo: the folder, the
//! file, the source repository (from the folder's `SOURCES.md`: the cross-validation keeps
//! one repository's photos on one side), its labels (`labels.tsv`; without one, the kind is
//! read from the file name: `setup…`, `neg…`, anything else an edge case), the whole photo's
//! and the crops' embeddings, the embedding of a closer look at the chair (`chair_embedding`:
//! `Layout::chair_to_look_at`, null where no chair was boxed), the peaks of the closer look
//! at the whole photo (what the setup gate reads beside them), the ImageNet probabilities, the rubric's evidence scores and
//! measures (`measures`: what the learned scores read beside the embeddings), the detector's
//! best chair score (`chair_score`, faint chairs included: what the chair gate reads), every class
//! it boxed (`boxes`: count, best score, share of the picture), what the
//! screening rules alone decide and whether they take the picture for a drawing (`drawing`:
//! `vision::drawing`).

use std::collections::BTreeMap;
use std::error::Error;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::codecs::jpeg::JpegEncoder;
use serde_json::{Value, json};
use setupiq_analyzer::internals::detector::{CocoClass, Detection, Detector};
use setupiq_analyzer::internals::scene::SceneModel;
use setupiq_analyzer::internals::vision::{self, Drawing, Frame, Texture};
use setupiq_analyzer::{Refusal, pipeline};

mod common;
use common::{labelled_photos, repositories};

fn main() -> Result<(), Box<dyn Error>> {
    let mut browser = false;
    let mut folders = Vec::new();
    for arg in std::env::args().skip(1) {
        if arg == "--browser" {
            browser = true;
        } else {
            folders.push(PathBuf::from(arg));
        }
    }
    if folders.is_empty() {
        return Err("usage: features [--browser] PHOTO_FOLDER...".into());
    }
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let detector = Detector::load(models.join("nanodet-coco.onnx"))?;
    let scene_model = SceneModel::load(models.join("efficientnet-lite0-imagenet.onnx"))?;
    for folder in &folders {
        let repos = repositories(folder);
        for (file, labels) in labelled_photos(folder)? {
            let mut bytes = std::fs::read(folder.join(&file))?;
            if browser {
                bytes = as_the_browser_uploads(&bytes)?;
            }
            let mime = if file.ends_with(".png") && !browser { "image/png" } else { "image/jpeg" };
            let prepared = pipeline::prepare(&format!("data:{mime};base64,{}", STANDARD.encode(&bytes)))?;
            let pixels = &prepared.pixels;
            let detections = detector.detect(pixels)?;
            let scene = scene_model.see(pixels)?;
            let crops = scene_model.crops_embedding(pixels)?;
            let peaks = scene_model.peaks(pixels)?;
            let frame = Frame::new(pixels);
            let rules = match vision::screen_by_rules(pixels, &frame, &detections, &scene) {
                Ok(()) => "setup",
                Err(Refusal::NotAPhoto) => "not_a_photo",
                Err(_) => "not_a_setup",
            };
            let drawing = match vision::drawing(pixels, &frame, &detections, &scene) {
                Some(Drawing::Surely) => json!("surely"),
                Some(Drawing::Perhaps) => json!("perhaps"),
                None => Value::Null,
            };
            let mut evidence = vision::gather(pixels, &detections);
            evidence.note_screen_in_view(&scene);
            let rubric: serde_json::Map<String, Value> = vision::evidence_scores(&evidence)
                .into_iter()
                .map(|(category, score)| (category.to_string(), json!(score)))
                .collect();
            let count = |class: CocoClass| detections.iter().filter(|d| d.class == class).count();
            let layout = &evidence.layout;
            // Looked at wherever a chair was boxed (the server looks only where it will rate
            // one): a labelled chair the chair gate misses still teaches the score.
            let chair = match layout.chair_to_look_at() {
                Some(rect) => json!(scene_model.see(&vision::chair_crop(rect).of(pixels))?.embedding),
                None => Value::Null,
            };
            let row = json!({
                "folder": folder.file_name().and_then(|f| f.to_str()).unwrap_or_default(),
                "file": file,
                "repo": repos.get(&file).cloned().unwrap_or_else(|| file.clone()),
                "labels": labels,
                "rules": rules,
                "drawing": drawing,
                "workstation": layout.shows_a_workstation(),
                "chair_score": layout.chair_score,
                "rubric": rubric,
                "seen": {
                    "monitors": layout.monitors.len(),
                    "laptops": layout.laptops.len(),
                    "keyboards": count(CocoClass::KEYBOARD),
                    "mice": count(CocoClass::MOUSE),
                    "chairs": layout.seats.iter().filter(|s| !s.is_couch).count(),
                    "couches": layout.seats.iter().filter(|s| s.is_couch).count(),
                    "faint_chairs": layout.faint_chairs.len(),
                    "plants": layout.plants.len(),
                    "clutter": layout.clutter.len(),
                    "cables": evidence.cables.len(),
                    "light_share": evidence.lighting.light_share,
                    "share_of_visible": evidence.lighting.share_of_visible,
                    // Each named hue's coloured light, as a share of the photo outside the screens.
                    "hues": evidence
                        .lighting
                        .hues
                        .iter()
                        .map(|(hue, share)| (format!("{hue:?}"), share * evidence.lighting.light_share))
                        .collect::<BTreeMap<_, _>>(),
                    "median_value": evidence.lighting.median_value,
                    "palette_coverage": evidence.palette.coverage(3),
                    "greenery": evidence.greenery.share,
                    "desk_edges": evidence.desk_edges,
                    "flat_share": Texture::measure(pixels).flat_share,
                },
                "boxes": boxes_by_class(&detections, pixels.width(), pixels.height()),
                "probabilities": scene.probabilities,
                "embedding": scene.embedding,
                "crops": crops,
                "chair_embedding": chair,
                "peaks": peaks,
                "measures": vision::measures(&evidence),
            });
            println!("{row}");
        }
    }
    Ok(())
}

/// Every COCO class the detector boxed: how many boxes, the best score and the share of the
/// picture its boxes cover, printed as `[count, best, share]`.
fn boxes_by_class(
    detections: &[Detection],
    width: u32,
    height: u32,
) -> BTreeMap<&'static str, (u32, f64, f64)> {
    let picture = f64::from(width.max(1)) * f64::from(height.max(1));
    let mut tally = BTreeMap::new();
    for d in detections {
        let (x0, y0, x1, y1) = d.bbox;
        let (count, best, share) = tally.entry(d.class.label()).or_insert((0, 0.0, 0.0));
        *count += 1;
        *best = f64::max(*best, f64::from(d.score));
        *share += f64::from((x1 - x0) * (y1 - y0)) / picture;
    }
    tally
}

/// What the web app uploads: the photo fitted into 1920x1080, JPEG quality 0.9.
fn as_the_browser_uploads(bytes: &[u8]) -> Result<Vec<u8>, Box<dyn Error>> {
    let decoded = image::load_from_memory(bytes)?;
    // `resize` keeps the aspect ratio, fitting the photo inside the box.
    let fitted = if decoded.width() > 1920 || decoded.height() > 1080 {
        decoded.resize(1920, 1080, image::imageops::FilterType::Triangle)
    } else {
        decoded
    }
    .to_rgb8();
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut Cursor::new(&mut out), 90).encode_image(&fitted)?;
    Ok(out)
}
