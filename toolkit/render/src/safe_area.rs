//! The safe area of a counter: the square inside the cut line, a margin in from it, that
//! text and symbols stay in so that a cutter's drift trims none of them. Background art
//! and frames still run to the cut and into the bleed.
//!
//! Lengths here are in a template's own units; [`SafeBox`] is its view box shrunk by the
//! margin.

/// The part of a template's view box that text and symbols may use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SafeBox {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl SafeBox {
    /// The view box `[x, y, w, h]` with `margin` taken off every side (never less than
    /// an empty box at its centre).
    pub fn inside(view_box: [f64; 4], margin: f64) -> SafeBox {
        let [x, y, w, h] = view_box;
        let mx = margin.clamp(0.0, w / 2.0);
        let my = margin.clamp(0.0, h / 2.0);
        SafeBox { x0: x + mx, y0: y + my, x1: x + w - mx, y1: y + h - my }
    }

    /// How far text whose ink runs from `top` to `bottom` must move down (positive) or up
    /// (negative) to stand inside the box, and whether it then does (it does not when it
    /// is taller than the box; it is then moved to the box's top).
    pub fn vertical_shift(&self, top: f64, bottom: f64) -> (f64, bool) {
        if bottom - top > self.y1 - self.y0 + 1e-9 {
            return (self.y0 - top, false);
        }
        if top < self.y0 {
            (self.y0 - top, true)
        } else if bottom > self.y1 {
            (self.y1 - bottom, true)
        } else {
            (0.0, true)
        }
    }

    /// A symbol's slot `[x, y, w, h]` moved, and shrunk about its centre where it must
    /// be, so that its ink (the slot grown by `ink`: left, top, right and bottom margins
    /// as fractions of the slot's width and height) lies inside the box.
    pub fn place_slot(&self, slot: [f64; 4], ink: [f64; 4]) -> [f64; 4] {
        let [x, y, w, h] = slot;
        let [l, t, r, b] = ink;
        let (iw, ih) = (w * (1.0 + l + r), h * (1.0 + t + b));
        let k = [1.0, (self.x1 - self.x0) / iw, (self.y1 - self.y0) / ih]
            .into_iter()
            .filter(|v| v.is_finite())
            .fold(1.0_f64, f64::min)
            .max(0.0);
        let (w2, h2) = (w * k, h * k);
        let (iw2, ih2) = (iw * k, ih * k);
        // The ink's centre stays where it was, unless that puts it past the box.
        let (cx, cy) = (x - l * w + iw / 2.0, y - t * h + ih / 2.0);
        let ix = (cx - iw2 / 2.0).clamp(self.x0, (self.x1 - iw2).max(self.x0));
        let iy = (cy - ih2 / 2.0).clamp(self.y0, (self.y1 - ih2).max(self.y0));
        [ix + l * w2, iy + t * h2, w2, h2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOX: [f64; 4] = [0.0, 0.0, 45.0, 45.0];

    #[test]
    fn the_box_is_the_view_box_less_the_margin() {
        let b = SafeBox::inside(BOX, 4.5);
        assert_eq!((b.x0, b.y0, b.x1, b.y1), (4.5, 4.5, 40.5, 40.5));
        let none = SafeBox::inside(BOX, 30.0);
        assert_eq!((none.x0, none.x1), (22.5, 22.5));
    }

    #[test]
    fn text_past_an_edge_moves_in_and_text_too_tall_is_said() {
        let b = SafeBox::inside(BOX, 4.5);
        assert_eq!(b.vertical_shift(10.0, 20.0), (0.0, true));
        assert_eq!(b.vertical_shift(35.0, 43.5), (-3.0, true));
        assert_eq!(b.vertical_shift(2.5, 8.0), (2.0, true));
        assert_eq!(b.vertical_shift(0.0, 44.0), (4.5, false));
    }

    #[test]
    fn a_slot_whose_ink_leaves_the_box_is_moved_and_shrunk() {
        let b = SafeBox::inside(BOX, 4.5);
        // Inside already: unchanged.
        let inside = [12.0, 10.0, 20.0, 12.0];
        assert_eq!(b.place_slot(inside, [0.02; 4]), inside);
        // Too high: moved down so that its ink starts at the box's top.
        let [x, y, w, h] = b.place_slot([12.0, 2.0, 20.0, 12.0], [0.0, 0.1, 0.0, 0.0]);
        assert_eq!((x, w, h), (12.0, 20.0, 12.0));
        assert!((y - 1.2 - 4.5).abs() < 1e-9, "{y}");
        // Too wide: shrunk to the box's width, centred where it was.
        let [x, _, w, h] = b.place_slot([0.0, 10.0, 45.0, 20.0], [0.0; 4]);
        assert!((w - 36.0).abs() < 1e-9 && (h - 16.0).abs() < 1e-9, "{w} {h}");
        assert!((x - 4.5).abs() < 1e-9, "{x}");
    }
}
