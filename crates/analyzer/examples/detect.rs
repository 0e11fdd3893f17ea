//! Prints what the embedded detector finds in each photo of a folder, with timings.
//!
//! ```sh
//! cargo run --release -p setupiq-analyzer --example detect -- /work/shared/photos
//! ```
//!
//! The folder defaults to `$SETUPIQ_EVAL_PHOTOS`; the model to `models/nanodet-coco.onnx`
//! (override with a second argument). With `SETUPIQ_DETECT_DRAW=DIR`, each photo is also
//! written to `DIR` with its boxes drawn, to check them by eye (keep `DIR` outside the project);
//! with `SETUPIQ_DETECT_BOXES=1` the table lists the boxes too.

use std::error::Error;
use std::path::PathBuf;
use std::time::Instant;

use image::{DynamicImage, ImageDecoder, ImageReader, Rgb, RgbImage};
use setupiq_analyzer::internals::detector::Detector;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let folder = args
        .next()
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("SETUPIQ_EVAL_PHOTOS").map(PathBuf::from))
        .ok_or("usage: detect PHOTO_FOLDER [MODEL] (or set SETUPIQ_EVAL_PHOTOS)")?;
    let model = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/nanodet-coco.onnx"));

    let started = Instant::now();
    let detector = Detector::load(&model)?;
    println!("model load (checksum, optimise, warm-up run): {:.0} ms", ms(started));

    let mut photos: Vec<PathBuf> = std::fs::read_dir(&folder)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"))
        })
        .collect();
    photos.sort();

    println!("| photo | size | decode ms | detect ms | detections (class score) |");
    println!("|---|---|---|---|---|");
    for photo in photos {
        let started = Instant::now();
        let mut decoder = ImageReader::open(&photo)?.with_guessed_format()?.into_decoder()?;
        let orientation = decoder.orientation()?;
        let mut image = DynamicImage::from_decoder(decoder)?;
        image.apply_orientation(orientation);
        let image = image.to_rgb8();
        let decode_ms = ms(started);

        let started = Instant::now();
        let detections = detector.detect(&image)?;
        let detect_ms = ms(started);
        if let Some(dir) = std::env::var_os("SETUPIQ_DETECT_DRAW") {
            let mut drawn = image.clone();
            for d in &detections {
                draw_box(&mut drawn, d.bbox, colour(d.class.id()));
            }
            let small = DynamicImage::ImageRgb8(drawn).thumbnail(1000, 1000);
            let name = photo.file_stem().ok_or("photo without a name")?;
            small.save(PathBuf::from(dir).join(name).with_extension("png"))?;
        }
        let boxes = std::env::var_os("SETUPIQ_DETECT_BOXES").is_some();
        let found: Vec<String> = detections
            .iter()
            .map(|d| {
                let (x0, y0, x1, y1) = d.bbox;
                if boxes {
                    format!("{} {:.2} ({x0:.0},{y0:.0},{x1:.0},{y1:.0})", d.class, d.score)
                } else {
                    format!("{} {:.2}", d.class, d.score)
                }
            })
            .collect();
        println!(
            "| {} | {}x{} | {decode_ms:.0} | {detect_ms:.0} | {} |",
            photo.file_name().map(|n| n.to_string_lossy()).unwrap_or_default(),
            image.width(),
            image.height(),
            if found.is_empty() { "—".to_owned() } else { found.join(", ") }
        );
    }
    Ok(())
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

fn colour(class: usize) -> Rgb<u8> {
    const PALETTE: [[u8; 3]; 6] =
        [[255, 0, 0], [0, 255, 0], [0, 128, 255], [255, 255, 0], [255, 0, 255], [0, 255, 255]];
    Rgb(PALETTE[class % PALETTE.len()])
}

/// A rectangle outline, a few pixels thick, clipped to the image.
fn draw_box(image: &mut RgbImage, (x0, y0, x1, y1): (f32, f32, f32, f32), colour: Rgb<u8>) {
    let thickness = (image.width().max(image.height()) / 300).max(2);
    let (x0, y0, x1, y1) = (x0 as u32, y0 as u32, x1 as u32, y1 as u32);
    for (x, y, pixel) in image.enumerate_pixels_mut() {
        let inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
        let near_edge = x < x0 + thickness || x + thickness > x1 || y < y0 + thickness || y + thickness > y1;
        if inside && near_edge {
            *pixel = colour;
        }
    }
}
