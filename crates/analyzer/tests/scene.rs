//! The scene classifier (EfficientNet-Lite0, ImageNet-1k) on real photos: desk-like classes
//! dominate real setups and stay low on photos of other things, a screenshot reads as a
//! web site, and the model file is checked before it is used.
//!
//! Photos are read only from `$SETUPIQ_EVAL_PHOTOS` (see `tests/detector.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use setupiq_analyzer::internals::scene::{
    CLASSES, EMBEDDING_DIM, MODEL_SHA256, Scene, SceneError, SceneModel,
};

fn model_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/efficientnet-lite0-imagenet.onnx")
}

fn model() -> &'static SceneModel {
    static MODEL: OnceLock<SceneModel> = OnceLock::new();
    MODEL.get_or_init(|| {
        SceneModel::load(model_path()).expect("models/efficientnet-lite0-imagenet.onnx loads")
    })
}

/// ImageNet classes a desk setup is made of: desk, desktop computer, monitor, screen,
/// computer keyboard, mouse, notebook, laptop.
const DESK: [usize; 8] = [526, 527, 664, 782, 508, 673, 681, 620];
/// ImageNet's "web site".
const WEB_SITE: usize = 917;

fn see(name: &str) -> Option<Scene> {
    let folder = setupiq_test_utils::eval_photos(&format!("check {name}"))?;
    let scene = model().see(&setupiq_test_utils::upright_photo(&folder.join(name))).unwrap();
    println!("{name}: desk-like {:.2}", scene.share_of(&DESK));
    Some(scene)
}

#[test]
fn it_answers_an_embedding_and_probabilities_that_sum_to_one() {
    let scene = model().see(&image::RgbImage::from_pixel(300, 200, image::Rgb([30, 30, 40]))).unwrap();
    assert_eq!((scene.embedding.len(), scene.probabilities.len()), (EMBEDDING_DIM, CLASSES));
    let sum: f32 = scene.probabilities.iter().sum();
    assert!((sum - 1.0).abs() < 1e-3, "{sum}");
    assert!(scene.embedding.iter().all(|v| v.is_finite()));
}

#[test]
fn desk_classes_dominate_setups_and_not_other_photos() {
    for name in
        ["setup01_tidy_monitor_laptop.jpg", "setup04_ultrawide_laptop.jpg", "setup11_dual_monitor_chair.jpg"]
    {
        let Some(scene) = see(name) else { return };
        assert!(scene.share_of(&DESK) >= 0.3, "{name}: {:.2}", scene.share_of(&DESK));
    }
    let Some(cat) = see("neg03_cat.jpg") else { return };
    assert!(cat.share_of(&DESK) <= 0.11, "{:.2}", cat.share_of(&DESK));
    let Some(screenshot) = see("neg01_desktop_screenshot.jpg") else { return };
    let top =
        (0..CLASSES).max_by(|&a, &b| screenshot.probabilities[a].total_cmp(&screenshot.probabilities[b]));
    assert_eq!(top, Some(WEB_SITE), "a screenshot reads as a web site");
}

#[test]
fn the_same_photo_gives_the_same_embedding() {
    let image = image::RgbImage::from_fn(640, 480, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
    assert_eq!(model().see(&image).unwrap(), model().see(&image).unwrap());
}

#[test]
fn the_closer_look_answers_one_peak_per_map_the_same_for_the_same_photo() {
    let image =
        image::RgbImage::from_fn(1280, 720, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
    let peaks = model().peaks(&image).unwrap();
    assert_eq!(peaks.len(), EMBEDDING_DIM);
    // The maps are clipped activations (ReLU6): every peak is within 0-6, and some are lit.
    assert!(peaks.iter().all(|p| (0.0..=6.0).contains(p)), "{peaks:?}");
    assert!(peaks.iter().any(|&p| p > 0.0));
    assert_eq!(model().peaks(&image).unwrap(), peaks);
    let flat = model().peaks(&image::RgbImage::from_pixel(1280, 720, image::Rgb([30, 30, 40]))).unwrap();
    assert_ne!(flat, peaks, "a different picture lights other peaks");
}

#[test]
fn another_file_is_refused_before_it_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(model_path()).unwrap();
    let truncated = dir.path().join("scene.onnx");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let error = SceneModel::load(&truncated).err().unwrap();
    assert!(matches!(error, SceneError::Checksum { .. }), "{error:?}");
    assert!(error.to_string().contains(MODEL_SHA256));
    assert!(matches!(
        SceneModel::load(dir.path().join("absent.onnx")).err().unwrap(),
        SceneError::Read { .. }
    ));
}
