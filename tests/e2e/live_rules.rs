//! The rules checker live inside VASSAL: the real VASSAL 3.7.26 engine, driven by muster's
//! play driver, moves counters of each seed game's setup onto hexes that break each of the
//! game's stacking limits and the rule on opposing units, moves them back, and makes a
//! legal move; the chat must name exactly the hexes, sections and words the checker gives
//! for the same positions, the counters of a broken hex must be framed, and the Check rules
//! button must list what `muster check` (the WebAssembly checker inside the module) finds in
//! the game VASSAL saves. One engine run per game.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use muster_package::module::live_rules::{END_SETUP, PREFERENCE};
use muster_rules::embedded::{PieceAt, Request, RulesetDoc, Violation, check};
use muster_rules::{Breach, Category};
use serde_json::Value;

use crate::modules::{BUILD, built};
use crate::table::{chromium, serve_in};
use crate::util::{copy_tree, corpus, muster, root, seeds};
use crate::vassal::{Run, play, tools};

/// Each game with a map and the setup the moves start from.
const SETUPS: [(&str, &str); 4] = [
    ("dance-of-war", "campaign"),
    ("gazala-1942", "operation-aida"),
    ("gazala-scs", "main-event"),
    ("example-oasis", "meeting"),
];

/// What went wrong in a game's run, and the kinds of breach planted (section, words).
type Outcome = (Vec<String>, Vec<(String, String)>);

/// A broken rule as the chat reports it: the checker's message and the counters it names.
type Reported = (String, Vec<String>);

/// The kinds of violation VASSAL checks live.
const LIVE: [&str; 4] =
    ["overstack", "opposing-units", "prohibited-hex", "outside-setup"];

/// What the chat line of a broken rule says: the message, then the counters named (a setup
/// line's message, which starts with the counter's name, with its rule and no counters
/// after).
fn line(v: &Violation) -> Reported {
    if v.kind == "outside-setup" {
        return (format!("{} (rule {})", v.message, v.rule), Vec::new());
    }
    let mut units = v.units.clone();
    units.sort();
    (v.message.clone(), units)
}

/// A chat line read back: `* MESSAGE — UNIT, UNIT`, or `* MESSAGE` alone.
fn read_line(l: &str) -> Reported {
    let l = l.strip_prefix("* ").unwrap_or(l);
    let Some((message, units)) = l.rsplit_once(" \u{2014} ") else {
        return (l.to_string(), Vec::new());
    };
    let mut units: Vec<String> = units.split(", ").map(str::to_string).collect();
    units.sort();
    (message.to_string(), units)
}

/// A game's setup as the checker sees it, and what may be moved.
struct Game {
    name: &'static str,
    scenario: &'static str,
    /// The folder the game was built in (its `dist/` holds the module and the table).
    dir: PathBuf,
    /// What names its runs: the game's name, or the variant's.
    label: String,
    /// Moves made after the setup ends (and made back), each checked like the others.
    extra: Vec<(String, String)>,
    doc: RulesetDoc,
    /// The counters on hexes: unit id and hex.
    position: Vec<PieceAt>,
    /// Counters the driver can pick by their id: one piece carries it (no other copy, no
    /// chit).
    movable: BTreeSet<String>,
}

impl Game {
    /// A seed game, as the shared build of the seeds made it.
    fn new(name: &'static str, scenario: &'static str) -> Game {
        Game::built_in(name, scenario, built(), &seeds())
    }

