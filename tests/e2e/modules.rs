//! VASSAL modules: every seed game packaged, read back by muster and by the independent
//! `pywargame` reader, rebuilt byte for byte, and hostile archives refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use muster_package::archive::{Archive, write_zip};
use muster_package::vassal::piece::decode_add;
use muster_package::vassal::save::{deobfuscate, parse_stream};
use serde_json::Value;

use crate::util::{copy_tree, muster, root};

pub const BUILD: [&str; 8] =
    ["build", "--quiet", "--map-dpi", "40", "--dpi", "20", "--sheet-dpi", "10"];
pub const GAMES: [&str; 5] =
    ["dance-of-war", "example-oasis", "gazala-1942", "gazala-line-1942", "gazala-scs"];

/// One build of every seed game, shared by the tests that only read it.
pub fn built() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("modules");
        let _ = std::fs::remove_dir_all(&dir);
        copy_tree(&root().join("sources"), &dir.join("sources"));
        let out = muster(&dir, &BUILD);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

fn module(game: &str) -> Archive {
    Archive::open(std::fs::read(built().join(format!("dist/{game}.vmod"))).unwrap())
        .unwrap()
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn every_module_opens_in_the_independent_reader() {
    let Ok(python) = std::env::var("MUSTER_PYWARGAME_PYTHON") else {
        assert!(
            std::env::var_os("MUSTER_REQUIRE_PYWARGAME").is_none(),
            "MUSTER_PYWARGAME_PYTHON must name a Python with pywargame"
        );
        eprintln!(
            "MUSTER_PYWARGAME_PYTHON is not set: .ci/run sets it to a Python with pywargame"
        );
        return;
    };
    let script = root().join("tests/pywargame/check_vmod.py");
    for game in GAMES {
        let vmod = built().join(format!("dist/{game}.vmod"));
        let expect = built().join(format!("dist/{game}/module.json"));
        let out = std::process::Command::new(&python)
            .arg(&script)
            .arg(&vmod)
            .arg(&expect)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{game}:\n{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let placed: usize = json(&expect)
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["pieces"].as_array().unwrap().len())
            .sum();
        assert!(
            text.contains(&format!("{placed} pieces placed as expected, 0 problem(s)")),
            "{game}: {text}"
        );
    }
    // The reader does find a piece that is not where it should be.
    let expect = built().join("dist/gazala-scs/module.json");
    let mut doc = json(&expect);
    let piece = doc[0]["pieces"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["map"] == "Main Map")
        .unwrap();
    piece["location"] =
        Value::from(if piece["location"] == "A10.10" { "A10.11" } else { "A10.10" });
    let moved = built().join("moved.json");
    std::fs::write(&moved, serde_json::to_vec(&doc).unwrap()).unwrap();
    let out = std::process::Command::new(&python)
        .arg(&script)
        .arg(built().join("dist/gazala-scs.vmod"))
        .arg(&moved)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("is not at A10.1"));
}

