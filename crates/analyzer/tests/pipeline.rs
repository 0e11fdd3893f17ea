//! The upload pipeline on hostile input: truncated, lying, oversized and random-mutated
//! files are refused with the right message, never a panic; real photos come out upright,
//! fitted and without metadata.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Cursor;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use rand::{Rng, SeedableRng};
use setupiq_analyzer::pipeline::{self, ImageRejection};

fn encode(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Vec::new();
    image.write_to(&mut Cursor::new(&mut out), format).unwrap();
    out
}

fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", STANDARD.encode(bytes))
}

fn photo(width: u32, height: u32) -> DynamicImage {
    DynamicImage::ImageRgb8(RgbImage::from_fn(width, height, |x, y| {
        Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    }))
}

#[test]
fn jpeg_png_and_webp_are_fitted_and_re_encoded() {
    for format in [ImageFormat::Jpeg, ImageFormat::Png, ImageFormat::WebP] {
        let bytes = encode(&photo(3000, 2000), format);
        let prepared = pipeline::prepare(&data_url("image/jpeg", &bytes)).unwrap();
        assert_eq!((prepared.pixels.width(), prepared.pixels.height()), (1620, 1080), "{format:?}");
        let full = image::load_from_memory(&prepared.jpeg).unwrap();
        assert_eq!((full.width(), full.height()), (1620, 1080));
        let thumb = image::load_from_memory(&prepared.thumbnail).unwrap();
        assert_eq!((thumb.width(), thumb.height()), (400, 267));
        assert_eq!(&prepared.jpeg[..3], &[0xFF, 0xD8, 0xFF]);
    }
    let small =
        pipeline::prepare(&data_url("image/png", &encode(&photo(640, 480), ImageFormat::Png))).unwrap();
    assert_eq!((small.pixels.width(), small.pixels.height()), (640, 480), "never enlarged");
}

#[test]
fn refusals_carry_the_messages_users_read() {
    assert_eq!(pipeline::prepare("hello").unwrap_err(), ImageRejection::NotAnImage);
    assert_eq!(ImageRejection::NotAnImage.to_string(), "Invalid image format.");
    assert_eq!(pipeline::prepare("data:text/plain;base64,aGk=").unwrap_err(), ImageRejection::NotAnImage);
    let huge = format!("data:image/jpeg;base64,{}", "A".repeat(14_500_000));
    let too_large = pipeline::prepare(&huge).unwrap_err();
    assert_eq!(too_large, ImageRejection::TooManyBytes { bytes: 10_875_000 });
    assert_eq!(too_large.to_string(), "This file is 10.4 MB; the largest we take is 10 MB.");
    let gif = data_url("image/png", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;");
    assert_eq!(pipeline::prepare(&gif).unwrap_err(), ImageRejection::UnsupportedType);
    let bmp = b"BM\x46\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00";
    assert_eq!(pipeline::prepare(&data_url("image/jpeg", bmp)).unwrap_err(), ImageRejection::UnsupportedType);
}

#[test]
fn a_decompression_bomb_is_refused_from_its_header() {
    let mut bomb = Vec::new();
    image::GrayImage::new(12_000, 12_000)
        .write_with_encoder(image::codecs::png::PngEncoder::new(&mut bomb))
        .unwrap();
    assert!(bomb.len() < 1_000_000, "{} bytes compress 144 MP", bomb.len());
    let refused = pipeline::prepare(&data_url("image/png", &bomb)).unwrap_err();
    assert_eq!(refused, ImageRejection::TooManyPixels { width: 12_000, height: 12_000 });
    assert_eq!(
        refused.to_string(),
        "This picture is 12000x12000 pixels; the largest we take is 40 megapixels, at most 10000 pixels on a side."
    );
}

#[test]
fn truncated_and_mutated_files_never_panic() {
    let original = encode(&photo(320, 200), ImageFormat::Jpeg);
    for cut in (0..original.len()).step_by(97) {
        let _ = pipeline::prepare(&data_url("image/jpeg", &original[..cut]));
    }
    let png = encode(&photo(64, 48), ImageFormat::Png);
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..300 {
        let mut mutated = if rng.random_bool(0.5) { original.clone() } else { png.clone() };
        for _ in 0..rng.random_range(1..8) {
            let at = rng.random_range(0..mutated.len());
            mutated[at] = rng.random();
        }
        // Refused or accepted, but always an answer.
        if let Ok(prepared) = pipeline::prepare(&data_url("image/jpeg", &mutated)) {
            assert!(prepared.pixels.width() <= 1920 && prepared.pixels.height() <= 1080);
        }
    }
}

#[test]
fn real_photos_come_out_upright_and_fitted() {
    let Some(dir) = setupiq_test_utils::eval_photos("fit real photos") else { return };
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "jpg") {
            continue;
        }
        let prepared = pipeline::prepare(&data_url("image/jpeg", &std::fs::read(&path).unwrap())).unwrap();
        let (w, h) = (prepared.pixels.width(), prepared.pixels.height());
        assert!(
            w <= 1920 && h <= 1080 && (w == 1920 || h == 1080 || (w < 1920 && h < 1080)),
            "{}: {w}x{h}",
            path.display()
        );
        assert!(!prepared.jpeg.windows(4).any(|w| w == b"Exif"), "{}: metadata stripped", path.display());
        seen += 1;
    }
    assert!(seen >= 10, "{seen} photos");
}

