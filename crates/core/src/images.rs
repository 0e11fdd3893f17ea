//! Untrusted images in, clean images out: data-URL parsing with a size cap before base64
//! decoding, magic-byte sniffing, decoding with pixel and allocation limits (so a
//! decompression bomb fails fast with bounded memory), EXIF orientation, downscaling and
//! re-encoding, which drops every byte of metadata the upload carried.

use std::io::Cursor;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader};

use crate::media::MediaKind;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ImageError {
    #[error("not a base64 image data URL")]
    NotDataUrl,
    #[error("the image is larger than allowed")]
    TooLarge,
    #[error("the image format is not accepted")]
    UnsupportedFormat,
    #[error("the image could not be decoded: {0}")]
    Corrupt(String),
}

/// What an upload may cost us.
#[derive(Debug, Clone, Copy)]
pub struct ImageLimits {
    /// Size of the encoded file, checked before base64 decoding.
    pub max_bytes: usize,
    pub max_width: u32,
    pub max_height: u32,
    /// Upper bound on the decoder's allocations.
    pub max_alloc: u64,
}

/// A data URL split into its declared MIME type and its decoded bytes.
#[derive(Debug)]
pub struct DataUrl {
    pub declared_type: String,
    pub bytes: Vec<u8>,
}

/// Parses `data:image/…;base64,…`, refusing anything over `max_bytes` before decoding.
pub fn parse_data_url(data_url: &str, max_bytes: usize) -> Result<DataUrl, ImageError> {
    let rest = data_url.strip_prefix("data:").ok_or(ImageError::NotDataUrl)?;
    let (header, payload) = rest.split_once(',').ok_or(ImageError::NotDataUrl)?;
    let declared_type = header.strip_suffix(";base64").ok_or(ImageError::NotDataUrl)?.to_ascii_lowercase();
    // Every 4 base64 characters carry 3 bytes.
    if payload.len() / 4 * 3 > max_bytes + 3 {
        return Err(ImageError::TooLarge);
    }
    let bytes = STANDARD.decode(payload.trim_end()).map_err(|_| ImageError::NotDataUrl)?;
    if bytes.len() > max_bytes {
        return Err(ImageError::TooLarge);
    }
    Ok(DataUrl { declared_type, bytes })
}

/// The real format of the bytes, by their magic numbers (never by what the client said).
pub fn sniff(bytes: &[u8]) -> Option<MediaKind> {
    match bytes {
        [0xFF, 0xD8, 0xFF, ..] => Some(MediaKind::Jpeg),
        [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, ..] => Some(MediaKind::Png),
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => Some(MediaKind::Webp),
        _ => None,
    }
}

fn image_format(kind: MediaKind) -> ImageFormat {
    match kind {
        MediaKind::Jpeg => ImageFormat::Jpeg,
        MediaKind::Png => ImageFormat::Png,
        MediaKind::Webp => ImageFormat::WebP,
    }
}

/// Decodes bytes of a sniffed, accepted format within `limits`, applying the EXIF
/// orientation so the picture stands the way the camera held it.
pub fn decode(
    bytes: &[u8],
    accepted: &[MediaKind],
    limits: ImageLimits,
) -> Result<(MediaKind, DynamicImage), ImageError> {
    if bytes.len() > limits.max_bytes {
        return Err(ImageError::TooLarge);
    }
    let kind = sniff(bytes).filter(|k| accepted.contains(k)).ok_or(ImageError::UnsupportedFormat)?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), image_format(kind));
    let mut decoder_limits = image::Limits::default();
    decoder_limits.max_image_width = Some(limits.max_width);
    decoder_limits.max_image_height = Some(limits.max_height);
    decoder_limits.max_alloc = Some(limits.max_alloc);
    reader.limits(decoder_limits);
    let mut decoder = reader.into_decoder().map_err(classify)?;
    let orientation = decoder.orientation().map_err(classify)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(classify)?;
    image.apply_orientation(orientation);
    Ok((kind, image))
}

fn classify(err: image::ImageError) -> ImageError {
    match err {
        image::ImageError::Limits(_) => ImageError::TooLarge,
        image::ImageError::Unsupported(_) => ImageError::UnsupportedFormat,
        other => ImageError::Corrupt(other.to_string()),
    }
}

