//! Loose cables: thin, dark, curving lines at and under the desk.
//!
//! No detector has a cable class, so cables are found as what they look like: lines a few
//! pixels wide that are darker than what is right around them (a morphological "black-hat":
//! the luma closed with a small window, minus the luma), long enough not to be print or
//! grain, and bent — a straight dark line is far more often a drawer gap, a desk leg's edge
//! or a shadow, and a cable routed straight along a tray is not the problem anyway. Each line
//! is then placed (under the desk, behind the monitor, on the desk; left, centre, right) and
//! typed by where it runs: from a monitor's bottom edge, from the keyboard or mouse, or down
//! to the floor (power).
//!
//! What it cannot see: white cables on a light wall, cables in a dark room (they are not
//! darker than their surroundings), cables hidden behind the desk.

use crate::result::{Cable, CableType};

use super::geometry::{Rect, Side};
use super::layout::Layout;
use super::stats::Frame;

/// The black-hat window's half-width: lines up to about 2 * RADIUS pixels wide stand out.
const RADIUS: usize = 3;
/// A pixel is on a dark line when it is at least this much darker (luma, 0-255) than the
/// brightest of its neighbourhood's darkest...
const MIN_CONTRAST: u8 = 40;
/// ...and dark itself: cables are mostly black.
const MAX_LUMA: u8 = 90;
/// A line must span at least this share of the frame's longer side (about 4 cm of desk)...
const MIN_LENGTH: f32 = 0.06;
/// ...be on average at most this many pixels thick...
const MAX_THICKNESS: f32 = 3.0;
/// ...and bend: the spread across its main direction over the spread along it (0 for a
/// ruler-straight line, ~0.3 for a sagging loop).
const MIN_BEND: f32 = 0.1;
/// Lines starting this close to a monitor's bottom edge (fraction of the height) come from it.
const NEAR_MONITOR_BASE: f32 = 0.08;
/// Lines this close to a keyboard or mouse box (fraction of the image) come from it.
const NEAR_INPUT: f32 = 0.03;
/// A line reaching this far below the desk's front edge runs down to the floor.
const TO_THE_FLOOR: f32 = 0.05;
/// At most this many lines are reported (the inventory's limit is 40 entries).
const MAX_LINES: usize = 40;

/// One loose cable as found in the image.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    pub rect: Rect,
    /// The highest and lowest points of the line.
    pub top: (f32, f32),
    pub bottom: (f32, f32),
    pub cable_type: CableType,
    pub place: Place,
    pub side: Side,
}

/// Where a cable is, relative to the desk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    UnderDesk,
    BehindMonitor,
    OnDesk,
}

impl Place {
    pub fn phrase(self) -> &'static str {
        match self {
            Place::UnderDesk => "under the desk",
            Place::BehindMonitor => "behind the monitor",
            Place::OnDesk => "on the desk",
        }
    }
}

/// The loose cables in the frame.
pub fn find(frame: &Frame, layout: &Layout) -> Vec<Trace> {
    let mask = dark_line_mask(frame, &excluded(layout));
    let mut traces: Vec<Trace> = components(&mask, frame.width, frame.height)
        .into_iter()
        .filter_map(|c| trace(frame, layout, &c))
        .collect();
    traces.truncate(MAX_LINES);
    traces
}

/// Regions where dark lines are something else: the gear itself (key gaps, bezels), seats
/// (mesh, armrests), plants (stems), and everything above the screens (shelves, frames).
fn excluded(layout: &Layout) -> Vec<Rect> {
    /// Boxes are grown a little: their outlines are dark lines too.
    const MARGIN: f32 = 0.01;
    let mut out: Vec<Rect> = layout
        .screens
        .iter()
        .chain(&layout.keyboards)
        .chain(&layout.mice)
        .chain(&layout.plants)
        .chain(&layout.pc_cases)
        .chain(layout.seats.iter().map(|s| &s.rect))
        .map(|r| r.grown(MARGIN, MARGIN))
        .collect();
    if let Some(screens) = layout.screen_bounds() {
        out.push(Rect::new(0.0, 0.0, 1.0, screens.y0));
    }
    out
}

fn dark_line_mask(frame: &Frame, excluded: &[Rect]) -> Vec<bool> {
    let (w, h) = (frame.width, frame.height);
    let closed = erode(&dilate(&frame.luma, w, h), w, h);
    let mut mask = vec![false; frame.luma.len()];
    for (_, _, i) in frame.pixels_in(&Rect::WHOLE, excluded) {
        let luma = frame.luma[i];
        mask[i] = luma <= MAX_LUMA && closed[i].saturating_sub(luma) >= MIN_CONTRAST;
    }
    mask
}

/// Max filter over a (2 * RADIUS + 1)² window, separably.
fn dilate(values: &[u8], w: usize, h: usize) -> Vec<u8> {
    window_filter(values, w, h, |a, b| a.max(b))
}

