//! The publisher's own art in the example game: an HQ template, counter sides from a PNG
//! and an SVG, the 7th Brigade cut from a scanned sheet (a degree askew) with its backs from
//! the sheet's other side, and the map drawn over a painted image with its grid fitted to
//! three reference hexes. The module built from it puts every setup piece on its hex (the
//! VASSAL and pywargame tests of `modules.rs` cover every game, this one included).

use std::path::Path;

use muster_hex::Cell;
use muster_render::{Face, counter_svg, map};
use serde_json::Value;

use crate::util::{copy_tree, muster, rgba, root, seeds};

/// The example game built on its own (once), at a resolution its art can be compared at,
/// and the build's report.
fn built() -> &'static (tempfile::TempDir, Value) {
    static BUILT: std::sync::OnceLock<(tempfile::TempDir, Value)> =
        std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(
            &root().join("sources/example-oasis"),
            &dir.path().join("sources/example-oasis"),
        );
        let args =
            ["build", "--quiet", "--map-dpi", "40", "--dpi", "100", "--format", "json"];
        let out = muster(dir.path(), &args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report = serde_json::from_slice(&out.stdout).unwrap();
        (dir, report)
    })
}

/// The mean colour of a region (fractions of the image: x0, y0, x1, y1).
fn mean(img: &(u32, u32, Vec<u8>), r: (f64, f64, f64, f64)) -> [f64; 3] {
    let (w, h, px) = img;
    let (x0, x1) = ((r.0 * f64::from(*w)) as u32, (r.2 * f64::from(*w)) as u32);
    let (y0, y1) = ((r.1 * f64::from(*h)) as u32, (r.3 * f64::from(*h)) as u32);
    let mut sum = [0.0; 3];
    let mut n = 0.0;
    for y in y0..y1 {
        for x in x0..x1 {
            let i = ((y * w + x) * 4) as usize;
            for c in 0..3 {
                sum[c] += f64::from(px[i + c]);
            }
            n += 1.0;
        }
    }
    sum.map(|s| s / n)
}

fn close(a: [f64; 3], b: [f64; 3], within: f64) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= within)
}

