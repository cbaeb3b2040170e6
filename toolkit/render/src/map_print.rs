//! Map sheets for the print shop: each sheet on a page of its trim size plus bleed, its
//! paper and art running on into the bleed, written as PDF/X-4 the way the counter sheets
//! are ([`crate::sheet::page_pdf`], [`crate::sheet::join_pdf`]).
//!
//! A sheet muster draws runs its paper and frame on past its edge ([`crate::map`]); a
//! sheet drawn over a painted image has that image mirrored across each edge and corner
//! into the bleed, so the art meets itself at the trim line without a seam.

use std::fmt::Write;

use crate::map::MapScene;
pub use crate::map::{ART_ID, MAX_BLEED_IN};
use crate::sheet::{DocInfo, PrintBoxes, Rect};
use crate::svg::n;

/// Pixels per inch of SVG user units (CSS pixels).
const PX: f64 = 96.0;

/// `bleed_in` as a map's print page takes it: from 0 to [`MAX_BLEED_IN`] (0 when it is not
/// a number).
pub fn map_bleed(bleed_in: f64) -> f64 {
    if bleed_in.is_nan() { 0.0 } else { bleed_in.clamp(0.0, MAX_BLEED_IN) }
}

/// The page size (width, height) of a map's print page and its boxes: the trim the
/// sheet, the bleed (and the page) the trim grown by `bleed_in` ([`map_bleed`]).
pub fn print_page(scene: &MapScene, bleed_in: f64) -> ((f64, f64), PrintBoxes) {
    let b = map_bleed(bleed_in);
    let page = (scene.width_in + 2.0 * b, scene.height_in + 2.0 * b);
    let trim = Rect { x0: b, y0: b, x1: b + scene.width_in, y1: b + scene.height_in };
    (page, PrintBoxes { trim, bleed: PrintBoxes::whole(page).bleed })
}

/// The SVG of a map's print page: the sheet's drawing seen through a window grown by the
/// bleed on every side, over a painted image's mirrored copies.
pub fn print_svg(scene: &MapScene, bleed_in: f64) -> String {
    let b = map_bleed(bleed_in);
    let (page, _) = print_page(scene, b);
    let (w, h) = (scene.width_in * PX, scene.height_in * PX);
    // What the scene draws, after its root element's opening tag (which holds no `>`
    // before its end) and up to the closing tag this page's root shares.
    let body = scene.svg.split_once('>').map_or("</svg>\n", |(_, body)| body);
    let mut s = String::with_capacity(scene.svg.len() + 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}in" height="{}in" viewBox="{} {} {} {}" font-family="{}">"#,
        n(page.0),
        n(page.1),
        n(-b * PX),
        n(-b * PX),
        n(page.0 * PX),
        n(page.1 * PX),
        crate::fonts::FAMILY,
    );
    if scene.painted && b > 0.0 {
        // The image reflected across each edge and corner: x → -x or 2w - x, y alike.
        for (sx, tx) in [(-1.0, 0.0), (1.0, 0.0), (-1.0, 2.0 * w)] {
            for (sy, ty) in [(-1.0, 0.0), (1.0, 0.0), (-1.0, 2.0 * h)] {
                if sx > 0.0 && sy > 0.0 {
                    continue;
                }
                let _ = write!(
                    s,
                    r##"<use href="#{ART_ID}" transform="matrix({} 0 0 {} {} {})"/>"##,
                    n(sx),
                    n(sy),
                    n(tx),
                    n(ty)
                );
            }
        }
    }
    s.push_str(body);
    s
}

/// A map sheet as a one-page PDF/X-4 document: vector where the map is vector, fonts
/// embedded, the page the sheet plus `bleed_in` on every side, its TrimBox the sheet and
/// its BleedBox the page; dated as `info` says, so the same map gives the same bytes.
pub fn map_pdf(
    scene: &MapScene,
    bleed_in: f64,
    info: &DocInfo,
) -> Result<Vec<u8>, String> {
    let (page, boxes) = print_page(scene, bleed_in);
    let one = crate::sheet::page_pdf(&print_svg(scene, bleed_in), page, &boxes)?;
    crate::sheet::join_pdf(&[one], info, &[])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::Path;

    use muster_model::{Game, LoadOptions, Sources, load_game};

    use super::*;
    use crate::raster::render_rgb;

    /// The example game, its map painted, or drawn whole by muster.
    fn oasis(painted: bool) -> Game {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources/example-oasis");
        let mut game =
            load_game(&dir, &mut Sources::new(), &LoadOptions::default()).ok().unwrap().0;
        if !painted {
            game.map_art.clear();
        }
        game
    }

    /// The RGB pixel at (x, y) of an image `w` pixels wide.
    fn at(rgb: &[u8], w: u32, (x, y): (u32, u32)) -> [u8; 3] {
        let i = ((y * w + x) * 3) as usize;
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    }

    #[test]
    fn the_art_runs_into_the_bleed_and_the_sheet_is_drawn_as_it_is() {
        // At 16 dpi the example's 14 by 8.5 inch sheet is 224 by 136 pixels, 1/8 inch 2.
        for painted in [false, true] {
            let scene = crate::map_svg(&oasis(painted), 0).unwrap();
            assert_eq!(scene.painted, painted);
            let (page, boxes) = print_page(&scene, 0.125);
            assert_eq!(page, (14.25, 8.75));
            assert_eq!((boxes.trim.x0, boxes.trim.x1), (0.125, 14.125));
            let sheet = render_rgb(&scene.svg, 224, 136).unwrap();
            let print = render_rgb(&print_svg(&scene, 0.125), 228, 140).unwrap();
            // Every pixel of the bleed is art, not white paper.
            for x in 0..228 {
                for y in (0..2).chain(138..140) {
                    let p = at(&print, 228, (x, y));
                    assert!(
                        p.iter().any(|&c| c < 245),
                        "painted {painted}: {p:?} at {x},{y}"
                    );
                }
            }
            for y in 0..140 {
                for x in (0..2).chain(226..228) {
                    let p = at(&print, 228, (x, y));
                    assert!(
                        p.iter().any(|&c| c < 245),
                        "painted {painted}: {p:?} at {x},{y}"
                    );
                }
            }
            // Inside the trim (its outermost pixels aside, which a painted image's
            // smoothing blends with its mirror) the sheet is drawn as the PNG draws it.
            let mut differ = 0;
            for y in 1..135 {
                for x in 1..223 {
                    let (a, b) =
                        (at(&sheet, 224, (x, y)), at(&print, 228, (x + 2, y + 2)));
                    if a.iter().zip(&b).any(|(a, b)| a.abs_diff(*b) > 8) {
                        differ += 1;
                    }
                }
            }
            assert_eq!(differ, 0, "painted {painted}");
        }
    }

    #[test]
    fn the_bleed_is_kept_within_what_the_map_draws() {
        assert_eq!(map_bleed(f64::NAN), 0.0);
        assert_eq!(map_bleed(-1.0), 0.0);
        assert_eq!(map_bleed(2.0), MAX_BLEED_IN);
        assert_eq!(map_bleed(0.125), 0.125);
        let scene = crate::map_svg(&oasis(true), 0).unwrap();
        let svg = print_svg(&scene, 0.125);
        // Eight mirrored copies of the painting, which is embedded once.
        assert_eq!(svg.matches(&format!(r##"<use href="#{ART_ID}""##)).count(), 8);
        assert_eq!(svg.matches("data:image/").count(), 1);
        assert_eq!(
            print_svg(&scene, 0.0).matches("<use href=\"#muster-map-art\"").count(),
            0
        );
    }
}
