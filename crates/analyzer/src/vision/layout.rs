//! What is on and around the desk, from the detector's boxes: how many monitors (with a
//! counting rule, because the detector's boxes nest and overlap), laptops, keyboards, mice,
//! seats, plants and the small objects that make a desk look cluttered; and where the desk's
//! front edge is, which splits "on the desk" from "under the desk".
//!
//! The rules here correct the detector's known mistakes (`models/README.md`): several boxes on
//! one monitor, one box around two monitors, a laptop or a glass PC case reported as a
//! monitor, a picture frame on the wall reported as a monitor, a dark monitor reported as a
//! chair, a potted succulent reported as a cup.

use crate::detector::{CocoClass, Detection};

use super::geometry::{Rect, bounds};
use super::stats::{self, Frame, Hsv, is_coloured_light};

/// Detections below this score are not used for anything (the detector's own threshold is
/// lower; between the two, most boxes are duplicates or guesses).
const MIN_SCORE: f32 = 0.3;

/// Two boxes of one kind overlapping this much (IoU) are the same object.
const SAME_OBJECT_IOU: f32 = 0.3;
/// A box lying this much inside another of its kind is part of it (or the two are one
/// object boxed twice)...
const NESTED: f32 = 0.8;
/// ...unless it is much smaller: a small pot inside a box around a whole bank of plants is
/// a plant of its own.
const NESTED_MIN_AREA_RATIO: f32 = 0.25;
/// Two monitor boxes sharing this much of their width and most of their height are one
/// monitor boxed twice (side-by-side monitors' boxes touch, they don't overlap by a third).
const SAME_MONITOR_WIDTH: f32 = 0.3;
const SAME_MONITOR_HEIGHT: f32 = 0.6;
/// A monitor box is an outline around two monitors when its inner boxes cover this much of
/// it...
const GROUP_COVERAGE: f32 = 0.6;
/// ...and, for side-by-side ones, it is wider than this (width / height): two 16:9 screens
/// side by side are ~3.5, a 21:9 ultrawide seen at an angle ~2-2.4.
const PAIR_MIN_ASPECT: f32 = 2.6;
/// A monitor box at least this wide (width / height) is an ultrawide: a 21:9 screen is 2.33,
/// and its box with the stand and a little perspective 1.95-2.2; a 16:9 one's is 1.4-1.7.
pub const ULTRAWIDE_MIN_ASPECT: f32 = 1.95;

/// A monitor box scored below this and lying wholly above the middle of a more confident
/// monitor is on the wall: a picture frame or a window.
const CONFIDENT_MONITOR: f32 = 0.4;

/// A "monitor" box about as tall as it is wide (monitors with their stands are wider than
/// 1.25), full of coloured light, in a dark room, is a glass PC case. (The darkness matters:
/// in a lit office a CRT showing a blue desktop looks just as square and just as coloured.)
const CASE_MAX_ASPECT: f32 = 1.25;
const CASE_MIN_LIGHT_SHARE: f32 = 0.15;
const CASE_ROOM_MAX_VALUE: f32 = 0.25;

/// A "monitor" box with a keyboard box in its lower half is a laptop.
const LAPTOP_KEYBOARD_INSIDE: f32 = 0.6;

/// A "laptop" covering more than this share of the photo is a misreading of the whole desk.
const MAX_LAPTOP_AREA: f32 = 0.35;

/// A "chair" box this close in height to a monitor beside it, level with it and above the
/// desk, is a dark monitor the detector misnamed (chairs stand on the floor).
const MISNAMED_MONITOR_HEIGHT: std::ops::RangeInclusive<f32> = 0.7..=1.4;
const MISNAMED_MONITOR_LEVEL: f32 = 0.6;

/// A cup, vase or bowl whose box is this leafy-green is a potted plant (a succulent in a pot
/// is often boxed as a cup).
const POT_MIN_GREEN: f32 = 0.06;

/// A desk's front edge is a horizontal step crossing at least this share of the searched
/// columns...
const DESK_EDGE_MIN_SHARE: f32 = 0.25;
/// ...within this distance (fraction of the height) below the keyboard, mouse or laptop.
const DESK_EDGE_SEARCH: f32 = 0.4;
/// Without a visible edge, the desk's front is assumed this far below them.
const DESK_EDGE_FALLBACK: f32 = 0.1;

