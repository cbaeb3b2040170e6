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
    // One finding for one erratum, however many scenarios print it: the others are `also`.
    let gurks: Vec<_> = scs.iter().filter(|e| e["subject"] == "3/18 Gurk").collect();
    assert_eq!(gurks.len(), 1, "{gurks:#?}");
    let gurk = gurks[0];
    assert!(
        gurk["suggestion"]
            .as_str()
            .unwrap()
            .starts_with("3/18 Gar Inf Bn (16.1.9.3; similarity 0."),
        "the suggestion names the counter and its section: {gurk}"
    );
    assert!(gurk["file"].as_str().unwrap().ends_with("full-campaign.yaml"));
    let also = gurk["also"].as_array().unwrap();
    assert_eq!(also.len(), 1, "{gurk}");
    assert!(also[0]["file"].as_str().unwrap().ends_with("main-event.yaml"));
    assert_eq!(also[0]["section"], "15.6.4.5");
    assert_eq!(gurk["certainty"], "likely");
    assert!(gurk["evidence"].as_str().unwrap().contains("similarity"));
    // Printed words compared with the counter's, not only their classes.
    assert!(has("type-differs", "57 AT Bn"));
    assert!(has("size-differs", "7 Med Arty Co"));
    assert!(has("type-differs", "72 Fld Arty Bn"));
    assert!(has("name-differs", "Sabratha Inf Div HQ"));
    // SCS 15.1.3 prints `Btry` for Battery: no finding for `902 Hvy Arty Btry`.
    assert!(
        !scs.iter().any(|e| e["subject"].as_str().unwrap_or_default().contains("Btry")
            && (e["kind"] == "size-differs" || e["kind"] == "type-differs"))
    );
    // HQ short forms are one habit, not a finding on every line.
    let habits: Vec<_> = scs.iter().filter(|e| e["kind"] == "naming-habit").collect();
    assert!(habits.iter().any(|e| e["subject"] == "HQ short forms"
        && e["severity"] == "info"
        && e["also"].as_array().unwrap().len() > 5));
    assert!(
        !scs.iter().any(|e| e["kind"] == "name-differs" && e["subject"] == "Brescia HQ")
    );
    assert!(has("hq-of-other-formation", "5 Ind Div HQ"));
    // 15.5.2.1 and 15.6.4.1 end with a location and no units.
    assert!(has("no-units", "A54.02"));
    assert!(has(
        "no-units",
        "w/i 5 of any British MFH between A29.06 to A46.14 (inclusive)"
    ));
    assert!(has("unparsable-list", "4/10 BL 2 Cam-a"));
    assert!(has("map-erratum", "A28.05"));
    for key in [
        "game",
        "kind",
        "severity",
        "certainty",
        "evidence",
        "also",
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
    // The report is sorted by certainty, and so is the Markdown: one line per erratum.
    let order = |c: &serde_json::Value| match c.as_str() {
        Some("certain") => 0,
        Some("likely") => 1,
        Some("possible") => 2,
        _ => 3,
    };
    let ranks: Vec<u8> = scs.iter().map(|e| order(&e["certainty"])).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    let md = fs::read_to_string(tmp.path().join("dist/gazala-scs/errata.md")).unwrap();
    assert!(md.starts_with("# Errata: Gazala"));
    let (certain, likely) =
        (md.find("\n## Certain\n").unwrap(), md.find("\n## Likely\n").unwrap());
    assert!(certain < likely);
    // What muster could not check is no erratum: listed apart, last.
    let unchecked = md.find("\n## Not checked (muster's reading, no erratum)\n").unwrap();
    assert!(likely < unchecked);
    for e in scs.iter().filter(|e| e["kind"] == "unprinted-zone") {
        assert_eq!(e["certainty"], "unchecked", "{e}");
    }
    assert!(scs.iter().any(|e| e["kind"] == "unprinted-zone"));
    let zone = md.lines().position(|l| l.contains("(unprinted-zone,")).unwrap();
    assert!(md.lines().position(|l| l.starts_with("## Not checked")).unwrap() < zone);
    let line = md.lines().find(|l| l.contains("`3/18 Gurk`")).unwrap();
    assert!(
        line.starts_with("- **15.5.2.4, 15.6.4.5** `3/18 Gurk`:")
            && line.contains("likely `3/18 Gar Inf Bn (16.1.9.3; similarity")
            && line.contains("full-campaign.yaml:")
            && line.contains("main-event.yaml:"),
        "{line}"
    );
    assert_eq!(md.lines().filter(|l| l.contains("`3/18 Gurk`")).count(), 1);
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

/// Copies gazala-scs, applies `edit` to one file (text replacement), and returns the
/// errata that were not there before.
fn injected(
    file: &str,
    from: &str,
    to: &str,
) -> (Vec<serde_json::Value>, std::path::PathBuf, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    let before = errata_of(tmp.path(), "gazala-scs");
    let path = tmp.path().join("sources/gazala-scs").join(file);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let after = errata_of(tmp.path(), "gazala-scs");
    (after.into_iter().filter(|e| !before.contains(e)).collect(), path, tmp)
}

#[test]
fn each_kind_of_injected_error_is_found_once_at_its_line() {
    let cases: [(&str, &str, &str, &str, &str); 12] = [
        (
            "no-units",
            "scenarios/cauldron-and-knightsbridge.yaml",
            "units: \"4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn)\"",
            "units: \"\"",
            "B35.21",
        ),
        // kind, file, from, to, the text on the line the finding must point at
        (
            "type-differs",
            "scenarios/cauldron-and-knightsbridge.yaml",
            "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn)",
            "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Arm Bn)",
            "1 KRRC Arm Bn",
        ),
        (
            "size-differs",
            "scenarios/cauldron-and-knightsbridge.yaml",
            "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn)",
            "4 Arm Bde (5 RTR Arm Co, 1 KRRC Inf Bn)",
            "5 RTR Arm Co",
        ),
        (
            "other-formation",
            "scenarios/cauldron-and-knightsbridge.yaml",
            "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn)",
            "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn, 2 SG Inf Bn)",
            "2 SG Inf Bn)",
        ),
        (
            "setup-and-reinforcement",
            "scenarios/full-campaign.yaml",
            "A42.07\"\n        units: \"69 Inf Bde (6 GH Inf Bn)\"",
            "A42.07\"\n        units: \"69 Inf Bde (6 GH Inf Bn), 21 Ind Inf Bde (157 Fld Arty Bn)\"",
            "21 Ind Inf Bde (Inf Bns: 1 DCLI",
        ),
        (
            "bad-hex",
            "scenarios/cauldron-and-knightsbridge.yaml",
            "location: \"B35.21\"",
            "location: \"B35.41\"",
            "B35.41",
        ),
        (
            "overstack",
            "scenarios/cauldron-and-knightsbridge.yaml",
            "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn)",
            "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn, 3 RTR Arm Bn, 8 Hus Arm Bn)",
            "B35.21",
        ),
        (
            "unparsable-list",
            "scenarios/cauldron-and-knightsbridge.yaml",
            "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn)",
            "4 Arm Bde (5 RTR Arm Bn 1 KRRC Inf Bn)",
            "5 RTR Arm Bn 1 KRRC",
        ),
        (
            "count-mismatch",
            "scenarios/cauldron-and-knightsbridge.yaml",
            "\nsetup:\n",
            "\nstated_counts:\n  - {what: \"setup:axis\", count: 1, section: \"15.4\", quote: \"The Axis sets up one unit.\"}\nsetup:\n",
            "The Axis sets up one unit.",
        ),
        (
            "unexpected-nationality",
            "counters.yaml",
            "      - \"II/19 Inf Bn\"",
            "      - {printed: \"II/19 Inf Bn\", nationality: germany}",
            "\"II/19 Inf Bn\", nationality",
        ),
        (
            "unexpected-side",
            "counters.yaml",
            "      - \"8 DLI Inf Bn\"",
            "      - {printed: \"8 DLI Inf Bn\", nationality: italy}",
            "\"8 DLI Inf Bn\", nationality",
        ),
        (
            "duplicate-name",
            "counters.yaml",
            "\"Stopcol Arm Recon Bn\"",
            "{printed: \"6 SA Arm Car Bn\", id: dup-6-sa}",
            "6 SA Arm Car Bn",
        ),
    ];
    for (kind, file, from, to, line_text) in cases {
        let (new, path, _tmp) = injected(file, from, to);
        let found: Vec<_> = new.iter().filter(|e| e["kind"] == kind).collect();
        assert_eq!(found.len(), 1, "{kind}: {new:#?}");
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<u64> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains(line_text))
            .map(|(k, _)| k as u64 + 1)
            .collect();
        assert!(
            lines.contains(&found[0]["line"].as_u64().unwrap()),
            "{kind}: {} not on {lines:?}",
            found[0]["line"]
        );
        assert!(found[0]["file"].as_str().unwrap().ends_with(file), "{kind}");
    }
}

