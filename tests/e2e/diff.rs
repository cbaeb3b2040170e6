//! `muster diff`: the changes between two states of a game's sources, from planted
//! changes of every kind, as folders and as git revisions.

use std::path::Path;

use crate::util::{copy_tree, muster, root};

/// Replaces `from` by `to` in the file `path`, which must hold it.
fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} holds no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// The example game twice, under `old/` and `new/`, the new one with a change of each
/// kind a publisher's errata makes.
fn planted(dir: &Path) {
    for state in ["old", "new"] {
        copy_tree(
            &root().join("sources/example-oasis"),
            &dir.join(state).join("example-oasis"),
        );
    }
    let game = dir.join("new/example-oasis");
    edit(&game.join("game.yaml"), "version: \"2.0.0\"", "version: \"2.0.1\"");
    edit(
        &game.join("counters.yaml"),
        "{printed: 1 Bde HQ, front: {movement: 8}}",
        "{printed: 1 Bde HQ, front: {movement: 9}}",
    );
    edit(&game.join("counters.yaml"), "printed: 2/1 Arm Bn,", "printed: 3/1 Arm Bn,");
    edit(
        &game.join("scenarios/meeting.yaml"),
        "units: \"1/1 Inf Bn, 2/1 Arm Bn\"",
        "units: \"1/1 Inf Bn, 3/1 Arm Bn\"",
    );
    edit(
        &game.join("scenarios/meeting.yaml"),
        "{location: \"09.02\",",
        "{location: \"09.03\",",
    );
    edit(&game.join("rules.yaml"), "{count: {}, max: 2}", "{count: {}, max: 3}");
    edit(
        &game.join("maps/oasis.yaml"),
        "\"10.09\", \"11.09\", \"11.10\"",
        "\"10.09\", \"11.09\"",
    );
}

