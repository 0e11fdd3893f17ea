//! Image statistics for what the COCO detector cannot see: coloured light, the palette,
//! greenery, edge density, symmetry, the desk's front edge, and whether the picture is a
//! photo at all.
//!
//! Everything runs on a [`Frame`]: a copy of the photo scaled down by averaging blocks of
//! k x k pixels to at most [`MAX_ANALYSIS_SIDE`] pixels on its longer side (a 1920x1080 photo
//! becomes 640x360, a 1440x1080 one 480x360), with each pixel's luma, HSV and gradient
//! computed once. At that size a
//! cable is still a line a pixel or two wide, and the whole rubric takes a few milliseconds.
//! Regions are given as [`Rect`]s in fractions of the image.

use image::RgbImage;

use super::geometry::Rect;

/// Longest side of the analysed copy, in pixels.
pub const MAX_ANALYSIS_SIDE: usize = 640;

/// A pixel's hue (degrees, 0..360), saturation and value (0..1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hsv {
    pub h: f32,
    pub s: f32,
    pub v: f32,
}

impl Hsv {
    pub fn of([r, g, b]: [u8; 3]) -> Hsv {
        let (r, g, b) = (f32::from(r) / 255.0, f32::from(g) / 255.0, f32::from(b) / 255.0);
        let max = r.max(g).max(b);
        let min = r.min(g).min(b);
        let delta = max - min;
        let s = if max <= 0.0 { 0.0 } else { delta / max };
        let h = if delta <= 0.0 {
            0.0
        } else if max == r {
            60.0 * ((g - b) / delta).rem_euclid(6.0)
        } else if max == g {
            60.0 * ((b - r) / delta + 2.0)
        } else {
            60.0 * ((r - g) / delta + 4.0)
        };
        Hsv { h, s, v: max }
    }
}

/// The named hues the comments use. RGB lighting is mostly purple, pink, blue, cyan, red and
/// green; orange and yellow are also wood, cork and skin (see [`is_coloured_light`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hue {
    Red,
    Orange,
    Yellow,
    Green,
    Cyan,
    Blue,
    Purple,
    Pink,
}

impl Hue {
    pub const ALL: [Hue; 8] =
        [Hue::Red, Hue::Orange, Hue::Yellow, Hue::Green, Hue::Cyan, Hue::Blue, Hue::Purple, Hue::Pink];

    /// The hue band `h` (degrees) falls in. The bands follow how people name LED colours: a
    /// 280° light is "purple", a 320° one "pink".
    pub fn of(h: f32) -> Hue {
        match h {
            h if !(15.0..345.0).contains(&h) => Hue::Red,
            h if h < 40.0 => Hue::Orange,
            h if h < 68.0 => Hue::Yellow,
            h if h < 160.0 => Hue::Green,
            h if h < 200.0 => Hue::Cyan,
            h if h < 255.0 => Hue::Blue,
            h if h < 300.0 => Hue::Purple,
            _ => Hue::Pink,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Hue::Red => "red",
            Hue::Orange => "orange",
            Hue::Yellow => "yellow",
            Hue::Green => "green",
            Hue::Cyan => "cyan",
            Hue::Blue => "blue",
            Hue::Purple => "purple",
            Hue::Pink => "pink",
        }
    }

    /// Orange and yellow are the colours of wood, cork and skin lit by ordinary light.
    fn is_warm_surface_colour(self) -> bool {
        matches!(self, Hue::Orange | Hue::Yellow)
    }
}

/// A colour as a person would name it in a palette ("black", "wood brown", "blue").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tone {
    Black,
    White,
    Grey,
    Beige,
    Brown,
    Colour(Hue),
}

/// Below this value a pixel reads as black whatever its hue.
const BLACK_BELOW_VALUE: f32 = 0.2;
/// Below this saturation a pixel reads as white or grey.
const NEUTRAL_BELOW_SATURATION: f32 = 0.18;
/// A neutral pixel this bright reads as white.
const WHITE_ABOVE_VALUE: f32 = 0.75;
/// A warm pixel this unsaturated (and bright) reads as beige/cream: painted walls, oak, cork.
const BEIGE_BELOW_SATURATION: f32 = 0.5;
/// A warm pixel this dark reads as brown: wooden desks, shelves.
const BROWN_BELOW_VALUE: f32 = 0.65;

