//! The one path every uploaded image takes (an analysis photo, a community post's photos,
//! RigPage images, the profile picture), cheapest check first:
//!
//! 1. [`inspect`]: the data URL's size (before base64 decoding), the real format (magic
//!    bytes) and the picture's size read from its header, against one byte limit
//!    ([`MAX_UPLOAD_BYTES`]) and one pixel limit ([`MAX_PIXELS`], [`MAX_SIDE`]). A
//!    decompression bomb (a tiny file that claims 12000x12000 pixels) is refused here,
//!    before a single pixel is decoded, with a message that names its size.
//! 2. [`ImageQueue::admit`]: a place in the bounded queue of image work (503 with
//!    `Retry-After` when it is full) and at most [`PER_OWNER`] jobs in flight per account
//!    or address (429), so one account cannot hold every place.
//! 3. [`Uploads::prepare`]: the picture's megapixels from the [`PixelBudget`] (waiting
//!    until they are free, never refused), then decoding with the decoder's limits set,
//!    fitting, re-encoding without metadata (and a thumbnail), and the safety classifier,
//!    on the image threads.
//! 4. [`Uploads::store`] into the media store, and [`Uploads::remove`] of what was stored
//!    when the caller's transaction refuses.
//!
//! The image threads and the safety classifier are the analyzer's; this crate knows them
//! only as an [`ImageWorker`] (so that `auth`, below the analyzer, uses the same path).

use std::collections::HashMap;
use std::io::Cursor;
use std::sync::{Arc, Mutex};

use image::{ImageReader, RgbImage};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::ApiError;
use crate::error::Cause;
use crate::images::{self, Alpha, ImageError, ImageLimits};
use crate::media::{MediaError, MediaKey, MediaKind, MediaStore};

/// The largest file any upload may be (a phone photo is 2–6 MB).
pub const MAX_UPLOAD_BYTES: usize = 10 * 1024 * 1024;
/// The most pixels a picture may have: 12 MP phone photos and 24 MP camera photos pass.
pub const MAX_PIXELS: u64 = 40_000_000;
/// The longest side a picture may have.
pub const MAX_SIDE: u32 = 10_000;
/// Image jobs of one account (or one anonymous address) in flight at once.
pub const PER_OWNER: usize = 2;
/// Seconds a client is asked to wait when the queue is full.
pub const BUSY_RETRY_SECS: u64 = 5;
/// Megapixels decoded at once unless configured (`SETUPIQ_PIXEL_BUDGET_MP`): one picture at
/// the pixel limit ([`MAX_PIXELS`]) or three 12 MP phone photos, which keeps the server
/// under ~400 MiB whatever arrives (`scripts/bench-uploads.sh`).
pub const DEFAULT_PIXEL_BUDGET_MP: u32 = 40;

/// The decoder's limits: set before anything is decoded, so that a picture whose header
/// lied fails when the decoder reads it rather than after it allocated.
const DECODER_LIMITS: ImageLimits = ImageLimits {
    max_bytes: MAX_UPLOAD_BYTES,
    max_width: MAX_SIDE,
    max_height: MAX_SIDE,
    // A 40 MP RGBA frame plus the decoder's working memory.
    max_alloc: 256 * 1024 * 1024,
};

/// Every format an upload may have.
pub const ALL_KINDS: &[MediaKind] = &[MediaKind::Jpeg, MediaKind::Png, MediaKind::Webp];

/// Why an upload is refused for what it is; the message is what the user reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadRejection {
    #[error("Invalid image format.")]
    NotAnImage,
    #[error("This file is {} MB; the largest we take is {} MB.", mb(*bytes), MAX_UPLOAD_BYTES / (1024 * 1024))]
    TooManyBytes { bytes: usize },
    #[error(
        "This picture is {width}x{height} pixels; the largest we take is {} megapixels, at most {MAX_SIDE} \
         pixels on a side.",
        MAX_PIXELS / 1_000_000
    )]
    TooManyPixels { width: u32, height: u32 },
    #[error("Invalid file type. Accepted: image/jpeg, image/png, image/webp")]
    UnsupportedType,
    #[error("The image could not be read. Please try a different image.")]
    Unreadable,
}

