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
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, RgbImage, RgbaImage};
use rayon::prelude::*;

use crate::error::Cause;
use crate::media::MediaKind;

#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("not a base64 image data URL")]
    NotDataUrl,
    #[error("the image is larger than allowed")]
    TooLarge,
    #[error("the image format is not accepted")]
    UnsupportedFormat,
    /// The codec failed on the bytes (the cause: its error, or what is wrong where it starts).
    #[error("the image could not be decoded")]
    Corrupt(#[source] Cause),
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

pub(crate) fn image_format(kind: MediaKind) -> ImageFormat {
    match kind {
        MediaKind::Jpeg => ImageFormat::Jpeg,
        MediaKind::Png => ImageFormat::Png,
        MediaKind::Webp => ImageFormat::WebP,
    }
}

/// A decoder for bytes of a sniffed, accepted format, with `limits` set: nothing is decoded
/// yet, and a picture over the limits fails as soon as its header is read.
fn limited_decoder<'a>(
    bytes: &'a [u8],
    accepted: &[MediaKind],
    limits: ImageLimits,
) -> Result<(MediaKind, impl ImageDecoder + 'a), ImageError> {
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
    Ok((kind, reader.into_decoder().map_err(classify)?))
}

/// Decodes bytes of a sniffed, accepted format within `limits`, applying the EXIF
/// orientation so the picture stands the way the camera held it.
pub fn decode(
    bytes: &[u8],
    accepted: &[MediaKind],
    limits: ImageLimits,
) -> Result<(MediaKind, DynamicImage), ImageError> {
    let (kind, mut decoder) = limited_decoder(bytes, accepted, limits)?;
    let orientation = decoder.orientation().map_err(classify)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(classify)?;
    image.apply_orientation(orientation);
    Ok((kind, image))
}

fn classify(err: image::ImageError) -> ImageError {
    match err {
        image::ImageError::Limits(_) => ImageError::TooLarge,
        image::ImageError::Unsupported(_) => ImageError::UnsupportedFormat,
        other => ImageError::Corrupt(other.into()),
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
        .map_err(|e| ImageError::Corrupt(e.into()))?;
    Ok(out)
}

/// Re-encodes as PNG (keeps transparency).
pub fn encode_png(image: &DynamicImage) -> Result<Vec<u8>, ImageError> {
    let mut out = Vec::new();
    let rgba = image.to_rgba8();
    rgba.write_with_encoder(PngEncoder::new(&mut out)).map_err(|e| ImageError::Corrupt(e.into()))?;
    Ok(out)
}

/// Decodes like [`decode`], then fits the picture within `max_width` x `max_height` (never
/// enlarging) and turns it upright, as RGB: the fast path for big photos.
///
/// `max_pixels` is checked from the header, before any pixel is decoded, like `limits`. The
/// picture is resized *before* the EXIF orientation is applied (with the box turned to
/// match), so a 12 MP photo is never rotated at full size; the result is the same.
/// Resizing uses `fast_image_resize` (SIMD convolution, triangle filter over the scaled
/// support, like [`fit_within`]'s `Triangle`).
pub fn decode_rgb_fitted(
    bytes: &[u8],
    accepted: &[MediaKind],
    limits: ImageLimits,
    max_pixels: u64,
    max_width: u32,
    max_height: u32,
) -> Result<(MediaKind, RgbImage), ImageError> {
    let fitted = decode_fitted(bytes, accepted, limits, max_pixels, (max_width, max_height), Alpha::Drop)?;
    Ok((fitted.0, fitted.1.into_rgb8()))
}

/// Whether a fitted picture keeps its transparency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alpha {
    /// RGBA when the picture has transparency (a PNG kept as PNG).
    Keep,
    /// Always RGB.
    Drop,
}

