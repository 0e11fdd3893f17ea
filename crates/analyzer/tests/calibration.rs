//! The image rubric on real photos: orderings and mentions a person looking at the photos
//! agrees with, not exact numbers.
//!
//! Photos are read only from `$SETUPIQ_EVAL_PHOTOS` (in development `../shared/photos`, whose
//! `SOURCES.md` says what each shows); they are never part of the project. Without the
//! variable or the folder, each test says loudly that it was skipped and passes. Each photo
//! goes through what an upload goes through: a data URL, the upload pipeline (upright, fitted
//! to 1920x1080), the detector, the desk-gear screening, then `vision::assess`.
//! `cargo run --release -p setupiq-analysis --example eval` prints the same results in full.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::RgbImage;
use setupiq_analyzer::detector::{Detection, Detector};
use setupiq_analyzer::engine::Refusal;
use setupiq_analyzer::pipeline;
use setupiq_analyzer::result::{Assessment, Category};
use setupiq_analyzer::vision;

/// Loaded once per test binary; the tests share it as requests will.
fn detector() -> &'static Detector {
    static DETECTOR: OnceLock<Detector> = OnceLock::new();
    DETECTOR.get_or_init(|| {
        let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/nanodet-coco.onnx");
        Detector::load(model).expect("models/nanodet-coco.onnx loads")
    })
}

fn folder() -> Option<PathBuf> {
    setupiq_test_utils::eval_photos("run the calibration tests")
}

