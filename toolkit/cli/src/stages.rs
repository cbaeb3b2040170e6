//! The build stages after loading, each writing its outputs atomically.

use std::path::Path;

use anyhow::{Context, Result};
use muster_model::Game;
use muster_render::{Compression, map_svg, render_png};
use serde::Serialize;

use crate::output::write_atomic;

/// What was written for one map sheet.
#[derive(Debug, Serialize)]
pub struct MapImage {
    /// Map id.
    pub map: String,
    /// PNG path.
    pub png: String,
    /// Pixel width.
    pub width: u32,
    /// Pixel height.
    pub height: u32,
    /// Sheet size in inches.
    pub width_in: f64,
    /// Sheet size in inches.
    pub height_in: f64,
    /// Whether the sheet size is printed in the rulebook.
    pub printed_size: bool,
    /// Hexes whose terrain the rules do not give.
    pub unknown_terrain: usize,
    /// PNG size in bytes.
    pub bytes: usize,
    /// The PNG itself, for the module.
    #[serde(skip)]
    pub data: Vec<u8>,
    /// Resolution it was drawn at.
    #[serde(skip)]
    pub dpi: u32,
}

/// Pixels for a length in inches at a resolution.
pub fn pixels(inches: f64, dpi: u32) -> u32 {
    (inches * f64::from(dpi)).round() as u32
}

/// Renders every map sheet of a game to `maps/<game>/<map>.svg` and `.png`.
pub fn render_maps(game: &Game, out: &Path, dpi: u32) -> Result<Vec<MapImage>> {
    let dir = out.join("maps").join(&game.id);
    let mut images = Vec::new();
    for index in 0..game.maps.len() {
        let Some(scene) = map_svg(game, index) else { continue };
        let (w, h) = (pixels(scene.width_in, dpi), pixels(scene.height_in, dpi));
        let png =
            render_png(&scene.svg, w, h, Compression::Balanced).with_context(|| {
                format!("failed to render map {} of {}", scene.id, game.id)
            })?;
        write_atomic(&dir.join(format!("{}.svg", scene.id)), scene.svg.as_bytes())?;
        let png_path = dir.join(format!("{}.png", scene.id));
        write_atomic(&png_path, &png)?;
        images.push(MapImage {
            map: scene.id.clone(),
            png: png_path.display().to_string(),
            width: w,
            height: h,
            width_in: scene.width_in,
            height_in: scene.height_in,
            printed_size: scene.printed_size,
            unknown_terrain: scene.unknown_terrain,
            bytes: png.len(),
            data: png,
            dpi,
        });
    }
    Ok(images)
}

/// What was written for a game's counters.
#[derive(Debug, Serialize)]
pub struct CounterImages {
    /// Counter sides rendered (one PNG each).
    pub sides: usize,
    /// Values drawn as `?` because the rulebook does not print them.
    pub unknown_values: usize,
    /// PDF print sheets written.
    pub pdf: String,
    /// Pages in the PDF.
    pub pages: usize,
    /// PNG sheet pages written.
    pub png_pages: usize,
    /// The contact sheet.
    pub contact_sheet: String,
}

