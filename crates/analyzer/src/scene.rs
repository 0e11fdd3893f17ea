//! What kind of scene a photo is, beyond the COCO objects: EfficientNet-Lite0 (ImageNet-1k,
//! `models/efficientnet-lite0-imagenet.onnx`, see models/README.md) gives each photo 1000
//! class probabilities (desk, desktop computer, monitor, home theater, entertainment
//! center, web site, ...) and the 1280-d embedding its classifier reads them from.
//!
//! The embedding is what a learned calibration of the six scores reads (a person's labels
//! are about the whole scene: light, tidiness, style), and the classes are evidence for the
//! scene check (a living room's TV is an "entertainment center", a screenshot a "web site").
//! Loaded once, checksum-verified, run on ONNX Runtime: about 12 ms a photo on one core here.

use std::path::{Path, PathBuf};

use image::RgbImage;
use setupiq_core::images;
use sha2::{Digest, Sha256};

use crate::runtime;

/// sha256 of `models/efficientnet-lite0-imagenet.onnx` (18,613,441 bytes).
pub const MODEL_SHA256: &str = "d7c006c401b0ac78bdc116d84739072b61b48a456ddb363a36389ef929b3cb63";
/// The model's square input side.
pub const INPUT_SIZE: u32 = 224;
/// The embedding's length.
pub const EMBEDDING_DIM: usize = 1280;
/// ImageNet-1k.
pub const CLASSES: usize = 1000;
/// The graph's value the embedding is read from: the input of the final Gemm (the model's
/// own output is only the logits; [`runtime::with_outputs`] adds this one).
const EMBEDDING_OUTPUT: &str = "/Flatten_output_0";
/// The graph's value before the global pooling: [`EMBEDDING_DIM`] maps of the photo, each a
/// 32nd of its side (what [`SceneModel::peaks`] reads).
const MAP_OUTPUT: &str = "/_swish_1/Clip_output_0";
/// The side of the closer look at the whole photo whose peaks the setup gate reads
/// ([`SceneModel::peaks`]): 10 x 10 maps.
pub const PEAK_SIZE: u32 = 320;

#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    #[error("cannot read the scene model {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the scene model {path} is not the expected file: sha256 is {actual}, expected {expected} \
         (see models/README.md)"
    )]
    Checksum { path: PathBuf, expected: &'static str, actual: String },
    #[error("cannot load the scene model {path}: {message}")]
    Load { path: PathBuf, message: String },
    #[error("the scene model failed to run: {0}")]
    Run(String),
}

/// What the classifier made of a photo.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// The pooled features the classes are read from ([`EMBEDDING_DIM`]).
    pub embedding: Vec<f32>,
    /// Softmax over the ImageNet-1k classes ([`CLASSES`]).
    pub probabilities: Vec<f32>,
}

impl Scene {
    /// The summed probability of `classes` (ImageNet indices).
    pub fn share_of(&self, classes: &[usize]) -> f32 {
        classes.iter().filter_map(|&c| self.probabilities.get(c)).sum()
    }
}

/// The loaded classifier: one ONNX Runtime session, built once, shared by all requests.
pub struct SceneModel {
    model: runtime::Model,
}

impl SceneModel {
    /// Reads the model, checks its sha256, starts its session answering the logits, the
    /// embedding and the maps before the pooling, on images of any size
    /// ([`runtime::with_free_sides`]), and runs it once at each size it is used at.
    pub fn load(path: impl AsRef<Path>) -> Result<SceneModel, SceneError> {
        let path = path.as_ref();
        let bytes =
            std::fs::read(path).map_err(|source| SceneError::Read { path: path.to_owned(), source })?;
        let actual = hex::encode(Sha256::digest(&bytes));
        if actual != MODEL_SHA256 {
            return Err(SceneError::Checksum { path: path.to_owned(), expected: MODEL_SHA256, actual });
        }
        let load = |message| SceneError::Load { path: path.to_owned(), message };
        let bytes = runtime::with_free_sides(&bytes).map_err(load)?;
        let model = runtime::Model::load(path, &bytes, &[EMBEDDING_OUTPUT, MAP_OUTPUT]).map_err(load)?;
        let scene = SceneModel { model };
        scene.see(&RgbImage::new(64, 48))?;
        scene.peaks(&RgbImage::new(64, 48))?;
        Ok(scene)
    }

    /// The photo stretched to the input by area averaging ([`images::shrink_rgb_exact`],
    /// cheaper than a filtered resize of a 1920x1080 photo), `(pixel - 127) / 128` (sharper
    /// answers than the ImageNet mean and deviation on these photos), RGB.
    pub fn see(&self, image: &RgbImage) -> Result<Scene, SceneError> {
        let [logits, embedding, _] = self.run(image, INPUT_SIZE)?;
        if embedding.len() != EMBEDDING_DIM || logits.len() != CLASSES {
            return Err(SceneError::Run(format!(
                "unexpected output sizes {} and {}",
                embedding.len(),
                logits.len()
            )));
        }
        Ok(Scene { embedding, probabilities: softmax(&logits) })
    }

