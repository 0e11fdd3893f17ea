//! The image rubric on real photos: orderings and mentions a person looking at the photos
//! agrees with, not exact numbers.
//!
//! Photos are read only from `$SETUPIQ_EVAL_PHOTOS` (in development `../shared/photos`, whose
//! `SOURCES.md` says what each shows); they are never part of the project. Without the
//! variable or the folder, each test says loudly that it was skipped and passes. Each photo
//! goes through what an upload goes through: a data URL, the upload pipeline (upright, fitted
//! to 1920x1080), the detector and the scene classifier, the setup screening
//! (`LocalModels::look`), then `vision::assess`. Every photo is also run through what the
//! browser does before an upload (a downscale to fit 1920x1080 and JPEG quality 0.9): it
//! must get the same decision and scores within a point.
//! `cargo run --release -p setupiq-analyzer --example eval` prints the same results in full.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::RgbImage;
use setupiq_analyzer::Refusal;
use setupiq_analyzer::internals::local::LocalModels;
use setupiq_analyzer::result::{Assessment, Category};
use setupiq_analyzer::{RatingError, pipeline};

/// Loaded once per test binary; the tests share them as requests will.
fn models() -> &'static LocalModels {
    static MODELS: OnceLock<LocalModels> = OnceLock::new();
    MODELS.get_or_init(|| {
        LocalModels::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models"))
            .expect("the models load (make models)")
    })
}

fn folder() -> Option<PathBuf> {
    setupiq_test_utils::eval_photos("run the calibration tests")
}

/// The JPEG photo `name` as the analyzer gets it (through the upload pipeline).
fn prepared(folder: &Path, name: &str) -> RgbImage {
    prepared_file(&folder.join(format!("{name}.jpg")))
}

/// A JPEG or PNG file as the analyzer gets it.
fn prepared_file(path: &Path) -> RgbImage {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mime = if path.extension().is_some_and(|e| e == "png") { "image/png" } else { "image/jpeg" };
    pipeline::prepare(&format!("data:{mime};base64,{}", STANDARD.encode(bytes))).unwrap().pixels
}

/// Screening (as `LocalAnalyzer::screen_blocking` does it, without the safety classifier)
/// and the rubric.
fn rate(image: &RgbImage) -> Result<Assessment, Refusal> {
    match models().look(image) {
        Ok(screening) => Ok(screening.assess()),
        Err(RatingError::Refused(refusal)) => Err(refusal),
        Err(failed) => panic!("{failed}"),
    }
}

fn rate_in(folder: &Path, name: &str) -> Result<Assessment, Refusal> {
    rate(&prepared(folder, name))
}

/// What a browser uploads: the photo fitted to 1920x1080 and encoded as JPEG at quality 0.9
/// (`AnalyzeForm`'s canvas), then what the server makes of that upload.
fn as_the_browser_sends_it(folder: &Path, name: &str) -> RgbImage {
    let path = folder.join(format!("{name}.jpg"));
    let photo = setupiq_test_utils::upright_photo(&path);
    let (w, h) = (photo.width() as f32, photo.height() as f32);
    let scale = (1920.0 / w).min(1080.0 / h).min(1.0);
    let fitted = if scale < 1.0 {
        image::imageops::resize(
            &photo,
            (w * scale).round() as u32,
            (h * scale).round() as u32,
            image::imageops::FilterType::Triangle,
        )
    } else {
        photo
    };
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90).encode_image(&fitted).unwrap();
    pipeline::prepare(&format!("data:image/jpeg;base64,{}", STANDARD.encode(jpeg))).unwrap().pixels
}

/// The photo's assessment, which must be accepted and valid.
fn rated(folder: &Path, name: &str) -> Assessment {
    let assessment = rate_in(folder, name).unwrap_or_else(|refusal| panic!("{name} refused: {refusal:?}"));
    assessment.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
    println!("{name}: {assessment:#?}");
    assessment
}

/// The category's score in points (half points are exact: 6.5).
fn score(a: &Assessment, category: Category) -> f64 {
    a.score_of(category).unwrap().value()
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
    let mut halves = Vec::new();
    for name in SETUPS {
        let a = rated(&folder, name);
        for rating in &a.category_ratings {
            assert!(rating.comment.len() > 15, "{name} {}: {:?}", rating.category, rating.comment);
            if let Some(score) = rating.score.filter(|s| !s.is_whole()) {
                halves.push(format!("{name} {}: {score}/10", rating.category));
            }
        }
        // The summary names the strongest and the weakest category the photo shows.
        let weakest = a.weakest_first();
        let (low, high) = (weakest[0], weakest[weakest.len() - 1]);
        if low.score != high.score {
            assert!(a.summary.contains(low.category.name()), "{name}: {}", a.summary);
            assert!(a.summary.contains(&format!("({}/10)", high.score.unwrap())), "{name}: {}", a.summary);
        }
        for unseen in a.category_ratings.iter().filter(|r| r.is_unseen()) {
            assert!(!a.summary.contains(unseen.category.name()), "{name}: {}", a.summary);
        }
    }
    // The learned judgement shows half points: some of these setups get one.
    println!("half points: {halves:#?}");
    assert!(!halves.is_empty(), "no setup photo got a half point");
}

