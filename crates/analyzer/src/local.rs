//! The embedded analyzer (`SETUPIQ_ANALYZER=local`, the default): offline, on the CPU,
//! deterministic. A photo is screened by the safety classifier, the COCO detector and the
//! scene classifier ([`vision::screen`]), then rated by the [`crate::vision`] rubric and its
//! learned calibration; a description by the [`crate::text`] lexicon.
//!
//! The models are loaded once: [`LocalAnalyzer::preload`] at start-up (the server does it
//! before it listens), or at first use. All the CPU work of an analysis (the upload
//! pipeline, both models, the rubric) runs on one pool of as many threads as there are
//! cores ([`LocalAnalyzer::run`]): concurrent requests queue instead of fighting for the
//! cores, and no thread is created per request (with glibc's per-thread arenas that
//! doubled the server's memory).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures_util::future::BoxFuture;
use image::RgbImage;

use crate::detector::{Detection, Detector, DetectorError};
use crate::pipeline::PreparedImage;
use crate::rating::{AnalysisInput, Analyzer, AnalyzerName, RatingError, Refusal};
use crate::result::Assessment;
use crate::safety::{self, SafetyClassifier, SafetyError};
use crate::scene::{Scene, SceneError, SceneModel};
use crate::{text, vision};

/// File name of the detector in the models folder.
pub const DETECTOR_FILE: &str = "nanodet-coco.onnx";
/// File name of the scene classifier in the models folder.
pub const SCENE_FILE: &str = "efficientnet-lite0-imagenet.onnx";

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error(transparent)]
    Detector(#[from] DetectorError),
    #[error(transparent)]
    Safety(#[from] SafetyError),
    #[error(transparent)]
    Scene(#[from] SceneError),
}

/// The loaded models, shared by every request.
pub struct LocalModels {
    pub detector: Detector,
    pub safety: SafetyClassifier,
    pub scene: SceneModel,
}

impl std::fmt::Debug for LocalModels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalModels").finish_non_exhaustive()
    }
}

impl LocalModels {
    /// Loads (and checksum-verifies) every model in `dir`, one after the other: building a
    /// session briefly takes several times its model's size, and three at once set the
    /// server's peak memory (282 MiB at start-up against ~200 MiB one at a time).
    pub fn load(dir: &Path) -> Result<Self, ModelError> {
        Ok(Self {
            detector: Detector::load(dir.join(DETECTOR_FILE))?,
            safety: SafetyClassifier::load(dir.join(safety::MODEL_FILE))?,
            scene: SceneModel::load(dir.join(SCENE_FILE))?,
        })
    }

    /// [`Self::look_and_check_safety`] without the safety classifier, for the examples,
    /// benches and tests that rate folders of desk photos.
    #[cfg(feature = "internals")]
    pub fn look(&self, pixels: &RgbImage) -> Result<Screening, RatingError> {
        let (detections, (scene, crops, frame)) = rayon::join(
            || self.detector.detect(pixels),
            || (self.scene.see(pixels), self.scene.crops_embedding(pixels), vision::Frame::new(pixels)),
        );
        self.screened(pixels, detections, scene, crops, frame)
    }

    /// What the detector and the scene classifier see in a photo, whether it is a photo of a
    /// setup ([`vision::screen`]), and the safety classifier's verdict (whether the photo is
    /// safe for work), the work spread over two threads that finish at about the same time: the
    /// detector's two views on one; the safety classifier, the scene classifier on the whole
    /// photo and on its four crops, and the rubric's analysed copy of the photo on the other.
    /// No model runs on both threads at once (each has one session). Where the setup gate is
    /// in doubt, the scene classifier's closer look follows on this thread; where a chair will
    /// be rated, its closer look at the chair follows once both threads are done.
    pub fn look_and_check_safety(
        &self,
        pixels: &RgbImage,
    ) -> (Result<bool, RatingError>, Result<Screening, RatingError>) {
        let (detections, (safety, scene, crops, frame)) = rayon::join(
            || self.detector.detect(pixels),
            || {
                (
                    self.safety.is_safe_for_work(pixels),
                    self.scene.see(pixels),
                    self.scene.crops_embedding(pixels),
                    vision::Frame::new(pixels),
                )
            },
        );
        let safe = safety.map_err(failed);
        (safe, self.screened(pixels, detections, scene, crops, frame))
    }

    fn screened(
        &self,
        pixels: &RgbImage,
        detections: Result<Vec<Detection>, DetectorError>,
        scene: Result<Scene, SceneError>,
        crops: Result<Vec<f32>, SceneError>,
        frame: vision::Frame,
    ) -> Result<Screening, RatingError> {
        let (detections, scene, crops) =
            (detections.map_err(failed)?, scene.map_err(failed)?, crops.map_err(failed)?);
        let closer_look = || self.scene.peaks(pixels).map_err(failed);
        vision::screen(pixels, &frame, &detections, &scene, &crops, closer_look)?;
        let chair = match vision::chair_to_look_at(&frame, &detections, &scene, &crops) {
            Some(part) => Some(self.scene.see(&part.of(pixels)).map_err(failed)?.embedding),
            None => None,
        };
        Ok(Screening { detections, scene, crops, chair, frame })
    }
}

/// What screening found in a photo that passed it.
#[derive(Debug, Clone)]
pub struct Screening {
    pub detections: Vec<Detection>,
    pub scene: Scene,
    /// The mean embedding of the photo's [`CROPS`], which the learned judgement reads beside
    /// the whole photo's.
    pub crops: Vec<f32>,
    /// The scene classifier's embedding of the chair in view ([`vision::chair_to_look_at`]),
    /// which the learned Chair & Comfort score reads; none where no chair is rated.
    pub chair: Option<Vec<f32>>,
    /// The rubric's analysed copy of the photo ([`vision::Frame`]), made during screening.
    pub frame: vision::Frame,
}

