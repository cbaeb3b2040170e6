//! The bad-input corpus: every case replaces files of a minimal valid game and must fail
//! with the expected diagnostic at the expected file, line and column, leave no output
//! behind and never panic.

use std::fs;

use crate::util::{copy_tree, muster, root};

#[test]
fn the_base_game_of_the_corpus_is_valid() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("tests/bad-input/base"), &tmp.path().join("sources"));
    let out = muster(
        tmp.path(),
        &["build", "--map-dpi", "10", "--dpi", "20", "--sheet-dpi", "10"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(tmp.path().join("dist/mini/game.json").is_file());
}

#[test]
fn every_bad_input_case_reports_its_error_where_it_is() {
    let cases = root().join("tests/bad-input/cases");
    let mut names: Vec<_> =
        fs::read_dir(&cases).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    assert!(names.len() >= 20, "the corpus covers every error class");
    let mut failures = Vec::new();
    for case in names {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let tmp = tempfile::tempdir().unwrap();
        let game = tmp.path().join("sources/mini");
        copy_tree(&root().join("tests/bad-input/base/mini"), &game);
        for entry in fs::read_dir(&case).unwrap() {
            let p = entry.unwrap().path();
            if p.file_name().unwrap() == "expected.txt" {
                continue;
            }
            if p.is_dir() {
                copy_tree(&p, &game.join(p.file_name().unwrap()));
            } else {
                fs::copy(&p, game.join(p.file_name().unwrap())).unwrap();
            }
        }
        let expected = fs::read_to_string(case.join("expected.txt")).unwrap();
        let out = muster(tmp.path(), &["build"]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if out.status.code() != Some(2) {
            failures.push(format!(
                "{name}: exit {:?}, expected 2\n{stderr}",
                out.status.code()
            ));
        }
        if stderr.contains("panicked") {
            failures.push(format!("{name}: panicked\n{stderr}"));
        }
        if tmp.path().join("dist/mini").exists() {
            failures
                .push(format!("{name}: a game that failed to load left output in dist/"));
        }
        let mut lines = expected.lines();
        let head = lines.next().unwrap_or_default();
        let (loc, message) = head.split_once(": ").unwrap();
        let want = format!("sources/mini/{loc}: error: {message}");
        if !stderr.lines().any(|l| l.ends_with(&want[..]) || l.contains(&want[..])) {
            failures.push(format!("{name}: expected `{want}` in\n{stderr}"));
        }
        for extra in lines.filter(|l| !l.trim().is_empty()) {
            if !stderr.contains(extra) {
                failures.push(format!("{name}: expected `{extra}` in\n{stderr}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

#[test]
fn two_errors_in_one_file_are_both_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/mini");
    copy_tree(&root().join("tests/bad-input/base/mini"), &game);
    fs::write(
        game.join("counters.yaml"),
        "groups:\n  - formation: 1-dvi\n    nationality: bluland\n    counters: [1 Div HQ]\n",
    )
    .unwrap();
    let out = muster(tmp.path(), &["build"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("counters.yaml:2:16: error: unknown formation `1-dvi`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("counters.yaml:3:18: error: unknown nationality `bluland`"),
        "{stderr}"
    );
}

#[test]
fn files_that_are_not_utf8_or_too_large_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/mini");
    copy_tree(&root().join("tests/bad-input/base/mini"), &game);
    fs::write(game.join("oob.yaml"), b"formations:\n  - id: \xff\xfe\n").unwrap();
    let out = muster(tmp.path(), &["build"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "oob.yaml:2:1: error: failed to read the file (it is not valid UTF-8)"
        ),
        "{stderr}"
    );

    let big = "# padding\n".repeat(1024 * 1024);
    fs::write(game.join("oob.yaml"), big).unwrap();
    let out = muster(tmp.path(), &["build"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("more than the limit of 8388608"), "{stderr}");
}

#[test]
fn a_missing_game_yaml_is_not_a_game_and_a_mistyped_game_is_suggested() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("tests/bad-input/base"), &tmp.path().join("sources"));
    let out = muster(tmp.path(), &["build", "--game", "mnii"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("no game `mnii`") && stderr.contains("did you mean `mini`?"),
        "{stderr}"
    );
}
