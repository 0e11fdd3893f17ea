//! The embedded COCO object detector (NanoDet, `models/nanodet-coco.onnx`, run on ONNX Runtime).
//!
//! Load it once at start-up with [`Detector::load`]; one instance serves every request
//! (`Detector` is `Send + Sync` and `detect` takes `&self`). Input format, decoding and what
//! the model can and cannot see are recorded in `models/README.md`.
//!
//! Each photo is run twice — stretched to 416x416 (finds monitors best) and letterboxed
//! (NanoDet's own recipe; finds keyboards and mice best) — and the candidates of both runs
//! are merged in image coordinates before non-maximum suppression.

use std::fmt;
use std::path::{Path, PathBuf};

use image::RgbImage;
use image::imageops::{self, FilterType};
use setupiq_core::images;
use sha2::{Digest, Sha256};

use crate::runtime;

/// sha256 of `models/nanodet-coco.onnx`; [`Detector::load`] refuses any other file.
pub const MODEL_SHA256: &str = "8d5f3a50ef9f6dec033f34704588582d859cd51ab5864d824a99de4b752587e3";

/// The model's square input side, in pixels.
pub const INPUT_SIZE: u32 = 416;

/// Candidates below this class score are dropped before NMS.
pub const SCORE_THRESHOLD: f32 = 0.3;

/// Chairs are kept down to this score: a desk chair seen from behind at the edge of the
/// photo often scores 0.19-0.29 (13 of the 83 chairs of the shared setups). The layout counts
/// only boxes from [`SCORE_THRESHOLD`]; the faint ones are for the chair gate
/// (`vision::calibration::chair_in_view`), which reads the best chair score beside the
/// embeddings, and for the seat it then finds.
pub const FAINT_CHAIR_THRESHOLD: f32 = 0.12;

/// The score from which a candidate of `class` is kept.
fn threshold_of(class: CocoClass) -> f32 {
    if class == CocoClass::CHAIR { FAINT_CHAIR_THRESHOLD } else { SCORE_THRESHOLD }
}

/// Two boxes of the same class overlapping more than this are one object.
const NMS_IOU: f32 = 0.6;

/// Two boxes of classes the model confuses (see [`CONFUSABLE_GROUPS`]) overlapping more than
/// this, or one lying this much inside the other, are one object.
const GROUP_IOU: f32 = 0.45;
const GROUP_CONTAINED: f32 = 0.8;

/// A `tv` box lying this much inside a `laptop` box and covering a share of its area in
/// [`SCREEN_AREA`] is the laptop's own screen (about half of a laptop's box). Boxes of about
/// the same size are one object seen as both classes, and the better score decides; a much
/// smaller `tv` box inside a huge `laptop` box is a monitor inside a false laptop.
const SCREEN_IN_LAPTOP: f32 = 0.7;
const SCREEN_AREA: std::ops::RangeInclusive<f32> = 0.25..=0.75;

/// At most this many detections are returned per image, best first.
const MAX_DETECTIONS: usize = 100;

/// Bins per box side in the distribution-focal-loss head (`reg_max + 1`).
const BINS: usize = 11;

/// NanoDet's normalisation, in the model's BGR channel order.
const MEAN_BGR: [f32; 3] = [103.53, 116.28, 123.675];
const STD_BGR: [f32; 3] = [57.375, 57.12, 58.395];

/// The model's strides; each gives a `(416/s)²` grid of cells.
const STRIDES: [u32; 3] = [8, 16, 32];

/// A COCO class as the model numbers it: the contiguous index `0..80` of the 80 detection
/// classes (not the sparse 1..90 category ids of the COCO annotation files).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CocoClass(u8);

