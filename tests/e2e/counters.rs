//! Counter images and print sheets: counts against the manifest, pixel sizes, PDF pages,
//! embedded fonts and byte-identical rebuilds.

use std::collections::BTreeMap;
use std::fs;

use muster_render::FaceArts;
use muster_render::counter::faces;
use muster_render::sheet::{self, SheetOptions};

use crate::util::{copy_tree, muster, root, seeds};

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}

/// The resolution a PNG records in its `pHYs` chunk, in dots per inch.
pub fn png_dpi(bytes: &[u8]) -> Option<u32> {
    let info = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().ok()?;
    let dims = info.info().pixel_dims?;
    (dims.unit == png::Unit::Meter && dims.xppu == dims.yppu)
        .then(|| (f64::from(dims.xppu) * 0.0254).round() as u32)
}

fn read_dir(dir: &std::path::Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (e.file_name().to_string_lossy().into_owned(), fs::read(e.path()).unwrap())
        })
        .collect()
}

#[test]
fn counter_images_match_the_manifest_size_and_dpi_and_rebuild_identically() {
    let loaded = seeds();
    let game = loaded.games.iter().find(|g| g.id == "gazala-1942").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/gazala-1942"),
        &tmp.path().join("sources/gazala-1942"),
    );
    let args = [
        "build",
        "--quiet",
        "--map-dpi",
        "10",
        "--dpi",
        "96",
        "--counter-size",
        "3/4",
        "--sheet",
        "a4",
        "--sheet-dpi",
        "20",
    ];
    let out = muster(tmp.path(), &args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = tmp.path().join("counters/gazala-1942");
    let files = read_dir(&dir);
    let expected_sides: usize =
        game.units.iter().chain(&game.markers).map(|u| faces(u).len()).sum();
    let counter_pngs: Vec<&String> = files
        .keys()
        .filter(|n| n.ends_with("-front.png") || n.ends_with("-back.png"))
        .collect();
    assert_eq!(counter_pngs.len(), expected_sides);
    // 3/4 inch at 96 dpi is 72 pixels.
    for name in &counter_pngs {
        assert_eq!(png_size(&files[*name]), (72, 72), "{name}");
        // An image editor opens it at its size: 3/4 inch.
        assert_eq!(png_dpi(&files[*name]), Some(96), "{name}");
    }
    for (name, bytes) in files.iter().filter(|(n, _)| n.starts_with("sheet-")) {
        assert_eq!(png_dpi(bytes), Some(20), "{name}");
    }
    assert_eq!(png_dpi(&files["contact.png"]), Some(100));
    // The contact sheet, joined from bands encoded apart, decodes whole.
    let mut contact = png::Decoder::new(std::io::Cursor::new(&files["contact.png"]))
        .read_info()
        .expect("the contact sheet's header reads");
    let mut pixels = vec![0; contact.output_buffer_size().expect("fits")];
    let frame = contact.next_frame(&mut pixels).expect("the contact sheet decodes");
    assert_eq!(frame.width, 1920, "12 counters of 1.6 inch at 100 dpi");
    assert!(pixels.iter().any(|&p| p < 128), "something is drawn on it");
    // One-step battalions of 10.6 are single-sided; brigades have backs.
    assert!(files.contains_key("2-sa-div-6-2-bde-back.png"));
    assert!(!files.contains_key("2-sa-div-6-2-bn-back.png"));

    // The PDF holds the pages the layout computes, on A4, with the shipped fonts embedded.
    let order = sheet::sheet_order(game);
    let sides: Vec<usize> = order.iter().map(|u| faces(u).len()).collect();
    let options =
        SheetOptions { counter_in: 0.75, page_in: (8.27, 11.69), ..Default::default() };
    let pages = sheet::layout(&sides, &options).unwrap();
    let pdf = &files["sheets.pdf"];
    let text = String::from_utf8_lossy(pdf);
    assert!(text.starts_with("%PDF-"));
    assert!(text.contains(&format!("/Count {}", pages.len())), "page count");
    assert!(
        text.contains("/MediaBox [0 0 595.44 841.68]")
            || text.contains("/MediaBox[0 0 595.44 841.68]"),
        "A4 media box"
    );
    assert!(
        text.contains("/FontFile2") && text.contains("LiberationSans"),
        "fonts are embedded"
    );
    let png_pages = files.keys().filter(|n| n.starts_with("sheet-")).count();
    assert_eq!(png_pages, pages.len());
    assert!(files.contains_key("contact.png"));

    // The same input gives the same bytes.
    let out = muster(tmp.path(), &args);
    assert!(out.status.success());
    assert_eq!(read_dir(&dir), files);
}

#[test]
fn images_of_removed_counters_are_removed() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    let args =
        ["build", "--quiet", "--map-dpi", "10", "--dpi", "50", "--sheet-dpi", "20"];
    assert!(muster(tmp.path(), &args).status.success());
    let dir = tmp.path().join("counters/example-oasis");
    assert!(dir.join("7-bde-2-7-inf-bn-front.png").is_file());
    let path = tmp.path().join("sources/example-oasis/counters.yaml");
    let text = fs::read_to_string(&path).unwrap();
    let text: String = text
        .lines()
        .filter(|l| !l.contains("2/7 Inf Bn"))
        .map(|l| format!("{l}\n"))
        .collect();
    // Its cell of the sheet of art holds no counter now.
    let text = text.replace(", 7-bde-2-7-inf-bn]", ", ~]");
    fs::write(&path, text).unwrap();
    fs::write(
        tmp.path().join("sources/example-oasis/scenarios/meeting.yaml"),
        fs::read_to_string(root().join("sources/example-oasis/scenarios/meeting.yaml"))
            .unwrap()
            .replace(", 2/7 Inf Bn", ""),
    )
    .unwrap();
    assert!(muster(tmp.path(), &args).status.success());
    assert!(!dir.join("7-bde-2-7-inf-bn-front.png").exists());
    assert!(dir.join("7-bde-1-7-inf-bn-front.png").is_file());
}