/// Objects that clutter a desk (COCO labels). Books count: a stack of them on the desk is
/// clutter; books on a shelf are left out by where they are, not by their class.
const CLUTTER: [&str; 14] = [
    "bottle",
    "wine glass",
    "cup",
    "bowl",
    "remote",
    "cell phone",
    "book",
    "scissors",
    "backpack",
    "handbag",
    "banana",
    "apple",
    "sandwich",
    "cake",
];

/// Classes that may be a plant pot.
const POTS: [&str; 3] = ["cup", "vase", "bowl"];

/// How the monitors stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrangement {
    None,
    Single,
    /// Side by side; whether their top edges line up.
    SideBySide {
        same_height: bool,
    },
    /// One above the other.
    Stacked,
}

/// A seat near the desk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seat {
    pub rect: Rect,
    /// A couch or armchair rather than a desk chair.
    pub is_couch: bool,
}

/// A clutter object on the desk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Item {
    pub class: CocoClass,
    pub rect: Rect,
}

/// The desk as the detector (corrected) sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Counted monitors, left to right.
    pub monitors: Vec<Rect>,
    pub arrangement: Arrangement,
    pub laptops: Vec<Rect>,
    pub keyboards: Vec<Rect>,
    pub mice: Vec<Rect>,
    pub seats: Vec<Seat>,
    /// Chairs the detector is unsure of (scores from `FAINT_CHAIR_THRESHOLD` up to the
    /// boxes' own minimum) standing where a seat stands, best first, none the same object as
    /// a seat: one becomes the seat only where the chair gate sees a chair in view
    /// ([`Self::settle_chairs`]).
    pub faint_chairs: Vec<Rect>,
    /// The detector's best chair score anywhere in the photo, faint chairs included (0 for
    /// none): what the chair gate reads beside the embeddings.
    pub chair_score: f32,
    pub plants: Vec<Rect>,
    /// Glowing glass PC cases (reported as monitors by the detector).
    pub pc_cases: Vec<Rect>,
    /// Clutter objects on the desk.
    pub clutter: Vec<Item>,
    /// Every screen-like box: their pixels show a wallpaper, not the room.
    pub screens: Vec<Rect>,
    /// Where the desk's front edge is (fraction of the height).
    pub desk_front: f32,
    /// The photo's width / height.
    pub aspect: f32,
}

/// The most screens one person's workstation shows: a room with more (a computer lab, a
/// classroom of laptops) is not one setup, whatever keyboards it holds.
const WORKSTATION_SCREENS: usize = 3;

impl Layout {
    /// A monitor with a keyboard or mouse of its own beside it, or a laptop with a mouse, and
    /// no more than [`WORKSTATION_SCREENS`] screens: someone works here. The detector boxes
    /// that together in 123 of the 185 labelled shared setups and in none of their 70
    /// negatives and edge cases but one drawing (which the rules call a drawing), so it
    /// accepts a setup the learned gate doubts: a top-down flat-lay, a person at the desk.
    pub fn shows_a_workstation(&self) -> bool {
        let input = !self.keyboards.is_empty() || !self.mice.is_empty();
        let used =
            (!self.monitors.is_empty() && input) || (!self.laptops.is_empty() && !self.mice.is_empty());
        used && self.monitors.len() + self.laptops.len() <= WORKSTATION_SCREENS
    }

