//! A user's files are never muster's to remove: builds and cleans remove only what a build
//! recorded writing, while unchanged since, never follow a link where a game's outputs go,
//! take game ids only as ids, and one output folder takes one muster at a time.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use crate::util::{copy_tree, muster, root};

const BUILD: [&str; 9] =
    ["build", "--format", "json", "--map-dpi", "30", "--dpi", "40", "--sheet-dpi", "20"];

fn workspace(games: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for g in games {
        copy_tree(&root().join("sources").join(g), &tmp.path().join("sources").join(g));
    }
    tmp
}

fn build(dir: &Path) -> (Value, String) {
    let out = muster(dir, &BUILD);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    (serde_json::from_slice(&out.stdout).unwrap(), err)
}

/// The files the report of `game` says were left in place, by path.
fn left(report: &Value, game: &str) -> Vec<(String, bool)> {
    let g = report["games"].as_array().unwrap().iter().find(|g| g["game"] == game);
    g.unwrap()["left"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|f| (f["path"].as_str().unwrap().to_string(), f["changed"] == true))
                .collect()
        })
        .unwrap_or_default()
}

fn text_build(dir: &Path) -> String {
    let out =
        muster(dir, &["build", "--map-dpi", "30", "--dpi", "40", "--sheet-dpi", "20"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    err
}

#[test]
fn a_first_build_keeps_the_files_a_user_put_in_its_folders_and_says_so() {
    let tmp = workspace(&["example-oasis"]);
    let d = tmp.path();
    let mine = [
        d.join("maps/example-oasis/notes.txt"),
        d.join("counters/example-oasis/proof.pdf"),
    ];
    for f in &mine {
        fs::create_dir_all(f.parent().unwrap()).unwrap();
        fs::write(f, b"mine").unwrap();
    }
    let err = text_build(d);
    for f in &mine {
        assert_eq!(fs::read(f).unwrap(), b"mine", "{}", f.display());
        let rel = f.strip_prefix(d).unwrap().display().to_string();
        assert!(
            err.contains(&format!(
                "warning: left {rel} in place: muster did not write it"
            )),
            "{rel}: {err}"
        );
    }
    // Told once: the next build knows them as the user's.
    fs::write(d.join("sources/example-oasis/README.md"), b"changed").unwrap();
    let (report, _) = build(d);
    assert!(left(&report, "example-oasis").is_empty(), "{report}");
    assert!(mine.iter().all(|f| f.is_file()));
    // And they keep the game up to date, with nothing to say.
    let (report, _) = build(d);
    assert_eq!(report["games"][0]["up_to_date"], true);
    // A clean removes what muster wrote, names what stays and leaves it.
    let out = muster(d, &["clean", "--game", "example-oasis"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("maps/example-oasis/notes.txt in place"), "{err}");
    assert!(mine.iter().all(|f| fs::read(f).unwrap() == b"mine"));
    assert!(!d.join("maps/example-oasis/oasis.png").exists());
}

#[test]
fn a_build_removes_its_own_stale_outputs_but_keeps_one_a_user_changed() {
    let tmp = workspace(&["example-oasis"]);
    let d = tmp.path();
    build(d);
    let setups = d.join("dist/example-oasis/setups");
    let old = setups.join("meeting.json");
    assert!(old.is_file());
    // The scenario is renamed: its old setup is the build's own, unchanged: it goes.
    let scenarios = d.join("sources/example-oasis/scenarios");
    let text = fs::read_to_string(scenarios.join("meeting.yaml")).unwrap();
    fs::remove_file(scenarios.join("meeting.yaml")).unwrap();
    fs::write(
        scenarios.join("encounter.yaml"),
        text.replace("id: meeting", "id: encounter"),
    )
    .unwrap();
    let (report, _) = build(d);
    assert!(!old.exists(), "the build's own stale output goes");
    assert!(setups.join("encounter.json").is_file());
    assert!(left(&report, "example-oasis").is_empty());
    // Renamed back, after the user edited the stale setup: that one stays, named.
    let text = fs::read_to_string(scenarios.join("encounter.yaml")).unwrap();
    fs::remove_file(scenarios.join("encounter.yaml")).unwrap();
    fs::write(
        scenarios.join("meeting.yaml"),
        text.replace("id: encounter", "id: meeting"),
    )
    .unwrap();
    fs::write(setups.join("encounter.json"), b"{\"mine\": true}").unwrap();
    let (report, _) = build(d);
    let edited = setups.join("encounter.json");
    assert_eq!(fs::read(&edited).unwrap(), b"{\"mine\": true}");
    let rel = edited.strip_prefix(d).unwrap().display().to_string();
    assert_eq!(left(&report, "example-oasis"), vec![(rel, true)]);
}

#[test]
fn clean_keeps_a_file_that_replaced_an_output_even_at_the_same_size() {
    let tmp = workspace(&["example-oasis"]);
    let d = tmp.path();
    build(d);
    let map = d.join("maps/example-oasis/oasis.png");
    fs::write(&map, b"my own map").unwrap();
    // The same size as the output it replaced, written later.
    let module = d.join("dist/example-oasis.vmod");
    let len = fs::metadata(&module).unwrap().len() as usize;
    fs::write(&module, vec![b'm'; len]).unwrap();
    let later = SystemTime::now() + Duration::from_secs(5);
    fs::File::options().write(true).open(&module).unwrap().set_modified(later).unwrap();
    let out = muster(d, &["clean", "--game", "example-oasis", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(fs::read(&map).unwrap(), b"my own map");
    assert_eq!(fs::read(&module).unwrap(), vec![b'm'; len]);
    let left: Vec<&str> = v["left"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    assert!(left.contains(&"maps/example-oasis/oasis.png"), "{v}");
    assert!(left.contains(&"dist/example-oasis.vmod"), "{v}");
    assert!(v["left"].as_array().unwrap().iter().all(|l| l["changed"] == true), "{v}");
    assert!(!d.join("counters/example-oasis").exists(), "the rest went");
    // In text, each is named with why it stays.
    build(d);
    fs::write(&map, b"mine again").unwrap();
    let out = muster(d, &["clean"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: left maps/example-oasis/oasis.png in place: it changed since muster wrote it"),
        "{err}"
    );
    assert_eq!(fs::read(&map).unwrap(), b"mine again");
    assert!(!d.join(".muster-cache").exists());
}

#[cfg(unix)]
#[test]
fn a_link_where_a_game_s_outputs_go_is_refused_and_what_it_leads_to_untouched() {
    let tmp = workspace(&["example-oasis"]);
    let d = tmp.path();
    let elsewhere = d.join("my-folder");
    fs::create_dir_all(elsewhere.join("web")).unwrap();
    fs::write(elsewhere.join("keep.txt"), b"mine").unwrap();
    fs::write(elsewhere.join("web/index.html"), b"mine too").unwrap();
    fs::create_dir_all(d.join("dist")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, d.join("dist/example-oasis")).unwrap();
    let untouched = || {
        assert_eq!(fs::read(elsewhere.join("keep.txt")).unwrap(), b"mine");
        assert_eq!(fs::read(elsewhere.join("web/index.html")).unwrap(), b"mine too");
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 2, "nothing added");
    };
    for _ in 0..2 {
        let out = muster(d, &BUILD);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("dist/example-oasis is a symbolic link"), "{err}");
        untouched();
    }
    // A build with the link gone, then the link put back: a clean refuses it too.
    fs::remove_file(d.join("dist/example-oasis")).unwrap();
    build(d);
    fs::rename(d.join("dist/example-oasis"), d.join("built")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, d.join("dist/example-oasis")).unwrap();
    for args in [&["clean", "--game", "example-oasis"][..], &["clean"]] {
        let out = muster(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("dist/example-oasis is a symbolic link"), "{err}");
        untouched();
    }
}

#[test]
fn game_ids_that_are_paths_are_refused_by_every_command() {
    let tmp = workspace(&["example-oasis"]);
    let d = tmp.path();
    let outside = d.join("victim");
    fs::write(d.join("victim.json"), b"mine").unwrap();
    fs::create_dir_all(d.join("work/out")).unwrap();
    let absolute = outside.display().to_string();
    for id in [absolute.as_str(), "../../victim", "../victim", "a/b", "..", "Bad_Id", ""]
    {
        for command in ["build", "clean", "validate", "errata", "inspect", "serve"] {
            let out = muster(
                &d.join("work"),
                &[command, "--sources", "../sources", "--out", "out", "--game", id],
            );
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command} --game {id:?}: {err}");
            assert!(err.contains("is not a game id"), "{command} --game {id:?}: {err}");
            assert!(err.contains("lowercase letters and digits"), "{err}");
        }
    }
    assert_eq!(fs::read(d.join("victim.json")).unwrap(), b"mine");
    // A valid id is taken.
    let out = muster(d, &["validate", "--game", "example-oasis", "--quiet"]);
    assert_ne!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Takes the lock of the output folder `out` as a muster build does.
fn hold_lock(out: &Path) -> fs::File {
    fs::create_dir_all(out.join(".muster-cache")).unwrap();
    let file = fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(out.join(".muster-cache/lock"))
        .unwrap();
    file.try_lock().unwrap();
    file
}

#[test]
fn a_build_or_clean_into_a_folder_in_use_stops_at_once_and_says_so() {
    let tmp = workspace(&["example-oasis"]);
    let d = tmp.path();
    build(d);
    let before = fs::read(d.join("dist/example-oasis.vmod")).unwrap();
    let held = hold_lock(d);
    for args in [&BUILD[..], &["clean"]] {
        let out = muster(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is in use: another muster build"), "{err}");
    }
    assert_eq!(fs::read(d.join("dist/example-oasis.vmod")).unwrap(), before);
    drop(held);
    let (report, _) = build(d);
    assert_eq!(report["games"][0]["up_to_date"], true);
}

#[test]
fn of_two_builds_started_into_one_folder_the_second_stops_and_the_first_completes() {
    let tmp = workspace(&["gazala-scs"]);
    let d = tmp.path();
    let start = || {
        Command::new(env!("CARGO_BIN_EXE_muster"))
            .args(["build", "--quiet"])
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut first = start();
    // The first holds the lock once its file is there (this folder had none).
    let lock = d.join(".muster-cache/lock");
    let t = Instant::now();
    while !lock.exists() {
        assert!(t.elapsed() < Duration::from_secs(60), "no lock file was made");
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = start().wait_with_output().unwrap();
    assert!(first.try_wait().unwrap().is_none(), "the first was still building");
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(err.contains("is in use: another muster build"), "{err}");
    assert!(err.contains(&d.canonicalize().unwrap().display().to_string()), "{err}");
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    // What the first built stands whole: the next build finds it up to date.
    let out = muster(d, &["build", "--format", "json", "--quiet"]);
    assert!(out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"][0]["up_to_date"], true, "{report}");
}