#[test]
fn split_strengths_and_stated_counts_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/gazala-1942"),
        &tmp.path().join("sources/gazala-1942"),
    );
    let path = tmp.path().join("sources/gazala-1942/scenarios/preliminary-phase.yaml");
    // 13.16 prints 9/5 as [3-1-7] and [1-0-7], which 10.6 permits; make it [3-1-7] and [2-0-7].
    let text =
        fs::read_to_string(&path).unwrap().replace("9/5 (I) [1-0-7]", "9/5 (I) [2-0-7]");
    fs::write(&path, text).unwrap();
    let all = errata_of(tmp.path(), "gazala-1942");
    let splits: Vec<_> = all.iter().filter(|e| e["kind"] == "split-strength").collect();
    assert_eq!(splits.len(), 2, "the printed 6/2 [2-1-7] and the injected 9/5 [2-0-7]");
    assert!(splits.iter().any(|e| e["subject"] == "9/5 [2-0-7]"
        && e["expected"] == "5-1-7 divides into 3-1-7 and 1-0-7"));

    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/dance-of-war"),
        &tmp.path().join("sources/dance-of-war"),
    );
    let path = tmp.path().join("sources/dance-of-war/scenarios/campaign.yaml");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("count: 12, section: \"3.5.2\"", "count: 13, section: \"3.5.2\"");
    fs::write(&path, text).unwrap();
    let all = errata_of(tmp.path(), "dance-of-war");
    let c: Vec<_> = all.iter().filter(|e| e["kind"] == "count-mismatch").collect();
    assert_eq!(
        c.len(),
        0,
        "the Dance of War setup stops short, so counts are information"
    );
    assert!(all.iter().any(|e| e["kind"] == "count-incomplete"
        && e["severity"] == "info"
        && e["expected"] == "13"
        && e["message"].as_str().unwrap().contains("lists give 12")));
}