    pub fn read(detections: &[Detection], frame: &Frame) -> Layout {
        let (width, height) = frame.source;
        let aspect = width as f32 / height.max(1) as f32;
        let boxes = |class: CocoClass| -> Vec<(Rect, f32)> {
            detections
                .iter()
                .filter(|d| d.class == class && d.score >= MIN_SCORE)
                .map(|d| (Rect::from_pixels(d.bbox, width, height), d.score))
                .collect()
        };
        let mut laptops: Vec<Rect> =
            objects(boxes(CocoClass::LAPTOP)).into_iter().filter(|r| r.area() <= MAX_LAPTOP_AREA).collect();
        let all_keyboards = objects(boxes(CocoClass::KEYBOARD));

        let mut monitors = Vec::new();
        let mut pc_cases = Vec::new();
        for candidate in count_monitors(boxes(CocoClass::TV), aspect) {
            if is_glass_case(frame, &candidate, aspect) {
                pc_cases.push(candidate);
            } else if all_keyboards.iter().any(|k| is_laptop_keyboard(k, &candidate)) {
                laptops.push(candidate);
            } else {
                monitors.push(candidate);
            }
        }
        let keyboards: Vec<Rect> = all_keyboards
            .into_iter()
            .filter(|k| !laptops.iter().any(|l| k.share_inside(l) >= LAPTOP_KEYBOARD_INSIDE))
            .collect();
        let mice = objects(boxes(CocoClass::MOUSE));

        let desk_front = find_desk_front(frame, &monitors, &laptops, &keyboards, &mice);
        let chairs = objects(boxes(CocoClass::CHAIR));
        monitors.extend(misnamed_monitors(&chairs, &monitors, desk_front));
        monitors.sort_by(|a, b| a.x0.total_cmp(&b.x0));
        let chair_boxes = detections.iter().filter(|d| d.class == CocoClass::CHAIR);
        let chair_score = chair_boxes.clone().map(|d| d.score).fold(0.0, f32::max);
        let faint = chair_boxes
            .filter(|d| d.score < MIN_SCORE)
            .map(|d| (Rect::from_pixels(d.bbox, width, height), d.score))
            .collect();
        let faint_seats = seats(objects(faint), Vec::new(), desk_front);
        let seats = seats(chairs, objects(boxes(CocoClass::COUCH)), desk_front);
        let faint_chairs = faint_seats
            .into_iter()
            .map(|faint| faint.rect)
            .filter(|rect| !seats.iter().any(|s| same_object(&s.rect, rect)))
            .collect();

        let mut plants = objects(boxes(CocoClass::POTTED_PLANT));
        let pots = detections.iter().filter(|d| POTS.contains(&d.class.label()) && d.score >= MIN_SCORE);
        for pot in objects(pots.map(|d| (Rect::from_pixels(d.bbox, width, height), d.score)).collect()) {
            if green_share(frame, &pot) >= POT_MIN_GREEN && !plants.iter().any(|p| same_object(p, &pot)) {
                plants.push(pot);
            }
        }

        let mut screens = monitors.clone();
        screens.extend(laptops.iter().copied());
        let gear: Vec<Rect> =
            monitors.iter().chain(&laptops).chain(&keyboards).chain(&mice).copied().collect();
        let clutter = desk_clutter(detections, width, height, &gear, &monitors, &plants, desk_front);
        Layout {
            arrangement: arrangement(&monitors),
            monitors,
            laptops,
            keyboards,
            mice,
            seats,
            faint_chairs,
            chair_score,
            plants,
            pc_cases,
            clutter,
            screens,
            desk_front,
            aspect,
        }
    }

    /// The chair the learned Chair & Comfort score takes a closer look at: the biggest desk
    /// chair boxed, faint ones included (couches are not desk chairs), on the layout as read,
    /// before the chair gate settles it.
    pub fn chair_to_look_at(&self) -> Option<Rect> {
        self.seats
            .iter()
            .filter(|s| !s.is_couch)
            .map(|s| s.rect)
            .chain(self.faint_chairs.iter().copied())
            .max_by(|a, b| a.area().total_cmp(&b.area()))
    }

    /// The seats as the chair gate settles them (`in_view`: it sees a chair in view): where no
    /// chair was boxed surely, the best faint one becomes the chair; where the gate sees
    /// none, the boxed chairs go (a couch stays: the gate judges desk chairs). Whether a
    /// chair changed, so that the caller knows it has a different layout.
    pub fn settle_chairs(&mut self, in_view: bool) -> bool {
        let boxed = self.seats.iter().any(|s| !s.is_couch);
        match (in_view, boxed, self.faint_chairs.first()) {
            (true, false, Some(&rect)) => {
                self.seats.insert(0, Seat { rect, is_couch: false });
                true
            }
            (false, true, _) => {
                self.seats.retain(|s| s.is_couch);
                true
            }
            _ => false,
        }
    }

