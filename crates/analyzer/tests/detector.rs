//! The embedded detector on real photos.
//!
//! Photos are read only from `$SETUPIQ_EVAL_PHOTOS` (in development `../shared/photos`, whose
//! `SOURCES.md` says what each shows); they are never part of the project. Without the
//! variable or the folder, each photo test says loudly that it was skipped and passes.
//!
//! The model finds monitors in ~4 of 5 setup photos and keyboards and mice in about half
//! (`models/README.md`), so the photo assertions are per photo, on what it was checked by eye
//! (boxes drawn with `examples/detect.rs`) to find on the right objects — not a hope that it
//! sees everything a person sees.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use image::RgbImage;
use setupiq_analyzer::internals::detector::{
    CocoClass, Detection, Detector, DetectorError, FAINT_CHAIR_THRESHOLD, MODEL_SHA256, SCORE_THRESHOLD,
};

fn model_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/nanodet-coco.onnx")
}

/// Loaded once per test binary; the tests share it as requests will.
fn detector() -> &'static Detector {
    static DETECTOR: OnceLock<Detector> = OnceLock::new();
    DETECTOR.get_or_init(|| Detector::load(model_path()).expect("models/nanodet-coco.onnx loads"))
}

/// The photo, upright, or `None` (after a loud message) when the photo folder is not there.
fn photo(name: &str) -> Option<RgbImage> {
    let folder = setupiq_test_utils::eval_photos(&format!("check {name}"))?;
    Some(setupiq_test_utils::upright_photo(&folder.join(name)))
}

fn detect(name: &str) -> Option<Vec<Detection>> {
    let image = photo(name)?;
    let detections = detector().detect(&image).unwrap();
    let summary: Vec<_> = detections.iter().map(|d| format!("{} {:.2}", d.class, d.score)).collect();
    println!("{name}: {}", summary.join(", "));
    for d in &detections {
        let (x0, y0, x1, y1) = d.bbox;
        assert!(
            0.0 <= x0
                && x0 <= x1
                && x1 <= image.width() as f32
                && 0.0 <= y0
                && y0 <= y1
                && y1 <= image.height() as f32,
            "{name}: {d:?} lies outside the {}x{} photo",
            image.width(),
            image.height()
        );
        // Chairs down to the faint threshold (for the chair gate), every other class from 0.3.
        let threshold = if d.class == CocoClass::CHAIR { FAINT_CHAIR_THRESHOLD } else { SCORE_THRESHOLD };
        assert!((threshold..=1.0).contains(&d.score), "{name}: {d:?}");
    }
    Some(detections)
}

/// Asserts that, for each group, at least one of its classes was found.
fn assert_finds(name: &str, groups: &[&[CocoClass]]) {
    let Some(found) = detect(name) else { return };
    for group in groups {
        assert!(
            found.iter().any(|d| group.contains(&d.class)),
            "{name}: expected one of {group:?}, found {:?}",
            found.iter().map(|d| (d.class, d.score)).collect::<Vec<_>>()
        );
    }
}

fn assert_no_desk_gear(name: &str) {
    let Some(found) = detect(name) else { return };
    let gear: Vec<_> = found.iter().filter(|d| d.class.is_desk_gear()).collect();
    assert!(gear.is_empty(), "{name}: no monitor, laptop, keyboard or mouse expected, found {gear:?}");
}

const SCREEN: &[CocoClass] = &[CocoClass::TV, CocoClass::LAPTOP];
const INPUT: &[CocoClass] = &[CocoClass::KEYBOARD, CocoClass::MOUSE];
const KEYBOARD: &[CocoClass] = &[CocoClass::KEYBOARD];
const MOUSE: &[CocoClass] = &[CocoClass::MOUSE];
const MONITOR: &[CocoClass] = &[CocoClass::TV];
const LAPTOP: &[CocoClass] = &[CocoClass::LAPTOP];
const CHAIR: &[CocoClass] = &[CocoClass::CHAIR];

// Every setup photo below was checked with the boxes drawn: the monitor, keyboard and mouse
// boxes sit on a monitor, keyboard and mouse.

#[test]
fn tidy_desk_monitor_keyboard_mouse_and_chair() {
    // A 27" monitor, a laptop on a stand, a TKL keyboard and a mouse on a cork mat, an office
    // chair in front: all clearly visible, 4032x3024.
    assert_finds("setup01_tidy_monitor_laptop.jpg", &[MONITOR, KEYBOARD, MOUSE, CHAIR]);
}

#[test]
fn small_photo_of_an_apple_desk() {
    // Only 500x296: a MacBook and a Cinema Display, keyboard and mouse in front.
    assert_finds("setup02_mac_cinema_display.jpg", &[MONITOR, LAPTOP, KEYBOARD, MOUSE]);
}

