//! A game folder whose files fail in several ways: every failure is reported, in the
//! order the files are read, each pointing into its own file.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use muster_model::{LoadOptions, Sources, load_game};

fn oasis() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources/example-oasis")
}

/// The example game's YAML files copied into `to`.
fn copy_game(to: &Path) {
    for dir in ["", "maps", "scenarios"] {
        fs::create_dir_all(to.join(dir)).unwrap();
        for entry in fs::read_dir(oasis().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "yaml") {
                fs::copy(&path, to.join(dir).join(path.file_name().unwrap())).unwrap();
            }
        }
    }
}

#[test]
fn failures_of_several_files_come_in_file_order_each_in_its_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = &tmp.path().join("example-oasis");
    copy_game(dir);
    fs::remove_file(dir.join("game.yaml")).unwrap();
    fs::write(dir.join("oob.yaml"), "# nothing yet\n").unwrap();
    let counters = fs::read_to_string(dir.join("counters.yaml")).unwrap();
    fs::write(dir.join("counters.yaml"), format!("{counters}\nmarkers: [oops\n"))
        .unwrap();
    let rules = fs::read_to_string(dir.join("rules.yaml")).unwrap();
    fs::write(dir.join("rules.yaml"), format!("{rules}\nstackin: []\n")).unwrap();
    fs::write(dir.join("maps/oasis.yaml"), b"name: \xff\xfe\n").unwrap();
    fs::write(dir.join("scenarios/zz-later.yaml"), "\n---\n").unwrap();

    let mut sources = Sources::new();
    let Err(errors) = load_game(dir, &mut sources, &LoadOptions::default()) else {
        panic!("a game with broken files loaded");
    };
    let found: Vec<(Option<String>, String)> = errors
        .iter()
        .map(|d| {
            let file = sources.get(d.span.file).filter(|_| !d.span.is_detached());
            let name = file.map(|f| {
                f.path.strip_prefix(dir).unwrap_or(&f.path).display().to_string()
            });
            (name, d.message.clone())
        })
        .collect();
    let files: Vec<Option<&str>> = found.iter().map(|(f, _)| f.as_deref()).collect();
    assert_eq!(
        files,
        [
            None,
            Some("oob.yaml"),
            Some("counters.yaml"),
            Some("rules.yaml"),
            Some("maps/oasis.yaml"),
            Some("scenarios/zz-later.yaml"),
        ],
        "{found:#?}"
    );
    assert!(
        found[0].1.contains("missing") && found[0].1.contains("game.yaml"),
        "{found:#?}"
    );
    assert_eq!(found[1].1, "failed to load the file (it is empty)");
    assert_eq!(found[4].1, "failed to read the file (it is not valid UTF-8)");
    assert_eq!(found[5].1, "failed to load the file (it is empty)");
    assert!(found[3].1.contains("stackin"), "{found:#?}");
}

#[test]
fn the_scenarios_findings_come_in_scenario_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = &tmp.path().join("example-oasis");
    copy_game(dir);
    let meeting = fs::read_to_string(dir.join("scenarios/meeting.yaml")).unwrap();
    let broken = |id: &str| {
        meeting
            .replace("id: meeting", &format!("id: {id}\nsetup_from: nowhere-{id}"))
            .replace("first_player: north", &format!("first_player: nord-{id}"))
    };
    fs::write(dir.join("scenarios/meeting.yaml"), broken("a")).unwrap();
    fs::write(dir.join("scenarios/other.yaml"), broken("b")).unwrap();

    let mut sources = Sources::new();
    let Err(errors) = load_game(dir, &mut sources, &LoadOptions::default()) else {
        panic!("a game with unknown references loaded");
    };
    let named: Vec<&str> = errors
        .iter()
        .filter_map(|d| {
            ["nowhere-a", "nord-a", "nowhere-b", "nord-b"]
                .into_iter()
                .find(|w| d.message.contains(w))
        })
        .collect();
    assert_eq!(named, ["nowhere-a", "nord-a", "nowhere-b", "nord-b"], "{errors:#?}");
}