    /// The union of the monitors, laptops, keyboards and mice.
    pub fn gear_bounds(&self) -> Option<Rect> {
        bounds(self.monitors.iter().chain(&self.laptops).chain(&self.keyboards).chain(&self.mice))
    }

    /// The monitors' union (or the laptops' when there is no monitor).
    pub fn screen_bounds(&self) -> Option<Rect> {
        bounds(&self.monitors).or_else(|| bounds(&self.laptops))
    }

    /// Whether the (single) monitor is an ultrawide.
    pub fn has_ultrawide(&self) -> bool {
        self.monitors.iter().any(|m| m.aspect(self.aspect) >= ULTRAWIDE_MIN_ASPECT)
    }

    /// Where the desk surface is: from just above the monitors' bases to the front edge,
    /// across the gear and a margin either side.
    pub fn desk_surface(&self) -> Rect {
        /// Things on a desk stand a little in front of the monitors' bases...
        const ABOVE_MONITOR_BASE: f32 = 0.1;
        /// ...and spread a little beyond the gear on either side.
        const SIDE_MARGIN: f32 = 0.15;
        let Some(gear) = self.gear_bounds() else {
            return Rect::new(0.0, 0.0, 1.0, self.desk_front);
        };
        let top = match bounds(&self.monitors) {
            Some(m) => {
                self.monitors.iter().map(|r| r.y1 - ABOVE_MONITOR_BASE * r.height()).fold(m.y1, f32::min)
            }
            None => gear.y0,
        };
        Rect::new(gear.x0 - SIDE_MARGIN, top, gear.x1 + SIDE_MARGIN, self.desk_front.max(top))
    }
}

/// One rectangle per object: boxes of the same object (overlapping or nested) are merged
/// into the best-scoring one.
fn objects(mut boxes: Vec<(Rect, f32)>) -> Vec<Rect> {
    boxes.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut kept: Vec<Rect> = Vec::new();
    for (rect, _) in boxes {
        if !kept.iter().any(|k| same_object(k, &rect)) {
            kept.push(rect);
        }
    }
    kept
}

fn same_object(a: &Rect, b: &Rect) -> bool {
    let (small, large) = if a.area() <= b.area() { (a, b) } else { (b, a) };
    let comparable = small.area() >= NESTED_MIN_AREA_RATIO * large.area();
    a.iou(b) >= SAME_OBJECT_IOU || (comparable && small.share_inside(large) >= NESTED)
}

fn same_monitor(a: &Rect, b: &Rect) -> bool {
    same_object(a, b)
        || (a.horizontal_overlap(b) >= SAME_MONITOR_WIDTH && a.vertical_overlap(b) >= SAME_MONITOR_HEIGHT)
}

