//! The changes stage, when the build is given the last release's sources (`--since`): what
//! changed in the game since, as `dist/<game>/changes.md` and `changes.json`, and as a
//! printable errata sheet, `changes.pdf`.

use muster_model::changes::{self, Changes};
use muster_model::{Game, LoadOptions};
use muster_render::chart::CardLine;

use super::Context;
use crate::error::{Error, ErrorKind, Result};
use crate::since::State;

/// Pixels per inch of the errata sheet's drawing.
const SHEET_PX_PER_IN: f64 = 96.0;

/// Writes what changed in `game` since the state `since`; returns the changes, or nothing
/// when that state has no such game (then the files say the game is new). The errata
/// sheet is dated `date` (seconds since 1970, from `SOURCE_DATE_EPOCH`) or else as muster
/// dates every PDF it writes.
pub fn write_changes(
    ctx: &Context,
    game: &Game,
    since: &State,
    date: Option<u64>,
) -> Result<Option<Changes>> {
    let folder = game.dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let dir = ctx.out.join("dist").join(&game.id);
    let Some(folder) = folder.filter(|f| since.dir.join(f).is_dir()) else {
        let text = format!(
            "# {}: changes since {}\n\nThe game is not in {}: all of it is new.\n",
            game.meta.title, since.label, since.label
        );
        ctx.outputs.write(&dir.join("changes.md"), text.as_bytes())?;
        ctx.outputs.write(&dir.join("changes.json"), b"null\n")?;
        return Ok(None);
    };
    let loaded = muster_model::load(&since.dir, &[folder], &LoadOptions::default());
    let old = loaded.games.iter().find(|g| g.id == game.id);
    let Some(old) = old.filter(|_| !loaded.has_errors()) else {
        return Err(Error::new(
            ErrorKind::Sources,
            format!(
                "{} as of {} does not load, so what changed since cannot be told; see why \
                 with `muster diff {}`",
                game.id, since.label, since.label
            ),
        ));
    };
    let found = muster_check::changes(old, game);
    let mut json = serde_json::to_string_pretty(&found)?;
    json.push('\n');
    ctx.outputs.write(&dir.join("changes.json"), json.as_bytes())?;
    ctx.outputs.write(&dir.join("changes.md"), changes::markdown(&found).as_bytes())?;
    let sheet = errata_sheet(&found);
    let size = (
        f64::from(sheet.width) / SHEET_PX_PER_IN,
        f64::from(sheet.height) / SHEET_PX_PER_IN,
    );
    let info =
        muster_render::pdfx::DocInfo::new(&format!("{}: errata", game.meta.title), date);
    let pdf = muster_render::sheet::pdf(&[sheet.svg], size, &info).map_err(|e| {
        Error::new(ErrorKind::Render, format!("failed to draw the errata sheet ({e})"))
    })?;
    ctx.outputs.write(&dir.join("changes.pdf"), &pdf)?;
    Ok(Some(found))
}

/// The errata sheet: the game's title and versions, then each part's changes, a line each.
pub fn errata_sheet(c: &Changes) -> muster_render::chart::Drawn {
    let (from, to) = &c.versions;
    let mut lines = vec![CardLine::Note(format!("Changes from version {from} to {to}"))];
    if c.is_empty() {
        lines.push(CardLine::Note("Nothing changed.".into()));
    }
    for (heading, part) in c.parts() {
        for (k, change) in part.iter().enumerate() {
            let label = if k == 0 { heading.to_string() } else { String::new() };
            lines.push(CardLine::Entry(label, changes::sentence(change)));
        }
    }
    muster_render::chart::card_svg(&format!("{}: errata", c.title), &lines, 768.0)
}
