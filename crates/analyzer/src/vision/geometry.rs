//! Rectangles in fractions of the photo, and the words for where things are.
//!
//! The detector reports boxes in the photo's pixels while the statistics run on a smaller
//! copy; both speak in fractions of the width and height (0 = left/top, 1 = right/bottom) so
//! that neither has to know the other's resolution. The position words are the only ones
//! the comments use, so "left side" means the same thing in every category.

/// An axis-aligned rectangle in fractions of the image, `x0 <= x1`, `y0 <= y1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
}

impl Rect {
    pub const WHOLE: Rect = Rect { x0: 0.0, y0: 0.0, x1: 1.0, y1: 1.0 };

    pub fn new(x0: f32, y0: f32, x1: f32, y1: f32) -> Rect {
        Rect { x0: x0.min(x1), y0: y0.min(y1), x1: x0.max(x1), y1: y0.max(y1) }.clamped()
    }

    /// A detector box `(x0, y0, x1, y1)` in pixels of an image `width` x `height`.
    pub fn from_pixels((x0, y0, x1, y1): (f32, f32, f32, f32), width: u32, height: u32) -> Rect {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        Rect::new(x0 / w, y0 / h, x1 / w, y1 / h)
    }

    fn clamped(self) -> Rect {
        let c = |v: f32| if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 };
        Rect { x0: c(self.x0), y0: c(self.y0), x1: c(self.x1), y1: c(self.y1) }
    }

    pub fn width(&self) -> f32 {
        self.x1 - self.x0
    }

    pub fn height(&self) -> f32 {
        self.y1 - self.y0
    }

    pub fn area(&self) -> f32 {
        self.width() * self.height()
    }

    pub fn centre_x(&self) -> f32 {
        (self.x0 + self.x1) / 2.0
    }

    pub fn centre_y(&self) -> f32 {
        (self.y0 + self.y1) / 2.0
    }

    /// Width over height, in the photo's own proportions (`image_aspect` = width / height).
    pub fn aspect(&self, image_aspect: f32) -> f32 {
        if self.height() <= 0.0 { 0.0 } else { self.width() / self.height() * image_aspect }
    }

    pub fn intersection(&self, other: &Rect) -> Option<Rect> {
        let r = Rect {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        };
        (r.x0 < r.x1 && r.y0 < r.y1).then_some(r)
    }

    /// How much of `self` lies inside `other` (0 to 1).
    pub fn share_inside(&self, other: &Rect) -> f32 {
        let area = self.area();
        if area <= 0.0 { 0.0 } else { self.intersection(other).map_or(0.0, |r| r.area()) / area }
    }

    /// Intersection over union.
    pub fn iou(&self, other: &Rect) -> f32 {
        let inter = self.intersection(other).map_or(0.0, |r| r.area());
        let union = self.area() + other.area() - inter;
        if union <= 0.0 { 0.0 } else { inter / union }
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }

    /// Grown by `dx` and `dy` on each side (fractions of the image), clamped to it.
    pub fn grown(&self, dx: f32, dy: f32) -> Rect {
        Rect::new(self.x0 - dx, self.y0 - dy, self.x1 + dx, self.y1 + dy)
    }

    pub fn contains(&self, x: f32, y: f32) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    /// How much the two vertical extents overlap, over the shorter one (0 to 1).
    pub fn vertical_overlap(&self, other: &Rect) -> f32 {
        let overlap = (self.y1.min(other.y1) - self.y0.max(other.y0)).max(0.0);
        let shorter = self.height().min(other.height());
        if shorter <= 0.0 { 0.0 } else { overlap / shorter }
    }

    /// How much the two horizontal extents overlap, over the narrower one (0 to 1).
    pub fn horizontal_overlap(&self, other: &Rect) -> f32 {
        let overlap = (self.x1.min(other.x1) - self.x0.max(other.x0)).max(0.0);
        let narrower = self.width().min(other.width());
        if narrower <= 0.0 { 0.0 } else { overlap / narrower }
    }
}

/// The union of some rectangles, if there are any.
pub fn bounds<'a>(rects: impl IntoIterator<Item = &'a Rect>) -> Option<Rect> {
    rects.into_iter().copied().reduce(|a, b| a.union(&b))
}

/// A photo's thirds: what a person means by "on the left", "in the centre", "on the right".
/// The centre third is a little wider than a third, because the desk's main monitor is
/// rarely exactly in the middle of a hand-held photo.
const LEFT_EDGE_OF_CENTRE: f32 = 0.36;
const RIGHT_EDGE_OF_CENTRE: f32 = 0.64;

/// Which side of the photo `x` (a fraction of the width) is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Left,
    Centre,
    Right,
}

impl Side {
    pub fn of(x: f32) -> Side {
        if x < LEFT_EDGE_OF_CENTRE {
            Side::Left
        } else if x > RIGHT_EDGE_OF_CENTRE {
            Side::Right
        } else {
            Side::Centre
        }
    }

    /// "left side", "centre", "right side" (for "under the desk, left side").
    pub fn phrase(self) -> &'static str {
        match self {
            Side::Left => "left side",
            Side::Centre => "centre",
            Side::Right => "right side",
        }
    }

    /// "on the left", "in the centre", "on the right" (for sentences).
    pub fn adverb(self) -> &'static str {
        match self {
            Side::Left => "on the left",
            Side::Centre => "in the centre",
            Side::Right => "on the right",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_become_fractions_and_overlaps_are_measured() {
        let r = Rect::from_pixels((100.0, 50.0, 300.0, 150.0), 400, 200);
        assert_eq!(r, Rect { x0: 0.25, y0: 0.25, x1: 0.75, y1: 0.75 });
        assert!((r.aspect(2.0) - 2.0).abs() < 1e-6);
        let inner = Rect::new(0.3, 0.3, 0.5, 0.5);
        assert!((inner.share_inside(&r) - 1.0).abs() < 1e-6);
        assert!((r.iou(&inner) - 0.16).abs() < 1e-6);
        assert_eq!(Rect::new(2.0, -1.0, 0.5, 0.5), Rect { x0: 0.5, y0: 0.0, x1: 1.0, y1: 0.5 });
    }

    #[test]
    fn sides() {
        assert_eq!(Side::of(0.1), Side::Left);
        assert_eq!(Side::of(0.5), Side::Centre);
        assert_eq!(Side::of(0.9), Side::Right);
    }
}