impl CocoClass {
    pub const CHAIR: CocoClass = CocoClass(56);
    pub const COUCH: CocoClass = CocoClass(57);
    pub const POTTED_PLANT: CocoClass = CocoClass(58);
    /// COCO's `tv`: what the model calls a computer monitor.
    pub const TV: CocoClass = CocoClass(62);
    pub const LAPTOP: CocoClass = CocoClass(63);
    pub const MOUSE: CocoClass = CocoClass(64);
    pub const REMOTE: CocoClass = CocoClass(65);
    pub const KEYBOARD: CocoClass = CocoClass(66);
    pub const CELL_PHONE: CocoClass = CocoClass(67);
    pub const BOOK: CocoClass = CocoClass(73);

    /// The class with this index, if it is one of the 80.
    pub fn from_id(id: usize) -> Option<CocoClass> {
        u8::try_from(id).ok().filter(|&id| usize::from(id) < COCO_LABELS.len()).map(CocoClass)
    }

    /// The index `0..80` of the class in the model's output.
    pub fn id(self) -> usize {
        usize::from(self.0)
    }

    /// COCO's English label (`"tv"`, `"cell phone"`, ...).
    pub fn label(self) -> &'static str {
        COCO_LABELS.get(self.id()).copied().unwrap_or("unknown")
    }

    /// The classes that make a photo a desk or gaming setup.
    pub fn is_desk_gear(self) -> bool {
        matches!(self, CocoClass::TV | CocoClass::LAPTOP | CocoClass::KEYBOARD | CocoClass::MOUSE)
    }
}

impl fmt::Display for CocoClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl fmt::Debug for CocoClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.label(), self.0)
    }
}

/// The 80 COCO detection classes in the model's output order.
pub const COCO_LABELS: [&str; 80] = [
    "person",
    "bicycle",
    "car",
    "motorcycle",
    "airplane",
    "bus",
    "train",
    "truck",
    "boat",
    "traffic light",
    "fire hydrant",
    "stop sign",
    "parking meter",
    "bench",
    "bird",
    "cat",
    "dog",
    "horse",
    "sheep",
    "cow",
    "elephant",
    "bear",
    "zebra",
    "giraffe",
    "backpack",
    "umbrella",
    "handbag",
    "tie",
    "suitcase",
    "frisbee",
    "skis",
    "snowboard",
    "sports ball",
    "kite",
    "baseball bat",
    "baseball glove",
    "skateboard",
    "surfboard",
    "tennis racket",
    "bottle",
    "wine glass",
    "cup",
    "fork",
    "knife",
    "spoon",
    "bowl",
    "banana",
    "apple",
    "sandwich",
    "orange",
    "broccoli",
    "carrot",
    "hot dog",
    "pizza",
    "donut",
    "cake",
    "chair",
    "couch",
    "potted plant",
    "bed",
    "dining table",
    "toilet",
    "tv",
    "laptop",
    "mouse",
    "remote",
    "keyboard",
    "cell phone",
    "microwave",
    "oven",
    "toaster",
    "sink",
    "refrigerator",
    "book",
    "clock",
    "vase",
    "scissors",
    "teddy bear",
    "hair drier",
    "toothbrush",
];

/// Classes the model mixes up on the same object; overlapping boxes within a group are one
/// object, reported as the best-scoring class.
const CONFUSABLE_GROUPS: [&[CocoClass]; 3] = [
    &[CocoClass::MOUSE, CocoClass::CELL_PHONE, CocoClass::REMOTE],
    &[CocoClass::KEYBOARD, CocoClass::BOOK],
    &[CocoClass::LAPTOP, CocoClass::TV],
];

/// An axis-aligned box `(x0, y0, x1, y1)` in pixels, `x0 <= x1`, `y0 <= y1`.
pub type BBox = (f32, f32, f32, f32);

/// One object found in an image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detection {
    pub class: CocoClass,
    /// The class score, `0..=1`.
    pub score: f32,
    /// `(x0, y0, x1, y1)` in the analysed image's own pixel coordinates.
    pub bbox: BBox,
}