#[test]
fn a_unit_list_that_fits_no_form_is_reported_not_resolved() {
    let (new, path, _tmp) = injected(
        "scenarios/cauldron-and-knightsbridge.yaml",
        "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn)",
        "4 Arm Bde (5 RTR Arm Bn, 1 KRRC Inf Bn), Bns: : 2 SG",
    );
    let found: Vec<_> = new.iter().filter(|e| e["kind"] == "unparsable-list").collect();
    assert_eq!(found.len(), 1, "{new:#?}");
    assert_eq!(found[0]["subject"], "Bns: : 2 SG");
    assert!(found[0]["message"].as_str().unwrap().contains("fits no form"));
    assert_eq!(found[0]["line"], line_of(&path, "Bns: : 2 SG"));
    // Nothing is guessed for it.
    assert!(!new.iter().any(|e| e["kind"] == "unknown-unit"), "{new:#?}");
}

#[test]
fn unused_counters_are_reported_once_where_nothing_can_say_more() {
    // Gazala 1942 prints every setup in full: an unused counter is a finding of its own.
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/gazala-1942"),
        &tmp.path().join("sources/gazala-1942"),
    );
    let counters = tmp.path().join("sources/gazala-1942/counters.yaml");
    let text = fs::read_to_string(&counters).unwrap();
    let text = text.replacen(
        "      - {printed: \"Heckler\"",
        "      - \"Bogus\"\n      - {printed: \"Heckler\"",
        1,
    );
    fs::write(&counters, text).unwrap();
    let all = errata_of(tmp.path(), "gazala-1942");
    let unused: Vec<_> = all.iter().filter(|e| e["kind"] == "unused").collect();
    // Heckler is used by no setup, but 10.4 lands it.
    assert_eq!(unused.len(), 1, "{unused:#?}");
    let bogus = unused.iter().find(|e| e["subject"] == "Bogus").unwrap();
    assert_eq!(bogus["line"], line_of(&counters, "\"Bogus\""));

    // SCS: the Full Campaign and the Main Event stop short, so the counters no line uses
    // are one finding, and a counter a misprint names is used by that misprint.
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    let scs = errata_of(tmp.path(), "gazala-scs");
    let unused: Vec<_> = scs.iter().filter(|e| e["kind"] == "unused").collect();
    assert_eq!(unused.len(), 1, "{unused:#?}");
    let message = unused[0]["message"].as_str().unwrap();
    assert!(message.contains("stop short") && message.contains("`Tobruk Fortress HQ`"));
    for misprinted in ["`3/18 Gar Inf Bn`", "`PzGrp Army HQ`", "`2 Cam-a Inf Bn`"] {
        assert!(!message.contains(misprinted), "{misprinted} is named by a misprint");
    }
    let n = message.matches('`').count() / 2;
    assert_eq!(unused[0]["also"].as_array().unwrap().len() + 1, n);

    // Gazala Line 1942 prints no placement at all: nothing to report counter by counter.
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/gazala-line-1942"),
        &tmp.path().join("sources/gazala-line-1942"),
    );
    let line = errata_of(tmp.path(), "gazala-line-1942");
    assert!(!line.iter().any(|e| e["kind"] == "unused"), "{line:#?}");
    assert!(line.iter().any(|e| e["kind"] == "incomplete"));
}

