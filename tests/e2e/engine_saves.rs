//! Saves written by the real VASSAL 3.7.26, as players send them: the harness loads a
//! module's own setup, moves counters the way a player drags them and writes the game as
//! File > Save Game does. `muster pieces` lists every piece where VASSAL has it, and
//! `muster check --scenario` gives exactly the findings the moves planted.
//!
//! Per seed game, two engine runs: the setup saved unchanged, and the setup with every
//! planted move the game allows (an overstack where it has hexes, a counter moved into a
//! holding box where it has boxes, a reinforcement brought on before its turn where it
//! has reinforcements). Gazala 1942's saves also hold the impulse-chit deck VASSAL makes
//! when the game starts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use muster_rules::Standing;
use muster_rules::embedded::{PieceAt, Request, RulesetDoc, Violation, check};
use serde_json::Value;

use crate::modules::built;
use crate::util::muster;
use crate::vassal::{Run, run, tools};

/// The setup of each seed game the engine saves: the scenario with the most to plant.
const SETUPS: [(&str, &str); 5] = [
    ("dance-of-war", "campaign"),
    ("example-oasis", "meeting"),
    ("gazala-1942", "operation-aida"),
    ("gazala-line-1942", "gazala-line"),
    ("gazala-scs", "main-event"),
];

/// A finding as the tests compare it: kind, location and the counters it names.
type Found = (String, String, Vec<String>);

fn found(v: &Violation) -> Found {
    let mut units = v.units.clone();
    units.sort();
    (v.kind.clone(), v.location.clone(), units)
}

fn findings(doc: &RulesetDoc, scenario: &str, position: &[PieceAt]) -> BTreeSet<Found> {
    let request = Request {
        scenario: Some(scenario.to_string()),
        pieces: position.to_vec(),
        turn: None,
        complete: true,
    };
    check(doc, &request).violations.iter().map(found).collect()
}

/// Every move of a counter on a hex to one of `targets` that `keep` allows, by target.
fn moves(
    position: &[PieceAt],
    targets: &[String],
    standing: Standing,
    keep: impl Fn(usize, &str) -> bool,
) -> Vec<(usize, String, Standing)> {
    targets
        .iter()
        .flat_map(|to| {
            (0..position.len())
                .filter(|&i| position[i].standing == Standing::Hex && keep(i, to))
                .map(move |i| (i, to.clone(), standing))
        })
        .collect()
}

/// One planted move: the counter, where it goes, and the finding it must add.
struct Plant {
    unit: String,
    to: String,
    kind: &'static str,
}

/// What one game's engine runs need: the module, its ruleset and the setup as muster
/// states it (`module.json`).
struct Game {
    name: &'static str,
    scenario: &'static str,
    module: PathBuf,
    doc: RulesetDoc,
    position: Vec<PieceAt>,
    boxes: Vec<String>,
}