impl UploadRejection {
    /// A refusal of the file's format or content (the caller may say it in its own words),
    /// rather than of its size.
    pub fn is_format(&self) -> bool {
        matches!(self, Self::NotAnImage | Self::UnsupportedType | Self::Unreadable)
    }
}

/// `bytes` in MB with one decimal, never rounded down to the limit.
fn mb(bytes: usize) -> String {
    let tenths = (bytes as u64 * 10).div_ceil(1024 * 1024);
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Why an upload did not go through.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    #[error(transparent)]
    Rejected(#[from] UploadRejection),
    #[error("This image can't be used: it appears to contain content that isn't safe for work.")]
    NotSafeForWork,
    #[error("We are busy processing images right now. Please try again in a few seconds.")]
    QueueFull,
    #[error("You already have images being processed. Please wait for them to finish.")]
    OwnerBusy,
    /// The safety classifier or the image threads gave no answer (the upload is refused).
    #[error("the image could not be processed")]
    Failed(#[source] Cause),
    #[error(transparent)]
    Media(#[from] MediaError),
}

impl UploadError {
    /// The answer for this failure, `field` naming the request field that carried the image.
    pub fn into_api(self, field: &str) -> ApiError {
        let message = self.to_string();
        match self {
            UploadError::Rejected(
                UploadRejection::TooManyBytes { .. } | UploadRejection::TooManyPixels { .. },
            ) => ApiError::payload_too_large(message),
            UploadError::Rejected(_) => ApiError::invalid(field, message),
            UploadError::NotSafeForWork => ApiError::unprocessable(message),
            UploadError::QueueFull => ApiError::busy(message, BUSY_RETRY_SECS),
            UploadError::OwnerBusy => ApiError::rate_limited(message, 2),
            UploadError::Failed(_) | UploadError::Media(_) => ApiError::unavailable(self),
        }
    }
}

/// An upload that passed [`inspect`]: its real format, size and bytes; nothing decoded.
#[derive(Debug)]
pub struct Inspected {
    pub kind: MediaKind,
    pub width: u32,
    pub height: u32,
    pub bytes: Vec<u8>,
}

/// The cheap checks, before any pixel is decoded: a `data:image/…;base64,` URL within the
/// byte limit, of one of the `accepted` formats by its magic bytes, whose header gives a
/// size within the pixel limit. Costs a base64 decode and a header read (milliseconds).
pub fn inspect(data_url: &str, accepted: &[MediaKind]) -> Result<Inspected, UploadRejection> {
    if !data_url.get(..11).is_some_and(|p| p.eq_ignore_ascii_case("data:image/")) {
        return Err(UploadRejection::NotAnImage);
    }
    let payload = data_url.split_once(',').map_or(0, |(_, p)| p.len());
    let parsed = images::parse_data_url(data_url, MAX_UPLOAD_BYTES).map_err(|e| match e {
        ImageError::TooLarge => UploadRejection::TooManyBytes { bytes: payload / 4 * 3 },
        _ => UploadRejection::NotAnImage,
    })?;
    let kind = images::sniff(&parsed.bytes)
        .filter(|k| accepted.contains(k))
        .ok_or(UploadRejection::UnsupportedType)?;
    let (width, height) = header_dimensions(&parsed.bytes, kind)?;
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(UploadRejection::TooManyPixels { width, height });
    }
    Ok(Inspected { kind, width, height, bytes: parsed.bytes })
}

/// The picture's size as its header states it (nothing else is read).
fn header_dimensions(bytes: &[u8], kind: MediaKind) -> Result<(u32, u32), UploadRejection> {
    // IHDR is the first chunk (the png crate's reader would read on to the pixels).
    if kind == MediaKind::Png {
        return png_dimensions(bytes).ok_or(UploadRejection::Unreadable);
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), crate::images::image_format(kind));
    // Reading a header allocates little; the size itself is judged by the caller, so that
    // the refusal can name it.
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(16 * 1024 * 1024);
    reader.limits(limits);
    reader.into_dimensions().map_err(|_| UploadRejection::Unreadable)
}

/// Width and height from a PNG's IHDR chunk, which must come first.
fn png_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    let ihdr = bytes.get(8..24)?;
    if &ihdr[4..8] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(ihdr[8..12].try_into().ok()?);
    let height = u32::from_be_bytes(ihdr[12..16].try_into().ok()?);
    (width > 0 && height > 0).then_some((width, height))
}

