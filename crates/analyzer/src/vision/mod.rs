//! The image rubric: six category scores for a photo of a desk or gaming setup, each with a
//! comment saying what was seen, from the objects the COCO detector found and from image
//! statistics for what no detector sees. Transparent (every score moves for a reason its
//! comment names; `docs/scoring.md`), deterministic (same pixels, same result) and fast (a few
//! milliseconds on a 1920x1080 photo: everything runs on a copy at most 640 px on its longer
//! side).
//!
//! - `geometry`: rectangles in fractions of the image, and the position words;
//! - `stats`: the scaled-down `stats::Frame` and its statistics: coloured light, palette,
//!   greenery, edge density, symmetry, the desk's front edge, photo-or-not;
//! - `layout`: the detector's boxes, corrected and counted: monitors, laptops, seats,
//!   plants, clutter, where the desk's front edge is;
//! - `cables`: loose cables as thin dark curving lines, placed and typed;
//! - `rubric`: the evidence turned into scores, comments, the kind of setup and a summary;
//! - `calibration`: the learned judgement of the whole photo (from the scene classifier's
//!   embedding) each score is mixed with.
//!
//! [`screen`] decides first whether a photo is a photo of a setup at all.

mod cables;
pub mod calibration;
mod geometry;
mod layout;
mod rubric;
mod stats;

use image::RgbImage;

use crate::detector::{CocoClass, Detection};
use crate::rating::Refusal;
use crate::result::Assessment;
use crate::scene::{Crop, Scene};

use geometry::{Rect, Side};
use stats::Tone;

pub use cables::Trace;
pub use calibration::Features;
use calibration::FirstLook;
pub use layout::Layout;
pub use stats::{Backdrop, Frame, Greenery, Lighting, Palette, Texture};

/// Everything the rubric looks at, kept so that `examples/eval.rs` can print it.
#[derive(Clone)]
pub struct Evidence {
    pub layout: Layout,
    pub lighting: Lighting,
    pub palette: Palette,
    pub greenery: Greenery,
    /// Edge density on the desk surface outside the gear: papers, small objects.
    pub desk_edges: f32,
    /// The half of the desk surface with clearly more edges, if one has.
    pub busiest_side: Option<Side>,
    /// Mirror difference about the screens' centre (0 = symmetrical).
    pub symmetry: Option<f32>,
    pub cables: Vec<Trace>,
    /// A screen is in view though none was boxed: the scene classifier sees one (see
    /// [`SCREEN_IN_VIEW`]). Without the classifier, only the boxes count.
    pub screen_in_view: bool,
    frame: Frame,
}

impl std::fmt::Debug for Evidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evidence")
            .field("frame", &format_args!("{}x{}", self.frame.width, self.frame.height))
            .field("layout", &self.layout)
            .field("lighting", &self.lighting)
            .field("palette", &self.palette)
            .field("greenery", &self.greenery)
            .field("desk_edges", &self.desk_edges)
            .field("busiest_side", &self.busiest_side)
            .field("symmetry", &self.symmetry)
            .field("cables", &self.cables)
            .field("screen_in_view", &self.screen_in_view)
            .finish()
    }
}

impl Evidence {
    /// The tone covering most of `region`, if one covers at least half of it.
    fn seat_tone(&self, region: &Rect) -> Option<Tone> {
        /// A seat is "black" when at least this share of its middle is.
        const DOMINANT: f32 = 0.6;
        let palette = Palette::measure_region(&self.frame, region);
        palette.tones.first().filter(|(_, share)| *share >= DOMINANT).map(|(tone, _)| *tone)
    }
}

/// ImageNet classes of a computer workplace: desk, desktop computer, monitor, screen,
/// computer keyboard, mouse, notebook, laptop, and home theater (a big screen in a dark room:
/// what the classifier calls most dark RGB battlestations).
const WORKPLACE: [usize; 9] = [526, 527, 664, 782, 508, 673, 681, 620, 598];
/// ImageNet classes of a screen: desktop computer, monitor, screen, notebook, laptop, home
/// theater, television.
const SCREEN: [usize; 7] = [527, 664, 782, 681, 620, 598, 851];
/// ImageNet's "web site": what the classifier calls a screenshot.
const WEB_SITE: usize = 917;