/// The counting rule for monitors. The detector often boxes one monitor several times, boxes
/// two monitors together as well as one by one, and finds the halves of an ultrawide:
///
/// 1. A box with two or more boxes inside it that cover most of it is either an outline
///    around several monitors (when they are stacked, or when it is wider than two screens
///    side by side: the inner boxes count) or one ultrawide (it counts, its halves don't).
/// 2. A box with one box inside it is one monitor.
/// 3. Boxes overlapping by a third of their width at the same height are one monitor (the
///    best-scoring box stands for it).
/// 4. A low-scoring box above the middle of a confident monitor is a picture frame or a
///    window on the wall (unless an outline vouched for it in step 1).
fn count_monitors(mut boxes: Vec<(Rect, f32)>, image_aspect: f32) -> Vec<Rect> {
    boxes.sort_by(|a, b| b.0.area().total_cmp(&a.0.area()));
    let mut dropped = vec![false; boxes.len()];
    let mut vouched = vec![false; boxes.len()];
    for outer in 0..boxes.len() {
        if dropped[outer] {
            continue;
        }
        let o = boxes[outer].0;
        let inner: Vec<usize> = (outer + 1..boxes.len())
            .filter(|&i| !dropped[i] && boxes[i].0.share_inside(&o) >= NESTED)
            .collect();
        if inner.is_empty() {
            continue;
        }
        let distinct = distinct_boxes(&boxes, &inner);
        let coverage: f32 = distinct.iter().map(|&i| boxes[i].0.area()).sum::<f32>() / o.area().max(1e-6);
        let stacked = distinct.len() >= 2 && is_stack(&boxes[distinct[0]].0, &boxes[distinct[1]].0);
        let outline = distinct.len() >= 2 && coverage >= GROUP_COVERAGE;
        if outline && (stacked || o.aspect(image_aspect) >= PAIR_MIN_ASPECT) {
            dropped[outer] = true;
            for &i in &distinct {
                vouched[i] = true;
            }
        } else {
            for &i in &inner {
                dropped[i] = true;
            }
        }
    }
    let mut kept: Vec<(Rect, f32, bool)> = Vec::new();
    let mut order: Vec<usize> = (0..boxes.len()).filter(|&i| !dropped[i]).collect();
    order.sort_by(|&a, &b| boxes[b].1.total_cmp(&boxes[a].1));
    for i in order {
        let (rect, score) = boxes[i];
        if let Some(k) = kept.iter_mut().find(|k| same_monitor(&k.0, &rect)) {
            k.2 |= vouched[i];
        } else {
            kept.push((rect, score, vouched[i]));
        }
    }
    let best = kept.first().map(|k| (k.0, k.1));
    kept.into_iter()
        .filter(|&(rect, score, vouched)| match best {
            Some((b, best_score))
                if !vouched && score < CONFIDENT_MONITOR && best_score >= CONFIDENT_MONITOR =>
            {
                rect.y1 > b.centre_y()
            }
            _ => true,
        })
        .map(|k| k.0)
        .collect()
}

/// The inner boxes that are not duplicates of each other.
fn distinct_boxes(boxes: &[(Rect, f32)], inner: &[usize]) -> Vec<usize> {
    let mut distinct: Vec<usize> = Vec::new();
    for &i in inner {
        if !distinct.iter().any(|&d| same_object(&boxes[d].0, &boxes[i].0)) {
            distinct.push(i);
        }
    }
    distinct
}

/// Whether `a` and `b` are one above the other.
fn is_stack(a: &Rect, b: &Rect) -> bool {
    /// Stacked screens share most of their width and little of their height.
    const SHARED_WIDTH: f32 = 0.5;
    const SHARED_HEIGHT: f32 = 0.35;
    a.horizontal_overlap(b) >= SHARED_WIDTH && a.vertical_overlap(b) < SHARED_HEIGHT
}

fn is_glass_case(frame: &Frame, candidate: &Rect, image_aspect: f32) -> bool {
    candidate.aspect(image_aspect) < CASE_MAX_ASPECT
        && frame.median_value() < CASE_ROOM_MAX_VALUE
        && light_share(frame, candidate) >= CASE_MIN_LIGHT_SHARE
}

fn is_laptop_keyboard(keyboard: &Rect, screen: &Rect) -> bool {
    let lower_half = Rect::new(screen.x0, screen.centre_y(), screen.x1, screen.y1);
    keyboard.share_inside(&lower_half) >= LAPTOP_KEYBOARD_INSIDE
}

/// Share of a box's pixels that are coloured light.
pub fn light_share(frame: &Frame, rect: &Rect) -> f32 {
    share_where(frame, rect, is_coloured_light)
}

fn green_share(frame: &Frame, rect: &Rect) -> f32 {
    share_where(frame, rect, stats::is_foliage)
}

fn share_where(frame: &Frame, rect: &Rect, test: impl Fn(Hsv) -> bool) -> f32 {
    let (mut hits, mut total) = (0usize, 0usize);
    for (_, _, i) in frame.pixels_in(rect, &[]) {
        total += 1;
        if test(frame.hsv[i]) {
            hits += 1;
        }
    }
    if total == 0 { 0.0 } else { hits as f32 / total as f32 }
}