/// Renders every counter side to `counters/<game>/<id>-<side>.png`, the print sheets to
/// `counters/<game>/sheets.pdf` and `sheet-NN-<kind>.png`, and a contact sheet; removes
/// counter images left over from counters that no longer exist.
pub fn render_counters(
    game: &Game,
    out: &Path,
    args: &crate::args::CounterArgs,
) -> Result<CounterImages> {
    use muster_render::counter::{counter_svg, faces};
    use muster_render::sheet::{self, SheetOptions};
    use rayon::prelude::*;

    let dir = out.join("counters").join(&game.id);
    let all: Vec<&muster_model::Unit> = game.units.iter().chain(&game.markers).collect();
    let jobs: Vec<(&muster_model::Unit, muster_render::Face)> =
        all.iter().flat_map(|u| faces(u).into_iter().map(move |f| (*u, f))).collect();
    let px = pixels(args.counter_size, args.dpi);
    let rendered: Vec<(String, Vec<u8>, usize)> =
        jobs.par_iter()
            .map(|(u, face)| {
                let (svg, unknown) = counter_svg(game, u, *face, args.counter_size);
                let png = render_png(&svg, px, px, Compression::Balanced).with_context(
                    || format!("failed to render counter {} of {}", u.id, game.id),
                )?;
                Ok((format!("{}-{}.png", u.id, face.name()), png, unknown))
            })
            .collect::<Result<_>>()?;
    let mut keep: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    rendered
        .par_iter()
        .map(|(name, png, _)| write_atomic(&dir.join(name), png).map(|_| ()))
        .collect::<Result<()>>()?;
    keep.extend(rendered.iter().map(|(n, _, _)| n.clone()));
    let unknown_values = rendered.iter().map(|(_, _, u)| u).sum();

    // Print sheets.
    let options = SheetOptions {
        counter_in: args.counter_size,
        page_in: args.sheet,
        margin_in: args.margin,
        spacing_in: args.spacing,
        bleed_in: args.bleed,
        crop_marks: !args.no_crop_marks,
        registration: args.registration.into(),
        back_offset_in: args.back_offset,
        fold: args.fold,
    };
    let order = sheet::sheet_order(game);
    let sides: Vec<usize> = order.iter().map(|u| faces(u).len()).collect();
    let pages = sheet::layout(&sides, &options).with_context(|| {
        format!("failed to lay out the counter sheets of {}", game.id)
    })?;
    let svgs: Vec<String> =
        pages.par_iter().map(|p| sheet::page_svg(game, &order, p, &options)).collect();
    let pdf = sheet::pdf(&svgs, options.page_in).map_err(|e| {
        anyhow::anyhow!("failed to write the PDF sheets of {} ({e})", game.id)
    })?;
    let pdf_path = dir.join("sheets.pdf");
    write_atomic(&pdf_path, &pdf)?;
    keep.insert("sheets.pdf".into());
    let (w, h) = (
        pixels(options.page_in.0, args.sheet_dpi),
        pixels(options.page_in.1, args.sheet_dpi),
    );
    let pngs: Vec<(String, Vec<u8>)> = svgs
        .par_iter()
        .zip(&pages)
        .enumerate()
        .map(|(i, (svg, page))| {
            let kind = match page.kind {
                sheet::PageKind::Fronts => "fronts",
                sheet::PageKind::Backs => "backs",
                sheet::PageKind::Folded => "folded",
            };
            let png = render_png(svg, w, h, Compression::Balanced)?;
            Ok((format!("sheet-{:02}-{kind}.png", i + 1), png))
        })
        .collect::<Result<_>>()?;
    for (name, png) in &pngs {
        write_atomic(&dir.join(name), png)?;
        keep.insert(name.clone());
    }

    // Contact sheet: every counter, both sides, with its id.
    let contact = contact_svg(game, &all);
    let cols = 12.0;
    let rows = (all.len() as f64 / cols).ceil().max(1.0);
    let cw = pixels(cols * 1.6, 100);
    let ch = pixels(rows * 0.95 + 0.4, 100);
    let png = render_png(&contact, cw, ch, Compression::Balanced)?;
    let contact_path = dir.join("contact.png");
    write_atomic(&contact_path, &png)?;
    keep.insert("contact.png".into());

    // Remove images of counters that no longer exist.
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let ours = name.ends_with(".png") || name.ends_with(".pdf");
            if ours && !keep.contains(&name) {
                std::fs::remove_file(e.path()).with_context(|| {
                    format!("failed to remove {}", e.path().display())
                })?;
            }
        }
    }
    Ok(CounterImages {
        sides: rendered.len(),
        unknown_values,
        pdf: pdf_path.display().to_string(),
        pages: svgs.len(),
        png_pages: pngs.len(),
        contact_sheet: contact_path.display().to_string(),
    })
}