#[derive(Debug, thiserror::Error)]
pub enum DetectorError {
    #[error("cannot read the detector model {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the detector model {path} is not the expected file: sha256 is {actual}, expected {expected} \
         (see models/README.md)"
    )]
    Checksum { path: PathBuf, expected: &'static str, actual: String },
    #[error("cannot load the detector model {path}: {message}")]
    Load { path: PathBuf, message: String },
    #[error("the detector model failed to run: {0}")]
    Run(String),
    #[error("the detector model has unexpected outputs: {0}")]
    Outputs(String),
}

/// The loaded detector: one ONNX Runtime session, built once, shared by all requests.
pub struct Detector {
    model: runtime::Model,
}

// One instance serves every request from many threads.
const _: fn() = || {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Detector>();
};

impl fmt::Debug for Detector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Detector").field("model", &"nanodet-coco.onnx").finish()
    }
}

impl Detector {
    /// Reads the model, checks its sha256 against [`MODEL_SHA256`], starts its session and
    /// runs it once on a blank image, so that a broken model fails here, at start-up.
    pub fn load(path: impl AsRef<Path>) -> Result<Detector, DetectorError> {
        let path = path.as_ref();
        let bytes =
            std::fs::read(path).map_err(|source| DetectorError::Read { path: path.to_owned(), source })?;
        let actual = hex::encode(Sha256::digest(&bytes));
        if actual != MODEL_SHA256 {
            return Err(DetectorError::Checksum { path: path.to_owned(), expected: MODEL_SHA256, actual });
        }
        let model = runtime::Model::load(path, &bytes, &[])
            .map_err(|message| DetectorError::Load { path: path.to_owned(), message })?;
        let detector = Detector { model };
        detector.detect(&RgbImage::new(64, 48))?;
        Ok(detector)
    }

    /// Finds COCO objects in `image`, best score first, boxes in `image`'s pixel coordinates.
    /// The two views run one after the other on the calling thread (the caller runs the
    /// other models beside it).
    pub fn detect(&self, image: &RgbImage) -> Result<Vec<Detection>, DetectorError> {
        let (width, height) = image.dimensions();
        if width == 0 || height == 0 {
            return Ok(Vec::new());
        }
        let mut candidates = self.candidates(image, View::stretch(width, height))?;
        candidates.extend(self.candidates(image, View::letterbox(width, height))?);
        let mut detections = group_confusable(nms_per_class(candidates, NMS_IOU));
        detections.truncate(MAX_DETECTIONS);
        Ok(detections)
    }

    /// Every (cell, class) of one view above its class's score threshold, boxes in image pixels.
    fn candidates(&self, image: &RgbImage, view: View) -> Result<Vec<Detection>, DetectorError> {
        let side = INPUT_SIZE as usize;
        let outputs =
            self.model.run([1, 3, side, side], view.input_tensor(image)).map_err(DetectorError::Run)?;
        let mut candidates = Vec::new();
        for level in levels(&outputs)? {
            for mut candidate in decode_level(level.scores, level.boxes, level.stride, threshold_of) {
                candidate.bbox = view.image_box(candidate.bbox);
                candidates.push(candidate);
            }
        }
        Ok(candidates)
    }
}

/// How the photo was fitted into the model's square input, and back.
#[derive(Debug, Clone, Copy, PartialEq)]
struct View {
    /// The photo's size inside the input, in input pixels.
    inner: (u32, u32),
    /// Where that inner area starts, in input pixels.
    offset: (u32, u32),
    /// Input pixels per photo pixel, per axis.
    scale: (f32, f32),
    /// The photo's own size, to clamp boxes to.
    image: (u32, u32),
}

impl View {
    /// Stretched over the whole input, ignoring the aspect ratio.
    fn stretch(width: u32, height: u32) -> View {
        let side = INPUT_SIZE as f32;
        View {
            inner: (INPUT_SIZE, INPUT_SIZE),
            offset: (0, 0),
            scale: (side / width as f32, side / height as f32),
            image: (width, height),
        }
    }