    /// A game built in `dir`, of the games `loaded` (its sources).
    fn built_in(
        name: &'static str,
        scenario: &'static str,
        dir: &Path,
        loaded: &muster_model::Loaded,
    ) -> Game {
        let dist = dir.join(format!("dist/{name}"));
        let doc: RulesetDoc = serde_json::from_slice(
            &std::fs::read(dist.join("web/ruleset.json")).unwrap(),
        )
        .unwrap();
        let setups: Value =
            serde_json::from_slice(&std::fs::read(dist.join("module.json")).unwrap())
                .unwrap();
        let setup = setups
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["scenario"] == scenario)
            .expect("the setup");
        let mut copies: BTreeMap<String, usize> = BTreeMap::new();
        let mut position = Vec::new();
        for p in setup["pieces"].as_array().unwrap() {
            let (unit, at) =
                (p["unit"].as_str().unwrap(), p["location"].as_str().unwrap());
            *copies.entry(unit.to_string()).or_default() += 1;
            if doc.hexes.iter().any(|h| h == at) {
                position.push(PieceAt::on_hex(unit, at));
            }
        }
        let game = loaded.games.iter().find(|g| g.id == name).expect("the game");
        let chits: BTreeSet<Category> =
            game.meta.play.decks.iter().flat_map(|d| d.one_per_unit_of.clone()).collect();
        let movable = doc
            .units
            .iter()
            .filter(|u| copies.get(&u.id) == Some(&1) && !chits.contains(&u.category))
            .map(|u| u.id.clone())
            .collect();
        Game {
            name,
            scenario,
            dir: dir.to_path_buf(),
            label: name.to_string(),
            extra: Vec::new(),
            doc,
            position,
            movable,
        }
    }

    /// The game's module.
    fn module(&self) -> PathBuf {
        self.dir.join(format!("dist/{}.vmod", self.name))
    }

    fn findings(&self, position: &[PieceAt]) -> Vec<Violation> {
        self.checked(position, false)
    }

    /// What VASSAL checks in `position`: with `setup`, also each counter against its
    /// setup line (as the scenario's predefined setup starts the game).
    fn checked(&self, position: &[PieceAt], setup: bool) -> Vec<Violation> {
        let request = Request {
            scenario: setup.then(|| self.scenario.to_string()),
            pieces: position.to_vec(),
            turn: None,
            complete: false,
        };
        let mut found = check(&self.doc, &request).violations;
        found.retain(|v| LIVE.contains(&v.kind.as_str()));
        found
    }

    fn name_of(&self, unit: &str) -> &str {
        self.doc.units.iter().find(|u| u.id == unit).map_or("", |u| u.name.as_str())
    }

    /// What VASSAL reports when `unit` comes to rest at `hex` of `position` (after the
    /// move): its side's stacking rules broken there, opposing units and prohibited
    /// terrain there, and with `setup` its own setup line.
    fn reported(
        &self,
        position: &[PieceAt],
        unit: &str,
        hex: &str,
        setup: bool,
    ) -> BTreeSet<Reported> {
        let name = self.name_of(unit);
        self.checked(position, setup)
            .iter()
            .filter(|v| v.location == hex)
            .filter(|v| match v.kind.as_str() {
                "overstack" => v.units.iter().any(|n| n == name),
                "outside-setup" => v.units == [name],
                _ => true,
            })
            .map(line)
            .collect()
    }

    /// Each kind of breach the rules know, as the checker words it: every limit of each
    /// stacking rule's first alternative (whose reason the checker gives), and opposing
    /// units.
    fn kinds(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for r in &self.doc.rules.stacking {
            for l in r.any_of.iter().take(1).flat_map(|a| &a.all_of) {
                let what = l.counted();
                let mut breaches = Vec::new();
                breaches.extend(l.max.map(Breach::Max));
                breaches.extend(l.min.map(Breach::Min));
                if l.same_formation {
                    breaches.push(Breach::Formation);
                }
                for b in breaches {
                    out.push((r.section.clone(), b.reason("", &what)));
                }
            }
        }
        out.push((
            self.doc.rules.opposing_units_section.clone().unwrap_or_default(),
            "units of opposing sides".into(),
        ));
        if !self.doc.prohibited.is_empty() {
            out.push((
                self.doc.rules.prohibited_terrain_section.clone().unwrap_or_default(),
                "which no unit may enter".into(),
            ));
        }
        out
    }

    /// Moves that each break one more rule, one per kind the setup lets the test plant: a
    /// counter onto a hex where the move adds a finding of that kind there and nowhere
    /// else. Applied to `position` in turn; each unit and hex used once.
    fn plants(&self, position: &mut [PieceAt]) -> Vec<Plant> {
        let mut plants: Vec<Plant> = Vec::new();
        // Occupied hexes, and hexes no unit may enter.
        let mut hexes: Vec<String> = position
            .iter()
            .map(|p| p.location.clone())
            .chain(self.doc.prohibited.keys().cloned())
            .collect();
        hexes.sort();
        hexes.dedup();
        let count = |p: &[PieceAt], h: &str| p.iter().filter(|x| x.location == h).count();
        for (section, words) in self.kinds() {
            let before: BTreeSet<String> =
                self.findings(position).iter().map(|v| v.message.clone()).collect();
            let mut targets = hexes.clone();
            targets.sort_by_key(|h| std::cmp::Reverse(count(position, h)));
            let found = targets.iter().find_map(|to| {
                if plants.iter().any(|p| p.to == *to || p.from == *to) {
                    return None;
                }
                (0..position.len()).find_map(|i| {
                    let unit = &position[i].unit;
                    let from = &position[i].location;
                    if from == to
                        || !self.movable.contains(unit)
                        || plants.iter().any(|p| p.unit == *unit || p.to == *from)
                    {
                        return None;
                    }
                    let mut moved = position.to_vec();
                    moved[i].location = to.clone();
                    let all = self.findings(&moved);
                    let after: BTreeSet<String> =
                        all.iter().map(|v| v.message.clone()).collect();
                    let added: Vec<&Violation> =
                        all.iter().filter(|v| !before.contains(&v.message)).collect();
                    let planted = added.len() == 1
                        && added[0].location == *to
                        && added[0].rule == section
                        && added[0].message.contains(&words);
                    (planted && before.is_subset(&after)).then(|| (i, to.clone()))
                })
            });
            if let Some((i, to)) = found {
                let (unit, from) =
                    (position[i].unit.clone(), position[i].location.clone());
                position[i].location = to.clone();
                plants.push(Plant { unit, from, to, kind: (section, words) });
            }
        }
        plants
    }
}