/// "Chairs" above the desk, level with a monitor and about its size, right beside it.
fn misnamed_monitors(chairs: &[Rect], monitors: &[Rect], desk_front: f32) -> Vec<Rect> {
    chairs
        .iter()
        .filter(|chair| chair.y1 < desk_front)
        .filter(|chair| {
            monitors.iter().any(|m| {
                let height_ratio = chair.height() / m.height().max(1e-6);
                let beside = chair.x1 <= m.x0 + 0.25 * m.width() || chair.x0 >= m.x1 - 0.25 * m.width();
                let gap = (m.x0 - chair.x1).max(chair.x0 - m.x1);
                MISNAMED_MONITOR_HEIGHT.contains(&height_ratio)
                    && chair.vertical_overlap(m) >= MISNAMED_MONITOR_LEVEL
                    && beside
                    && gap < 0.5 * m.width()
                    && chair.iou(m) < SAME_OBJECT_IOU
            })
        })
        .copied()
        .collect()
}

/// Chairs and couches that reach down to the desk's front edge or the bottom of the photo (a
/// seat stands on the floor; a "chair" box above the desk is something else).
fn seats(chairs: Vec<Rect>, couches: Vec<Rect>, desk_front: f32) -> Vec<Seat> {
    /// The estimated front edge can be a little low; a seat cut off by the photo's bottom
    /// edge reaches at least this far.
    const EDGE_MARGIN: f32 = 0.05;
    const PHOTO_BOTTOM: f32 = 0.97;
    let mut seats: Vec<Seat> = Vec::new();
    let on_floor = |r: &Rect| r.y1 > desk_front - EDGE_MARGIN || r.y1 >= PHOTO_BOTTOM;
    for rect in chairs.into_iter().filter(on_floor) {
        seats.push(Seat { rect, is_couch: false });
    }
    for rect in couches.into_iter().filter(on_floor) {
        if !seats.iter().any(|s| same_object(&s.rect, &rect)) {
            seats.push(Seat { rect, is_couch: true });
        }
    }
    seats
}

/// The desk's front edge: the first long horizontal step below the keyboard (or the mouse,
/// the laptop, the monitors), across the whole width.
fn find_desk_front(
    frame: &Frame,
    monitors: &[Rect],
    laptops: &[Rect],
    keyboards: &[Rect],
    mice: &[Rect],
) -> f32 {
    // The keyboard is nearest the front; a laptop may stand far back on the desk.
    let bottom = |rects: &[Rect]| rects.iter().map(|r| r.y1).reduce(f32::max);
    let nearest_front = bottom(keyboards).or_else(|| bottom(mice)).or_else(|| bottom(laptops));
    let Some(from) = nearest_front.or_else(|| bottom(monitors)) else {
        // No gear at all (the rubric can still be asked): the first long step in the photo.
        return stats::first_horizontal_edge(frame, 0.02, 0.9, DESK_EDGE_MIN_SHARE).unwrap_or(0.5);
    };
    stats::first_horizontal_edge(frame, from, (from + DESK_EDGE_SEARCH).min(1.0), DESK_EDGE_MIN_SHARE)
        .unwrap_or((from + DESK_EDGE_FALLBACK).min(1.0))
}

/// Clutter objects standing on the desk: below the middle of the monitors, above its front
/// edge, and not far to the side of the gear (shelves and racks beside a desk are not it).
fn desk_clutter(
    detections: &[Detection],
    width: u32,
    height: u32,
    gear: &[Rect],
    monitors: &[Rect],
    plants: &[Rect],
    desk_front: f32,
) -> Vec<Item> {
    /// Items a little past the desk's front edge (a phone at the edge) still count.
    const FRONT_MARGIN: f32 = 0.05;
    const SIDE_MARGIN: f32 = 0.15;
    let Some(gear_bounds) = bounds(gear) else {
        return Vec::new();
    };
    let top = monitors.iter().map(Rect::centre_y).fold(gear_bounds.y0, f32::max).min(gear_bounds.y1);
    let mut items: Vec<(Item, f32)> = Vec::new();
    for d in detections.iter().filter(|d| d.score >= MIN_SCORE && CLUTTER.contains(&d.class.label())) {
        let rect = Rect::from_pixels(d.bbox, width, height);
        let (cx, cy) = (rect.centre_x(), rect.centre_y());
        let on_desk = cy >= top
            && cy <= desk_front + FRONT_MARGIN
            && cx >= gear_bounds.x0 - SIDE_MARGIN
            && cx <= gear_bounds.x1 + SIDE_MARGIN;
        let is_gear = gear.iter().any(|g| rect.share_inside(g) >= NESTED);
        let is_plant = plants.iter().any(|p| same_object(p, &rect));
        if on_desk && !is_gear && !is_plant && !items.iter().any(|(i, _)| same_object(&i.rect, &rect)) {
            items.push((Item { class: d.class, rect }, d.score));
        }
    }
    items.into_iter().map(|(item, _)| item).collect()
}

