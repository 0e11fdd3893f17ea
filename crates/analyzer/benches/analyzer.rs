//! `make bench`, the analyzer on its own (no server, no database): what rating a photo costs.
//!
//! - model load (both models, checksums included), as the server does at start-up;
//! - each stage of the embedded analyzer on one photo (pipeline, safety, detector, scene
//!   classifier, rubric);
//! - the upload pipeline side by side with libvips' `vipsthumbnail` on the same file.
//!
//! The end-to-end figures (HTTP, the server's memory) are `crates/gateway/benches/analysis.rs`.
//! Needs the shared photos (`SETUPIQ_EVAL_PHOTOS`) and the models (`make models`). Prints
//! figures; asserts nothing about time.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use setupiq_analyzer::internals::local::LocalModels;
use setupiq_analyzer::internals::scene::Crop;
use setupiq_analyzer::internals::vision;
use setupiq_analyzer::pipeline;
use setupiq_test_utils::bench::{bench_photos, data_url, summarize, time};

const PHOTO: &str = "setup05_rgb_dark_dual.jpg";

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

fn bench_stages(photo: &[u8]) {
    let (models, load) = time(|| LocalModels::load(&models_dir()).unwrap());
    println!("{:<52} {load:>9.1?}", "model load (detector + safety + scene, checksums, warm-up)");
    let url = data_url(photo);
    let prepared = pipeline::prepare(&url).unwrap();
    let stage = |label: &str, work: &dyn Fn()| {
        summarize(label, (0..15).map(|_| time(work).1).collect());
    };
    stage("  pipeline (1920x1080 JPEG in)", &|| drop(pipeline::prepare(&url).unwrap()));
    stage("  safety classifier", &|| {
        std::hint::black_box(models.safety.nsfw_probability(&prepared.pixels).unwrap());
    });
    stage("  detector (two views)", &|| drop(models.detector.detect(&prepared.pixels).unwrap()));
    stage("  scene classifier (224 px)", &|| drop(models.scene.see(&prepared.pixels).unwrap()));
    stage("  scene classifier, the four crops", &|| {
        drop(models.scene.crops_embedding(&prepared.pixels).unwrap())
    });
    stage("  scene classifier, the closer look's peaks (320 px)", &|| {
        drop(models.scene.peaks(&prepared.pixels).unwrap());
    });
    // What a photo with a chair rated pays once screening is done (`vision::chair_to_look_at`):
    // one more look of the scene classifier, at a chair-sized part of the photo.
    let chair = Crop { x0: 0.3, y0: 0.4, x1: 0.7, y1: 1.0 };
    stage("  scene classifier, the closer look at a chair", &|| {
        drop(models.scene.see(&chair.of(&prepared.pixels)).unwrap());
    });
    let screening = models.look(&prepared.pixels).unwrap();
    stage("  screening (detector + scene + checks)", &|| drop(models.look(&prepared.pixels).unwrap()));
    stage("  screening with the safety classifier (as the server runs it)", &|| {
        drop(models.look_and_check_safety(&prepared.pixels));
    });
    stage("  rubric (image statistics + calibrated scores)", &|| {
        drop(vision::assess(
            &prepared.pixels,
            &screening.detections,
            &screening.scene,
            &screening.crops,
            screening.chair.as_deref(),
        ));
    });
}

fn vips_run(files: &[PathBuf], size: &str, quality: u8, out_dir: &Path) -> Option<Duration> {
    let (status, took) = time(|| {
        Command::new("vipsthumbnail")
            .args(files)
            .args(["--size", size, "-o"])
            .arg(format!("{}/%s.jpg[Q={quality},strip]", out_dir.display()))
            .status()
    });
    matches!(status, Ok(s) if s.success()).then_some(took)
}

