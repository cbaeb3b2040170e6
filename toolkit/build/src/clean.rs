//! Removing what a build wrote and its cache.

use std::fs;
use std::path::Path;

use crate::error::{IoContext, Result};
use crate::files::files_under;
use crate::layout::{cache_dir, game_outputs, stamp_path};

/// What a clean removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleaned {
    /// Files removed.
    pub files: usize,
    /// Games whose outputs were removed.
    pub games: Vec<String>,
}

/// Removes the outputs of `games` from `out` (every game with outputs when empty, and then
/// the whole cache and the benchmark's figures `dist/bench.json`). Files muster did not
/// write are left alone, and so are the folders holding them.
pub fn clean(out: &Path, games: &[String]) -> Result<Cleaned> {
    let ids: Vec<String> =
        if games.is_empty() { built_games(out) } else { games.to_vec() };
    let mut removed = 0;
    for id in &ids {
        for path in game_outputs(out, id) {
            removed += remove(&path)?;
        }
        removed += remove(&stamp_path(&cache_dir(out), id))?;
    }
    if games.is_empty() {
        removed += remove(&cache_dir(out))?;
        removed += remove(&out.join("dist").join("bench.json"))?;
    }
    for top in ["counters", "maps", "dist"] {
        // Only empty folders go.
        let _ = fs::remove_dir(out.join(top));
    }
    Ok(Cleaned { files: removed, games: ids })
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
        let n = files_under(path).len();
        fs::remove_dir_all(path).io(|| format!("failed to remove {}", path.display()))?;
        Ok(n)
    } else {
        fs::remove_file(path).io(|| format!("failed to remove {}", path.display()))?;
        Ok(1)
    }
}