/// A keyboard, mouse or laptop found this surely means someone works here.
const SURE_INPUT_DEVICE: f32 = 0.45;
/// The workplace classes sharing this much of the classifier's belief is a workplace.
const WORKPLACE_SHARE: f32 = 0.2;
/// The screen classes sharing this much is a screen in view, even if no box was found.
#[cfg(any(test, feature = "internals"))]
const SCREEN_SHARE: f32 = 0.15;
/// The screen classes sharing this much of the classifier's belief is a screen in view for
/// rating (Monitor Setup is not "unseen"), though the detector boxed none.
const SCREEN_IN_VIEW: f32 = 0.05;
/// "web site" this likely is a screenshot.
const SCREENSHOT: f32 = 0.1;

/// Whether `image` is a photo of a desk or gaming setup by the hand-set rules alone: a photo
/// (not a screenshot or an illustration), with a screen in it, at a workplace. The server
/// screens with [`screen`], where the learned gate decides what is a setup; these rules are
/// what it is measured against (`examples/features.rs`).
///
/// - **Not a photo**: [`drawing`] takes it for one, surely or perhaps: the classifier reads a
///   web site; or desk gear is boxed in a picture that is drawn: a plain coloured backdrop
///   shows on all four sides (see [`Backdrop`]: an illustration or a render), or it is
///   flat-filled (see [`Texture`]) *and* nothing says it is a workplace. Flatness alone is not
///   enough: a smooth white desk, a dark room after a browser's JPEG re-encoding or a PNG of a
///   photo are flat too. A picture with no desk gear at all is told it is not a setup, drawn
///   or not: a white kitchen is as flat as a drawing.
/// - **Not a setup**: no monitor, laptop, keyboard or mouse boxed; or no screen (a keyboard
///   close-up); or nothing says it is a workplace: no sure keyboard, mouse or laptop and the
///   classifier sees a living room, an armchair corner, a PC case alone, rather than a desk.
///
/// `frame` is the rubric's analysed copy of `image` ([`Frame::new`]). Only the measurements
/// and the tests call it: the server does not.
#[cfg(any(test, feature = "internals"))]
pub fn screen_by_rules(
    image: &RgbImage,
    frame: &Frame,
    detections: &[Detection],
    scene: &Scene,
) -> Result<(), Refusal> {
    if drawing(image, frame, detections, scene).is_some() {
        return Err(Refusal::NotAPhoto);
    }
    let gear = detections.iter().any(|d| d.class.is_desk_gear());
    let screen_seen = detections.iter().any(|d| matches!(d.class, CocoClass::TV | CocoClass::LAPTOP))
        || scene.share_of(&SCREEN) >= SCREEN_SHARE;
    if !(gear && screen_seen && is_workplace(detections, scene)) {
        return Err(Refusal::NotASetup);
    }
    Ok(())
}

/// How the rules read a picture that may not be a photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawing {
    /// A screenshot (the classifier reads a web site) or desk gear on a plain coloured
    /// backdrop (an illustration, a render): not a photo, whatever it shows.
    Surely,
    /// Desk gear in a flat-filled picture (see [`Texture`]) that nothing says is a workplace.
    /// Flat fills are weak evidence: on the shared photos 13 real setups (white walls, dark
    /// rooms, PNGs) are as flat as 0.25-0.49 and a drawing as little as 0.21. Such a picture is
    /// a setup only where the learned gate accepts it, and is otherwise refused as not a photo.
    Perhaps,
}

/// Whether `image` is drawn rather than photographed, as the rules read it (`None`: a photo).
pub fn drawing(image: &RgbImage, frame: &Frame, detections: &[Detection], scene: &Scene) -> Option<Drawing> {
    let screenshot = scene.probabilities.get(WEB_SITE).is_some_and(|&p| p >= SCREENSHOT);
    let gear = detections.iter().any(|d| d.class.is_desk_gear());
    if screenshot || (gear && Backdrop::measure(frame).looks_drawn()) {
        Some(Drawing::Surely)
    } else if gear && !is_workplace(detections, scene) && Texture::measure(image).looks_synthetic() {
        Some(Drawing::Perhaps)
    } else {
        None
    }
}

