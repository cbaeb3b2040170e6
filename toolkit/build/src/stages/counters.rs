//! The render stage for counters: every counter side ([`render_sides`]), then the print
//! sheets (PDF and PNG pages) and the contact sheet ([`render_sheets`]).

use muster_model::{Game, Unit};
use muster_render::FaceArts;
use muster_render::counter::{bled_svg, faces, standalone_svg};
use muster_render::die_line;
use muster_render::sheet;
use rayon::prelude::*;

use super::{Context, pixels};
use crate::error::{Error, ErrorKind, Result};
use crate::report::CounterImages;
use crate::settings::CounterOptions;
use muster_render::markup::text as escape;

/// The counter sides [`render_sides`] drew.
#[derive(Debug, Clone, Copy)]
pub struct Sides {
    /// How many (one PNG each).
    pub count: usize,
    /// Values drawn as `?` because the rulebook does not print them.
    pub unknown_values: usize,
}

/// Renders every counter side, from the sides drawn in `arts`, to
/// `counters/<game>/<id>-<side>.png`: the cut size, or the cut size with the bleed the
/// options ask for ([`CounterOptions::image_bleed_in`]).
pub fn render_sides(
    ctx: &Context,
    game: &Game,
    arts: &FaceArts,
    args: &CounterOptions,
) -> Result<Sides> {
    let counter_in = args.sheet.counter_in;
    let dir = ctx.out.join("counters").join(&game.id);
    let jobs: Vec<(&Unit, muster_render::Face)> = game
        .units
        .iter()
        .chain(&game.markers)
        .flat_map(|u| faces(u).into_iter().map(move |f| (u, f)))
        .collect();
    let px = pixels(counter_in, args.dpi);
    // The bleed in whole pixels, and in counter units (100 across the cut square).
    let bleed_px = pixels(args.image_bleed_in, args.dpi);
    let bleed = 100.0 * f64::from(bleed_px) / f64::from(px.max(1));
    let bar = ctx.stage("counters", jobs.len());
    let unknown_values = jobs
        .par_iter()
        .map(|(u, face)| {
            let name = format!("{}-{}.png", u.id, face.name());
            let (path, label) = (dir.join(&name), format!("counter {name}"));
            if bleed_px == 0 {
                ctx.write_digested_png(
                    &path,
                    &label,
                    &arts.standalone_digest(game, u, *face, counter_in),
                    &|| standalone_svg(&arts.get(game, u, *face), counter_in),
                    (px, px),
                    args.dpi,
                )?;
            } else {
                let svg = bled_svg(&arts.bled(game, u, *face, bleed), counter_in, bleed);
                let size = px + 2 * bleed_px;
                ctx.write_png(&path, &label, &svg, (size, size), args.dpi)?;
            }
            bar.step();
            Ok(arts.get(game, u, *face).unknown_values)
        })
        .collect::<Result<Vec<usize>>>()?
        .into_iter()
        .sum();
    Ok(Sides { count: jobs.len(), unknown_values })
}

