//! The play layer: what every module carries besides maps, counters and setups (help,
//! charts, dead piles, counter commands and their reports, map tools), read from the
//! archive, and what a player does with it in the real VASSAL 3.7.26, driven by muster's
//! own driver (`tests/vassal/MusterPlay.java`), one engine run per module.

use std::collections::BTreeMap;

use muster_package::archive::Archive;
use muster_package::vassal::piece::decode_add;
use serde_json::Value;

use crate::modules::{GAMES, built};
use crate::vassal::{play, tools};

/// The buildFile of a built module and its archive.
fn module(game: &str) -> (Archive, String) {
    let mut archive =
        Archive::open(std::fs::read(built().join(format!("dist/{game}.vmod"))).unwrap())
            .unwrap();
    let text = String::from_utf8(archive.read("buildFile.xml").unwrap()).unwrap();
    (archive, text)
}

/// The trait ids of a prototype, outermost first.
fn prototype_traits(doc: &roxmltree::Document, name: &str) -> Vec<String> {
    let node = doc
        .descendants()
        .find(|n| {
            n.tag_name().name() == "VASSAL.build.module.PrototypeDefinition"
                && n.attribute("name") == Some(name)
        })
        .unwrap_or_else(|| panic!("a prototype {name}"));
    let piece = decode_add(node.text().unwrap()).unwrap().piece.unwrap();
    piece.traits.iter().map(|t| t.kind.clone()).collect()
}

fn elements<'a>(
    doc: &'a roxmltree::Document,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    let tag = format!("VASSAL.build.{class}");
    doc.descendants().filter(|n| n.tag_name().name() == tag).collect()
}

