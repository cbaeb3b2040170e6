//! The package stage: a game as a VASSAL module and a browser table.

use muster_check::Solution;
use muster_model::Game;
use muster_package::module::{Drawn, ModuleOptions, SheetImage, build};
use muster_render::FaceArts;
use rayon::prelude::*;

use super::Context;
use crate::cache::Picture;
use crate::error::{Error, ErrorKind, Result};
use crate::last_archive::LastArchive;
use crate::report::{LiveRulesReport, MapImage, ModuleReport, SetupReport};

/// Packages a game as `dist/<game>.vmod`, its browser table under `dist/<game>/web/`, and
/// writes what each setup holds to `dist/<game>/module.json`.
pub fn write_module(
    ctx: &Context,
    game: &Game,
    arts: &FaceArts,
    maps: &[MapImage],
    solutions: &[Solution],
    counter_in: f64,
) -> Result<ModuleReport> {
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
    let options = ModuleOptions { counter_in, arts };
    let bar = ctx.stage("module", 1);
    let dist = ctx.out.join("dist");
    let path = dist.join(format!("{}.vmod", game.id));
    // The images the last build put in the module, unchanged since, are read from it: one
    // open file instead of one cache object per image.
    let last = ctx.outputs.last_archive(&path).and_then(|e| LastArchive::open(&path, e));
    // Each image is drawn through the cache and named by its object's key, so that its
    // copy in the browser table can be kept unread.
    let draw = |label: &str, svg: &str, width: u32, height: u32, dpi: u32| {
        let label = format!("module {label}");
        let picture = Picture { svg, width, height, dpi };
        let key = ctx.cache.png_key(&label, &picture);
        let hex = key.hex();
        if let Some(png) = last.as_ref().and_then(|l| l.object(&hex)) {
            ctx.cache.reuse(&key);
            return Ok(Drawn { png, origin: Some(hex) });
        }
        let png =
            ctx.cache.png_of(&key, &label, &picture).map_err(|e| format!("{e:#}"))?;
        Ok(Drawn { png, origin: Some(hex) })
    };
    let keep = ctx.cache.keeper(ErrorKind::Package, &game.id);
    let module =
        build(game, &sheets, solutions, &options, &draw, &*keep).map_err(|e| {
            Error::new(ErrorKind::Package, format!("failed to package {} ({e})", game.id))
        })?;
    let bytes = ctx.cache.zip(&format!("{}.vmod", game.id), &module.files)?;
    drop(last);
    let web = dist.join(&game.id).join("web");
    // The archive is written beside the browser table's files.
    let (archive, table) = rayon::join(
        || ctx.outputs.write_archive(&path, &bytes, module.origins.clone()),
        || -> Result<()> {
            module.web.files.par_iter().try_for_each(|(name, bytes)| {
                ctx.outputs.write(&web.join(name), bytes)
            })?;
            module.web.from_module.par_iter().try_for_each(|(name, of)| {
                let bytes = module.files.get(of).ok_or_else(|| {
                    Error::new(
                        ErrorKind::Package,
                        format!(
                            "the browser table's {name} copies {of}, not in the module"
                        ),
                    )
                })?;
                let path = web.join(name);
                match module.origins.get(of) {
                    Some(key) if ctx.outputs.keep_object(&path, key) => Ok(()),
                    Some(key) => ctx.outputs.write_object(&path, key, bytes),
                    None => ctx.outputs.write(&path, bytes),
                }
            })
        },
    );
    archive?;
    table?;
    let mut text = serde_json::to_string_pretty(&module.setups)?;
    text.push('\n');
    ctx.outputs.write(&dist.join(&game.id).join("module.json"), text.as_bytes())?;
    bar.step();
    Ok(ModuleReport {
        path: path.display().to_string(),
        bytes: bytes.len(),
        pieces: module.slots,
        prototypes: module.prototypes,
        setups: module
            .setups
            .iter()
            .map(|s| SetupReport {
                scenario: s.scenario.clone(),
                file: s.file.clone(),
                pieces: s.pieces.len(),
            })
            .collect(),
        live_rules: LiveRulesReport {
            checked: module.live_rules.checked.clone(),
            approximated: module.live_rules.approximated.clone(),
        },
    })
}