/// Renders the print sheets to `counters/<game>/sheets.pdf` and `sheet-NN-<kind>.png`, a
/// contact sheet (from the sides drawn in `arts`) and the previews of cut art; `drawn` is
/// what [`render_sides`] drew.
pub fn render_sheets(
    ctx: &Context,
    game: &Game,
    arts: &FaceArts,
    args: &CounterOptions,
    drawn: Sides,
) -> Result<CounterImages> {
    let options = &args.sheet;
    let dir = ctx.out.join("counters").join(&game.id);
    let all: Vec<&Unit> = game.units.iter().chain(&game.markers).collect();
    // Print sheets.
    let order = sheet::sheet_order(game);
    let sides: Vec<usize> = order.iter().map(|u| faces(u).len()).collect();
    let pages = sheet::layout(&sides, options).map_err(|e| {
        Error::new(
            ErrorKind::Render,
            format!("failed to lay out the counter sheets of {} ({e})", game.id),
        )
    })?;
    let svgs: Vec<String> = pages
        .par_iter()
        .map(|p| sheet::page_svg(game, &order, p, options, arts))
        .collect();
    let bar = ctx.stage("sheets", svgs.len() + 2);
    let pdf_path = dir.join("sheets.pdf");
    // The PDF, the sheet images and the contact sheet are independent: draw them at once.
    let (pdf, (pngs, contact)) = rayon::join(
        || -> Result<()> {
            let pdf = sheets_pdf(ctx, game, args, &pages, &svgs)?;
            ctx.outputs.write(&pdf_path, &pdf)?;
            bar.step();
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
                            ctx.write_png(
                                &dir.join(&name),
                                &name,
                                svg,
                                (w, h),
                                args.sheet_dpi,
                            )?;
                            bar.step();
                            Ok(())
                        })
                        .collect::<Result<()>>()
                },
                || -> Result<Vec<String>> {
                    // Every counter, both sides, with its id, on pages of at most
                    // `CONTACT_ROWS` rows.
                    let width = pixels(12.0 * 1.6, CONTACT_DPI);
                    let pages = contact_pages(game, arts, &all);
                    let count = pages.len();
                    pages
                        .into_par_iter()
                        .enumerate()
                        .map(|(i, bands)| {
                            let name = contact_name(i);
                            let bands: Vec<(String, u32)> = bands
                                .into_iter()
                                .map(|(svg, h)| (svg, pixels(h, CONTACT_DPI)))
                                .collect();
                            let png =
                                ctx.cache.png_bands(&name, &bands, width, CONTACT_DPI)?;
                            let path = dir.join(&name);
                            ctx.outputs.write(&path, &png)?;
                            if i + 1 == count {
                                bar.step();
                            }
                            Ok(path.display().to_string())
                        })
                        .collect()
                },
            )
        },
    );
    pdf?;
    pngs?;
    let contact_sheets = contact?;
    // Each sheet of art with the faces cut from it outlined.
    let cut_previews = muster_render::cuts::cut_previews(game)
        .par_iter()
        .map(|p| {
            let stem = std::path::Path::new(&p.sheet)
                .file_stem()
                .map_or_else(|| "sheet".into(), |s| s.to_string_lossy().into_owned());
            let name = format!("cuts-{stem}.png");
            let path = dir.join(&name);
            ctx.write_png(&path, &name, &p.svg, (p.width, p.height), 96)?;
            Ok(path.display().to_string())
        })
        .collect::<Result<Vec<String>>>()?;
    Ok(CounterImages {
        cut_previews,
        sides: drawn.count,
        unknown_values: drawn.unknown_values,
        pdf: pdf_path.display().to_string(),
        pages: svgs.len(),
        png_pages: svgs.len(),
        contact_sheets,
    })
}

