//! Set-up cells as real games print them, read end to end: lists and runs of hexes, a hex
//! with its place name (checked against the map), a place alone, `w/i N HEX` without
//! `of`, units joined by `and`, counts written `2x` or after the name, and plurals.

use std::path::Path;

use serde_json::Value;

use crate::util::{copy_tree, muster, root};

const SCENARIO: &str = r#"id: meeting
title: Printed forms (test)
section: "E.20"
setup:
  - side: north
    section: "E.21"
    placements:
      - {location: "09.02 (Port)", units: "1 Bde HQ"}
      - {location: "06.06 (Port)", units: "1/1 Inf Bn"}
      - {location: "Bir Example", units: "2/1 Arm Bn"}
  - side: south
    section: "E.22"
    placements:
      - {location: "03.08-09", units: "7 Bde HQ and 1/7 Inf Bn"}
      - {location: "w/i 1 03.05", units: "2/7 Inf Bn"}
      - {location: "02.03, 02.04 & 02.05", units: "2x Pickets, Scouts (2 units)"}
"#;

const EXTRA: &str = r#"  - formation: 7-bde
    counters:
      - {printed: Picket, count: 2}
      - {printed: Scouts, count: 2}
"#;

fn forms_game(dir: &Path) {
    let game = dir.join("sources/example-oasis");
    copy_tree(&root().join("sources/example-oasis"), &game);
    let path = game.join("counters.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let at =
        text.find("# EXAMPLE art").expect("the example's art sheets follow its groups");
    std::fs::write(&path, format!("{}{EXTRA}{}", &text[..at], &text[at..])).unwrap();
}

/// The example game with the printed forms' counters and `scenario` as its scenario.
fn game_with(dir: &Path, scenario: &str) {
    forms_game(dir);
    std::fs::write(dir.join("sources/example-oasis/scenarios/meeting.yaml"), scenario)
        .unwrap();
}

/// `validate --format json`'s findings that need attention.
fn serious_findings(dir: &Path) -> Vec<Value> {
    let out = muster(dir, &["validate", "--format", "json"]);
    let findings: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    findings.into_iter().filter(|f| f["severity"] != "info").collect()
}

/// Builds the game and returns the pieces of its one setup, as module.json lists them.
fn built_pieces(dir: &Path) -> Vec<Value> {
    let out = muster(
        dir,
        &["--quiet", "build", "--map-dpi", "20", "--dpi", "20", "--sheet-dpi", "10"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let module: Value = serde_json::from_slice(
        &std::fs::read(dir.join("dist/example-oasis/module.json")).unwrap(),
    )
    .unwrap();
    module[0]["pieces"].as_array().unwrap().clone()
}

/// Where the pieces of a counter stand.
fn locations(pieces: &[Value], name: &str) -> Vec<String> {
    pieces
        .iter()
        .filter(|p| p["name"] == name)
        .map(|p| p["location"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn printed_set_up_forms_place_their_units_and_a_wrong_place_name_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    game_with(tmp.path(), SCENARIO);
    let serious = serious_findings(tmp.path());
    let kinds: Vec<&str> = serious.iter().filter_map(|f| f["kind"].as_str()).collect();
    assert_eq!(kinds, ["place-differs"], "{serious:#?}");
    let f = &serious[0];
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(9), Some(21)),
        "at the hex: {f}"
    );
    assert!(
        f["message"].as_str().unwrap().contains("the map names `Port` at 09.02"),
        "{f}"
    );
    let pieces = built_pieces(tmp.path());
    let at = |name: &str| locations(&pieces, name);
    assert_eq!(at("1 Bde HQ"), ["09.02"]);
    assert_eq!(at("1/1 Inf Bn"), ["06.06"], "the printed hex, not the place's");
    assert_eq!(at("2/1 Arm Bn"), ["06.06"], "Bir Example is 06.06");
    for unit in ["7 Bde HQ", "1/7 Inf Bn"] {
        let hex = at(unit);
        assert!(hex == ["03.08"] || hex == ["03.09"], "{unit} on the run: {hex:?}");
    }
    let near = at("2/7 Inf Bn");
    assert!(
        ["03.05", "02.05", "04.05", "03.04", "03.06", "02.04", "04.04", "02.06", "04.06"]
            .contains(&near[0].as_str()),
        "{near:?}"
    );
    let listed = ["02.03", "02.04", "02.05"];
    for (name, n) in [("Picket", 2), ("Scouts", 2)] {
        let hexes = at(name);
        assert_eq!(hexes.len(), n, "{name}: {hexes:?}");
        assert!(hexes.iter().all(|h| listed.contains(&h.as_str())), "{name}: {hexes:?}");
    }
}

const TABLE: &str = r#"id: meeting
title: A set-up table (test)
section: "E.30"
setup:
  - side: north
    section: "E.31"
    table:
      columns: [unit, size, command, type, strength, hex]
      marks: {"*": "starts disrupted (E.31)"}
      rows:
        - ["1/1", "Bn", "1 Bde", "Inf", "3*", "09.03 (Old works)"]
        - ["2/1", "Bn", "1 Bde", "Inf", "6", "09.02"]
        - ["1 Bde HQ", "", "1 Bde", "", "", "10.02"]
  - side: south
    section: "E.32"
    table:
      columns: [hex, unit, note]
      rows:
        - ["03.08", "7 Bde HQ", "with the brigade"]
        - ["w/i 1 03.08", "1/7 Inf Bn, 2/7 Inf Bn", ""]
"#;

#[test]
fn a_set_up_printed_as_a_table_is_read_row_by_row() {
    let tmp = tempfile::tempdir().unwrap();
    game_with(tmp.path(), TABLE);
    let serious = serious_findings(tmp.path());
    let kinds: Vec<&str> = serious.iter().filter_map(|f| f["kind"].as_str()).collect();
    assert_eq!(
        kinds,
        ["type-differs"],
        "the table's `Inf` for an armoured battalion: {serious:#?}"
    );
    let f = &serious[0];
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(12), Some(13)),
        "at the row's unit: {f}"
    );
    let pieces = built_pieces(tmp.path());
    let at = |name: &str| locations(&pieces, name);
    assert_eq!(
        at("1/1 Inf Bn"),
        ["09.03"],
        "`1/1` with its type and size, the mark read"
    );
    assert_eq!(at("2/1 Arm Bn"), ["09.02"]);
    assert_eq!(at("1 Bde HQ"), ["10.02"]);
    assert_eq!(at("7 Bde HQ"), ["03.08"]);
    assert_eq!(at("1/7 Inf Bn").len() + at("2/7 Inf Bn").len(), 2);
}

#[test]
fn a_hex_of_a_map_letter_the_game_has_not_is_a_bad_hex() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/gazala-scs");
    copy_tree(&root().join("sources/gazala-scs"), &game);
    let path = game.join("scenarios/cauldron-and-knightsbridge.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("location: \"A40.06\""));
    std::fs::write(
        &path,
        text.replacen("location: \"A40.06\"", "location: \"N40.06\"", 1),
    )
    .unwrap();
    let out =
        muster(tmp.path(), &["validate", "--scenario", "cauldron-and-knightsbridge"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line =
        text.lines().find(|l| l.contains("N40.06")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("bad-hex"), "a map letter no map has: {line}");
}

const BOXES_AND_STATES: &str = r#"id: meeting
title: Boxes and states (test)
section: "E.40"
setup:
  - side: north
    section: "E.41"
    placements:
      - {location: "See E.45", units: "1 Bde HQ"}
      - {location: "09.03 - disrupted", units: "1/1 Inf Bn"}
      - {location: "09.02—R", units: "2/1 Arm Bn"}
  - side: south
    section: "E.42"
    placements:
      - {location: "Reinforcement Pool", units: "7 Bde HQ"}
"#;

#[test]
fn a_holding_box_in_the_hex_column_and_a_state_after_the_hex_are_read() {
    let tmp = tempfile::tempdir().unwrap();
    game_with(tmp.path(), BOXES_AND_STATES);
    let serious = serious_findings(tmp.path());
    assert_eq!(serious.len(), 1, "{serious:#?}");
    let f = &serious[0];
    assert_eq!(f["kind"], "unknown-mark", "{f}");
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(9), Some(29)),
        "at the state: {f}"
    );
    let pieces = built_pieces(tmp.path());
    let piece = |name: &str| -> &Value {
        pieces.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(piece("1 Bde HQ")["location"], "See E.45", "the box the row names");
    assert_eq!(piece("7 Bde HQ")["location"], "Reinforcement Pool");
    assert_eq!(
        piece("1/1 Inf Bn")["reduced"],
        false,
        "an unknown state leaves the front up"
    );
    assert_eq!(piece("2/1 Arm Bn")["reduced"], true, "`R` is the game's reduced mark");
    assert_eq!(piece("2/1 Arm Bn")["location"], "09.02");
}