#[test]
fn pictures_that_are_not_setup_photos_are_refused() {
    let Some(folder) = folder() else { return };
    assert_eq!(rate_in(&folder, "neg03_cat"), Err(Refusal::NotASetup));
    // The scene classifier reads a web site.
    assert_eq!(rate_in(&folder, "neg01_desktop_screenshot"), Err(Refusal::NotAPhoto));
    // The detector finds a monitor and chairs in the drawing: flat fills, and no workplace.
    assert_eq!(rate_in(&folder, "edge02_illustration_room"), Err(Refusal::NotAPhoto));
}

/// A flat-filled picture with no sure keyboard is perhaps drawn (`vision::Drawing::Perhaps`):
/// the learned gate judges it, and only what it refuses is told it is not a photo.
#[test]
fn a_flat_photo_the_gate_takes_for_a_setup_is_rated_and_a_flat_render_is_not_a_photo() {
    let Some(folder) = folder() else { return };
    let train = folder.parent().unwrap().join("photos-train");
    if !train.join("labels.tsv").is_file() {
        return eprintln!("SKIPPED: no {} beside the evaluation photos", train.display());
    }
    // A real ultrawide desk with an RGB tower, as flat as a drawing (0.29 of its blocks).
    assert!(rate_in(&train, "tC34_curved_ultrawide_rgb_tower_mesh_chair").is_ok());
    // An isometric render of a room with a small desk (0.77).
    assert_eq!(
        rate_in(&train, "tDedge08_isometric_render_room_small_desk").map(|_| ()),
        Err(Refusal::NotAPhoto)
    );
}

#[test]
fn the_browser_upload_gets_the_same_verdict_as_the_original() {
    let Some(folder) = folder() else { return };
    for name in SETUPS.iter().chain(&["neg01_desktop_screenshot", "neg03_cat", "edge02_illustration_room"]) {
        let original = rate_in(&folder, name);
        let uploaded = rate(&as_the_browser_sends_it(&folder, name));
        match (&original, &uploaded) {
            (Ok(a), Ok(b)) => {
                assert!((a.overall_score - b.overall_score).abs() <= 0.5, "{name}: {a:#?} vs {b:#?}");
                for (x, y) in a.category_ratings.iter().zip(&b.category_ratings) {
                    let close = match (x.score, y.score) {
                        (Some(x), Some(y)) => x.distance(y) <= 1.0,
                        (x, y) => x == y,
                    };
                    assert!(close, "{name} {}: {:?} vs {:?}", x.category, x.score, y.score);
                }
            }
            (Err(x), Err(y)) => assert_eq!(x, y, "{name}"),
            _ => panic!("{name}: {original:?} from the file but {uploaded:?} from the browser"),
        }
    }
}