impl Game {
    /// A counter of `position` and a hex where moving it keeps every rule, though the
    /// first alternative of a stacking rule fails there: legal only by a later one.
    fn legal_by_a_later_alternative(
        &self,
        position: &[PieceAt],
    ) -> Option<(String, String, String)> {
        let mut first = self.doc.clone();
        for r in &mut first.rules.stacking {
            r.any_of.truncate(1);
        }
        let at = |doc: &RulesetDoc, p: &[PieceAt], hex: &str| -> BTreeSet<String> {
            let request = Request {
                scenario: None,
                pieces: p.to_vec(),
                turn: None,
                complete: false,
            };
            check(doc, &request)
                .violations
                .into_iter()
                .filter(|v| v.location == hex)
                .map(|v| v.message)
                .collect()
        };
        let mut hexes: Vec<&str> = position.iter().map(|p| p.location.as_str()).collect();
        hexes.sort();
        hexes.dedup();
        let all = self.findings(position);
        for to in hexes {
            for (i, p) in position.iter().enumerate() {
                if p.location == to || !self.movable.contains(&p.unit) {
                    continue;
                }
                let mut moved = position.to_vec();
                moved[i].location = to.to_string();
                let by_first = at(&first, &moved, to);
                if self.findings(&moved) == all
                    && by_first.len() > at(&first, position, to).len()
                {
                    return Some((p.unit.clone(), p.location.clone(), to.to_string()));
                }
            }
        }
        None
    }
}

