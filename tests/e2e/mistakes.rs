//! A corpus of publisher mistakes, each a small change to the example game: for each,
//! `build --strict` exits 1 (findings) or 2 (unusable input), names the mistake with its
//! file, line and column, and leaves every previous output byte for byte as it was.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::util::{copy_tree, files_under, muster, root};

const GAME: &str = "sources/example-oasis/game.yaml";
const OOB: &str = "sources/example-oasis/oob.yaml";
const COUNTERS: &str = "sources/example-oasis/counters.yaml";
const RULES: &str = "sources/example-oasis/rules.yaml";
const MAP: &str = "sources/example-oasis/maps/oasis.yaml";
const SCENARIO: &str = "sources/example-oasis/scenarios/meeting.yaml";

/// One mistake: in `file`, `find` replaced by `put`; no `find` writes `put` as the whole
/// file, neither removes it.
struct Mistake {
    name: &'static str,
    file: &'static str,
    find: Option<&'static str>,
    put: Option<&'static str>,
    /// The exit code of `build --strict`.
    exit: i32,
    /// `file:line:column` of the finding, when it has a place in a file.
    at: Option<&'static str>,
    /// The start of its message.
    message: &'static str,
}

#[rustfmt::skip]
const MISTAKES: &[Mistake] = &[
    Mistake { name: "art-sheet-turned-too-far", file: COUNTERS, find: Some("    rotation: 1\n"), put: Some("    rotation: 1e308\n"), exit: 2, at: Some("sources/example-oasis/counters.yaml:20:15"), message: "a turn of 1e308 degrees is out of range: expected -360 to 360" },
    Mistake { name: "legend-beyond-sheet", file: MAP, find: Some("size: {width_in: 14, height_in: 8.5}"), put: Some("size: {width_in: 14, height_in: 8.5}\nlegend_at: [13, 3]"), exit: 1, at: Some("sources/example-oasis/maps/oasis.yaml:5:12"), message: "`legend_at` puts the legend of map `oasis` (1.82 by 5.72 inches) beyond its sheet of 14.00 by 8.50 inches" },
    Mistake { name: "sides-alike", file: GAME, find: Some(r##"{id: north, name: North, stripe: "#1a1a1a"}"##), put: Some("{id: north, name: North}"), exit: 1, at: Some("sources/example-oasis/game.yaml:12:56"), message: "the counters of North (Northland, #4f7db3, L* 51.4) and South (Southland, #b3674f, L* 51.7) differ by 0.3 in lightness" },
    Mistake { name: "ragged-table-row", file: GAME, find: Some(r#"["1-2", "AR", "DR", "DR"]"#), put: Some(r#"["1-2", "AR", "DR"]"#), exit: 1, at: Some("sources/example-oasis/game.yaml:65:9"), message: "row 1 of the table `Combat results` (example) has 3 cells, its header 4" },
    Mistake { name: "art-reference-misspelt", file: "sources/example-oasis/art/1-1-inf-bn-front.svg", find: Some("<rect width=\"120\" height=\"120\" fill=\"#3d6a9e\"/>"), put: Some("<rect id=\"field\" width=\"120\" height=\"120\" fill=\"#3d6a9e\"/><use href=\"#feild\"/>"), exit: 2, at: Some("sources/example-oasis/art/1-1-inf-bn-front.svg:3:72"), message: "art/1-1-inf-bn-front.svg refers to `#feild`, which no element of it has as its id" },
    Mistake { name: "legend-over-hexes", file: MAP, find: Some("size: {width_in: 14, height_in: 8.5}"), put: Some("size: {width_in: 14, height_in: 8.5}\nlegend_at: [5, 3]"), exit: 1, at: Some("sources/example-oasis/maps/oasis.yaml:5:12"), message: "`legend_at` puts the legend of map `oasis` over hexes" },
    Mistake { name: "typo-unit", file: SCENARIO, find: Some("2/1 Arm Bn"), put: Some("2/1 Arm Bm"), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:12:58"), message: "`2/1 Arm Bm` names no counter of the manifest; the nearest is `2/1 Arm" },
    Mistake { name: "off-map-hex", file: SCENARIO, find: Some("\"09.02\""), put: Some("\"19.02\""), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:11:20"), message: "`1 Bde HQ` not placed (held in `Not placed`): hex `19.02` lies off map" },
    Mistake { name: "bad-hex-label", file: SCENARIO, find: Some("\"09.02\""), put: Some("\"9x02\""), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:11:20"), message: "`1 Bde HQ` not placed (held in `Not placed`): `9x02` fits no placement" },
    Mistake { name: "prohibited-hex", file: SCENARIO, find: Some("\"09.02\""), put: Some("\"08.01\""), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:11:20"), message: "`1 Bde HQ` not placed (held in `Not placed`): 08.01 is sea, which no u" },
    Mistake { name: "unparsable-location", file: SCENARIO, find: Some("\"w/i 1 of 09.03\""), put: Some("\"near 09.03\""), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:12:20"), message: "`1/1 Inf Bn`, `2/1 Arm Bn` not placed (held in `Not placed`): `near 09" },
    Mistake { name: "unparsable-location-range", file: SCENARIO, find: Some("\"w/i 1 of 09.03\""), put: Some("\"w/i -2 of 09.03\""), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:12:20"), message: "`1/1 Inf Bn`, `2/1 Arm Bn` not placed (held in `Not placed`): `w/i -2 " },
    Mistake { name: "duplicate-unit", file: SCENARIO, find: Some("1/1 Inf Bn, 2/1 Arm Bn"), put: Some("1/1 Inf Bn, 2/1 Arm Bn, 1/1 Inf Bn"), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:12:70"), message: "`1/1 Inf Bn` is listed again, after line 12 (section E.21); the manife" },
    Mistake { name: "other-side", file: SCENARIO, find: Some("1/7 Inf Bn, 2/7 Inf Bn"), put: Some("1/7 Inf Bn, 2/7 Inf Bn, 1/1 Inf Bn"), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:16:80"), message: "`1/1 Inf Bn` is listed in the South setup, but the manifest's `1/1 Inf" },
    Mistake { name: "wrong-reduced-mark", file: SCENARIO, find: Some("1/1 Inf Bn, 2/1"), put: Some("1/1 Inf Bn (r), 2/1"), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:12:58"), message: "`(r)` is no mark of this game's notation, so it is not read (it declar" },
    Mistake { name: "reduced-single-sided", file: SCENARIO, find: Some("2/7 Inf Bn\""), put: Some("2/7 Inf Bn (R)\""), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:16:68"), message: "`2/7 Inf Bn` is marked as starting reduced, but its counter is printed on one" },
    Mistake { name: "missing-comma", file: SCENARIO, find: Some("1/1 Inf Bn, 2/1 Arm Bn"), put: Some("1/1 Inf Bn 2/1 Arm Bn"), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:12:46"), message: "`1/1 Inf Bn 2/1 Arm Bn` reads as two units with a missing comma: `1/1 " },
    Mistake { name: "unknown-side", file: SCENARIO, find: Some("side: south"), put: Some("side: sud"), exit: 2, at: Some("sources/example-oasis/scenarios/meeting.yaml:13:11"), message: "unknown side `sud`" },
    Mistake { name: "unknown-scenario-key", file: SCENARIO, find: Some("first_player: north"), put: Some("first_playr: north"), exit: 2, at: Some("sources/example-oasis/scenarios/meeting.yaml:5:1"), message: "unknown field `first_playr`" },
    Mistake { name: "tab-indent", file: SCENARIO, find: Some("  - side: north"), put: Some("\t- side: north"), exit: 2, at: Some("sources/example-oasis/scenarios/meeting.yaml:8:2"), message: "tabs disallowed within this context (block indentation)" },
    Mistake { name: "yaml-syntax", file: SCENARIO, find: Some("title: Meeting at the oasis (example)"), put: Some("title: [Meeting"), exit: 2, at: Some("sources/example-oasis/scenarios/meeting.yaml:4:8"), message: "illegal placement of ':' indicator" },
    Mistake { name: "empty-scenario", file: SCENARIO, find: None, put: Some(""), exit: 2, at: Some("sources/example-oasis/scenarios/meeting.yaml:1:1"), message: "failed to load the file (it is empty)" },
    Mistake { name: "missing-counters", file: COUNTERS, find: None, put: None, exit: 2, at: None, message: "failed to load the game (missing sources/example-oasis/counters.yaml)" },
    Mistake { name: "empty-counters", file: COUNTERS, find: None, put: Some(""), exit: 2, at: Some("sources/example-oasis/counters.yaml:1:1"), message: "failed to load the file (it is empty)" },
    Mistake { name: "missing-oob", file: OOB, find: None, put: None, exit: 2, at: None, message: "failed to load the game (missing sources/example-oasis/oob.yaml)" },
    Mistake { name: "empty-oob", file: OOB, find: None, put: Some("# nothing\n"), exit: 2, at: Some("sources/example-oasis/oob.yaml:1:1"), message: "failed to load the file (it is empty)" },
    Mistake { name: "missing-game", file: GAME, find: None, put: None, exit: 1, at: None, message: "skipped sources/example-oasis: it is not a game (it has no game.yaml)" },
    Mistake { name: "counter-unknown-formation", file: COUNTERS, find: Some("formation: 7-bde"), put: Some("formation: 8-bde"), exit: 2, at: Some("sources/example-oasis/counters.yaml:8:16"), message: "unknown formation `8-bde`" },
    Mistake { name: "counter-unknown-value", file: COUNTERS, find: Some("front: {movement: 8}}"), put: Some("front: {movment: 8}}"), exit: 2, at: Some("sources/example-oasis/counters.yaml:5:19"), message: "unknown counter value `movment`" },
    Mistake { name: "oob-unknown-size", file: OOB, find: Some("size: brigade}"), put: Some("size: brigde}"), exit: 2, at: Some("sources/example-oasis/oob.yaml:3:82"), message: "unknown unit size `brigde`" },
    Mistake { name: "oob-unknown-nationality", file: OOB, find: Some("nationality: northland"), put: Some("nationality: nordland"), exit: 2, at: Some("sources/example-oasis/oob.yaml:3:65"), message: "unknown nationality `nordland`" },
    Mistake { name: "oob-wrong-side", file: OOB, find: Some("side: north, nationality: northland"), put: Some("side: west, nationality: northland"), exit: 2, at: Some("sources/example-oasis/oob.yaml:3:45"), message: "unknown side `west`" },
    Mistake { name: "game-unknown-terrain-rgb", file: GAME, find: Some("rgb: \"#efe6c8\""), put: Some("rgb: \"#efe6c\""), exit: 2, at: Some("sources/example-oasis/game.yaml:26:35"), message: "colour `#efe6c` is not a hex colour" },
    Mistake { name: "game-bad-symbol", file: GAME, find: Some("symbol: armor"), put: Some("symbol: tank"), exit: 2, at: Some("sources/example-oasis/game.yaml:19:38"), message: "unknown unit symbol `tank`" },
    Mistake { name: "game-duplicate-side", file: GAME, find: Some("  - {id: south, name: South}"), put: Some("  - {id: north, name: South}"), exit: 2, at: Some("sources/example-oasis/game.yaml:10:10"), message: "duplicate side id `north`" },
    Mistake { name: "map-terrain-typo", file: MAP, find: Some("{terrain: rough,"), put: Some("{terrain: ruff,"), exit: 2, at: Some("sources/example-oasis/maps/oasis.yaml:17:17"), message: "unknown terrain `ruff`" },
    Mistake { name: "map-columns-zero", file: MAP, find: Some("columns: 12"), put: Some("columns: 0"), exit: 2, at: Some("sources/example-oasis/maps/oasis.yaml:6:10"), message: "map `oasis` has 0 columns" },
    Mistake { name: "game-unknown-terrain-symbol", file: GAME, find: Some("symbol: palms}"), put: Some("symbol: palm}"), exit: 2, at: Some("sources/example-oasis/game.yaml:31:54"), message: "unknown variant `palm`" },
    Mistake { name: "map-river-too-wide", file: MAP, find: Some("  - kind: river\n    section: \"E.5\""), put: Some("  - kind: river\n    width_in: 2\n    section: \"E.5\""), exit: 2, at: Some("sources/example-oasis/maps/oasis.yaml:31:15"), message: "a river 2 inches wide" },
    Mistake { name: "map-width-of-a-road", file: MAP, find: Some("{kind: road, hexes:"), put: Some("{kind: road, width_in: 0.1, hexes:"), exit: 2, at: Some("sources/example-oasis/maps/oasis.yaml:27:28"), message: "only a river's width can be set" },
    Mistake { name: "map-hex-off-map", file: MAP, find: Some("\"03.04\", \"03.05\", \"02.05\""), put: Some("\"03.04\", \"03.05\", \"02.55\""), exit: 2, at: Some("sources/example-oasis/maps/oasis.yaml:17:50"), message: "hex `02.55` lies off map oasis (row 55 is outside 1 to 10)" },
    Mistake { name: "rules-prohibited-typo", file: RULES, find: Some("prohibited_terrain: [sea]"), put: Some("prohibited_terrain: [ses]"), exit: 2, at: Some("sources/example-oasis/rules.yaml:12:22"), message: "unknown terrain `ses`" },
    Mistake { name: "rules-missing-stacking", file: RULES, find: None, put: None, exit: 1, at: None, message: "the setups of example-oasis are not checked against stacking rules (th" },
    Mistake { name: "rules-unknown-key", file: RULES, find: Some("opposing_units: forbidden"), put: Some("opposing_unit: forbidden"), exit: 2, at: Some("sources/example-oasis/rules.yaml:10:1"), message: "unknown field `opposing_unit`" },
    Mistake { name: "scenario-unknown-first", file: SCENARIO, find: Some("first_player: north"), put: Some("first_player: east"), exit: 2, at: Some("sources/example-oasis/scenarios/meeting.yaml:5:15"), message: "unknown side `east`" },
    Mistake { name: "unknown-unit-entirely", file: SCENARIO, find: Some("7 Bde HQ, 1/7"), put: Some("7 Bde HQ, 9/9 Cav Bn, 1/7"), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:16:56"), message: "`9/9 Cav Bn` names no counter of the manifest" },
    Mistake { name: "counter-other-side", file: COUNTERS, find: Some("{printed: 1/1 Inf Bn, steps: 2"), put: Some("{printed: 1/1 Inf Bn, nationality: southland, steps: 2"), exit: 1, at: Some("sources/example-oasis/counters.yaml:6:19"), message: "`1/1 Inf Bn` is listed under the North side, but its nationality, Southland, is of the South side" },
    Mistake { name: "stray-yaml", file: "sources/example-oasis/notes.yaml", find: None, put: Some("a: 1\n"), exit: 1, at: None, message: "sources/example-oasis/notes.yaml is not a file muster reads" },
    Mistake { name: "not-a-game", file: "sources/drafts/readme.txt", find: None, put: Some("draft\n"), exit: 1, at: None, message: "skipped sources/drafts: it is not a game (it has no game.yaml)" },
    Mistake { name: "errata-unknown-kind", file: "sources/example-oasis/errata.yaml", find: None, put: Some("known:\n  - {kind: unknown-unt, subject: x}\n"), exit: 2, at: Some("sources/example-oasis/errata.yaml:2:12"), message: "unknown variant `unknown-unt`" },
    Mistake { name: "setup-and-reinforcement", file: SCENARIO, find: Some("      - {location: \"w/i 2 of 03.08\", units: \"7 Bde HQ, 1/7 Inf Bn, 2/7 Inf Bn\"}"), put: Some("      - {location: \"w/i 2 of 03.08\", units: \"7 Bde HQ, 1/7 Inf Bn, 2/7 Inf Bn\"}\nreinforcements:\n  - {turn: 2, side: north, area: the west edge, section: \"E.23\", units: \"2/1 Arm Bn\"}"), exit: 1, at: Some("sources/example-oasis/scenarios/meeting.yaml:18:74"), message: "`2/1 Arm Bn` is set up at start and also arrives as a reinforcement (a" },
];

const BUILD: [&str; 8] =
    ["build", "--map-dpi", "10", "--dpi", "20", "--sheet-dpi", "10", "--strict"];

/// Every output file under `dir` with its bytes.
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    ["counters", "maps", "dist"]
        .iter()
        .flat_map(|top| files_under(&dir.join(top)))
        .map(|p| {
            (p.strip_prefix(dir).unwrap().display().to_string(), fs::read(&p).unwrap())
        })
        .collect()
}

fn apply(dir: &Path, m: &Mistake) {
    let path = dir.join(m.file);
    match (m.find, m.put) {
        (None, None) => fs::remove_file(&path).unwrap(),
        (None, Some(text)) => {
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, text).unwrap();
        }
        (Some(find), put) => {
            let text = fs::read_to_string(&path).unwrap();
            assert!(text.contains(find), "{}: `{find}` is not in {}", m.name, m.file);
            fs::write(&path, text.replacen(find, put.unwrap_or_default(), 1)).unwrap();
        }
    }
}

#[test]
fn every_mistake_of_the_corpus_is_named_where_it_is_and_leaves_the_outputs() {
    assert!(MISTAKES.len() >= 40);
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let game = root().join("sources/example-oasis");
    copy_tree(&game, &d.join("sources/example-oasis"));
    let out = muster(d, &BUILD);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let before = outputs(d);
    assert!(before.len() > 10);
    let mut failures = Vec::new();
    for m in MISTAKES {
        let _ = fs::remove_dir_all(d.join("sources"));
        copy_tree(&game, &d.join("sources/example-oasis"));
        apply(d, m);
        let out = muster(d, &BUILD);
        let err = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(m.exit) {
            failures.push(format!(
                "{}: exit {:?}, expected {}\n{err}",
                m.name,
                out.status.code(),
                m.exit
            ));
            continue;
        }
        let shown = match m.at {
            Some(at) => err
                .lines()
                .any(|l| l.contains(&format!("{at}: ")) && l.contains(m.message)),
            None => err.contains(m.message),
        };
        if !shown {
            failures
                .push(format!("{}: no `{:?}: {}` in\n{err}", m.name, m.at, m.message));
        }
        if outputs(d) != before {
            failures.push(format!("{}: the previous outputs changed", m.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