#[test]
fn every_module_carries_the_play_layer() {
    // (game, charts the rulebook prints, documents under docs/, the module version)
    let expect = [
        ("dance-of-war", vec!["Sequence of Play", "Victory Conditions"], 0, "1.0.0"),
        (
            "example-oasis",
            vec!["Sequence of Play", "Combat results", "Terrain (example)"],
            2,
            "2.0.0",
        ),
        (
            "gazala-1942",
            vec![
                "Sequence of Play",
                "Command Limits Table (number of chits placed in container)",
            ],
            0,
            "1.0.0",
        ),
        ("gazala-line-1942", vec!["Terrain Costs"], 0, "1.0.0"),
        ("gazala-scs", vec!["Sequence of Play"], 0, "1.0.0"),
    ];
    assert_eq!(expect.len(), GAMES.len());
    let loaded = crate::util::seeds();
    for (game, charts, documents, version) in expect {
        let (mut archive, text) = module(game);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let g = loaded.games.iter().find(|g| g.id == game).unwrap();
        // Help: the about screen, the page on playing the module, one entry per document.
        let about = elements(&doc, "module.documentation.AboutScreen");
        assert_eq!(about.len(), 1, "{game}");
        assert!(
            archive
                .contains(&format!("images/{}", about[0].attribute("fileName").unwrap()))
        );
        let help = elements(&doc, "module.documentation.HelpFile");
        let pdfs = elements(&doc, "module.documentation.BrowserPDFFile");
        assert_eq!(help.len() + pdfs.len(), 1 + documents, "{game}");
        for h in &help {
            assert!(archive.contains(h.attribute("fileName").unwrap()), "{game}");
        }
        for p in &pdfs {
            let bytes = archive.read(p.attribute("pdfFile").unwrap()).unwrap();
            assert!(bytes.starts_with(b"%PDF-"), "{game}");
        }
        let page = String::from_utf8(archive.read("help/module.html").unwrap()).unwrap();
        for command in ["Eliminate", "Clone", "Delete", "Mark Moved", "Movement Trail"] {
            assert!(page.contains(command), "{game}: the help page names {command}");
        }
        // Charts: the printed ones, in order, each an image of the module.
        let shown: Vec<&str> =
            elements(&doc, "widget.Chart")
                .iter()
                .map(|c| {
                    assert!(archive.contains(&format!(
                        "images/{}",
                        c.attribute("fileName").unwrap()
                    )));
                    c.attribute("chartName").unwrap()
                })
                .collect();
        assert_eq!(shown, charts, "{game}");
        assert_eq!(elements(&doc, "module.ChartWindow").len(), 1, "{game}");
        // Version, and leading zeros kept.
        assert_eq!(doc.root_element().attribute("version"), Some(version), "{game}");
        let meta = String::from_utf8(archive.read("moduledata").unwrap()).unwrap();
        assert!(meta.contains(&format!("<version>{version}</version>")), "{game}");
        let options = &elements(&doc, "module.GlobalOptions")[0];
        assert_eq!(options.attribute("storeLeadingZeroIntegersAsStrings"), Some("true"));
        // Map tools: on the main map when the game has one, the stack viewer on every map.
        let maps = elements(&doc, "module.Map");
        let main = maps.iter().find(|m| m.attribute("mapName") == Some("Main Map"));
        assert_eq!(main.is_some(), g.board.is_some(), "{game}");
        if let Some(main) = main {
            assert_eq!(main.attribute("markMoved"), Some("Always"), "{game}");
            for tool in
                ["GlobalMap", "HidePiecesButton", "ImageSaver", "Flare", "LOS_Thread"]
            {
                let tag = format!("VASSAL.build.module.map.{tool}");
                assert!(
                    main.children().any(|c| c.tag_name().name() == tag),
                    "{game}: {tool}"
                );
            }
        }
        for m in &maps {
            let viewer = m
                .children()
                .find(|c| c.tag_name().name().ends_with(".CounterDetailViewer"))
                .unwrap_or_else(|| panic!("{game}: a stack viewer on every map"));
            assert_eq!(
                viewer.attribute("minDisplayPieces"),
                Some("0"),
                "{game}: empty hexes too"
            );
            assert_eq!(viewer.attribute("emptyHexReportForma"), Some("$LocationName$"));
        }
        // Dead piles: a box per side on the Dead Pile map, as ruleset.json states them.
        let rules: Value =
            serde_json::from_slice(&archive.read("rules/ruleset.json").unwrap()).unwrap();
        let piles = rules["dead_piles"].as_array().unwrap();
        assert_eq!(piles.len(), g.meta.sides.len(), "{game}");
        let dead =
            maps.iter().find(|m| m.attribute("mapName") == Some("Dead Pile")).unwrap();
        let zones: Vec<&str> = dead
            .descendants()
            .filter(|n| n.tag_name().name().ends_with(".Zone"))
            .map(|z| z.attribute("name").unwrap())
            .collect();
        for (pile, side) in piles.iter().zip(&g.meta.sides) {
            assert_eq!(pile["side"], side.id.v.as_str());
            assert_eq!(pile["map"], "Dead Pile");
            assert!(
                zones.contains(&pile["location"].as_str().unwrap()),
                "{game}: {zones:?}"
            );
            let unit = prototype_traits(&doc, &format!("Unit {}", side.id.v));
            assert!(
                unit[0].starts_with("report;") && unit[0].contains("eliminated"),
                "{unit:?}"
            );
            assert!(
                unit[1].starts_with("sendto;Eliminate;69,130;Dead Pile;")
                    && unit[1].contains(pile["location"].as_str().unwrap()),
                "{unit:?}"
            );
        }
        // Every counter's commands, in one prototype.
        let counter: Vec<String> = prototype_traits(&doc, "Counter")
            .iter()
            .map(|t| t.split(';').next().unwrap().to_string())
            .collect();
        // After the live rule checks where the game has a map (tests/e2e/live_rules.rs),
        // and the `Strength` label where a scenario starts counters with strengths of
        // their own (Gazala 1942's split battalions).
        let (checks, commands) = counter.split_at(counter.len() - 5);
        let labels = usize::from(checks.last().map(String::as_str) == Some("label"));
        let strengths = g.scenarios.iter().any(|s| {
            muster_check::solve(g, &s.id.v).units.iter().any(|u| !u.values.is_empty())
        });
        assert_eq!(labels == 1, strengths, "{game}: a Strength label where one is used");
        let checks = &checks[..checks.len() - labels];
        assert_eq!(
            commands,
            ["clone", "delete", "markmoved", "footprint", "piece"],
            "{game}"
        );
        if g.board.is_some() {
            assert_eq!(checks.first().map(String::as_str), Some("macro"), "{game}");
            assert_eq!(checks.last().map(String::as_str), Some("emb2"), "{game}");
        } else {
            assert!(checks.is_empty(), "{game}: {checks:?}");
        }
        let mut uses: BTreeMap<String, usize> = BTreeMap::new();
        for slot in elements(&doc, "widget.PieceSlot") {
            let piece = decode_add(slot.text().unwrap()).unwrap().piece.unwrap();
            for t in piece.traits.iter().filter(|t| t.id() == "prototype") {
                *uses.entry(t.kind.clone()).or_default() += 1;
            }
        }
        if g.units.iter().any(|u| muster_render::faces(u).len() > 1) {
            let two = prototype_traits(&doc, "Two-sided");
            assert!(two[0].starts_with("hideCmd;") && two[0].contains("Step_Level == 2"));
            assert!(
                two[1].contains("flipped") && two[2].contains("step loss"),
                "{two:?}"
            );
            assert!(uses.contains_key("prototype;Two-sided"), "{game}");
        }
        assert!(
            uses.keys().any(|k| k.starts_with("prototype;Unit ")),
            "{game}: {uses:?}"
        );
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|s| s.as_str().unwrap_or_default().to_string())
        .collect()
}