    /// Scaled to fit, aspect ratio kept, centred on black (NanoDet's own preprocessing).
    fn letterbox(width: u32, height: u32) -> View {
        let ratio = (INPUT_SIZE as f32 / width as f32).min(INPUT_SIZE as f32 / height as f32);
        let fit = |side: u32| ((side as f32 * ratio).round() as u32).clamp(1, INPUT_SIZE);
        let inner = (fit(width), fit(height));
        View {
            inner,
            offset: ((INPUT_SIZE - inner.0) / 2, (INPUT_SIZE - inner.1) / 2),
            scale: (inner.0 as f32 / width as f32, inner.1 as f32 / height as f32),
            image: (width, height),
        }
    }

    /// The `[1, 3, 416, 416]` BGR, normalised input for this view of `image`.
    fn input_tensor(&self, image: &RgbImage) -> Vec<f32> {
        let (width, height) = image.dimensions();
        let resized = if self.inner.0 <= width && self.inner.1 <= height {
            // Area averaging: as good as a filter when shrinking, and several times faster on a
            // 12 MP photo.
            images::shrink_rgb_exact(image, self.inner.0, self.inner.1)
        } else {
            imageops::resize(image, self.inner.0, self.inner.1, FilterType::Triangle)
        };
        let side = INPUT_SIZE as usize;
        let plane = side * side;
        let mut values = vec![0f32; 3 * plane];
        for (channel, values) in values.chunks_exact_mut(plane).enumerate() {
            // Letterbox bands are black, as in NanoDet's own preprocessing.
            values.fill(-MEAN_BGR[channel] / STD_BGR[channel]);
        }
        let (ox, oy) = (self.offset.0 as usize, self.offset.1 as usize);
        for (y, row) in resized.rows().enumerate() {
            for (x, pixel) in row.enumerate() {
                let at = (oy + y) * side + ox + x;
                for channel in 0..3 {
                    // The model wants BGR: plane 0 is blue, the image's channel 2.
                    let value = f32::from(pixel.0[2 - channel]);
                    values[channel * plane + at] = (value - MEAN_BGR[channel]) / STD_BGR[channel];
                }
            }
        }
        values
    }

    /// A box in input pixels mapped back to the photo, clamped to it.
    fn image_box(&self, (x0, y0, x1, y1): BBox) -> BBox {
        let (w, h) = (self.image.0 as f32, self.image.1 as f32);
        let x = |v: f32| ((v - self.offset.0 as f32) / self.scale.0).clamp(0.0, w);
        let y = |v: f32| ((v - self.offset.1 as f32) / self.scale.1).clamp(0.0, h);
        (x(x0), y(y0), x(x1), y(y1))
    }
}

/// One stride's outputs: class scores `[N, 80]` and box bins `[N, 44]`, row-major cells.
struct Level<'a> {
    stride: u32,
    scores: &'a [f32],
    boxes: &'a [f32],
}

/// Pairs the six outputs by stride, whatever order the converter left them in.
fn levels(outputs: &[runtime::Output]) -> Result<Vec<Level<'_>>, DetectorError> {
    let mut levels = Vec::with_capacity(STRIDES.len());
    for stride in STRIDES {
        let cells = ((INPUT_SIZE / stride) * (INPUT_SIZE / stride)) as usize;
        let find = |columns: usize| -> Result<&[f32], DetectorError> {
            outputs
                .iter()
                .find(|output| output.shape == [1, cells, columns] && output.values.len() == cells * columns)
                .map(|output| output.values.as_slice())
                .ok_or_else(|| {
                    DetectorError::Outputs(format!("no [1, {cells}, {columns}] output for stride {stride}"))
                })
        };
        levels.push(Level { stride, scores: find(COCO_LABELS.len())?, boxes: find(4 * BINS)? });
    }
    Ok(levels)
}