impl Game {
    fn new(name: &'static str, scenario: &'static str) -> Game {
        let dist = built().join(format!("dist/{name}"));
        let doc: RulesetDoc = serde_json::from_slice(
            &std::fs::read(dist.join("web/ruleset.json")).expect("ruleset.json"),
        )
        .expect("ruleset.json parses");
        let setups: Value = serde_json::from_slice(
            &std::fs::read(dist.join("module.json")).expect("module.json"),
        )
        .expect("module.json parses");
        let setups = setups.as_array().expect("a list of setups");
        let setup = setups.iter().find(|s| s["scenario"] == scenario).expect("the setup");
        let position = setup["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .map(|p| {
                let location = p["location"].as_str().expect("location");
                let mut at = PieceAt::on_hex(p["unit"].as_str().expect("unit"), location);
                if !doc.hexes.iter().any(|h| h == location) {
                    at.standing = Standing::Box;
                }
                at
            })
            .collect();
        // Every box a setup of the game fills: names VASSAL resolves on the Holding Boxes
        // map. A dead-units box first.
        let mut boxes: Vec<String> = setups
            .iter()
            .flat_map(|s| s["pieces"].as_array().into_iter().flatten())
            .filter(|p| p["map"] == "Holding Boxes")
            .map(|p| p["location"].as_str().expect("location").to_string())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        boxes.sort_by_key(|b| !b.contains("Dead"));
        Game {
            name,
            scenario,
            module: built().join(format!("dist/{name}.vmod")),
            doc,
            position,
            boxes,
        }
    }

    fn file(&self) -> String {
        format!("{}.vsav", self.scenario)
    }

    fn findings(&self, position: &[PieceAt]) -> BTreeSet<Found> {
        findings(&self.doc, self.scenario, position)
    }

    /// The first move among `candidates` that adds exactly one finding, of `kind`, to
    /// `position`; applies it.
    fn plant(
        &self,
        position: &mut Vec<PieceAt>,
        kind: &'static str,
        candidates: impl IntoIterator<Item = (usize, String, Standing)>,
    ) -> Option<Plant> {
        let before = self.findings(position);
        for (i, to, standing) in candidates {
            let mut moved = position.clone();
            moved[i].location = to.clone();
            moved[i].standing = standing;
            let after = self.findings(&moved);
            let added: Vec<&Found> = after.difference(&before).collect();
            // Moving a counter onto a full hex may take it outside its setup line too.
            let planted = added.iter().filter(|f| f.0 == kind).count() == 1
                && added.iter().all(|f| f.0 == kind || f.0 == "outside-setup");
            if before.is_subset(&after) && planted {
                let unit = moved[i].unit.clone();
                *position = moved;
                return Some(Plant { unit, to, kind });
            }
        }
        None
    }

    /// Every move the game allows, each adding one finding: an overstack, opposing units in
    /// one hex, a counter on a hex no unit may enter, a counter moved into a box it does not
    /// start in, a reinforcement on the map before its turn.
    /// `movable` says which counters the engine can pick by their id (no other piece
    /// carries it).
    fn plants(&self, movable: &dyn Fn(&str) -> bool) -> (Vec<Plant>, Vec<PieceAt>) {
        let mut position = self.position.clone();
        let mut plants = Vec::new();
        let mut used = BTreeSet::new();
        let on_hex = |p: &[PieceAt]| -> Vec<usize> {
            (0..p.len()).filter(|&i| p[i].standing == Standing::Hex).collect()
        };

        // An overstack: a counter onto the fullest hexes of its own side first.
        let side = |unit: &str| {
            self.doc.units.iter().find(|u| u.id == unit).map(|u| u.side.clone())
        };
        let friendly = |i: usize, to: &str| {
            position
                .iter()
                .filter(|p| p.location == to)
                .all(|p| side(&p.unit) == side(&position[i].unit))
        };
        let mut full: Vec<String> =
            on_hex(&position).iter().map(|&i| position[i].location.clone()).collect();
        full.sort();
        full.dedup();
        let count = |h: &str| position.iter().filter(|p| p.location == h).count();
        full.sort_by_key(|h| std::cmp::Reverse(count(h)));
        // Opposing units in one hex are a finding of their own (below), never an overstack.
        let candidates = moves(&position, &full, Standing::Hex, |i, to| {
            position[i].location != to && movable(&position[i].unit) && friendly(i, to)
        });
        if let Some(p) = self.plant(&mut position, "overstack", candidates) {
            used.insert(p.unit.clone());
            used.insert(p.to.clone());
            plants.push(p);
        }

        // Opposing units in one hex: a counter onto a hex only the other side holds.
        let enemy = |i: usize, to: &str| {
            let there: Vec<&PieceAt> =
                position.iter().filter(|p| p.location == to).collect();
            !there.is_empty()
                && there.iter().all(|p| side(&p.unit) != side(&position[i].unit))
        };
        let free = |i: usize| {
            movable(&position[i].unit)
                && !used.contains(&position[i].unit)
                && !used.contains(&position[i].location)
        };
        let candidates = moves(&position, &full, Standing::Hex, |i, to| {
            !used.contains(to) && free(i) && enemy(i, to)
        });
        if let Some(p) = self.plant(&mut position, "opposing-units", candidates) {
            used.insert(p.unit.clone());
            used.insert(p.to.clone());
            plants.push(p);
        }

        // A counter onto a hex no unit may enter (a sea, a depression).
        let forbidden: Vec<String> = self
            .doc
            .prohibited
            .keys()
            .filter(|h| !used.contains(*h) && position.iter().all(|p| p.location != **h))
            .cloned()
            .collect();
        let free = |i: usize| {
            movable(&position[i].unit)
                && !used.contains(&position[i].unit)
                && !used.contains(&position[i].location)
        };
        let candidates = moves(&position, &forbidden, Standing::Hex, |i, _| free(i));
        if let Some(p) = self.plant(&mut position, "prohibited-hex", candidates) {
            used.insert(p.unit.clone());
            used.insert(p.to.clone());
            plants.push(p);
        }

        // A counter from a hex into a box.
        let free = |i: usize| {
            movable(&position[i].unit)
                && !used.contains(&position[i].unit)
                && !used.contains(&position[i].location)
        };
        let candidates = moves(&position, &self.boxes, Standing::Box, |i, _| free(i));
        if let Some(p) = self.plant(&mut position, "wrong-box", candidates) {
            used.insert(p.unit.clone());
            plants.push(p);
        }

        // A reinforcement from its box onto an empty hex.
        let waiting: Vec<usize> = (0..position.len())
            .filter(|&i| {
                position[i].standing == Standing::Box
                    && movable(&position[i].unit)
                    && !used.contains(&position[i].unit)
                    && self.doc.scenarios[self.scenario]
                        .get(&position[i].unit)
                        .is_some_and(|a| a.starts.iter().any(|s| s.arrives.is_some()))
            })
            .collect();
        let occupied: BTreeSet<String> =
            position.iter().map(|p| p.location.clone()).collect();
        let empty: Vec<&String> =
            self.doc.hexes.iter().filter(|h| !occupied.contains(*h)).collect();
        let candidates: Vec<(usize, String, Standing)> = waiting
            .iter()
            .flat_map(|&i| empty.iter().map(move |h| (i, h.to_string(), Standing::Hex)))
            .collect();
        if let Some(p) = self.plant(&mut position, "early-reinforcement", candidates) {
            plants.push(p);
        }
        (plants, position)
    }
}