/// A sure keyboard, mouse or laptop, or a classifier that reads a workplace.
fn is_workplace(detections: &[Detection], scene: &Scene) -> bool {
    let input_device = detections
        .iter()
        .filter(|d| matches!(d.class, CocoClass::KEYBOARD | CocoClass::MOUSE | CocoClass::LAPTOP))
        .any(|d| d.score >= SURE_INPUT_DEVICE);
    input_device || scene.share_of(&WORKPLACE) >= WORKPLACE_SHARE
}

/// Whether `image` is a photo of a desk or gaming setup, before anything is charged.
///
/// A picture the rules surely take for a screenshot or a drawing ([`drawing`]) is not a
/// photo. Whether a photo shows a setup is then the learned gate's call
/// ([`calibration::first_look`], fitted on the shared setups, negatives and edge cases): it
/// tells a meeting room with a wall TV, a living room, a server rack or a shop counter from a
/// desk, and accepts a dark, top-down or far-away desk the detector boxes little of, where
/// hand-set rules got both wrong. A photo the gate does not accept is still a setup where the
/// detector boxes a workstation ([`Layout::shows_a_workstation`]: a screen with its own
/// keyboard or mouse). Where the gate is in doubt, `closer_look` is asked for the peaks of a
/// closer look at the whole photo ([`crate::scene::SceneModel::peaks`], one more inference)
/// and the closer gate decides ([`calibration::is_setup_on_closer_look`]); any other photo
/// costs nothing more. A picture that is perhaps drawn ([`Drawing::Perhaps`]) is a setup only
/// where the gate accepts it (the boxes alone do not make it one), and is otherwise refused as
/// not a photo. `crops` is the mean embedding of the photo's [`crate::scene::CROPS`].
pub fn screen<E: From<Refusal>>(
    image: &RgbImage,
    frame: &Frame,
    detections: &[Detection],
    scene: &Scene,
    crops: &[f32],
    closer_look: impl FnOnce() -> Result<Vec<f32>, E>,
) -> Result<(), E> {
    let drawn = drawing(image, frame, detections, scene);
    if drawn == Some(Drawing::Surely) {
        return Err(Refusal::NotAPhoto.into());
    }
    let features = Features { embedding: &scene.embedding, crops, peaks: &[], measures: &[], chair: None };
    let first = calibration::first_look(&features);
    if first == FirstLook::Setup || (drawn.is_none() && Layout::read(detections, frame).shows_a_workstation())
    {
        return Ok(());
    }
    if first == FirstLook::InDoubt
        && calibration::is_setup_on_closer_look(&Features { peaks: &closer_look()?, ..features })
    {
        return Ok(());
    }
    Err(if drawn.is_some() { Refusal::NotAPhoto } else { Refusal::NotASetup }.into())
}

/// How far the closer look at a chair reaches beyond its box, as a share of the box's width
/// and height each way: the seat's back and base as a person sees them.
const CHAIR_MARGIN: f32 = 0.1;

/// The part of the photo around `chair` (a box of [`Layout::chair_to_look_at`]) that the
/// scene classifier looks at closer for Chair & Comfort.
pub fn chair_crop(chair: Rect) -> Crop {
    let (dx, dy) = (CHAIR_MARGIN * chair.width(), CHAIR_MARGIN * chair.height());
    Crop {
        x0: (chair.x0 - dx).max(0.0),
        y0: (chair.y0 - dy).max(0.0),
        x1: (chair.x1 + dx).min(1.0),
        y1: (chair.y1 + dy).min(1.0),
    }
}

