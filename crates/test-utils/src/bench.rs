//! Helpers the `make bench` programs share: timing, percentiles, test photos of a given size.
//! Benchmarks print figures; they assert nothing about time.

use std::path::Path;
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
