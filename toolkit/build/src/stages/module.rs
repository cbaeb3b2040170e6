//! The package stage: a game as a VASSAL module and a browser table.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use muster_check::Solution;
use muster_model::Game;
use muster_model::changes::Changes;
use muster_package::archive::{ArchiveError, Fetched};
use muster_package::module::{Drawn, Module, ModuleOptions, SheetImage, ToDraw, build};
use muster_render::FaceArts;
use rayon::prelude::*;

use super::{Context, release};
use crate::cache::{Key, Picture};
use crate::error::{Error, ErrorKind, IoContext, Result};
use crate::last_archive::LastArchive;
use crate::report::{LiveRulesReport, MapImage, ModuleReport, SetupReport};
use crate::settings::CounterOptions;
use crate::sync::lock;
use crate::writeback::Streamed;

/// Packages a game as `dist/<game>.vmod`, its browser table under `dist/<game>/web/`, and
/// writes what each setup holds to `dist/<game>/module.json` and the release the module is
/// to `dist/<game>/release.json` ([`release`]). `whats_new`, when the build was told the
/// last release, fills the help's "What's new" page.
pub fn write_module(
    ctx: &Context,
    game: &Game,
    arts: &FaceArts,
    maps: &[MapImage],
    solutions: &[Solution],
    counters: &CounterOptions,
    whats_new: Option<&Changes>,
) -> Result<ModuleReport> {
    let (counter_in, source_date) = (counters.sheet.counter_in, counters.sheet_date);
    let last_release = release::last(ctx.out, &game.id);
    let version = &game.meta.module.version.v;
    let released = release::date(last_release.as_ref(), version, source_date);
    let options = ModuleOptions { counter_in, arts, released: &released, whats_new };
    let bar = ctx.stage("module", 1);
    let dist = ctx.out.join("dist");
    let path = dist.join(format!("{}.vmod", game.id));
    // The images the last build put in the module, unchanged since, are copied from it as
    // the new one is written: one open file instead of one cache object per image.
    let mut last = ctx.outputs.take_last_archive(&path);
    let package = |last: &Option<LastArchive>| {
        let sheets = maps
            .iter()
            .map(|m| sheet_image(m, last.as_ref()))
            .collect::<Result<Vec<_>>>()?;
        package(ctx, game, &sheets, solutions, &options, last.as_ref())
    };
    let label = format!("{}.vmod", game.id);
    let (mut module, mut reused) = package(&last)?;
    // The browser table and `module.json` are written beside the archive, which one
    // thread writes.
    let (archive, beside) = rayon::join(
        || write_archive(ctx, &path, &label, &module, last.as_ref()),
        || write_beside(ctx, game, &module, last.as_ref()),
    );
    let (archive_size, content) = match archive {
        Ok(written) => {
            beside?;
            written
        }
        // When the last module no longer holds an image intact, the images are taken
        // again from it but for the damaged ones, which are drawn; what was written beside
        // is written again from the new module.
        Err(Damaged::Yes(_)) => {
            last = last.and_then(LastArchive::without_damaged);
            (module, reused) = package(&last)?;
            let written = write_archive(ctx, &path, &label, &module, last.as_ref())
                .map_err(Damaged::error)?;
            write_beside(ctx, game, &module, last.as_ref())?;
            written
        }
        Err(Damaged::No(e)) => return Err(e),
    };
    let settled = release::settle(last_release, version, &released, &content);
    let mut record = serde_json::to_string_pretty(&settled.record)?;
    record.push('\n');
    ctx.outputs.write(&release::record_path(ctx.out, &game.id), record.as_bytes())?;
    ctx.cache.reuse_all(&reused);
    drop(last);
    bar.step();
    Ok(ModuleReport {
        path: path.display().to_string(),
        bytes: archive_size as usize,
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
        release: settled.record,
        changed_under: settled.changed_under,
    })
}

/// How writing an archive failed: with a held image found damaged, or otherwise.
enum Damaged {
    /// An image the last module held was no longer intact.
    Yes(Error),
    /// Any other failure.
    No(Error),
}

impl Damaged {
    /// The failure, whichever it was.
    fn error(self) -> Error {
        match self {
            Damaged::Yes(e) | Damaged::No(e) => e,
        }
    }
}

/// Writes `module` as the archive `path`, copying each image it holds from the `last`
/// module as its turn comes; returns the archive's size and content.
fn write_archive(
    ctx: &Context,
    path: &Path,
    label: &str,
    module: &Module,
    last: Option<&LastArchive>,
) -> std::result::Result<(u64, String), Damaged> {
    let damaged = AtomicBool::new(false);
    let fetch = |name: &str, bytes: &mut Vec<u8>| {
        if held_image(module, last, name, bytes) {
            return Ok(());
        }
        damaged.store(true, Ordering::Relaxed);
        Err(ArchiveError(format!("the last module no longer holds {name} intact")))
    };
    // An image the last module holds intact is copied from it as it lies there.
    let lying = |name: &str| {
        let key = module.origins.get(name).filter(|_| module.held.contains(name))?;
        last?.lying(key)
    };
    let fetched = Fetched { names: &module.held, fetch: &fetch, lying: &lying };
    let mut written = (0, String::new());
    let fill = |file: &mut Streamed| {
        written = ctx.cache.zip(label, &module.files, &fetched, file)?;
        Ok(())
    };
    match ctx.outputs.write_archive(path, fill, module.origins.clone()) {
        Ok(()) => Ok(written),
        Err(e) if damaged.load(Ordering::Relaxed) => Err(Damaged::Yes(e)),
        Err(e) => Err(Damaged::No(e)),
    }
}