/// How an upload is stored.
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    /// The box the stored picture fits in (never enlarged).
    pub width: u32,
    pub height: u32,
    /// Keep a PNG as PNG (transparency); everything else becomes JPEG.
    pub keep_png: bool,
    /// Also make a JPEG thumbnail fitting this square.
    pub thumbnail: Option<u32>,
    /// Refuse it unless the safety classifier finds it safe for work (public pictures). The
    /// analysis screens its photos itself, with the detector beside the classifier.
    pub safety_check: bool,
}

/// An upload decoded, fitted and re-encoded without metadata.
#[derive(Debug)]
pub struct Prepared {
    /// The format stored.
    pub format: MediaKind,
    pub bytes: Vec<u8>,
    pub thumbnail: Option<Vec<u8>>,
    /// The fitted picture (for the models).
    pub pixels: RgbImage,
}

/// Decodes (limits set before decoding), fits and re-encodes an inspected upload.
/// CPU-bound: call it on the image threads ([`Uploads::prepare`]).
pub fn prepare_blocking(inspected: &Inspected, fit: Fit) -> Result<Prepared, UploadRejection> {
    let unreadable = |e: ImageError| match e {
        ImageError::TooLarge => {
            UploadRejection::TooManyPixels { width: inspected.width, height: inspected.height }
        }
        ImageError::UnsupportedFormat => UploadRejection::UnsupportedType,
        ImageError::NotDataUrl | ImageError::Corrupt(_) => UploadRejection::Unreadable,
    };
    let accepted = [inspected.kind];
    if fit.keep_png && inspected.kind == MediaKind::Png {
        let (_, image) = images::decode_fitted(
            &inspected.bytes,
            &accepted,
            DECODER_LIMITS,
            MAX_PIXELS,
            (fit.width, fit.height),
            Alpha::Keep,
        )
        .map_err(unreadable)?;
        let bytes = images::encode_png(&image).map_err(unreadable)?;
        let pixels = image.into_rgb8();
        let thumbnail = match fit.thumbnail {
            Some(side) => Some(thumbnail_jpeg(&pixels, side).map_err(unreadable)?),
            None => None,
        };
        return Ok(Prepared { format: MediaKind::Png, bytes, thumbnail, pixels });
    }
    let (_, pixels) = images::decode_rgb_fitted(
        &inspected.bytes,
        &accepted,
        DECODER_LIMITS,
        MAX_PIXELS,
        fit.width,
        fit.height,
    )
    .map_err(unreadable)?;
    let (bytes, thumbnail) = rayon::join(
        || images::encode_jpeg_rgb(&pixels, 85, 2),
        || fit.thumbnail.map(|side| thumbnail_jpeg(&pixels, side)).transpose(),
    );
    Ok(Prepared {
        format: MediaKind::Jpeg,
        bytes: bytes.map_err(unreadable)?,
        thumbnail: thumbnail.map_err(unreadable)?,
        pixels,
    })
}

fn thumbnail_jpeg(pixels: &RgbImage, side: u32) -> Result<Vec<u8>, ImageError> {
    let small = images::thumbnail_rgb(pixels, side, side)?;
    images::encode_jpeg_rgb(&small, 80, 1)
}

/// The image threads and the safety classifier (the analyzer's).
pub trait ImageWorker: Send + Sync {
    /// Runs `job` on the image threads.
    fn spawn(&self, job: Box<dyn FnOnce() + Send>);
    /// Whether a picture is safe for work; fails closed (an error refuses the upload).
    fn is_safe_for_work(&self, pixels: &RgbImage) -> Result<bool, Cause>;
}