impl Game {
    /// A lone counter of `position`, where it stands, and an empty hex any unit may enter
    /// where moving it breaks nothing but its setup line.
    fn off_its_line(&self, position: &[PieceAt]) -> Option<(String, String, String)> {
        let occupied: BTreeSet<&str> =
            position.iter().map(|p| p.location.as_str()).collect();
        let empty: Vec<&String> = self
            .doc
            .hexes
            .iter()
            .filter(|h| {
                !occupied.contains(h.as_str()) && !self.doc.prohibited.contains_key(*h)
            })
            .take(3)
            .collect();
        position.iter().enumerate().find_map(|(i, p)| {
            let lone = self.movable.contains(&p.unit)
                && position.iter().filter(|q| q.location == p.location).count() == 1;
            if !lone {
                return None;
            }
            empty.iter().find_map(|to| {
                let mut moved = position.to_vec();
                moved[i].location = (*to).clone();
                let kinds: Vec<String> = self
                    .reported(&moved, &p.unit, to, true)
                    .into_iter()
                    .map(|r| r.0)
                    .collect();
                (kinds.len() == 1 && self.reported(&moved, &p.unit, to, false).is_empty())
                    .then(|| (p.unit.clone(), p.location.clone(), (*to).clone()))
            })
        })
    }
}

/// One planted move.
struct Plant {
    unit: String,
    from: String,
    to: String,
    kind: (String, String),
}

/// The chat lines of broken rules among an action's chat lines (not the move reports).
fn rule_lines(action: &Value) -> BTreeSet<Reported> {
    action["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .filter(|l| {
            l.starts_with("* ")
                && !l.ends_with(" *")
                && !l.starts_with("* Checking every hex")
                && !l.starts_with("* Setup ended")
        })
        .map(read_line)
        .collect()
}

