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

/// Luma steps (of 1) by which two terrain fills read apart in greyscale without a symbol.
const FILL_LUMA_APART: f64 = 0.12;

#[test]
fn every_seed_map_tells_its_terrain_types_apart_without_colour() {
    let loaded = seeds();
    let mut pairs = 0;
    for g in &loaded.games {
        for i in 0..g.maps.len() {
            let looks = map::terrain_looks(g, i);
            for (k, a) in looks.iter().enumerate() {
                for b in &looks[k + 1..] {
                    let (la, lb) = (a.luminance().unwrap(), b.luminance().unwrap());
                    let by_grey = (la - lb).abs() >= FILL_LUMA_APART;
                    let by_symbol = (a.symbol.is_some() || b.symbol.is_some())
                        && a.symbol != b.symbol;
                    assert!(
                        by_grey || by_symbol,
                        "{} map {}: {} ({la:.2}, {:?}) and {} ({lb:.2}, {:?}) differ only by hue",
                        g.id,
                        g.maps[i].id.v,
                        a.id,
                        a.symbol,
                        b.id,
                        b.symbol
                    );
                    pairs += 1;
                }
            }
            // Each hex of a terrain with a symbol carries it, and so does its legend swatch.
            let scene = map::map_svg(g, i).unwrap();
            for look in looks.iter().filter(|l| l.symbol.is_some()) {
                let symbol = look.symbol.unwrap();
                let hexes =
                    terrain_of_cells(g, i).values().filter(|t| **t == look.id).count();
                let uses = scene
                    .svg
                    .matches(&format!(r##"href="#muster-terrain-{}""##, symbol.name()))
                    .count();
                // Over a painting that shows the terrain, only the legend carries it.
                let painted = g.map_art[i].as_ref().is_some_and(|a| {
                    !a.draw.contains(&muster_model::source::MapLayer::Terrain)
                });
                let want = if painted { 1 } else { hexes + 1 };
                assert_eq!(uses, want, "{} {}: hexes and legend", g.id, look.id);
            }
        }
    }
    // The example map alone uses eight terrain types.
    assert!(pairs >= 28, "{pairs} pairs checked");
}

/// The own terrain id of every cell of a map's sheet, as its map file lists it.
fn terrain_of_cells(
    g: &muster_model::Game,
    map_index: usize,
) -> std::collections::BTreeMap<muster_hex::Cell, String> {
    let board = g.board.as_ref().unwrap();
    let m = &g.maps[map_index];
    let sheet = board.sheets().iter().find(|s| s.id == m.id.v).unwrap();
    muster_model::hex_terrain::terrains(g, board)
        .into_iter()
        .filter(|(c, _)| sheet.contains(*c))
        .map(|(c, ts)| (c, ts[0].to_string()))
        .collect()
}

/// Mean and standard deviation of the grey (Rec. 709 luma, 0 to 255) of a rendered map
/// inside the disc of `radius` pixels around `centre`.
fn grey_stats(
    pixmap: &resvg::tiny_skia::Pixmap,
    centre: (f64, f64),
    radius: f64,
) -> (f64, f64) {
    let mut values = Vec::new();
    let (x0, x1) =
        ((centre.0 - radius).floor() as i64, (centre.0 + radius).ceil() as i64);
    let (y0, y1) =
        ((centre.1 - radius).floor() as i64, (centre.1 + radius).ceil() as i64);
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (dx, dy) = (x as f64 + 0.5 - centre.0, y as f64 + 0.5 - centre.1);
            if dx * dx + dy * dy > radius * radius {
                continue;
            }
            let p = pixmap.pixel(x as u32, y as u32).unwrap();
            let grey = 0.2126 * f64::from(p.red())
                + 0.7152 * f64::from(p.green())
                + 0.0722 * f64::from(p.blue());
            values.push(grey);
        }
    }
    let count = values.len() as f64;
    let mean = values.iter().sum::<f64>() / count;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / count;
    (mean, var.sqrt())
}

/// Grey levels by which two terrains' hexes read apart in a greyscale render: in their
/// mean grey or in their texture (the standard deviation a symbol gives).
const GREY_APART: f64 = 6.0;

