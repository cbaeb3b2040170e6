//! Where a build's outputs and cache live under the output folder.

use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, Result};

/// The folder name of the cache under the output folder.
pub const CACHE_DIR: &str = ".muster-cache";

/// The files and folders a game's build owns under the output folder: `counters/<game>/`,
/// `maps/<game>/`, `dist/<game>/` and `dist/<game>.vmod`.
pub fn game_outputs(out: &Path, game: &str) -> Vec<PathBuf> {
    vec![
        out.join("counters").join(game),
        out.join("maps").join(game),
        out.join("dist").join(game),
        out.join("dist").join(format!("{game}.vmod")),
    ]
}

/// The cache folder for an output folder.
pub fn cache_dir(out: &Path) -> PathBuf {
    out.join(CACHE_DIR)
}

/// A game's stamp in the cache folder `cache` (see [`crate::cache`]).
pub fn stamp_path(cache: &Path, game: &str) -> PathBuf {
    cache.join("games").join(format!("{game}.json"))
}

/// Refuses an output folder that is a file: nothing can be written or removed under it.
pub fn usable_out(out: &Path) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Error::new(
            ErrorKind::Io,
            format!("the output folder {} is a file, not a folder", out.display()),
        ));
    }
    Ok(())
}