/// Decodes one stride: every (cell, class) whose score reaches `threshold(class)` becomes a candidate
/// with its box in input pixels. `scores` is `[cells, 80]` (already sigmoid), `boxes` is
/// `[cells, 4 * 11]`: per side (left, top, right, bottom) the logits of a distance
/// distribution over bins `0..=10`, in units of the stride, measured from the cell centre.
fn decode_level(
    scores: &[f32],
    boxes: &[f32],
    stride: u32,
    threshold: fn(CocoClass) -> f32,
) -> Vec<Detection> {
    let classes = COCO_LABELS.len();
    let lowest = (0..classes).filter_map(CocoClass::from_id).map(threshold).fold(f32::INFINITY, f32::min);
    let grid = (INPUT_SIZE / stride) as usize;
    let stride = stride as f32;
    let mut found = Vec::new();
    for (cell, (cell_scores, cell_box)) in
        scores.chunks_exact(classes).zip(boxes.chunks_exact(4 * BINS)).enumerate()
    {
        if !cell_scores.iter().any(|&s| s >= lowest) {
            continue;
        }
        let (row, col) = (cell / grid, cell % grid);
        let (cx, cy) = ((col as f32 + 0.5) * stride, (row as f32 + 0.5) * stride);
        let mut side = cell_box.chunks_exact(BINS).map(|logits| expected_bin(logits) * stride);
        let (left, top, right, bottom) = (
            side.next().unwrap_or(0.0),
            side.next().unwrap_or(0.0),
            side.next().unwrap_or(0.0),
            side.next().unwrap_or(0.0),
        );
        let limit = INPUT_SIZE as f32;
        let bbox = (
            (cx - left).clamp(0.0, limit),
            (cy - top).clamp(0.0, limit),
            (cx + right).clamp(0.0, limit),
            (cy + bottom).clamp(0.0, limit),
        );
        for (id, &score) in cell_scores.iter().enumerate() {
            if let Some(class) = CocoClass::from_id(id)
                && score >= threshold(class)
            {
                found.push(Detection { class, score, bbox });
            }
        }
    }
    found
}

/// The mean bin index under the softmax of `logits`.
fn expected_bin(logits: &[f32]) -> f32 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let (mut total, mut weighted) = (0.0, 0.0);
    for (bin, &logit) in logits.iter().enumerate() {
        let p = (logit - max).exp();
        total += p;
        weighted += p * bin as f32;
    }
    if total > 0.0 { weighted / total } else { 0.0 }
}

fn area((x0, y0, x1, y1): BBox) -> f32 {
    (x1 - x0).max(0.0) * (y1 - y0).max(0.0)
}

fn intersection(a: BBox, b: BBox) -> f32 {
    area((a.0.max(b.0), a.1.max(b.1), a.2.min(b.2), a.3.min(b.3)))
}

fn iou(a: BBox, b: BBox) -> f32 {
    let common = intersection(a, b);
    let union = area(a) + area(b) - common;
    if union > 0.0 { common / union } else { 0.0 }
}

/// The share of `inner`'s area that lies inside `outer`.
fn contained(inner: BBox, outer: BBox) -> f32 {
    let a = area(inner);
    if a > 0.0 { intersection(inner, outer) / a } else { 0.0 }
}

/// Best first; ties broken by class and position so that the order is deterministic.
fn sort_best_first(detections: &mut [Detection]) {
    detections.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.class.cmp(&b.class))
            .then(a.bbox.0.total_cmp(&b.bbox.0))
            .then(a.bbox.1.total_cmp(&b.bbox.1))
    });
}

/// Greedy non-maximum suppression within each class; returns the survivors best first.
fn nms_per_class(mut candidates: Vec<Detection>, max_iou: f32) -> Vec<Detection> {
    sort_best_first(&mut candidates);
    let mut kept: Vec<Detection> = Vec::new();
    for candidate in candidates {
        if !kept.iter().any(|k| k.class == candidate.class && iou(k.bbox, candidate.bbox) > max_iou) {
            kept.push(candidate);
        }
    }
    kept
}

