//! NATO-style unit symbols drawn inside the symbol frame of a counter.
//!
//! Coordinates are in counter units (a counter is 100 by 100); the frame is centred at
//! `(cx, cy)` with width `w` and height `h`.

use std::fmt::Write;

use crate::svg::n;

/// The frame symbols are designed in: width and height in counter units.
pub(crate) const FRAME: (f64, f64) = (44.0, 26.0);

/// Draws the symbol `id` in a frame; `unknown` draws a `?` in it (the counter's type is
/// not printed) and ids that draw nothing else draw the bare frame.
pub(crate) fn draw(out: &mut String, id: &str, cx: f64, cy: f64, w: f64, h: f64) {
    let (x0, y0, x1, y1) = (cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0);
    let s = r##"stroke="#000000" stroke-width="1.6" fill="none" stroke-linecap="round""##;
    let frame = |out: &mut String| {
        let _ = write!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#ffffff" stroke="#000000" stroke-width="1.8"/>"##,
            n(x0),
            n(y0),
            n(w),
            n(h)
        );
    };
    let line = |out: &mut String, a: (f64, f64), b: (f64, f64)| {
        let _ = write!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {s}/>"#,
            n(a.0),
            n(a.1),
            n(b.0),
            n(b.1)
        );
    };
    let cross = |out: &mut String| {
        line(out, (x0, y0), (x1, y1));
        line(out, (x0, y1), (x1, y0));
    };
    let oval = |out: &mut String| {
        let _ = write!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" {s}/>"#,
            n(cx - w * 0.32),
            n(cy - h * 0.26),
            n(w * 0.64),
            n(h * 0.52),
            n(h * 0.26)
        );
    };
    let dot = |out: &mut String, r: f64| {
        let _ = write!(
            out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="#000000"/>"##,
            n(cx),
            n(cy),
            n(r)
        );
    };
    let wheels = |out: &mut String| {
        for dx in [-0.18, 0.18] {
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}" {s}/>"#,
                n(cx + w * dx),
                n(y1 + 3.2),
                n(2.4)
            );
        }
    };
    let text = |out: &mut String, t: &str, size: f64| {
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="#000000">{t}</text>"##,
            n(cx),
            n(cy + size * 0.35),
            n(size)
        );
    };
    let engineer = |out: &mut String| {
        let (ex0, ex1, ey0, ey1) =
            (cx - w * 0.25, cx + w * 0.25, cy - h * 0.15, cy + h * 0.2);
        line(out, (ex0, ey0), (ex1, ey0));
        line(out, (ex0, ey0), (ex0, ey1));
        line(out, (cx, ey0), (cx, ey1));
        line(out, (ex1, ey0), (ex1, ey1));
    };
    let antitank = |out: &mut String| {
        line(out, (x0, y1), (cx, y0));
        line(out, (cx, y0), (x1, y1));
    };
    match id {
        "none" => {}
        "leader" => {
            let r = h * 0.5;
            let mut pts = String::new();
            for (k, (sx, sy)) in STAR.iter().enumerate() {
                let rr = if k % 2 == 0 { r } else { r * 0.42 };
                let _ = write!(pts, "{},{} ", n(cx + sx * rr), n(cy + sy * rr));
            }
            let _ =
                write!(out, r##"<polygon points="{}" fill="#000000"/>"##, pts.trim_end());
        }
        _ => {
            frame(out);
            match id {
                "infantry" => cross(out),
                "motorized-infantry" => {
                    cross(out);
                    wheels(out);
                }
                "armor" => oval(out),
                "mechanized-infantry" => {
                    cross(out);
                    oval(out);
                }
                "reconnaissance" => line(out, (x0, y1), (x1, y0)),
                "armored-car" => {
                    line(out, (x0, y1), (x1, y0));
                    oval(out);
                }
                "machine-gun" => {
                    cross(out);
                    text(out, "MG", h * 0.52);
                }
                "engineer" => engineer(out),
                "motorized-engineer" => {
                    engineer(out);
                    wheels(out);
                }
                "assault-engineer" => {
                    engineer(out);
                    line(out, (x0, y1), (x1, y0));
                }
                "commando" => {
                    cross(out);
                    text(out, "C", h * 0.55);
                }
                "artillery" => dot(out, h * 0.16),
                "coastal-artillery" => {
                    dot(out, h * 0.14);
                    let _ = write!(
                        out,
                        r#"<path d="M{} {} q{} {} {} 0 t{} 0" {s}/>"#,
                        n(x0 + 3.0),
                        n(y1 - 4.0),
                        n(w * 0.1),
                        n(-4.0),
                        n(w * 0.2),
                        n(w * 0.2)
                    );
                }
                "mountain-artillery" => {
                    dot(out, h * 0.14);
                    let _ = write!(
                        out,
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
                    cross(out);
                    let _ = write!(
                        out,
                        r#"<path d="M{} {} a{} {} 0 0 1 {} 0" {s}/>"#,
                        n(cx - 6.0),
                        n(y1 - 2.0),
                        n(6.0),
                        n(5.0),
                        n(12.0)
                    );
                }
                "antitank" => antitank(out),
                "tank-destroyer" => {
                    antitank(out);
                    oval(out);
                }
                "antiair" => {
                    let _ = write!(
                        out,
                        r#"<path d="M{} {} a{} {} 0 0 1 {} 0" {s}/>"#,
                        n(x0 + 3.0),
                        n(y1),
                        n(w / 2.0 - 3.0),
                        n(h * 0.7),
                        n(w - 6.0)
                    );
                }
                "support-weapons" => {
                    cross(out);
                    text(out, "W", h * 0.52);
                }
                "headquarters" => text(out, "HQ", h * 0.55),
                "koruck" => {
                    cross(out);
                    text(out, "K", h * 0.52);
                }
                "marines" => {
                    cross(out);
                    text(out, "M", h * 0.52);
                }
                "supply" => line(out, (x0, cy), (x1, cy)),
                "air" => {
                    let _ = write!(
                        out,
                        r#"<path d="M{} {} c{} {} {} {} {} 0 c{} {} {} {} {} 0" {s}/>"#,
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
                "column" => text(out, "Col", h * 0.55),
                "unknown" => text(out, "?", h * 0.6),
                _ => {}
            }
        }
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
