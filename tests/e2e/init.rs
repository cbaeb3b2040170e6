//! `muster init`: a new game folder that builds with no findings and validates against the
//! schemas; an existing folder is refused.

use std::fs;

use serde_json::Value;

use crate::schemas::assert_game_validates;
use crate::util::{files_under, muster};

#[test]
fn a_new_game_builds_with_no_findings_and_validates_against_the_schemas() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    assert!(muster(dir, &["schema", "--write", "schemas"]).status.success());
    let out = muster(dir, &["init", "new-game"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let game = dir.join("sources/new-game");
    let files = files_under(&game);
    assert_eq!(files.len(), 7, "{files:?}");
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "yaml")) {
        let text = fs::read_to_string(f).unwrap();
        let pages: Vec<&str> = text
            .split("docs/book/src/")
            .skip(1)
            .filter_map(|rest| rest.split(".md").next())
            .collect();
        assert!(!pages.is_empty(), "{} points to no page of the book", f.display());
        for page in pages {
            let path = crate::util::root().join(format!("docs/book/src/{page}.md"));
            assert!(
                path.is_file(),
                "{} points to {}, which is no page",
                f.display(),
                path.display()
            );
        }
    }
    assert_game_validates(&game);

    let out = muster(
        dir,
        &[
            "build",
            "--format",
            "json",
            "--quiet",
            "--map-dpi",
            "30",
            "--dpi",
            "40",
            "--sheet-dpi",
            "20",
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (report["errors"].as_u64(), report["warnings"].as_u64()),
        (Some(0), Some(0))
    );
    let g = &report["games"][0];
    assert_eq!(g["game"], "new-game");
    for zero in [
        "setup_findings",
        "errata",
        "units_of_unknown_type",
        "hexes_of_unknown_terrain",
        "unknown_counter_values",
    ] {
        assert_eq!(g[zero], 0, "{zero}: {g}");
    }
    assert!(g["counter_sides"].as_u64().unwrap() >= 8);
    assert!(dir.join("dist/new-game.vmod").is_file());
    for command in ["validate", "errata"] {
        let out = muster(dir, &[command, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{command}");
        let found: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(found, serde_json::json!([]), "{command}");
    }
}

#[test]
fn an_existing_folder_or_a_bad_id_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let game = dir.join("sources/taken");
    fs::create_dir_all(&game).unwrap();
    fs::write(game.join("game.yaml"), "mine").unwrap();
    let out = muster(dir, &["init", "taken"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(fs::read_to_string(game.join("game.yaml")).unwrap(), "mine");
    assert_eq!(files_under(&game).len(), 1);
    let out = muster(dir, &["init", "Bad_Id"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a game id"));
    assert!(!dir.join("sources/Bad_Id").exists());
}