/// The pieces as VASSAL reported them, by piece id: name, counter id, map, location and
/// what holds them.
fn engine_pieces(run: &Run) -> BTreeMap<String, Value> {
    run.report["game"]["pieces"]
        .as_array()
        .expect("the engine lists the pieces")
        .iter()
        .map(|p| {
            let held = p["in"].as_str().unwrap_or_default();
            let (holder, deck) = match held.split_once(':') {
                Some((_, deck)) => ("deck", Value::from(deck)),
                None if held == "no-map" => ("nowhere", Value::Null),
                None => (held, Value::Null),
            };
            let row = serde_json::json!({
                "name": p["name"], "unit_id": p["unit_id"], "map": p["map"],
                "location": p["location"], "in": holder, "deck": deck,
            });
            (p["id"].as_str().expect("id").to_string(), row)
        })
        .collect()
}

/// The pieces `muster pieces --format json` lists, keyed and shaped as [`engine_pieces`].
fn listed_pieces(listed: &Value) -> BTreeMap<String, Value> {
    listed[0]["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .map(|p| {
            let row = serde_json::json!({
                "name": p["name"], "unit_id": p["unit_id"], "map": p["map"],
                "location": p["location"], "in": p["in"], "deck": p["deck"],
            });
            (p["id"].as_str().expect("id").to_string(), row)
        })
        .collect()
}