impl Tone {
    pub fn of(p: Hsv) -> Tone {
        if p.v < BLACK_BELOW_VALUE {
            return Tone::Black;
        }
        if p.s < NEUTRAL_BELOW_SATURATION {
            return if p.v > WHITE_ABOVE_VALUE { Tone::White } else { Tone::Grey };
        }
        let hue = Hue::of(p.h);
        if hue.is_warm_surface_colour() {
            if p.s < BEIGE_BELOW_SATURATION && p.v >= BROWN_BELOW_VALUE {
                return Tone::Beige;
            }
            if p.v < BROWN_BELOW_VALUE {
                return Tone::Brown;
            }
        }
        Tone::Colour(hue)
    }

    pub fn name(self) -> &'static str {
        match self {
            Tone::Black => "black",
            Tone::White => "white",
            Tone::Grey => "grey",
            Tone::Beige => "beige",
            Tone::Brown => "brown",
            Tone::Colour(hue) => hue.name(),
        }
    }
}

/// Coloured light: saturated and bright. LED strips, glass PC cases and lit keyboards are far
/// more saturated than anything lit by white light; a red mousepad or a painted wall is not
/// bright enough.
const LIGHT_MIN_SATURATION: f32 = 0.55;
const LIGHT_MIN_VALUE: f32 = 0.5;
/// Orange and yellow pixels must be much more saturated and brighter to count as light, or
/// every wooden desk would be "orange lighting".
const WARM_LIGHT_MIN_SATURATION: f32 = 0.75;
const WARM_LIGHT_MIN_VALUE: f32 = 0.85;

/// Whether a pixel looks like coloured light (or a surface lit by it).
pub fn is_coloured_light(p: Hsv) -> bool {
    if Hue::of(p.h).is_warm_surface_colour() {
        p.s >= WARM_LIGHT_MIN_SATURATION && p.v >= WARM_LIGHT_MIN_VALUE
    } else {
        p.s >= LIGHT_MIN_SATURATION && p.v >= LIGHT_MIN_VALUE
    }
}

/// Green that reads as foliage: leafy hues, some saturation, neither black nor glaring.
const FOLIAGE_HUES: std::ops::Range<f32> = 68.0..165.0;
const FOLIAGE_MIN_SATURATION: f32 = 0.25;
const FOLIAGE_VALUES: std::ops::RangeInclusive<f32> = 0.12..=0.85;

pub fn is_foliage(p: Hsv) -> bool {
    FOLIAGE_HUES.contains(&p.h) && p.s >= FOLIAGE_MIN_SATURATION && FOLIAGE_VALUES.contains(&p.v)
}

/// A gradient (|Sobel x| + |Sobel y| on 0-255 luma) at least this strong is an edge: an
/// object's outline or print, not the grain of a desk or a shadow's soft border.
const EDGE_MIN_GRADIENT: u16 = 160;

/// The analysed copy of a photo.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The photo's own size, in pixels (the detector's boxes are in these).
    pub source: (u32, u32),
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<[u8; 3]>,
    pub hsv: Vec<Hsv>,
    pub luma: Vec<u8>,
    /// |Sobel x| + |Sobel y| of the luma; 0 on the border.
    pub gradient: Vec<u16>,
    /// The median brightness (HSV value, 0-1) of the whole picture.
    median_value: f32,
}

impl Frame {
    /// Scales `image` down to fit [`MAX_ANALYSIS_SIDE`] and computes each pixel's colour and
    /// the gradient once.
    pub fn new(image: &RgbImage) -> Frame {
        let (width, height, rgb) = block_average(image);
        let hsv = rgb.iter().map(|&p| Hsv::of(p)).collect();
        let luma: Vec<u8> = rgb.iter().map(|&p| luma(p)).collect();
        let gradient = sobel(&luma, width, height);
        let mut histogram = [0u32; 256];
        for p in &rgb {
            histogram[usize::from(p[0].max(p[1]).max(p[2]))] += 1;
        }
        let median_value = median_of_histogram(&histogram, rgb.len()) as f32 / 255.0;
        Frame { source: image.dimensions(), width, height, rgb, hsv, luma, gradient, median_value }
    }

    /// The median brightness (HSV value, 0-1) of the whole picture.
    pub fn median_value(&self) -> f32 {
        self.median_value
    }

