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

/// Builds the game under `dir` with `SOURCE_DATE_EPOCH` at `epoch` and the extra `args`.
fn build_at(dir: &Path, epoch: i64, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(BUILD)
        .args(["--game", "example-oasis"])
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("SOURCE_DATE_EPOCH", epoch.to_string())
        .output()
        .expect("muster runs")
}

/// What `dist/example-oasis/release.json` records.
fn recorded(dir: &Path) -> serde_json::Value {
    let text = std::fs::read(dir.join("dist/example-oasis/release.json")).unwrap();
    serde_json::from_slice(&text).unwrap()
}

/// The module's page on playing it.
fn help_page(dir: &Path) -> String {
    let module = std::fs::read(dir.join("dist/example-oasis.vmod")).unwrap();
    let mut archive = muster_package::archive::Archive::open(module).unwrap();
    String::from_utf8(archive.read("help/module.html").unwrap()).unwrap()
}

#[test]
fn a_module_changed_under_its_version_is_told_until_the_version_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let game = dir.join("sources/example-oasis");
    copy_tree(&root().join("sources/example-oasis"), &game);
    let (first_day, later) = (1_700_000_000, 1_800_000_000);
    let out = build_at(dir, first_day, &["--strict"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let first = recorded(dir);
    assert_eq!(first["version"], "2.0.0");
    assert_eq!(first["date"], "2023-11-14");
    assert!(help_page(dir).contains("Version 2.0.0 of 2023-11-14"));
    let dist = crate::util::files_under(&dir.join("dist"));
    let bytes: Vec<Vec<u8>> = dist.iter().map(|p| std::fs::read(p).unwrap()).collect();

    // Built again on another day with nothing changed: the same release, byte for byte.
    std::fs::remove_dir_all(dir.join(".muster-cache")).ok();
    let out = build_at(dir, later, &["--strict"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(crate::util::files_under(&dir.join("dist")), dist);
    for (path, was) in dist.iter().zip(&bytes) {
        assert!(&std::fs::read(path).unwrap() == was, "{} changed", path.display());
    }

    // A counter's value fixed, the version left as it was: a warning at the version, an
    // error under --strict, and told again at every build until the version changes.
    let counters = game.join("counters.yaml");
    let text = std::fs::read_to_string(&counters).unwrap();
    let (printed, fixed) = (
        "{printed: 1 Bde HQ, front: {movement: 8}}",
        "{printed: 1 Bde HQ, front: {movement: 9}}",
    );
    assert!(text.contains(printed));
    std::fs::write(&counters, text.replace(printed, fixed)).unwrap();
    let out = build_at(dir, later, &["--strict"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let told = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = std::fs::read_to_string(game.join("game.yaml"))
        .unwrap()
        .lines()
        .position(|l| l.contains("version: \"2.0.0\""))
        .unwrap()
        + 1;
    assert!(told.contains("version-unchanged"), "{told}");
    assert!(told.contains(&format!("game.yaml:{line}:")), "{told}");
    assert!(told.contains("first built on 2023-11-14"), "{told}");
    assert!(told.contains("such as 2.0.1"), "{told}");
    for _ in 0..2 {
        let out = build_at(dir, later, &["--format", "json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let attention = &report["games"][0]["attention"];
        let kinds: Vec<&str> = attention
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a["kind"].as_str())
            .collect();
        assert!(kinds.contains(&"version-unchanged"), "{attention}");
        assert_eq!(recorded(dir), first, "the record stays the release's");
    }

    // A new version: no finding, a new record of its own day.
    let yaml = std::fs::read_to_string(game.join("game.yaml")).unwrap();
    std::fs::write(game.join("game.yaml"), yaml.replace("\"2.0.0\"", "\"2.0.1\""))
        .unwrap();
    let out = build_at(dir, later, &["--strict"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let second = recorded(dir);
    assert_eq!(
        (&second["version"], &second["date"]),
        (&"2.0.1".into(), &"2027-01-15".into())
    );
    assert_ne!(second["content"], first["content"]);
    assert!(help_page(dir).contains("Version 2.0.1 of 2027-01-15"));
}
