//! SCS Gazala's sheets A and B, printed to be laid edge to edge (`joins`): laid so, A above
//! B, the grid runs across the join. Every hex the joining edge cuts is drawn on both
//! sheets, in the same place; no frame runs along the join and no strip is left blank.

#![allow(clippy::unwrap_used)]

#[path = "maps/svg_read.rs"]
#[allow(dead_code)]
mod svg_read;

use std::path::Path;

use muster_model::LoadOptions;
use muster_render::{MapScene, map_svg};
use svg_read::{Element, elements};

/// Pixels an inch in the scenes.
const PX: f64 = 96.0;

/// The grid's hexes of a scene: polygons outlined in the grid's stroke.
fn hexes(scene: &MapScene) -> Vec<Vec<(f64, f64)>> {
    elements(&scene.svg)
        .iter()
        .filter(|e| e.tag == "polygon" && e.get("stroke") == "#7d7566")
        .map(Element::points)
        .collect()
}

/// The hexes that cross the line `y`, moved down by `dy`.
fn across(hexes: &[Vec<(f64, f64)>], y: f64, dy: f64) -> Vec<Vec<(f64, f64)>> {
    hexes
        .iter()
        .filter(|h| h.iter().any(|p| p.1 < y - 0.5) && h.iter().any(|p| p.1 > y + 0.5))
        .map(|h| h.iter().map(|p| (p.0, p.1 + dy)).collect())
        .collect()
}

/// Whether `p` lies in the convex polygon `poly` (or on its outline).
fn inside(p: (f64, f64), poly: &[(f64, f64)]) -> bool {
    let sides = (0..poly.len()).map(|k| {
        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
        (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
    });
    let s: Vec<f64> = sides.collect();
    s.iter().all(|v| *v >= -1e-6) || s.iter().all(|v| *v <= 1e-6)
}

/// Whether two hexes are the same, to the hundredth of a pixel the SVG is written in.
fn same(a: &[(f64, f64)], b: &[(f64, f64)]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(p, q)| (p.0 - q.0).abs() < 0.02 && (p.1 - q.1).abs() < 0.02)
}

/// Frame lines of a scene (the frame's ink), as (x1, y1, x2, y2).
fn frame(scene: &MapScene) -> Vec<[f64; 4]> {
    elements(&scene.svg)
        .iter()
        .filter(|e| e.get("stroke") == "#2b2b2b" && e.in_group("legend").is_none())
        .filter_map(|e| match e.tag.as_str() {
            "line" => Some([e.num("x1"), e.num("y1"), e.num("x2"), e.num("y2")]),
            "rect" => Some([f64::NAN; 4]),
            _ => None,
        })
        .collect()
}

#[test]
fn scs_sheets_a_and_b_laid_edge_to_edge_continue_each_other() {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
    let loaded =
        muster_model::load(&sources, &["gazala-scs".into()], &LoadOptions::default());
    let game = loaded.games.iter().find(|g| g.id == "gazala-scs").unwrap();
    let index = |id: &str| game.maps.iter().position(|m| m.id.v == id).unwrap();
    let (a, b) = (map_svg(game, index("a")).unwrap(), map_svg(game, index("b")).unwrap());
    assert_eq!((a.width_in, a.height_in), (b.width_in, b.height_in));
    let (w, h) = (a.width_in * PX, a.height_in * PX);

    // No frame along the join: A's is open at its bottom, B's at its top.
    let near = |v: f64, to: f64| (v - to).abs() < 5.0;
    let (fa, fb) = (frame(&a), frame(&b));
    assert_eq!((fa.len(), fb.len()), (3, 3), "three sides framed: {fa:?} {fb:?}");
    assert!(!fa.iter().any(|l| near(l[1], h) && near(l[3], h)), "{fa:?}");
    assert!(!fb.iter().any(|l| near(l[1], 0.0) && near(l[3], 0.0)), "{fb:?}");

    // Every hex the join cuts is drawn on both sheets, where the other sheet draws it.
    let (ha, hb) = (hexes(&a), hexes(&b));
    let cut_a = across(&ha, h, -h);
    let cut_b = across(&hb, 0.0, 0.0);
    assert!(cut_a.len() > 40, "{} hexes cross the bottom of A", cut_a.len());
    assert_eq!(cut_a.len(), cut_b.len());
    for hex in &cut_a {
        assert!(cut_b.iter().any(|o| same(hex, o)), "{hex:?} of A is not continued on B");
    }

    // No blank strip: both sides of the join lie in hexes all along it, from the grid's
    // first column to its last (the outer edges keep their margins).
    let xs = || ha.iter().flatten().map(|p| p.0);
    let (left, right) = (xs().fold(f64::MAX, f64::min), xs().fold(f64::MIN, f64::max));
    let hex = 0.625 * PX;
    let (from, to) = (left + hex / 2.0, right - hex / 2.0);
    assert!(to - from > w * 0.9, "the grid spans the sheet: {from} to {to}");
    for k in 0..=(((to - from) / 4.0) as usize) {
        let x = from + k as f64 * 4.0;
        assert!(
            ha.iter().any(|p| inside((x, h - 0.5), p)),
            "A is blank at {x} by the join"
        );
        assert!(hb.iter().any(|p| inside((x, 0.5), p)), "B is blank at {x} by the join");
    }
}

/// Copies the folder `from` into `to`.
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn a_join_the_board_does_not_bear_out_is_a_warning_and_the_sheets_are_drawn_apart() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir =
        std::env::temp_dir().join(format!("muster-map-joins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy(&root.join("sources/gazala-scs"), &dir.join("gazala-scs"));
    // B lies below A, not to its left.
    let b = dir.join("gazala-scs/maps/b.yaml");
    let text = std::fs::read_to_string(&b).unwrap();
    let text =
        text.replace("joins: [{edge: top, map: a}]", "joins: [{edge: left, map: a}]");
    std::fs::write(&b, text).unwrap();
    let a = dir.join("gazala-scs/maps/a.yaml");
    let text = std::fs::read_to_string(&a).unwrap();
    let text: Vec<&str> =
        text.lines().filter(|l| !l.trim_start().starts_with("joins:")).collect();
    std::fs::write(&a, text.join("\n")).unwrap();
    let loaded = muster_model::load(&dir, &[], &LoadOptions::default());
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let apart: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.kind == Some(muster_model::FindingKind::MapJoinApart))
        .collect();
    assert_eq!(apart.len(), 1, "{:?}", loaded.diagnostics);
    assert!(apart[0].message.contains("left edge"), "{}", apart[0].message);
    let game = &loaded.games[0];
    for i in 0..2 {
        let scene = map_svg(game, i).unwrap();
        assert_eq!(frame(&scene).len(), 1, "framed all round, as one rectangle");
    }
}