    /// The pixel bounds `(x0, y0, x1, y1)` (exclusive ends) of a fractional rectangle.
    pub fn pixel_bounds(&self, r: &Rect) -> (usize, usize, usize, usize) {
        let px = |f: f32, n: usize| ((f * n as f32).round().max(0.0) as usize).min(n);
        (px(r.x0, self.width), px(r.y0, self.height), px(r.x1, self.width), px(r.y1, self.height))
    }

    /// The fraction of the width or height of pixel column `x` / row `y`.
    pub fn fx(&self, x: usize) -> f32 {
        (x as f32 + 0.5) / self.width.max(1) as f32
    }

    pub fn fy(&self, y: usize) -> f32 {
        (y as f32 + 0.5) / self.height.max(1) as f32
    }

    /// The pixels `(x, y, index)` inside `region` and outside every rectangle of `excluded`.
    /// The exclusions are painted into a mask first: one pass over their area instead of a
    /// test against each of them for every pixel.
    pub fn pixels_in(
        &self,
        region: &Rect,
        excluded: &[Rect],
    ) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let width = self.width;
        let mut skip = vec![false; self.luma.len()];
        for r in excluded {
            let (x0, y0, x1, y1) = self.pixel_bounds(r);
            for y in y0..y1 {
                skip[y * width + x0..y * width + x1].fill(true);
            }
        }
        let (x0, y0, x1, y1) = self.pixel_bounds(region);
        (y0..y1)
            .flat_map(move |y| (x0..x1).map(move |x| (x, y, y * width + x)))
            .filter(move |&(_, _, i)| !skip[i])
    }
}

/// The picture scaled down by the smallest whole factor k that fits [`MAX_ANALYSIS_SIDE`],
/// each output pixel the mean of a k x k block: as sharp as area averaging, and a single
/// cheap pass (a general resampler takes longer than the whole rubric).
fn block_average(image: &RgbImage) -> (usize, usize, Vec<[u8; 3]>) {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let k = w.max(h).div_ceil(MAX_ANALYSIS_SIDE).max(1);
    let (width, height) = ((w / k).max(1), (h / k).max(1));
    let raw = image.as_raw();
    let mut sums = vec![[0u32; 3]; width * height];
    for y in 0..(height * k).min(h) {
        let row = &raw[y * w * 3..(y * w + (width * k).min(w)) * 3];
        let out = &mut sums[(y / k) * width..(y / k + 1) * width];
        for (x, p) in row.chunks_exact(3).enumerate() {
            let s = &mut out[x / k];
            s[0] += u32::from(p[0]);
            s[1] += u32::from(p[1]);
            s[2] += u32::from(p[2]);
        }
    }
    let n = u32::try_from(k * k).unwrap_or(u32::MAX);
    let mean = |v: u32| u8::try_from(v / n).unwrap_or(u8::MAX);
    let rgb = sums.into_iter().map(|[r, g, b]| [mean(r), mean(g), mean(b)]).collect();
    (width, height, rgb)
}

/// Rec. 601 luma.
fn luma([r, g, b]: [u8; 3]) -> u8 {
    let y = (299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b)) / 1000;
    u8::try_from(y).unwrap_or(u8::MAX)
}

fn sobel(luma: &[u8], width: usize, height: usize) -> Vec<u16> {
    let mut out = vec![0u16; luma.len()];
    if width < 3 || height < 3 {
        return out;
    }
    let at = |x: usize, y: usize| i32::from(luma[y * width + x]);
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            let gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)
                - at(x - 1, y - 1)
                - 2 * at(x - 1, y)
                - at(x - 1, y + 1);
            let gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)
                - at(x - 1, y - 1)
                - 2 * at(x, y - 1)
                - at(x + 1, y - 1);
            out[y * width + x] = u16::try_from(gx.abs() + gy.abs()).unwrap_or(u16::MAX);
        }
    }
    out
}

/// Coloured light in the photo, outside the screens (a wallpaper is not lighting).
#[derive(Debug, Clone, PartialEq)]
pub struct Lighting {
    /// Share of the pixels outside the screens that are coloured light.
    pub light_share: f32,
    /// The same share among the pixels that are not black: in a dark room lit only by LEDs,
    /// most of what can be seen at all is coloured.
    pub share_of_visible: f32,
    /// Each hue's share of the coloured-light pixels, largest first (only hues present).
    pub hues: Vec<(Hue, f32)>,
    /// Where the main hue's light is: its centroid.
    pub main_at: Option<(f32, f32)>,
    /// Median brightness (HSV value) of the pixels outside the screens: a dark room makes
    /// its lights stand out.
    pub median_value: f32,
}