/// One engine run per game, from the scenario's predefined setup (which turns the checks
/// against the setup lines on): the planted moves, the Check rules button, a save, the
/// moves back, a counter moved off its setup line and back, the End setup button, a legal
/// move and one legal only by a later alternative, the button again, and a move with the
/// checks turned off.
fn live_checks(tools: &Path, game: &Game, dir: &Path) -> Outcome {
    let mut wrong = Vec::new();
    let mut position = game.position.clone();
    let start = position.clone();
    let plants = game.plants(&mut position);
    let save = dir.join(format!("{}-broken.vsav", game.label));
    let level = |u: &str| format!("{u}=$RuleBroken_Level$");

    // Expected, action by action.
    let mut args: Vec<String> = vec!["--setup".into(), format!("{}.vsav", game.scenario)];
    let mut expect: Vec<(String, BTreeSet<Reported>)> = Vec::new();
    let mut walk = start.clone();
    let step = |args: &mut Vec<String>,
                expect: &mut Vec<(String, BTreeSet<Reported>)>,
                walk: &mut Vec<PieceAt>,
                (unit, to): (&str, &str),
                setup: bool| {
        let i = walk.iter().position(|p| p.unit == unit).unwrap();
        walk[i].location = to.to_string();
        args.extend(["--move".into(), format!("{unit}={to}")]);
        let reported = game.reported(walk, unit, to, setup);
        expect.push((format!("move {unit}={to}"), reported.clone()));
        args.extend(["--expr".into(), level(unit)]);
        let framed = if reported.is_empty() { 1 } else { 2 };
        expect.push((format!("level {unit}={framed}"), BTreeSet::new()));
        reported
    };
    for p in &plants {
        step(&mut args, &mut expect, &mut walk, (&p.unit, &p.to), true);
    }
    let broken: BTreeSet<Reported> = game.checked(&walk, true).iter().map(line).collect();
    args.extend([
        "--button".into(),
        "Check rules".into(),
        "--save".into(),
        save.display().to_string(),
    ]);
    expect.push(("button".into(), broken.clone()));
    expect.push(("save".into(), BTreeSet::new()));
    // Back where they were: legal.
    for p in plants.iter().rev() {
        let reported = step(&mut args, &mut expect, &mut walk, (&p.unit, &p.from), true);
        if !reported.is_empty() {
            wrong
                .push(format!("the move back {}={} breaks {reported:?}", p.unit, p.from));
        }
    }
    // A lone counter off its setup line to an empty hex any unit may enter, and back; then
    // the setup ends, and the same move is legal.
    let mut kinds: Vec<(String, String)> =
        plants.iter().map(|p| p.kind.clone()).collect();
    let off_line = game.off_its_line(&start);
    if let Some((unit, from, to)) = &off_line {
        let reported = step(&mut args, &mut expect, &mut walk, (unit, to), true);
        if reported.len() != 1 {
            wrong.push(format!("moving {unit} off its setup line reports {reported:?}"));
        }
        kinds.push(("".into(), "off its setup line".into()));
        step(&mut args, &mut expect, &mut walk, (unit, from), true);
    }
    args.extend(["--button".into(), END_SETUP.into()]);
    expect.push(("end setup".into(), BTreeSet::new()));
    if let Some((unit, from, to)) = &off_line {
        for (what, at) in [("the legal move", to), ("the move back", from)] {
            let reported = step(&mut args, &mut expect, &mut walk, (unit, at), false);
            if !reported.is_empty() {
                wrong.push(format!("{what} {unit}={at} breaks {reported:?}"));
            }
        }
    }
    // The game's own moves, and back.
    for (unit, to) in &game.extra {
        let from = walk.iter().find(|p| p.unit == *unit).unwrap().location.clone();
        step(&mut args, &mut expect, &mut walk, (unit, to), false);
        step(&mut args, &mut expect, &mut walk, (unit, &from), false);
    }
    // Legal only by a later alternative (Gazala 1942's two regiments or brigades of one
    // formation), then back.
    let alternative = game.legal_by_a_later_alternative(&start);
    if let Some((unit, from, to)) = &alternative {
        step(&mut args, &mut expect, &mut walk, (unit, to), false);
        step(&mut args, &mut expect, &mut walk, (unit, from), false);
    }
    args.extend(["--button".into(), "Check rules".into()]);
    expect.push(("button".into(), game.checked(&walk, false).iter().map(line).collect()));
    // With the preference off, a move that breaks a rule says nothing and frames nothing.
    if let Some(p) = plants.first() {
        args.extend(["--pref".into(), format!("{PREFERENCE}=false")]);
        expect.push(("preference".into(), BTreeSet::new()));
        args.extend(["--move".into(), format!("{}={}", p.unit, p.to)]);
        expect.push((format!("move {}={} unchecked", p.unit, p.to), BTreeSet::new()));
        args.extend(["--expr".into(), level(&p.unit)]);
        expect.push((format!("level {}=1", p.unit), BTreeSet::new()));
    }

    let label = format!("live-rules-{}", game.label);
    let module = game.module();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run: Run = play(tools, &module, &args, &label);
    run.assert_clean(&label);
    for (k, (what, lines)) in expect.iter().enumerate() {
        let action = run.action(k);
        if let Some(e) = action.get("error") {
            wrong.push(format!("{what}: {e}"));
        }
        if what == "preference" && action["property"] != "false" {
            wrong.push(format!(
                "the preference is {} after turning it off",
                action["property"]
            ));
        }
        if let Some(framed) =
            what.strip_prefix("level ").and_then(|w| w.rsplit('=').next())
        {
            if action["value"] != framed {
                wrong.push(format!("{what}: the layer is at {}", action["value"]));
            }
            continue;
        }
        let got = rule_lines(action);
        if got != *lines {
            wrong.push(format!(
                "{what}: VASSAL says {:?} where the checker says {:?}",
                got.difference(lines).collect::<Vec<_>>(),
                lines.difference(&got).collect::<Vec<_>>()
            ));
        }
    }

    // The checker inside the module, on the game as VASSAL saved it, finds what the button
    // listed.
    let out = muster(
        dir,
        &[
            "check",
            save.to_str().unwrap(),
            "--module",
            module.to_str().unwrap(),
            "--scenario",
            game.scenario,
            "--format",
            "json",
        ],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{label}: {e}: {}", String::from_utf8_lossy(&out.stderr))
    });
    let violations: Vec<Violation> =
        serde_json::from_value(report["violations"].clone()).unwrap();
    let checked: BTreeSet<Reported> =
        violations.iter().filter(|v| LIVE.contains(&v.kind.as_str())).map(line).collect();
    if checked != broken {
        wrong.push(format!("muster check finds {checked:?}, VASSAL's button {broken:?}"));
    }
    (wrong.into_iter().map(|w| format!("{label}: {w}")).collect(), kinds)
}