/// The print sheets' PDF, from each page's SVG: each page is a PDF of its own, kept in
/// the cache, so a changed counter draws only its page again, and the document joins them.
fn sheets_pdf(
    ctx: &Context,
    game: &Game,
    args: &CounterOptions,
    pages: &[sheet::Page],
    svgs: &[String],
) -> Result<Vec<u8>> {
    let options = &args.sheet;
    let boxes: Vec<sheet::PrintBoxes> =
        pages.iter().map(|p| sheet::print_boxes(p, options)).collect();
    let info = sheet::DocInfo::new(
        &format!("{} — counter sheets", game.meta.title),
        args.sheet_date,
    );
    let page_key = |(svg, b): (&String, &sheet::PrintBoxes)| {
        let mut key = ctx.cache.key("pdf page");
        key.part(&options.page_in.0.to_le_bytes()).part(&options.page_in.1.to_le_bytes());
        for r in [b.trim, b.bleed] {
            for v in [r.x0, r.y0, r.x1, r.y1] {
                key.part(&v.to_le_bytes());
            }
        }
        key.part(svg.as_bytes()).finish()
    };
    let keys: Vec<_> = svgs.par_iter().zip(&boxes).map(page_key).collect();
    let die_lines: Vec<String> = if options.die_line {
        let h = options.page_in.1;
        pages
            .iter()
            .map(|p| die_line::content(&die_line::cut_lines(p, options), h))
            .collect()
    } else {
        Vec::new()
    };
    let mut whole = ctx.cache.key("pdf");
    whole.part(info.title.as_bytes()).part(&info.date.to_le_bytes());
    for key in &keys {
        whole.part(key.hex().as_bytes());
    }
    for die in &die_lines {
        whole.part(die.as_bytes());
    }
    let failed = |e: String| {
        Error::new(
            ErrorKind::Render,
            format!("failed to write the PDF sheets of {} ({e})", game.id),
        )
    };
    ctx.cache.joined(
        &whole.finish(),
        &format!("sheets.pdf of {}", game.id),
        &keys,
        |i| format!("page {} of sheets.pdf of {}", i + 1, game.id),
        |i| sheet::page_pdf(&svgs[i], options.page_in, &boxes[i]).map_err(failed),
        |pages| sheet::join_pdf(&pages, &info, &die_lines).map_err(failed),
    )
}

/// Contact sheet resolution, in dots per inch.
const CONTACT_DPI: u32 = 100;

/// Rows of counters on one page of the contact sheet: 1,440 counters, some 11,500 pixels
/// tall, so that the largest games stay within what image viewers (and PNG encoders) take.
const CONTACT_ROWS: usize = 120;

/// Counters in a row of the contact sheet.
const CONTACT_COLUMNS: usize = 12;

/// The file of page `i` (from 0) of the contact sheet: `contact.png`, then
/// `contact-2.png`, `contact-3.png`…
fn contact_name(i: usize) -> String {
    if i == 0 { "contact.png".into() } else { format!("contact-{}.png", i + 1) }
}

/// The contact sheet's pages (see [`contact_bands`]), [`CONTACT_ROWS`] rows a page, each
/// page under its own title.
fn contact_pages(
    game: &Game,
    arts: &FaceArts,
    units: &[&Unit],
) -> Vec<Vec<(String, f64)>> {
    let per_page = CONTACT_ROWS * CONTACT_COLUMNS;
    let pages = units.len().div_ceil(per_page).max(1);
    (0..pages)
        .map(|p| {
            let from = p * per_page;
            let these = &units[from..(from + per_page).min(units.len())];
            let title = if pages == 1 {
                format!("{} — {} counters", game.meta.title, units.len())
            } else {
                format!(
                    "{} — counters {} to {} of {} (page {} of {pages})",
                    game.meta.title,
                    from + 1,
                    from + these.len(),
                    units.len(),
                    p + 1
                )
            };
            contact_bands(game, arts, &title, these)
        })
        .collect()
}

/// A contact sheet page as bands drawn one under the other: a title, then one band per row
/// of twelve counters, each with both sides side by side and its printed name beneath, 1.6
/// by 0.95 inches a cell. Returns each band's SVG and height in inches; a changed counter
/// changes only its own band.
fn contact_bands(
    game: &Game,
    arts: &FaceArts,
    title: &str,
    units: &[&Unit],
) -> Vec<(String, f64)> {
    use std::fmt::Write;

    let cols = CONTACT_COLUMNS;
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
                r##"<text x="8" y="24" font-size="18" font-weight="bold">{}</text>"##,
                escape(title),
            ),
        ),
        0.4,
    )];
    for row in units.chunks(cols) {
        let mut s = String::new();
        for (i, u) in row.iter().enumerate() {
            let x = i as f64 * cw + 8.0;
            for (k, face) in faces(u).into_iter().enumerate() {
                let art = arts.get(game, u, face);
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
