//! The analysis upload pipeline: a data URL in, clean images out. Size cap before base64
//! decoding (10 MB file), magic-byte check (JPEG, PNG, WebP only), decoding with pixel and
//! allocation limits (a decompression bomb is refused from its header), EXIF orientation,
//! a downscale to fit 1920x1080, and JPEG re-encoding that keeps no metadata: the full
//! image and a small thumbnail for storage, and the pixels for the analyzer.

use image::RgbImage;
use setupiq_core::images::{self, ImageError, ImageLimits};
use setupiq_core::media::MediaKind;

/// Largest accepted file (the home page's dropzone limit).
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Largest accepted picture: 12 MP phone photos pass, bombs do not.
pub const MAX_SIDE: u32 = 10_000;
pub const MAX_PIXELS: u64 = 40_000_000;
pub const FIT_WIDTH: u32 = 1920;
pub const FIT_HEIGHT: u32 = 1080;
pub const THUMB_SIDE: u32 = 400;

const LIMITS: ImageLimits = ImageLimits {
    max_bytes: MAX_FILE_BYTES,
    max_width: MAX_SIDE,
    max_height: MAX_SIDE,
    // A 40 MP RGBA frame plus the decoder's working memory.
    max_alloc: 256 * 1024 * 1024,
};

/// Why an upload was refused; `message()` is what the user reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageRejection {
    #[error("Invalid image format.")]
    NotAnImage,
    #[error("File size exceeds 10MB limit")]
    TooLarge,
    #[error("Invalid file type. Accepted: image/jpeg, image/png, image/webp")]
    UnsupportedType,
    #[error("The image is too large: at most 40 megapixels.")]
    TooManyPixels,
    #[error("The image could not be read. Please try a different image.")]
    Unreadable,
}

/// An upload ready to store and analyse.
#[derive(Debug, Clone)]
pub struct PreparedImage {
    /// What the client sent (by its magic bytes).
    pub original_kind: MediaKind,
    /// The picture, upright, fitted to 1920x1080.
    pub pixels: RgbImage,
    /// `pixels` as a JPEG without metadata.
    pub jpeg: Vec<u8>,
    /// A JPEG thumbnail, at most 400 px on its longer side.
    pub thumbnail: Vec<u8>,
}

/// Runs the whole pipeline. CPU-bound: call it off the async workers. Uses up to three
/// short-lived threads at the end: the full JPEG is encoded in two strips at once while the
/// thumbnail is made.
pub fn prepare(data_url: &str) -> Result<PreparedImage, ImageRejection> {
    crate::local::timed("pipeline", || prepare_untimed(data_url))
}

fn prepare_untimed(data_url: &str) -> Result<PreparedImage, ImageRejection> {
    if !data_url.starts_with("data:image/") {
        return Err(ImageRejection::NotAnImage);
    }
    let parsed = images::parse_data_url(data_url, MAX_FILE_BYTES).map_err(|e| match e {
        ImageError::TooLarge => ImageRejection::TooLarge,
        _ => ImageRejection::NotAnImage,
    })?;
    let (kind, fitted) = images::decode_rgb_fitted(
        &parsed.bytes,
        &[MediaKind::Jpeg, MediaKind::Png, MediaKind::Webp],
        LIMITS,
        MAX_PIXELS,
        FIT_WIDTH,
        FIT_HEIGHT,
    )
    .map_err(|e| match e {
        ImageError::TooLarge => ImageRejection::TooManyPixels,
        ImageError::UnsupportedFormat => ImageRejection::UnsupportedType,
        ImageError::NotDataUrl | ImageError::Corrupt(_) => ImageRejection::Unreadable,
    })?;
    drop(parsed);
    let (jpeg, thumbnail) = rayon::join(
        || images::encode_jpeg_rgb(&fitted, 85, 2),
        || {
            let small = images::thumbnail_rgb(&fitted, THUMB_SIDE, THUMB_SIDE)?;
            images::encode_jpeg_rgb(&small, 80, 1)
        },
    );
    let jpeg = jpeg.map_err(|_| ImageRejection::Unreadable)?;
    let thumbnail = thumbnail.map_err(|_| ImageRejection::Unreadable)?;
    Ok(PreparedImage { original_kind: kind, pixels: fitted, jpeg, thumbnail })
}