/// The live checks of each game, run side by side; every run's failures, and the kinds of
/// breach planted in each game, by name.
fn run_live(tools: &Path, games: &[Game]) -> Vec<(String, Vec<String>)> {
    let dir = tempfile::tempdir().unwrap();
    let results: Vec<Outcome> = std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .iter()
            .map(|game| {
                let dir = dir.path();
                scope.spawn(move || live_checks(tools, game, dir))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("the game's run")).collect()
    });
    let failures: Vec<&String> = results.iter().flat_map(|r| &r.0).collect();
    assert!(failures.is_empty(), "{failures:#?}");
    games
        .iter()
        .zip(results)
        .map(|(g, (_, kinds))| {
            let kinds = kinds.iter().map(|(s, w)| format!("{s}:{}", w.trim())).collect();
            (g.label.clone(), kinds)
        })
        .collect()
}

/// The corpus games (real games of other eras) and the scenario the moves start from.
const CORPUS: [(&str, &str); 5] = [
    ("agincourt-1415", "agincourt"),
    ("awakening-the-bear-2012", "firefight-1"),
    ("borodino-1812", "borodino"),
    ("gaines-mill-1862", "across-the-chickahominy"),
    ("hastings-1066", "hastings"),
];

fn corpus_games() -> Vec<Game> {
    let loaded = corpus();
    let dir = crate::corpus::built();
    CORPUS.iter().map(|(g, s)| Game::built_in(g, s, dir, &loaded)).collect()
}

/// The example game built with rules that use every form the seeds do not: a unit that
/// may share a hex with the enemy (its HQs), a rule of town hexes only that counts points
/// (the printed attack value), and a rule kept out of towns. Its north HQ stands alone in
/// the town 09.02.
fn variant() -> Game {
    let dir = variant_built();
    let loaded = muster_model::load(
        &dir.join("sources"),
        &[],
        &muster_model::LoadOptions::default(),
    );
    let mut g = Game::built_in("example-oasis", "meeting", dir, &loaded);
    g.label = "example-oasis-variant".into();
    // A southern battalion joins the northern HQ alone in its town: the HQ is excepted.
    g.extra = vec![("7-bde-1-7-inf-bn".into(), "09.02".into())];
    g
}

/// One build of [`variant`], shared by the tests that read it.
fn variant_built() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(build_variant)
}

fn build_variant() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("live-rules-variant");
    let _ = std::fs::remove_dir_all(&dir);
    let game = dir.join("sources/example-oasis");
    copy_tree(&root().join("sources/example-oasis"), &game);
    std::fs::write(
        game.join("rules.yaml"),
        r#"stacking:
  - section: "E.1"
    text: "Two units per hex; HQs are free."
    ignore: [{category: [hq, marker]}]
    except_in: [town]
    any_of: [{all_of: [{count: {}, max: 2}]}]
  - section: "V.1"
    text: "In a town, units of at most 5 attack strength points."
    only_in: [town]
    ignore: [{category: [hq, marker]}]
    points: {value: attack}
    any_of: [{all_of: [{count: {}, max: 5, points: true}]}]
opposing_units: forbidden
opposing_units_section: "E.2"
opposing_units_except: [{category: [hq]}]
prohibited_terrain: [sea]
"#,
    )
    .unwrap();
    let out = muster(&dir, &BUILD);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir
}

