//! Every name on every map of every game (the seeds in `sources/` and the corpus in
//! `tests/games/`), measured in the SVG drawn: no name covers a hex number, and a hex
//! outline crosses a name only where the name's plate, drawn over the outline, hides it.

#![allow(clippy::unwrap_used)]

#[path = "maps/svg_read.rs"]
mod svg_read;

use std::path::Path;

use muster_model::{Game, LoadOptions};
use muster_render::map_labels::{NUMBER_CLASS, Rect, overlap, text_box};
use muster_render::map_svg;
use muster_render::metrics::Weight;
use svg_read::{Element, elements};

/// Every game of the seeds and the corpus, each with its painted maps and drawn whole.
fn games() -> Vec<Game> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in ["sources", "tests/games"] {
        let loaded = muster_model::load(&root.join(dir), &[], &LoadOptions::default());
        assert!(!loaded.has_errors(), "{dir} loads");
        assert!(!loaded.games.is_empty(), "{dir} holds games");
        for game in loaded.games {
            if game.map_art.iter().any(Option::is_some) {
                let mut whole = game.clone();
                whole.map_art.clear();
                out.push(whole);
            }
            out.push(game);
        }
    }
    out
}

/// The box of a `text` element, as the shipped font sets it.
fn box_of(t: &Element) -> Rect {
    text_box(
        (t.num("x"), t.num("y")),
        t.num("font-size"),
        t.get("text-anchor"),
        Weight::from_css(t.get("font-weight")),
        &t.text,
    )
}

/// Whether the segment from `a` to `b` runs through the inside of `r`.
fn crosses(a: (f64, f64), b: (f64, f64), r: Rect) -> bool {
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    let d = (b.0 - a.0, b.1 - a.1);
    for (p, q) in
        [(-d.0, a.0 - r[0]), (d.0, r[2] - a.0), (-d.1, a.1 - r[1]), (d.1, r[3] - a.1)]
    {
        if p == 0.0 {
            if q <= 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 { t0 = t0.max(t) } else { t1 = t1.min(t) }
        }
    }
    t0 < t1
}

/// The box of a `rect` element.
fn rect_of(e: &Element) -> Rect {
    let (x, y) = (e.num("x"), e.num("y"));
    [x, y, x + e.num("width"), y + e.num("height")]
}

#[test]
fn no_name_covers_a_hex_number_or_lies_under_an_outline_its_plate_does_not_hide() {
    let mut names = Vec::new();
    let mut hidden_crossings = 0;
    for game in games() {
        for (i, map) in game.maps.iter().enumerate() {
            let Some(scene) = map_svg(&game, i) else { continue };
            let what = format!("{} map {}", game.id, map.id.v);
            let all = elements(&scene.svg);
            let texts =
                all.iter().filter(|e| e.tag == "text" && e.in_group("legend").is_none());
            let (numbers, labels): (Vec<&Element>, Vec<&Element>) =
                texts.partition(|t| t.get("class") == NUMBER_CLASS);
            let number_boxes: Vec<Rect> = numbers.iter().map(|t| box_of(t)).collect();
            // The outlines: every polygon's sides.
            let outlines: Vec<&Element> =
                all.iter().filter(|e| e.tag == "polygon").collect();
            for label in labels {
                let b = box_of(label);
                let plate = label.in_group("map-label").and_then(|g| {
                    all.iter()
                        .find(|e| e.tag == "rect" && e.in_group("map-label") == Some(g))
                });
                if let Some(p) = plate {
                    let r = rect_of(p);
                    assert!(
                        r[0] <= b[0] && r[1] <= b[1] && b[2] <= r[2] && b[3] <= r[3],
                        "{what}: the plate of {:?} holds it",
                        label.text
                    );
                    assert!(!p.get("fill").is_empty() && p.get("fill") != "none");
                    assert!(
                        p.get("fill-opacity").is_empty() && p.get("opacity").is_empty()
                    );
                }
                let cover = plate.map_or(b, rect_of);
                for nb in &number_boxes {
                    assert!(
                        !overlap(cover, *nb),
                        "{what}: {:?} covers a hex number",
                        label.text
                    );
                }
                for o in &outlines {
                    let pts = o.points();
                    let crossed = (0..pts.len())
                        .any(|k| crosses(pts[k], pts[(k + 1) % pts.len()], b));
                    let hidden = plate.is_some_and(|p| p.index > o.index);
                    hidden_crossings += usize::from(crossed && hidden);
                    assert!(
                        !crossed || hidden,
                        "{what}: an outline crosses {:?} at {b:?}: {:?}",
                        label.text,
                        o.get("points")
                    );
                }
                names.push(label.text.clone());
            }
        }
    }
    // Names wider than their hex: the plates hide the outlines they cross.
    assert!(hidden_crossings > 10, "{hidden_crossings} outlines cross names");
    for name in ["Bir Hacheim", "El Alamein", "Tobruk", "New Bridge"] {
        assert!(names.iter().any(|n| n == name), "{name} is on a map: {names:?}");
    }
}
