//! The embedded checker at work: `muster check` on saved games made from a module's own
//! setup, and the browser table in headless Chromium.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use muster_package::archive::{Archive, write_zip};
use muster_package::vassal::piece::Trait;
use muster_package::vassal::save::{
    KEY, command_stream, deobfuscate, obfuscate, parse_stream,
};
use muster_rules::embedded::{PieceAt, Request, RulesetDoc, check};
use serde_json::Value;

use crate::modules::built;
use crate::util::{muster, root};

const GAME: &str = "gazala-1942";

/// A counter of the first scenario, its hex, and a nearby hex where it overstacks: the
/// move the tests plant.
fn planted_move() -> (String, String, String, String) {
    let dir = built().join(format!("dist/{GAME}/web"));
    let doc: RulesetDoc =
        serde_json::from_slice(&std::fs::read(dir.join("ruleset.json")).unwrap())
            .unwrap();
    let data: Value =
        serde_json::from_slice(&std::fs::read(dir.join("data.json")).unwrap()).unwrap();
    let scenario = &data["scenarios"][0];
    let id = scenario["scenario"].as_str().unwrap().to_string();
    let pieces: Vec<PieceAt> = scenario["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["map"] == "Main Map")
        .map(|p| {
            PieceAt::on_hex(p["unit"].as_str().unwrap(), p["location"].as_str().unwrap())
        })
        .collect();
    let request = |pieces: Vec<PieceAt>| Request {
        scenario: None,
        pieces,
        turn: None,
        complete: false,
    };
    assert!(
        check(&doc, &request(pieces.clone())).violations.is_empty(),
        "the solved setup is legal"
    );
    let loaded = crate::util::seeds();
    let board =
        loaded.games.iter().find(|g| g.id == GAME).unwrap().board.clone().unwrap();
    let mut hexes: Vec<&str> = pieces.iter().map(|p| p.location.as_str()).collect();
    hexes.sort_by_key(|h| {
        std::cmp::Reverse(pieces.iter().filter(|p| p.location == *h).count())
    });
    for to in hexes {
        let to_cell = board.parse(to).unwrap();
        for (i, p) in pieces.iter().enumerate() {
            let near = board.distance(board.parse(&p.location).unwrap(), to_cell);
            // The table draws a hex's counters in setup order, the last on top: take a
            // counter that is on top, so a drag grabs it.
            let on_top = pieces[i + 1..].iter().all(|q| q.location != p.location);
            if p.location == to || !(1..=5).contains(&near) || !on_top {
                continue;
            }
            let mut moved = pieces.clone();
            moved[i].location = to.to_string();
            let found = check(&doc, &request(moved)).violations;
            if found.iter().any(|v| v.location == to && v.kind == "overstack") {
                return (id, p.unit.clone(), p.location.clone(), to.to_string());
            }
        }
    }
    panic!("no counter of {GAME} overstacks a hex within 5 hexes of it");
}

#[test]
fn muster_check_runs_the_modules_own_checker_on_saved_games() {
    let (scenario, unit, _, to) = planted_move();
    let vmod = built().join(format!("dist/{GAME}.vmod"));
    let mut module = Archive::open(std::fs::read(&vmod).unwrap()).unwrap();
    let file = format!("{scenario}.vsav");
    let original = module.read(&file).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let untouched = tmp.path().join("untouched.vsav");
    std::fs::write(&untouched, &original).unwrap();
    let run = |save: &Path, extra: &[&str]| {
        let mut args = vec![
            "check",
            save.to_str().unwrap(),
            "--module",
            vmod.to_str().unwrap(),
            "--format",
            "json",
        ];
        args.extend(extra);
        muster(tmp.path(), &args)
    };
    for extra in [&[][..], &["--scenario", scenario.as_str()][..]] {
        let out = run(&untouched, extra);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["violations"], Value::Array(vec![]));
        assert!(report["pieces_checked"].as_u64().unwrap() > 50);
    }

    // Plant the overstack: move the counter's piece onto the hex of another piece there.
    let mut saved = Archive::open(original).unwrap();
    let game =
        parse_stream(&deobfuscate(&saved.read("savedGame").unwrap()).unwrap()).unwrap();
    let listed = muster(
        tmp.path(),
        &[
            "pieces",
            untouched.to_str().unwrap(),
            "--module",
            vmod.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let at = listed[0]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["location"] == to.as_str())
        .unwrap();
    let (x, y) = (at["x"].as_i64().unwrap(), at["y"].as_i64().unwrap());
    // VASSAL places a stacked piece where its stack is: the moved piece leaves its stack
    // and stands on the new hex by itself.
    let mut adds = Vec::new();
    let mut moved = None;
    for a in &game.added {
        match (&a.piece, &a.stack) {
            (Some(p), _) => {
                let mut p = p.clone();
                if p.marker("UnitId").as_deref() == Some(unit.as_str()) {
                    let mut pos = p.position().unwrap();
                    (pos.x, pos.y) = (x, y);
                    let last = p.traits.len() - 1;
                    let f = p.traits[last].fields();
                    p.traits[last] = Trait::basic(&f[2], &f[3], &pos);
                    moved = Some(a.id.clone());
                }
                adds.push(p.add_command(&a.id));
            }
            (None, Some(s)) => {
                let mut s = s.clone();
                s.pieces.retain(|p| Some(p) != moved.as_ref());
                if !s.pieces.is_empty() {
                    adds.push(s.add_command(&a.id));
                }
            }
            _ => {}
        }
    }
    let restores = game.component_restores();
    let text = command_stream(&adds, &restores);
    let planted = tmp.path().join("planted.vsav");
    std::fs::write(
        &planted,
        write_zip(&[("savedGame".to_string(), obfuscate(&text, KEY))].into()).unwrap(),
    )
    .unwrap();
    let out = run(&planted, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = report["violations"].as_array().unwrap();
    assert!(
        v.iter().any(|v| v["location"] == to.as_str() && v["kind"] == "overstack"),
        "{report}"
    );
    // With the scenario named, the counter is also outside its setup line.
    let out = run(&planted, &["--scenario", &scenario]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["violations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["kind"] == "outside-setup"),
        "{report}"
    );
    // A counter dropped into its side's dead pile is eliminated, not checked on the map.
    let build = String::from_utf8(module.read("buildFile.xml").unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&build).unwrap();
    let pile = doc
        .descendants()
        .find(|n| {
            n.tag_name().name().ends_with(".Zone")
                && n.attribute("name") == Some("Axis dead pile")
        })
        .expect("the Axis dead pile");
    let corners: Vec<(i64, i64)> = pile
        .attribute("path")
        .unwrap()
        .split(';')
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    let n = corners.len() as i64;
    let centre = (
        corners.iter().map(|c| c.0).sum::<i64>() / n,
        corners.iter().map(|c| c.1).sum::<i64>() / n,
    );
    let axis_unit = listed[0]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| {
            p["side"] == "axis" && p["category"] == "combat" && p["map"] == "Main Map"
        })
        .expect("an Axis unit on the map")["unit_id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut adds = Vec::new();
    let mut dead = None;
    for a in &game.added {
        match (&a.piece, &a.stack) {
            (Some(p), _) => {
                let mut p = p.clone();
                if p.marker("UnitId").as_deref() == Some(axis_unit.as_str()) {
                    let mut pos = p.position().unwrap();
                    pos.map = Some("Dead Pile".into());
                    (pos.x, pos.y) = centre;
                    let last = p.traits.len() - 1;
                    let f = p.traits[last].fields();
                    p.traits[last] = Trait::basic(&f[2], &f[3], &pos);
                    dead = Some(a.id.clone());
                }
                adds.push(p.add_command(&a.id));
            }
            (None, Some(s)) => {
                let mut s = s.clone();
                s.pieces.retain(|p| Some(p) != dead.as_ref());
                if !s.pieces.is_empty() {
                    adds.push(s.add_command(&a.id));
                }
            }
            _ => {}
        }
    }
    let text = command_stream(&adds, &restores);
    let eliminated = tmp.path().join("eliminated.vsav");
    std::fs::write(
        &eliminated,
        write_zip(&[("savedGame".to_string(), obfuscate(&text, KEY))].into()).unwrap(),
    )
    .unwrap();
    let clean = run(&untouched, &[]);
    let clean: Value = serde_json::from_slice(&clean.stdout).unwrap();
    let out = run(&eliminated, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["eliminated"],
        serde_json::json!([{"unit": axis_unit, "side": "axis"}]),
        "{report}"
    );
    assert_eq!(clean["eliminated"], Value::Array(vec![]));
    assert_eq!(
        report["pieces_checked"].as_u64().unwrap() + 1,
        clean["pieces_checked"].as_u64().unwrap()
    );
    let text = muster(
        tmp.path(),
        &["check", eliminated.to_str().unwrap(), "--module", vmod.to_str().unwrap()],
    );
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("(1 of them eliminated)"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );

    // A scenario the module does not have is a clear error.
    let out = run(&untouched, &["--scenario", "operation-aid"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("did you mean `operation-aida`")
    );
}

#[test]
fn every_module_and_table_carries_the_checker() {
    for game in
        ["dance-of-war", "example-oasis", "gazala-1942", "gazala-line-1942", "gazala-scs"]
    {
        let mut module = Archive::open(
            std::fs::read(built().join(format!("dist/{game}.vmod"))).unwrap(),
        )
        .unwrap();
        let wasm = module.read("rules/checker.wasm").unwrap();
        assert!(wasm.starts_with(b"\0asm"), "{game}");
        assert_eq!(wasm, muster_package::CHECKER_WASM);
        let web = built().join(format!("dist/{game}/web"));
        assert_eq!(std::fs::read(web.join("checker.wasm")).unwrap(), wasm, "{game}");
        assert_eq!(
            std::fs::read(web.join("ruleset.json")).unwrap(),
            module.read("rules/ruleset.json").unwrap()
        );
        for f in ["index.html", "table.js", "data.json"] {
            assert!(web.join(f).is_file(), "{game}: {f}");
        }
    }
}

/// The Chromium the browser tests drive, from `MUSTER_CHROMIUM`; none (the test is skipped)
/// when it is not set, unless `MUSTER_REQUIRE_BROWSER` asks for it.
pub fn chromium() -> Option<String> {
    let Ok(chromium) = std::env::var("MUSTER_CHROMIUM") else {
        assert!(
            std::env::var_os("MUSTER_REQUIRE_BROWSER").is_none(),
            "MUSTER_CHROMIUM must name a Chromium for the browser test"
        );
        eprintln!("MUSTER_CHROMIUM is not set: .ci/run installs Chromium and sets it");
        return None;
    };
    Some(chromium)
}

/// `muster serve` of the built `game`'s table on a free port, and its address.
pub fn serve(game: &str) -> (Child, String) {
    serve_in(built(), game)
}

/// `muster serve` of a game built in `dir`, and the address it serves.
pub fn serve_in(dir: &Path, game: &str) -> (Child, String) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(["serve", "--game", game, "--port", "0"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url =
        line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().to_string();
    (server, url)
}

#[test]
fn the_table_reports_a_dragged_overstack_in_a_real_browser() {
    let Some(chromium) = chromium() else { return };
    let (_, unit, from, to) = planted_move();
    let (mut server, url) = serve(GAME);
    let shot = std::env::var("MUSTER_TABLE_SCREENSHOT").unwrap_or_default();
    let out = Command::new("node")
        .current_dir(root().join("tests/browser"))
        .env("MUSTER_CHROMIUM", chromium)
        .args(["table.mjs", &url, &unit, &from, &to])
        .args((!shot.is_empty()).then_some(shot))
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("\"ok\":true") && stdout.contains("overstack"), "{stdout}");
}