impl Lighting {
    pub fn measure(frame: &Frame, screens: &[Rect]) -> Lighting {
        /// A light source is brighter than most of the room: this much above the median
        /// value. (In a bright room, a red mousepad is as saturated as an LED strip, but no
        /// brighter than the wall.)
        const ABOVE_ROOM: f32 = 0.15;
        let min_value = frame.median_value() + ABOVE_ROOM;
        let mut counts = [0usize; Hue::ALL.len()];
        let mut sums = [(0.0f64, 0.0f64); Hue::ALL.len()];
        let mut values = [0u32; 256];
        let (mut total, mut visible) = (0usize, 0usize);
        for (x, y, i) in frame.pixels_in(&Rect::WHOLE, screens) {
            let p = frame.hsv[i];
            total += 1;
            if p.v >= BLACK_BELOW_VALUE {
                visible += 1;
            }
            values[usize::from(frame.rgb[i].iter().copied().max().unwrap_or(0))] += 1;
            if is_coloured_light(p) && p.v >= min_value {
                let k = Hue::of(p.h) as usize;
                counts[k] += 1;
                sums[k].0 += f64::from(frame.fx(x));
                sums[k].1 += f64::from(frame.fy(y));
            }
        }
        let lit: usize = counts.iter().sum();
        let mut hues: Vec<(Hue, f32)> = Hue::ALL
            .iter()
            .zip(counts)
            .filter(|&(_, n)| n > 0)
            .map(|(&hue, n)| (hue, n as f32 / lit.max(1) as f32))
            .collect();
        hues.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let main_at = hues.first().map(|&(hue, _)| {
            let (n, (sx, sy)) = (counts[hue as usize] as f64, sums[hue as usize]);
            ((sx / n) as f32, (sy / n) as f32)
        });
        Lighting {
            light_share: lit as f32 / total.max(1) as f32,
            share_of_visible: lit as f32 / visible.max(1) as f32,
            hues,
            main_at,
            median_value: median_of_histogram(&values, total) as f32 / 255.0,
        }
    }
}

fn median_of_histogram(histogram: &[u32; 256], total: usize) -> usize {
    let mut seen = 0usize;
    for (value, &n) in histogram.iter().enumerate() {
        seen += n as usize;
        if seen * 2 >= total {
            return value;
        }
    }
    0
}

/// The colours of the scene outside the screens, as people name them.
#[derive(Debug, Clone, PartialEq)]
pub struct Palette {
    /// Each tone's share of the pixels, largest first.
    pub tones: Vec<(Tone, f32)>,
}

impl Palette {
    /// The palette of the whole picture outside the screens.
    pub fn measure(frame: &Frame, screens: &[Rect]) -> Palette {
        Palette::of_pixels(frame, frame.pixels_in(&Rect::WHOLE, screens))
    }

    /// The palette of one region.
    pub fn measure_region(frame: &Frame, region: &Rect) -> Palette {
        Palette::of_pixels(frame, frame.pixels_in(region, &[]))
    }

    fn of_pixels(frame: &Frame, pixels: impl Iterator<Item = (usize, usize, usize)>) -> Palette {
        let mut counts: Vec<(Tone, usize)> = Vec::new();
        let mut total = 0usize;
        for (_, _, i) in pixels {
            let tone = Tone::of(frame.hsv[i]);
            total += 1;
            match counts.iter_mut().find(|(t, _)| *t == tone) {
                Some((_, n)) => *n += 1,
                None => counts.push((tone, 1)),
            }
        }
        let mut tones: Vec<(Tone, f32)> =
            counts.into_iter().map(|(tone, n)| (tone, n as f32 / total.max(1) as f32)).collect();
        tones.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        Palette { tones }
    }

    /// The share of the picture covered by its `n` main tones: near 1 is a coherent palette.
    pub fn coverage(&self, n: usize) -> f32 {
        self.tones.iter().take(n).map(|(_, share)| share).sum()
    }

    /// The tones covering at least `min_share` each, largest first.
    pub fn main_tones(&self, min_share: f32) -> Vec<Tone> {
        self.tones.iter().filter(|(_, share)| *share >= min_share).map(|(tone, _)| *tone).collect()
    }
}

