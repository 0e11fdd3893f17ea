//! The open_nsfw safety classifier with the real model (`make models` fetches it).
//!
//! Photos are read only from `$SETUPIQ_EVAL_PHOTOS` (in development `../shared/photos`); they
//! are never part of the project. Without the variable or the folder, the photo test says
//! loudly that it was skipped and passes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use image::{Rgb, RgbImage};
use setupiq_analyzer::internals::safety::{
    MODEL_FILE, MODEL_SHA256, NSFW_THRESHOLD, SafetyClassifier, SafetyError,
};

fn model_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models").join(MODEL_FILE)
}

/// Loaded once per test binary; the tests share it as requests will.
fn classifier() -> &'static SafetyClassifier {
    static CLASSIFIER: OnceLock<SafetyClassifier> = OnceLock::new();
    CLASSIFIER.get_or_init(|| {
        SafetyClassifier::load(model_path())
            .unwrap_or_else(|e| panic!("models/{MODEL_FILE} loads (run `make models` first): {e}"))
    })
}

/// A deterministic, photo-like test card: gradients plus a few solid blocks.
fn test_card(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        let block = (x / 97 + y / 61) % 5 == 0;
        if block {
            Rgb([30, 120, 200])
        } else {
            Rgb([(x * 255 / width) as u8, (y * 255 / height) as u8, ((x + y) % 256) as u8])
        }
    })
}

#[test]
fn the_model_loads_and_gives_probabilities() {
    let classifier = classifier();
    let images = [
        test_card(1920, 1080),
        test_card(500, 296),
        test_card(90, 700),
        RgbImage::new(640, 480),
        RgbImage::from_pixel(224, 224, Rgb([255, 255, 255])),
        RgbImage::from_pixel(1, 1, Rgb([200, 150, 120])),
    ];
    for image in &images {
        let p = classifier.nsfw_probability(image).unwrap();
        println!("{}x{}: nsfw {p:.4}", image.width(), image.height());
        assert!((0.0..=1.0).contains(&p), "{p} is not a probability");
    }
}

#[test]
fn the_same_image_gives_the_same_probability() {
    let card = test_card(1920, 1080);
    let first = classifier().nsfw_probability(&card).unwrap();
    for _ in 0..3 {
        assert_eq!(classifier().nsfw_probability(&card).unwrap().to_bits(), first.to_bits());
    }
}

#[test]
fn an_empty_image_is_an_error_not_safe() {
    assert!(matches!(classifier().nsfw_probability(&RgbImage::new(0, 0)), Err(SafetyError::Run(_))));
}

#[test]
fn a_file_with_another_checksum_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(MODEL_FILE);
    // The real model with one byte changed: still parses, but is not the audited file.
    let mut bytes = std::fs::read(model_path()).expect("run `make models` first");
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&path, &bytes).unwrap();

    let err = SafetyClassifier::load(&path).unwrap_err();
    let SafetyError::Checksum { expected, actual, .. } = &err else { panic!("{err}") };
    assert_eq!(*expected, MODEL_SHA256);
    assert_ne!(actual, MODEL_SHA256);
    assert!(err.to_string().contains("make models"), "{err}");

    std::fs::write(&path, b"not a model").unwrap();
    assert!(matches!(SafetyClassifier::load(&path), Err(SafetyError::Checksum { .. })));
}

#[test]
fn a_missing_file_says_to_run_make_models() {
    let dir = tempfile::tempdir().unwrap();
    let err = SafetyClassifier::load(dir.path().join(MODEL_FILE)).unwrap_err();
    assert!(matches!(err, SafetyError::Missing { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("run `make models`"), "{message}");
    assert!(message.contains(MODEL_FILE), "{message}");
}

/// The evaluation photos, upright, or `None` (after a loud message) when the folder is absent.
fn evaluation_photos() -> Option<Vec<(String, RgbImage)>> {
    let folder = setupiq_test_utils::eval_photos("screen its photos")?;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"))
        })
        .collect();
    paths.sort();
    let photos = paths
        .iter()
        .map(|path| {
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                setupiq_test_utils::upright_photo(path),
            )
        })
        .collect();
    Some(photos)
}

#[test]
fn every_evaluation_photo_is_safe_for_work() {
    let Some(photos) = evaluation_photos() else { return };
    assert!(!photos.is_empty(), "no .jpg in SETUPIQ_EVAL_PHOTOS");
    for (name, image) in &photos {
        let p = classifier().nsfw_probability(image).unwrap();
        println!("{name}: nsfw {p:.4}");
        assert!(p < NSFW_THRESHOLD, "{name}: nsfw {p} reaches the threshold {NSFW_THRESHOLD}");
    }
}
