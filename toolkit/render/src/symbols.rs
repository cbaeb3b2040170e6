//! NATO-style unit symbols drawn inside the symbol frame of a counter.
//!
//! Coordinates are in counter units (a counter is 100 by 100); the frame is centred at
//! `(cx, cy)` with width `w` and height `h`.

use std::fmt::Write;

use crate::svg::n;

/// The frame symbols are designed in: width and height in counter units.
pub(crate) const FRAME: (f64, f64) = (44.0, 26.0);

/// Stroke of every line of a symbol.
const STROKE: &str =
    r##"stroke="#000000" stroke-width="1.6" fill="none" stroke-linecap="round""##;

/// How far the ink of symbol `id` reaches beyond its frame (left, top, right, bottom, in
/// the units of [`FRAME`]): half the frame's outline, and the wheels under the frame of
/// motorised symbols. The leader's star and `none` stay inside.
pub(crate) fn ink_margins(id: &str) -> [f64; 4] {
    const OUTLINE: f64 = 0.9;
    match id {
        "none" | "leader" => [0.0; 4],
        "motorized-infantry" | "motorized-engineer" => {
            [OUTLINE, OUTLINE, OUTLINE, WHEEL_DROP + WHEEL_R + 0.8]
        }
        _ => [OUTLINE; 4],
    }
}

/// The size of a symbol's letters (`HQ`, `MG`, `?`) as a share of the frame's height: 6
/// points in the 8-point frame of muster's unit template, as every printed word is.
const LEGIBLE: f64 = 0.78;

/// How far below the frame the wheels' centres are, and their radius.
const WHEEL_DROP: f64 = 3.2;
const WHEEL_R: f64 = 2.4;

/// Draws the symbol `id` in a frame; `unknown` draws a `?` in it (the counter's type is
/// not printed) and ids that draw nothing else draw the bare frame.
pub(crate) fn draw(out: &mut String, id: &str, cx: f64, cy: f64, w: f64, h: f64) {
    let mut p = Pen {
        out,
        frame: (cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0),
        centre: (cx, cy),
        size: (w, h),
    };
    match id {
        "none" => {}
        "leader" => p.star(),
        _ => {
            p.frame();
            p.inside(id);
        }
    }
}

/// Draws into `out` in one symbol frame.
struct Pen<'a> {
    out: &'a mut String,
    /// Left, top, right and bottom of the frame.
    frame: (f64, f64, f64, f64),
    /// The frame's centre.
    centre: (f64, f64),
    /// The frame's width and height.
    size: (f64, f64),
}