/// Leafy green outside the screens: plants the detector may not box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Greenery {
    pub share: f32,
    /// Centroid of the green pixels.
    pub at: Option<(f32, f32)>,
}

impl Greenery {
    pub fn measure(frame: &Frame, screens: &[Rect]) -> Greenery {
        let (mut n, mut total, mut sx, mut sy) = (0usize, 0usize, 0.0f64, 0.0f64);
        for (x, y, i) in frame.pixels_in(&Rect::WHOLE, screens) {
            total += 1;
            if is_foliage(frame.hsv[i]) {
                n += 1;
                sx += f64::from(frame.fx(x));
                sy += f64::from(frame.fy(y));
            }
        }
        let at = (n > 0).then(|| ((sx / n as f64) as f32, (sy / n as f64) as f32));
        Greenery { share: n as f32 / total.max(1) as f32, at }
    }
}

/// The share of `region`'s pixels (outside `excluded`) that lie on an edge.
pub fn edge_density(frame: &Frame, region: &Rect, excluded: &[Rect]) -> f32 {
    let (mut edges, mut total) = (0usize, 0usize);
    for (_, _, i) in frame.pixels_in(region, excluded) {
        total += 1;
        if frame.gradient[i] >= EDGE_MIN_GRADIENT {
            edges += 1;
        }
    }
    if total == 0 { 0.0 } else { edges as f32 / total as f32 }
}

/// How different the picture is from its mirror image about the vertical line `axis`
/// (fraction of the width), over the widest band both sides share: mean absolute luma
/// difference, 0 (perfectly symmetric) to 1. `None` when the axis is too close to an edge
/// for a fair comparison.
pub fn mirror_difference(frame: &Frame, axis: f32) -> Option<f32> {
    /// The compared band must be at least this share of the width on each side.
    const MIN_HALF_WIDTH: f32 = 0.2;
    /// Compare every STEP-th pixel: plenty for a layout-scale measure.
    const STEP: usize = 2;
    let half = axis.min(1.0 - axis);
    if half < MIN_HALF_WIDTH {
        return None;
    }
    let centre = axis * frame.width as f32;
    let reach = (half * frame.width as f32) as usize;
    let (mut sum, mut n) = (0u64, 0u64);
    for y in (0..frame.height).step_by(STEP) {
        for d in (1..reach).step_by(STEP) {
            let left = (centre - d as f32) as usize;
            let right = (centre + d as f32) as usize;
            if right >= frame.width {
                break;
            }
            let row = y * frame.width;
            sum += u64::from(frame.luma[row + left].abs_diff(frame.luma[row + right]));
            n += 1;
        }
    }
    (n > 0).then(|| sum as f32 / n as f32 / 255.0)
}

/// The first long horizontal edge between `y_from` and `y_to` (fractions of the height),
/// going down: where a desk's front edge is. A row is an edge when the luma steps on at least
/// `min_share` of the columns and on at least [`NEAR_BEST`] of the best row's share, so that
/// a faint line above the real edge does not win, nor does the stronger floor line below it.
pub fn first_horizontal_edge(frame: &Frame, y_from: f32, y_to: f32, min_share: f32) -> Option<f32> {
    /// A vertical luma step at least this big over 4 px marks a column as crossing an edge.
    const MIN_STEP: i32 = 24;
    const NEAR_BEST: f32 = 0.6;
    let (_, y0, _, y1) = frame.pixel_bounds(&Rect::new(0.0, y_from, 1.0, y_to));
    let w = frame.width;
    let at = |x: usize, y: usize| i32::from(frame.luma[y * w + x]);
    let rows: Vec<(usize, f32)> = (y0.max(2)..y1.min(frame.height.saturating_sub(2)))
        .map(|y| {
            let crossing = (0..w).filter(|&x| (at(x, y + 2) - at(x, y - 2)).abs() >= MIN_STEP).count();
            (y, crossing as f32 / w.max(1) as f32)
        })
        .collect();
    let best = rows.iter().map(|&(_, share)| share).fold(0.0f32, f32::max);
    rows.iter()
        .find(|&&(_, share)| share >= min_share && share >= NEAR_BEST * best)
        .map(|&(y, _)| frame.fy(y))
}