/// Min filter over the same window.
fn erode(values: &[u8], w: usize, h: usize) -> Vec<u8> {
    window_filter(values, w, h, |a, b| a.min(b))
}

fn window_filter(values: &[u8], w: usize, h: usize, pick: impl Fn(u8, u8) -> u8 + Copy) -> Vec<u8> {
    let mut rows = vec![0u8; values.len()];
    for (row_in, row_out) in values.chunks_exact(w).zip(rows.chunks_exact_mut(w)) {
        for (x, out) in row_out.iter_mut().enumerate() {
            let window = &row_in[x.saturating_sub(RADIUS)..=(x + RADIUS).min(w - 1)];
            *out = window.iter().copied().reduce(pick).unwrap_or(0);
        }
    }
    let mut out = vec![0u8; values.len()];
    for y in 0..h {
        let target = &mut out[y * w..(y + 1) * w];
        target.copy_from_slice(&rows[y * w..(y + 1) * w]);
        for yy in y.saturating_sub(RADIUS)..=(y + RADIUS).min(h - 1) {
            for (t, &v) in target.iter_mut().zip(&rows[yy * w..(yy + 1) * w]) {
                *t = pick(*t, v);
            }
        }
    }
    out
}

/// A connected group of line pixels and its moments.
#[derive(Debug, Default)]
struct Component {
    n: f64,
    sx: f64,
    sy: f64,
    sxx: f64,
    syy: f64,
    sxy: f64,
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
    top: (usize, usize),
    bottom: (usize, usize),
}

impl Component {
    fn add(&mut self, x: usize, y: usize) {
        let (fx, fy) = (x as f64, y as f64);
        if self.n == 0.0 {
            (self.x0, self.y0, self.x1, self.y1) = (x, y, x, y);
            self.top = (x, y);
            self.bottom = (x, y);
        }
        self.n += 1.0;
        self.sx += fx;
        self.sy += fy;
        self.sxx += fx * fx;
        self.syy += fy * fy;
        self.sxy += fx * fy;
        self.x0 = self.x0.min(x);
        self.x1 = self.x1.max(x);
        if y < self.y0 {
            self.y0 = y;
            self.top = (x, y);
        }
        if y > self.y1 {
            self.y1 = y;
            self.bottom = (x, y);
        }
    }

    /// The spreads (standard deviations) along and across the main direction.
    fn spreads(&self) -> (f64, f64) {
        let n = self.n.max(1.0);
        let (mx, my) = (self.sx / n, self.sy / n);
        let (cxx, cyy, cxy) = (self.sxx / n - mx * mx, self.syy / n - my * my, self.sxy / n - mx * my);
        let half_trace = (cxx + cyy) / 2.0;
        let root = ((cxx - cyy) * (cxx - cyy) / 4.0 + cxy * cxy).sqrt();
        ((half_trace + root).max(0.0).sqrt(), (half_trace - root).max(0.0).sqrt())
    }
}

/// 8-connected components of the mask.
fn components(mask: &[bool], w: usize, h: usize) -> Vec<Component> {
    let mut seen = vec![false; mask.len()];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || seen[start] {
            continue;
        }
        let mut c = Component::default();
        seen[start] = true;
        stack.push(start);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            c.add(x, y);
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let j = ny * w + nx;
                    if mask[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        out.push(c);
    }
    out
}

/// A component that looks like a loose cable, placed and typed; `None` for anything else.
fn trace(frame: &Frame, layout: &Layout, c: &Component) -> Option<Trace> {
    let longer_side = frame.width.max(frame.height) as f64;
    let (bw, bh) = ((c.x1 - c.x0 + 1) as f64, (c.y1 - c.y0 + 1) as f64);
    let span = bw.max(bh);
    let thickness = c.n / bw.hypot(bh);
    let (along, across) = c.spreads();
    let bend = if along > 0.0 { across / along } else { 0.0 };
    if span < f64::from(MIN_LENGTH) * longer_side
        || thickness > f64::from(MAX_THICKNESS)
        || bend < f64::from(MIN_BEND)
    {
        return None;
    }
    let rect = Rect::new(frame.fx(c.x0), frame.fy(c.y0), frame.fx(c.x1), frame.fy(c.y1));
    let top = (frame.fx(c.top.0), frame.fy(c.top.1));
    let bottom = (frame.fx(c.bottom.0), frame.fy(c.bottom.1));
    let cable_type = cable_type(layout, &rect, top, bottom);
    let place = place(layout, &rect, cable_type);
    Some(Trace { rect, top, bottom, cable_type, place, side: Side::of(rect.centre_x()) })
}

