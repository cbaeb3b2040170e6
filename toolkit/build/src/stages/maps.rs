//! The render stage for maps: every map sheet as SVG, PNG and print-ready PDF.

use muster_model::Game;
use muster_render::map::{LegendPlace, MapScene};
use muster_render::map_print;
use muster_render::map_svg;
use muster_render::pdfx::DocInfo;
use rayon::prelude::*;

use super::{Context, pixels};
use crate::error::{Error, ErrorKind, IoContext, Result};
use crate::report::MapImage;
use crate::settings::CounterOptions;

/// Renders every map sheet of a game to `maps/<game>/<map>.svg`, `.png` and `.pdf`, the
/// PDF with the bleed and date of the print sheets in `print`.
pub fn render_maps(
    ctx: &Context,
    game: &Game,
    dpi: u32,
    print: &CounterOptions,
) -> Result<Vec<MapImage>> {
    let dir = ctx.out.join("maps").join(&game.id);
    let bar = ctx.stage("maps", game.maps.len());
    let images = (0..game.maps.len())
        .into_par_iter()
        .filter_map(|index| Some((index, map_svg(game, index)?)))
        .map(|(index, scene)| {
            let (w, h) = (pixels(scene.width_in, dpi), pixels(scene.height_in, dpi));
            ctx.outputs
                .write(&dir.join(format!("{}.svg", scene.id)), scene.svg.as_bytes())?;
            let pdf = print_pdf(ctx, game, index, &scene, print)?;
            ctx.outputs.write(&dir.join(format!("{}.pdf", scene.id)), &pdf)?;
            let png_path = dir.join(format!("{}.png", scene.id));
            // An image the last build wrote from the same object is kept unread: the
            // module finds it in the last module, or reads it from the file.
            let label = format!("map {} of {}", scene.id, game.id);
            let (key, data) =
                ctx.write_png(&png_path, &label, &scene.svg, (w, h), dpi)?;
            // A kept image's size is the one the listing at the build's start found.
            let bytes = match (&data, ctx.outputs.found_untouched(&png_path)) {
                (Some(png), _) => png.len() as u64,
                (None, Some((len, _))) => len,
                (None, None) => std::fs::metadata(&png_path)
                    .io(|| format!("failed to read {}", png_path.display()))?
                    .len(),
            } as usize;
            // A legend with no free place on its printed sheet, on a sheet of its own.
            let legend_apart = match &scene.legend {
                Some(LegendPlace::Apart(svg, w_in, h_in)) => {
                    let (lw, lh) = (pixels(*w_in, dpi), pixels(*h_in, dpi));
                    let png = ctx.cache.png(
                        &format!("legend of map {} of {}", scene.id, game.id),
                        svg,
                        lw,
                        lh,
                        dpi,
                    )?;
                    let path = dir.join(format!("{}-legend.png", scene.id));
                    ctx.outputs.write(&path, &png)?;
                    ctx.outputs.write(
                        &dir.join(format!("{}-legend.svg", scene.id)),
                        svg.as_bytes(),
                    )?;
                    Some(path.display().to_string())
                }
                _ => None,
            };
            bar.step();
            Ok(MapImage {
                map: scene.id.clone(),
                png: png_path.display().to_string(),
                width: w,
                height: h,
                width_in: scene.width_in,
                height_in: scene.height_in,
                printed_size: scene.printed_size,
                unknown_terrain: scene.unknown_terrain,
                legend_apart,
                grid_fit_px: game
                    .map_art
                    .get(index)
                    .and_then(Option::as_ref)
                    .map(|a| a.misses_px.clone()),
                bytes,
                data,
                key,
                drawing: drawing_digest(&scene.svg, (w, h), dpi),
                dpi,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(images)
}

/// The print-ready PDF of map `index` ([`map_print::map_pdf`]), from the cache or written
/// now.
fn print_pdf(
    ctx: &Context,
    game: &Game,
    index: usize,
    scene: &MapScene,
    print: &CounterOptions,
) -> Result<Vec<u8>> {
    let name = game.maps.get(index).map_or(scene.id.as_str(), |m| m.name.as_str());
    let info = DocInfo::new(&format!("{} — {name}", game.meta.title), print.sheet_date);
    let bleed = map_print::map_bleed(print.sheet.bleed_in);
    let mut key = ctx.cache.key("map pdf");
    key.part(&bleed.to_le_bytes())
        .part(info.title.as_bytes())
        .part(&info.date.to_le_bytes())
        .part(scene.svg.as_bytes());
    ctx.cache.get_or_make(
        &key.finish(),
        || format!("{}.pdf of {}", scene.id, game.id),
        || {
            map_print::map_pdf(scene, bleed, &info).map_err(|e| {
                Error::new(
                    ErrorKind::Render,
                    format!(
                        "failed to write the PDF of map {} of {} ({e})",
                        scene.id, game.id
                    ),
                )
            })
        },
    )
}

/// A digest, in hex, of what draws a map's PNG alike every time: its SVG at a pixel size
/// and resolution.
fn drawing_digest(svg: &str, (w, h): (u32, u32), dpi: u32) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(svg.as_bytes());
    hasher.update(format!("\n{w}x{h}@{dpi}").as_bytes());
    hasher.finalize().to_hex().to_string()
}
