//! `muster import`: a game folder written from an existing VASSAL module, and the report of
//! every component of the module it could not carry.

use std::path::Path;

use anyhow::Result;
use muster_import::{Imported, import};
use serde_json::json;

use crate::args::{Format, Global};
use crate::exit::Exit;
use crate::out::{errln, outln};
use crate::pieces::read_limited;

/// Imports `module` as the game `game` under `--sources`; exit 1 when something was not
/// carried, 2 when the module cannot be read or the folder exists.
pub fn run(g: &Global, module: &Path, game: &str, format: Format) -> Result<Exit> {
    let bytes = read_limited(module)?;
    let file = module.file_name().map_or_else(
        || module.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    let imported = import(bytes, game, &file)
        .map_err(|e| anyhow::anyhow!("{}: {e}", module.display()))?;
    let written = muster_build::init::write_new_game(&g.sources, game, &imported.files)?;
    let folder = g.sources.join(game);
    if format == Format::Json {
        let doc = json!({
            "game": game,
            "folder": folder.display().to_string(),
            "files": written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "counters": imported.counters,
            "maps": imported.maps,
            "scenarios": imported.scenarios,
            "charts": imported.charts,
            "not_carried": imported.report.not_carried,
        });
        outln!("{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        text(g, &folder, game, &imported)?;
    }
    Ok(if imported.report.not_carried.is_empty() { Exit::Clean } else { Exit::Findings })
}

fn text(g: &Global, folder: &Path, game: &str, imported: &Imported) -> Result<()> {
    for n in &imported.report.not_carried {
        outln!("not carried: {}: {}: {}", n.path, n.what, n.why)?;
    }
    if !g.quiet {
        errln!(
            "wrote {} ({} files: {} counters, {} map(s), {} scenario(s), {} chart(s)); {} component(s) not carried; build it with `muster build --game {game}`",
            folder.display(),
            imported.files.len(),
            imported.counters,
            imported.maps,
            imported.scenarios,
            imported.charts,
            imported.report.not_carried.len()
        )?;
    }
    Ok(())
}