/// The photo as the analyzer gets it (through the upload pipeline) and what the detector
/// finds in it.
fn prepared(folder: &Path, name: &str) -> (RgbImage, Vec<Detection>) {
    let path = folder.join(format!("{name}.jpg"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let prepared = pipeline::prepare(&format!("data:image/jpeg;base64,{}", STANDARD.encode(bytes))).unwrap();
    let detections = detector().detect(&prepared.pixels).unwrap();
    (prepared.pixels, detections)
}

/// Screening (as `LocalAnalyzer::screen_blocking` does it, without the safety classifier)
/// and the rubric.
fn rate_in(folder: &Path, name: &str) -> Result<Assessment, Refusal> {
    let (image, detections) = prepared(folder, name);
    if !detections.iter().any(|d| d.class.is_desk_gear()) {
        return Err(Refusal::NotASetup);
    }
    vision::assess(&image, &detections)
}

/// The photo's assessment, which must be accepted and valid.
fn rated(folder: &Path, name: &str) -> Assessment {
    let assessment = rate_in(folder, name).unwrap_or_else(|refusal| panic!("{name} refused: {refusal:?}"));
    assessment.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
    println!("{name}: {assessment:#?}");
    assessment
}

fn score(a: &Assessment, category: Category) -> u8 {
    a.score_of(category).unwrap()
}

fn comment(a: &Assessment, category: Category) -> &str {
    &a.category_ratings.iter().find(|r| r.category == category).unwrap().comment
}

const SETUPS: [&str; 12] = [
    "setup01_tidy_monitor_laptop",
    "setup02_mac_cinema_display",
    "setup03_office_multi_crt",
    "setup04_ultrawide_laptop",
    "setup05_rgb_dark_dual",
    "setup06_rgb_purple_pc",
    "setup09_rack_lshape_rgb",
    "setup11_dual_monitor_chair",
    "setup14_messy_desk",
    "setup17_minimal_plant_ipad",
    "setup18_plants_jungle",
    "setup20_lshape_plants_chair",
];

#[test]
fn every_setup_photo_gets_a_valid_specific_result() {
    let Some(folder) = folder() else { return };
    for name in SETUPS {
        let a = rated(&folder, name);
        for rating in &a.category_ratings {
            assert!(rating.comment.len() > 15, "{name} {}: {:?}", rating.category, rating.comment);
        }
        // The summary names the strongest and the weakest category.
        let weakest = a.weakest_first();
        let (low, high) = (weakest[0], weakest[weakest.len() - 1]);
        if low.score != high.score {
            assert!(a.summary.contains(low.category.name()), "{name}: {}", a.summary);
            assert!(a.summary.contains(&format!("({}/10)", high.score)), "{name}: {}", a.summary);
        }
    }
}

#[test]
fn pictures_that_are_not_setup_photos_are_refused() {
    let Some(folder) = folder() else { return };
    assert_eq!(rate_in(&folder, "neg03_cat"), Err(Refusal::NotASetup));
    let screenshot = rate_in(&folder, "neg01_desktop_screenshot");
    assert!(matches!(screenshot, Err(Refusal::NotASetup | Refusal::NotAPhoto)), "{screenshot:?}");
    // The detector finds a monitor and chairs in the drawing: the rubric refuses it.
    assert_eq!(rate_in(&folder, "edge02_illustration_room"), Err(Refusal::NotAPhoto));
}

#[test]
fn the_messy_desk_is_the_least_clean() {
    let Some(folder) = folder() else { return };
    let messy = rated(&folder, "setup14_messy_desk");
    let messy_score = score(&messy, Category::DeskCleanliness);
    for tidy in ["setup01_tidy_monitor_laptop", "setup02_mac_cinema_display", "setup17_minimal_plant_ipad"] {
        let tidy_score = score(&rated(&folder, tidy), Category::DeskCleanliness);
        assert!(messy_score + 3 <= tidy_score, "messy {messy_score} vs {tidy} {tidy_score}");
    }
    let said = comment(&messy, Category::DeskCleanliness);
    assert!(said.contains("bottles") && said.contains("cups"), "{said}");
    assert!(
        score(&messy, Category::AestheticVibe)
            < score(&rated(&folder, "setup17_minimal_plant_ipad"), Category::AestheticVibe)
    );
}

#[test]
fn rgb_rooms_outshine_plain_rooms_and_their_colours_are_named() {
    let Some(folder) = folder() else { return };
    let mut rgb_scores = Vec::new();
    for (name, colour) in [
        ("setup05_rgb_dark_dual", "pink"),
        ("setup06_rgb_purple_pc", "purple"),
        ("setup09_rack_lshape_rgb", "purple"),
    ] {
        let a = rated(&folder, name);
        let said = comment(&a, Category::RgbLighting);
        assert!(said.contains(colour), "{name}: {said}");
        assert_eq!(a.category, "RGB Gaming Battlestation", "{name}");
        rgb_scores.push(score(&a, Category::RgbLighting));
    }
    for plain in [
        "setup01_tidy_monitor_laptop",
        "setup02_mac_cinema_display",
        "setup03_office_multi_crt",
        "setup17_minimal_plant_ipad",
    ] {
        let plain_score = score(&rated(&folder, plain), Category::RgbLighting);
        assert!(rgb_scores.iter().all(|&s| s > plain_score + 2), "{plain} {plain_score} vs {rgb_scores:?}");
    }
}

#[test]
fn loose_cables_under_the_desk_are_found_and_cost_points() {
    let Some(folder) = folder() else { return };
    // The detector sees no desk gear in this close-up of the underside of a desk (screening
    // would refuse it), so the rubric is asked directly.
    let (image, detections) = prepared(&folder, "setup15_under_desk_cables");
    let under = vision::assess(&image, &detections).unwrap();
    under.validate().unwrap();
    println!("setup15: {under:#?}");
    let dual = rated(&folder, "setup11_dual_monitor_chair");
    for (name, a) in [("setup15", &under), ("setup11", &dual)] {
        let cables = &a.cable_inventory.cables;
        assert!(cables.iter().any(|c| c.location.starts_with("under the desk")), "{name}: {cables:#?}");
        assert!(comment(a, Category::CableManagement).contains("under the desk"), "{name}");
        for tidy in ["setup01_tidy_monitor_laptop", "setup17_minimal_plant_ipad"] {
            let tidy_score = score(&rated(&folder, tidy), Category::CableManagement);
            assert!(score(a, Category::CableManagement) < tidy_score, "{name} vs {tidy}");
        }
    }
    let tidy = rated(&folder, "setup01_tidy_monitor_laptop");
    assert!(tidy.cable_inventory.cables.is_empty(), "{:#?}", tidy.cable_inventory);
}

#[test]
fn plants_are_mentioned_in_the_aesthetic_vibe() {
    let Some(folder) = folder() else { return };
    for name in ["setup17_minimal_plant_ipad", "setup18_plants_jungle", "setup20_lshape_plants_chair"] {
        let a = rated(&folder, name);
        assert!(comment(&a, Category::AestheticVibe).contains("plant"), "{name}");
    }
    let jungle = rated(&folder, "setup18_plants_jungle");
    assert_eq!(jungle.category, "Plant-Filled Workspace");
    let plain = rated(&folder, "setup01_tidy_monitor_laptop");
    assert!(!comment(&plain, Category::AestheticVibe).contains("plant"));
}

#[test]
fn monitors_are_counted_and_their_arrangement_described() {
    let Some(folder) = folder() else { return };
    let stacked = comment(&rated(&folder, "setup05_rgb_dark_dual"), Category::MonitorSetup).to_owned();
    assert!(stacked.contains("2 monitors stacked"), "{stacked}");
    let side_by_side =
        comment(&rated(&folder, "setup11_dual_monitor_chair"), Category::MonitorSetup).to_owned();
    assert!(side_by_side.contains("2 monitors side by side at the same height"), "{side_by_side}");
    let ultrawide = comment(&rated(&folder, "setup04_ultrawide_laptop"), Category::MonitorSetup).to_owned();
    assert!(ultrawide.contains("1 ultrawide monitor") && ultrawide.contains("laptop"), "{ultrawide}");
    let single = comment(&rated(&folder, "setup14_messy_desk"), Category::MonitorSetup).to_owned();
    assert!(single.starts_with("1 monitor"), "{single}");
}

#[test]
fn chairs_are_seen_and_a_missing_chair_is_a_neutral_score() {
    let Some(folder) = folder() else { return };
    let with_chair = rated(&folder, "setup11_dual_monitor_chair");
    assert!(comment(&with_chair, Category::ChairComfort).contains("black desk chair"));
    assert!(comment(&with_chair, Category::ChairComfort).contains("in front of the screens"));
    assert!(score(&with_chair, Category::ChairComfort) >= 7);
    let without = rated(&folder, "setup06_rgb_purple_pc");
    assert!(comment(&without, Category::ChairComfort).to_lowercase().contains("no chair is visible"));
    assert_eq!(score(&without, Category::ChairComfort), 5);
}

#[test]
fn the_same_photo_gives_the_same_result() {
    let Some(folder) = folder() else { return };
    for name in ["setup09_rack_lshape_rgb", "setup14_messy_desk"] {
        assert_eq!(rate_in(&folder, name), rate_in(&folder, name), "{name}");
    }
}
