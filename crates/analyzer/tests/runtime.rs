//! The ONNX Runtime library the models run on (`make models` fetches it beside them).
//!
//! One test in its own process: the runtime is started once per process, and this test
//! needs a process where nothing has started it yet.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use setupiq_analyzer::internals::runtime::LIBRARY_FILE;
use setupiq_analyzer::internals::safety::{MODEL_FILE, SafetyClassifier, SafetyError};

fn models() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

#[test]
fn a_missing_or_altered_library_says_to_run_make_models_and_is_not_remembered() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(models().join(MODEL_FILE), dir.path().join(MODEL_FILE)).unwrap();

    let missing = SafetyClassifier::load(dir.path().join(MODEL_FILE)).unwrap_err();
    assert!(matches!(missing, SafetyError::Load { .. }), "{missing}");
    let message = missing.to_string();
    assert!(message.contains("ONNX Runtime library") && message.contains("run `make models`"), "{message}");

    std::fs::write(dir.path().join(LIBRARY_FILE), b"not the runtime").unwrap();
    let altered = SafetyClassifier::load(dir.path().join(MODEL_FILE)).unwrap_err().to_string();
    assert!(altered.contains("not the expected file") && altered.contains("make models"), "{altered}");

    // Once the real library is there, the same process starts it: a failed start is not kept.
    let classifier = SafetyClassifier::load(models().join(MODEL_FILE)).expect("run `make models` first");
    let grey = image::RgbImage::from_pixel(64, 64, image::Rgb([128, 128, 128]));
    assert!(classifier.is_safe_for_work(&grey).unwrap());
}