const STRENGTHS: &str = r#"id: meeting
title: Starting strengths (test)
section: "E.50"
setup:
  - side: north
    section: "E.51"
    placements:
      - {location: "09.03", units: "1/1 Inf Bn [2-3-5]"}
      - {location: "09.02, but west of the wadi.", units: "2/1 Arm Bn [6-3]"}
      - {location: "10.02", units: "the 1 Bde HQ"}
  - side: south
    section: "E.52"
    placements:
      - {location: "03.08", units: "7 Bde HQ and 1/7 Inf Bn"}
starting_values:
  - side: south
    section: "E.55"
    value: attack
    units:
      - {unit: "1/7 Inf Bn", value: "2"}
      - {unit: "1/9 Inf Bn", value: "1"}
"#;

/// A strength a setup line prints that is no side of its counter, and a table of starting
/// values, reach the pieces of the scenario's setup; a strength no form of the values
/// fits, a limit after a location and a row naming no counter are findings at their
/// columns; `the` and `and` are read.
#[test]
fn starting_strengths_reach_the_setup_and_what_cannot_be_read_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    game_with(tmp.path(), STRENGTHS);
    let serious = serious_findings(tmp.path());
    let found: Vec<(&str, u64, u64)> = serious
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap(),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("unknown-unit", 21, 16),
            ("unchecked-limit", 9, 32),
            ("unread-strength", 9, 60)
        ],
        "{serious:#?}"
    );
    let pieces = built_pieces(tmp.path());
    let piece = |name: &str| -> &Value {
        pieces.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(piece("1/1 Inf Bn")["strength"], "2-3-5", "attack-defense-movement");
    assert_eq!(piece("2/1 Arm Bn")["strength"], Value::Null, "`6-3` sets nothing");
    assert_eq!(piece("2/1 Arm Bn")["location"], "09.02", "placed by the location");
    assert_eq!(piece("1 Bde HQ")["location"], "10.02", "`the` is read");
    assert_eq!(piece("7 Bde HQ")["location"], "03.08");
    assert_eq!(piece("1/7 Inf Bn")["strength"], "2", "the table's attack");
}