/// The bounded queue of image work: a fixed number of places (running or waiting for the
/// image threads), of which one account holds at most [`PER_OWNER`]. Admission never
/// waits: a full queue answers 503 at once, so requests do not pile up in memory.
///
/// Per process by design: it guards this process's threads and memory (each replica has
/// its own); what must hold across replicas (credits, limits) is in the database.
#[derive(Debug, Clone)]
pub struct ImageQueue {
    places: Arc<Semaphore>,
    owners: Arc<Mutex<HashMap<String, usize>>>,
    per_owner: usize,
}

/// A place in the [`ImageQueue`], given back when the request and every job it started
/// on the image threads are done with it (a client that goes away does not free the place
/// of work still running).
#[derive(Debug, Clone)]
pub struct Ticket {
    _place: Arc<Place>,
}

#[derive(Debug)]
struct Place {
    _place: OwnedSemaphorePermit,
    owner: String,
    owners: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut owners = self.owners.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = owners.get_mut(&self.owner) {
            *count -= 1;
            if *count == 0 {
                owners.remove(&self.owner);
            }
        }
    }
}

impl ImageQueue {
    /// A queue of `places` places, at most `per_owner` of them for one owner.
    pub fn new(places: usize, per_owner: usize) -> Self {
        Self {
            places: Arc::new(Semaphore::new(places.max(1))),
            owners: Arc::default(),
            per_owner: per_owner.max(1),
        }
    }

    /// The default size: four places per image thread.
    pub fn for_threads(threads: usize) -> Self {
        Self::new(threads.max(1) * 4, PER_OWNER)
    }

    /// A place for `owner` (e.g. `user:42`, `ip:203.0.113.7`), or why there is none.
    pub fn admit(&self, owner: &str) -> Result<Ticket, UploadError> {
        let mut owners = self.owners.lock().unwrap_or_else(|p| p.into_inner());
        let count = owners.get(owner).copied().unwrap_or(0);
        if count >= self.per_owner {
            metrics_refused("owner_busy");
            return Err(UploadError::OwnerBusy);
        }
        let place = self.places.clone().try_acquire_owned().map_err(|_| {
            metrics_refused("queue_full");
            UploadError::QueueFull
        })?;
        owners.insert(owner.to_owned(), count + 1);
        let place = Place { _place: place, owner: owner.to_owned(), owners: self.owners.clone() };
        Ok(Ticket { _place: Arc::new(place) })
    }

    /// Places taken now.
    pub fn in_flight(&self) -> usize {
        self.owners.lock().unwrap_or_else(|p| p.into_inner()).values().sum()
    }
}

fn metrics_refused(why: &'static str) {
    tracing::debug!(why, "image work refused");
}

/// The pixels being decoded at once in this process, counted in megapixels. A decode's
/// memory grows with its picture's pixels (3-4 bytes each at full size, however few
/// requests there are), so the queue's places alone did not bound it: a dozen 40 MP
/// pictures at once peaked at 657-763 MB. Every decode of an upload holds its picture's
/// megapixels from before the decoder starts until the full-size buffers are dropped.
///
/// A picture waits until its megapixels are free, it is never refused for them (the queue
/// already refuses floods); waiting is first come, first served, so a big picture is not
/// starved by small ones. A picture bigger than the whole budget costs the whole budget and
/// decodes alone. Per process, like the queue.
#[derive(Debug, Clone)]
pub struct PixelBudget {
    megapixels: Arc<Semaphore>,
    total: u32,
}

/// Megapixels held for one decode; given back when dropped.
#[derive(Debug)]
pub struct PixelPermit {
    _megapixels: OwnedSemaphorePermit,
}

impl PixelBudget {
    /// A budget of `megapixels` (at least 1).
    pub fn new(megapixels: u32) -> Self {
        let total = megapixels.max(1);
        Self { megapixels: Arc::new(Semaphore::new(total as usize)), total }
    }