    /// The peaks of a closer look at the whole photo: stretched to [`PEAK_SIZE`] as in
    /// [`Self::see`], the highest value of each of the [`EMBEDDING_DIM`] maps before the
    /// pooling. Where the embedding averages what the whole photo shows, the peaks say what
    /// is somewhere in it (a keyboard's keys, a rack's blinking ports): the setup gate reads
    /// them beside the embeddings and decides more photos right (docs/scoring.md).
    pub fn peaks(&self, image: &RgbImage) -> Result<Vec<f32>, SceneError> {
        let [_, _, maps] = self.run(image, PEAK_SIZE)?;
        if maps.is_empty() || maps.len() % EMBEDDING_DIM != 0 {
            return Err(SceneError::Run(format!("unexpected map size {}", maps.len())));
        }
        let cells = maps.len() / EMBEDDING_DIM;
        Ok(maps
            .chunks_exact(cells)
            .map(|map| map.iter().copied().fold(f32::NEG_INFINITY, f32::max))
            .collect())
    }

    /// The model's three outputs (logits, embedding, maps, row-major) for `image` stretched
    /// to `side` x `side`.
    fn run(&self, image: &RgbImage, side: u32) -> Result<[Vec<f32>; 3], SceneError> {
        let resized = images::shrink_rgb_exact(image, side, side);
        let side = side as usize;
        let plane = side * side;
        let mut input = vec![0f32; 3 * plane];
        for (at, pixel) in resized.pixels().enumerate() {
            for channel in 0..3 {
                input[channel * plane + at] = (f32::from(pixel[channel]) - 127.0) / 128.0;
            }
        }
        let outputs = self.model.run([1, 3, side, side], input).map_err(SceneError::Run)?;
        // The graph's own output (the logits) first, then the values added to it.
        let outputs: Vec<Vec<f32>> = outputs.into_iter().map(|output| output.values).collect();
        outputs.try_into().map_err(|_| SceneError::Run("an output is missing".to_owned()))
    }
}

/// A part of the photo, in fractions of its width and height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crop {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
}

/// The four overlapping parts of a photo whose embeddings, averaged, the learned judgement
/// reads beside the whole photo's: the left and right three fifths, the lower two thirds
/// (the desk surface and what is under it) and the upper centre (the screens and the wall).
/// A 224-pixel view of the whole photo loses the cables, the small items and the light
/// strips; closer views keep them (cross-validated in `scripts/fit-calibration.py`).
pub const CROPS: [Crop; 4] = [
    Crop { x0: 0.0, y0: 0.0, x1: 0.6, y1: 1.0 },
    Crop { x0: 0.4, y0: 0.0, x1: 1.0, y1: 1.0 },
    Crop { x0: 0.0, y0: 1.0 / 3.0, x1: 1.0, y1: 1.0 },
    Crop { x0: 0.2, y0: 0.0, x1: 0.8, y1: 0.6 },
];

impl Crop {
    /// This part of `image` (at least one pixel each way).
    pub fn of(&self, image: &RgbImage) -> RgbImage {
        let (width, height) = image.dimensions();
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // fractions of u32 sides
        let at = |fraction: f32, side: u32| ((fraction * side as f32).round() as u32).min(side);
        let x0 = at(self.x0, width).min(width.saturating_sub(1));
        let y0 = at(self.y0, height).min(height.saturating_sub(1));
        let x1 = at(self.x1, width).max(x0 + 1);
        let y1 = at(self.y1, height).max(y0 + 1);
        image::imageops::crop_imm(image, x0, y0, x1 - x0, y1 - y0).to_image()
    }
}

impl SceneModel {
    /// The mean embedding of the [`CROPS`] of `image`.
    pub fn crops_embedding(&self, image: &RgbImage) -> Result<Vec<f32>, SceneError> {
        let mut mean = vec![0.0; EMBEDDING_DIM];
        for crop in &CROPS {
            let seen = self.see(&crop.of(image))?;
            mean.iter_mut().zip(&seen.embedding).for_each(|(m, e)| *m += e);
        }
        #[allow(clippy::cast_precision_loss)]
        let n = CROPS.len() as f32;
        mean.iter_mut().for_each(|m| *m /= n);
        Ok(mean)
    }
}

fn softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exp: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
    let sum: f32 = exp.iter().sum();
    exp.into_iter().map(|e| e / sum).collect()
}