#[test]
fn saved_pieces_stand_on_their_solved_hexes_and_sides() {
    for game in GAMES {
        let out = muster(
            built(),
            &["pieces", &format!("dist/{game}.vmod"), "--format", "json"],
        );
        assert!(out.status.success(), "{game}: {}", String::from_utf8_lossy(&out.stderr));
        let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
        let scenarios =
            std::fs::read_dir(root().join(format!("sources/{game}/scenarios")))
                .unwrap()
                .count();
        assert_eq!(
            listed.as_array().unwrap().len(),
            scenarios,
            "{game}: one setup per scenario"
        );
        for setup in listed.as_array().unwrap() {
            let name = setup["setup"].as_str().unwrap();
            let id = name.rsplit_once('(').unwrap().1.trim_end_matches(".vsav)");
            let solution = json(&built().join(format!("dist/{game}/setups/{id}.json")));
            let pieces = setup["pieces"].as_array().unwrap();
            // Every counter the solver puts on a hex is there, on its side.
            let mut on_map: BTreeMap<(String, String, bool), usize> = BTreeMap::new();
            for p in pieces.iter().filter(|p| p["map"] == "Main Map") {
                let key = (
                    p["unit"].as_str().unwrap().to_string(),
                    p["location"].as_str().unwrap().to_string(),
                    p["reduced"].as_bool().unwrap(),
                );
                *on_map.entry(key).or_default() += 1;
            }
            let mut wanted: BTreeMap<(String, String, bool), usize> = BTreeMap::new();
            for u in solution["units"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|u| u["hex"].is_string())
            {
                let key = (
                    u["unit"].as_str().unwrap().to_string(),
                    u["hex"].as_str().unwrap().to_string(),
                    u["reduced"].as_bool().unwrap(),
                );
                *wanted.entry(key).or_default() += 1;
            }
            assert_eq!(on_map, wanted, "{game} {id}");
            // Everything else waits in a holding box named by turn, area or group.
            let held = pieces.iter().filter(|p| p["map"] == "Holding Boxes").count();
            let off = solution["units"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|u| !u["hex"].is_string())
                .count();
            if off > 0 {
                assert_eq!(held, off, "{game} {id}");
            }
            for p in pieces.iter().filter(|p| p["map"] == "Holding Boxes") {
                assert!(p["location"].is_string(), "{game} {id}: {p}");
            }
        }
    }
    // SCS: a reinforcement box names its turn and entry area; B-map hexes are named B.
    let out = muster(built(), &["pieces", "dist/gazala-scs.vmod"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Reinforcements: turn 13, area D"));
    assert!(
        text.lines().any(|l| l.contains("Main Map") && l.contains(" B5")),
        "B-map hexes"
    );
    assert!(text.contains(" reduced"));
}

fn slots_and_prototypes(archive: &mut Archive) -> (Vec<String>, Value) {
    let text = String::from_utf8(archive.read("buildFile.xml").unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let root = doc.root_element();
    let texts: Vec<String> = root
        .descendants()
        .filter(|n| {
            let t = n.tag_name().name();
            t.ends_with(".PieceSlot") || t.ends_with(".PrototypeDefinition")
        })
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect();
    let attrs = |suffix: &str| -> Vec<BTreeMap<String, String>> {
        root.descendants()
            .filter(|n| n.tag_name().name().ends_with(suffix))
            .map(|n| {
                n.attributes()
                    .map(|a| (a.name().to_string(), a.value().to_string()))
                    .collect()
            })
            .collect()
    };
    let summary = serde_json::json!({
        "dice": attrs(".DiceButton"),
        "decks": root.descendants().filter(|n| n.tag_name().name().ends_with(".DrawPile"))
            .map(|n| (n.attribute("name").unwrap().to_string(), n.children().filter(|c| c.is_element()).count()))
            .collect::<BTreeMap<_, _>>(),
        "turns": attrs(".TurnTracker").len(),
        "next": root.attribute("nextPieceSlotId").unwrap(),
    });
    (texts, summary)
}

#[test]
fn piece_definitions_and_saves_round_trip_through_the_decoder() {
    for game in GAMES {
        let mut archive = module(game);
        let (texts, _) = slots_and_prototypes(&mut archive);
        assert!(!texts.is_empty());
        for t in &texts {
            let added = decode_add(t).unwrap_or_else(|e| panic!("{game}: {e}: {t}"));
            let piece = added.piece.unwrap();
            assert_eq!(&piece.add_command("null"), t, "{game}");
        }
        let setups: Vec<String> =
            archive.names().iter().filter(|n| n.ends_with(".vsav")).cloned().collect();
        for s in setups {
            let mut save = Archive::open(archive.read(&s).unwrap()).unwrap();
            let raw = save.read("savedGame").unwrap();
            assert!(raw.starts_with(b"!VCSK"), "{game} {s}");
            let game_state = parse_stream(&deobfuscate(&raw).unwrap()).unwrap();
            assert!(game_state.unread.is_empty(), "{game} {s}: {:?}", game_state.unread);
            let mut seen = std::collections::BTreeSet::new();
            for a in &game_state.added {
                if let Some(p) = &a.piece {
                    assert_eq!(
                        decode_add(&p.add_command(&a.id)).unwrap().piece.as_ref(),
                        Some(p)
                    );
                    assert!(
                        p.traits.iter().all(|t| t.id() != "prototype"),
                        "{game} {s}: prototypes expanded"
                    );
                    seen.insert(a.id.clone());
                }
                if let Some(st) = &a.stack {
                    // Every piece is added before the stack that lists it.
                    assert!(st.pieces.iter().all(|id| seen.contains(id)), "{game} {s}");
                }
            }
        }
    }
}

#[test]
fn modules_carry_what_each_game_is_played_with() {
    let expect = [
        ("gazala-scs", Some("2"), None),
        ("gazala-1942", Some("1"), Some(("Impulse chits", 0usize))),
        ("gazala-line-1942", Some("1"), Some(("Playing cards", 53))),
        ("dance-of-war", Some("1"), Some(("Command chits", 20))),
    ];
    let loaded = crate::util::seeds();
    for (game, dice, deck) in expect {
        let mut archive = module(game);
        let (_, summary) = slots_and_prototypes(&mut archive);
        assert_eq!(summary["dice"][0]["nDice"].as_str(), dice, "{game}");
        assert_eq!(summary["dice"][0]["nSides"], "6", "{game}");
        assert_eq!(summary["turns"], 1, "{game}: a turn track");
        if let Some((name, count)) = deck {
            let count = if count == 0 {
                // One impulse chit per headquarters and for Rommel (7.0, 10.2).
                let g = loaded.games.iter().find(|g| g.id == game).unwrap();
                g.units
                    .iter()
                    .filter(|u| {
                        matches!(
                            u.category,
                            muster_rules::Category::Hq | muster_rules::Category::Leader
                        )
                    })
                    .count()
            } else {
                count
            };
            assert_eq!(summary["decks"][name], count, "{game}");
        }
        let rules: Value =
            serde_json::from_slice(&archive.read("rules/ruleset.json").unwrap()).unwrap();
        assert_eq!(rules["game"], game);
        assert!(rules["units"].as_array().is_some_and(|u| !u.is_empty()));
        assert!(!archive.contains("savedGame") && !archive.contains("extensiondata"));
        let meta = String::from_utf8(archive.read("moduledata").unwrap()).unwrap();
        assert!(meta.contains("<VassalVersion>3.7.0</VassalVersion>"));
    }
}

#[test]
fn rebuilding_gives_byte_identical_modules() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/gazala-1942"),
        &tmp.path().join("sources/gazala-1942"),
    );
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    let first = muster(tmp.path(), &BUILD);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let read =
        |g: &str| std::fs::read(tmp.path().join(format!("dist/{g}.vmod"))).unwrap();
    let before = (read("gazala-1942"), read("example-oasis"));
    std::fs::remove_dir_all(tmp.path().join("dist")).unwrap();
    std::fs::remove_dir_all(tmp.path().join("maps")).unwrap();
    let second = muster(tmp.path(), &BUILD);
    assert!(second.status.success());
    assert_eq!(before, (read("gazala-1942"), read("example-oasis")));
    // And equal to the shared build of all games: a module depends on its game only.
    assert_eq!(before.0, std::fs::read(built().join("dist/gazala-1942.vmod")).unwrap());
}

#[test]
fn saved_games_in_every_header_form_are_read_and_escaping_archives_refused() {
    let mut archive = module("example-oasis");
    let vsav = archive.read("meeting.vsav").unwrap();
    let mut inner = Archive::open(vsav).unwrap();
    let text = deobfuscate(&inner.read("savedGame").unwrap()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let xor: Vec<u8> = text.bytes().map(|b| b ^ 0x21).collect();
    let forms: [(&str, Vec<u8>); 3] = [
        ("plain", text.as_bytes().to_vec()),
        ("vobs", [b"VOBS".as_slice(), &[0x21], &xor].concat()),
        ("bang-vobs", [b"!VOBS".as_slice(), &[0x21], &xor].concat()),
    ];
    let module_path = built().join("dist/example-oasis.vmod");
    for (name, saved) in forms {
        let mut files = BTreeMap::new();
        files.insert("savedGame".to_string(), saved);
        let path = tmp.path().join(format!("{name}.vsav"));
        std::fs::write(&path, write_zip(&files).unwrap()).unwrap();
        let out = muster(
            tmp.path(),
            &[
                "pieces",
                path.to_str().unwrap(),
                "--module",
                module_path.to_str().unwrap(),
            ],
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(
            stdout.contains("6 piece(s)") && stdout.contains("09.02"),
            "{name}: {stdout}"
        );
    }

    // A zip whose entry would land outside the folder it is unpacked to.
    let mut raw =
        write_zip(&BTreeMap::from([("savedGame".to_string(), b"x".to_vec())])).unwrap();
    let at = raw.windows(9).position(|w| w == b"savedGame").unwrap();
    let at2 = raw.windows(9).rposition(|w| w == b"savedGame").unwrap();
    raw[at..at + 9].copy_from_slice(b"../../evi");
    raw[at2..at2 + 9].copy_from_slice(b"../../evi");
    let evil = tmp.path().join("evil.vsav");
    std::fs::write(&evil, raw).unwrap();
    let out = muster(tmp.path(), &["pieces", evil.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("evil.vsav") && err.contains("escape"), "{err}");
    let out = muster(
        tmp.path(),
        &["pieces", tmp.path().join("missing.vsav").to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
}