/// How the counted monitors stand relative to each other.
fn arrangement(monitors: &[Rect]) -> Arrangement {
    /// Tops within this share of the monitors' mean height line up.
    const SAME_HEIGHT: f32 = 0.12;
    match monitors {
        [] => Arrangement::None,
        [_] => Arrangement::Single,
        [a, b] if is_stack(a, b) => Arrangement::Stacked,
        _ => {
            let mean_height = monitors.iter().map(Rect::height).sum::<f32>() / monitors.len() as f32;
            let tops = monitors.iter().map(|m| m.y0);
            let spread = tops.clone().fold(f32::MIN, f32::max) - tops.fold(f32::MAX, f32::min);
            Arrangement::SideBySide { same_height: spread <= SAME_HEIGHT * mean_height }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x0: f32, y0: f32, x1: f32, y1: f32) -> Rect {
        Rect::new(x0, y0, x1, y1)
    }

    #[test]
    fn duplicate_boxes_on_one_monitor_count_once() {
        let found = count_monitors(vec![(r(0.3, 0.2, 0.6, 0.5), 0.8), (r(0.32, 0.21, 0.6, 0.5), 0.5)], 1.5);
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn an_outline_around_two_stacked_monitors_counts_two() {
        let found = count_monitors(
            vec![
                (r(0.0, 0.0, 0.47, 0.84), 0.44),
                (r(0.0, 0.01, 0.46, 0.41), 0.30),
                (r(0.07, 0.34, 0.43, 0.79), 0.52),
            ],
            16.0 / 9.0,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(arrangement(&found), Arrangement::Stacked);
    }

    #[test]
    fn the_halves_of_an_ultrawide_are_one_monitor() {
        let found = count_monitors(
            vec![
                (r(0.05, 0.12, 0.75, 0.58), 0.70),
                (r(0.47, 0.19, 0.73, 0.52), 0.35),
                (r(0.06, 0.13, 0.49, 0.57), 0.34),
            ],
            4.0 / 3.0,
        );
        assert_eq!(found, vec![r(0.05, 0.12, 0.75, 0.58)]);
    }

    #[test]
    fn a_faint_box_high_on_the_wall_is_not_a_monitor() {
        let found = count_monitors(
            vec![(r(0.4, 0.3, 0.65, 0.65), 0.77), (r(0.17, 0.2, 0.33, 0.42), 0.31)],
            4.0 / 3.0,
        );
        assert_eq!(found.len(), 1);
        // Level with the confident one, it is a second monitor.
        let found = count_monitors(
            vec![(r(0.4, 0.3, 0.65, 0.65), 0.77), (r(0.1, 0.32, 0.38, 0.66), 0.31)],
            4.0 / 3.0,
        );
        assert_eq!(found.len(), 2);
        assert_eq!(arrangement(&found), Arrangement::SideBySide { same_height: true });
    }

    #[test]
    fn a_chair_box_level_with_a_monitor_above_the_desk_is_a_monitor() {
        let monitor = r(0.49, 0.19, 0.64, 0.34);
        let chairs = [r(0.3, 0.19, 0.5, 0.33), r(0.24, 0.49, 0.57, 0.97)];
        assert_eq!(misnamed_monitors(&chairs, &[monitor], 0.46), vec![chairs[0]]);
        assert_eq!(seats(chairs.to_vec(), Vec::new(), 0.46), vec![Seat { rect: chairs[1], is_couch: false }]);
    }
}