/// Where a chair was boxed in a screened photo and the look at it is needed: the chair gate
/// is in doubt (the closer chair gate reads the look), or Chair & Comfort will be rated (a
/// seat is in view once the chair gate has settled the chairs). Then the part of the photo to
/// look at closer ([`chair_crop`]); None otherwise, which spares the inference where its
/// result would not be used. `crops` as for [`screen`].
pub fn chair_to_look_at(
    frame: &Frame,
    detections: &[Detection],
    scene: &Scene,
    crops: &[f32],
) -> Option<Crop> {
    let mut layout = Layout::read(detections, frame);
    let chair = layout.chair_to_look_at()?;
    let features = Features { embedding: &scene.embedding, crops, peaks: &[], measures: &[], chair: None };
    if calibration::chair_gate_in_doubt(&features, layout.chair_score) {
        return Some(chair_crop(chair));
    }
    layout.settle_chairs(calibration::chair_in_view(&features, layout.chair_score));
    (!layout.seats.is_empty()).then(|| chair_crop(chair))
}

/// The rubric's evidence scores alone, before the calibration (what
/// `scripts/fit-calibration.py` mixes in); an unseen category is left out.
#[cfg(feature = "internals")]
pub fn evidence_scores(evidence: &Evidence) -> Vec<(crate::result::Category, u8)> {
    rubric::rate(evidence, None)
        .category_ratings
        .iter()
        // Evidence scores are whole points (only the learned judgement has halves).
        .filter_map(|r| Some((r.category, r.score?.round_whole())))
        .collect()
}

/// [`assess_frame`] on a copy of `image` made now (the server has one from screening).
#[cfg(any(test, feature = "internals"))]
pub fn assess(
    image: &RgbImage,
    detections: &[Detection],
    scene: &Scene,
    crops: &[f32],
    chair: Option<&[f32]>,
) -> Assessment {
    assess_frame(Frame::new(image), detections, scene, crops, chair)
}

/// Rates a photo that passed [`screen`] (`crops` as for [`screen`]) from its analysed copy,
/// made beforehand ([`Frame::new`]): the screening makes it on a thread that would otherwise
/// wait for the other. `chair` is the scene classifier's embedding of the part of the photo
/// [`chair_to_look_at`] gives, where it gives one.
pub fn assess_frame(
    frame: Frame,
    detections: &[Detection],
    scene: &Scene,
    crops: &[f32],
    chair: Option<&[f32]>,
) -> Assessment {
    let features = Features { embedding: &scene.embedding, crops, peaks: &[], measures: &[], chair };
    let mut evidence = gather_from(frame, detections);
    evidence.note_screen_in_view(scene);
    rubric::rate(&evidence, Some(&features))
}

/// How many measures [`measures`] gives.
#[cfg(any(test, feature = "internals"))]
pub const MEASURES: usize = rubric::MEASURES;

/// What the learned judgement reads of the evidence beside the embeddings: what the detector
/// boxed (counts, as `ln(1 + n)`), the light, the palette, the greenery, the desk surface, the
/// symmetry, and the rubric's six evidence scores (5 for a category it cannot see).
/// `examples/features.rs` writes them out for `scripts/fit-calibration.py`.
#[cfg(feature = "internals")]
pub fn measures(evidence: &Evidence) -> Vec<f32> {
    rubric::measures(evidence)
}

impl Evidence {
    /// Whether the scene classifier sees a screen though none was boxed.
    pub fn note_screen_in_view(&mut self, scene: &Scene) {
        self.screen_in_view = scene.share_of(&SCREEN) >= SCREEN_IN_VIEW;
    }
}

/// Measures everything the rubric needs.
#[cfg(any(test, feature = "internals"))]
pub fn gather(image: &RgbImage, detections: &[Detection]) -> Evidence {
    gather_from(Frame::new(image), detections)
}

/// [`gather`] from the photo's analysed copy. The colour measures and the shape measures
/// (edges, symmetry, cables) read the same frame and run side by side.
fn gather_from(frame: Frame, detections: &[Detection]) -> Evidence {
    let layout = Layout::read(detections, &frame);
    let ((lighting, palette, greenery), (desk_edges, busiest_side, symmetry, cables)) = rayon::join(
        || {
            (
                Lighting::measure(&frame, &layout.screens),
                Palette::measure(&frame, &layout.screens),
                Greenery::measure(&frame, &layout.screens),
            )
        },
        || {
            let (desk_edges, busiest_side) = desk_clutter(&frame, &layout);
            let axis = layout.screen_bounds().map_or(0.5, |s| s.centre_x());
            (desk_edges, busiest_side, stats::mirror_difference(&frame, axis), cables::find(&frame, &layout))
        },
    );
    Evidence {
        layout,
        lighting,
        palette,
        greenery,
        desk_edges,
        busiest_side,
        symmetry,
        cables,
        screen_in_view: false,
        frame,
    }
}