#[test]
fn units_a_setup_row_joins_are_one_stack_where_the_rules_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/dance-of-war"),
        &tmp.path().join("sources/dance-of-war"),
    );
    let stacks = |all: &[serde_json::Value]| -> Vec<String> {
        all.iter()
            .filter(|e| e["kind"] == "overstack")
            .map(|e| e["subject"].as_str().unwrap().to_string())
            .collect()
    };
    // 15.2 as printed: three of its groups hold more than 6.0's two combat units.
    let seed = errata_of(tmp.path(), "dance-of-war");
    assert_eq!(
        stacks(&seed),
        [
            "580A - 1/155 - 1/361 - 900P",
            "1/66 - 2/66 - 1 M",
            "XXI HQ - 1/61 - 2+3/61 - 1+2/62"
        ]
    );
    let first = seed.iter().find(|e| e["kind"] == "overstack").unwrap();
    assert_eq!(first["certainty"], "likely");
    assert!(
        first["message"].as_str().unwrap().contains("4 combat units where at most 2")
    );
    assert!(first["evidence"].as_str().unwrap().contains("15.0"));
    // An injected third unit joined to 1st SA Brigade's stack is found once, at its line.
    let path = tmp.path().join("sources/dance-of-war/scenarios/campaign.yaml");
    let text = fs::read_to_string(&path).unwrap().replace(
        "1 TS/1 SA - 1 DUKE/1 SA; 1 RNC/1 SA",
        "1 TS/1 SA - 1 DUKE/1 SA - 1 RNC/1 SA",
    );
    fs::write(&path, text).unwrap();
    let after = errata_of(tmp.path(), "dance-of-war");
    let new: Vec<_> = after.iter().filter(|e| !seed.contains(e)).collect();
    assert_eq!(new.len(), 1, "{new:#?}");
    assert_eq!(new[0]["subject"], "1 TS/1 SA - 1 DUKE/1 SA - 1 RNC/1 SA");
    assert_eq!(new[0]["line"], line_of(&path, "1 TS/1 SA - 1 DUKE/1 SA - 1 RNC/1 SA"));
    // Without the rule the dash only separates.
    let game = tmp.path().join("sources/dance-of-war/game.yaml");
    let text =
        fs::read_to_string(&game).unwrap().replace("  joined_stacks: \"15.0\"\n", "");
    fs::write(&game, text).unwrap();
    assert!(stacks(&errata_of(tmp.path(), "dance-of-war")).is_empty());
}

#[test]
fn units_nobody_owns_are_found_once_per_printed_group() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources"), &tmp.path().join("sources"));
    let owned = |game: &str| -> Vec<String> {
        errata_of(tmp.path(), game)
            .iter()
            .filter(|e| e["kind"] == "no-formation")
            .map(|e| e["subject"].as_str().unwrap().to_string())
            .collect()
    };
    // 10.4 names Heckler under no formation; Dance of War's 15.2 and 15.3 print units whose
    // formation the text does not give and which carry no independent bar.
    assert_eq!(owned("gazala-1942"), ["Heckler"]);
    let dow = owned("dance-of-war");
    assert!(dow.iter().any(|s| s.starts_with("COM/12 BERS, 1/NOVARA")), "{dow:?}");
    assert!(!dow.iter().any(|s| s.contains("Kiehl KG")), "independent: {dow:?}");
    // The printed key's sample counters (`German Tank`) name no unit; 3.1's 1/33 AT and 5.0's
    // SV288/90 are named with no formation, but the rulebook prints no order of battle and
    // no setup, so nothing owns any unit and none is reported.
    assert_eq!(owned("gazala-line-1942"), Vec::<String>::new());
    // A counter injected into a formation's list is owned; one injected beside Heckler is not.
    let counters = tmp.path().join("sources/gazala-1942/counters.yaml");
    let text = fs::read_to_string(&counters).unwrap().replacen(
        "      - {printed: \"Heckler\"",
        "      - \"Lost Bn\"\n      - {printed: \"Heckler\"",
        1,
    );
    fs::write(&counters, text).unwrap();
    let found: Vec<_> = errata_of(tmp.path(), "gazala-1942")
        .into_iter()
        .filter(|e| e["kind"] == "no-formation")
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["subject"], "Lost Bn, Heckler");
    assert_eq!(found[0]["line"], line_of(&counters, "\"Lost Bn\""));
    assert_eq!(found[0]["also"].as_array().unwrap().len(), 1);
}