/// The example map rendered in greyscale with only its terrain drawn: for each terrain
/// type, the mean grey and texture of its hex nearest the sheet's top-left corner (away
/// from the legend). Returns the pairs of terrain types that read alike.
fn alike_in_greyscale(g: &muster_model::Game) -> Vec<(String, String)> {
    let mut g = g.clone();
    // muster's own drawing of the terrain, not the painting the example is drawn over.
    g.map_art[0] = None;
    let m = &mut g.maps[0];
    m.image = None;
    m.features.clear();
    m.hex_numbers.every_hex = false;
    m.hex_numbers.emphasise_every = None;
    let dpi = 96.0;
    let scene = map::map_svg(&g, 0).unwrap();
    let tree = raster::parse(&scene.svg).unwrap();
    let (w, h) =
        ((scene.width_in * dpi).round() as u32, (scene.height_in * dpi).round() as u32);
    let pixmap = raster::render_pixmap(&tree, w, h).unwrap();
    let radius = scene.layout.layout.hex_size * dpi * 0.42;
    let cells = terrain_of_cells(&g, 0);
    let looks = map::terrain_looks(&g, 0);
    let stats: Vec<(String, (f64, f64))> = looks
        .iter()
        .map(|look| {
            let centre = cells
                .iter()
                .filter(|(_, t)| **t == look.id)
                .map(|(c, _)| scene.layout.centre_px(*c, dpi))
                .min_by(|a, b| (a.0 + a.1).total_cmp(&(b.0 + b.1)))
                .unwrap();
            (look.id.clone(), grey_stats(&pixmap, centre, radius))
        })
        .collect();
    let mut alike = Vec::new();
    for (k, (a, (ma, sa))) in stats.iter().enumerate() {
        for (b, (mb, sb)) in &stats[k + 1..] {
            if (ma - mb).abs() < GREY_APART && (sa - sb).abs() < GREY_APART {
                alike.push((a.clone(), b.clone()));
            }
        }
    }
    alike
}

#[test]
fn the_example_map_reads_in_greyscale_by_its_symbols() {
    let loaded = seeds();
    let g = loaded.games.iter().find(|g| g.id == "example-oasis").unwrap();
    assert_eq!(map::terrain_looks(g, 0).len(), 8);
    assert_eq!(alike_in_greyscale(g), Vec::<(String, String)>::new());
    // Without its symbols the same map has terrain types only colour tells apart: rough
    // and town are fills of nearly the same grey.
    let mut plain = g.clone();
    for t in &mut plain.meta.terrain {
        t.symbol = None;
    }
    let alike = alike_in_greyscale(&plain);
    assert!(alike.contains(&("rough".into(), "town".into())), "{alike:?}");
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

/// A road whose printed hexes step between hexes that are not neighbours (a hex left out,
/// or a wrong stagger) is a `path-gap` warning at the step; every path of the seed games
/// runs from hex to neighbouring hex.
#[test]
fn a_road_that_skips_a_hex_is_a_path_gap() {
    let loaded = seeds();
    assert!(!loaded.games.is_empty());
    let gaps: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.kind == Some(muster_model::FindingKind::PathGap))
        .map(|d| loaded.sources.render(d))
        .collect();
    assert!(gaps.is_empty(), "{gaps:#?}");
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/example-oasis");
    copy_tree(&root().join("sources/example-oasis"), &game);
    let path = game.join("maps/oasis.yaml");
    let text = fs::read_to_string(&path).unwrap();
    let road = r#"{kind: road, hexes: ["09.02", "09.03", "08.03""#;
    assert!(text.contains(road), "the example's road");
    fs::write(&path, text.replace(road, r#"{kind: road, hexes: ["09.02", "08.03""#))
        .unwrap();
    let out = muster(tmp.path(), &["validate", "--format", "json"]);
    let findings: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let gaps: Vec<&serde_json::Value> =
        findings.iter().filter(|f| f["kind"] == "path-gap").collect();
    assert_eq!(gaps.len(), 1, "{findings:#?}");
    assert_eq!(
        (gaps[0]["line"].as_u64(), gaps[0]["column"].as_u64()),
        (Some(27), Some(26))
    );
    assert_eq!(
        gaps[0]["message"],
        "1 of the 11 steps of the road join hexes that are not neighbours (09.02 to 08.03)"
    );
}