/// The location `module.json` gives `unit` in `setup`.
fn location(game: &str, setup: &str, unit: &str) -> String {
    let doc: Value = serde_json::from_slice(
        &std::fs::read(built().join(format!("dist/{game}/module.json"))).unwrap(),
    )
    .unwrap();
    let setup = doc.as_array().unwrap().iter().find(|s| s["file"] == setup).unwrap();
    let piece = setup["pieces"].as_array().unwrap().iter().find(|p| p["unit"] == unit);
    piece.unwrap()["location"].as_str().unwrap().to_string()
}

/// The first action of `run` named `action` whose argument starts with `argument`.
fn find<'a>(run: &'a crate::vassal::Run, action: &str, argument: &str) -> &'a Value {
    run.report["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["action"] == action && a["argument"].as_str().unwrap().starts_with(argument)
        })
        .unwrap_or_else(|| panic!("no {action} {argument} in {}", run.report["actions"]))
}

#[test]
fn players_use_the_play_layer_in_vassal() {
    let Some(tools) = tools() else { return };
    let (reduce, flip, clone) =
        ("xx-it-corps-1-132-t", "xx-it-corps-2-132-t", "xx-it-corps-3-132-t");
    let hex = location("gazala-1942", "operation-aida.vsav", reduce);
    assert!(hex.starts_with('0'), "a hex label with a leading zero: {hex}");
    let keys = [
        format!("{reduce}=Step loss"),
        format!("{flip}=Flip"),
        format!("{reduce}=Eliminate"),
        format!("{clone}=Clone"),
    ];
    let expr = format!("{flip}={{LocationName}}");
    let mut args =
        vec!["--setup", "operation-aida.vsav", "--chart", "--docs", "--viewer", flip];
    for k in &keys {
        args.extend(["--key", k.as_str()]);
    }
    args.extend(["--turns", "32", "--expr", &expr]);
    let (g, oasis) = std::thread::scope(|s| {
        let g = s.spawn(|| {
            play(
                &tools,
                &built().join("dist/gazala-1942.vmod"),
                &args,
                "play-gazala-1942",
            )
        });
        let oasis = s.spawn(|| {
            play(
                &tools,
                &built().join("dist/example-oasis.vmod"),
                &["--setup", "meeting.vsav", "--chart", "--docs", "--turns", "9"],
                "play-example-oasis",
            )
        });
        (g.join().unwrap(), oasis.join().unwrap())
    });
    g.assert_clean("gazala-1942");
    oasis.assert_clean("example-oasis");

    // The chart window opens with every chart, each image as VASSAL loads it.
    let window = &find(&g, "chart", "")["windows"][0];
    assert_eq!(window["name"], "Charts");
    assert_eq!(window["visible"], true);
    let charts = window["charts"].as_array().unwrap();
    assert_eq!(charts.len(), 2, "{charts:?}");
    for c in charts {
        assert!(
            c["width"].as_u64().unwrap() > 100 && c["height"].as_u64().unwrap() > 100,
            "{c}"
        );
        assert_eq!(c["shown"], true);
    }
    // Help: the about screen's image and the page on playing the module.
    let entries = find(&g, "docs", "")["entries"].as_array().unwrap();
    assert_eq!(entries[0]["class"], "AboutScreen");
    assert!(entries[0]["width"].as_u64().unwrap() > 100);
    assert!(entries[1]["text"].as_str().unwrap().contains("Eliminate"));
    // The mouse-over viewer names the hex of a stack and an empty hex.
    let viewer = find(&g, "viewer", flip);
    assert_eq!(viewer["stack_text"], hex.as_str());
    assert_eq!(viewer["empty_text"], viewer["empty_location"]);
    assert!(!viewer["empty_text"].as_str().unwrap().is_empty());

    // Step loss: the reduced side, a report line, and no second step loss offered.
    let loss = find(&g, "key", &keys[0]);
    assert!(
        strings(&loss["changes"]).iter().any(|c| c.ends_with("Step_Level 1 -> 2")),
        "{loss}"
    );
    assert_eq!(strings(&loss["chat"]), [format!("* {hex}: 1/132 (T) takes a step loss")]);
    let flipped = find(&g, "key", &keys[1]);
    assert!(
        strings(&flipped["chat"]).iter().any(|l| l.ends_with("2/132 (T) flipped")),
        "{flipped}"
    );
    // Eliminate: into the Axis dead pile, reported from where it stood.
    let gone = find(&g, "key", &keys[2]);
    assert!(!strings(&gone["menu"]).contains(&"Step loss".to_string()), "{gone}");
    assert_eq!(gone["after_map"], "Dead Pile");
    assert_eq!(gone["after_location"], "Axis dead pile");
    assert_eq!(strings(&gone["chat"]), [format!("* {hex}: 1/132 (T) eliminated")]);
    let pieces = g.report["game"]["pieces"].as_array().unwrap();
    assert!(
        pieces
            .iter()
            .any(|p| p["unit_id"] == reduce && p["location"] == "Axis dead pile")
    );
    // Clone: a second counter of the same unit on the same hex.
    let cloned = find(&g, "key", &keys[3]);
    assert_eq!(
        (cloned["count_before"].as_u64(), cloned["count_after"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(cloned["after_location"], cloned["before_location"]);

    // Gazala 1942 (2.4): one turn a day, 23 May to 22 June; pressing on stays on 22 June.
    let turns = strings(&find(&g, "turns", "32")["turns"]);
    assert_eq!(turns.len(), 32);
    assert_eq!(turns[0], "27 May", "Operation AIDA begins on 26 May (13.11): {turns:?}");
    assert_eq!(turns[29], "22 June", "{turns:?}");
    assert!(turns[29..].iter().all(|t| t == "22 June"), "{turns:?}");
    assert!(!turns.iter().any(|t| t == "23 May"), "the track never wraps: {turns:?}");
    let chat = strings(&find(&g, "turns", "32")["chat"]);
    assert!(
        chat.iter().any(|l| l.contains("22 June is the last turn (2.4)")),
        "{chat:?}"
    );
    // VASSAL keeps the zero of `0807` when an expression reads the location.
    assert_eq!(find(&g, "expr", flip)["value"], hex.as_str());

    // The example game: a chart image the publisher provides, its documents, eight turns.
    let charts =
        find(&oasis, "chart", "")["windows"][0]["charts"].as_array().unwrap().clone();
    let image = charts.iter().find(|c| c["name"] == "Terrain (example)").unwrap();
    assert_eq!(
        (image["width"].as_u64(), image["height"].as_u64()),
        (Some(320), Some(160))
    );
    let entries = find(&oasis, "docs", "")["entries"].as_array().unwrap().clone();
    let kinds: Vec<&str> = entries.iter().map(|e| e["class"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["AboutScreen", "HelpFile", "HelpFile", "BrowserPDFFile"]);
    assert!(entries[2]["text"].as_str().unwrap().contains("Oasis: quick start"));
    assert_eq!(entries[3]["pdf"], true);
    let counted = find(&oasis, "turns", "9");
    let turns = strings(&counted["turns"]);
    assert_eq!(turns[6..], ["Turn 8", "Turn 8", "Turn 8"], "{turns:?}");
    assert_eq!(counted["property"], "8", "the tracker's property stays at the last turn");
}
