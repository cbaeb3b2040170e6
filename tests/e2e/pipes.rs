//! Unix habits: a reader that closes the pipe early ends any command quietly, exit 0,
//! never a panic or an error message.

use std::process::{Command, Stdio};

use crate::util::{copy_tree, root};

/// A folder with two seed games to read.
fn workspace() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for game in ["example-oasis", "gazala-scs"] {
        copy_tree(
            &root().join("sources").join(game),
            &tmp.path().join("sources").join(game),
        );
    }
    tmp
}

fn command(dir: &std::path::Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_muster"));
    c.args(args).current_dir(dir).env("NO_COLOR", "1");
    c
}

const BUILD: [&str; 9] = [
    "build",
    "--game",
    "example-oasis",
    "--map-dpi",
    "10",
    "--dpi",
    "20",
    "--sheet-dpi",
    "10",
];

#[test]
fn a_closed_standard_output_ends_every_command_quietly_with_exit_0() {
    let tmp = workspace();
    let build_json = [&BUILD[..], &["--format", "json"]].concat();
    let commands: Vec<Vec<&str>> = vec![
        vec!["schema"],
        vec!["schema", "--format", "json"],
        vec!["inspect", "--game", "gazala-scs"],
        vec!["errata", "--game", "gazala-scs"],
        vec!["errata", "--game", "gazala-scs", "--format", "json"],
        vec!["validate", "--game", "gazala-scs"],
        vec!["validate", "--game", "gazala-scs", "--format", "json"],
        build_json,
        vec!["clean", "--format", "json"],
        vec!["--help"],
    ];
    for args in &commands {
        let mut child = command(tmp.path(), args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes before muster writes a byte.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("error"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_standard_error_ends_a_build_quietly_with_exit_0() {
    let tmp = workspace();
    for args in [&BUILD[..], &["validate", "--game", "gazala-scs"]] {
        let mut child = command(tmp.path(), args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        assert_eq!(child.wait().unwrap().code(), Some(0), "{args:?}");
    }
}

#[test]
fn clean_reports_as_json_what_it_removed() {
    let tmp = workspace();
    assert!(crate::util::muster(tmp.path(), &BUILD).status.success());
    let out = crate::util::muster(tmp.path(), &["clean", "--format", "json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], serde_json::json!(["example-oasis"]));
    assert!(v["files"].as_u64().unwrap() > 10, "{v}");
}

#[test]
fn an_unknown_scenario_lists_the_scenarios_there_are() {
    let tmp = workspace();
    let out = crate::util::muster(
        tmp.path(),
        &["validate", "--game", "example-oasis", "--scenario", "meetin"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "no scenario `meetin`; did you mean `meeting`? (the scenarios are meeting)"
        ),
        "{err}"
    );
}