/// Whether a picture is a photograph: cameras add grain and JPEG keeps most of it, so in a
/// real photo hardly any 2x2 block of pixels is perfectly uniform outside clipped shadows and
/// highlights; screenshots and drawings are made of flat fills.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Texture {
    /// Share of sampled 2x2 blocks (full resolution, neither near-black nor near-white)
    /// whose four pixels are identical.
    pub flat_share: f32,
}

/// A picture with this share of perfectly flat blocks is a screenshot or an illustration.
/// On the calibration photos, real photos (even dark rooms, white walls and 1920x1080
/// downscales) stay below 0.18; the anime-style illustration is at 0.37, the screenshot 0.30.
const SYNTHETIC_MIN_FLAT_SHARE: f32 = 0.25;

impl Texture {
    /// Whether this is a screenshot or an illustration rather than a photo.
    pub fn looks_synthetic(&self) -> bool {
        self.flat_share >= SYNTHETIC_MIN_FLAT_SHARE
    }

    /// Measured on the full-resolution picture: downscaling would average the grain away.
    pub fn measure(image: &RgbImage) -> Texture {
        /// Sample every STEP-th block in each direction: fast, and plenty for a share.
        const STEP: usize = 3;
        /// Clipped shadows and highlights are flat in photos too: skip them.
        const CLIPPED: std::ops::RangeInclusive<u8> = 12..=243;
        let (w, h) = (image.width() as usize, image.height() as usize);
        let raw = image.as_raw();
        let at = |x: usize, y: usize| {
            let i = (y * w + x) * 3;
            [raw[i], raw[i + 1], raw[i + 2]]
        };
        let (mut flat, mut sampled) = (0usize, 0usize);
        for y in (0..h.saturating_sub(1)).step_by(STEP) {
            for x in (0..w.saturating_sub(1)).step_by(STEP) {
                let p = at(x, y);
                if !CLIPPED.contains(&luma(p)) {
                    continue;
                }
                sampled += 1;
                if at(x + 1, y) == p && at(x, y + 1) == p && at(x + 1, y + 1) == p {
                    flat += 1;
                }
            }
        }
        Texture { flat_share: flat as f32 / sampled.max(1) as f32 }
    }
}

/// The picture's edges: a photo of a desk is cut by its frame (the desk, the wall and the floor
/// run out of the picture, each a different colour), while an illustration or a render often
/// sets its subject on a plain coloured backdrop that shows on all four sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backdrop {
    /// The median colour of the band along the four edges.
    pub colour: [u8; 3],
    /// Of the four edges, the smallest share of its band's pixels close to that colour.
    pub least_side_share: f32,
}

/// The band along each edge, as a share of the picture's shorter side.
const BACKDROP_BAND: f32 = 0.06;
/// Pixels this close to the band's median colour (Euclidean, RGB) are the backdrop.
const BACKDROP_NEAR: u32 = 24;
/// Every edge this much backdrop: the subject is surrounded. On the 60 labelled photos the
/// coloured ones stay at or below 0.16 on their least plain edge; the 3D desk illustration is at 0.73.
const BACKDROP_MIN_SIDE_SHARE: f32 = 0.5;
/// A backdrop this coloured (largest minus smallest channel) is painted, not a room: a dark
/// room around a lit desk (0.55 on every edge, black) and a white kitchen (0.62, white) are
/// uniform too, but grey; the illustration's teal backdrop is at 61.
const BACKDROP_MIN_CHROMA: u8 = 40;

impl Backdrop {
    /// Whether a plain coloured backdrop surrounds the subject: an illustration or a render.
    pub fn looks_drawn(&self) -> bool {
        let [r, g, b] = self.colour;
        let chroma = r.max(g).max(b) - r.min(g).min(b);
        chroma >= BACKDROP_MIN_CHROMA && self.least_side_share >= BACKDROP_MIN_SIDE_SHARE
    }