#[test]
fn every_kind_of_planted_change_is_listed() {
    let tmp = tempfile::tempdir().unwrap();
    planted(tmp.path());
    let out =
        muster(tmp.path(), &["--sources", "new", "diff", "old", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let game = &report["games"][0];
    assert_eq!(game["versions"], serde_json::json!(["2.0.0", "2.0.1"]));
    let has = |part: &str, kind: &str, subject: &str, from: &str, to: &str| {
        let found = game[part].as_array().unwrap().iter().any(|c| {
            c["kind"] == kind
                && c["subject"] == subject
                && c["from"].as_str().unwrap_or("") == from
                && c["to"].as_str().unwrap_or("") == to
        });
        assert!(found, "no {kind} {subject} {from} → {to} in {part}: {}", game[part]);
    };
    has("counters", "changed", "movement (front) of 1 Bde HQ", "8", "9");
    has("counters", "renamed", "3/1 Arm Bn", "2/1 Arm Bn", "3/1 Arm Bn");
    has(
        "setups",
        "changed",
        "setup · north · w/i 1 of 09.03",
        "1/1 Inf Bn, 2/1 Arm Bn",
        "1/1 Inf Bn, 3/1 Arm Bn",
    );
    has(
        "setups",
        "changed",
        "where 1 Bde HQ set up",
        "setup · north · 09.02",
        "setup · north · 09.03",
    );
    // Where the setup puts each counter, solved: the HQ moved, the renamed battalion is
    // no move.
    has("placements", "changed", "where 1 Bde HQ sets up", "09.02", "09.03");
    let placements = game["placements"].to_string();
    assert!(!placements.contains("not set up"), "{placements}");
    has("maps", "changed", "hex 11.10", "sand", "clear");
    has("rules", "changed", "stacking rule E.1: any_of[0].all_of[0].max", "2", "3");
    assert_eq!(game["rules"].as_array().unwrap().len(), 1, "{}", game["rules"]);
    // Nothing else: the tables and the other counters are as they were.
    assert_eq!(game["tables"], serde_json::json!([]));
    assert_eq!(game["counters"].as_array().unwrap().len(), 2, "{}", game["counters"]);

    // As text: the errata list, one line a change.
    let out = muster(tmp.path(), &["--sources", "new", "diff", "old"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("# Oasis (example): changes from 2.0.0 to 2.0.1\n"),
        "{text}"
    );
    assert!(text.contains("- movement (front) of 1 Bde HQ: 8 → 9\n"), "{text}");
    assert!(text.contains("- 2/1 Arm Bn is now printed 3/1 Arm Bn\n"), "{text}");
    assert!(text.contains("- hex 11.10: sand → clear\n"), "{text}");
    // The same state twice: nothing, exit 0.
    let out = muster(tmp.path(), &["--sources", "old", "diff", "old"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().contains("Nothing changed."));
}

#[test]
fn a_git_revision_is_a_state() {
    let tmp = tempfile::tempdir().unwrap();
    planted(tmp.path());
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=m", "-c", "user.email=m@example.org"])
            .args(args)
            .current_dir(tmp.path())
            .output();
        match out {
            Ok(out) => out.status.success(),
            Err(_) => false,
        }
    };
    if !git(&["--version"]) {
        eprintln!("SKIPPED a_git_revision_is_a_state: git is not installed");
        return;
    }
    // The old state committed and tagged, then the new one in its place.
    assert!(git(&["init", "-q"]));
    std::fs::rename(tmp.path().join("old"), tmp.path().join("sources")).unwrap();
    assert!(git(&["add", "sources"]) && git(&["commit", "-qm", "release"]));
    assert!(git(&["tag", "v2.0.0"]));
    std::fs::remove_dir_all(tmp.path().join("sources")).unwrap();
    std::fs::rename(tmp.path().join("new"), tmp.path().join("sources")).unwrap();
    let out = muster(tmp.path(), &["diff", "v2.0.0", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"][0]["versions"], serde_json::json!(["2.0.0", "2.0.1"]));
    // A revision that does not exist says so, with an example.
    let out = muster(tmp.path(), &["diff", "v9"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("nor a git revision"), "{err}");
}

#[test]
fn a_build_since_the_last_release_writes_the_errata_and_the_whats_new_page() {
    let tmp = tempfile::tempdir().unwrap();
    planted(tmp.path());
    let build = |args: &[&str]| {
        let args = [&["--sources", "new"][..], &crate::modules::BUILD, args].concat();
        let out = muster(tmp.path(), &args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    build(&["--since", "old"]);
    let dist = tmp.path().join("dist/example-oasis");
    let listed = muster(tmp.path(), &["--sources", "new", "diff", "old"]).stdout;
    let written = std::fs::read(dist.join("changes.md")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&written).trim(),
        String::from_utf8_lossy(&listed).trim()
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dist.join("changes.json")).unwrap())
            .unwrap();
    assert_eq!(json["versions"], serde_json::json!(["2.0.0", "2.0.1"]));

    // The module's help has the page, in the Help menu.
    let vmod = tmp.path().join("dist/example-oasis.vmod");
    let mut archive =
        muster_package::archive::Archive::open(std::fs::read(&vmod).unwrap()).unwrap();
    let page = String::from_utf8(archive.read("help/whats-new.html").unwrap()).unwrap();
    assert!(page.contains("<li>movement (front) of 1 Bde HQ: 8 → 9</li>"), "{page}");
    let build_file = String::from_utf8(archive.read("buildFile.xml").unwrap()).unwrap();
    assert!(build_file.contains(r#"fileName="help/whats-new.html""#), "{build_file}");

    // The errata sheet is a PDF page that reads back as the list.
    let pdf = dist.join("changes.pdf");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    if crate::legibility::reader() {
        let text =
            std::process::Command::new("pdftotext").arg(&pdf).arg("-").output().unwrap();
        let text = String::from_utf8_lossy(&text.stdout);
        for words in
            ["Oasis (example): errata", "1 Bde HQ: 8 → 9", "hex 11.10: sand → clear"]
        {
            assert!(text.contains(words), "{words:?} not in the sheet: {text}");
        }
    }

    // Without --since, the files and the page go; the build is then as it always was.
    build(&[]);
    assert!(!dist.join("changes.md").exists() && !dist.join("changes.pdf").exists());
    let mut archive =
        muster_package::archive::Archive::open(std::fs::read(&vmod).unwrap()).unwrap();
    assert!(!archive.contains("help/whats-new.html"));
    drop(archive.read("buildFile.xml"));

    // VASSAL loads the module with the page, with no warning.
    build(&["--since", "old"]);
    if let Some(tools) = crate::vassal::tools() {
        let run = crate::vassal::run(&tools, &vmod, &[], "whats-new");
        assert_eq!(run.code, 0, "{}", run.text);
        assert!(run.problems().is_empty(), "{:?}", run.problems());
    }
}

/// A real misprint corrected as an errata release would: Gaines Mill's 6.2 prints
/// `w/5 B50.11` for a row that 6.3 prints `w/i 5 B50.11` (acknowledged in its
/// `errata.yaml`); the correction moves no unit but changes the printed line.
#[test]
fn a_real_misprint_corrected_is_listed_as_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let game = "gaines-mill-1862";
    for state in ["old", "new"] {
        copy_tree(
            &root().join("tests/games").join(game),
            &tmp.path().join(state).join(game),
        );
    }
    let new = tmp.path().join("new").join(game);
    let scenarios: Vec<_> = crate::util::files_under(&new.join("scenarios"))
        .into_iter()
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("w/5 B50.11"))
        .collect();
    assert_eq!(scenarios.len(), 1, "one scenario prints the misprint: {scenarios:?}");
    edit(&scenarios[0], "w/5 B50.11", "w/i 5 B50.11");
    let out =
        muster(tmp.path(), &["--sources", "new", "diff", "old", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changes = &report["games"][0];
    let setups = changes["setups"].as_array().unwrap();
    assert_eq!(setups.len(), 1, "{setups:?}");
    let line = &setups[0];
    assert_eq!(line["kind"], "changed");
    assert!(line["subject"].as_str().unwrap().starts_with("where "), "{line}");
    assert!(line["from"].as_str().unwrap().ends_with("· w/5 B50.11"), "{line}");
    assert!(line["to"].as_str().unwrap().ends_with("· w/i 5 B50.11"), "{line}");
    for part in ["counters", "rules", "tables", "maps"] {
        assert_eq!(changes[part], serde_json::json!([]), "{part}");
    }
}

/// The setup save of a module at `vmod`, written to `to`.
fn setup_save(vmod: &Path, to: &Path) {
    let mut archive =
        muster_package::archive::Archive::open(std::fs::read(vmod).unwrap()).unwrap();
    std::fs::write(to, archive.read("meeting.vsav").unwrap()).unwrap();
}

#[test]
fn a_game_saved_with_the_last_release_is_told_what_the_new_one_changes() {
    let tmp = tempfile::tempdir().unwrap();
    planted(tmp.path());
    for state in ["old", "new"] {
        // The new release is built knowing the last, so its module lists what it changed.
        let since: &[&str] = if state == "new" { &["--since", "old"] } else { &[] };
        let args =
            [&["--sources", state, "--out", state][..], &crate::modules::BUILD, since]
                .concat();
        let out = muster(tmp.path(), &args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let (old, new) = (
        tmp.path().join("old/dist/example-oasis.vmod"),
        tmp.path().join("new/dist/example-oasis.vmod"),
    );
    // A game of the old release: its setup as muster wrote it, and as VASSAL 3.7.26 saves
    // it, when the engine is here.
    let mut saves = vec![tmp.path().join("setup.vsav")];
    setup_save(&old, &saves[0]);
    if let Some(tools) = crate::vassal::tools() {
        let saved = tmp.path().join("vassal.vsav");
        let args =
            ["--setup", "meeting.vsav", "--no-render", "--save", saved.to_str().unwrap()];
        let run = crate::vassal::run(&tools, &old, &args, "old-release-save");
        assert_eq!(run.code, 0, "{}", run.text);
        saves.push(saved);
    }
    for save in &saves {
        let check = |module: &Path| {
            let args =
                ["check", save.to_str().unwrap(), "--module", module.to_str().unwrap()];
            let out = muster(tmp.path(), &[&args[..], &["--format", "json"]].concat());
            let report: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
            (out.status.code(), report)
        };
        // With its own release, nothing changes.
        let (code, report) = check(&old);
        assert_eq!(code, Some(0), "{report}");
        assert_eq!(report["update"]["changed"], serde_json::json!([]));
        assert_eq!(report["update"]["setups"], serde_json::Value::Null);
        // With the new one: the HQ's movement, and the renamed battalion, found where it stands.
        let (code, report) = check(&new);
        assert_eq!(code, Some(1), "{report}");
        let changed = &report["update"]["changed"];
        assert_eq!(changed.as_array().unwrap().len(), 1, "{changed}");
        assert_eq!(changed[0]["unit"], "1-bde-1-bde-hq");
        assert_eq!(changed[0]["at"], "09.02");
        assert_eq!(changed[0]["values"]["Full_movement"], serde_json::json!(["8", "9"]));
        // The HQ's setup line moved; the game has it where the last release set it up.
        let setups = &report["update"]["setups"];
        assert_eq!(setups["versions"], serde_json::json!(["2.0.0", "2.0.1"]));
        let hq = setups["moved"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["unit"] == "1-bde-1-bde-hq")
            .unwrap_or_else(|| panic!("{setups}"));
        assert_eq!(
            (&hq["scenario"], &hq["from"], &hq["to"], &hq["at"]),
            (&"meeting".into(), &"09.02".into(), &"09.03".into(), &"09.02".into()),
            "{hq}"
        );
        let warnings = report["warnings"].to_string();
        assert!(warnings.contains("`1-bde-2-1-arm-bn`"), "{warnings}");
        assert!(warnings.contains("it stands at"), "{warnings}");
        // In words.
        let args = ["check", save.to_str().unwrap(), "--module", new.to_str().unwrap()];
        let text = String::from_utf8(muster(tmp.path(), &args).stdout).unwrap();
        assert!(
            text.contains(
                "info [changed-counter] 1 Bde HQ at 09.02: movement (front) 8 → 9"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "info [moved-setup] meeting: 2.0.1 sets up 1 Bde HQ at 09.03 (2.0.0 at 09.02); in this game it stands at 09.02"
            ),
            "{text}"
        );
    }
}
