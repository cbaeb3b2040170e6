//! A map's `also` terrain is checked as its `hexes` terrain is: the same errors, each at
//! its own value.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use muster_model::{LoadOptions, Sources, load_game};

fn oasis() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources/example-oasis")
}

/// A copy of `from` (a folder) at `to`.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            fs::copy(&path, dest).unwrap();
        }
    }
}

/// The example game copied into `to`, its map's terrain ending with `extra`.
fn game_with(to: &Path, extra: &str) {
    copy_tree(&oasis(), to);
    let map = fs::read_to_string(to.join("maps/oasis.yaml")).unwrap();
    let last = "    - {terrain: unknown, hexes: [\"00.10\"]}\n";
    assert!(map.contains(last));
    fs::write(to.join("maps/oasis.yaml"), map.replace(last, &format!("{last}{extra}")))
        .unwrap();
}

/// The errors of loading the example game with `extra` after its map's terrain, as
/// (line, column, message).
fn errors(extra: &str) -> Vec<(u32, u32, String)> {
    let tmp = tempfile::tempdir().unwrap();
    let dir = &tmp.path().join("example-oasis");
    game_with(dir, extra);
    let Err(errors) = load_game(dir, &mut Sources::new(), &LoadOptions::default()) else {
        panic!("a map with a bad terrain entry loaded");
    };
    errors.into_iter().map(|d| (d.span.line, d.span.column, d.message)).collect()
}

const ENTRY: &str = "    - {terrain: ruff, hexes: [\"09.02\", \"99.99\"]}\n";

#[test]
fn also_terrain_is_checked_as_hexes_terrain_is() {
    let also = errors(&format!("  also:\n{ENTRY}"));
    // The same entry one line further down in `hexes`, under a key of the same length.
    let hexes = errors(&format!("  # hexes again\n{ENTRY}"));
    assert_eq!(also.len(), 2, "{also:#?}");
    assert_eq!(also, hexes);
    assert!(also[0].2.contains("unknown terrain `ruff`"), "{also:#?}");
    assert!(also[1].2.contains("99.99"), "{also:#?}");
    assert!(also[0].0 > 0 && also[0].0 == also[1].0, "{also:#?}");
    assert!(also[0].1 < also[1].1, "{also:#?}");
}

#[test]
fn also_terrain_that_is_declared_loads() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = &tmp.path().join("example-oasis");
    game_with(dir, "  also:\n    - {terrain: marsh, hexes: [\"09.02\"]}\n");
    let (game, _) = load_game(dir, &mut Sources::new(), &LoadOptions::default()).unwrap();
    let also = &game.maps[0].terrain.also;
    assert_eq!(also.len(), 1);
    assert_eq!(also[0].terrain.v, "marsh");
}
