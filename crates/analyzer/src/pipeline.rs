//! The analysis upload pipeline: a data URL in, clean images out, through the one upload
//! path of [`setupiq_core::upload`]: the byte and pixel limits checked from the header
//! before anything is decoded (a decompression bomb is refused there), magic-byte check
//! (JPEG, PNG, WebP only), decoding with the decoder's limits set, EXIF orientation, a
//! downscale to fit 1920x1080, and JPEG re-encoding that keeps no metadata: the full image
//! and a small thumbnail for storage, and the pixels for the analyzer.

use image::RgbImage;
use setupiq_core::media::MediaKind;
use setupiq_core::upload::{self, Fit, Inspected, Prepared};

pub use setupiq_core::upload::UploadRejection as ImageRejection;

/// Largest accepted file.
pub const MAX_FILE_BYTES: usize = upload::MAX_UPLOAD_BYTES;
pub const FIT_WIDTH: u32 = 1920;
pub const FIT_HEIGHT: u32 = 1080;
pub const THUMB_SIDE: u32 = 400;

/// How an analysis photo is stored: fitted to 1920x1080 as JPEG, with a 400 px thumbnail.
/// The engine screens it (safety classifier beside the detector), so the upload path does
/// not run the classifier a second time.
pub const FIT: Fit = Fit {
    width: FIT_WIDTH,
    height: FIT_HEIGHT,
    keep_png: false,
    thumbnail: Some(THUMB_SIDE),
    safety_check: false,
};

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

impl PreparedImage {
    /// An analysis photo from what the upload path prepared with [`FIT`].
    pub fn from_prepared(original_kind: MediaKind, prepared: Prepared) -> Self {
        let thumbnail = prepared.thumbnail.unwrap_or_default();
        Self { original_kind, pixels: prepared.pixels, jpeg: prepared.bytes, thumbnail }
    }
}

/// Runs the whole pipeline on this thread. CPU-bound: call it off the async workers (the
/// server goes through [`setupiq_core::upload::Uploads`], which queues it).
pub fn prepare(data_url: &str) -> Result<PreparedImage, ImageRejection> {
    let inspected = upload::inspect(data_url, upload::ALL_KINDS)?;
    prepare_inspected(&inspected)
}

/// The decoding half of [`prepare`], for an upload that passed [`upload::inspect`].
pub fn prepare_inspected(inspected: &Inspected) -> Result<PreparedImage, ImageRejection> {
    crate::local::timed("pipeline", || {
        let prepared = upload::prepare_blocking(inspected, FIT)?;
        Ok(PreparedImage::from_prepared(inspected.kind, prepared))
    })
}