#[test]
fn scenarios_with_the_same_start_are_compared() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    let seed = errata_of(tmp.path(), "gazala-scs");
    // The Turn 10 scenarios agree where they print the same formation (`MF` is 15.1.3's
    // Minefield).
    assert!(!seed.iter().any(|e| e["kind"] == "scenarios-differ"), "{seed:#?}");
    // One Pavia battalion moved to another hex in the Cauldron, the rest of the division as
    // in the Main Event: one finding, at both places.
    let path =
        tmp.path().join("sources/gazala-scs/scenarios/cauldron-and-knightsbridge.yaml");
    let text = fs::read_to_string(&path).unwrap();
    let from = "      - location: \"w/i 2 of A31.07\"\n        units: \"20 It Corps (20 It Corps HQ), Pavia Inf Div (Pavia HQ; Inf Bns: I/27, II/27,";
    assert!(text.contains(from));
    let to = "      - location: \"w/i 2 of A33.07\"\n        units: \"Pavia Inf Div (Inf Bns: I/27)\"\n      - location: \"w/i 2 of A31.07\"\n        units: \"20 It Corps (20 It Corps HQ), Pavia Inf Div (Pavia HQ; Inf Bns: II/27,";
    fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let after = errata_of(tmp.path(), "gazala-scs");
    let found: Vec<_> =
        after.iter().filter(|e| e["kind"] == "scenarios-differ").collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["subject"], "I/27 Inf Bn");
    let injected = line_of(&path, "Pavia Inf Div (Inf Bns: I/27)");
    let places: Vec<(String, u64)> = std::iter::once(found[0])
        .chain(found[0]["also"].as_array().unwrap())
        .map(|p| (p["file"].as_str().unwrap().to_string(), p["line"].as_u64().unwrap()))
        .collect();
    assert!(
        places.iter().any(
            |(f, l)| f.ends_with("cauldron-and-knightsbridge.yaml") && *l == injected
        ),
        "{places:?}"
    );
    assert!(places.iter().any(|(f, _)| f.ends_with("main-event.yaml")), "{places:?}");
}

#[test]
fn a_unit_one_scenario_sets_up_and_another_with_the_same_start_leaves_out_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    // The Cauldron leaves out one Pavia battalion the Main Event sets up, the rest of the
    // division in both: one finding, at the Main Event's line.
    let path =
        tmp.path().join("sources/gazala-scs/scenarios/cauldron-and-knightsbridge.yaml");
    let text = fs::read_to_string(&path).unwrap();
    let from = "Pavia Inf Div (Pavia HQ; Inf Bns: I/27, II/27,";
    assert!(text.contains(from));
    fs::write(&path, text.replacen(from, "Pavia Inf Div (Pavia HQ; Inf Bns: II/27,", 1))
        .unwrap();
    let found: Vec<_> = errata_of(tmp.path(), "gazala-scs")
        .into_iter()
        .filter(|e| e["kind"] == "scenarios-differ")
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["subject"], "I/27 Inf Bn");
    assert_eq!(found[0]["scenario"], "main-event");
    let main = tmp.path().join("sources/gazala-scs/scenarios/main-event.yaml");
    assert_eq!(found[0]["line"], line_of(&main, "I/27"));
    let message = found[0]["message"].as_str().unwrap();
    assert!(message.contains("does not use it at all"), "{message}");
}

#[test]
fn hex_labels_in_victory_conditions_and_notes_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/gazala-1942"),
        &tmp.path().join("sources/gazala-1942"),
    );
    let bad = |dir: &std::path::Path| -> Vec<serde_json::Value> {
        errata_of(dir, "gazala-1942")
            .into_iter()
            .filter(|e| e["kind"] == "bad-hex" && e["subject"] != "134")
            .collect()
    };
    // 13.36 as printed names hexes of the map.
    assert!(bad(tmp.path()).is_empty());
    let path = tmp.path().join("sources/gazala-1942/scenarios/british-strike-first.yaml");
    let text = fs::read_to_string(&path).unwrap();
    let from = "controls hexes 2303, 1802 and 1404.";
    assert!(text.contains(from));
    fs::write(&path, text.replace(from, "controls hexes 2303, 1802 and 1499.")).unwrap();
    let found = bad(tmp.path());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["subject"], "1499");
    assert_eq!(found[0]["section"], "13.36");
    assert_eq!(found[0]["line"], line_of(&path, "1499"));
    let line = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .nth(line_of(&path, "1499") as usize - 1)
        .unwrap()
        .to_string();
    assert_eq!(found[0]["column"], line.find("1499").unwrap() as u64 + 1, "{line}");
}

