//! The corpus: real published games other than the seeds, transcribed as printed under
//! `tests/games/<id>/` (each with `SOURCE.md`, its hand-written `test/placements.yaml` and
//! the cells it writes otherwise than printed in `test/bends.yaml`). Every game builds with
//! `--strict`, its setups place every counter where the hand-written placements say, the
//! real VASSAL loads every setup with each piece where `module.json` says, and the book's
//! table of bends counts what each `bends.yaml` lists.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

use crate::util::{copy_tree, files_under, muster, root};
use crate::vassal::{compare, run, tools};

/// The corpus games, by folder name.
pub fn games() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join("tests/games"))
        .expect("tests/games")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("game.yaml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// One strict build of every corpus game, shared by the tests that read it.
pub fn built() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus");
        let _ = std::fs::remove_dir_all(&dir);
        copy_tree(&root().join("tests/games"), &dir.join("sources"));
        let out = muster(
            &dir,
            &[
                "build",
                "--quiet",
                "--strict",
                "--map-dpi",
                "30",
                "--dpi",
                "30",
                "--sheet-dpi",
                "15",
            ],
        );
        assert!(
            out.status.success(),
            "every corpus game builds with --strict:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

/// One counter of a hand-written setup.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    counter: String,
    location: String,
    /// Starts on its back.
    #[serde(default)]
    back: bool,
    /// Any hex within this many of `location` is right (`w/i 2 A35.35`).
    #[serde(default)]
    within: Option<u32>,
    /// Any of these hexes is right (`4108-09`).
    #[serde(default)]
    one_of: Vec<String>,
    /// The strength the scenario starts it with, where it is not its counter's own.
    #[serde(default)]
    strength: Option<String>,
    /// Why muster does not place this counter although the setup prints its hex: a gap
    /// of muster's, stated where the expectation is, and held to (muster must not place it).
    #[serde(default)]
    muster: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Placements {
    scenarios: BTreeMap<String, Vec<Expected>>,
}

/// One cell written otherwise than printed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bend {
    /// The file it is in.
    pub file: String,
    /// The rule section that prints it.
    pub section: String,
    /// As printed.
    pub printed: String,
    /// As written.
    pub written: String,
    /// What muster cannot read.
    pub why: String,
}

/// The bends of a corpus game.
pub fn bends(game: &str) -> Vec<Bend> {
    let text = std::fs::read_to_string(
        root().join(format!("tests/games/{game}/test/bends.yaml")),
    )
    .unwrap_or_else(|e| panic!("{game}: test/bends.yaml: {e}"));
    serde_saphyr::from_str::<Option<Vec<Bend>>>(&text)
        .unwrap_or_else(|e| panic!("{game}: test/bends.yaml: {e}"))
        .unwrap_or_default()
}

fn expected(game: &str) -> Placements {
    let path = root().join(format!("tests/games/{game}/test/placements.yaml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{game}: {e}"));
    serde_saphyr::from_str(&text)
        .unwrap_or_else(|e| panic!("{game}: placements.yaml: {e}"))
}

/// One counter muster placed on a hex: unit, hex, on its back, the strength its label
/// shows.
type Piece = (String, String, bool, Option<String>);

/// Does a piece answer to an expectation: its side, its strength, and its hex by the
/// board's distance?
fn answers(board: &muster_hex::Board, e: &Expected, piece: &Piece) -> bool {
    let (_, at, back, strength) = piece;
    if *back != e.back || *strength != e.strength {
        return false;
    }
    if !e.one_of.is_empty() {
        return e.one_of.iter().any(|h| h == at);
    }
    match e.within {
        None | Some(0) => e.location == *at,
        Some(n) => match (board.parse(&e.location), board.parse(at)) {
            (Ok(a), Ok(b)) => board.distance(a, b) <= n,
            _ => false,
        },
    }
}

/// What differs between a scenario's hand-written placements and the pieces muster placed
/// on hexes, counter by counter.
fn differences(
    board: &muster_hex::Board,
    expected: &[Expected],
    pieces: &[Piece],
) -> Vec<String> {
    let mut left: Vec<&Piece> = pieces.iter().collect();
    let mut out = Vec::new();
    // The tightest expectations first, so that a zone does not take an exact hex's piece.
    let mut order: Vec<&Expected> = expected.iter().collect();
    order.sort_by_key(|e| (e.muster.is_some(), e.within.unwrap_or(0), e.one_of.len()));
    for e in order {
        let found = left.iter().position(|p| p.0 == e.counter && answers(board, e, p));
        match (found, &e.muster) {
            (Some(k), None) => {
                left.remove(k);
            }
            (None, None) => out.push(format!("{} expected at {}, not there", e.counter, e.location)),
            (Some(_), Some(why)) => out.push(format!(
                "{} is placed, though the placements say muster does not place it ({why}): remove the `muster` note",
                e.counter
            )),
            (None, Some(_)) => {}
        }
    }
    out.extend(left.iter().map(|(unit, at, _, strength)| {
        let strength = strength.as_ref().map(|s| format!(" (strength {s})"));
        format!("{unit} placed at {at}{}, not expected", strength.unwrap_or_default())
    }));
    out
}

#[test]
fn every_corpus_game_builds_strict_and_places_its_setups_as_printed() {
    let games = games();
    assert!(games.len() >= 4, "at least four corpus games: {games:?}");
    let dir = built();
    let loaded = muster_model::load(
        &dir.join("sources"),
        &[],
        &muster_model::LoadOptions::default(),
    );
    let mut wrong = Vec::new();
    for game in &games {
        assert!(
            root().join(format!("tests/games/{game}/SOURCE.md")).is_file(),
            "{game}: SOURCE.md names the public source"
        );
        let g = loaded.games.iter().find(|g| g.id == *game).expect("the game loads");
        let board = g.board.as_ref().expect("a corpus game has a map");
        let module: Value = serde_json::from_slice(
            &std::fs::read(dir.join(format!("dist/{game}/module.json"))).unwrap(),
        )
        .unwrap();
        let expected = expected(game);
        assert!(!expected.scenarios.is_empty(), "{game}: placements for a scenario");
        for (scenario, list) in &expected.scenarios {
            let setup = module
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["scenario"] == scenario.as_str())
                .unwrap_or_else(|| panic!("{game}: no setup of {scenario}"));
            let pieces: Vec<Piece> = setup["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| {
                    board.parse(p["location"].as_str().unwrap_or_default()).is_ok()
                })
                .map(|p| {
                    (
                        p["unit"].as_str().unwrap().to_string(),
                        p["location"].as_str().unwrap().to_string(),
                        p["reduced"] == true,
                        p["strength"].as_str().map(str::to_string),
                    )
                })
                .collect();
            for d in differences(board, list, &pieces) {
                wrong.push(format!("{game} {scenario}: {d}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn vassal_loads_every_corpus_setup_with_every_piece_on_its_location() {
    let Some(tools) = tools() else { return };
    let dir = built();
    let mut failures = Vec::new();
    for game in games() {
        let module_json = dir.join(format!("dist/{game}/module.json"));
        let doc: Value =
            serde_json::from_slice(&std::fs::read(&module_json).unwrap()).unwrap();
        for s in doc.as_array().unwrap() {
            let file = s["file"].as_str().unwrap();
            let run = run(
                &tools,
                &dir.join(format!("dist/{game}.vmod")),
                &["--setup", file],
                &format!("corpus-{game}-{file}"),
            );
            if run.code != 0 || run.report["verdict"] != "OK" {
                failures.push(format!("{game} {file}: {:?}", run.problems()));
                continue;
            }
            let summary = compare(&tools, &run, &module_json, file);
            let muster = summary["muster"].as_u64().unwrap_or_default();
            if summary["exit"] != 0
                || summary["location_equal"] != muster
                || summary["vassal_only"] != 0
                || summary["muster_only"] != 0
            {
                failures.push(format!("{game} {file}: {}", summary["text"]));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_book_counts_each_games_bends_as_its_bends_file_lists_them() {
    let page = std::fs::read_to_string(root().join("docs/book/src/reference/corpus.md"))
        .expect("the corpus page");
    for game in games() {
        let bends = bends(&game);
        for b in &bends {
            assert!(
                [&b.section, &b.printed, &b.written, &b.why]
                    .iter()
                    .all(|t| !t.trim().is_empty()),
                "{game}: a bend gives its section, what is printed, what is written and why: {b:?}"
            );
            assert_ne!(
                b.printed, b.written,
                "{game}: a bend writes otherwise than printed"
            );
            assert!(
                root().join(format!("tests/games/{game}/{}", b.file)).is_file(),
                "{game}: {} is a file of the game",
                b.file
            );
        }
        let row = page
            .lines()
            .find(|l| l.starts_with(&format!("| `{game}` ")))
            .unwrap_or_else(|| panic!("the corpus page has a row for `{game}`"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(
            cells.get(5).copied(),
            Some(bends.len().to_string().as_str()),
            "{game}: the bends column of `{row}` counts test/bends.yaml"
        );
    }
}

#[test]
fn a_back_that_is_a_state_is_turned_to_by_its_name_in_vassal() {
    let module = built().join("dist/borodino-1812.vmod");
    let mut archive =
        muster_package::archive::Archive::open(std::fs::read(&module).unwrap()).unwrap();
    let help = String::from_utf8(archive.read("help/module.html").unwrap()).unwrap();
    assert!(
        help.contains("<td>Disordered</td><td>Ctrl+L</td>"),
        "the help names it: {help}"
    );
    assert!(!help.contains("<td>Step loss</td>"), "Borodino's backs are no step loss");
    let Some(tools) = tools() else { return };
    let run = crate::vassal::play(
        &tools,
        &module,
        &["--setup", "borodino.vsav", "--key", "old-guard=Disordered"],
        "corpus-borodino-disordered",
    );
    run.assert_clean("borodino-1812");
    let action = &run.action(0);
    let chat: Vec<&str> =
        action["chat"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(
        chat.iter().any(|l| l.ends_with("Old Guard is now Disordered")),
        "the command and its report name the state (Borodino 2.2): {chat:?}"
    );
    assert!(!chat.iter().any(|l| l.contains("step loss")), "{chat:?}");
}

/// A piece of `muster pieces`' JSON as the checker reads it.
fn piece_at(p: &Value, hexes: &[String]) -> Option<muster_rules::embedded::PieceAt> {
    let location = p["location"].as_str().or(p["map"].as_str()).unwrap_or_default();
    let standing = match (p["in"].as_str(), p["map"].as_str()) {
        (Some("deck"), _) => muster_rules::Standing::Deck,
        (_, None) => muster_rules::Standing::Nowhere,
        _ if hexes.iter().any(|h| h == location) => muster_rules::Standing::Hex,
        _ => muster_rules::Standing::Box,
    };
    Some(muster_rules::embedded::PieceAt {
        unit: p["unit_id"].as_str()?.to_string(),
        location: location.to_string(),
        standing,
        category: p["category"].as_str().map(str::to_string),
        piece: p["id"].as_str().map(str::to_string),
        strength: p["strength"].as_str().map(str::to_string),
    })
}

/// Gaines Mill 6.4 starts the brigades 6.8 lists at their June 27 strengths: after VASSAL
/// 3.7.26 loads the module's setup and saves the game, each piece's `Strength` label
/// still shows its scenario's strength, `muster check` finds the saved setup whole, and the
/// module's ruleset finds a counter showing another strength a `wrong-strength`.
#[test]
fn starting_strengths_reach_the_module_vassal_and_the_checker() {
    let dir = built();
    let module = dir.join("dist/gaines-mill-1862.vmod");
    let mut archive =
        muster_package::archive::Archive::open(std::fs::read(&module).unwrap()).unwrap();
    let doc: muster_rules::embedded::RulesetDoc =
        serde_json::from_slice(&archive.read("rules/ruleset.json").unwrap()).unwrap();
    let start = &doc.scenarios["across-the-chickahominy"]["a-ah"].starts;
    assert_eq!(start[0].strength.as_deref(), Some("17"), "6.8, June 27: A-AH 17");
    assert_eq!(doc.scenarios["the-26th-of-june"]["a-ah"].starts[0].strength, None);
    let help = String::from_utf8(archive.read("help/module.html").unwrap()).unwrap();
    assert!(help.contains("<td>Change strength</td><td>menu</td>"), "the help names it");
    let borodino = built().join("dist/borodino-1812.vmod");
    let mut other =
        muster_package::archive::Archive::open(std::fs::read(&borodino).unwrap())
            .unwrap();
    let help = String::from_utf8(other.read("help/module.html").unwrap()).unwrap();
    assert!(!help.contains("Change strength"), "a game with no starting strengths");
    let Some(tools) = tools() else { return };
    let saved = dir.join("gaines-mill-6.4.vsav");
    let saved_arg = saved.to_str().unwrap();
    let label = "corpus-gaines-mill-strengths";
    let args =
        ["--setup", "across-the-chickahominy.vsav", "--no-render", "--save", saved_arg];
    run(&tools, &module, &args, label).assert_clean(label);
    let module_arg = module.to_str().unwrap();
    let out =
        muster(dir, &["pieces", saved_arg, "--module", module_arg, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pieces = listed[0]["pieces"].as_array().unwrap();
    let strength = |unit: &str| {
        pieces.iter().find(|p| p["unit_id"] == unit).map(|p| p["strength"].clone())
    };
    assert_eq!(strength("a-ah"), Some(Value::from("17")), "as VASSAL saved it");
    assert_eq!(strength("3-par-5"), Some(Value::from("27")));
    assert_eq!(strength("g-ah"), Some(Value::Null), "6.8 lists none: full strength");
    let check = [
        "check",
        saved_arg,
        "--module",
        module_arg,
        "--scenario",
        "across-the-chickahominy",
        "--format",
        "json",
    ];
    let out = muster(dir, &check);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["violations"], Value::Array(vec![]), "{report}");
    assert_eq!(out.status.code(), Some(0), "{report}");
    let mut position: Vec<_> =
        pieces.iter().filter_map(|p| piece_at(p, &doc.hexes)).collect();
    for p in position.iter_mut().filter(|p| p.unit == "a-ah") {
        p.strength = Some("16".into());
    }
    let request = muster_rules::embedded::Request {
        scenario: Some("across-the-chickahominy".into()),
        pieces: position,
        turn: None,
        complete: true,
    };
    let report = muster_rules::embedded::check(&doc, &request);
    let kinds: Vec<(&str, &str)> =
        report.violations.iter().map(|v| (v.kind.as_str(), v.message.as_str())).collect();
    assert_eq!(
        kinds,
        [("wrong-strength", "A-AH shows strength 16, but the scenario starts it at 17")]
    );
}

/// Acknowledging a finding in `errata.yaml` marks it known and nothing else: every corpus
/// game built without its `errata.yaml` places, draws and packages exactly what the strict
/// build with it does; only the reports that mark findings known differ.
#[test]
fn an_acknowledgement_never_changes_what_is_placed_or_drawn() {
    let with = built();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus-unacknowledged");
    let _ = std::fs::remove_dir_all(&dir);
    copy_tree(&root().join("tests/games"), &dir.join("sources"));
    let mut acknowledged = 0;
    for game in games() {
        let errata = dir.join("sources").join(&game).join("errata.yaml");
        if errata.is_file() {
            std::fs::remove_file(errata).unwrap();
            acknowledged += 1;
        }
    }
    assert!(acknowledged >= 3, "only {acknowledged} corpus games acknowledge findings");
    let out = muster(
        &dir,
        &["build", "--quiet", "--map-dpi", "30", "--dpi", "30", "--sheet-dpi", "15"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let reports = ["errata.json", "errata.md", "validation.json"];
    let outputs = |root: &Path| -> BTreeMap<PathBuf, Vec<u8>> {
        files_under(&root.join("dist"))
            .into_iter()
            .filter(|p| !p.components().any(|c| c.as_os_str() == ".muster-cache"))
            .filter(|p| !p.file_name().is_some_and(|n| reports.iter().any(|r| n == *r)))
            .map(|p| {
                (p.strip_prefix(root).unwrap().to_path_buf(), std::fs::read(&p).unwrap())
            })
            .collect()
    };
    let (a, b) = (outputs(with), outputs(&dir));
    let modules = a.keys().filter(|p| p.extension().is_some_and(|e| e == "vmod")).count();
    assert_eq!(modules, games().len(), "{:?}", a.keys().collect::<Vec<_>>());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    let differ: Vec<&PathBuf> =
        a.iter().filter(|(p, bytes)| b[*p] != **bytes).map(|(p, _)| p).collect();
    assert!(differ.is_empty(), "acknowledging findings changed {differ:?}");
    // And the reports do tell them apart: the acknowledged findings are marked known.
    let errata = |root: &Path| {
        std::fs::read_to_string(root.join("dist/borodino-1812/errata.md")).unwrap()
    };
    assert_ne!(errata(with), errata(&dir));
}