const BY_STEP: &str = r#"id: meeting
title: Arrivals by a step of the sequence (test)
section: "E.60"
setup:
  - side: north
    section: "E.61"
    placements:
      - {location: "09.03", units: "1/1 Inf Bn"}
reinforcements:
  - {side: north, section: "E.62", turn: "Turn 2", units: "1 Bde HQ", area: "North player turn Movement"}
  - {side: south, section: "E.62", turn: "Turn 2", units: "7 Bde HQ", area: "Q"}
"#;

/// A reinforcement that arrives by a step of the sequence of play (`North player turn
/// Movement`) is held for its turn with no finding; an entry area no map names still is.
#[test]
fn an_arrival_by_a_step_of_the_sequence_is_no_unknown_area() {
    let tmp = tempfile::tempdir().unwrap();
    game_with(tmp.path(), BY_STEP);
    let serious = serious_findings(tmp.path());
    let areas: Vec<&str> = serious
        .iter()
        .filter(|f| f["kind"] == "unknown-area")
        .filter_map(|f| f["location"].as_str())
        .collect();
    assert_eq!(areas, ["Q"], "{serious:#?}");
    assert!(
        serious[0]["message"].as_str().unwrap().contains("(reinforcements of Turn 2)"),
        "{serious:#?}"
    );
    let pieces = built_pieces(tmp.path());
    let hq = pieces.iter().find(|p| p["name"] == "1 Bde HQ").unwrap();
    assert_eq!(hq["location"], "Reinforcements: Turn 2, area North player turn Movement");
}