    pub fn measure(frame: &Frame) -> Backdrop {
        let (w, h) = (frame.width, frame.height);
        if w == 0 || h == 0 {
            return Backdrop { colour: [0; 3], least_side_share: 0.0 };
        }
        let band = ((w.min(h) as f32 * BACKDROP_BAND).round() as usize).clamp(1, w.min(h).div_ceil(2));
        let block = |xs: std::ops::Range<usize>, ys: std::ops::Range<usize>| -> Vec<[u8; 3]> {
            ys.flat_map(|y| xs.clone().map(move |x| frame.rgb[y * w + x])).collect()
        };
        let sides =
            [block(0..w, 0..band), block(0..w, h - band..h), block(0..band, 0..h), block(w - band..w, 0..h)];
        let mut histograms = [[0u32; 256]; 3];
        let mut total = 0;
        for p in sides.iter().flatten() {
            for (histogram, &v) in histograms.iter_mut().zip(p) {
                histogram[usize::from(v)] += 1;
            }
            total += 1;
        }
        let colour = histograms
            .map(|histogram| u8::try_from(median_of_histogram(&histogram, total)).unwrap_or(u8::MAX));
        let near = |p: &[u8; 3]| {
            let distance: u32 = p.iter().zip(colour).map(|(&a, b)| u32::from(a.abs_diff(b)).pow(2)).sum();
            distance <= BACKDROP_NEAR * BACKDROP_NEAR
        };
        let least_side_share = sides
            .iter()
            .map(|side| side.iter().filter(|p| near(p)).count() as f32 / side.len().max(1) as f32)
            .fold(1.0f32, f32::min);
        Backdrop { colour, least_side_share }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn hsv_and_names() {
        let p = Hsv::of([255, 0, 255]);
        assert!((p.h - 300.0).abs() < 1e-3 && p.s == 1.0 && p.v == 1.0);
        assert_eq!(Hue::of(Hsv::of([128, 0, 255]).h), Hue::Purple);
        assert_eq!(Hue::of(Hsv::of([0, 0, 255]).h), Hue::Blue);
        assert_eq!(Tone::of(Hsv::of([10, 10, 10])), Tone::Black);
        assert_eq!(Tone::of(Hsv::of([240, 240, 240])), Tone::White);
        assert_eq!(Tone::of(Hsv::of([120, 70, 30])), Tone::Brown);
        assert!(is_coloured_light(Hsv::of([200, 0, 255])));
        // A wooden desk is not orange lighting.
        assert!(!is_coloured_light(Hsv::of([170, 100, 50])));
    }

    #[test]
    fn a_magenta_band_is_coloured_light_and_its_position_is_found() {
        let image =
            RgbImage::from_fn(400, 300, |x, _| if x > 300 { Rgb([255, 0, 200]) } else { Rgb([5, 5, 5]) });
        let frame = Frame::new(&image);
        let lighting = Lighting::measure(&frame, &[]);
        assert!((lighting.light_share - 0.25).abs() < 0.02, "{lighting:?}");
        assert_eq!(lighting.hues[0].0, Hue::Pink);
        let (x, _) = lighting.main_at.unwrap();
        assert!(x > 0.8);
        // Inside a screen it is a wallpaper, not lighting.
        let screen = Rect::new(0.7, 0.0, 1.0, 1.0);
        assert_eq!(Lighting::measure(&frame, &[screen]).light_share, 0.0);
    }

    #[test]
    fn edges_symmetry_and_flatness() {
        let plain = RgbImage::from_pixel(320, 240, Rgb([200, 200, 200]));
        let noisy = RgbImage::from_fn(320, 240, |x, y| {
            let v = if (x / 3 + y / 3) % 2 == 0 { 30 } else { 220 };
            Rgb([v, v, v])
        });
        let (plain_frame, noisy_frame) = (Frame::new(&plain), Frame::new(&noisy));
        assert_eq!(edge_density(&plain_frame, &Rect::WHOLE, &[]), 0.0);
        assert!(edge_density(&noisy_frame, &Rect::WHOLE, &[]) > 0.3);
        assert_eq!(mirror_difference(&plain_frame, 0.5), Some(0.0));
        assert_eq!(mirror_difference(&plain_frame, 0.05), None);
        assert!(Texture::measure(&plain).looks_synthetic());
    }

    #[test]
    fn the_desk_edge_is_the_first_long_horizontal_step() {
        let image = RgbImage::from_fn(300, 200, |_, y| match y {
            0..120 => Rgb([220, 200, 180]),
            120..170 => Rgb([40, 40, 40]),
            _ => Rgb([200, 200, 200]),
        });
        let frame = Frame::new(&image);
        let y = first_horizontal_edge(&frame, 0.3, 1.0, 0.3).unwrap();
        assert!((y - 0.6).abs() < 0.02, "{y}");
        assert_eq!(first_horizontal_edge(&frame, 0.0, 0.5, 0.3), None);
    }
}
