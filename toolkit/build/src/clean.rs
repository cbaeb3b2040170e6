//! Removing what a build wrote and its cache: only the files a build's record (its stamp
//! in the cache) lists, and the temporary files a killed build left.

use std::fs;
use std::path::{Path, PathBuf};

use crate::cache::recorded_outputs;
use crate::error::{IoContext, Result};
use crate::files::{
    files_under, is_temporary, remove_empty_dirs_under, remove_temporaries,
};
use crate::layout::{cache_dir, game_outputs, stamp_path};

/// What a clean removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleaned {
    /// Files removed.
    pub files: usize,
    /// Games whose outputs were removed.
    pub games: Vec<String>,
    /// Games with outputs but no record of the build that wrote them (the cache was
    /// removed): their outputs stay, but for temporary files.
    pub unrecorded: Vec<String>,
}

/// Removes the outputs of `games` from `out` (every game with outputs or a build record
/// when empty, and then every temporary file under `counters/`, `maps/` and `dist/`, the
/// whole cache and the benchmark's figures `dist/bench.json`). Only the files the last
/// build recorded go, and the folders they leave empty: files muster did not write stay.
pub fn clean(out: &Path, games: &[String]) -> Result<Cleaned> {
    crate::layout::usable_out(out)?;
    let ids: Vec<String> =
        if games.is_empty() { built_games(out) } else { games.to_vec() };
    let mut removed = 0;
    let mut unrecorded = Vec::new();
    for id in &ids {
        let roots = game_outputs(out, id);
        match recorded_outputs(out, id) {
            Some(files) => {
                for f in files {
                    removed += remove_file(&f)?;
                }
            }
            None if roots.iter().any(|r| r.exists()) => unrecorded.push(id.clone()),
            None => {}
        }
        removed += remove_temporaries(&roots)?;
        for root in roots.iter().filter(|r| r.is_dir()) {
            remove_empty_dirs_under(root);
            let _ = fs::remove_dir(root);
        }
        removed += remove_file(&stamp_path(&cache_dir(out), id))?;
    }
    if games.is_empty() {
        for top in ["counters", "maps", "dist"] {
            for f in files_under(&out.join(top)).into_iter().filter(|f| is_temporary(f)) {
                removed += remove_file(&f)?;
            }
        }
        let cache = cache_dir(out);
        if cache.is_dir() {
            removed += files_under(&cache).len();
            fs::remove_dir_all(&cache)
                .io(|| format!("failed to remove {}", cache.display()))?;
        }
        removed += remove_file(&out.join("dist").join("bench.json"))?;
    }
    for top in ["counters", "maps", "dist"] {
        // Only empty folders go.
        let _ = fs::remove_dir(out.join(top));
    }
    Ok(Cleaned { files: removed, games: ids, unrecorded })
}

/// The ids of games with outputs under `out` or a build record in its cache.
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
    let stamps = cache_dir(out).join("games");
    for f in files_under(&stamps) {
        if let Some(id) =
            f.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".json"))
        {
            ids.insert(id.to_string());
        }
    }
    ids.into_iter().collect()
}

/// Removes a file if it is there; returns 1 when it was.
fn remove_file(path: &PathBuf) -> Result<usize> {
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_dir() => {
            fs::remove_file(path)
                .io(|| format!("failed to remove {}", path.display()))?;
            Ok(1)
        }
        _ => Ok(0),
    }
}