#[test]
fn entry_areas_no_map_names_are_checked_per_line_or_reported_once_when_no_map_names_any()
{
    fn unknown_areas(dir: &std::path::Path, game: &str) -> Vec<serde_json::Value> {
        let out = muster(dir, &["validate", "--game", game, "--format", "json"]);
        let all: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
        all.into_iter().filter(|f| f["kind"] == "unknown-area").collect()
    }
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources/gazala-scs"), &tmp.path().join("sources/gazala-scs"));
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    // SCS's maps are not transcribed, so no map names an entry area: each scenario with
    // reinforcements says so once, with every line that prints an area.
    let scs = unknown_areas(tmp.path(), "gazala-scs");
    let campaign = tmp.path().join("sources/gazala-scs/scenarios/full-campaign.yaml");
    let lines: Vec<String> = fs::read_to_string(&campaign)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("area:"))
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    let of = |s: &str| scs.iter().filter(|f| f["scenario"] == s).count();
    assert_eq!(of("full-campaign"), 1, "{scs:#?}");
    assert_eq!(of("main-event"), 1, "{scs:#?}");
    let f = scs.iter().find(|f| f["scenario"] == "full-campaign").unwrap();
    let message = f["message"].as_str().unwrap();
    assert!(message.contains(&format!("lines {}", lines.join(", "))), "{message}");
    assert!(message.contains("no map names any entry area"), "{message}");
    assert_eq!(f["line"].as_u64().unwrap().to_string(), lines[0]);

    // Oasis names areas A and B: a reinforcement entering at C is a finding at its line,
    // one entering at B is none.
    let meeting = tmp.path().join("sources/example-oasis/scenarios/meeting.yaml");
    let text = fs::read_to_string(&meeting).unwrap().replace("7 Bde HQ, ", "")
        + "reinforcements:\n  - {side: south, section: \"E.23\", turn: \"2\", area: \"C\", units: \"7 Bde HQ\"}\n";
    fs::write(&meeting, &text).unwrap();
    let oasis = unknown_areas(tmp.path(), "example-oasis");
    assert_eq!(oasis.len(), 1, "{oasis:#?}");
    assert_eq!(oasis[0]["line"], line_of(&meeting, "area: \"C\""));
    assert!(
        oasis[0]["message"]
            .as_str()
            .unwrap()
            .contains("the maps name the entry areas A, B"),
        "{oasis:#?}"
    );
    fs::write(&meeting, text.replace("area: \"C\"", "area: \"B\"")).unwrap();
    assert!(unknown_areas(tmp.path(), "example-oasis").is_empty());
}

#[test]
fn counters_the_rules_bring_in_are_not_unused_and_are_named_with_their_rule() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/dance-of-war"),
        &tmp.path().join("sources/dance-of-war"),
    );
    let unused: Vec<_> = errata_of(tmp.path(), "dance-of-war")
        .into_iter()
        .filter(|e| e["kind"] == "unused")
        .collect();
    assert_eq!(unused.len(), 1, "{unused:#?}");
    let message = unused[0]["message"].as_str().unwrap();
    let (listed, by_rule) = message.split_once("; the rules bring in ").expect(message);
    // 10.5.1 names 2/361; 3.3.3 places the Nehring and Bayerlein HQs when their chits are
    // drawn.
    for (counter, rule) in
        [("2/361", "10.5.1"), ("NEHRING", "3.3.3"), ("BAYERLEIN", "3.3.3")]
    {
        assert!(by_rule.contains(&format!("`{counter}` ({rule})")), "{message}");
        assert!(!listed.contains(&format!("`{counter}`")), "{message}");
    }
    assert!(listed.contains("`Kiehl KG`"), "{message}");
}

/// The findings of `kind` among `all`.
fn of_kind<'a>(all: &'a [serde_json::Value], kind: &str) -> Vec<&'a serde_json::Value> {
    all.iter().filter(|e| e["kind"] == kind).collect()
}

