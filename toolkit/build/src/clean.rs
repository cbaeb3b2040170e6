//! Removing what a build wrote and its cache: only the files a build's record (its stamp
//! in the cache) lists, while they are as that build left them (size and modification
//! time), and the temporary files a killed build left.

use std::fs;
use std::path::Path;

use crate::cache::recorded_outputs;
use crate::error::{IoContext, Result};
use crate::files::{
    Stated, files_under, is_temporary, remove_empty_dirs_under, remove_temporaries,
};
use crate::layout::{cache_dir, game_id, game_outputs, stamp_path, unlinked_outputs};
use crate::out_lock::{LOCK_FILE, OutLock};
use crate::output::files_of;
use crate::report::LeftAlone;

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
    /// The files left under the outputs of recorded games: muster did not write them, or
    /// they changed since it did.
    pub left: Vec<LeftAlone>,
}

/// Removes the outputs of `games` from `out` (every game with outputs or a build record
/// when empty, and then every temporary file under `counters/`, `maps/` and `dist/`, the
/// whole cache and the benchmark's figures `dist/bench.json`). Only the files the last
/// build recorded go, while as it left them, and the folders they leave empty: files
/// muster did not write, or that changed since, stay ([`Cleaned::left`]). Refuses an id
/// that is not a game id, a game output folder that is a symbolic link, and an output
/// folder another muster is building into ([`OutLock`]).
pub fn clean(out: &Path, games: &[String]) -> Result<Cleaned> {
    crate::layout::usable_out(out)?;
    for id in games {
        game_id(id)?;
    }
    if !out.exists() {
        let none = Vec::new();
        return Ok(Cleaned {
            files: 0,
            games: games.to_vec(),
            unrecorded: none,
            left: vec![],
        });
    }
    let lock = OutLock::take(out)?;
    let ids: Vec<String> =
        if games.is_empty() { built_games(out) } else { games.to_vec() };
    for id in &ids {
        unlinked_outputs(out, id)?;
    }
    let mut removed = 0;
    let mut unrecorded = Vec::new();
    let mut left = Vec::new();
    for id in &ids {
        let roots = game_outputs(out, id);
        match recorded_outputs(out, id) {
            Some(files) => {
                for (f, recorded) in files {
                    match remove_unchanged(&f, recorded)? {
                        Some(true) => removed += 1,
                        Some(false) => {}
                        None => left.push(LeftAlone {
                            path: crate::layout::shown(&f),
                            changed: true,
                        }),
                    }
                }
            }
            None if roots.iter().any(|r| r.exists()) => unrecorded.push(id.clone()),
            None => {}
        }
        removed += remove_temporaries(&roots)?;
        if !unrecorded.contains(id) {
            let changed: Vec<String> = left.iter().map(|l| l.path.clone()).collect();
            left.extend(files_of(&roots).into_iter().filter_map(|f| {
                let path = crate::layout::shown(&f);
                (!changed.contains(&path)).then_some(LeftAlone { path, changed: false })
            }));
        }
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
        removed += remove_file(&out.join("dist").join("bench.json"))?;
    }
    for top in ["counters", "maps", "dist"] {
        // Only empty folders go.
        let _ = fs::remove_dir(out.join(top));
    }
    if games.is_empty() {
        removed += remove_cache(out, lock)?;
    }
    Ok(Cleaned { files: removed, games: ids, unrecorded, left })
}

/// Removes the whole cache folder of `out`, its lock last, as the clean's last step (so
/// that another muster waits for no more than that); returns how many files went.
fn remove_cache(out: &Path, lock: OutLock) -> Result<usize> {
    let cache = cache_dir(out);
    let mut removed = 0;
    let entries =
        fs::read_dir(&cache).io(|| format!("failed to read {}", cache.display()))?;
    for e in entries.flatten() {
        let path = e.path();
        if e.file_name() == LOCK_FILE {
            continue;
        }
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            removed += files_under(&path).len();
            fs::remove_dir_all(&path)
                .io(|| format!("failed to remove {}", path.display()))?;
        } else {
            removed += remove_file(&path)?;
        }
    }
    fs::remove_file(lock.path())
        .io(|| format!("failed to remove {}", lock.path().display()))?;
    drop(lock);
    let _ = fs::remove_dir(&cache);
    Ok(removed)
}

/// Removes the file `path` when it is as a build recorded it (`recorded`): `Some(true)`
/// when it went, `Some(false)` when it was not there, `None` when it stays, changed.
fn remove_unchanged(path: &Path, recorded: Stated) -> Result<Option<bool>> {
    match fs::symlink_metadata(path) {
        Err(_) => Ok(Some(false)),
        Ok(meta) if meta.is_file() && Stated::of(&meta) == recorded => {
            remove_file(path).map(|n| Some(n == 1))
        }
        Ok(_) => Ok(None),
    }
}

/// The ids of games with outputs under `out` or a build record in its cache.
fn built_games(out: &Path) -> Vec<String> {
    let mut ids = std::collections::BTreeSet::new();
    for top in ["counters", "maps", "dist"] {
        let Ok(entries) = fs::read_dir(out.join(top)) else { continue };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            // A folder or module whose name is not a game id is no game's.
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
    ids.into_iter().filter(|id| game_id(id).is_ok()).collect()
}

/// Removes a file if it is there; returns 1 when it was.
fn remove_file(path: &Path) -> Result<usize> {
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_dir() => {
            fs::remove_file(path)
                .io(|| format!("failed to remove {}", path.display()))?;
            Ok(1)
        }
        _ => Ok(0),
    }
}
