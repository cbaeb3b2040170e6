//! The build stages after loading, each writing its outputs atomically.

use std::path::Path;

use anyhow::Result;
use muster_model::Game;
use muster_render::map_svg;
use serde::Serialize;

use crate::cache::GameCache;
use crate::output::Outputs;
use crate::progress::{Progress, Stage};

/// What the stages of one game's build share: where outputs go, the files written so far,
/// the cache and the progress display.
pub struct Context<'a> {
    /// The output folder.
    pub out: &'a Path,
    /// The files written.
    pub outputs: Outputs,
    /// The build cache, as this game's build sees it.
    pub cache: GameCache<'a>,
    /// Progress display.
    pub progress: Progress,
    /// The game being built.
    pub game: &'a str,
}

impl Context<'_> {
    /// A progress bar for a stage of this game.
    pub fn stage(&self, stage: &str, len: usize) -> Stage {
        self.progress.stage(self.game, stage, len)
    }
}

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
pub fn render_maps(ctx: &Context, game: &Game, dpi: u32) -> Result<Vec<MapImage>> {
    use rayon::prelude::*;

    let dir = ctx.out.join("maps").join(&game.id);
    let bar = ctx.stage("maps", game.maps.len());
    let images = (0..game.maps.len())
        .into_par_iter()
        .filter_map(|index| map_svg(game, index))
        .map(|scene| {
            let (w, h) = (pixels(scene.width_in, dpi), pixels(scene.height_in, dpi));
            let png = ctx.cache.png(
                &format!("map {} of {}", scene.id, game.id),
                &scene.svg,
                w,
                h,
            )?;
            ctx.outputs
                .write(&dir.join(format!("{}.svg", scene.id)), scene.svg.as_bytes())?;
            let png_path = dir.join(format!("{}.png", scene.id));
            ctx.outputs.write(&png_path, &png)?;
            bar.inc();
            Ok(MapImage {
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
            })
        })
        .collect::<Result<Vec<_>>>()?;
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
/// `counters/<game>/sheets.pdf` and `sheet-NN-<kind>.png`, and a contact sheet.
pub fn render_counters(
    ctx: &Context,
    game: &Game,
    args: &crate::args::CounterArgs,
) -> Result<CounterImages> {
    use muster_render::counter::{counter_svg, faces};
    use muster_render::sheet::{self, SheetOptions};
    use rayon::prelude::*;

    let dir = ctx.out.join("counters").join(&game.id);
    let all: Vec<&muster_model::Unit> = game.units.iter().chain(&game.markers).collect();
    let jobs: Vec<(&muster_model::Unit, muster_render::Face)> =
        all.iter().flat_map(|u| faces(u).into_iter().map(move |f| (*u, f))).collect();
    let px = pixels(args.counter_size, args.dpi);
    let bar = ctx.stage("counters", jobs.len());
    let unknown_values = jobs
        .par_iter()
        .map(|(u, face)| {
            let (svg, unknown) = counter_svg(game, u, *face, args.counter_size);
            let name = format!("{}-{}.png", u.id, face.name());
            let png = ctx.cache.png(&format!("counter {name}"), &svg, px, px)?;
            ctx.outputs.write(&dir.join(&name), &png)?;
            bar.inc();
            Ok(unknown)
        })
        .collect::<Result<Vec<usize>>>()?
        .into_iter()
        .sum();
    drop(bar);

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
    let pages = sheet::layout(&sides, &options).map_err(|e| {
        anyhow::anyhow!("failed to lay out the counter sheets of {} ({e})", game.id)
    })?;
    let svgs: Vec<String> =
        pages.par_iter().map(|p| sheet::page_svg(game, &order, p, &options)).collect();
    let bar = ctx.stage("sheets", svgs.len() + 2);
    let pdf_path = dir.join("sheets.pdf");
    let contact_path = dir.join("contact.png");
    // The PDF, the sheet images and the contact sheet are independent: draw them at once.
    let (pdf, (pngs, contact)) = rayon::join(
        || -> Result<()> {
            let mut key = ctx.cache.key("pdf");
            key.part(&options.page_in.0.to_le_bytes())
                .part(&options.page_in.1.to_le_bytes());
            for svg in &svgs {
                key.part(svg.as_bytes());
            }
            let pdf = ctx.cache.get_or_make(
                &key.finish(),
                || format!("sheets.pdf of {}", game.id),
                || {
                    sheet::pdf(&svgs, options.page_in).map_err(|e| {
                        anyhow::anyhow!(
                            "failed to write the PDF sheets of {} ({e})",
                            game.id
                        )
                    })
                },
            )?;
            ctx.outputs.write(&pdf_path, &pdf)?;
            bar.inc();
            Ok(())
        },
        || {
            rayon::join(
                || {
                    let (w, h) = (
                        pixels(options.page_in.0, args.sheet_dpi),
                        pixels(options.page_in.1, args.sheet_dpi),
                    );
                    svgs.par_iter()
                        .zip(&pages)
                        .enumerate()
                        .map(|(i, (svg, page))| {
                            let kind = match page.kind {
                                sheet::PageKind::Fronts => "fronts",
                                sheet::PageKind::Backs => "backs",
                                sheet::PageKind::Folded => "folded",
                            };
                            let name = format!("sheet-{:02}-{kind}.png", i + 1);
                            let png = ctx.cache.png(&name, svg, w, h)?;
                            ctx.outputs.write(&dir.join(&name), &png)?;
                            bar.inc();
                            Ok(())
                        })
                        .collect::<Result<()>>()
                },
                || -> Result<()> {
                    // Every counter, both sides, with its id.
                    let bands: Vec<(String, u32)> = contact_bands(game, &all)
                        .into_iter()
                        .map(|(svg, h)| (svg, pixels(h, CONTACT_DPI)))
                        .collect();
                    let width = pixels(12.0 * 1.6, CONTACT_DPI);
                    let png = ctx.cache.png_bands("contact.png", &bands, width)?;
                    ctx.outputs.write(&contact_path, &png)?;
                    bar.inc();
                    Ok(())
                },
            )
        },
    );
    pdf?;
    pngs?;
    contact?;
    Ok(CounterImages {
        sides: jobs.len(),
        unknown_values,
        pdf: pdf_path.display().to_string(),
        pages: svgs.len(),
        png_pages: svgs.len(),
        contact_sheet: contact_path.display().to_string(),
    })
}

/// Contact sheet resolution, in dots per inch.
const CONTACT_DPI: u32 = 100;

/// A contact sheet as bands drawn one under the other: a title, then one band per row of
/// twelve counters, each with both sides side by side and its printed name beneath, 1.6 by
/// 0.95 inches a cell. Returns each band's SVG and height in inches; a changed counter
/// changes only its own band.
fn contact_bands(game: &Game, units: &[&muster_model::Unit]) -> Vec<(String, f64)> {
    use std::fmt::Write;

    use muster_render::counter::{counter_fragment, faces};

    let cols = 12usize;
    let (cw, chh) = (1.6 * 96.0, 0.95 * 96.0);
    let size = 0.6 * 96.0;
    let w = cols as f64 * cw;
    let band = |h: f64, body: &str| {
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{}in" height="{}in" viewBox="0 0 {w:.2} {h:.2}" font-family="{}"><rect width="100%" height="100%" fill="#ffffff"/>{body}</svg>
"##,
            w / 96.0,
            h / 96.0,
            muster_render::fonts::FAMILY,
        )
    };
    let mut bands = vec![(
        band(
            0.4 * 96.0,
            &format!(
                r##"<text x="8" y="24" font-size="18" font-weight="bold">{} — {} counters</text>"##,
                escape(&game.meta.title),
                units.len()
            ),
        ),
        0.4,
    )];
    for row in units.chunks(cols) {
        let mut s = String::new();
        for (i, u) in row.iter().enumerate() {
            let x = i as f64 * cw + 8.0;
            for (k, face) in faces(u).into_iter().enumerate() {
                let art = counter_fragment(game, u, face, 0.0);
                let _ = write!(
                    s,
                    r##"<svg x="{:.2}" y="0" width="{size:.2}" height="{size:.2}" viewBox="0 0 100 100">{}<rect width="100" height="100" fill="none" stroke="#000000" stroke-width="1"/></svg>"##,
                    x + k as f64 * (size + 4.0),
                    art.fragment
                );
            }
            let _ = write!(
                s,
                r##"<text x="{x:.2}" y="{:.2}" font-size="8" fill="#333333">{}</text>"##,
                size + 10.0,
                escape(&u.printed.v)
            );
        }
        bands.push((band(chh, &s), 0.95));
    }
    bands
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Solves every scenario and writes `dist/<game>/setups/<scenario>.json` (every counter on
/// its hex or in its holding box) and `dist/<game>/validation.json`. Returns the solutions
/// and the number of findings that need attention.
pub fn write_setups(
    ctx: &Context,
    game: &Game,
) -> Result<(Vec<muster_check::Solution>, usize)> {
    let dir = ctx.out.join("dist").join(&game.id);
    use rayon::prelude::*;
    let solved: Vec<(muster_check::Solution, Vec<muster_check::Finding>)> = game
        .scenarios
        .par_iter()
        .map(|s| {
            let solution = muster_check::solve(game, &s.id.v);
            let findings = muster_check::validate_solved(game, &s.id.v, &solution);
            (solution, findings)
        })
        .collect();
    let mut findings = Vec::new();
    let mut solutions = Vec::new();
    for (s, (solution, found)) in game.scenarios.iter().zip(solved) {
        let mut text = serde_json::to_string_pretty(&solution)?;
        text.push('\n');
        ctx.outputs.write(
            &dir.join("setups").join(format!("{}.json", s.id.v)),
            text.as_bytes(),
        )?;
        findings.extend(found);
        solutions.push(solution);
    }
    let mut text = serde_json::to_string_pretty(&findings)?;
    text.push('\n');
    ctx.outputs.write(&dir.join("validation.json"), text.as_bytes())?;
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
    ctx: &Context,
    game: &Game,
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
    let bar = ctx.stage("module", 1);
    let draw = |label: &str, svg: &str, w: u32, h: u32| {
        ctx.cache.png(&format!("module {label}"), svg, w, h).map_err(|e| format!("{e:#}"))
    };
    let module = build(game, &sheets, solutions, &options, &draw)
        .map_err(|e| anyhow::anyhow!("failed to package {} ({e})", game.id))?;
    let bytes = ctx.cache.zip(&format!("{}.vmod", game.id), &module.files)?;
    let dist = ctx.out.join("dist");
    let path = dist.join(format!("{}.vmod", game.id));
    ctx.outputs.write(&path, &bytes)?;
    let web = dist.join(&game.id).join("web");
    for (name, bytes) in &module.web {
        ctx.outputs.write(&web.join(name), bytes)?;
    }
    let mut text = serde_json::to_string_pretty(&module.setups)?;
    text.push('\n');
    ctx.outputs.write(&dist.join(&game.id).join("module.json"), text.as_bytes())?;
    bar.inc();
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
    outputs: &Outputs,
    out: &Path,
    game: &Game,
    sources: &muster_model::Sources,
) -> Result<Vec<muster_check::Erratum>> {
    let errata = muster_check::errata(game);
    let dir = out.join("dist").join(&game.id);
    let json: Vec<serde_json::Value> =
        errata.iter().map(|e| erratum_json(e, sources)).collect();
    let mut text = serde_json::to_string_pretty(&json)?;
    text.push('\n');
    outputs.write(&dir.join("errata.json"), text.as_bytes())?;
    outputs.write(
        &dir.join("errata.md"),
        errata_markdown(game, &errata, sources).as_bytes(),
    )?;
    Ok(errata)
}