/// A contact sheet: every counter with both sides side by side and its id beneath, twelve
/// to a row, 1.6 by 0.95 inches a cell.
fn contact_svg(game: &Game, units: &[&muster_model::Unit]) -> String {
    use std::fmt::Write;

    use muster_render::counter::{counter_fragment, faces};

    let cols = 12usize;
    let rows = units.len().div_ceil(cols).max(1);
    let (cw, chh) = (1.6 * 96.0, 0.95 * 96.0);
    let size = 0.6 * 96.0;
    let w = cols as f64 * cw;
    let h = rows as f64 * chh + 0.4 * 96.0;
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{}in" height="{}in" viewBox="0 0 {w:.2} {h:.2}" font-family="{}"><rect width="100%" height="100%" fill="#ffffff"/><text x="8" y="24" font-size="18" font-weight="bold">{} — {} counters</text>"##,
        w / 96.0,
        h / 96.0,
        muster_render::fonts::FAMILY,
        escape(&game.meta.title),
        units.len()
    );
    for (i, u) in units.iter().enumerate() {
        let x = (i % cols) as f64 * cw + 8.0;
        let y = (i / cols) as f64 * chh + 0.4 * 96.0;
        for (k, face) in faces(u).into_iter().enumerate() {
            let art = counter_fragment(game, u, face, 0.0);
            let _ = write!(
                s,
                r##"<svg x="{:.2}" y="{:.2}" width="{size:.2}" height="{size:.2}" viewBox="0 0 100 100">{}<rect width="100" height="100" fill="none" stroke="#000000" stroke-width="1"/></svg>"##,
                x + k as f64 * (size + 4.0),
                y,
                art.fragment
            );
        }
        let _ = write!(
            s,
            r##"<text x="{:.2}" y="{:.2}" font-size="8" fill="#333333">{}</text>"##,
            x,
            y + size + 10.0,
            escape(&u.printed.v)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Solves every scenario and writes `dist/<game>/setups/<scenario>.json` (every counter on
/// its hex or in its holding box) and `dist/<game>/validation.json`. Returns the solutions
/// and the number of findings that need attention.
pub fn write_setups(
    game: &Game,
    out: &Path,
) -> Result<(Vec<muster_check::Solution>, usize)> {
    let dir = out.join("dist").join(&game.id);
    let mut findings = Vec::new();
    let mut solutions = Vec::new();
    for s in &game.scenarios {
        let solution = muster_check::solve(game, &s.id.v);
        let mut text = serde_json::to_string_pretty(&solution)?;
        text.push('\n');
        write_atomic(
            &dir.join("setups").join(format!("{}.json", s.id.v)),
            text.as_bytes(),
        )?;
        findings.extend(muster_check::validate_scenario(game, &s.id.v));
        solutions.push(solution);
    }
    let mut text = serde_json::to_string_pretty(&findings)?;
    text.push('\n');
    write_atomic(&dir.join("validation.json"), text.as_bytes())?;
    Ok((solutions, findings.iter().filter(|f| f.severity != "info").count()))
}

/// What was written for a game's module.
#[derive(Debug, Serialize)]
pub struct ModuleReport {
    /// The `.vmod` path.
    pub path: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// Palette slots and deck pieces.
    pub pieces: usize,
    /// Prototypes defined.
    pub prototypes: usize,
    /// Predefined setups: scenario, file and counters placed.
    pub setups: Vec<serde_json::Value>,
}

/// Packages a game as `dist/<game>.vmod` and writes what each setup holds to
/// `dist/<game>/module.json`.
pub fn write_module(
    game: &Game,
    out: &Path,
    maps: &[MapImage],
    solutions: &[muster_check::Solution],
    counter_in: f64,
) -> Result<ModuleReport> {
    use muster_package::module::{ModuleOptions, SheetImage, build};
    let sheets: Vec<SheetImage> = maps
        .iter()
        .map(|m| SheetImage {
            sheet: m.map.clone(),
            png: m.data.clone(),
            width: m.width,
            height: m.height,
            dpi: f64::from(m.dpi),
        })
        .collect();
    let options = ModuleOptions { counter_in, version: "1.0".into() };
    let module = build(game, &sheets, solutions, &options)
        .map_err(|e| anyhow::anyhow!("failed to package {} ({e})", game.id))?;
    let bytes = muster_package::archive::write_zip(&module.files)
        .map_err(|e| anyhow::anyhow!("failed to zip the module of {} ({e})", game.id))?;
    let path = out.join("dist").join(format!("{}.vmod", game.id));
    write_atomic(&path, &bytes)?;
    let web = out.join("dist").join(&game.id).join("web");
    for (name, bytes) in &module.web {
        write_atomic(&web.join(name), bytes)?;
    }
    let mut text = serde_json::to_string_pretty(&module.setups)?;
    text.push('\n');
    write_atomic(&out.join("dist").join(&game.id).join("module.json"), text.as_bytes())?;
    Ok(ModuleReport {
        path: path.display().to_string(),
        bytes: bytes.len(),
        pieces: module.slots,
        prototypes: module.prototypes,
        setups: module
            .setups
            .iter()
            .map(|s| serde_json::json!({"scenario": s.scenario, "file": s.file, "pieces": s.pieces.len()}))
            .collect(),
    })
}

/// An erratum as JSON, with file, line and column.
pub fn erratum_json(
    e: &muster_check::Erratum,
    sources: &muster_model::Sources,
) -> serde_json::Value {
    let file =
        (!e.span.is_detached()).then(|| sources.path(e.span.file).display().to_string());
    serde_json::json!({
        "game": e.game,
        "kind": e.kind,
        "severity": e.severity,
        "subject": e.subject,
        "expected": e.expected,
        "suggestion": e.suggestion,
        "file": file,
        "line": e.span.line,
        "column": e.span.column,
        "message": e.message,
        "section": e.section,
        "scenario": e.scenario,
        "known": e.known,
        "known_note": e.known_note,
    })
}

/// The errata report as Markdown: grouped by kind, most certain first.
pub fn errata_markdown(
    game: &Game,
    errata: &[muster_check::Erratum],
    sources: &muster_model::Sources,
) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "# Errata: {}\n\n{} finding(s) from the game's own data.\n",
        game.meta.title,
        errata.len()
    );
    let mut kinds: Vec<(&str, u8)> = Vec::new();
    for e in errata {
        if !kinds.iter().any(|(k, _)| *k == e.kind) {
            kinds.push((&e.kind, e.rank()));
        }
    }
    for (kind, _) in kinds {
        let _ = write!(s, "\n## {kind}\n\n");
        for e in errata.iter().filter(|e| e.kind == kind) {
            let at = if e.span.is_detached() {
                String::new()
            } else {
                format!(
                    " — `{}:{}:{}`",
                    sources.path(e.span.file).display(),
                    e.span.line,
                    e.span.column
                )
            };
            let known = if e.known {
                format!(
                    " **(known{})**",
                    e.known_note.as_ref().map(|n| format!(": {n}")).unwrap_or_default()
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "- {} ({}, section {}{}){at}{known}",
                e.message,
                e.severity,
                e.section,
                e.scenario.as_ref().map(|x| format!(", {x}")).unwrap_or_default()
            );
            if let Some(sug) = &e.suggestion {
                let _ = writeln!(s, "  - likely: {sug}");
            }
        }
    }
    s
}

/// Writes `dist/<game>/errata.md` and `errata.json`; returns the findings.
pub fn write_errata(
    game: &Game,
    out: &Path,
    sources: &muster_model::Sources,
) -> Result<Vec<muster_check::Erratum>> {
    let errata = muster_check::errata(game);
    let dir = out.join("dist").join(&game.id);
    let json: Vec<serde_json::Value> =
        errata.iter().map(|e| erratum_json(e, sources)).collect();
    let mut text = serde_json::to_string_pretty(&json)?;
    text.push('\n');
    write_atomic(&dir.join("errata.json"), text.as_bytes())?;
    write_atomic(
        &dir.join("errata.md"),
        errata_markdown(game, &errata, sources).as_bytes(),
    )?;
    Ok(errata)
}
