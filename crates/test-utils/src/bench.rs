//! Helpers the `make bench` programs share: timing, percentiles, test photos of a given size.
//! Benchmarks print figures; they assert nothing about time.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use base64::Engine as _;
use image::imageops::FilterType;

/// Prints `label` with the p50, p95 and minimum of `samples`; returns the p50.
pub fn summarize(label: &str, mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    let n = samples.len();
    let pick = |q: f64| samples[((n as f64 * q) as usize).min(n - 1)];
    println!(
        "{label:<52} n={n:<4} p50={:>9.1?} p95={:>9.1?} min={:>9.1?}",
        pick(0.5),
        pick(0.95),
        samples[0]
    );
    pick(0.5)
}

/// Runs `work` once; its output and how long it took.
pub fn time<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let out = work();
    (out, started.elapsed())
}

/// A JPEG as the browser sends it, as a data URL.
pub fn data_url(bytes: &[u8]) -> String {
    format!("data:image/jpeg;base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// The photo resized to exactly `width`x`height` and saved as a JPEG of camera quality.
pub fn jpeg_of_size(source: &Path, width: u32, height: u32, out: &Path) -> Vec<u8> {
    let image = image::open(source).unwrap().resize_exact(width, height, FilterType::Triangle).to_rgb8();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 92).encode_image(&image).unwrap();
    std::fs::write(out, &bytes).unwrap();
    bytes
}

/// One shared photo as a 1920x1080 and a 12 MP (4000x3000) camera JPEG, in memory and as
/// files (the files live as long as this value).
pub struct BenchPhotos {
    pub full_hd: Vec<u8>,
    pub full_hd_file: PathBuf,
    pub twelve_mp: Vec<u8>,
    pub twelve_mp_file: PathBuf,
    _dir: tempfile::TempDir,
}

/// [`BenchPhotos`] of the shared photo `name`, or `None` (said on stdout) when
/// `$SETUPIQ_EVAL_PHOTOS` is not set to the photo folder.
pub fn bench_photos(name: &str, bench: &str) -> Option<BenchPhotos> {
    let Some(photos) = std::env::var_os("SETUPIQ_EVAL_PHOTOS").map(PathBuf::from).filter(|p| p.is_dir())
    else {
        println!("{bench} benchmark skipped: set SETUPIQ_EVAL_PHOTOS to the shared photo folder");
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    let source = photos.join(name);
    let full_hd_file = dir.path().join("full-hd.jpg");
    let twelve_mp_file = dir.path().join("12mp.jpg");
    let full_hd = jpeg_of_size(&source, 1920, 1080, &full_hd_file);
    let twelve_mp = jpeg_of_size(&source, 4000, 3000, &twelve_mp_file);
    Some(BenchPhotos { full_hd, full_hd_file, twelve_mp, twelve_mp_file, _dir: dir })
}