fn cable_type(layout: &Layout, rect: &Rect, top: (f32, f32), bottom: (f32, f32)) -> CableType {
    let from_monitor = layout.monitors.iter().any(|m| {
        let (x, y) = top;
        (m.x0..=m.x1).contains(&x) && (m.y1 - NEAR_MONITOR_BASE..=m.y1 + NEAR_MONITOR_BASE).contains(&y)
    });
    let touches =
        |boxes: &[Rect]| boxes.iter().any(|b| b.grown(NEAR_INPUT, NEAR_INPUT).intersection(rect).is_some());
    if from_monitor {
        CableType::Monitor
    } else if touches(&layout.keyboards) {
        CableType::Keyboard
    } else if touches(&layout.mice) {
        CableType::Mouse
    } else if bottom.1 > layout.desk_front + TO_THE_FLOOR {
        CableType::Power
    } else {
        CableType::Other
    }
}

fn place(layout: &Layout, rect: &Rect, cable_type: CableType) -> Place {
    if rect.centre_y() > layout.desk_front {
        Place::UnderDesk
    } else if cable_type == CableType::Monitor {
        Place::BehindMonitor
    } else {
        Place::OnDesk
    }
}

/// The inventory entries: lines of the same type in the same place are one entry (a bundle).
pub fn inventory(traces: &[Trace]) -> Vec<Cable> {
    let mut groups: Vec<(CableType, Place, Side, usize)> = Vec::new();
    for t in traces {
        match groups.iter_mut().find(|g| g.0 == t.cable_type && g.1 == t.place && g.2 == t.side) {
            Some(g) => g.3 += 1,
            None => groups.push((t.cable_type, t.place, t.side, 1)),
        }
    }
    groups.sort_by_key(|g| (g.1, g.2 as u8, std::cmp::Reverse(g.3)));
    groups
        .into_iter()
        .map(|(cable_type, place, side, count)| {
            let location = location(place, side);
            Cable {
                cable_type,
                description: description(cable_type, place, count),
                location,
                is_aesthetic: false,
            }
        })
        .collect()
}

/// "under the desk, left side", "behind the monitor, centre".
pub fn location(place: Place, side: Side) -> String {
    format!("{}, {}", place.phrase(), side.phrase())
}

fn description(cable_type: CableType, place: Place, count: usize) -> String {
    let what = match cable_type {
        CableType::Monitor => "running down from the monitor",
        CableType::Keyboard => "running from the keyboard",
        CableType::Mouse => "running from the mouse",
        CableType::Power => "running down towards the floor (likely power)",
        CableType::Audio | CableType::Headphone | CableType::Other => match place {
            Place::UnderDesk => "hanging loose",
            Place::BehindMonitor | Place::OnDesk => "lying loose",
        },
    };
    if count == 1 {
        format!("A loose dark cable {what} {}.", place.phrase())
    } else {
        format!("{count} loose dark cables {what} {}.", place.phrase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    fn layout(desk_front: f32) -> Layout {
        Layout {
            monitors: vec![Rect::new(0.3, 0.05, 0.7, 0.3)],
            arrangement: super::super::layout::Arrangement::Single,
            laptops: Vec::new(),
            keyboards: Vec::new(),
            mice: Vec::new(),
            seats: Vec::new(),
            faint_chairs: Vec::new(),
            chair_score: 0.0,
            plants: Vec::new(),
            pc_cases: Vec::new(),
            clutter: Vec::new(),
            screens: vec![Rect::new(0.3, 0.05, 0.7, 0.3)],
            desk_front,
            aspect: 4.0 / 3.0,
        }
    }

    /// A light wall with a dark sagging cable on the left, below the desk edge at 40 %.
    fn wall_with_loose_cable() -> RgbImage {
        RgbImage::from_fn(400, 300, |x, y| {
            let (fx, fy) = (x as f32, y as f32);
            let sag = 210.0 - 0.012 * (fx - 90.0).powi(2);
            if (20..160).contains(&x) && (fy - sag).abs() < 1.5 {
                Rgb([20, 20, 20])
            } else {
                Rgb([210, 205, 200])
            }
        })
    }

    #[test]
    fn a_sagging_dark_line_under_the_desk_is_a_loose_cable() {
        let frame = Frame::new(&wall_with_loose_cable());
        let traces = find(&frame, &layout(0.4));
        assert_eq!(traces.len(), 1, "{traces:?}");
        assert_eq!(traces[0].place, Place::UnderDesk);
        assert_eq!(traces[0].side, Side::Left);
        let cables = inventory(&traces);
        assert_eq!(cables[0].location, "under the desk, left side");
        assert!(!cables[0].is_aesthetic);
    }

    #[test]
    fn straight_lines_and_plain_walls_are_not_cables() {
        let plain = Frame::new(&RgbImage::from_pixel(400, 300, Rgb([200, 200, 200])));
        assert!(find(&plain, &layout(0.4)).is_empty());
        let drawer_gap =
            RgbImage::from_fn(
                400,
                300,
                |_, y| if y == 200 { Rgb([10, 10, 10]) } else { Rgb([230, 230, 230]) },
            );
        assert!(find(&Frame::new(&drawer_gap), &layout(0.4)).is_empty());
    }
}