#[test]
fn a_counter_too_big_for_the_sheet_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    let out = muster(
        tmp.path(),
        &[
            "build",
            "--quiet",
            "--map-dpi",
            "10",
            "--dpi",
            "20",
            "--counter-size",
            "4",
            "--sheet",
            "4x4",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("failed to lay out the counter sheets")
            && err.contains("no counter fits"),
        "{err}"
    );
    let out = muster(tmp.path(), &["build", "--counter-size", "five eighths"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a length in inches"));
}

/// Luminance of the RGB pixel at `(x, y)` of an image `width` pixels wide.
fn luminance(rgb: &[u8], width: u32, x: u32, y: u32) -> i32 {
    let i = (y as usize * width as usize + x as usize) * 3;
    (i32::from(rgb[i]) * 299 + i32::from(rgb[i + 1]) * 587 + i32::from(rgb[i + 2]) * 114)
        / 1000
}

#[test]
fn sheet_images_show_no_seam_between_neighbouring_counters() {
    let loaded = seeds();
    let game = loaded.games.iter().find(|g| g.id == "gazala-1942").unwrap();
    let order = sheet::sheet_order(game);
    let sides: Vec<usize> = order.iter().map(|u| faces(u).len()).collect();
    let mut boundaries = 0;
    for (shared_cuts, dpi) in [(false, 150u32), (true, 150), (false, 137), (true, 96)] {
        let o = SheetOptions { shared_cuts, ..Default::default() };
        let pages = sheet::layout(&sides, &o).unwrap();
        let page = &pages[0];
        let svg = sheet::page_svg(game, &order, page, &o, &FaceArts::default());
        let (w, h) = (
            (o.page_in.0 * f64::from(dpi)) as u32,
            (o.page_in.1 * f64::from(dpi)) as u32,
        );
        let rgb = muster_render::raster::render_rgb(&svg, w, h).unwrap();
        let g = sheet::page_geometry(page, &o, "");
        let px = |inches: f64| inches * f64::from(dpi);
        // Where two counters meet, no pixel of the boundary is lighter than the art on
        // both sides of it. Samples run along the edges, clear of the symbol and text.
        let check = |points: Vec<(u32, u32)>, step: (u32, u32), what: &str| {
            for (x, y) in points {
                let seam = luminance(&rgb, w, x, y);
                let sides = luminance(&rgb, w, x - step.0, y - step.1).max(luminance(
                    &rgb,
                    w,
                    x + step.0,
                    y + step.1,
                ));
                assert!(
                    seam <= sides + 6,
                    "a light seam at x={x}, y={y} {what} ({shared_cuts}, {dpi} dpi): {seam} > {sides}"
                );
            }
        };
        for (i, a) in g.visible.iter().enumerate() {
            for b in &g.visible {
                if (a.x1 - b.x0).abs() < 1e-6 && (a.y0 - b.y0).abs() < 0.2 {
                    boundaries += 1;
                    let x = px(a.x1).floor() as u32;
                    let ys = px(a.y0 + 0.05) as u32..px(a.y0 + 0.15) as u32;
                    check(ys.map(|y| (x, y)).collect(), (3, 0), &format!("right of {i}"));
                }
                if (a.y1 - b.y0).abs() < 1e-6 && (a.x0 - b.x0).abs() < 0.2 {
                    boundaries += 1;
                    let y = px(a.y1).floor() as u32;
                    let xs = px(a.x0 + 0.05) as u32..px(a.x0 + 0.12) as u32;
                    check(xs.map(|x| (x, y)).collect(), (0, 3), &format!("under {i}"));
                }
            }
        }
    }
    assert!(boundaries > 100, "{boundaries} boundaries checked");
}

/// The luminance of a counter image's pixel at a fraction of its width and height.
fn luminance_at(bytes: &[u8], fx: f64, fy: f64) -> i32 {
    let (w, h, pixels) = crate::util::rgba_of(bytes);
    let (x, y) = ((fx * f64::from(w)) as usize, (fy * f64::from(h)) as usize);
    let i = (y * w as usize + x) * 4;
    luminance(&pixels[i..i + 3], 1, 0, 0)
}

#[test]
fn a_back_that_is_a_state_is_drawn_without_the_reduced_band() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/gazala-1942");
    copy_tree(&root().join("sources/gazala-1942"), &game);
    let path = game.join("counters.yaml");
    let text = fs::read_to_string(&path).unwrap();
    let old = "      - \"1/132 (T)\"\n";
    assert!(text.contains(old));
    let new = "      - {printed: \"1/132 (T)\", back_state: Shaken}\n";
    fs::write(&path, text.replace(old, new)).unwrap();
    let out = muster(
        tmp.path(),
        &["--quiet", "build", "--dpi", "60", "--map-dpi", "20", "--sheet-dpi", "10"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let image = |name: &str| {
        fs::read(tmp.path().join(format!("counters/gazala-1942/{name}.png"))).unwrap()
    };
    // A corner of the top band: a reduced back draws a pale band there, the front none.
    let corner = |name: &str| luminance_at(&image(name), 0.06, 0.06);
    let state = (corner("xx-it-corps-1-132-t-front"), corner("xx-it-corps-1-132-t-back"));
    assert!((state.0 - state.1).abs() <= 2, "a state back has no band: {state:?}");
    let reduced =
        (corner("xx-it-corps-2-132-t-front"), corner("xx-it-corps-2-132-t-back"));
    assert!(reduced.1 > reduced.0 + 10, "a reduced back has its band: {reduced:?}");
}
