//! The `muster` commands on the seed games.

use std::fs;

use crate::util::{copy_tree, muster, root};

fn workspace() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources"), &tmp.path().join("sources"));
    tmp
}

#[test]
fn build_writes_every_game_and_is_reproducible() {
    let tmp = workspace();
    let fast =
        ["build", "--quiet", "--map-dpi", "12", "--dpi", "40", "--sheet-dpi", "12"];
    let out = muster(tmp.path(), &fast);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let games = ["dance-of-war", "gazala-1942", "gazala-line-1942", "gazala-scs"];
    let first: Vec<Vec<u8>> = games
        .iter()
        .map(|g| fs::read(tmp.path().join(format!("dist/{g}/game.json"))).unwrap())
        .collect();
    let out = muster(tmp.path(), &fast);
    assert!(out.status.success());
    for (g, bytes) in games.iter().zip(first) {
        assert_eq!(
            fs::read(tmp.path().join(format!("dist/{g}/game.json"))).unwrap(),
            bytes,
            "{g}"
        );
    }
}

#[test]
fn build_reports_json_with_one_summary_per_game() {
    let tmp = workspace();
    let out = muster(
        tmp.path(),
        &[
            "build",
            "--format",
            "json",
            "--map-dpi",
            "12",
            "--dpi",
            "40",
            "--sheet-dpi",
            "12",
        ],
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 5);
    let scs = games.iter().find(|g| g["game"] == "gazala-scs").unwrap();
    assert_eq!(scs["units"], 338);
    assert_eq!(scs["scenarios"], 5);
    assert_eq!(v["errors"], 0);
}

#[test]
fn inspect_shows_parsed_placements_with_their_printed_text() {
    let out = muster(&root(), &["inspect", "--game", "gazala-scs"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let campaign = v["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "full-campaign")
        .unwrap();
    let first = &campaign["placements"][0];
    assert_eq!(first["location_text"], "w/i 3 of A55.15");
    assert_eq!(first["location"]["form"], "within");
    assert_eq!(first["location"]["distance"], 3);
    assert_eq!(first["units"]["items"][0]["name"], "3 SA Inf Bde");
    assert_eq!(first["units"]["items"][0]["children"][0]["label"], "Inf Bns");
    assert!(first["line"].as_u64().unwrap() > 1);
}

#[test]
fn validate_reports_printed_labels_that_are_off_the_map_as_findings() {
    let tmp = workspace();
    let path = tmp.path().join("sources/gazala-1942/scenarios/preliminary-phase.yaml");
    let text = fs::read_to_string(&path).unwrap().replace("Hex 2403", "Hex 3403");
    fs::write(&path, text).unwrap();
    let out =
        muster(tmp.path(), &["validate", "--game", "gazala-1942", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = v.as_array().unwrap().iter().find(|f| f["kind"] == "bad-hex").unwrap();
    assert_eq!(f["location"], "3403");
    assert_eq!(f["rule"], "13.12");
    assert!(f["message"].as_str().unwrap().contains("column 34 is outside 1 to 29"));
    assert!(f["file"].as_str().unwrap().ends_with("preliminary-phase.yaml"));
    assert!(f["line"].as_u64().unwrap() > 0);
}

#[test]
fn check_with_missing_files_names_them_and_exits_2() {
    let out = muster(&root(), &["check", "game.vsav", "--module", "game.vmod"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game.vmod") && err.contains("cannot read"), "{err}");
}

#[test]
fn a_build_or_clean_whose_output_folder_is_a_file_says_so_and_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    fs::write(tmp.path().join("out"), "a file").unwrap();
    for command in [&["--out", "out", "build"][..], &["--out", "out", "clean"]] {
        let out = muster(tmp.path(), command);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("the output folder out is a file, not a folder"), "{err}");
        assert_eq!(fs::read_to_string(tmp.path().join("out")).unwrap(), "a file");
    }
}

#[test]
fn schema_prints_every_kind() {
    let out = muster(&root(), &["schema"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for kind in ["game", "oob", "counters", "map", "scenario", "rules"] {
        assert!(v.get(format!("{kind}.schema.json")).is_some(), "{kind}");
    }
}

#[test]
fn assumptions_are_carried_onto_units_and_listed_by_inspect() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/mini");
    copy_tree(&root().join("tests/bad-input/base/mini"), &game);
    let text = fs::read_to_string(game.join("game.yaml")).unwrap();
    let text = text.replace(
        "  - {id: battalion, name: Battalion, symbol: II, printed: [Bn]}",
        "  - {id: battalion, name: Battalion, symbol: II, printed: [Bn]}\n  - {id: kg, name: KG, symbol: KG, printed: [KG], assumed: \"no size table prints it\"}",
    );
    let text = text.replace(
        "  grid: {orientation: flat-top, stagger: odd}",
        "  grid: {orientation: flat-top, stagger: odd}\n  assumed: {grid.stagger: \"the stagger is not printed\"}",
    );
    fs::write(game.join("game.yaml"), text).unwrap();
    fs::write(
        game.join("counters.yaml"),
        "groups:\n  - formation: 1-div\n    counters:\n      - 1 Div HQ\n      - 1/1 Inf Bn\n      - {printed: 2/1 Inf Bn, front: {attack: 4}, assumed: {front.attack: \"read off a photograph\"}}\n      - {printed: Hecker KG, type: infantry}\n",
    )
    .unwrap();
    let out = muster(tmp.path(), &["inspect", "--game", "mini"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = v["assumptions"].as_array().unwrap();
    let stagger = list.iter().find(|a| a["entry"] == "board").unwrap();
    assert_eq!(stagger["field"], "grid.stagger");
    assert_eq!(stagger["value"], "odd");
    assert_eq!(stagger["file"], "game.yaml");
    assert!(stagger["line"].as_u64().unwrap() > 1);
    let kg = list.iter().find(|a| a["entry"] == "unit_sizes[kg]").unwrap();
    assert!(kg.get("field").is_none() && kg["value"]["symbol"] == "KG");
    let units = v["units"].as_array().unwrap();
    let unit = |p: &str| units.iter().find(|u| u["printed"] == p).unwrap();
    assert_eq!(unit("2/1 Inf Bn")["assumed"]["front.attack"], "read off a photograph");
    // A unit whose size is an assumed entry carries the reason for its size.
    assert_eq!(unit("Hecker KG")["assumed"]["size"], "no size table prints it");
    // Units with nothing assumed carry no marker.
    assert!(unit("1/1 Inf Bn").get("assumed").is_none());
}

#[test]
fn lengths_out_of_range_say_what_is_wrong_and_what_is_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, want) in [
        (
            ["build", "--counter-size", "0"],
            "`0` is too small for a counter: it takes 0.25 to 4 inches",
        ),
        (
            ["build", "--sheet", "300x300"],
            "`300` is too large for a sheet side: it takes 2 to 60 inches a side",
        ),
        (
            ["build", "--bleed", "1"],
            "`1` is too large for the bleed: it takes 0 to 0.5 inches",
        ),
        (
            ["build", "--counter-size", "big"],
            "`big` is not a length in inches (write 5/8 or 0.625)",
        ),
    ] {
        let out = muster(tmp.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(!stderr.contains("pixels"), "{args:?}: {stderr}");
    }
}
