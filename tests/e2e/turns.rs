//! Turn tracks as games print them: named turns (half-days) with the numbers setups print
//! for them, printed turns the track does not have reported where they are printed, and
//! the module's turn tracker starting at the scenario's first turn in the real VASSAL.

use std::path::Path;

use muster_package::archive::Archive;
use serde_json::Value;

use crate::util::{copy_tree, muster, root};
use crate::vassal::{play, tools};

const TRACK: &str = r#"  turns:
    names: [June 15 AM, June 15 PM, June 16 AM, June 16 PM, June 17 AM, June 17 PM]
    section: "T.1"
"#;

const SCENARIO: &str = r#"id: meeting
title: Named turns (test)
section: "E.20"
first_turn: "June 15 PM"
last_turn: "June 19 AM"
setup:
  - side: north
    section: "E.21"
    placements:
      - {location: "09.02", units: "1 Bde HQ"}
      - {location: "w/i 1 of 09.03", units: "1/1 Inf Bn"}
  - side: south
    section: "E.22"
    placements:
      - {location: "w/i 2 of 03.08", units: "7 Bde HQ, 1/7 Inf Bn"}
reinforcements:
  - {side: north, section: "E.23", turn: "Turn 3", units: "2/1 Arm Bn"}
  - {side: south, section: "E.24", turn: "June 16 PM", units: "2/7 Inf Bn"}
"#;

/// The example game with a track of six half-days and the scenario above.
fn named_turns_game(dir: &Path) {
    let game = dir.join("sources/example-oasis");
    copy_tree(&root().join("sources/example-oasis"), &game);
    let path = game.join("game.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let old = "  turns: {count: 8, section: \"example\"}\n";
    assert!(text.contains(old), "the example's turn track");
    std::fs::write(&path, text.replace(old, TRACK)).unwrap();
    std::fs::write(game.join("scenarios/meeting.yaml"), SCENARIO).unwrap();
}

fn findings(dir: &Path) -> Vec<Value> {
    let out = muster(dir, &["validate", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let mut all = Vec::new();
    collect(&report, &mut all);
    all
}

/// Every object with a `kind` anywhere in a report.
fn collect(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            if m.contains_key("kind") && m.contains_key("message") {
                out.push(v.clone());
            }
            m.values().for_each(|x| collect(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
        _ => {}
    }
}

#[test]
fn a_printed_turn_off_the_track_is_a_finding_where_it_is_printed() {
    let tmp = tempfile::tempdir().unwrap();
    named_turns_game(tmp.path());
    let unknown: Vec<Value> = findings(tmp.path())
        .into_iter()
        .filter(|f| f["kind"] == "unknown-turn")
        .collect();
    assert_eq!(unknown.len(), 1, "{unknown:#?}");
    let f = &unknown[0];
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("`June 19 AM` is no turn of the turn track (T.1)"), "{f}");
    let text = serde_json::to_string(f).unwrap();
    assert!(text.contains("scenarios/meeting.yaml"), "{text}");
    assert_eq!(f["line"], 5, "the scenario's last turn: {text}");
    assert!(text.contains("`June 15 AM` to `June 17 PM`"), "{text}");
    let strict = muster(tmp.path(), &["validate", "--strict", "--quiet"]);
    assert_eq!(strict.status.code(), Some(1), "an unknown turn fails --strict");
    std::fs::write(
        tmp.path().join("sources/example-oasis/errata.yaml"),
        "known:\n  - {kind: unknown-turn, subject: \"June 19 AM\", note: the track ends on June 17 (T.1)}\n",
    )
    .unwrap();
    let strict = muster(tmp.path(), &["validate", "--strict", "--format", "json"]);
    assert_eq!(strict.status.code(), Some(0), "acknowledged in errata.yaml");
    let listed: Vec<Value> = serde_json::from_slice(&strict.stdout).unwrap();
    let known =
        listed.iter().find(|f| f["kind"] == "unknown-turn").expect("still listed");
    assert_eq!(known["known"], "the track ends on June 17 (T.1)");
}

#[test]
fn named_turns_reach_the_ruleset_and_the_tracker_starts_at_the_first_turn() {
    let tmp = tempfile::tempdir().unwrap();
    named_turns_game(tmp.path());
    let out = muster(
        tmp.path(),
        &["--quiet", "build", "--map-dpi", "20", "--dpi", "20", "--sheet-dpi", "10"],
    );
    assert!(out.status.code() == Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let module = tmp.path().join("dist/example-oasis.vmod");
    let ruleset = read_entry(&module, "rules/ruleset.json");
    let doc: Value = serde_json::from_slice(&ruleset).unwrap();
    assert_eq!(doc["turn_names"][5], "June 17 PM");
    assert_eq!(
        doc["first_turns"]["meeting"]["number"], 2,
        "June 15 PM is the second turn"
    );
    let starts = &doc["scenarios"]["meeting"];
    let arrives = |unit: &str| -> Vec<Value> {
        starts[unit]["starts"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s.get("arrives").cloned())
            .collect()
    };
    let armour = arrives("1-bde-2-1-arm-bn");
    assert!(
        armour.iter().any(|t| t["printed"] == "Turn 3" && t["number"] == 3),
        "`Turn 3` is the third half-day: {armour:?}"
    );
    let Some(tools) = tools() else { return };
    let run = play(
        &tools,
        &module,
        &["--setup", "meeting.vsav", "--turns", "2"],
        "named-turns",
    );
    run.assert_clean("named turns");
    let turns = &run.action(0)["turns"];
    assert_eq!(turns[0], "June 16 AM", "the setup starts at June 15 PM: {turns}");
    assert_eq!(turns[1], "June 16 PM", "{turns}");
}

fn read_entry(archive: &Path, name: &str) -> Vec<u8> {
    let mut module = Archive::open(std::fs::read(archive).unwrap()).unwrap();
    module.read(name).unwrap()
}
