//! The die line: the cut path of every counter on a page, stroked in the `CutContour` spot
//! colour that cutting plotters and die makers read, overprinting (so it never knocks out
//! the art under it), a quarter point wide, in an optional content group (a layer) of its
//! own named `CutContour`.
//!
//! [`cut_lines`] is geometry (inches from the page's top-left corner); [`content`] draws
//! it as PDF page content, and [`crate::sheet::join_pdf`] adds that to the page with the
//! colour space, graphics state and layer it names.

use std::fmt::Write;

use crate::counter::Face;
use crate::sheet::{Page, SheetOptions};

/// The spot colour's name, the name of the layer, and the name every page resource of the
/// die line goes by.
pub use crate::pdf_join::die_lines::SPOT;

/// Width of the die line, in points.
pub const WIDTH_PT: f64 = 0.25;

/// A straight cut from one point to another, inches from the page's top-left corner.
pub type Cut = ((f64, f64), (f64, f64));

/// The cut lines of a page: each side of every front's cut square, once (counters that
/// share cut lines share their sides). A sheet is cut from its fronts: pages of backs have
/// none, and a folded page has the cut lines of its fronts' half.
pub fn cut_lines(page: &Page, o: &SheetOptions) -> Vec<Cut> {
    // In millionths of an inch, so that sides that meet compare equal.
    let key = |v: f64| (v * 1e6).round() as i64;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    let c = o.counter_in;
    for s in page.slots.iter().filter(|s| s.face == Face::Front) {
        let (x0, y0, x1, y1) = (s.x, s.y, s.x + c, s.y + c);
        for cut in [
            ((x0, y0), (x1, y0)),
            ((x1, y0), (x1, y1)),
            ((x0, y1), (x1, y1)),
            ((x0, y0), (x0, y1)),
        ] {
            let ((ax, ay), (bx, by)) = cut;
            if seen.insert((key(ax), key(ay), key(bx), key(by))) {
                out.push(cut);
            }
        }
    }
    out
}

/// The page content that strokes `cuts` on a page `page_h_in` inches tall, in PDF's own
/// coordinates (points from the bottom-left corner), in the layer, colour and graphics
/// state named [`SPOT`] in the page's resources. Empty when there is no cut.
pub fn content(cuts: &[Cut], page_h_in: f64) -> String {
    if cuts.is_empty() {
        return String::new();
    }
    let pt = |(x, y): (f64, f64)| (x * 72.0, (page_h_in - y) * 72.0);
    let mut s = format!(
        "/OC /{SPOT} BDC\nq\n/{SPOT} gs\n/{SPOT} CS\n1 SCN\n{WIDTH_PT} w\n0 J\n0 j\n"
    );
    for &(a, b) in cuts {
        let ((ax, ay), (bx, by)) = (pt(a), pt(b));
        let _ = writeln!(s, "{ax:.3} {ay:.3} m {bx:.3} {by:.3} l");
    }
    s.push_str("S\nQ\nEMC\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{PageKind, layout};

    #[test]
    fn every_counter_side_is_cut_once_and_backs_not_at_all() {
        for shared_cuts in [false, true] {
            let o = SheetOptions { shared_cuts, ..Default::default() };
            let pages = layout(&[2; 6], &o).unwrap();
            let fronts = cut_lines(&pages[0], &o);
            assert!(cut_lines(&pages[1], &o).is_empty());
            // Six counters in one row: four sides each, less the five sides shared.
            assert_eq!(pages[0].slots.len(), 6);
            assert_eq!(fronts.len(), if shared_cuts { 24 - 5 } else { 24 });
            let folded = SheetOptions { fold: true, ..o.clone() };
            let page = &layout(&[2; 6], &folded).unwrap()[0];
            assert_eq!(page.slots.len(), 12);
            let fronts_only = Page {
                kind: PageKind::Folded,
                slots: page
                    .slots
                    .iter()
                    .filter(|s| s.face == Face::Front)
                    .copied()
                    .collect(),
            };
            let cuts = cut_lines(page, &folded);
            assert_eq!(fronts_only.slots.len(), 6);
            assert_eq!(cuts, cut_lines(&fronts_only, &folded));
            assert!(cuts.iter().all(|((ax, _), (bx, _))| ax.max(*bx) <= 8.5 / 2.0));
            for ((ax, ay), (bx, by)) in &fronts {
                let len = (bx - ax).hypot(by - ay);
                assert!((len - o.counter_in).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_content_strokes_in_the_spot_colour_in_its_layer() {
        let c = content(&[((1.0, 1.0), (2.0, 1.0))], 11.0);
        assert!(c.starts_with("/OC /CutContour BDC\n"));
        assert!(c.contains("/CutContour CS\n1 SCN\n0.25 w"));
        assert!(c.contains("72.000 720.000 m 144.000 720.000 l"));
        assert!(c.ends_with("S\nQ\nEMC\n"));
        assert!(content(&[], 11.0).is_empty());
    }
}