/// libvips' own cost per image: (one process on 1 + K files - one process on 1 file) / K,
/// median of 5, so that neither process start-up nor the first image's warm-up counts.
fn vips_per_image(file: &Path, size: &str, quality: u8, work: &Path) -> Option<Duration> {
    const K: u32 = 20;
    let out_dir = work.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut many = vec![file.to_path_buf()];
    for i in 0..K {
        let copy = work.join(format!("copy{i}.jpg"));
        std::fs::copy(file, &copy).unwrap();
        many.push(copy);
    }
    let mut per_image = Vec::new();
    for _ in 0..5 {
        let one = vips_run(&many[..1], size, quality, &out_dir)?;
        let all = vips_run(&many, size, quality, &out_dir)?;
        per_image.push(all.saturating_sub(one) / K);
    }
    per_image.sort();
    Some(per_image[per_image.len() / 2])
}

/// The upload pipeline side by side with libvips on the same photo. What each side does:
///
/// - ours (in this process, warm, p50 of 15 runs): base64-decode the data URL, sniff, decode
///   with the pixel and allocation limits, apply the EXIF orientation, fit 1920x1080, encode
///   JPEG Q85 without metadata, make a 400 px thumbnail JPEG Q80, keep the RGB pixels for the
///   analyzer;
/// - libvips: `vipsthumbnail FILE --size 1920x1080 -o out.jpg[Q=85,strip]` (libjpeg-turbo,
///   shrink-on-load, lanczos3, its thread pool) and, for the same outputs, `--size 400x400`
///   at Q80 from the same file (reading a file rather than a data URL).
///
/// `vipsthumbnail` starts a process per call (about 45 ms of start-up here, plus a warm-up on
/// the first image), which is not image work, so its per-image cost is timed inside one
/// process over many copies of the file: see [`vips_per_image`]. The ratio against fit +
/// thumbnail (the same outputs) is the target (<= 1.0x); the stricter ratio against the fit
/// alone, and the old figure (a process per image, start-up included), are printed too.
fn bench_against_vips(file: &Path, bytes: &[u8], label: &str) {
    let url = data_url(bytes);
    let ours = summarize(
        &format!("pipeline, {label}"),
        (0..15).map(|_| time(|| drop(pipeline::prepare(&url).unwrap())).1).collect(),
    );
    let work = tempfile::tempdir().unwrap();
    // Our output must be a JPEG that libjpeg (through libvips) reads.
    let ours_file = work.path().join("ours.jpg");
    std::fs::write(&ours_file, pipeline::prepare(&url).unwrap().jpeg).unwrap();
    let readable = Command::new("vips").arg("avg").arg(&ours_file).output().is_ok_and(|o| o.status.success());
    let one = [file.to_path_buf()];
    let Some(_) = vips_run(&one, "1920x1080", 85, work.path()) else {
        println!("vipsthumbnail not available (Debian: libvips-tools): comparison skipped");
        return;
    };
    println!("{:<52} {}", "  our JPEG read back by libvips", if readable { "yes" } else { "NO" });
    let process = summarize(
        &format!("vipsthumbnail process, {label}"),
        (0..10).map(|_| vips_run(&one, "1920x1080", 85, work.path()).unwrap()).collect(),
    );
    let fit = vips_per_image(file, "1920x1080", 85, work.path()).unwrap();
    let thumb = vips_per_image(file, "400x400", 80, work.path()).unwrap();
    println!("{:<52} fit={fit:>9.1?} thumbnail={thumb:>9.1?}", format!("libvips per image, {label}"));
    let ratio = |theirs: Duration| ours.as_secs_f64() / theirs.as_secs_f64();
    println!("{:<52} {:.2}x libvips", format!("  ratio, same outputs (fit + thumbnail)"), ratio(fit + thumb));
    println!("{:<52} {:.2}x libvips", format!("  ratio, against its fit alone"), ratio(fit));
    println!("{:<52} {:.2}x libvips", format!("  ratio, a vipsthumbnail process per image"), ratio(process));
}

fn main() {
    let Some(photos) = bench_photos(PHOTO, "analyzer") else { return };
    println!("== analyzer ({PHOTO}) ==");
    bench_stages(&photos.full_hd);
    bench_against_vips(&photos.full_hd_file, &photos.full_hd, "1920x1080 JPEG -> fit 1920x1080");
    bench_against_vips(&photos.twelve_mp_file, &photos.twelve_mp, "12 MP JPEG -> fit 1920x1080");
}