impl Pen<'_> {
    /// The symbol `id`'s drawing inside its frame.
    fn inside(&mut self, id: &str) {
        let (x0, _, x1, y1) = self.frame;
        let (cx, cy) = self.centre;
        let (w, h) = self.size;
        match id {
            "infantry" => self.cross(),
            "motorized-infantry" => {
                self.cross();
                self.wheels();
            }
            "armor" => self.oval(),
            "mechanized-infantry" => {
                self.cross();
                self.oval();
            }
            "reconnaissance" | "cavalry" => self.diagonal(),
            "horse-artillery" => {
                self.diagonal();
                self.dot(h * 0.16);
            }
            "armored-car" => {
                self.diagonal();
                self.oval();
            }
            "machine-gun" => {
                self.cross();
                self.text("MG", h * LEGIBLE);
            }
            "engineer" => self.engineer(),
            "motorized-engineer" => {
                self.engineer();
                self.wheels();
            }
            "assault-engineer" => {
                self.engineer();
                self.diagonal();
            }
            "commando" => {
                self.cross();
                self.text("C", h * LEGIBLE);
            }
            "artillery" => self.dot(h * 0.16),
            "coastal-artillery" => {
                self.dot(h * 0.14);
                let _ = write!(
                    self.out,
                    r#"<path d="M{} {} q{} {} {} 0 t{} 0" {STROKE}/>"#,
                    n(x0 + 3.0),
                    n(y1 - 4.0),
                    n(w * 0.1),
                    n(-4.0),
                    n(w * 0.2),
                    n(w * 0.2)
                );
            }
            "mountain-artillery" => {
                self.dot(h * 0.14);
                let _ = write!(
                    self.out,
                    r##"<polygon points="{},{} {},{} {},{}" fill="#000000"/>"##,
                    n(cx - 5.0),
                    n(y1),
                    n(cx),
                    n(y1 - 6.0),
                    n(cx + 5.0),
                    n(y1)
                );
            }
            "paratroop" => {
                self.cross();
                let _ = write!(
                    self.out,
                    r#"<path d="M{} {} a{} {} 0 0 1 {} 0" {STROKE}/>"#,
                    n(cx - 6.0),
                    n(y1 - 2.0),
                    n(6.0),
                    n(5.0),
                    n(12.0)
                );
            }
            "antitank" => self.antitank(),
            "tank-destroyer" => {
                self.antitank();
                self.oval();
            }
            "antiair" => {
                let _ = write!(
                    self.out,
                    r#"<path d="M{} {} a{} {} 0 0 1 {} 0" {STROKE}/>"#,
                    n(x0 + 3.0),
                    n(y1),
                    n(w / 2.0 - 3.0),
                    n(h * 0.7),
                    n(w - 6.0)
                );
            }
            "support-weapons" => {
                self.cross();
                self.text("W", h * LEGIBLE);
            }
            "headquarters" => self.text("HQ", h * LEGIBLE),
            "koruck" => {
                self.cross();
                self.text("K", h * LEGIBLE);
            }
            "marines" => {
                self.cross();
                self.text("M", h * LEGIBLE);
            }
            "supply" => self.line((x0, cy), (x1, cy)),
            "air" => {
                let _ = write!(
                    self.out,
                    r#"<path d="M{} {} c{} {} {} {} {} 0 c{} {} {} {} {} 0" {STROKE}/>"#,
                    n(cx - w * 0.3),
                    n(cy),
                    n(w * 0.1),
                    n(-h * 0.4),
                    n(w * 0.2),
                    n(-h * 0.4),
                    n(w * 0.3),
                    n(w * 0.1),
                    n(h * 0.4),
                    n(w * 0.2),
                    n(h * 0.4),
                    n(w * 0.3)
                );
            }
            "column" => self.text("Col", h * LEGIBLE),
            "unknown" => self.text("?", h * LEGIBLE),
            _ => {}
        }
    }

    /// The frame: a white rectangle.
    fn frame(&mut self) {
        let (x0, y0, _, _) = self.frame;
        let (w, h) = self.size;
        let _ = write!(
            self.out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#ffffff" stroke="#000000" stroke-width="1.8"/>"##,
            n(x0),
            n(y0),
            n(w),
            n(h)
        );
    }

    /// A line from `a` to `b`.
    fn line(&mut self, a: (f64, f64), b: (f64, f64)) {
        let _ = write!(
            self.out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {STROKE}/>"#,
            n(a.0),
            n(a.1),
            n(b.0),
            n(b.1)
        );
    }

    /// Both diagonals (infantry).
    fn cross(&mut self) {
        let (x0, y0, x1, y1) = self.frame;
        self.line((x0, y0), (x1, y1));
        self.line((x0, y1), (x1, y0));
    }

    /// The diagonal from lower left to upper right (reconnaissance, cavalry).
    fn diagonal(&mut self) {
        let (x0, y0, x1, y1) = self.frame;
        self.line((x0, y1), (x1, y0));
    }

    /// A track's oval (armour).
    fn oval(&mut self) {
        let (cx, cy) = self.centre;
        let (w, h) = self.size;
        let _ = write!(
            self.out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" {STROKE}/>"#,
            n(cx - w * 0.32),
            n(cy - h * 0.26),
            n(w * 0.64),
            n(h * 0.52),
            n(h * 0.26)
        );
    }

    /// A filled dot of radius `r` at the centre (artillery).
    fn dot(&mut self, r: f64) {
        let (cx, cy) = self.centre;
        let _ = write!(
            self.out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="#000000"/>"##,
            n(cx),
            n(cy),
            n(r)
        );
    }

    /// Two wheels under the frame (motorised).
    fn wheels(&mut self) {
        let (cx, _) = self.centre;
        let (w, _) = self.size;
        let y1 = self.frame.3;
        for dx in [-0.18, 0.18] {
            let _ = write!(
                self.out,
                r#"<circle cx="{}" cy="{}" r="{}" {STROKE}/>"#,
                n(cx + w * dx),
                n(y1 + WHEEL_DROP),
                n(WHEEL_R)
            );
        }
    }

    /// Bold text `t` of `size` at the centre.
    fn text(&mut self, t: &str, size: f64) {
        let (cx, cy) = self.centre;
        let _ = write!(
            self.out,
            r##"<text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="#000000">{t}</text>"##,
            n(cx),
            n(cy + size * 0.35),
            n(size)
        );
    }

    /// The engineers' bridge.
    fn engineer(&mut self) {
        let (cx, cy) = self.centre;
        let (w, h) = self.size;
        let (ex0, ex1, ey0, ey1) =
            (cx - w * 0.25, cx + w * 0.25, cy - h * 0.15, cy + h * 0.2);
        self.line((ex0, ey0), (ex1, ey0));
        self.line((ex0, ey0), (ex0, ey1));
        self.line((cx, ey0), (cx, ey1));
        self.line((ex1, ey0), (ex1, ey1));
    }

    /// An inverted V from the bottom corners to the top middle (antitank).
    fn antitank(&mut self) {
        let (x0, y0, x1, y1) = self.frame;
        let (cx, _) = self.centre;
        self.line((x0, y1), (cx, y0));
        self.line((cx, y0), (x1, y1));
    }

    /// A filled five-pointed star filling the frame's height (leader), with no frame.
    fn star(&mut self) {
        let (cx, cy) = self.centre;
        let r = self.size.1 * 0.5;
        let mut pts = String::new();
        for (k, (sx, sy)) in STAR.iter().enumerate() {
            let rr = if k % 2 == 0 { r } else { r * 0.42 };
            let _ = write!(pts, "{},{} ", n(cx + sx * rr), n(cy + sy * rr));
        }
        let _ = write!(
            self.out,
            r##"<polygon points="{}" fill="#000000"/>"##,
            pts.trim_end()
        );
    }
}

