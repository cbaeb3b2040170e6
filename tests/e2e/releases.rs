//! Releases that keep players' games: a board whose image changes is sliced again by
//! VASSAL 3.7.26's own tiler when the module is republished under the same name and
//! version, and no other image is.

use std::path::Path;

use crate::modules::BUILD;
use crate::util::{copy_tree, muster, root};
use crate::vassal::{sliced, tools};

/// The module's board images (`images/<game>-<sheet>-<digest>.png`), by sheet.
fn boards(module: &Path, game: &str) -> Vec<String> {
    let archive =
        muster_package::archive::Archive::open(std::fs::read(module).unwrap()).unwrap();
    let mut out: Vec<String> = archive
        .names()
        .iter()
        .filter(|n| n.starts_with(&format!("images/{game}-")) && n.ends_with(".png"))
        .cloned()
        .collect();
    out.sort();
    out
}

#[test]
fn a_changed_board_is_sliced_again_by_vassal_and_no_other_image() {
    let Some(tools) = tools() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let game = "gazala-scs";
    // Two releases of the same version: the second moves a coast hex of sheet B, as a
    // publisher fixing the map would.
    let release = |name: &str, edit: &dyn Fn(&Path)| {
        let dir = tmp.path().join(name);
        copy_tree(&root().join("sources").join(game), &dir.join("sources").join(game));
        edit(&dir.join("sources").join(game));
        let out = muster(&dir, &BUILD);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        dir.join(format!("dist/{game}.vmod"))
    };
    let first = release("first", &|_| {});
    let second = release("second", &|g| {
        let b = g.join("maps/b.yaml");
        let text = std::fs::read_to_string(&b).unwrap();
        assert!(text.contains(r#"hexes: ["B50.10"]"#));
        std::fs::write(&b, text.replace(r#"hexes: ["B50.10"]"#, r#"hexes: ["B50.11"]"#))
            .unwrap();
    });
    let (old, new) = (boards(&first, game), boards(&second, game));
    assert_eq!(old.len(), 2, "{old:?}");
    assert_eq!(old[0], new[0], "sheet A is unchanged, and keeps its name");
    assert_ne!(old[1], new[1], "sheet B changed, and is named anew");

    // One tile cache, as VASSAL keeps for a module's name and version.
    let cache = tmp.path().join("tiles");
    let at_first = sliced(&tools, &first, &cache);
    for board in &old {
        assert!(at_first.contains(board), "{board} not sliced at first: {at_first:?}");
    }
    assert_eq!(sliced(&tools, &first, &cache), Vec::<String>::new(), "all fresh");
    assert_eq!(sliced(&tools, &second, &cache), [new[1].clone()]);
}
