//! The analysis upload pipeline: a data URL in, clean images out. Size cap before base64
//! decoding (10 MB file), magic-byte check (JPEG, PNG, WebP only), decoding with pixel and
//! allocation limits (a decompression bomb is refused from its header), EXIF orientation,
//! a downscale to fit 1920x1080, and JPEG re-encoding that keeps no metadata: the full
//! image and a small thumbnail for storage, and the pixels for the analyzer.

use image::{DynamicImage, RgbImage};
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

/// Runs the whole pipeline. CPU-bound: call it off the async workers.
pub fn prepare(data_url: &str) -> Result<PreparedImage, ImageRejection> {
    if !data_url.starts_with("data:image/") {
        return Err(ImageRejection::NotAnImage);
    }
    let parsed = images::parse_data_url(data_url, MAX_FILE_BYTES).map_err(|e| match e {
        ImageError::TooLarge => ImageRejection::TooLarge,
        _ => ImageRejection::NotAnImage,
    })?;
    let (kind, image) =
        images::decode(&parsed.bytes, &[MediaKind::Jpeg, MediaKind::Png, MediaKind::Webp], LIMITS).map_err(
            |e| match e {
                ImageError::TooLarge => ImageRejection::TooManyPixels,
                ImageError::UnsupportedFormat => ImageRejection::UnsupportedType,
                ImageError::NotDataUrl | ImageError::Corrupt(_) => ImageRejection::Unreadable,
            },
        )?;
    if u64::from(image.width()) * u64::from(image.height()) > MAX_PIXELS {
        return Err(ImageRejection::TooManyPixels);
    }
    let fitted = fit(image, FIT_WIDTH, FIT_HEIGHT);
    let jpeg = images::encode_jpeg(&fitted, 85).map_err(|_| ImageRejection::Unreadable)?;
    let thumbnail = images::encode_jpeg(&fit(fitted.clone(), THUMB_SIDE, THUMB_SIDE), 80)
        .map_err(|_| ImageRejection::Unreadable)?;
    Ok(PreparedImage { original_kind: kind, pixels: fitted.to_rgb8(), jpeg, thumbnail })
}

/// Scales down (never up) to fit; area averaging, which is fast and sharp enough here.
fn fit(image: DynamicImage, width: u32, height: u32) -> DynamicImage {
    if image.width() <= width && image.height() <= height { image } else { image.thumbnail(width, height) }
}