/// [`decode_rgb_fitted`], keeping the picture's transparency with [`Alpha::Keep`] (RGBA
/// then, RGB for a picture without): the full-size picture is only ever held in the layout
/// it was decoded in, and fitted with `fast_image_resize` without a full-size copy (the
/// `image` crate's resize kept a float copy as large as the picture: a 40 MP PNG held
/// ~310 MB instead of ~200).
pub fn decode_fitted(
    bytes: &[u8],
    accepted: &[MediaKind],
    limits: ImageLimits,
    max_pixels: u64,
    (max_width, max_height): (u32, u32),
    alpha: Alpha,
) -> Result<(MediaKind, DynamicImage), ImageError> {
    let (kind, mut decoder) = limited_decoder(bytes, accepted, limits)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(ImageError::TooLarge);
    }
    let orientation = decoder.orientation().map_err(classify)?;
    let image = DynamicImage::from_decoder(decoder).map_err(classify)?;
    let turned = matches!(
        orientation,
        Orientation::Rotate90
            | Orientation::Rotate270
            | Orientation::Rotate90FlipH
            | Orientation::Rotate270FlipH
    );
    let (box_width, box_height) = if turned { (max_height, max_width) } else { (max_width, max_height) };
    let mut fitted = fit_decoded(image, box_width, box_height, alpha)?;
    if orientation != Orientation::NoTransforms {
        fitted.apply_orientation(orientation);
    }
    Ok((kind, fitted))
}

/// A decoded picture fitted within the box: RGB and RGBA (most pictures) resized as they
/// are, other layouts (grey, 16 bits) turned into one of those first; transparency dropped
/// after fitting unless kept (the channels are resized one by one, so it is the same as
/// dropping it before).
fn fit_decoded(
    image: DynamicImage,
    max_width: u32,
    max_height: u32,
    alpha: Alpha,
) -> Result<DynamicImage, ImageError> {
    match image {
        DynamicImage::ImageRgb8(rgb) => {
            Ok(DynamicImage::ImageRgb8(resize_rgb_within(rgb, max_width, max_height)?))
        }
        DynamicImage::ImageRgba8(rgba) => {
            let fitted = DynamicImage::ImageRgba8(resize_rgba_within(rgba, max_width, max_height)?);
            Ok(if alpha == Alpha::Keep { fitted } else { DynamicImage::ImageRgb8(fitted.into_rgb8()) })
        }
        other if alpha == Alpha::Keep && other.color().has_alpha() => {
            fit_decoded(DynamicImage::ImageRgba8(other.into_rgba8()), max_width, max_height, alpha)
        }
        other => fit_decoded(DynamicImage::ImageRgb8(other.into_rgb8()), max_width, max_height, alpha),
    }
}

/// The size `width` x `height` scales down to so as to fit within the box (never enlarged,
/// proportions kept, rounded to the nearest pixel, at least 1).
pub fn fitted_size(width: u32, height: u32, max_width: u32, max_height: u32) -> (u32, u32) {
    if width <= max_width && height <= max_height {
        return (width, height);
    }
    let (w, h, mw, mh) = (u64::from(width), u64::from(height), u64::from(max_width), u64::from(max_height));
    let (new_w, new_h) =
        if w * mh >= h * mw { (mw, (h * mw * 2 + w) / (w * 2)) } else { ((w * mh * 2 + h) / (h * 2), mh) };
    let clamp = |v: u64| u32::try_from(v.max(1)).unwrap_or(u32::MAX);
    (clamp(new_w), clamp(new_h))
}

/// Scales an RGB picture down (never up) to fit within the box, with `fast_image_resize`.
pub fn resize_rgb_within(image: RgbImage, max_width: u32, max_height: u32) -> Result<RgbImage, ImageError> {
    let size = fitted_size(image.width(), image.height(), max_width, max_height);
    if size == image.dimensions() { Ok(image) } else { resize_rgb(&image, size) }
}

/// Scales an RGBA picture down (never up) to fit within the box, with `fast_image_resize`.
/// The colours are not weighted by their transparency (as with [`fit_within`]): that would
/// need a premultiplied copy of the whole picture.
pub fn resize_rgba_within(
    image: RgbaImage,
    max_width: u32,
    max_height: u32,
) -> Result<RgbaImage, ImageError> {
    let (width, height) = fitted_size(image.width(), image.height(), max_width, max_height);
    if (width, height) == image.dimensions() {
        return Ok(image);
    }
    let pixels = resize_pixels(
        image.as_raw(),
        image.dimensions(),
        fast_image_resize::PixelType::U8x4,
        (width, height),
    )?;
    RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| ImageError::Corrupt("resize: buffer size".into()))
}