#[test]
fn office_with_several_crt_monitors() {
    assert_finds("setup03_office_multi_crt.jpg", &[MONITOR, KEYBOARD, MOUSE]);
}

#[test]
fn ultrawide_with_laptop() {
    assert_finds("setup04_ultrawide_laptop.jpg", &[MONITOR, LAPTOP, KEYBOARD]);
}

#[test]
fn dark_rgb_room_still_shows_its_monitors_and_input_devices() {
    // Almost black apart from the screens and the lit keyboard: the scores are lower
    // (0.4-0.45) but the boxes are on the monitors, the keyboard and the mouse.
    assert_finds("setup05_rgb_dark_dual.jpg", &[MONITOR, KEYBOARD, MOUSE]);
}

#[test]
fn dual_monitors_with_a_chair() {
    assert_finds("setup11_dual_monitor_chair.jpg", &[MONITOR, KEYBOARD, MOUSE, CHAIR]);
}

#[test]
fn messy_desk_still_has_its_monitor_and_keyboard() {
    assert_finds("setup14_messy_desk.jpg", &[MONITOR, KEYBOARD, MOUSE]);
}

#[test]
fn minimal_desk_with_ipad() {
    assert_finds("setup17_minimal_plant_ipad.jpg", &[SCREEN, KEYBOARD]);
}

#[test]
fn plant_jungle_desk() {
    assert_finds("setup18_plants_jungle.jpg", &[MONITOR, KEYBOARD, MOUSE, &[CocoClass::POTTED_PLANT]]);
}

#[test]
fn l_shaped_desk_with_plants_and_chair() {
    assert_finds("setup20_lshape_plants_chair.jpg", &[MONITOR, KEYBOARD, MOUSE, CHAIR]);
}

#[test]
fn busy_rgb_photos_show_a_screen_and_an_input_device() {
    // Purple-lit PC build and a rack with an L-shaped desk: cluttered, lit, partly hidden;
    // only the weaker claim "a screen and a keyboard or mouse" is asserted.
    assert_finds("setup06_rgb_purple_pc.jpg", &[SCREEN, INPUT]);
    assert_finds("setup09_rack_lshape_rgb.jpg", &[SCREEN, INPUT]);
}

// Not asserted: setup15_under_desk_cables.jpg shows the cabling under a desk (nothing for
// the detector to find — that is the image statistics' job), and the anime-style illustration
// edge02 does get "tv"/"laptop" boxes; telling a drawing from a photo is not this model's job.

#[test]
fn a_cat_is_not_a_desk_setup() {
    assert_no_desk_gear("neg03_cat.jpg");
}

#[test]
fn a_desktop_screenshot_is_not_a_desk_setup() {
    assert_no_desk_gear("neg01_desktop_screenshot.jpg");
}

#[test]
fn detection_is_deterministic() {
    let Some(image) = photo("setup02_mac_cinema_display.jpg") else { return };
    let first = detector().detect(&image).unwrap();
    let second = detector().detect(&image).unwrap();
    assert_eq!(first, second);
}

#[test]
fn blank_and_degenerate_images_give_nothing() {
    assert!(detector().detect(&RgbImage::new(0, 0)).unwrap().is_empty());
    assert!(detector().detect(&RgbImage::new(1, 1)).unwrap().is_empty());
    let grey = RgbImage::from_pixel(640, 480, image::Rgb([128, 128, 128]));
    assert!(detector().detect(&grey).unwrap().is_empty());
    // Extreme aspect ratios stay inside the letterbox arithmetic.
    assert!(detector().detect(&RgbImage::new(4000, 3)).unwrap().iter().all(|d| d.bbox.3 <= 3.0));
}

#[test]
fn one_detector_serves_many_threads() {
    let Some(image) = photo("setup02_mac_cinema_display.jpg") else { return };
    let expected = detector().detect(&image).unwrap();
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..3).map(|_| scope.spawn(|| detector().detect(&image).unwrap())).collect();
        for run in runs {
            assert_eq!(run.join().unwrap(), expected);
        }
    });
}

#[test]
fn a_modified_model_is_refused_with_both_checksums() {
    let bytes = std::fs::read(model_path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let truncated = dir.path().join("nanodet-coco.onnx");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();

    let error = Detector::load(&truncated).unwrap_err();
    assert!(matches!(error, DetectorError::Checksum { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains(MODEL_SHA256), "{message}");
    let actual = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(&bytes[..bytes.len() / 2]))
    };
    assert!(message.contains(&actual), "{message}");
}

#[test]
fn a_missing_model_is_a_read_error() {
    let dir = tempfile::tempdir().unwrap();
    let error = Detector::load(dir.path().join("absent.onnx")).unwrap_err();
    assert!(matches!(error, DetectorError::Read { .. }), "{error:?}");
}