#[test]
fn vassal_checks_the_corpus_and_every_form_of_rule_as_the_checker_words_them() {
    let Some(tools) = tools() else { return };
    let mut games = corpus_games();
    games.push(variant());
    // The southern battalion beside the northern HQ breaks nothing, though opposing
    // units are forbidden: the checker says so, and VASSAL must agree.
    let v = games.last().unwrap();
    let mut moved = v.position.clone();
    let (unit, to) = &v.extra[0];
    moved.iter_mut().find(|p| p.unit == *unit).unwrap().location = to.clone();
    assert!(
        moved.iter().any(|p| p.location == *to && p.unit != *unit),
        "the HQ is there"
    );
    assert_eq!(v.findings(&moved), [], "an HQ may share a hex with the enemy");
    let planted = run_live(&tools, &games);
    let kinds = |label: &str| planted.iter().find(|(l, _)| l == label).unwrap().1.clone();
    // Gun points (CWB 12.1), counted in VASSAL by the printed rating.
    assert!(
        kinds("gaines-mill-1862").contains(
            &"CWB 12.1:stacking points of units where at most 10 may stack".into()
        ),
        "{planted:#?}"
    );
    // The town rule's points, and opposing units where no HQ is alone.
    let oasis = kinds("example-oasis-variant");
    for want in [
        "V.1:stacking points of units where at most 5 may stack",
        "E.2:units of opposing sides",
    ] {
        assert!(oasis.contains(&want.to_string()), "{oasis:?}");
    }
}

#[test]
fn vassal_reports_each_broken_rule_as_the_checker_words_it_and_frames_the_hex() {
    let Some(tools) = tools() else { return };
    let games: Vec<Game> = SETUPS.iter().map(|(g, s)| Game::new(g, s)).collect();
    let planted = run_live(&tools, &games);
    // Each kind of breach the setups allow was planted: every limit of the first
    // alternative that a move of a single counter can break, and opposing units. (Oasis
    // is too small for a side to overstack a hex of its own; Gazala 1942's other limits
    // need two brigades of different formations in reach, which its setup does not
    // give; SCS's rule has one limit.)

    let want = [
        (
            "dance-of-war",
            vec![
                "6.0:combat units where at most 2 may stack",
                "6.0:HQ units where at most 1 may stack",
                "6.3:units of opposing sides",
                ":off its setup line",
            ],
        ),
        (
            "gazala-1942",
            vec![
                "5.1:units where at most 5 may stack",
                "5.1:brigade or regiment units where at most 1 may stack",
                "4.32:units of opposing sides",
                ":off its setup line",
            ],
        ),
        (
            "gazala-scs",
            vec![
                "4.3:units where at most 3 may stack",
                "3.3:units of opposing sides",
                ":off its setup line",
            ],
        ),
        (
            "example-oasis",
            vec![
                "E.2:units of opposing sides",
                ":which no unit may enter",
                ":off its setup line",
            ],
        ),
    ];
    for ((game, got), (name, want)) in planted.iter().zip(want) {
        assert_eq!(
            (game.as_str(), got.iter().map(String::as_str).collect::<Vec<_>>()),
            (name, want)
        );
    }
    // Gazala 1942's setup lets a move be legal only by 5.1's second case, which the run
    // made.
    let g = &games[1];
    assert!(g.legal_by_a_later_alternative(&g.position).is_some(), "{}", g.name);
}

#[test]
fn a_game_without_a_map_has_no_live_checks() {
    let mut archive = muster_package::archive::Archive::open(
        std::fs::read(built().join("dist/gazala-line-1942.vmod")).unwrap(),
    )
    .unwrap();
    let build = String::from_utf8(archive.read("buildFile.xml").unwrap()).unwrap();
    assert!(!build.contains("moveKey=") && !build.contains("MusterLiveRules"));
}