#[test]
fn the_messy_desk_is_the_least_clean() {
    let Some(folder) = folder() else { return };
    let messy = rated(&folder, "setup14_messy_desk");
    let messy_score = score(&messy, Category::DeskCleanliness);
    for tidy in ["setup01_tidy_monitor_laptop", "setup02_mac_cinema_display", "setup17_minimal_plant_ipad"] {
        let tidy_score = score(&rated(&folder, tidy), Category::DeskCleanliness);
        assert!(messy_score + 3.0 <= tidy_score, "messy {messy_score} vs {tidy} {tidy_score}");
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
    for plain in ["setup01_tidy_monitor_laptop", "setup02_mac_cinema_display", "setup03_office_multi_crt"] {
        let plain_score = score(&rated(&folder, plain), Category::RgbLighting);
        assert!(rgb_scores.iter().all(|&s| s > plain_score + 2.0), "{plain} {plain_score} vs {rgb_scores:?}");
    }
    // A minimal desk with a blue LED backlight behind its poster and a warm one behind the
    // monitor: lit with intent, above every plain room. (The learned judgement also puts it
    // above setup09's purple room, which a person would not: docs/scoring.md, "Still
    // misjudged".)
    let minimal = score(&rated(&folder, "setup17_minimal_plant_ipad"), Category::RgbLighting);
    for plain in ["setup01_tidy_monitor_laptop", "setup02_mac_cinema_display", "setup03_office_multi_crt"] {
        let plain_score = score(&rated(&folder, plain), Category::RgbLighting);
        assert!(minimal > plain_score + 2.0, "setup17 {minimal} vs {plain} {plain_score}");
    }
}

#[test]
fn loose_cables_under_the_desk_are_found_and_cost_points() {
    let Some(folder) = folder() else { return };
    // A close-up of the underside of a desk: no screen in it, yet a setup (the learned gate
    // takes it for one, as a person would), and its Monitor Setup can't be judged.
    let under = rated(&folder, "setup15_under_desk_cables");
    assert_eq!(under.score_of(Category::MonitorSetup), None);
    let dual = rated(&folder, "setup11_dual_monitor_chair");
    for (name, a) in [("setup15", &under), ("setup11", &dual)] {
        let cables = &a.cable_inventory.cables;
        assert!(cables.iter().any(|c| c.location.starts_with("under the desk")), "{name}: {cables:#?}");
        assert!(comment(a, Category::CableManagement).contains("under the desk"), "{name}");
        // (setup17, a minimal desk, is no reference here: the calibration rates its cables
        // lower than a person would; docs/scoring.md, "Still misjudged".)
        let tidy_score = score(&rated(&folder, "setup01_tidy_monitor_laptop"), Category::CableManagement);
        assert!(score(a, Category::CableManagement) < tidy_score, "{name} vs setup01");
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
    assert!(single.contains("1 monitor"), "{single}");
}

#[test]
fn chairs_are_seen_and_a_missing_chair_is_unseen() {
    let Some(folder) = folder() else { return };
    let with_chair = rated(&folder, "setup11_dual_monitor_chair");
    assert!(comment(&with_chair, Category::ChairComfort).contains("black desk chair"));
    assert!(comment(&with_chair, Category::ChairComfort).contains("in front of the screens"));
    // A good office chair rates well (a person would give it 8; before the closer look at the
    // chair, the learned judgement gave 6).
    assert!(score(&with_chair, Category::ChairComfort) >= 7.0);
    let without = rated(&folder, "setup06_rgb_purple_pc");
    assert_eq!(
        comment(&without, Category::ChairComfort),
        "No chair in view: comfort can't be judged from this photo."
    );
    assert_eq!(without.score_of(Category::ChairComfort), None);
    assert!(!without.summary.contains(Category::ChairComfort.name()), "{}", without.summary);
}

#[test]
fn a_chair_is_judged_by_a_closer_look_at_it() {
    let Some(folder) = folder() else { return };
    // A mesh office chair pulled up to the desk against a fabric armchair in the corner of a
    // room (neither chair labelled in the fit): before the closer look, both got 5.
    let mesh = score(&rated(&folder, "setup01_tidy_monitor_laptop"), Category::ChairComfort);
    let armchair = score(&rated(&folder, "setup09_rack_lshape_rgb"), Category::ChairComfort);
    assert!(mesh >= 7.0 && mesh >= armchair + 3.0, "mesh chair {mesh}, armchair {armchair}");
    // The closer look is paid only where a chair is rated.
    let looked = |name: &str| models().look(&prepared(&folder, name)).unwrap().chair.is_some();
    assert!(looked("setup01_tidy_monitor_laptop"));
    assert!(!looked("setup06_rgb_purple_pc"), "no chair in view");
    assert!(!looked("setup05_rgb_dark_dual"), "a faint chair the chair gate does not see");
}

#[test]
fn the_same_photo_gives_the_same_result() {
    let Some(folder) = folder() else { return };
    for name in ["setup09_rack_lshape_rgb", "setup14_messy_desk"] {
        assert_eq!(rate_in(&folder, name), rate_in(&folder, name), "{name}");
    }
}

#[test]
fn every_labelled_setup_is_accepted_and_every_other_picture_refused() {
    let Some(folder) = setupiq_test_utils::labelled_photos("check the labelled photos' decisions") else {
        return;
    };
    let labels = std::fs::read_to_string(folder.join("labels.tsv")).unwrap();
    for line in labels.lines().skip(1) {
        let mut columns = line.split('\t');
        let (file, kind) = (columns.next().unwrap(), columns.next().unwrap());
        let outcome = rate(&prepared_file(&folder.join(file))).map(|_| ());
        let expected = match kind {
            "setup" => Ok(()),
            // A kitchen, a street, a living room's TV, an armchair corner: photos, not setups.
            "negative" => Err(Refusal::NotASetup),
            // The 3D illustration: drawn, whatever it shows.
            _ if file.contains("illustration") => Err(Refusal::NotAPhoto),
            // A keyboard close-up, a PC case alone, a monitor head-on (docs/scoring.md).
            _ => Err(Refusal::NotASetup),
        };
        assert_eq!(outcome, expected, "{file} ({kind})");
    }
}

#[test]
fn a_setup_the_gate_is_sure_of_costs_no_closer_look() {
    use setupiq_analyzer::internals::vision::{self, Frame};
    let Some(folder) = folder() else { return };
    for name in ["setup01_tidy_monitor_laptop", "setup11_dual_monitor_chair", "setup05_rgb_dark_dual"] {
        let image = prepared(&folder, name);
        let models = models();
        let (detections, scene) =
            (models.detector.detect(&image).unwrap(), models.scene.see(&image).unwrap());
        let crops = models.scene.crops_embedding(&image).unwrap();
        let asked = std::cell::Cell::new(false);
        let closer_look = || {
            asked.set(true);
            models.scene.peaks(&image).map_err(Box::<dyn std::error::Error>::from)
        };
        let decided = vision::screen(&image, &Frame::new(&image), &detections, &scene, &crops, closer_look);
        assert!(decided.is_ok(), "{name}: {decided:?}");
        assert!(!asked.get(), "{name}: the closer look was taken");
    }
}