/// Unit vectors of a five-pointed star's ten vertices, clockwise from the top.
const STAR: [(f64, f64); 10] = [
    (0.0, -1.0),
    (0.587_785, -0.809_017),
    (0.951_057, -0.309_017),
    (0.951_057, 0.309_017),
    (0.587_785, 0.809_017),
    (0.0, 1.0),
    (-0.587_785, 0.809_017),
    (-0.951_057, 0.309_017),
    (-0.951_057, -0.309_017),
    (-0.587_785, -0.809_017),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(id: &str) -> String {
        let mut out = String::new();
        draw(&mut out, id, 0.0, 0.0, 44.0, 26.0);
        out
    }

    /// The reconnaissance diagonal of a 44 by 26 frame centred at the origin.
    const DIAGONAL: &str = r#"<line x1="-22.00" y1="13.00" x2="22.00" y2="-13.00""#;

    #[test]
    fn cavalry_is_the_single_diagonal_from_lower_left_to_upper_right() {
        let cavalry = drawn("cavalry");
        assert!(cavalry.starts_with("<rect"), "{cavalry}");
        assert_eq!(cavalry.matches("<line").count(), 1, "{cavalry}");
        assert!(cavalry.contains(DIAGONAL), "{cavalry}");
        assert_eq!(cavalry, drawn("reconnaissance"));
    }

    #[test]
    fn horse_artillery_is_the_artillery_dot_on_the_cavalry_diagonal() {
        let horse = drawn("horse-artillery");
        assert_eq!(horse.matches("<line").count(), 1, "{horse}");
        assert!(horse.contains(DIAGONAL), "{horse}");
        let dot = r##"<circle cx="0.00" cy="0.00" r="4.16" fill="#000000"/>"##;
        assert!(horse.contains(dot) && drawn("artillery").contains(dot), "{horse}");
    }
}