    /// What a `width` x `height` picture holds: its megapixels rounded up, at least 1 and at
    /// most the whole budget.
    pub fn cost(&self, width: u32, height: u32) -> u32 {
        let megapixels = (u64::from(width) * u64::from(height)).div_ceil(1_000_000);
        u32::try_from(megapixels).unwrap_or(u32::MAX).clamp(1, self.total)
    }

    /// Waits until a `width` x `height` picture's megapixels are free, and holds them.
    pub async fn reserve(&self, width: u32, height: u32) -> Result<PixelPermit, UploadError> {
        let cost = self.cost(width, height);
        if self.available() < cost {
            tracing::debug!(
                megapixels = cost,
                free = self.available(),
                "a decode waits for the pixel budget"
            );
        }
        let permit = self
            .megapixels
            .clone()
            .acquire_many_owned(cost)
            .await
            .map_err(|_| UploadError::Failed("the pixel budget is closed".into()))?;
        Ok(PixelPermit { _megapixels: permit })
    }

    /// Megapixels free now.
    pub fn available(&self) -> u32 {
        u32::try_from(self.megapixels.available_permits()).unwrap_or(u32::MAX)
    }

    /// The whole budget.
    pub fn total(&self) -> u32 {
        self.total
    }
}

/// The upload path: the queue, the pixel budget, the image threads and the media store.
/// One per process.
#[derive(Clone)]
pub struct Uploads {
    queue: ImageQueue,
    pixels: PixelBudget,
    worker: Arc<dyn ImageWorker>,
    media: MediaStore,
}

impl std::fmt::Debug for Uploads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uploads")
            .field("queue", &self.queue)
            .field("pixels", &self.pixels)
            .finish_non_exhaustive()
    }
}

impl Uploads {
    /// The upload path with the default pixel budget ([`DEFAULT_PIXEL_BUDGET_MP`]).
    pub fn new(queue: ImageQueue, worker: Arc<dyn ImageWorker>, media: MediaStore) -> Self {
        Self { queue, pixels: PixelBudget::new(DEFAULT_PIXEL_BUDGET_MP), worker, media }
    }

    /// The same path with another pixel budget (the configured one).
    pub fn with_pixel_budget(self, pixels: PixelBudget) -> Self {
        Self { pixels, ..self }
    }

    pub fn queue(&self) -> &ImageQueue {
        &self.queue
    }

    pub fn pixels(&self) -> &PixelBudget {
        &self.pixels
    }

    pub fn media(&self) -> &MediaStore {
        &self.media
    }

    /// [`ImageQueue::admit`].
    pub fn admit(&self, owner: &str) -> Result<Ticket, UploadError> {
        self.queue.admit(owner)
    }

    /// Runs CPU work for a ticket's holder on the image threads.
    pub async fn run<T: Send + 'static>(
        &self,
        ticket: &Ticket,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, UploadError> {
        let (done, result) = tokio::sync::oneshot::channel();
        let place = ticket.clone();
        self.worker.spawn(Box::new(move || {
            let result = work();
            // The place is free before anyone hears that the work is done.
            drop(place);
            let _ = done.send(result);
        }));
        result.await.map_err(|_| UploadError::Failed("the image task stopped".into()))
    }

