//! `muster clean`: removes what `muster build` wrote and its cache.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use crate::args::Global;
use crate::commands::Exit;

/// Removes the outputs of `games` (every game with outputs when empty, and then the whole
/// cache and the benchmark's figures) from `g.out`. Files muster did not write are left
/// alone, and so are the folders holding them.
pub fn run(g: &Global, games: &[String]) -> Result<Exit> {
    let ids: Vec<String> =
        if games.is_empty() { built_games(&g.out) } else { games.to_vec() };
    let mut removed = 0;
    for id in &ids {
        for path in crate::build::game_outputs(&g.out, id) {
            removed += remove(&path)?;
        }
        removed += remove(
            &crate::build::cache_dir(&g.out).join("games").join(format!("{id}.json")),
        )?;
    }
    if games.is_empty() {
        removed += remove(&crate::build::cache_dir(&g.out))?;
        removed += remove(&g.out.join("dist").join("bench.json"))?;
    }
    for top in ["counters", "maps", "dist"] {
        // Only empty folders go.
        let _ = fs::remove_dir(g.out.join(top));
    }
    if !g.quiet {
        eprintln!("removed {removed} file(s) of {} game(s)", ids.len());
    }
    Ok(Exit::Clean)
}

/// The ids of games with outputs under `out`.
fn built_games(out: &Path) -> Vec<String> {
    let mut ids = std::collections::BTreeSet::new();
    for top in ["counters", "maps", "dist"] {
        let Ok(entries) = fs::read_dir(out.join(top)) else { continue };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                ids.insert(name);
            } else if let Some(id) = name.strip_suffix(".vmod") {
                ids.insert(id.to_string());
            }
        }
    }
    ids.into_iter().collect()
}

/// Removes a file or a folder with everything in it; returns how many files went.
fn remove(path: &Path) -> Result<usize> {
    let Ok(meta) = fs::symlink_metadata(path) else { return Ok(0) };
    if meta.is_dir() {
        let n = crate::cache::files_under(path).len();
        fs::remove_dir_all(path)
            .with_context(|| format!("failed to remove {}", path.display()))?;
        Ok(n)
    } else {
        fs::remove_file(path)
            .with_context(|| format!("failed to remove {}", path.display()))?;
        Ok(1)
    }
}
