//! Map images: physical size honoured, numbering as printed, pixel maths consistent,
//! text drawn with the shipped fonts, byte-identical rebuilds.

use std::fs;

use muster_render::{map, raster};

use crate::util::{copy_tree, muster, root, seeds};

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[1..4], b"PNG");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}

#[test]
fn scs_maps_are_34_by_22_inches_at_any_dpi_and_rebuild_identically() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    for dpi in [20u32, 37] {
        let out = muster(
            tmp.path(),
            &[
                "build",
                "--quiet",
                "--map-dpi",
                &dpi.to_string(),
                "--dpi",
                "20",
                "--sheet-dpi",
                "10",
            ],
        );
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        for m in ["a", "b"] {
            let png =
                fs::read(tmp.path().join(format!("maps/gazala-scs/{m}.png"))).unwrap();
            assert_eq!(png_size(&png), (34 * dpi, 22 * dpi), "map {m} at {dpi} dpi");
            assert_eq!(
                crate::counters::png_dpi(&png),
                Some(dpi),
                "map {m} records {dpi} dpi"
            );
        }
    }
    let first = fs::read(tmp.path().join("maps/gazala-scs/a.png")).unwrap();
    let svg = fs::read(tmp.path().join("maps/gazala-scs/a.svg")).unwrap();
    let out = muster(
        tmp.path(),
        &["build", "--quiet", "--map-dpi", "37", "--dpi", "20", "--sheet-dpi", "10"],
    );
    assert!(out.status.success());
    assert_eq!(fs::read(tmp.path().join("maps/gazala-scs/a.png")).unwrap(), first);
    assert_eq!(fs::read(tmp.path().join("maps/gazala-scs/a.svg")).unwrap(), svg);
}

#[test]
fn scs_maps_print_numbers_on_every_fifth_row_as_0_4_1_1_says() {
    let loaded = seeds();
    let g = loaded.games.iter().find(|g| g.id == "gazala-scs").unwrap();
    let scene = map::map_svg(g, 0).unwrap();
    assert!(scene.svg.contains(">A29.15<"));
    assert!(scene.svg.contains(">A29.05<"));
    assert!(
        !scene.svg.contains(">A29.17<"),
        "0.4.1.1: not all hexes have printed numbers"
    );
    // The 15.5 British minefield hexes and the A28.05 erratum are drawn.
    assert_eq!(scene.unknown_terrain, 62 * 35);
}