    /// Runs `decode` over an inspected upload on the image threads once the picture's
    /// megapixels are free in the [`PixelBudget`] (waiting for them), and gives them back
    /// when it returns: `decode` must drop the full-size buffers before it returns (what
    /// it returns is fitted).
    pub async fn decode<T: Send + 'static>(
        &self,
        ticket: &Ticket,
        inspected: Inspected,
        decode: impl FnOnce(&Inspected) -> T + Send + 'static,
    ) -> Result<T, UploadError> {
        let pixels = self.pixels.reserve(inspected.width, inspected.height).await?;
        self.run(ticket, move || {
            let decoded = decode(&inspected);
            drop((pixels, inspected));
            decoded
        })
        .await
    }

    /// [`prepare_blocking`] within the [`PixelBudget`] and, when `fit` asks for it, the
    /// safety classifier (on the fitted picture, the megapixels given back), on the image
    /// threads.
    pub async fn prepare(
        &self,
        ticket: &Ticket,
        inspected: Inspected,
        fit: Fit,
    ) -> Result<Prepared, UploadError> {
        let worker = self.worker.clone();
        let pixels = self.pixels.reserve(inspected.width, inspected.height).await?;
        self.run(ticket, move || {
            let prepared = prepare_blocking(&inspected, fit);
            drop((pixels, inspected));
            let prepared = prepared?;
            if fit.safety_check && !worker.is_safe_for_work(&prepared.pixels).map_err(UploadError::Failed)? {
                return Err(UploadError::NotSafeForWork);
            }
            Ok(prepared)
        })
        .await?
    }

    /// The whole path for one picture: [`inspect`], a place in the queue for `owner`,
    /// [`Self::prepare`] and [`Self::store`] under `folder` (thumbnails under
    /// `{folder}_thumbs`).
    pub async fn accept(
        &self,
        owner: &str,
        data_url: &str,
        accepted: &[MediaKind],
        fit: Fit,
        folder: &str,
    ) -> Result<Stored, UploadError> {
        let inspected = inspect(data_url, accepted)?;
        let ticket = self.admit(owner)?;
        let prepared = self.prepare(&ticket, inspected, fit).await?;
        drop(ticket);
        self.store(folder, prepared).await
    }

    /// Stores a prepared upload (and its thumbnail); nothing stays behind on failure.
    pub async fn store(&self, folder: &str, prepared: Prepared) -> Result<Stored, UploadError> {
        let key = MediaKey::generate(folder, prepared.format);
        self.media.put(&key, prepared.bytes).await?;
        let thumbnail = match prepared.thumbnail {
            None => None,
            Some(bytes) => {
                let thumb = MediaKey::generate(&format!("{folder}_thumbs"), MediaKind::Jpeg);
                if let Err(e) = self.media.put(&thumb, bytes).await {
                    self.media.remove_media([&key]).await;
                    return Err(e.into());
                }
                Some(thumb)
            }
        };
        Ok(Stored { key, thumbnail })
    }

    /// Removes what [`Self::store`] stored (the caller's transaction refused it). Logged,
    /// never failing: the database is the truth.
    pub async fn remove(&self, stored: &[Stored]) {
        self.media
            .remove_media(stored.iter().flat_map(|s| std::iter::once(&s.key).chain(&s.thumbnail)))
            .await;
    }
}

/// What [`Uploads::store`] stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub key: MediaKey,
    pub thumbnail: Option<MediaKey>,
}

/// An [`ImageWorker`] on rayon's global pool without a safety classifier (every picture
/// passes): for tools and tests that have no models.
#[derive(Debug, Default)]
pub struct UncheckedWorker;

impl ImageWorker for UncheckedWorker {
    fn spawn(&self, job: Box<dyn FnOnce() + Send>) {
        rayon::spawn(job);
    }

    fn is_safe_for_work(&self, _pixels: &RgbImage) -> Result<bool, Cause> {
        Ok(true)
    }
}

