//! A new game folder that builds as it is: one map, a few counters of each side, a
//! scenario and a stacking rule, every file with its schema modeline and comments that
//! point to the README's sections.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, IoContext, Result};

/// The files of a new game, relative to its folder, with `{{id}}` standing for its id.
const TEMPLATE: &[(&str, &str)] = &[
    ("README.md", include_str!("init/template/README.md")),
    ("game.yaml", include_str!("init/template/game.yaml")),
    ("oob.yaml", include_str!("init/template/oob.yaml")),
    ("counters.yaml", include_str!("init/template/counters.yaml")),
    ("rules.yaml", include_str!("init/template/rules.yaml")),
    ("maps/main.yaml", include_str!("init/template/maps/main.yaml")),
    (
        "scenarios/first-battle.yaml",
        include_str!("init/template/scenarios/first-battle.yaml"),
    ),
];

/// Whether `id` can name a game folder: lowercase letters, digits and single hyphens,
/// starting with a letter.
fn valid_id(id: &str) -> bool {
    id.starts_with(|c: char| c.is_ascii_lowercase())
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.ends_with('-')
        && !id.contains("--")
}

/// Writes the game `id` as `<sources>/<id>/` and returns the files written. Refuses an id
/// that cannot name a folder and a folder that already exists; the folder appears whole
/// or not at all (it is written under a temporary name and renamed).
pub fn init(sources: &Path, id: &str) -> Result<Vec<PathBuf>> {
    let files: Vec<(String, Vec<u8>)> = TEMPLATE
        .iter()
        .map(|(name, text)| (name.to_string(), text.replace("{{id}}", id).into_bytes()))
        .collect();
    write_new_game(sources, id, &files)
}

/// Writes `files` (paths relative to the game folder, and their bytes) as the new game
/// folder `<sources>/<id>/` and returns the paths written. Refuses an id that cannot name
/// a folder, a path that would leave the folder, and a folder that already exists; the
/// folder appears whole or not at all (it is written under a temporary name and renamed).
pub fn write_new_game(
    sources: &Path,
    id: &str,
    files: &[(String, Vec<u8>)],
) -> Result<Vec<PathBuf>> {
    if !valid_id(id) {
        return Err(Error::new(
            ErrorKind::Sources,
            format!(
                "`{id}` is not a game id (expected lowercase letters, digits and hyphens, starting with a letter, such as `my-game`)"
            ),
        ));
    }
    if let Some((name, _)) = files.iter().find(|(name, _)| !inside(name)) {
        return Err(Error::new(
            ErrorKind::Sources,
            format!(
                "`{name}` is not a path inside a game folder (expected a relative path without `..`)"
            ),
        ));
    }
    let dir = sources.join(id);
    if fs::symlink_metadata(&dir).is_ok() {
        return Err(Error::new(
            ErrorKind::Sources,
            format!(
                "{} already exists; muster writes a game only into a new folder (choose another id or remove it)",
                dir.display()
            ),
        ));
    }
    fs::create_dir_all(sources)
        .io(|| format!("failed to create {}", sources.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".muster-")
        .suffix(".tmp")
        .tempdir_in(sources)
        .io(|| format!("failed to create a temporary folder in {}", sources.display()))?;
    let mut written = Vec::new();
    for (name, bytes) in files {
        let path = staging.path().join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .io(|| format!("failed to create {}", parent.display()))?;
        }
        fs::write(&path, bytes)
            .io(|| format!("failed to write {}", dir.join(name).display()))?;
        written.push(dir.join(name));
    }
    let staged = staging.keep();
    fs::rename(&staged, &dir).map_err(|e| {
        let _ = fs::remove_dir_all(&staged);
        Error::with_source(ErrorKind::Io, format!("failed to write {}", dir.display()), e)
    })?;
    Ok(written)
}

/// Whether `name` is a relative path that stays inside the folder it is joined to.
fn inside(name: &str) -> bool {
    let path = Path::new(name);
    !name.is_empty()
        && path.components().all(|c| matches!(c, std::path::Component::Normal(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_must_name_a_folder() {
        for good in ["my-game", "gazala2", "a"] {
            assert!(valid_id(good), "{good}");
        }
        for bad in ["", "My-Game", "-x", "x-", "a--b", "../x", "a/b", "2x", "a b"] {
            assert!(!valid_id(bad), "{bad}");
        }
    }

    #[test]
    fn an_existing_folder_is_refused_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let written = init(tmp.path(), "new-game").unwrap();
        assert_eq!(written.len(), TEMPLATE.len());
        let game =
            std::fs::read_to_string(tmp.path().join("new-game/game.yaml")).unwrap();
        assert!(game.contains("id: new-game"), "{game}");
        assert!(!game.contains("{{id}}"));
        std::fs::write(tmp.path().join("new-game/notes.txt"), "mine").unwrap();
        let err = init(tmp.path(), "new-game").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Sources);
        assert!(err.to_string().contains("already exists"), "{err}");
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("new-game/notes.txt")).unwrap(),
            "mine"
        );
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary folder is left");
    }
}