/// A JPEG whose EXIF says "rotate 90° clockwise to display" (orientation 6).
fn jpeg_with_orientation_6(width: u32, height: u32) -> Vec<u8> {
    let jpeg = encode(&photo(width, height), ImageFormat::Jpeg);
    let mut tiff = b"II*\x00\x08\x00\x00\x00".to_vec();
    tiff.extend_from_slice(&1u16.to_le_bytes()); // one IFD entry
    tiff.extend_from_slice(&0x0112u16.to_le_bytes()); // Orientation
    tiff.extend_from_slice(&3u16.to_le_bytes()); // SHORT
    tiff.extend_from_slice(&1u32.to_le_bytes()); // count
    tiff.extend_from_slice(&[6, 0, 0, 0]); // value
    tiff.extend_from_slice(&0u32.to_le_bytes()); // no next IFD
    let mut app1 = b"Exif\x00\x00".to_vec();
    app1.extend_from_slice(&tiff);
    let mut out = jpeg[..2].to_vec(); // SOI
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&u16::try_from(app1.len() + 2).unwrap().to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&jpeg[2..]);
    out
}

#[test]
fn the_exif_orientation_is_applied_and_then_dropped() {
    let prepared = pipeline::prepare(&data_url("image/jpeg", &jpeg_with_orientation_6(400, 200))).unwrap();
    assert_eq!((prepared.pixels.width(), prepared.pixels.height()), (200, 400), "turned upright");
    assert!(!prepared.jpeg.windows(4).any(|w| w == b"Exif"), "no metadata left");
}

#[test]
fn a_12_mp_jpeg_comes_out_fitted_with_its_proportions() {
    let prepared =
        pipeline::prepare(&data_url("image/jpeg", &encode(&photo(4000, 3000), ImageFormat::Jpeg))).unwrap();
    assert_eq!((prepared.pixels.width(), prepared.pixels.height()), (1440, 1080));
    let full = image::load_from_memory(&prepared.jpeg).unwrap().to_rgb8();
    assert_eq!(full.dimensions(), (1440, 1080));
    let thumb = image::load_from_memory(&prepared.thumbnail).unwrap();
    assert_eq!((thumb.width(), thumb.height()), (400, 300));
    // The stored JPEG (encoded in strips joined by restart markers) shows the same picture.
    let mean_error = full
        .as_raw()
        .iter()
        .zip(prepared.pixels.as_raw())
        .map(|(a, b)| u64::from(a.abs_diff(*b)))
        .sum::<u64>() as f64
        / full.as_raw().len() as f64;
    assert!(mean_error < 4.0, "mean error {mean_error}");
    // The gradient survives the resize: the left edge is dark red, 1/4 across is brighter.
    let red_at = |x: u32| prepared.pixels.get_pixel(x, 540)[0];
    assert!(red_at(2) < 10 && red_at(60) > 150, "{} {}", red_at(2), red_at(60));
}

#[test]
fn the_exif_orientation_is_applied_to_big_photos_too() {
    // 4000x3000 as stored, 3000x4000 upright: fitted to 810x1080.
    let prepared = pipeline::prepare(&data_url("image/jpeg", &jpeg_with_orientation_6(4000, 3000))).unwrap();
    assert_eq!((prepared.pixels.width(), prepared.pixels.height()), (810, 1080), "turned, then fitted");
    let thumb = image::load_from_memory(&prepared.thumbnail).unwrap();
    assert_eq!((thumb.width(), thumb.height()), (300, 400));
    assert!(!prepared.jpeg.windows(4).any(|w| w == b"Exif"), "no metadata left");
    // Rotated 90° clockwise: the stored top row (blue 128, green 0) is now the right column,
    // and the stored left column (red 0) is now the top row.
    let top_left = prepared.pixels.get_pixel(405, 1);
    assert!(top_left[0] < 10, "{top_left:?}");
    let right = prepared.pixels.get_pixel(808, 540);
    assert!(right[1] < 10, "{right:?}");
}

#[test]
fn bombs_are_refused_fast_from_their_headers() {
    // 8000x8000 (64 MP, within the side limit) of one colour: a JPEG of about a megabyte.
    let mut bomb = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bomb, 10)
        .encode_image(&RgbImage::new(8_000, 8_000))
        .unwrap();
    assert!(bomb.len() < 2_000_000, "{} bytes", bomb.len());
    let url = data_url("image/jpeg", &bomb);
    // A PNG over the side limit, as before.
    let mut png_bomb = Vec::new();
    image::GrayImage::new(12_000, 12_000)
        .write_with_encoder(image::codecs::png::PngEncoder::new(&mut png_bomb))
        .unwrap();
    let png_url = data_url("image/png", &png_bomb);
    for url in [url, png_url] {
        let started = std::time::Instant::now();
        assert!(matches!(pipeline::prepare(&url).unwrap_err(), ImageRejection::TooManyPixels { .. }));
        // Debug build, base64 included: decoding 64 MP would take seconds.
        assert!(started.elapsed() < std::time::Duration::from_millis(300), "{:?}", started.elapsed());
    }
}

#[test]
fn truncated_big_jpegs_never_panic() {
    let original = encode(&photo(4000, 3000), ImageFormat::Jpeg);
    let mut answered = 0;
    for cut in [0, 2, 3, 100, 600, 2_000, original.len() / 3, original.len() / 2, original.len() - 2] {
        if let Ok(prepared) = pipeline::prepare(&data_url("image/jpeg", &original[..cut])) {
            assert!(prepared.pixels.width() <= 1920 && prepared.pixels.height() <= 1080);
        }
        answered += 1;
    }
    assert_eq!(answered, 9);
    // A header that lies about the size (the frame says 40 000 rows).
    let mut lying = original.clone();
    let sof = lying.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
    lying[sof + 5..sof + 7].copy_from_slice(&40_000u16.to_be_bytes());
    assert!(pipeline::prepare(&data_url("image/jpeg", &lying)).is_err());
}