#[test]
fn chits_whose_hq_no_scenario_places_are_found_once_at_their_deck_entry() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources"), &tmp.path().join("sources"));
    // Every chit of the seed games whose HQ the manifest holds is placed, or brought in by
    // a rule the data records (3.3.3's Kampfgruppe HQs).
    for game in ["gazala-scs", "gazala-1942", "gazala-line-1942", "dance-of-war"] {
        let all = errata_of(tmp.path(), game);
        assert!(of_kind(&all, "chit-without-unit").is_empty(), "{game}: {all:#?}");
    }
    // Dance of War's manifest stops short: the chits that name a formation with no HQ
    // counter are named there as what cannot be checked, and nowhere else.
    let dow = errata_of(tmp.path(), "dance-of-war");
    let manifest = dow
        .iter()
        .find(|e| e["kind"] == "incomplete" && e["subject"] == "manifest")
        .unwrap();
    let message = manifest["message"].as_str().unwrap();
    assert!(
        message.contains(
            "the chits `2 NZ chit`, `7 Arm chit`, `Panzerarmee Afrika`, `X chit` name formations with no HQ counter here"
        ),
        "{message}"
    );
    assert!(!message.contains("Littorio"), "{message}");

    // 15.3 brings the LITTORIO HQ in with its chit; without it, the chit is found once, at
    // its entry in the deck, and the HQ is not reported again as unused.
    let dir = tmp.path().join("sources/dance-of-war");
    let scenario = dir.join("scenarios/campaign.yaml");
    let text = fs::read_to_string(&scenario).unwrap();
    let from = "Littorio command chit - LITTORIO HQ (enters at I); ";
    assert!(text.contains(from));
    fs::write(&scenario, text.replacen(from, "Littorio command chit; ", 1)).unwrap();
    let after = errata_of(tmp.path(), "dance-of-war");
    let found = of_kind(&after, "chit-without-unit");
    assert_eq!(found.len(), 1, "{found:#?}");
    let game = dir.join("game.yaml");
    assert_eq!(found[0]["subject"], "Littorio chit");
    assert!(found[0]["file"].as_str().unwrap().ends_with("dance-of-war/game.yaml"));
    assert_eq!(found[0]["line"], line_of(&game, "- marker-littorio-chit"));
    assert_eq!(found[0]["column"], 11);
    assert_eq!(found[0]["section"], "1.4");
    assert_eq!(found[0]["scenario"], "campaign");
    assert_eq!(found[0]["suggestion"], "LITTORIO HQ (15.3)");
    // The scenario stops short, so the HQ may be in what is not printed.
    assert_eq!(found[0]["certainty"], "possible");
    assert!(found[0]["evidence"].as_str().unwrap().contains("stopping short"));
    let unused = of_kind(&after, "unused");
    assert!(
        !unused.iter().any(|e| e["message"].as_str().unwrap().contains("`LITTORIO HQ`")),
        "{unused:#?}"
    );
    fs::write(&scenario, text).unwrap();

    // Without the rule of 3.3.3, the Nehring and Bayerlein chits name HQs nothing places.
    let text = fs::read_to_string(&game).unwrap();
    let rule = text.lines().find(|l| l.contains("section: \"3.3.3\"")).unwrap();
    fs::write(&game, text.replacen(&format!("{rule}\n"), "", 1)).unwrap();
    let found: Vec<(String, u64)> =
        of_kind(&errata_of(tmp.path(), "dance-of-war"), "chit-without-unit")
            .iter()
            .map(|e| {
                (e["subject"].as_str().unwrap().to_string(), e["line"].as_u64().unwrap())
            })
            .collect();
    assert_eq!(
        found,
        [
            ("Nehring chit".to_string(), line_of(&game, "- marker-nehring-chit")),
            ("Bayerlein chit".to_string(), line_of(&game, "- marker-bayerlein-chit")),
        ]
    );

    fs::write(&game, text).unwrap();

    // Were the manifest printed in full, a chit that names a formation with no HQ counter
    // would be a possible finding of its own, at its entry.
    let counters = dir.join("counters.yaml");
    let text = fs::read_to_string(&counters).unwrap();
    let gap = text.lines().find(|l| l.starts_with("incomplete:")).unwrap();
    fs::write(&counters, text.replacen(&format!("{gap}\n"), "", 1)).unwrap();
    let all = errata_of(tmp.path(), "dance-of-war");
    let found: Vec<(&str, u64, &str)> = of_kind(&all, "chit-without-unit")
        .iter()
        .map(|e| {
            (
                e["subject"].as_str().unwrap(),
                e["line"].as_u64().unwrap(),
                e["certainty"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("2 NZ chit", line_of(&game, "- marker-2-nz-chit"), "possible"),
            ("7 Arm chit", line_of(&game, "- marker-7-arm-chit"), "possible"),
            (
                "Panzerarmee Afrika",
                line_of(&game, "- marker-panzerarmee-afrika"),
                "possible"
            ),
            ("X chit", line_of(&game, "- marker-x-chit"), "possible"),
        ]
    );

    // Gazala 1942 gives every HQ an impulse chit (2.2): an HQ counter no scenario places is
    // found once, at the counter, as likely (every setup is printed in full), and not again
    // as unused.
    let counters = tmp.path().join("sources/gazala-1942/counters.yaml");
    let text = fs::read_to_string(&counters).unwrap();
    assert!(text.contains("      - \"XX (H)\"\n"));
    fs::write(
        &counters,
        text.replacen(
            "      - \"XX (H)\"\n",
            "      - \"XX (H)\"\n      - \"Lost (H)\"\n",
            1,
        ),
    )
    .unwrap();
    let all = errata_of(tmp.path(), "gazala-1942");
    let found = of_kind(&all, "chit-without-unit");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["subject"], "Lost (H)");
    assert_eq!(found[0]["line"], line_of(&counters, "\"Lost (H)\""));
    assert_eq!(found[0]["certainty"], "likely");
    assert!(found[0]["message"].as_str().unwrap().contains("`Impulse chits` (2.2)"));
    assert!(!all.iter().any(|e| e["kind"] == "unused" && e["subject"] == "Lost (H)"));
}