impl Screening {
    /// The rubric's rating of the screened photo.
    pub fn assess(self) -> Assessment {
        vision::assess_frame(self.frame, &self.detections, &self.scene, &self.crops, self.chair.as_deref())
    }
}

#[derive(Debug)]
pub struct LocalAnalyzer {
    models_dir: PathBuf,
    models: Mutex<Option<Arc<LocalModels>>>,
    /// The analysis threads; `None` if they could not be started (rayon's global pool then).
    pool: Option<rayon::ThreadPool>,
}

impl LocalAnalyzer {
    pub fn new(models_dir: impl Into<PathBuf>) -> Self {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("analysis-{i}"))
            .build()
            .inspect_err(|e| tracing::warn!(error = %e, "no analysis thread pool; using rayon's global pool"))
            .ok();
        Self { models_dir: models_dir.into(), models: Mutex::new(None), pool }
    }

    /// Runs CPU-bound analysis work on the analysis threads and awaits its result.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, RatingError> {
        let (done, result) = tokio::sync::oneshot::channel();
        let job = move || {
            let _ = done.send(work());
        };
        match &self.pool {
            Some(pool) => pool.spawn(job),
            None => rayon::spawn(job),
        }
        result.await.map_err(|_| RatingError::Failed("the analysis task stopped".into()))
    }

    /// How many analysis threads there are.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or_else(rayon::current_num_threads, rayon::ThreadPool::current_num_threads)
    }

    /// Loads the models now, so that a missing or altered model stops the start-up.
    pub fn preload(&self) -> Result<(), ModelError> {
        self.models().map(|_| ())
    }

    fn models(&self) -> Result<Arc<LocalModels>, ModelError> {
        let mut slot = self.models.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(models) = slot.as_ref() {
            return Ok(models.clone());
        }
        let models = Arc::new(LocalModels::load(&self.models_dir)?);
        *slot = Some(models.clone());
        Ok(models)
    }

    /// Whether a picture is safe for work, by the classifier and threshold every photo to
    /// rate passes: also for pictures shown to the public without a rating (a RigPage's
    /// avatar, background and link images). Fails closed: no model, no answer.
    pub(crate) fn is_safe_for_work_blocking(&self, pixels: &RgbImage) -> Result<bool, RatingError> {
        let models = self.models().map_err(failed)?;
        models.safety.is_safe_for_work(pixels).map_err(failed)
    }

    /// The safety and setup checks every photo passes before it is rated, the models side
    /// by side on the analysis threads ([`LocalModels::look_and_check_safety`]). The safety
    /// verdict comes first: a photo not safe for work is refused as such, whatever else it
    /// shows.
    pub(crate) fn screen_blocking(&self, image: &PreparedImage) -> Result<Screening, RatingError> {
        let models = self.models().map_err(failed)?;
        let (safe, looked) = timed("screening", || models.look_and_check_safety(&image.pixels));
        if !safe? {
            return Err(Refusal::NotSafeForWork.into());
        }
        looked
    }

    /// [`Self::screen_blocking`] on the analysis threads.
    pub(crate) async fn screen(
        self: &Arc<Self>,
        image: Arc<PreparedImage>,
    ) -> Result<Screening, RatingError> {
        let this = self.clone();
        self.run(move || this.screen_blocking(&image)).await?
    }

    /// Rates a photo that passed screening.
    pub(crate) async fn assess_screened(
        self: &Arc<Self>,
        screening: Screening,
    ) -> Result<Assessment, RatingError> {
        self.run(move || timed("rubric", || screening.assess())).await
    }

    /// Screens and rates `input` on this thread.
    pub(crate) fn analyze_blocking(&self, input: &AnalysisInput) -> Result<Assessment, RatingError> {
        match input {
            AnalysisInput::Image(image) => {
                let screening = self.screen_blocking(image)?;
                Ok(timed("rubric", || screening.assess()))
            }
            AnalysisInput::Text(description) => Ok(text::assess(description)?),
        }
    }
}

/// The upload path's image threads and safety check are the analyzer's: every upload's
/// decoding queues with the analyses on the same threads.
impl setupiq_core::upload::ImageWorker for LocalAnalyzer {
    fn spawn(&self, job: Box<dyn FnOnce() + Send>) {
        match &self.pool {
            Some(pool) => pool.spawn(job),
            None => rayon::spawn(job),
        }
    }

    fn is_safe_for_work(&self, pixels: &RgbImage) -> Result<bool, setupiq_core::error::Cause> {
        Ok(self.is_safe_for_work_blocking(pixels)?)
    }
}

impl Analyzer for Arc<LocalAnalyzer> {
    fn name(&self) -> AnalyzerName {
        AnalyzerName::Local
    }

    fn analyze(&self, input: AnalysisInput) -> BoxFuture<'_, Result<Assessment, RatingError>> {
        let this = self.clone();
        Box::pin(async move { self.run(move || this.analyze_blocking(&input)).await? })
    }
}

/// Runs `work` and records how long it took as the analysis stage `stage`
/// (`analysis_stage_seconds{stage}` in the server's metrics).
pub(crate) fn timed<T>(stage: &'static str, work: impl FnOnce() -> T) -> T {
    let started = std::time::Instant::now();
    let result = work();
    metrics::histogram!("analysis_stage_seconds", "stage" => stage).record(started.elapsed().as_secs_f64());
    result
}

fn failed(err: impl Into<setupiq_core::error::Cause>) -> RatingError {
    RatingError::Failed(err.into())
}
