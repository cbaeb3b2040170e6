//! The render stage for counters: every counter side, the print sheets (PDF and PNG pages)
//! and the contact sheet.

use muster_model::{Game, Unit};
use muster_render::counter::{counter_fragment, counter_svg, faces};
use muster_render::sheet;
use rayon::prelude::*;

use super::{Context, pixels};
use crate::error::{Error, ErrorKind, Result};
use crate::report::CounterImages;
use crate::settings::CounterOptions;

/// Renders every counter side to `counters/<game>/<id>-<side>.png`, the print sheets to
/// `counters/<game>/sheets.pdf` and `sheet-NN-<kind>.png`, and a contact sheet.
pub fn render_counters(
    ctx: &Context,
    game: &Game,
    args: &CounterOptions,
) -> Result<CounterImages> {
    let options = &args.sheet;
    let counter_in = options.counter_in;
    let dir = ctx.out.join("counters").join(&game.id);
    let all: Vec<&Unit> = game.units.iter().chain(&game.markers).collect();
    let jobs: Vec<(&Unit, muster_render::Face)> =
        all.iter().flat_map(|u| faces(u).into_iter().map(move |f| (*u, f))).collect();
    let px = pixels(counter_in, args.dpi);
    let bar = ctx.stage("counters", jobs.len());
    let unknown_values = jobs
        .par_iter()
        .map(|(u, face)| {
            let (svg, unknown) = counter_svg(game, u, *face, counter_in);
            let name = format!("{}-{}.png", u.id, face.name());
            let png =
                ctx.cache.png(&format!("counter {name}"), &svg, px, px, args.dpi)?;
            ctx.outputs.write(&dir.join(&name), &png)?;
            bar.step();
            Ok(unknown)
        })
        .collect::<Result<Vec<usize>>>()?
        .into_iter()
        .sum();
    drop(bar);

    // Print sheets.
    let order = sheet::sheet_order(game);
    let sides: Vec<usize> = order.iter().map(|u| faces(u).len()).collect();
    let pages = sheet::layout(&sides, options).map_err(|e| {
        Error::new(
            ErrorKind::Render,
            format!("failed to lay out the counter sheets of {} ({e})", game.id),
        )
    })?;
    let svgs: Vec<String> =
        pages.par_iter().map(|p| sheet::page_svg(game, &order, p, options)).collect();
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
                        Error::new(
                            ErrorKind::Render,
                            format!(
                                "failed to write the PDF sheets of {} ({e})",
                                game.id
                            ),
                        )
                    })
                },
            )?;
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
                            let png = ctx.cache.png(&name, svg, w, h, args.sheet_dpi)?;
                            ctx.outputs.write(&dir.join(&name), &png)?;
                            bar.step();
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
                    let png =
                        ctx.cache.png_bands("contact.png", &bands, width, CONTACT_DPI)?;
                    ctx.outputs.write(&contact_path, &png)?;
                    bar.step();
                    Ok(())
                },
            )
        },
    );
    pdf?;
    pngs?;
    contact?;
    // Each sheet of art with the faces cut from it outlined.
    let cut_previews = muster_render::cuts::cut_previews(game)
        .par_iter()
        .map(|p| {
            let stem = std::path::Path::new(&p.sheet)
                .file_stem()
                .map_or_else(|| "sheet".into(), |s| s.to_string_lossy().into_owned());
            let name = format!("cuts-{stem}.png");
            let png = ctx.cache.png(&name, &p.svg, p.width, p.height, 96)?;
            let path = dir.join(&name);
            ctx.outputs.write(&path, &png)?;
            Ok(path.display().to_string())
        })
        .collect::<Result<Vec<String>>>()?;
    Ok(CounterImages {
        cut_previews,
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
fn contact_bands(game: &Game, units: &[&Unit]) -> Vec<(String, f64)> {
    use std::fmt::Write;

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