#[test]
fn counters_under_an_unexpected_side_or_nationality_are_found_once_at_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&root().join("sources"), &tmp.path().join("sources"));
    // The seed games' mixed formations are recorded: SCS's `(Brit)` marks, Gazala 1942's
    // Indian brigades with the 7th Armoured Division (a note), the independents.
    for game in
        ["gazala-scs", "gazala-1942", "gazala-line-1942", "dance-of-war", "example-oasis"]
    {
        let all = errata_of(tmp.path(), game);
        assert!(of_kind(&all, "unexpected-nationality").is_empty(), "{game}: {all:#?}");
        assert!(of_kind(&all, "unexpected-side").is_empty(), "{game}: {all:#?}");
    }
    // A German battalion among the Brescia Division's Italian ones.
    let (new, path, _tmp) = injected(
        "counters.yaml",
        "      - \"II/19 Inf Bn\"",
        "      - {printed: \"II/19 Inf Bn\", nationality: germany}",
    );
    let found = of_kind(&new, "unexpected-nationality");
    assert_eq!(found.len(), 1, "{new:#?}");
    assert_eq!(found[0]["subject"], "II/19 Inf Bn");
    assert_eq!(found[0]["line"], line_of(&path, "II/19 Inf Bn"));
    assert_eq!(found[0]["column"], 19);
    assert_eq!(found[0]["certainty"], "likely");
    assert_eq!(found[0]["suggestion"], "II/19 Inf Bn (16.2.3.1; of Italy)");
    assert!(new.iter().all(|e| e["kind"] == "unexpected-nationality"), "{new:#?}");
    // The same with a note that records the attachment is no finding.
    let (new, _, _tmp) = injected(
        "counters.yaml",
        "      - \"II/19 Inf Bn\"",
        "      - {printed: \"II/19 Inf Bn\", nationality: germany, note: \"attached\"}",
    );
    assert!(of_kind(&new, "unexpected-nationality").is_empty(), "{new:#?}");
    // An Italian nationality on a Commonwealth battalion: its side, once, not also its
    // nationality.
    let (new, path, _tmp) = injected(
        "counters.yaml",
        "      - \"8 DLI Inf Bn\"",
        "      - {printed: \"8 DLI Inf Bn\", nationality: italy}",
    );
    assert_eq!(new.len(), 1, "{new:#?}");
    assert_eq!(new[0]["kind"], "unexpected-side");
    assert_eq!(new[0]["line"], line_of(&path, "8 DLI Inf Bn"));
    assert_eq!(new[0]["certainty"], "likely");
    assert!(
        new[0]["message"]
            .as_str()
            .unwrap()
            .contains("listed under the Commonwealth side, but its nationality, Italy, is of the Axis side"),
        "{new:#?}"
    );
    // A group given the other side than its formation's: one finding for the group.
    let (new, path, _tmp) = injected(
        "counters.yaml",
        "  - formation: 151-bde\n",
        "  - formation: 151-bde\n    side: axis\n",
    );
    let found = of_kind(&new, "unexpected-side");
    assert_eq!(found.len(), 1, "{new:#?}");
    assert_eq!(found[0]["line"], line_of(&path, "6 DLI Inf Bn"));
    assert_eq!(found[0]["also"].as_array().unwrap().len(), 3, "{found:#?}");
}

#[test]
fn stated_counts_muster_cannot_count_are_said_to_go_unchecked() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/dance-of-war"),
        &tmp.path().join("sources/dance-of-war"),
    );
    // 14.1's victory point locations each side holds at the start: no list records who
    // holds a location, so the two numbers are information that they go unchecked.
    let campaign = tmp.path().join("sources/dance-of-war/scenarios/campaign.yaml");
    let dow = errata_of(tmp.path(), "dance-of-war");
    let unchecked: Vec<(u64, &str)> = of_kind(&dow, "count-incomplete")
        .iter()
        .filter(|e| e["message"].as_str().unwrap().contains("so it is not checked"))
        .map(|e| (e["line"].as_u64().unwrap(), e["expected"].as_str().unwrap()))
        .collect();
    assert_eq!(
        unchecked,
        [
            (line_of(&campaign, "what: axis-victory-locations"), "5"),
            (line_of(&campaign, "what: allied-victory-locations"), "14"),
        ]
    );
    // A count whose form is misspelt is said to go unchecked too, once, at its line,
    // rather than left out of the report.
    let (new, path, _tmp) = injected(
        "scenarios/full-campaign.yaml",
        "{what: victory-hexes, count: 15,",
        "{what: victory-hex, count: 15,",
    );
    let found = of_kind(&new, "count-incomplete");
    assert_eq!(found.len(), 1, "{new:#?}");
    assert_eq!(found[0]["line"], line_of(&path, "what: victory-hex,"));
    assert_eq!(found[0]["severity"], "info");
    assert!(
        found[0]["message"].as_str().unwrap().contains("muster counts `victory-hexes`")
    );
}