/// Writes what goes beside the module: its browser table under `dist/<game>/web/` (the
/// images copied from the module, kept unread when the last build wrote the same ones)
/// and what each setup holds, as `dist/<game>/module.json`.
fn write_beside(
    ctx: &Context,
    game: &Game,
    module: &Module,
    last: Option<&LastArchive>,
) -> Result<()> {
    let dist = ctx.out.join("dist");
    let web = dist.join(&game.id).join("web");
    module
        .web
        .files
        .par_iter()
        .try_for_each(|(name, bytes)| ctx.outputs.write(&web.join(name), bytes))?;
    module.web.from_module.par_iter().try_for_each(|(name, of)| {
        let path = web.join(name);
        let origin = module.origins.get(of);
        if origin.is_some_and(|key| ctx.outputs.keep_object(&path, key)) {
            return Ok(());
        }
        let mut read = Vec::new();
        let bytes = match module.files.get(of) {
            Some(bytes) => bytes,
            None if held_image(module, last, of, &mut read) => &read,
            None if module.held.contains(of) => {
                return Err(Error::new(
                    ErrorKind::Package,
                    format!("{} changed while it was read; build again", path.display()),
                ));
            }
            None => {
                return Err(Error::new(
                    ErrorKind::Package,
                    format!("the browser table's {name} copies {of}, not in the module"),
                ));
            }
        };
        match origin {
            Some(key) => ctx.outputs.write_object(&path, key, bytes),
            None => ctx.outputs.write(&path, bytes),
        }
    })?;
    let mut text = serde_json::to_string_pretty(&module.setups)?;
    text.push('\n');
    ctx.outputs.write(&dist.join(&game.id).join("module.json"), text.as_bytes())?;
    Ok(())
}

/// A map sheet for the module: held when the last module holds its image, else its bytes
/// as the maps stage drew or read them, or from its file when it kept that unread.
fn sheet_image(map: &MapImage, last: Option<&LastArchive>) -> Result<SheetImage> {
    let png = if last.is_some_and(|l| l.size(&map.key).is_some()) {
        Drawn::Held { origin: map.key.clone() }
    } else {
        let bytes = match &map.data {
            Some(bytes) => bytes.clone(),
            None => {
                std::fs::read(&map.png).io(|| format!("failed to read {}", map.png))?
            }
        };
        Drawn::named(bytes, map.key.clone())
    };
    Ok(SheetImage {
        sheet: map.map.clone(),
        png,
        width: map.width,
        height: map.height,
        dpi: f64::from(map.dpi),
        digest: map.drawing.clone(),
    })
}

/// Fills `bytes` with the image `name` of `module` that the last module holds; returns
/// whether it held it intact.
fn held_image(
    module: &Module,
    last: Option<&LastArchive>,
    name: &str,
    bytes: &mut Vec<u8>,
) -> bool {
    module.held.contains(name)
        && module
            .origins
            .get(name)
            .is_some_and(|key| last.is_some_and(|l| l.read_object(key, bytes)))
}

/// A game's module, drawing through the cache each image not taken from the `last`
/// module, and the keys of the images taken from it.
fn package(
    ctx: &Context,
    game: &Game,
    sheets: &[SheetImage],
    solutions: &[Solution],
    options: &ModuleOptions,
    last: Option<&LastArchive>,
) -> Result<(Module, Vec<Key>)> {
    let reused = Mutex::new(Vec::new());
    // Each image is drawn through the cache and named by its object's key, so that its
    // copy in the browser table can be kept unread.
    let draw = |image: &ToDraw| {
        let label = format!("module {}", image.label);
        let (width, height, dpi) = (image.width, image.height, image.dpi);
        let key = ctx.cache.digested_png_key(
            &label,
            &image.digest,
            (width, height, dpi),
            image.svg,
        );
        let hex = key.hex();
        // An image the last module holds is read from it only as the new one is written.
        if last.is_some_and(|l| l.size(&hex).is_some()) {
            lock(&reused).push(key);
            return Ok(Drawn::Held { origin: hex });
        }
        let svg = (image.svg)();
        let picture = Picture { svg: &svg, width, height, dpi };
        let png =
            ctx.cache.png_of(&key, &label, &picture).map_err(|e| format!("{e:#}"))?;
        Ok(Drawn::named(png, hex))
    };
    let keep = ctx.cache.keeper(ErrorKind::Package, &game.id);
    let module = build(game, sheets, solutions, options, &draw, &*keep).map_err(|e| {
        Error::new(ErrorKind::Package, format!("failed to package {} ({e})", game.id))
    })?;
    Ok((module, reused.into_inner().unwrap_or_else(|e| e.into_inner())))
}