/// Scales down (never up) to fit within `max_width` x `max_height`, keeping proportions.
pub fn fit_within(image: DynamicImage, max_width: u32, max_height: u32) -> DynamicImage {
    if image.width() <= max_width && image.height() <= max_height {
        image
    } else {
        image.resize(max_width, max_height, FilterType::Triangle)
    }
}

/// Re-encodes as JPEG (alpha flattened) at `quality` (1-100).
pub fn encode_jpeg(image: &DynamicImage, quality: u8) -> Result<Vec<u8>, ImageError> {
    let mut out = Vec::new();
    let rgb = image.to_rgb8();
    JpegEncoder::new_with_quality(&mut out, quality)
        .encode_image(&rgb)
        .map_err(|e| ImageError::Corrupt(e.to_string()))?;
    Ok(out)
}

/// Re-encodes as PNG (keeps transparency).
pub fn encode_png(image: &DynamicImage) -> Result<Vec<u8>, ImageError> {
    let mut out = Vec::new();
    let rgba = image.to_rgba8();
    rgba.write_with_encoder(PngEncoder::new(&mut out)).map_err(|e| ImageError::Corrupt(e.to_string()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    const LIMITS: ImageLimits =
        ImageLimits { max_bytes: 1 << 20, max_width: 4000, max_height: 4000, max_alloc: 64 << 20 };

    fn png(width: u32, height: u32) -> Vec<u8> {
        encode_png(&DynamicImage::ImageRgb8(RgbImage::from_pixel(width, height, Rgb([200, 30, 90])))).unwrap()
    }

    fn data_url(mime: &str, bytes: &[u8]) -> String {
        format!("data:{mime};base64,{}", STANDARD.encode(bytes))
    }

    #[test]
    fn a_real_png_round_trips() {
        let parsed = parse_data_url(&data_url("image/png", &png(40, 20)), 1 << 20).unwrap();
        assert_eq!(parsed.declared_type, "image/png");
        let (kind, image) = decode(&parsed.bytes, &[MediaKind::Png, MediaKind::Jpeg], LIMITS).unwrap();
        assert_eq!((kind, image.width(), image.height()), (MediaKind::Png, 40, 20));
        let jpeg = encode_jpeg(&fit_within(image, 10, 10), 85).unwrap();
        assert_eq!(sniff(&jpeg), Some(MediaKind::Jpeg));
    }

    #[test]
    fn the_size_cap_applies_before_decoding() {
        let huge = format!("data:image/png;base64,{}", "A".repeat(4_000_000));
        assert_eq!(parse_data_url(&huge, 1 << 20).unwrap_err(), ImageError::TooLarge);
    }

    #[test]
    fn lying_and_truncated_inputs_fail_cleanly() {
        assert_eq!(parse_data_url("image/png;base64,AAAA", 100).unwrap_err(), ImageError::NotDataUrl);
        assert_eq!(parse_data_url("data:image/png,rawbytes", 100).unwrap_err(), ImageError::NotDataUrl);
        assert_eq!(parse_data_url("data:image/png;base64,@@@@", 100).unwrap_err(), ImageError::NotDataUrl);
        // A GIF claiming to be a PNG.
        assert_eq!(
            decode(b"GIF89a\x01\x00\x01\x00", &[MediaKind::Png], LIMITS).unwrap_err(),
            ImageError::UnsupportedFormat
        );
        // A real PNG where only JPEG is accepted.
        assert_eq!(
            decode(&png(4, 4), &[MediaKind::Jpeg], LIMITS).unwrap_err(),
            ImageError::UnsupportedFormat
        );
        let whole = png(64, 64);
        for cut in [8, 16, 33, whole.len() / 2] {
            assert!(decode(&whole[..cut], &[MediaKind::Png], LIMITS).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn a_decompression_bomb_is_refused_by_its_header() {
        // 6000 x 6000 pixels of one colour compress to a few kilobytes.
        let mut bomb = Vec::new();
        image::GrayImage::new(6_000, 6_000).write_with_encoder(PngEncoder::new(&mut bomb)).unwrap();
        assert!(bomb.len() < 1 << 20, "{} bytes", bomb.len());
        assert_eq!(decode(&bomb, &[MediaKind::Png], LIMITS).unwrap_err(), ImageError::TooLarge);
    }
}