/// A scaled-down copy of an RGB picture that fits within the box (a plain copy if it
/// already does), the source left as it is: for thumbnails.
pub fn thumbnail_rgb(image: &RgbImage, max_width: u32, max_height: u32) -> Result<RgbImage, ImageError> {
    let size = fitted_size(image.width(), image.height(), max_width, max_height);
    if size == image.dimensions() { Ok(image.clone()) } else { resize_rgb(image, size) }
}

/// An RGB picture shrunk to exactly `width` x `height` (aspect ratio not kept: a model's
/// input) by averaging blocks of pixels: the same pixels as `image::imageops::thumbnail`,
/// computed in one pass over the rows (~2 ms instead of ~10 for 1920x1080 to 416x416).
/// Growing is left to that function.
pub fn shrink_rgb_exact(image: &RgbImage, width: u32, height: u32) -> RgbImage {
    let (src_width, src_height) = image.dimensions();
    if width == 0 || height == 0 || width > src_width || height > src_height {
        return image::imageops::thumbnail(image, width, height);
    }
    // `thumbnail`'s blocks, with its f32 arithmetic: output pixel `i` averages source pixels
    // `ceil(i * ratio)..ceil((i + 1) * ratio)` (clamped) on each axis.
    let blocks = |count: u32, src: u32| -> Vec<(usize, usize)> {
        let ratio = src as f32 / count as f32;
        (0..count)
            .map(|i| {
                let startf = i as f32 * ratio;
                let start = (startf.ceil() as u32).min(src - 1);
                let end = ((startf + ratio).ceil() as u32).clamp(start, src);
                (start as usize, end as usize)
            })
            .collect()
    };
    let (columns, rows) = (blocks(width, src_width), blocks(height, src_height));
    let src = image.as_raw();
    let stride = src_width as usize * 3;
    let mut column_sums = vec![0u32; stride];
    // Each output column's mean for the current block height (rows have one or two heights).
    let (mut means, mut means_height) = (Vec::new(), 0);
    let mut out = Vec::with_capacity(width as usize * height as usize * 3);
    for &(top, bottom) in &rows {
        column_sums.fill(0);
        for row in src[top * stride..bottom * stride].chunks_exact(stride) {
            for (sum, &value) in column_sums.iter_mut().zip(row) {
                *sum += u32::from(value);
            }
        }
        if bottom - top != means_height {
            means_height = bottom - top;
            means =
                columns.iter().map(|&(left, right)| RoundedMean::of((right - left) * means_height)).collect();
        }
        for (&(left, right), mean) in columns.iter().zip(&means) {
            let mut sum = [0u32; 3];
            for pixel in column_sums[left * 3..right * 3].chunks_exact(3) {
                sum[0] += pixel[0];
                sum[1] += pixel[1];
                sum[2] += pixel[2];
            }
            out.extend(sum.map(|s| mean.of_sum(s)));
        }
    }
    RgbImage::from_raw(width, height, out).unwrap_or_else(|| image::imageops::thumbnail(image, width, height))
}

/// `(sum + n / 2) / n` for sums of `n` bytes, by a multiplication instead of a division (a
/// division per channel was most of [`shrink_rgb_exact`]'s time). Exact: with
/// `m = ceil(2^32 / n)`, `floor(x * m / 2^32) == floor(x / n)` whenever `x * n < 2^32`, which
/// holds for `x <= 256 n` while `n <= 4096` (blocks of up to 64x64 pixels); larger blocks
/// divide.
#[derive(Clone, Copy)]
struct RoundedMean {
    n: u32,
    reciprocal: Option<u64>,
}

impl RoundedMean {
    fn of(n: usize) -> RoundedMean {
        let n = u32::try_from(n.max(1)).unwrap_or(u32::MAX);
        let reciprocal = (n <= 4096).then(|| (1u64 << 32).div_ceil(u64::from(n)));
        RoundedMean { n, reciprocal }
    }

    fn of_sum(self, sum: u32) -> u8 {
        let x = sum + self.n / 2;
        let mean = match self.reciprocal {
            Some(m) => (u64::from(x) * m) >> 32,
            None => u64::from(x / self.n),
        };
        u8::try_from(mean).unwrap_or(u8::MAX)
    }
}