fn json(out: &std::process::Output, what: &str) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{what}: {e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Reads `save` with `muster pieces` and `muster check --scenario`; returns what went
/// wrong against the engine's run and the findings `expected`.
fn compare(
    game: &Game,
    save: &Path,
    engine: &Run,
    expected: &BTreeSet<Found>,
    label: &str,
) -> Vec<String> {
    let mut wrong = Vec::new();
    let dir = save.parent().expect("a folder");
    let (save, module) =
        (save.to_str().expect("path"), game.module.to_str().expect("path"));
    let out = muster(dir, &["pieces", save, "--module", module, "--format", "json"]);
    let listed = json(&out, label);
    if out.status.code() != Some(0) || listed[0]["unread"] != Value::Array(vec![]) {
        wrong.push(format!(
            "pieces exits {:?}, unread {}",
            out.status.code(),
            listed[0]["unread"]
        ));
    }
    let (theirs, ours) = (engine_pieces(engine), listed_pieces(&listed));
    if theirs.len() < game.position.len() {
        wrong.push(format!("the engine lists {} pieces", theirs.len()));
    }
    for id in theirs.keys().chain(ours.keys()).collect::<BTreeSet<_>>() {
        if theirs.get(id) != ours.get(id) {
            wrong.push(format!(
                "piece {id}: VASSAL {:?}, muster {:?}",
                theirs.get(id),
                ours.get(id)
            ));
        }
    }

    let scenario = game.scenario;
    let args = ["check", save, "--module", module, "--scenario", scenario, "--format"];
    let out = muster(dir, &[&args[..], &["json"]].concat());
    let report = json(&out, label);
    let violations: Vec<Violation> =
        serde_json::from_value(report["violations"].clone()).expect("violations");
    let got: BTreeSet<Found> = violations.iter().map(found).collect();
    if got != *expected {
        wrong.push(format!(
            "check finds {:?} but the moves planted {:?}",
            got.difference(expected).collect::<Vec<_>>(),
            expected.difference(&got).collect::<Vec<_>>()
        ));
    }
    for key in ["warnings", "unread", "unknown_units", "unknown_locations"] {
        if report[key] != Value::Array(vec![]) {
            wrong.push(format!("check's {key}: {}", report[key]));
        }
    }
    let code = if expected.is_empty() { 0 } else { 1 };
    if out.status.code() != Some(code) {
        wrong.push(format!("check exits {:?}, not {code}", out.status.code()));
    }
    let out = muster(dir, &[&args[..], &["text"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    let summary = format!("{} violation(s)", expected.len());
    if !text.lines().last().is_some_and(|l| l.ends_with(&summary)) {
        wrong.push(format!("check's text does not end with `{summary}`:\n{text}"));
    }
    wrong.into_iter().map(|w| format!("{label}: {w}")).collect()
}

/// The engine saves `game`'s setup unchanged and with the planted moves; muster reads
/// both as VASSAL has them.
fn engine_saves(tools: &Path, game: &Game, dir: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    let file = game.file();
    let unchanged = dir.join(format!("{}-unchanged.vsav", game.name));
    let label = format!("save-{}-unchanged", game.name);
    let args =
        ["--setup", &file, "--no-render", "--save", unchanged.to_str().expect("path")];
    let engine = run(tools, &game.module, &args, &label);
    engine.assert_clean(&label);
    let baseline = game.findings(&game.position);
    wrong.extend(compare(game, &unchanged, &engine, &baseline, &label));

    // Counters the engine can pick by their id: no other piece (a chit, another copy)
    // carries it.
    let mut carriers: BTreeMap<String, usize> = BTreeMap::new();
    for p in engine_pieces(&engine).values() {
        if let Some(u) = p["unit_id"].as_str() {
            *carriers.entry(u.to_string()).or_default() += 1;
        }
    }
    let (plants, position) = game.plants(&|u| carriers.get(u) == Some(&1));
    let kinds: Vec<&str> = plants.iter().map(|p| p.kind).collect();
    let want: &[&str] = match game.name {
        // Too small a game for a friendly hex to fill.
        "example-oasis" => &["opposing-units", "prohibited-hex"],
        "gazala-line-1942" => &[],
        // Dance of War prohibits sea and the Qattara Depression, but its map data names no
        // hex of either.
        _ => &["overstack", "opposing-units", "wrong-box", "early-reinforcement"],
    };
    assert_eq!(kinds, want, "{}: the moves the test can plant", game.name);
    if plants.is_empty() {
        return wrong;
    }
    let moved = dir.join(format!("{}-moved.vsav", game.name));
    let label = format!("save-{}-moved", game.name);
    let moves: Vec<String> =
        plants.iter().map(|p| format!("{}={}", p.unit, p.to)).collect();
    let mut args = vec!["--setup", &file, "--no-render"];
    for m in &moves {
        args.extend(["--move", m]);
    }
    args.extend(["--save", moved.to_str().expect("path")]);
    let engine = run(tools, &game.module, &args, &label);
    engine.assert_clean(&label);
    for m in engine.report["moves"].as_array().expect("moves") {
        assert_eq!(m["arrived"], true, "{label}: {m}");
    }
    let expected = game.findings(&position);
    assert!(expected.len() >= baseline.len() + plants.len(), "{label}");
    wrong.extend(compare(game, &moved, &engine, &expected, &label));
    wrong
}

#[test]
fn saves_written_by_vassal_are_read_as_vassal_has_them_and_checked_for_what_was_planted()
{
    let Some(tools) = tools() else { return };
    let dir = tempfile::tempdir().unwrap();
    let games: Vec<Game> = SETUPS.iter().map(|(g, s)| Game::new(g, s)).collect();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .iter()
            .map(|game| {
                let (tools, dir) = (&tools, dir.path());
                scope.spawn(move || engine_saves(tools, game, dir))
            })
            .collect();
        handles
            .into_iter()
            .zip(SETUPS)
            .flat_map(|(h, (game, _))| {
                h.join().unwrap_or_else(|_| vec![format!("{game}: the test panicked")])
            })
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Gazala 1942's save holds the impulse-chit deck VASSAL made at the start: listed
    // with its chits, which carry their HQs' ids but are no counters.
    let save = dir.path().join("gazala-1942-unchanged.vsav");
    let module = built().join("dist/gazala-1942.vmod");
    let (save, module) = (save.to_str().unwrap(), module.to_str().unwrap());
    let listed = json(
        &muster(dir.path(), &["pieces", save, "--module", module, "--format", "json"]),
        "deck",
    );
    let deck = &listed[0]["decks"][0];
    assert_eq!(deck["name"], "Impulse chits", "{}", listed[0]["decks"]);
    let chits = deck["pieces"].as_array().unwrap().len();
    assert!(chits >= 5, "{deck}");
    let report = json(
        &muster(
            dir.path(),
            &[
                "check",
                save,
                "--module",
                module,
                "--scenario",
                "operation-aida",
                "--format",
                "json",
            ],
        ),
        "deck",
    );
    assert_eq!(report["not_counters"].as_array().unwrap().len(), chits, "{report}");
    assert_eq!(report["other_pieces"], chits, "{report}");
}
