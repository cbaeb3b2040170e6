//! `muster diff`: what changed in each game between two states of its sources, each a
//! folder of game folders or a git revision of the repository that holds `--sources`.

use std::path::Path;

use anyhow::Result;
use muster_build::since;
use muster_model::changes::{self, Changes};
use muster_model::{LoadOptions, Loaded};
use serde::Serialize;

use crate::args::Format;
use crate::out::{errln, outln};

/// How a comparison ended, for the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The two states are the same (exit 0).
    Same,
    /// Something changed (exit 1, as `diff` does).
    Changed,
    /// A state could not be read or a game did not load (exit 2).
    Unusable,
}

/// The report: each game's changes, and the games found in one state only.
#[derive(Debug, Serialize)]
struct Report {
    /// The older state, as given.
    old: String,
    /// The newer state, as given (`--sources` when none was).
    new: String,
    /// Each game found in both states.
    games: Vec<Changes>,
    /// Games only the newer state has.
    added: Vec<String>,
    /// Games only the older state has.
    removed: Vec<String>,
}

/// Compares the games (all when `games` is empty) of the `old` state with those of `new`
/// (default: `sources` as it is), printing the changes as `format` asks.
pub fn run(
    sources: &Path,
    old: &str,
    new: Option<&str>,
    games: &[String],
    format: Format,
) -> Result<Outcome> {
    let before = since::resolve(sources, old)?;
    // The sources as they are need no identity: only their folder is read.
    let after = new.map(|new| since::resolve(sources, new)).transpose()?;
    let after_dir = after.as_ref().map_or(sources, |s| s.dir.as_path());
    let (Some(was), Some(is)) = (load(&before.dir, games)?, load(after_dir, games)?)
    else {
        return Ok(Outcome::Unusable);
    };
    let mut report = Report {
        old: old.to_string(),
        new: new.map_or_else(|| sources.display().to_string(), String::from),
        games: Vec::new(),
        added: Vec::new(),
        removed: Vec::new(),
    };
    for game in &is.games {
        match was.games.iter().find(|g| g.id == game.id) {
            Some(old) => report.games.push(muster_check::changes(old, game)),
            None => report.added.push(game.id.clone()),
        }
    }
    report.removed = was
        .games
        .iter()
        .filter(|g| !is.games.iter().any(|n| n.id == g.id))
        .map(|g| g.id.clone())
        .collect();
    print(&report, format)?;
    let same = report.added.is_empty()
        && report.removed.is_empty()
        && report.games.iter().all(Changes::is_empty);
    Ok(if same { Outcome::Same } else { Outcome::Changed })
}

fn print(report: &Report, format: Format) -> Result<()> {
    if format == Format::Json {
        outln!("{}", serde_json::to_string_pretty(report)?)?;
        return Ok(());
    }
    for id in &report.added {
        outln!("{id}: a game only {} has\n", report.new)?;
    }
    for id in &report.removed {
        outln!("{id}: a game only {} has\n", report.old)?;
    }
    for game in &report.games {
        outln!("{}", changes::markdown(game))?;
    }
    Ok(())
}

/// Loads the games of `dir`; `None` (with the errors printed) when one does not load.
fn load(dir: &Path, games: &[String]) -> Result<Option<Loaded>> {
    let loaded = muster_model::load(dir, games, &LoadOptions::default());
    if loaded.has_errors() {
        crate::report::print_diagnostics(&loaded.sources, &loaded.diagnostics);
        errln!("muster diff: the games under {} do not load", dir.display())?;
        return Ok(None);
    }
    Ok(Some(loaded))
}