/// The texts the browser table lists for the violations the checker finds in `position`,
/// with the scenario the table has open.
fn table_lines(game: &Game, position: &[PieceAt]) -> BTreeSet<String> {
    let request = Request {
        scenario: Some(game.scenario.to_string()),
        pieces: position.to_vec(),
        turn: None,
        complete: false,
    };
    check(&game.doc, &request)
        .violations
        .iter()
        .map(|v| format!("{}: {} (rule {}): {}", v.location, v.kind, v.rule, v.message))
        .collect()
}

/// The browser table, on the same moves VASSAL makes above (each planted breach, the moves
/// back, a counter off its setup line and back), lists after each move exactly what the
/// checker finds: with the test above, the three checkers agree on every position.
#[test]
fn the_browser_table_lists_what_the_checker_finds_on_the_same_moves() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut wrong = Vec::new();
    let mut planted = 0;
    let mut games: Vec<Game> = SETUPS.iter().map(|(g, s)| Game::new(g, s)).collect();
    games.extend(corpus_games());
    games.push(variant());
    for game in &games {
        let (name, scenario) = (game.name, game.scenario);
        let mut position = game.position.clone();
        let plants = game.plants(&mut position);
        planted += plants.len();
        let mut moves: Vec<(String, String, String)> = plants
            .iter()
            .map(|p| (p.unit.clone(), p.from.clone(), p.to.clone()))
            .chain(
                plants
                    .iter()
                    .rev()
                    .map(|p| (p.unit.clone(), p.to.clone(), p.from.clone())),
            )
            .collect();
        if let Some((unit, from, to)) = game.off_its_line(&game.position) {
            moves.push((unit.clone(), from.clone(), to.clone()));
            moves.push((unit, to, from));
        }
        for (unit, to) in &game.extra {
            let from = game.position.iter().find(|p| p.unit == *unit).unwrap();
            moves.push((unit.clone(), from.location.clone(), to.clone()));
            moves.push((unit.clone(), to.clone(), from.location.clone()));
        }
        let mut walk = game.position.clone();
        let mut expected = vec![table_lines(game, &walk)];
        for (unit, _, to) in &moves {
            let i = walk.iter().position(|p| p.unit == *unit).unwrap();
            walk[i].location = to.clone();
            expected.push(table_lines(game, &walk));
        }
        let file = dir.path().join(format!("{}.json", game.label));
        std::fs::write(&file, serde_json::to_vec(&moves).unwrap()).unwrap();

        let (mut server, url) = serve_in(&game.dir, name);
        let out = Command::new("node")
            .current_dir(root().join("tests/browser"))
            .env("MUSTER_CHROMIUM", &chromium)
            .args(["agree.mjs", &url, scenario, file.to_str().unwrap()])
            .output()
            .unwrap();
        let _ = server.kill();
        let _ = server.wait();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{name}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = serde_json::from_str(stdout.trim()).unwrap();
        let steps: Vec<BTreeSet<String>> =
            serde_json::from_value(report["steps"].clone()).unwrap();
        assert_eq!(steps.len(), expected.len(), "{name}");
        assert!(expected[0].is_empty(), "{name}: the setup breaks {:?}", expected[0]);
        for (k, (got, want)) in steps.iter().zip(&expected).enumerate() {
            if got != want {
                let what = if k == 0 {
                    "the setup".to_string()
                } else {
                    format!("{:?}", moves[k - 1])
                };
                wrong.push(format!(
                    "{name}, after {what}: the table lists {:?} where the checker finds {:?}",
                    got.difference(want).collect::<Vec<_>>(),
                    want.difference(got).collect::<Vec<_>>()
                ));
            }
        }
        // Something was broken along the way, and listed.
        assert!(steps.iter().any(|s| !s.is_empty()), "{name}: nothing was ever listed");
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(planted >= 10, "{planted} breaches planted");
}