#[test]
fn pixel_centre_to_label_to_pixel_centre_is_the_identity_on_every_seed_map() {
    let loaded = seeds();
    let mut checked = 0;
    for g in &loaded.games {
        let Some(board) = &g.board else { continue };
        for (i, m) in g.maps.iter().enumerate() {
            let sheet = board.sheets().iter().find(|s| s.id == m.id.v).unwrap();
            let scene = map::map_svg(g, i).unwrap();
            for dpi in [150.0, 300.0] {
                for cell in board.cells().filter(|c| sheet.contains(*c)) {
                    let (x, y) = scene.layout.centre_px(cell, dpi);
                    let back = scene.layout.layout.cell_at((x / dpi, y / dpi));
                    let label = board.label(back).unwrap();
                    let again = board.parse(&label).unwrap();
                    assert_eq!(again, cell, "{} {label}", g.id);
                    let (x2, y2) = scene.layout.centre_px(again, dpi);
                    assert!((x - x2).abs() < 1e-9 && (y - y2).abs() < 1e-9);
                    // Every centre lies on the sheet's paper.
                    assert!(
                        x >= 0.0
                            && y >= 0.0
                            && x <= scene.width_in * dpi
                            && y <= scene.height_in * dpi
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2 * (62 * 35 * 2));
}

#[test]
fn map_text_is_drawn_with_the_shipped_fonts() {
    let loaded = seeds();
    let g = loaded.games.iter().find(|g| g.id == "example-oasis").unwrap();
    let scene = map::map_svg(g, 0).unwrap();
    let tree = raster::parse(&scene.svg).unwrap();
    raster::check_fonts(&tree).unwrap();
    // Render only the legend title area and check that dark text pixels exist there.
    let pixmap = raster::render_pixmap(&tree, 1344, 816).unwrap();
    let dark = pixmap
        .pixels()
        .iter()
        .filter(|p| p.red() < 60 && p.green() < 60 && p.blue() < 60)
        .count();
    assert!(dark > 2000, "text and frame are drawn ({dark} dark pixels)");
}

#[test]
fn the_example_map_draws_every_feature_kind() {
    let loaded = seeds();
    let g = loaded.games.iter().find(|g| g.id == "example-oasis").unwrap();
    let kinds: std::collections::BTreeSet<String> =
        g.maps[0].features.iter().map(|f| format!("{:?}", f.kind)).collect();
    for k in [
        "Minefield",
        "MinefieldHexside",
        "Fortification",
        "Entrenchment",
        "AtDitch",
        "Escarpment",
        "Cliff",
        "Road",
        "Track",
        "Railway",
        "River",
        "Place",
        "VictoryHex",
        "EntryArea",
        "SupplySource",
        "Box",
        "MapEdge",
        "Coast",
        "Sea",
    ] {
        assert!(kinds.contains(k), "example map lacks {k}");
    }
    let scene = map::map_svg(g, 0).unwrap();
    for name in [
        "Salt marsh",
        "Escarpment",
        "Railway",
        "Victory hex",
        "Terrain not given by the rules",
    ] {
        assert!(scene.svg.contains(name), "legend lists {name}");
    }
    assert_eq!(scene.unknown_terrain, 1);
}

#[test]
fn vassal_names_every_hex_of_every_seed_map_as_printed() {
    use muster_hex::pixel::Layout;
    use muster_hex::vassal::grid_params;

    let loaded = seeds();
    let mut checked = 0;
    for g in &loaded.games {
        let Some(board) = &g.board else { continue };
        for (i, m) in g.maps.iter().enumerate() {
            let sheet = board.sheets().iter().find(|s| s.id == m.id.v).unwrap();
            let scene = map::map_svg(g, i).unwrap();
            for dpi in [100.0, 150.0, 300.0] {
                let inches = scene.layout.layout;
                let px = Layout {
                    grid: inches.grid,
                    hex_size: inches.hex_size * dpi,
                    origin: (inches.origin.0 * dpi, inches.origin.1 * dpi),
                };
                let (w, h) =
                    ((scene.width_in * dpi).round(), (scene.height_in * dpi).round());
                let grid = grid_params(board, sheet, &px, w, h);
                for cell in board.cells().filter(|c| sheet.contains(*c)) {
                    let (x, y) = px.centre(cell);
                    assert_eq!(
                        grid.location_name(x, y, w, h),
                        board.label(cell).unwrap(),
                        "{} at {dpi} dpi",
                        g.id
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 3 * 4340);
}

/// Whether a point lies inside a convex polygon (or on its edge).
fn inside(p: (f64, f64), poly: &[(f64, f64)]) -> bool {
    let side = |a: (f64, f64), b: (f64, f64)| {
        (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
    };
    let signs: Vec<f64> =
        (0..poly.len()).map(|i| side(poly[i], poly[(i + 1) % poly.len()])).collect();
    signs.iter().all(|s| *s >= 0.0) || signs.iter().all(|s| *s <= 0.0)
}

/// Whether two segments cross.
fn cross(a: ((f64, f64), (f64, f64)), b: ((f64, f64), (f64, f64))) -> bool {
    let o = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    o(a.0, a.1, b.0) * o(a.0, a.1, b.1) < 0.0 && o(b.0, b.1, a.0) * o(b.0, b.1, a.1) < 0.0
}

#[test]
fn every_legend_covers_no_hex_or_is_printed_on_a_sheet_of_its_own() {
    let loaded = seeds();
    let mut apart = Vec::new();
    let mut checked = 0;
    for game in &loaded.games {
        let Some(board) = game.board.as_ref() else { continue };
        for (i, m) in game.maps.iter().enumerate() {
            let scene = map::map_svg(game, i).unwrap();
            let sheet = board.sheets().iter().find(|s| s.id == m.id.v).unwrap();
            match scene.legend.expect("a legend") {
                map::LegendPlace::OnSheet([x, y, w, h], covers) => {
                    assert!(covers.is_empty(), "{}/{}: {covers:?}", game.id, m.id.v);
                    assert!(x >= 0.0 && y >= 0.0, "{}/{}", game.id, m.id.v);
                    assert!(x + w <= scene.width_in && y + h <= scene.height_in);
                    let rect = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
                    for c in board.cells().filter(|c| sheet.contains(*c)) {
                        let hex = scene.layout.layout.corners(c);
                        let shared = hex.iter().any(|p| inside(*p, &rect))
                            || rect.iter().any(|p| inside(*p, &hex))
                            || (0..6).any(|k| {
                                (0..4).any(|j| {
                                    cross(
                                        (hex[k], hex[(k + 1) % 6]),
                                        (rect[j], rect[(j + 1) % 4]),
                                    )
                                })
                            });
                        assert!(
                            !shared,
                            "{}/{}: the legend covers {:?}",
                            game.id,
                            m.id.v,
                            board.label(c)
                        );
                    }
                    checked += 1;
                }
                map::LegendPlace::Apart(svg, w, h) => {
                    assert!(svg.contains(&m.name) && w > 0.5 && h > 0.5);
                    apart.push(format!("{}/{}", game.id, m.id.v));
                }
            }
        }
    }
    // SCS's printed sheets are covered with hexes edge to edge (34 by 22 inches): their
    // legends are printed apart. The others have room, or muster sizes the sheet for it.
    assert_eq!(apart, ["gazala-scs/a", "gazala-scs/b"]);
    assert_eq!(checked, 3);
}