/// Merges cross-class duplicates of one object (mouse / cell phone / remote, keyboard / book,
/// laptop / tv): of overlapping boxes in one group only the best-scoring stays. A `tv` box
/// lying inside a `laptop` box is that laptop's screen and goes, whatever its score; a laptop
/// in front of a larger monitor keeps both.
fn group_confusable(detections: Vec<Detection>) -> Vec<Detection> {
    let group_of = |class: CocoClass| CONFUSABLE_GROUPS.iter().position(|g| g.contains(&class));
    let laptops: Vec<BBox> =
        detections.iter().filter(|d| d.class == CocoClass::LAPTOP).map(|d| d.bbox).collect();
    let mut detections: Vec<Detection> = detections
        .into_iter()
        .filter(|d| {
            d.class != CocoClass::TV
                || !laptops.iter().any(|&l| {
                    contained(d.bbox, l) >= SCREEN_IN_LAPTOP
                        && SCREEN_AREA.contains(&(area(d.bbox) / area(l)))
                })
        })
        .collect();
    sort_best_first(&mut detections);
    let mut kept: Vec<Detection> = Vec::with_capacity(detections.len());
    for candidate in detections {
        let duplicate = group_of(candidate.class).is_some_and(|group| {
            kept.iter().any(|k| {
                k.class != candidate.class
                    && group_of(k.class) == Some(group)
                    && (iou(k.bbox, candidate.bbox) > GROUP_IOU
                        // A laptop often stands in front of a larger monitor, inside its
                        // box: for screens only a near-identical box is the same object.
                        || (Some(group) != group_of(CocoClass::TV)
                            && contained(k.bbox, candidate.bbox).max(contained(candidate.bbox, k.bbox))
                                >= GROUP_CONTAINED))
            })
        });
        if !duplicate {
            kept.push(candidate);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn det(class: CocoClass, score: f32, bbox: BBox) -> Detection {
        Detection { class, score, bbox }
    }

    /// Logits whose softmax puts (almost) all mass on `bin`.
    fn peaked(bin: usize) -> [f32; BINS] {
        let mut logits = [-20.0; BINS];
        logits[bin] = 20.0;
        logits
    }

    #[test]
    fn expected_bin_is_the_softmax_mean() {
        assert!((expected_bin(&peaked(3)) - 3.0).abs() < 1e-4);
        // Uniform logits: the mean of 0..=10.
        assert!((expected_bin(&[0.0; BINS]) - 5.0).abs() < 1e-4);
        // Two equal peaks at 2 and 4: halfway.
        let mut two = [-50.0; BINS];
        two[2] = 10.0;
        two[4] = 10.0;
        assert!((expected_bin(&two) - 3.0).abs() < 1e-4);
    }

    #[test]
    fn decodes_distances_from_the_cell_centre_in_stride_units() {
        let stride = 32;
        let grid = (INPUT_SIZE / stride) as usize;
        let cells = grid * grid;
        let mut scores = vec![0.01f32; cells * 80];
        let mut boxes = vec![0f32; cells * 4 * BINS];
        // Cell at row 2, column 5: centre (5.5 * 32, 2.5 * 32) = (176, 80).
        let cell = 2 * grid + 5;
        scores[cell * 80 + CocoClass::KEYBOARD.id()] = 0.9;
        scores[cell * 80 + CocoClass::BOOK.id()] = 0.35;
        for (side, bin) in [1usize, 2, 3, 1].into_iter().enumerate() {
            let start = cell * 4 * BINS + side * BINS;
            boxes[start..start + BINS].copy_from_slice(&peaked(bin));
        }
        let found = decode_level(&scores, &boxes, stride, |_| 0.3);
        assert_eq!(found.len(), 2);
        let keyboard = found.iter().find(|d| d.class == CocoClass::KEYBOARD).unwrap();
        let (x0, y0, x1, y1) = keyboard.bbox;
        for (got, want) in [(x0, 176.0 - 32.0), (y0, 80.0 - 64.0), (x1, 176.0 + 96.0), (y1, 80.0 + 32.0)] {
            assert!((got - want).abs() < 0.01, "{:?}", keyboard.bbox);
        }
        assert_eq!(keyboard.score, 0.9);
        assert!(found.iter().all(|d| d.bbox == keyboard.bbox));
    }

    #[test]
    fn decoded_boxes_are_clamped_to_the_input() {
        let stride = 32;
        let cells = ((INPUT_SIZE / stride) * (INPUT_SIZE / stride)) as usize;
        let mut scores = vec![0f32; cells * 80];
        scores[CocoClass::TV.id()] = 0.8; // cell 0, centre (16, 16)
        let boxes: Vec<f32> = (0..cells * 4).flat_map(|_| peaked(10)).collect();
        let found = decode_level(&scores, &boxes, stride, |_| 0.3);
        assert_eq!(found, vec![det(CocoClass::TV, 0.8, (0.0, 0.0, 16.0 + 320.0, 16.0 + 320.0))]);
    }

    #[test]
    fn nothing_below_the_threshold() {
        let cells = 13 * 13;
        let found = decode_level(&vec![0.29; cells * 80], &vec![0.0; cells * 44], 32, |_| 0.3);
        assert!(found.is_empty());
    }

    #[test]
    fn a_faint_chair_is_kept_and_nothing_else_as_faint() {
        let cells = 13 * 13;
        let mut scores = vec![0.0; cells * 80];
        scores[CocoClass::CHAIR.id()] = 0.2;
        scores[CocoClass::TV.id()] = 0.2;
        scores[80 + CocoClass::CHAIR.id()] = 0.1;
        let found = decode_level(&scores, &vec![0.0; cells * 44], 32, threshold_of);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].class, found[0].score), (CocoClass::CHAIR, 0.2));
    }

    #[test]
    fn nms_keeps_the_best_of_overlapping_boxes_per_class() {
        let kept = nms_per_class(
            vec![
                det(CocoClass::TV, 0.5, (10.0, 10.0, 110.0, 110.0)),
                det(CocoClass::TV, 0.8, (12.0, 12.0, 112.0, 112.0)),
                // Another monitor next to it.
                det(CocoClass::TV, 0.6, (200.0, 10.0, 300.0, 110.0)),
                // Same box, other class: not this step's business.
                det(CocoClass::CHAIR, 0.4, (10.0, 10.0, 110.0, 110.0)),
            ],
            NMS_IOU,
        );
        let summary: Vec<_> = kept.iter().map(|d| (d.class, d.score)).collect();
        assert_eq!(summary, vec![(CocoClass::TV, 0.8), (CocoClass::TV, 0.6), (CocoClass::CHAIR, 0.4)]);
    }

    #[test]
    fn confusable_classes_on_one_object_become_one_detection() {
        let kept = group_confusable(vec![
            det(CocoClass::CELL_PHONE, 0.45, (100.0, 100.0, 130.0, 150.0)),
            det(CocoClass::MOUSE, 0.6, (102.0, 101.0, 131.0, 148.0)),
            det(CocoClass::REMOTE, 0.35, (99.0, 100.0, 129.0, 152.0)),
            det(CocoClass::BOOK, 0.5, (0.0, 200.0, 300.0, 260.0)),
            det(CocoClass::KEYBOARD, 0.4, (5.0, 205.0, 290.0, 255.0)),
            // A phone well away from the mouse stays.
            det(CocoClass::CELL_PHONE, 0.7, (500.0, 100.0, 530.0, 150.0)),
            // A chair overlapping the book is another object.
            det(CocoClass::CHAIR, 0.5, (0.0, 200.0, 300.0, 260.0)),
        ]);
        let summary: Vec<_> = kept.iter().map(|d| (d.class, d.score)).collect();
        assert_eq!(
            summary,
            vec![
                (CocoClass::CELL_PHONE, 0.7),
                (CocoClass::MOUSE, 0.6),
                (CocoClass::CHAIR, 0.5),
                (CocoClass::BOOK, 0.5)
            ]
        );
    }

    #[test]
    fn a_laptop_screen_is_not_a_second_monitor_but_a_monitor_behind_a_laptop_is() {
        let laptop = det(CocoClass::LAPTOP, 0.5, (100.0, 100.0, 300.0, 260.0));
        let its_screen = det(CocoClass::TV, 0.7, (110.0, 100.0, 290.0, 200.0));
        assert_eq!(group_confusable(vec![laptop, its_screen]), vec![laptop]);

        // A "laptop" box over the whole desk does not swallow the monitor on it.
        let desk_as_laptop = det(CocoClass::LAPTOP, 0.35, (0.0, 0.0, 1000.0, 800.0));
        let monitor_on_it = det(CocoClass::TV, 0.4, (400.0, 100.0, 700.0, 400.0));
        assert_eq!(
            group_confusable(vec![desk_as_laptop, monitor_on_it]),
            vec![monitor_on_it, desk_as_laptop]
        );

        let monitor = det(CocoClass::TV, 0.9, (0.0, 0.0, 800.0, 400.0));
        let laptop_in_front = det(CocoClass::LAPTOP, 0.6, (300.0, 250.0, 500.0, 420.0));
        assert_eq!(group_confusable(vec![laptop_in_front, monitor]), vec![monitor, laptop_in_front]);
    }

    #[test]
    fn letterbox_boxes_map_back_to_the_photo() {
        // 832x416: scale 0.5, inner 416x208 centred with 104 px bands above and below.
        let view = View::letterbox(832, 416);
        assert_eq!(view.inner, (416, 208));
        assert_eq!(view.offset, (0, 104));
        let (x0, y0, x1, y1) = view.image_box((10.0, 114.0, 100.0, 204.0));
        assert_eq!((x0, y0, x1, y1), (20.0, 20.0, 200.0, 200.0));
        // A box reaching into the padding is clamped to the photo.
        assert_eq!(view.image_box((0.0, 0.0, 416.0, 416.0)), (0.0, 0.0, 832.0, 416.0));

        let view = View::stretch(1000, 500);
        let (x0, y0, x1, y1) = view.image_box((41.6, 41.6, 416.0, 208.0));
        for (got, want) in [(x0, 100.0), (y0, 50.0), (x1, 1000.0), (y1, 250.0)] {
            assert!((got - want).abs() < 1e-3, "{got} != {want}");
        }
    }

    #[test]
    fn input_tensor_is_bgr_normalised_with_black_letterbox_bands() {
        let image = RgbImage::from_pixel(832, 416, image::Rgb([255, 0, 0]));
        let data = View::letterbox(832, 416).input_tensor(&image);
        assert_eq!(data.len(), 3 * 416 * 416);
        let plane = 416 * 416;
        let at = |channel: usize, y: usize, x: usize| data[channel * plane + y * 416 + x];
        // Inside the photo: blue 0, green 0, red 255.
        assert!((at(0, 208, 208) - (0.0 - 103.53) / 57.375).abs() < 1e-4);
        assert!((at(2, 208, 208) - (255.0 - 123.675) / 58.395).abs() < 1e-4);
        // In the band above it: black.
        assert!((at(2, 10, 208) - (0.0 - 123.675) / 58.395).abs() < 1e-4);
    }

    #[test]
    fn coco_classes() {
        assert_eq!(CocoClass::TV.label(), "tv");
        assert_eq!(CocoClass::CELL_PHONE.label(), "cell phone");
        assert_eq!(CocoClass::from_id(73), Some(CocoClass::BOOK));
        assert_eq!(CocoClass::from_id(80), None);
        assert!(CocoClass::MOUSE.is_desk_gear() && !CocoClass::BOOK.is_desk_gear());
    }
}