fn resize_rgb(image: &RgbImage, (width, height): (u32, u32)) -> Result<RgbImage, ImageError> {
    let pixels = resize_pixels(
        image.as_raw(),
        image.dimensions(),
        fast_image_resize::PixelType::U8x3,
        (width, height),
    )?;
    RgbImage::from_raw(width, height, pixels).ok_or_else(|| ImageError::Corrupt("resize: buffer size".into()))
}

/// `src` (`src_size` pixels of `pixel_type`) resized to `width` x `height` with a triangle
/// filter over the scaled support; colours are not weighted by their transparency.
fn resize_pixels(
    src: &[u8],
    (src_width, src_height): (u32, u32),
    pixel_type: fast_image_resize::PixelType,
    (width, height): (u32, u32),
) -> Result<Vec<u8>, ImageError> {
    use fast_image_resize as fr;
    let resize_error = |e: &dyn std::fmt::Display| ImageError::Corrupt(format!("resize: {e}").into());
    let src =
        fr::images::ImageRef::new(src_width, src_height, src, pixel_type).map_err(|e| resize_error(&e))?;
    let mut dst = fr::images::Image::new(width, height, pixel_type);
    let options = fr::ResizeOptions::new()
        .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::Bilinear))
        .use_alpha(false);
    fr::Resizer::new().resize(&src, &mut dst, &options).map_err(|e| resize_error(&e))?;
    Ok(dst.into_vec())
}

/// Encodes RGB pixels as a baseline JPEG at `quality` (1-100) with the SIMD `jpeg-encoder`,
/// no metadata. Chroma is subsampled 4:2:0 below quality 90 (as libjpeg does), 4:4:4 above.
///
/// With `threads` > 1 a tall enough picture is cut into that many horizontal strips on MCU
/// boundaries, encoded at the same time, and joined into one JPEG with restart markers
/// between the strips: the pixels decoded are exactly those of a one-piece encoding.
pub fn encode_jpeg_rgb(image: &RgbImage, quality: u8, threads: usize) -> Result<Vec<u8>, ImageError> {
    let quality = quality.clamp(1, 100);
    let (width, height) = image.dimensions();
    let too_big = || ImageError::Corrupt(format!("{width}x{height} is too large for JPEG").into());
    let w16 = u16::try_from(width).map_err(|_| too_big())?;
    u16::try_from(height).map_err(|_| too_big())?;
    let mcu = if quality < 90 { 16 } else { 8 };
    let mcu_rows = height.div_ceil(mcu);
    let threads = u32::try_from(threads.clamp(1, 8)).unwrap_or(1).min(mcu_rows / 4).max(1);
    let rows_per_strip = mcu_rows.div_ceil(threads);
    let restart_interval = u16::try_from(u64::from(rows_per_strip) * u64::from(width.div_ceil(mcu))).ok();
    let Some(restart_interval) = restart_interval.filter(|_| threads > 1) else {
        return encode_jpeg_rows(image.as_raw(), w16, quality, mcu);
    };
    let row_bytes = width as usize * 3;
    let strip_bytes = (rows_per_strip * mcu) as usize * row_bytes;
    let strips: Vec<&[u8]> = image.as_raw().chunks(strip_bytes).collect();
    // On the caller's rayon pool (the analysis pool): no thread is created per image.
    let encoded: Vec<Result<Vec<u8>, ImageError>> =
        strips.par_iter().map(|strip| encode_jpeg_rows(strip, w16, quality, mcu)).collect();
    let encoded = encoded.into_iter().collect::<Result<Vec<_>, _>>()?;
    join_strips(&encoded, height, restart_interval)
}

/// One JPEG of whole RGB rows (`data.len()` a multiple of `width` * 3).
fn encode_jpeg_rows(data: &[u8], width: u16, quality: u8, mcu: u32) -> Result<Vec<u8>, ImageError> {
    let rows = data.len() / (usize::from(width) * 3).max(1);
    let height = u16::try_from(rows).map_err(|_| ImageError::Corrupt("strip too tall".into()))?;
    let mut out = Vec::with_capacity(data.len() / 8);
    let mut encoder = jpeg_encoder::Encoder::new(&mut out, quality);
    encoder.set_sampling_factor(if mcu == 16 {
        jpeg_encoder::SamplingFactor::F_2_2
    } else {
        jpeg_encoder::SamplingFactor::F_1_1
    });
    encoder
        .encode(data, width, height, jpeg_encoder::ColorType::Rgb)
        .map_err(|e| ImageError::Corrupt(e.into()))?;
    Ok(out)
}

