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

/// What a game id is, as the messages that refuse one say it.
pub const GAME_ID: &str = "lowercase letters and digits in words joined by single hyphens, such as `my-game`: the name of the game's folder under the sources folder, not a path";

/// Refuses `id` when it is not a game id ([`muster_model::source::bounds::is_id`], the check
/// a game's own id passes): no path, no `..`, nothing a folder of its own could not be.
pub fn game_id(id: &str) -> Result<()> {
    if muster_model::source::bounds::is_id(id) {
        return Ok(());
    }
    Err(Error::new(ErrorKind::Sources, format!("`{id}` is not a game id ({GAME_ID})")))
}

/// Refuses a game's output folder that is a symbolic link ([`game_outputs`]): muster
/// writes and sweeps a game's outputs only in folders of its own and never follows a link
/// there, so a link to a file or folder elsewhere is left alone and named in the error.
pub fn unlinked_outputs(out: &Path, game: &str) -> Result<()> {
    for root in game_outputs(out, game) {
        let Ok(meta) = std::fs::symlink_metadata(&root) else { continue };
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&root)
                .map(|t| format!(" (to {})", t.display()))
                .unwrap_or_default();
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "{} is a symbolic link{target}: muster writes a game's outputs only into a folder of its own there and follows no link, so as not to touch the files it leads to (remove the link; to keep the outputs elsewhere, give that place as --out)",
                    shown(&root)
                ),
            ));
        }
    }
    Ok(())
}

/// `path` as a person reads it in a message: without a leading `./` (what joining to the
/// output folder `.` puts there).
pub fn shown(path: &Path) -> String {
    path.strip_prefix(".").unwrap_or(path).display().to_string()
}
