//! The names a map prints (places, bridges, boxes, entry areas): each set on a small opaque
//! plate, as printed maps set them, so that no hex outline runs through the letters, and
//! placed near its hex where the plate covers no hex number and no other name.
//!
//! Lengths are SVG user units (CSS pixels), as in the map's scene.

use crate::metrics::{Weight, line_extent, text_width};
use crate::svg::{Svg, n};

/// A box: left, top, right, bottom.
pub type Rect = [f64; 4];

/// Fill of the plates: the paper's colour.
pub(crate) const PLATE_FILL: &str = "#fbf8f0";
/// The class of the group holding a name and its plate.
pub const LABEL_CLASS: &str = "map-label";
/// The class of a hex number's text.
pub const NUMBER_CLASS: &str = "hex-number";
/// Size of a name, as a share of the hex size.
const SIZE: f64 = 0.15;
/// Where a name's baseline may go, below its hex's centre as a share of the hex size, in
/// the order tried: low in the hex, between the rows of numbers of the hex and its
/// neighbours, then further out.
const DOWN: [f64; 8] = [0.38, 0.44, 0.0, 0.06, 0.88, 0.94, -0.5, -0.56];
/// Shifts along the row tried at each height, as a share of the hex size.
const ACROSS: [f64; 5] = [0.0, -0.25, 0.25, -0.5, 0.5];

/// The box `text` covers when drawn at `at` (its anchor on the baseline) at `size` in
/// `weight`, anchored `start`, `middle` or `end`: as wide as the shipped font sets it,
/// from its ascent above the baseline to its descent below.
pub fn text_box(
    at: (f64, f64),
    size: f64,
    anchor: &str,
    weight: Weight,
    text: &str,
) -> Rect {
    let w = text_width(text, size, weight);
    let x0 = match anchor {
        "middle" => at.0 - w / 2.0,
        "end" => at.0 - w,
        _ => at.0,
    };
    let (up, down) = line_extent(size, weight);
    [x0, at.1 - up, x0 + w, at.1 + down]
}

/// Whether two boxes share any area.
pub fn overlap(a: Rect, b: Rect) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// A name waiting to be placed: its text, in `colour`, for the hex centred at `centre`
/// that measures `hex_px` across its flats.
struct Name {
    text: String,
    centre: (f64, f64),
    hex_px: f64,
    colour: String,
}

/// The names of a map sheet, gathered while its features are drawn and set after its hex
/// numbers, clear of what they must not cover.
pub(crate) struct Labels {
    names: Vec<Name>,
    /// Boxes no plate may cover: hex numbers, marks with text, names already placed.
    taken: Vec<Rect>,
    /// The paper: width and height.
    paper: (f64, f64),
}

impl Labels {
    /// No names yet, on a sheet of `paper` (width, height).
    pub fn new(paper: (f64, f64)) -> Self {
        Labels { names: Vec::new(), taken: Vec::new(), paper }
    }

    /// Adds a name to set near the hex centred at `centre`.
    pub fn add(&mut self, text: &str, centre: (f64, f64), hex_px: f64, colour: &str) {
        self.names.push(Name {
            text: text.to_string(),
            centre,
            hex_px,
            colour: colour.to_string(),
        });
    }

    /// Keeps every plate off `boxes`.
    pub fn keep_clear(&mut self, boxes: impl IntoIterator<Item = Rect>) {
        self.taken.extend(boxes);
    }

    /// Draws every name on its plate, in the order added, each at the first place near
    /// its hex where the plate lies on the paper and covers nothing kept clear (else at
    /// the first place tried).
    pub fn draw(mut self, svg: &mut Svg) {
        for name in std::mem::take(&mut self.names) {
            let size = name.hex_px * SIZE;
            let (pad_x, pad_y) = (size * 0.25, size * 0.12);
            let places: Vec<((f64, f64), Rect)> = DOWN
                .iter()
                .flat_map(|dy| ACROSS.iter().map(move |dx| (*dx, *dy)))
                .map(|(dx, dy)| {
                    let at = (
                        name.centre.0 + dx * name.hex_px,
                        name.centre.1 + dy * name.hex_px,
                    );
                    let b = text_box(at, size, "middle", Weight::Bold, &name.text);
                    let plate = [b[0] - pad_x, b[1] - pad_y, b[2] + pad_x, b[3] + pad_y];
                    self.onto_paper(at, plate)
                })
                .collect();
            let Some(&(at, plate)) = places
                .iter()
                .find(|(_, p)| !self.taken.iter().any(|t| overlap(*p, *t)))
                .or(places.first())
            else {
                continue;
            };
            svg.open("g", &format!(r#"class="{LABEL_CLASS}""#));
            svg.rect(
                plate[0],
                plate[1],
                plate[2] - plate[0],
                plate[3] - plate[1],
                &format!(r#"fill="{PLATE_FILL}" stroke="none""#),
            );
            svg.text(
                at,
                size,
                "middle",
                &format!(r#"font-weight="bold" fill="{}""#, name.colour),
                &name.text,
            );
            svg.close("g");
            self.taken.push(plate);
        }
    }

    /// `at` and `plate` moved across, and up or down, so that the plate lies on the paper
    /// where it fits.
    fn onto_paper(&self, at: (f64, f64), plate: Rect) -> ((f64, f64), Rect) {
        let shift = |lo: f64, hi: f64, room: f64| {
            if lo < 0.0 {
                -lo
            } else if hi > room {
                (room - hi).max(-lo)
            } else {
                0.0
            }
        };
        let dx = shift(plate[0], plate[2], self.paper.0);
        let dy = shift(plate[1], plate[3], self.paper.1);
        (
            (at.0 + dx, at.1 + dy),
            [plate[0] + dx, plate[1] + dy, plate[2] + dx, plate[3] + dy],
        )
    }
}

/// The attributes of a hex number's text: its class and weight, and, when `halo` names
/// the fill of its hex, a halo of that fill drawn under the digits so that no feature's
/// line runs through them.
pub(crate) fn number_style(weight: &str, size: f64, halo: Option<&str>) -> String {
    let halo = halo.map_or(String::new(), |fill| {
        format!(
            r#" stroke="{fill}" stroke-width="{}" stroke-linejoin="round" paint-order="stroke""#,
            n(size * 0.3)
        )
    });
    format!(r##"class="{NUMBER_CLASS}" font-weight="{weight}" fill="#4a4438"{halo}"##)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_moves_off_a_number_and_onto_the_paper() {
        let mut labels = Labels::new((400.0, 300.0));
        // A number right under the first place tried.
        let first = text_box((200.0, 100.0 + 38.0), 15.0, "middle", Weight::Bold, "Bir");
        labels.keep_clear([first]);
        labels.add("Bir", (200.0, 100.0), 100.0, "#000000");
        // Beside the right edge of the paper.
        labels.add("A long name by the edge", (395.0, 100.0), 100.0, "#000000");
        let mut svg = Svg { out: String::new() };
        labels.draw(&mut svg);
        let rects: Vec<Rect> = svg
            .out
            .split("<rect")
            .skip(1)
            .map(|r| {
                let v = |k: &str| crate::test_svg::attr(r, k);
                [v("x"), v("y"), v("x") + v("width"), v("y") + v("height")]
            })
            .collect();
        assert_eq!(rects.len(), 2, "{}", svg.out);
        assert!(!overlap(rects[0], first), "{rects:?}");
        assert!(rects[1][0] >= 0.0 && rects[1][2] <= 400.0, "{rects:?}");
        assert!(!overlap(rects[0], rects[1]));
        assert_eq!(svg.out.matches(r#"class="map-label""#).count(), 2);
    }
}