/// Where the entropy-coded data of a one-scan JPEG begins, and the offset of its frame
/// height (in SOF0).
fn scan_layout(jpeg: &[u8]) -> Option<(usize, usize, usize)> {
    let mut at = 2;
    let mut height_at = None;
    while at + 4 <= jpeg.len() {
        if jpeg[at] != 0xFF {
            return None;
        }
        let marker = jpeg[at + 1];
        let len = usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
        if marker == 0xC0 {
            height_at = Some(at + 5);
        }
        if marker == 0xDA {
            let data_at = at + 2 + len;
            return height_at.filter(|_| data_at <= jpeg.len().saturating_sub(2)).map(|h| (at, data_at, h));
        }
        at += 2 + len;
    }
    None
}

/// Joins strips encoded alike into one JPEG: the first strip's headers (frame height set
/// to the whole, a DRI segment added), then each strip's scan data with RSTn between.
fn join_strips(strips: &[Vec<u8>], height: u32, restart_interval: u16) -> Result<Vec<u8>, ImageError> {
    let malformed = || ImageError::Corrupt("unexpected encoder output".into());
    let first = strips.first().ok_or_else(malformed)?;
    let (sos_at, _, height_at) = scan_layout(first).ok_or_else(malformed)?;
    let height = u16::try_from(height).map_err(|_| malformed())?;
    let mut out = Vec::with_capacity(strips.iter().map(Vec::len).sum::<usize>() + 64);
    out.extend_from_slice(&first[..sos_at]);
    out[height_at..height_at + 2].copy_from_slice(&height.to_be_bytes());
    out.extend_from_slice(&[0xFF, 0xDD, 0x00, 0x04]);
    out.extend_from_slice(&restart_interval.to_be_bytes());
    for (i, strip) in strips.iter().enumerate() {
        let (sos, data_at, _) = scan_layout(strip).ok_or_else(malformed)?;
        if !strip.ends_with(&[0xFF, 0xD9]) {
            return Err(malformed());
        }
        if i == 0 {
            out.extend_from_slice(&strip[sos..data_at]);
        } else {
            out.extend_from_slice(&[0xFF, 0xD0 + ((i - 1) % 8) as u8]);
        }
        out.extend_from_slice(&strip[data_at..strip.len() - 2]);
    }
    out.extend_from_slice(&[0xFF, 0xD9]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In these tests two failures are equal when they are of the same kind (a codec's
    /// cause has no equality).
    impl PartialEq for ImageError {
        fn eq(&self, other: &Self) -> bool {
            std::mem::discriminant(self) == std::mem::discriminant(other)
        }
    }

    #[test]
    fn rounded_means_by_multiplication_are_exact() {
        for n in (1..=4096).chain([4097, 10_000]) {
            let mean = RoundedMean::of(n as usize);
            for sum in (0..=255 * n).step_by((n as usize / 7).max(1)).chain([255 * n]) {
                assert_eq!(u32::from(mean.of_sum(sum)), (sum + n / 2) / n, "{sum} / {n}");
            }
        }
    }

    #[test]
    fn shrinking_exactly_gives_the_pixels_of_image_thumbnail() {
        let noise = |w: u32, h: u32| {
            RgbImage::from_fn(w, h, |x, y| {
                let v = x.wrapping_mul(2_654_435_761).wrapping_add(y.wrapping_mul(40_503)) >> 7;
                image::Rgb([v as u8, (v >> 8) as u8, (v >> 16) as u8])
            })
        };
        for ((w, h), (tw, th)) in [
            ((1920, 1080), (416, 416)),
            ((1920, 1080), (416, 234)),
            ((1150, 1080), (224, 224)),
            ((949, 534), (416, 234)),
            ((500, 296), (224, 224)),
            ((417, 300), (416, 299)),
            ((224, 224), (224, 224)),
        ] {
            let image = noise(w, h);
            assert_eq!(
                shrink_rgb_exact(&image, tw, th),
                image::imageops::thumbnail(&image, tw, th),
                "{w}x{h} -> {tw}x{th}"
            );
        }
        // Growing is thumbnail's own.
        let small = noise(100, 80);
        assert_eq!(shrink_rgb_exact(&small, 224, 224), image::imageops::thumbnail(&small, 224, 224));
    }
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

    fn gradient(width: u32, height: u32) -> RgbImage {
        RgbImage::from_fn(width, height, |x, y| {
            Rgb([(x * 7 % 256) as u8, (y * 3 % 256) as u8, ((x ^ y) % 256) as u8])
        })
    }

    #[test]
    fn a_jpeg_encoded_in_strips_decodes_to_the_same_pixels() {
        for (width, height, quality) in [(333, 257, 85), (640, 480, 80), (101, 300, 95), (1920, 1080, 85)] {
            let image = gradient(width, height);
            let whole = encode_jpeg_rgb(&image, quality, 1).unwrap();
            let split = encode_jpeg_rgb(&image, quality, 3).unwrap();
            assert_ne!(whole, split, "{width}x{height}: restart markers expected");
            let a = image::load_from_memory(&whole).unwrap().to_rgb8();
            let b = image::load_from_memory(&split).unwrap().to_rgb8();
            assert_eq!(a.dimensions(), (width, height));
            assert!(a == b, "{width}x{height} q{quality}: pixels differ");
        }
        // Too short to split: one piece.
        let small = gradient(50, 20);
        assert_eq!(encode_jpeg_rgb(&small, 85, 4).unwrap(), encode_jpeg_rgb(&small, 85, 1).unwrap());
    }

    #[test]
    fn fitted_sizes_keep_the_proportions() {
        assert_eq!(fitted_size(3000, 2000, 1920, 1080), (1620, 1080));
        assert_eq!(fitted_size(4000, 3000, 1920, 1080), (1440, 1080));
        assert_eq!(fitted_size(1620, 1080, 400, 400), (400, 267));
        assert_eq!(fitted_size(640, 480, 1920, 1080), (640, 480));
        assert_eq!(fitted_size(10_000, 1, 100, 100), (100, 1));
    }

    #[test]
    fn a_transparent_picture_kept_as_png_is_fitted_with_its_transparency() {
        // Transparent on the left half, opaque on the right, colours that vary.
        let picture = image::RgbaImage::from_fn(400, 200, |x, y| {
            image::Rgba([(x * 7 % 256) as u8, (y * 13 % 256) as u8, 90, if x < 200 { 0 } else { 255 }])
        });
        let bytes = encode_png(&DynamicImage::ImageRgba8(picture.clone())).unwrap();
        let (_, kept) =
            decode_fitted(&bytes, &[MediaKind::Png], LIMITS, 1_000_000, (100, 100), Alpha::Keep).unwrap();
        let kept = kept.as_rgba8().unwrap();
        assert_eq!(kept.dimensions(), (100, 50));
        assert_eq!((kept.get_pixel(10, 10)[3], kept.get_pixel(90, 10)[3]), (0, 255));
        // Dropped after fitting: the same pixels as dropped before it.
        let (_, rgb) = decode_rgb_fitted(&bytes, &[MediaKind::Png], LIMITS, 1_000_000, 100, 100).unwrap();
        let dropped_first =
            resize_rgb_within(DynamicImage::ImageRgba8(picture).into_rgb8(), 100, 100).unwrap();
        assert_eq!(rgb, dropped_first);
    }

    #[test]
    fn decode_rgb_fitted_checks_pixels_from_the_header() {
        let bytes = png(300, 200);
        let (_, image) = decode_rgb_fitted(&bytes, &[MediaKind::Png], LIMITS, 1_000_000, 150, 150).unwrap();
        assert_eq!(image.dimensions(), (150, 100));
        assert_eq!(
            decode_rgb_fitted(&bytes, &[MediaKind::Png], LIMITS, 50_000, 150, 150).unwrap_err(),
            ImageError::TooLarge
        );
    }
}
