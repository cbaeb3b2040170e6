//! The errata checker on the seed games, and on copies with errors injected: each injected
//! error is found exactly once, at the right file and line.

use std::fs;

use crate::util::{copy_tree, muster, root};

fn errata_of(dir: &std::path::Path, game: &str) -> Vec<serde_json::Value> {
    let out = muster(dir, &["errata", "--game", game, "--format", "json"]);
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<serde_json::Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn line_of(path: &std::path::Path, needle: &str) -> u64 {
    fs::read_to_string(path).unwrap().lines().position(|l| l.contains(needle)).unwrap()
        as u64
        + 1
}

#[test]
fn the_seed_games_real_misprints_are_found() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources"), &tmp.path().join("sources"));
    let scs = errata_of(tmp.path(), "gazala-scs");
    let has = |kind: &str, subject: &str| {
        scs.iter().any(|e| e["kind"] == kind && e["subject"] == subject)
    };
    assert!(has("unknown-unit", "3/18 Gurk"));
    let gurk = scs.iter().find(|e| e["subject"] == "3/18 Gurk").unwrap();
    assert!(
        gurk["suggestion"]
            .as_str()
            .unwrap()
            .starts_with("3/18 Gar Inf Bn (similarity 0.")
    );
    assert!(gurk["file"].as_str().unwrap().ends_with("full-campaign.yaml"));
    assert!(has("name-differs", "57 AT Bn"));
    assert!(has("hq-of-other-formation", "5 Ind Div HQ"));
    assert!(has("unparsable-list", "4/10 BL 2 Cam-a"));
    assert!(has("map-erratum", "A28.05"));
    for key in [
        "game",
        "kind",
        "severity",
        "subject",
        "expected",
        "suggestion",
        "file",
        "line",
        "column",
        "message",
        "section",
    ] {
        assert!(gurk.get(key).is_some(), "{key}");
    }
    let g42 = errata_of(tmp.path(), "gazala-1942");
    assert!(g42.iter().any(|e| e["kind"] == "overstack" && e["section"] == "5.1"));
    let split = g42.iter().find(|e| e["kind"] == "split-strength").unwrap();
    assert_eq!(split["subject"], "6/2 [2-1-7]");
    assert_eq!(split["expected"], "6-1-7 divides into 4-1-7 and 2-0-7");
    // The Markdown report is written, grouped by kind.
    let md = fs::read_to_string(tmp.path().join("dist/gazala-scs/errata.md")).unwrap();
    assert!(md.starts_with("# Errata: Gazala") && md.contains("\n## unknown-unit\n"));
}

#[test]
fn injected_errors_are_found_once_at_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    let before = errata_of(tmp.path(), "gazala-scs");
    let scenario = tmp.path().join("sources/gazala-scs/scenarios/british-collapse.yaml");
    let counters = tmp.path().join("sources/gazala-scs/counters.yaml");
    // A misspelt unit in a setup, a unit listed twice, an HQ moved to another formation.
    let text = fs::read_to_string(&scenario).unwrap();
    let text =
        text.replace("Inf Bns: 1 TS, 1 Duke, 1 RNC", "Inf Bns: 1 TS, 1 Dukke, 1 RNC");
    let text = text.replace(
        "\"Seacol-b Arm Recon Bn\"",
        "\"Seacol-b Arm Recon Bn, Seacol-a Arm Recon Bn\"",
    );
    fs::write(&scenario, text).unwrap();
    let text = fs::read_to_string(&counters).unwrap().replacen(
        "\"2 SA Inf Div HQ\"",
        "\"1 SA Inf Div HQ\"",
        1,
    );
    fs::write(&counters, text).unwrap();
    let after = errata_of(tmp.path(), "gazala-scs");
    let new: Vec<&serde_json::Value> =
        after.iter().filter(|e| !before.contains(e)).collect();
    let one = |kind: &str, subject: &str| -> &serde_json::Value {
        let found: Vec<_> =
            new.iter().filter(|e| e["kind"] == kind && e["subject"] == subject).collect();
        assert_eq!(found.len(), 1, "{kind} {subject} in {new:#?}");
        found[0]
    };
    let dukke = one("unknown-unit", "1 Dukke");
    assert_eq!(dukke["line"], line_of(&scenario, "1 Dukke"));
    assert!(dukke["suggestion"].as_str().unwrap().starts_with("1 Duke Inf Bn"));
    let twice = one("listed-twice", "Seacol-a Arm Recon Bn");
    let lines = [
        line_of(&scenario, "Seacol-b Arm Recon Bn, Seacol-a"),
        line_of(&scenario, "\"Seacol-a Arm Recon Bn\""),
    ];
    assert!(lines.contains(&twice["line"].as_u64().unwrap()), "{twice} not on {lines:?}");
    let hq = one("hq-of-other-formation", "1 SA Inf Div HQ");
    let original = root().join("sources/gazala-scs/counters.yaml");
    assert_eq!(hq["line"], line_of(&original, "\"2 SA Inf Div HQ\""));
    assert!(
        hq["message"].as_str().unwrap().contains("the HQ of 2nd South African Division")
    );
}

#[test]
fn acknowledged_errata_are_marked_known_and_kept() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    fs::write(
        tmp.path().join("sources/gazala-scs/errata.yaml"),
        "known:\n  - {kind: unknown-unit, subject: 3/18 Gurk, note: the manifest's 3/18 Gar is the misprint}\n",
    )
    .unwrap();
    let all = errata_of(tmp.path(), "gazala-scs");
    let gurk: Vec<_> = all.iter().filter(|e| e["subject"] == "3/18 Gurk").collect();
    assert!(!gurk.is_empty());
    assert!(gurk.iter().all(|e| e["known"] == true
        && e["known_note"] == "the manifest's 3/18 Gar is the misprint"));
}