#[test]
fn counter_sides_come_from_the_publishers_files_and_a_cut_sheet() {
    let (dir, report) = built();
    let dir = dir.path();
    let counters = dir.join("counters/example-oasis");
    let art = dir.join("sources/example-oasis/art");
    // 2/1 Arm Bn's front is its PNG: the middle of the counter is the PNG's middle.
    let face = rgba(&counters.join("1-bde-2-1-arm-bn-front.png"));
    let source = rgba(&art.join("2-1-arm-bn-front.png"));
    let centre = (0.3, 0.3, 0.7, 0.7);
    assert!(close(mean(&face, centre), mean(&source, centre), 12.0));
    // Its back is drawn.
    let loaded = seeds();
    let oasis = loaded.games.iter().find(|g| g.id == "example-oasis").unwrap();
    let arm = oasis.units.iter().find(|u| u.id == "1-bde-2-1-arm-bn").unwrap();
    assert!(arm.art[0].is_some() && arm.art[1].is_none());

    // The 7th Brigade is cut from the sheet: 1/7 Inf Bn's front is the sheet's second cell,
    // its back the back sheet's second cell counted from the right.
    let sheet = rgba(&art.join("7-bde-fronts.png"));
    let cell = |col: f64| {
        let (w, h) = (f64::from(sheet.0), f64::from(sheet.1));
        let x = 20.0 + col * 112.0;
        ((x + 25.0) / w, (24.0 + 60.0) / h, (x + 75.0) / w, (24.0 + 95.0) / h)
    };
    let front = rgba(&counters.join("7-bde-1-7-inf-bn-front.png"));
    let drawn_band = (0.25, 0.6, 0.75, 0.95);
    assert!(close(mean(&front, drawn_band), mean(&sheet, cell(1.0)), 25.0));
    let fronts: Vec<[f64; 3]> =
        ["7-bde-7-bde-hq", "7-bde-1-7-inf-bn", "7-bde-2-7-inf-bn"]
            .iter()
            .map(|id| {
                mean(
                    &rgba(&counters.join(format!("{id}-front.png"))),
                    (0.0, 0.0, 1.0, 1.0),
                )
            })
            .collect();
    let backs: Vec<[f64; 3]> = ["7-bde-7-bde-hq", "7-bde-1-7-inf-bn"]
        .iter()
        .map(|id| {
            mean(&rgba(&counters.join(format!("{id}-back.png"))), (0.0, 0.0, 1.0, 1.0))
        })
        .collect();
    // The backs are the sheet's lighter backs, not the fronts again.
    for (f, b) in fronts.iter().zip(&backs) {
        assert!(b[0] > f[0] + 20.0, "{f:?} {b:?}");
    }

    // The cut preview outlines every face cut from each sheet.
    let game = &report["games"][0];
    let previews: Vec<&str> = game["counters"]["cut_previews"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(previews.len(), 2, "{previews:?}");
    for p in &previews {
        assert!(dir.join(p).is_file() || Path::new(p).is_file(), "{p}");
    }
    let previews = muster_render::cuts::cut_previews(oasis);
    let faces: Vec<Vec<(String, &str)>> =
        previews.iter().map(|p| p.faces.clone()).collect();
    assert_eq!(
        faces,
        [
            vec![("7-bde-7-bde-hq".into(), "back"), ("7-bde-1-7-inf-bn".into(), "back")],
            vec![
                ("7-bde-7-bde-hq".into(), "front"),
                ("7-bde-1-7-inf-bn".into(), "front"),
                ("7-bde-2-7-inf-bn".into(), "front")
            ],
        ]
    );
    assert!(previews.iter().all(|p| p.svg.matches("<polygon").count() == p.faces.len()));

    // The HQs are drawn from the game's template: its movement disc, its name on top.
    let hq = oasis.units.iter().find(|u| u.id == "1-bde-1-bde-hq").unwrap();
    let (svg, _) = counter_svg(oasis, hq, Face::Front, 0.625);
    assert!(svg.contains(r#"r="7""#) && svg.contains("1 Bde"), "{svg}");
    let inf = oasis.units.iter().find(|u| u.id == "1-bde-1-1-inf-bn").unwrap();
    let (svg, _) = counter_svg(oasis, inf, Face::Back, 0.625);
    assert!(!svg.contains(r#"r="7""#), "other counters keep muster's own template");
}

#[test]
fn the_map_is_drawn_over_the_painting_on_the_grid_fitted_to_its_reference_hexes() {
    let loaded = seeds();
    let oasis = loaded.games.iter().find(|g| g.id == "example-oasis").unwrap();
    let scene = map::map_svg(oasis, 0).unwrap();
    // The sheet is the painting's size (1400 by 850 pixels at 100 dpi) ...
    assert_eq!((scene.width_in, scene.height_in), (14.0, 8.5));
    assert!(scene.svg.contains("data:image/png;base64,"));
    // ... and every reference hex's centre is where the painting puts it, within half a
    // pixel, at the painting's resolution.
    let board = oasis.board.as_ref().unwrap();
    let image = oasis.maps[0].image.as_ref().unwrap();
    assert_eq!(image.hexes.len(), 3);
    for r in &image.hexes {
        let cell: Cell = board.parse(&r.hex.v).unwrap();
        let (x, y) = scene.layout.centre_px(cell, 100.0);
        let [px, py] = r.at.v;
        assert!((x - px).abs() < 0.5 && (y - py).abs() < 0.5, "{}: {x},{y}", r.hex.v);
    }
    // The build reports the fit.
    let (dir, report) = built();
    let dir = dir.path();
    let fit =
        report["games"][0]["map_images"][0]["grid_fit_px"].as_array().unwrap().clone();
    assert_eq!(fit.len(), 3);
    assert!(fit.iter().all(|d| d.as_f64().unwrap() < 0.5), "{fit:?}");
    // (The same settings: up to date, nothing rewritten.)
    let text = muster(dir, &["build", "--map-dpi", "40", "--dpi", "100"]);
    assert!(
        String::from_utf8_lossy(&text.stderr)
            .contains("grid fitted to the painting within"),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
}