/// Edge density on the desk surface outside the gear, and the half of it with clearly more.
fn desk_clutter(frame: &Frame, layout: &Layout) -> (f32, Option<Side>) {
    /// One side of the desk is "busiest" when its edge density is this many times the other's.
    const CLEARLY_BUSIER: f32 = 1.5;
    let surface = layout.desk_surface();
    let mut gear: Vec<Rect> =
        layout.screens.iter().chain(&layout.keyboards).chain(&layout.mice).copied().collect();
    gear.extend(layout.seats.iter().map(|s| s.rect));
    gear.extend(layout.plants.iter().copied());
    let desk_edges = stats::edge_density(frame, &surface, &gear);
    let middle = surface.centre_x();
    let left = stats::edge_density(frame, &Rect::new(surface.x0, surface.y0, middle, surface.y1), &gear);
    let right = stats::edge_density(frame, &Rect::new(middle, surface.y0, surface.x1, surface.y1), &gear);
    let busiest_side = if left > CLEARLY_BUSIER * right {
        Some(Side::Left)
    } else if right > CLEARLY_BUSIER * left {
        Some(Side::Right)
    } else {
        None
    };
    (desk_edges, busiest_side)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::detector::CocoClass;
    use crate::result::Category;
    use image::Rgb;

    const W: u32 = 960;
    const H: u32 = 540;

    /// Camera-like grain (deterministic): without it a synthetic picture is flat fills, which
    /// the rubric rightly refuses as "not a photo".
    fn grain(x: u32, y: u32) -> i32 {
        let h = x.wrapping_mul(374_761_393) ^ y.wrapping_mul(668_265_263);
        let h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
        (h >> 28) as i32 - 8
    }

    fn photo(paint: impl Fn(u32, u32) -> [u8; 3]) -> RgbImage {
        RgbImage::from_fn(W, H, |x, y| {
            let noisy = paint(x, y).map(|c| (i32::from(c) + grain(x, y)).clamp(0, 255) as u8);
            Rgb(noisy)
        })
    }

    fn detection(class: CocoClass, (x0, y0, x1, y1): (f32, f32, f32, f32)) -> Detection {
        Detection { class, score: 0.8, bbox: (x0 * W as f32, y0 * H as f32, x1 * W as f32, y1 * H as f32) }
    }

    /// A monitor in the middle and a keyboard in front of it.
    fn desk_gear() -> Vec<Detection> {
        vec![
            detection(CocoClass::TV, (0.35, 0.15, 0.65, 0.5)),
            detection(CocoClass::KEYBOARD, (0.4, 0.62, 0.6, 0.7)),
        ]
    }

    /// The evidence score and comment (without the calibration, which needs a real photo).
    fn rating(image: &RgbImage, detections: &[Detection], category: Category) -> (u8, String) {
        let assessment = rubric::rate(&gather(image, detections), None);
        assessment.validate().unwrap();
        let r = assessment.category_ratings.iter().find(|r| r.category == category).unwrap();
        let score = r.score.expect("a category the photo shows");
        assert!(score.is_whole(), "evidence scores are whole points: {score}");
        (score.round_whole(), r.comment.clone())
    }

    #[test]
    fn a_purple_light_band_in_a_dark_room_beats_a_grey_room_on_rgb() {
        let dark_with_band =
            photo(|_, y| if (150..230).contains(&y) { [170, 20, 255] } else { [18, 16, 20] });
        let grey = photo(|_, _| [128, 128, 128]);
        let (lit, said) = rating(&dark_with_band, &desk_gear(), Category::RgbLighting);
        let (plain, plain_said) = rating(&grey, &desk_gear(), Category::RgbLighting);
        assert!(lit >= plain + 4, "{lit} ({said}) vs {plain} ({plain_said})");
        assert!(said.contains("purple"), "{said}");
        assert!(plain_said.starts_with("No coloured lighting"), "{plain_said}");
    }

    #[test]
    fn a_plain_desk_is_cleaner_than_a_cluttered_one() {
        let wall_and_desk = |y: u32| if y < 300 { [200, 195, 185] } else { [150, 110, 70] };
        let plain = photo(|_, y| wall_and_desk(y));
        // Small dark and light objects scattered over the desk surface around the keyboard.
        let cluttered = photo(|x, y| {
            let on_desk = (290..370).contains(&y);
            let object = (x / 12 + y / 9) % 3 == 0 && (x % 24) < 14;
            if on_desk && object {
                if x % 48 < 24 { [30, 30, 30] } else { [240, 240, 230] }
            } else {
                wall_and_desk(y)
            }
        });
        let (clean, clean_said) = rating(&plain, &desk_gear(), Category::DeskCleanliness);
        let (messy, messy_said) = rating(&cluttered, &desk_gear(), Category::DeskCleanliness);
        assert!(clean >= messy + 2, "{clean} ({clean_said}) vs {messy} ({messy_said})");
        assert!(clean_said.starts_with("Clear desk surface"), "{clean_said}");
    }

    #[test]
    fn no_chair_is_unseen_and_left_out_of_the_overall_and_a_chair_in_front_is_rated() {
        let room = photo(|_, y| if y < 300 { [200, 195, 185] } else { [150, 110, 70] });
        // The evidence scores alone: the overall is then the mean of the seen categories (with
        // the learned judgement it is the learned overall, which never reads the chair).
        let without = rubric::rate(&gather(&room, &desk_gear()), None);
        without.validate().unwrap();
        let chair = without.category_ratings.iter().find(|r| r.category == Category::ChairComfort).unwrap();
        assert_eq!(chair.score, None);
        assert_eq!(chair.comment, "No chair in view: comfort can't be judged from this photo.");
        let others: Vec<_> = without
            .category_ratings
            .iter()
            .filter(|r| r.category != Category::ChairComfort)
            .cloned()
            .collect();
        assert_eq!(without.overall_score, crate::result::overall_score(&others));
        assert!(!without.summary.contains("Chair"), "{}", without.summary);

        let mut with_chair = desk_gear();
        with_chair.push(detection(CocoClass::CHAIR, (0.4, 0.6, 0.62, 1.0)));
        let (chair, said) = rating(&room, &with_chair, Category::ChairComfort);
        assert!(chair >= 7, "{said}");
        assert!(said.contains("in front of the screens"), "{said}");
    }

    #[test]
    fn a_faint_chair_is_the_chair_only_where_the_chair_gate_sees_one() {
        let room = photo(|_, y| if y < 300 { [200, 195, 185] } else { [150, 110, 70] });
        let mut gear = desk_gear();
        gear.push(Detection { score: 0.2, ..detection(CocoClass::CHAIR, (0.4, 0.6, 0.62, 1.0)) });
        // A faint "chair" above the desk is something else, as a boxed one would be.
        gear.push(Detection { score: 0.25, ..detection(CocoClass::CHAIR, (0.05, 0.05, 0.2, 0.3)) });
        let boxed = gather(&room, &gear).layout;
        assert!(boxed.seats.is_empty(), "{:?}", boxed.seats);
        assert_eq!(boxed.faint_chairs.len(), 1);
        assert_eq!(boxed.chair_score, 0.25);

        let mut seen = boxed.clone();
        assert!(seen.settle_chairs(true));
        assert_eq!(seen.seats, vec![layout::Seat { rect: boxed.faint_chairs[0], is_couch: false }]);
        let mut unseen = boxed.clone();
        assert!(!unseen.settle_chairs(false), "nothing to drop");
        assert!(unseen.seats.is_empty());

        // A chair boxed surely beside a couch: where the gate sees no chair, only the couch stays.
        gear.push(detection(CocoClass::CHAIR, (0.4, 0.6, 0.62, 1.0)));
        gear.push(detection(CocoClass::COUCH, (0.7, 0.55, 1.0, 1.0)));
        let mut both = gather(&room, &gear).layout;
        assert!(both.faint_chairs.is_empty(), "the faint chair is the boxed one");
        assert!(!both.clone().settle_chairs(true), "a boxed chair is kept as it is");
        assert!(both.settle_chairs(false));
        assert!(both.seats.iter().all(|s| s.is_couch) && both.seats.len() == 1, "{:?}", both.seats);
    }

    /// What the scene classifier would say if it saw nothing in particular, or `class` surely.
    fn scene(class: Option<usize>) -> Scene {
        let mut probabilities = vec![0.001; crate::scene::CLASSES];
        if let Some(class) = class {
            probabilities[class] = 0.9;
        }
        Scene { embedding: vec![0.0; crate::scene::EMBEDDING_DIM], probabilities }
    }

    /// ImageNet's "desk".
    const DESK: usize = 526;

    /// [`screen_by_rules`] with the frame made as screening makes it.
    fn screened(image: &RgbImage, detections: &[Detection], scene: &Scene) -> Result<(), Refusal> {
        screen_by_rules(image, &Frame::new(image), detections, scene)
    }

    /// Two flat colours, not a grain of noise: as flat as a drawing.
    fn flat_fills() -> RgbImage {
        RgbImage::from_fn(W, H, |x, _| if x < 400 { Rgb([40, 60, 120]) } else { Rgb([220, 200, 160]) })
    }

    #[test]
    fn screening_wants_a_photo_of_a_screen_at_a_workplace() {
        let monitor = [detection(CocoClass::TV, (0.35, 0.15, 0.65, 0.5))];
        let drawing = flat_fills();
        // Flat fills with a screen but nothing that says workplace: a drawing.
        assert_eq!(screened(&drawing, &monitor, &scene(None)), Err(Refusal::NotAPhoto));
        // As flat with no desk gear at all (a white kitchen): not a setup, drawn or not.
        assert_eq!(screened(&drawing, &[], &scene(None)), Err(Refusal::NotASetup));
        // A screenshot reads as a web site, however grainy.
        let room = photo(|_, y| if y < 300 { [200, 195, 185] } else { [150, 110, 70] });
        assert_eq!(screened(&room, &desk_gear(), &scene(Some(WEB_SITE))), Err(Refusal::NotAPhoto));
        // A screen alone, in a room the classifier doesn't take for a desk: a TV in a living room.
        assert_eq!(screened(&room, &monitor, &scene(None)), Err(Refusal::NotASetup));
        // A keyboard without a screen: a close-up, not a setup.
        let keyboard = [detection(CocoClass::KEYBOARD, (0.2, 0.3, 0.8, 0.7))];
        assert_eq!(screened(&room, &keyboard, &scene(Some(DESK))), Err(Refusal::NotASetup));
        // A monitor on a desk, by the boxes or by the classifier.
        assert_eq!(screened(&room, &desk_gear(), &scene(None)), Ok(()));
        assert_eq!(screened(&room, &monitor, &scene(Some(DESK))), Ok(()));
        // A smooth photo of a desk is flat too, but a desk: a photo.
        assert_eq!(screened(&drawing, &desk_gear(), &scene(None)), Ok(()));
    }

    #[test]
    fn a_drawing_is_sure_by_a_web_site_or_a_backdrop_and_perhaps_by_flat_fills() {
        let monitor = [detection(CocoClass::TV, (0.35, 0.15, 0.65, 0.5))];
        let drawn = |image: &RgbImage, found: &[Detection], scene: &Scene| {
            drawing(image, &Frame::new(image), found, scene)
        };
        let flat = flat_fills();
        // Flat fills and a screen, nothing that says workplace: perhaps drawn, for the gate to judge.
        assert_eq!(drawn(&flat, &monitor, &scene(None)), Some(Drawing::Perhaps));
        // The same with a sure keyboard and mouse: a smooth photo of a desk.
        assert_eq!(drawn(&flat, &desk_gear(), &scene(None)), None);
        // A web site, or desk gear on a coloured backdrop: surely not a photo.
        let room = photo(|_, y| if y < 300 { [200, 195, 185] } else { [150, 110, 70] });
        assert_eq!(drawn(&room, &desk_gear(), &scene(Some(WEB_SITE))), Some(Drawing::Surely));
        assert_eq!(drawn(&desk_on([118, 178, 160]), &desk_gear(), &scene(Some(DESK))), Some(Drawing::Surely));
        // A grainy room with a screen in it: a photo.
        assert_eq!(drawn(&room, &monitor, &scene(None)), None);
    }

    #[test]
    fn a_screen_with_its_own_keyboard_or_mouse_is_a_workstation() {
        let room = photo(|_, y| if y < 300 { [200, 195, 185] } else { [150, 110, 70] });
        let workstation = |found: &[Detection]| Layout::read(found, &Frame::new(&room)).shows_a_workstation();
        let monitor = detection(CocoClass::TV, (0.35, 0.15, 0.65, 0.5));
        let keyboard = detection(CocoClass::KEYBOARD, (0.38, 0.6, 0.62, 0.7));
        let mouse = detection(CocoClass::MOUSE, (0.7, 0.62, 0.74, 0.68));
        let laptop = |x0: f32| detection(CocoClass::LAPTOP, (x0, 0.4, x0 + 0.15, 0.6));
        assert!(workstation(&[monitor, keyboard]));
        assert!(workstation(&[monitor, mouse]));
        assert!(workstation(&[laptop(0.3), mouse]));
        // A screen alone (a TV on a wall), a keyboard alone (a close-up), a laptop alone (on a sofa).
        assert!(!workstation(&[monitor]));
        assert!(!workstation(&[keyboard, mouse]));
        assert!(!workstation(&[laptop(0.3)]));
        // A room of screens is a lab or a classroom, not one person's setup.
        let lab: Vec<Detection> = [0.0, 0.2, 0.4, 0.6].into_iter().map(laptop).chain([mouse]).collect();
        assert!(!workstation(&lab));
    }

    /// A desk with a monitor in the middle of the picture, on `backdrop` all around.
    fn desk_on(backdrop: [u8; 3]) -> RgbImage {
        photo(|x, y| {
            let (fx, fy) = (x as f32 / W as f32, y as f32 / H as f32);
            match (fx, fy) {
                (0.35..0.65, 0.15..0.5) => [30, 40, 90],
                (0.2..0.8, 0.5..0.8) => [200, 140, 60],
                _ => backdrop,
            }
        })
    }

    #[test]
    fn a_desk_on_a_coloured_backdrop_is_an_illustration() {
        // Grainy, and a desk with a keyboard by every other sign: the teal all around gives it away.
        let teal = desk_on([118, 178, 160]);
        assert!(Backdrop::measure(&Frame::new(&teal)).looks_drawn());
        assert_eq!(screened(&teal, &desk_gear(), &scene(Some(DESK))), Err(Refusal::NotAPhoto));
        // A lit desk in a dark room, or against white walls, is as uniform all around: a photo.
        for grey in [[4, 4, 4], [217, 217, 212]] {
            let room = desk_on(grey);
            assert!(!Backdrop::measure(&Frame::new(&room)).looks_drawn(), "{grey:?}");
            assert_eq!(screened(&room, &desk_gear(), &scene(Some(DESK))), Ok(()), "{grey:?}");
        }
        // A coloured wall, but the desk runs out of the picture at the bottom: a photo.
        let wall = photo(|_, y| if y < 300 { [118, 178, 160] } else { [150, 110, 70] });
        assert!(!Backdrop::measure(&Frame::new(&wall)).looks_drawn());
        assert_eq!(screened(&wall, &desk_gear(), &scene(Some(DESK))), Ok(()));
    }

    #[test]
    fn the_same_pixels_give_the_same_result() {
        let image = photo(|x, y| [(x % 256) as u8, (y % 256) as u8, 90]);
        let crops = vec![0.0; crate::scene::EMBEDDING_DIM];
        let first = assess(&image, &desk_gear(), &scene(None), &crops, None);
        assert_eq!(first, assess(&image, &desk_gear(), &scene(None), &crops, None));
        first.validate().unwrap();
        assert!(first.summary.split(". ").count() >= 2, "{}", first.summary);
    }
}