impl From<UploadError> for ApiError {
    fn from(err: UploadError) -> Self {
        err.into_api("imageData")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    fn data_url(mime: &str, bytes: &[u8]) -> String {
        format!("data:{mime};base64,{}", STANDARD.encode(bytes))
    }

    /// A PNG of `width` x `height` pixels whose body is cut off after the header: the
    /// bytes of a bomb that nobody could decode quickly.
    pub fn png_header(width: u32, height: u32) -> Vec<u8> {
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(b"IHDR");
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
        let crc = crc32fast::hash(&ihdr);
        let mut png = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
        png.extend_from_slice(&ihdr);
        png.extend_from_slice(&crc.to_be_bytes());
        png
    }

    #[test]
    fn a_huge_picture_is_refused_from_its_header_with_its_size() {
        let refused = inspect(&data_url("image/png", &png_header(12_000, 12_000)), ALL_KINDS).unwrap_err();
        assert_eq!(refused, UploadRejection::TooManyPixels { width: 12_000, height: 12_000 });
        assert_eq!(
            refused.to_string(),
            "This picture is 12000x12000 pixels; the largest we take is 40 megapixels, at most 10000 pixels on a side."
        );
        let tall = inspect(&data_url("image/png", &png_header(200, 10_001)), ALL_KINDS).unwrap_err();
        assert_eq!(tall, UploadRejection::TooManyPixels { width: 200, height: 10_001 });
    }

    #[test]
    fn the_byte_limit_names_the_file_size() {
        let big = format!("data:image/png;base64,{}", "A".repeat(16 * 1024 * 1024));
        let refused = inspect(&big, ALL_KINDS).unwrap_err();
        assert_eq!(refused.to_string(), "This file is 12.0 MB; the largest we take is 10 MB.");
    }

    #[test]
    fn formats_are_judged_by_their_bytes() {
        assert_eq!(inspect("hello", ALL_KINDS).unwrap_err(), UploadRejection::NotAnImage);
        assert_eq!(
            inspect(&data_url("image/png", b"GIF89a\x01\x00\x01\x00"), ALL_KINDS).unwrap_err(),
            UploadRejection::UnsupportedType
        );
        let png = png_header(10, 10);
        assert_eq!(
            inspect(&data_url("image/png", &png), &[MediaKind::Jpeg]).unwrap_err(),
            UploadRejection::UnsupportedType
        );
        let ok = inspect(&data_url("image/png", &png), ALL_KINDS).unwrap();
        assert_eq!((ok.kind, ok.width, ok.height), (MediaKind::Png, 10, 10));
        // Its header passes; its body is missing.
        let fit = Fit { width: 100, height: 100, keep_png: true, thumbnail: None, safety_check: false };
        assert_eq!(prepare_blocking(&ok, fit).unwrap_err(), UploadRejection::Unreadable);
    }

    #[test]
    fn a_real_picture_is_fitted_and_re_encoded() {
        let image = image::DynamicImage::ImageRgb8(RgbImage::from_pixel(300, 200, image::Rgb([10, 200, 30])));
        let png = images::encode_png(&image).unwrap();
        let inspected = inspect(&data_url("image/png", &png), ALL_KINDS).unwrap();
        let fit = Fit { width: 150, height: 150, keep_png: false, thumbnail: Some(50), safety_check: false };
        let prepared = prepare_blocking(&inspected, fit).unwrap();
        assert_eq!(prepared.format, MediaKind::Jpeg);
        assert_eq!(prepared.pixels.dimensions(), (150, 100));
        assert!(prepared.thumbnail.is_some());
    }

    /// Polls `future` once (a noop waker: the test polls again itself).
    fn poll_once<F: Future>(future: std::pin::Pin<&mut F>) -> Option<F::Output> {
        match future.poll(&mut std::task::Context::from_waker(std::task::Waker::noop())) {
            std::task::Poll::Ready(out) => Some(out),
            std::task::Poll::Pending => None,
        }
    }

    #[test]
    fn a_picture_costs_its_megapixels_rounded_up_and_at_most_the_budget() {
        let budget = PixelBudget::new(40);
        assert_eq!(budget.cost(4000, 3000), 12);
        assert_eq!(budget.cost(4001, 3000), 13);
        assert_eq!(budget.cost(1, 1), 1);
        assert_eq!(budget.cost(10_000, 4_000), 40);
        // Bigger than the whole budget: it decodes alone instead of waiting forever.
        assert_eq!(PixelBudget::new(10).cost(8000, 5000), 10);
    }

    #[test]
    fn a_picture_waits_until_its_megapixels_are_free_and_in_turn() {
        let budget = PixelBudget::new(40);
        let first = poll_once(std::pin::pin!(budget.reserve(8000, 4000))).unwrap().unwrap();
        assert_eq!(budget.available(), 8);
        let mut phone_photo = std::pin::pin!(budget.reserve(4000, 3000));
        assert!(poll_once(phone_photo.as_mut()).is_none(), "12 MP do not fit in the 8 left");
        // A small picture arriving later waits its turn: big ones are not starved.
        let mut small = std::pin::pin!(budget.reserve(1000, 1000));
        assert!(poll_once(small.as_mut()).is_none());
        drop(first);
        let phone_photo = poll_once(phone_photo.as_mut()).unwrap().unwrap();
        let small = poll_once(small.as_mut()).unwrap().unwrap();
        assert_eq!(budget.available(), 40 - 12 - 1);
        drop((phone_photo, small));
        assert_eq!(budget.available(), 40);
    }

    /// Runs every job on a thread of its own: nothing but the pixel budget limits how many
    /// decode at once.
    struct ThreadPerJob;

    impl ImageWorker for ThreadPerJob {
        fn spawn(&self, job: Box<dyn FnOnce() + Send>) {
            std::thread::spawn(job);
        }

        fn is_safe_for_work(&self, _pixels: &RgbImage) -> Result<bool, Cause> {
            Ok(true)
        }
    }

    fn gradient_png(width: u32, height: u32) -> Vec<u8> {
        let image = RgbImage::from_fn(width, height, |x, y| image::Rgb([(x / 8) as u8, (y / 8) as u8, 90]));
        images::encode_png(&image::DynamicImage::ImageRgb8(image)).unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn decodes_at_once_never_hold_more_megapixels_than_the_budget() {
        let media = tempfile::tempdir().unwrap();
        let uploads =
            Uploads::new(ImageQueue::new(32, 32), Arc::new(ThreadPerJob), MediaStore::local(media.path()))
                .with_pixel_budget(PixelBudget::new(3));
        // 1, 2 and 4 (the whole budget of 3) megapixels, four of each.
        let pictures = [(1000, 1000), (1500, 1000), (2000, 2000)]
            .map(|(w, h)| data_url("image/png", &gradient_png(w, h)));
        let (in_use, most) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(0)));
        let fit = Fit { width: 320, height: 320, keep_png: true, thumbnail: None, safety_check: false };
        let jobs = (0..12).map(|i| {
            let (uploads, in_use, most) = (uploads.clone(), in_use.clone(), most.clone());
            let inspected = inspect(&pictures[i % 3], ALL_KINDS).unwrap();
            tokio::spawn(async move {
                let ticket = uploads.admit(&format!("user:{i}")).unwrap();
                let cost = uploads.pixels().cost(inspected.width, inspected.height);
                uploads
                    .decode(&ticket, inspected, move |inspected| {
                        let now = in_use.fetch_add(cost, Ordering::SeqCst) + cost;
                        most.fetch_max(now, Ordering::SeqCst);
                        let prepared = prepare_blocking(inspected, fit);
                        in_use.fetch_sub(cost, Ordering::SeqCst);
                        prepared.map(|p| p.pixels.dimensions())
                    })
                    .await
            })
        });
        for job in jobs.collect::<Vec<_>>() {
            let fitted = job.await.unwrap().unwrap().unwrap();
            assert!(fitted.0 <= 320 && fitted.1 <= 320, "{fitted:?}");
        }
        assert!(
            most.load(Ordering::SeqCst) <= 3,
            "{} megapixels decoded at once",
            most.load(Ordering::SeqCst)
        );
        assert_eq!(uploads.pixels().available(), 3, "every megapixel given back");
        assert_eq!(uploads.queue().in_flight(), 0);
    }

    #[test]
    fn the_queue_is_bounded_overall_and_per_owner() {
        let queue = ImageQueue::new(3, 2);
        let a1 = queue.admit("user:1").unwrap();
        let _a2 = queue.admit("user:1").unwrap();
        assert!(matches!(queue.admit("user:1"), Err(UploadError::OwnerBusy)));
        let _b = queue.admit("user:2").unwrap();
        assert!(matches!(queue.admit("user:3"), Err(UploadError::QueueFull)));
        drop(a1);
        assert_eq!(queue.in_flight(), 2);
        let _c = queue.admit("user:3").unwrap();
    }
}
