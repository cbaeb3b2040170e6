//! The play layer in the real VASSAL 3.7.26: what a player does with a module besides
//! loading a setup and dragging counters, driven by muster's own driver
//! (`tests/vassal/MusterPlay.java`) one engine run per module.

use serde_json::Value;

use crate::modules::built;
use crate::vassal::{play, tools};

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

#[test]
fn turn_tracks_end_at_their_last_turn_and_hex_labels_keep_their_zeros() {
    let Some(tools) = tools() else { return };
    let unit = "xx-it-corps-1-132-t";
    let hex = location("gazala-1942", "operation-aida.vsav", unit);
    assert!(hex.starts_with('0'), "a hex label with a leading zero: {hex}");
    let expr = format!("{unit}={{LocationName}}");
    let (days, counted) = std::thread::scope(|s| {
        let days = s.spawn(|| {
            play(
                &tools,
                &built().join("dist/gazala-1942.vmod"),
                &["--setup", "operation-aida.vsav", "--turns", "32", "--expr", &expr],
                "play-gazala-1942",
            )
        });
        let counted = s.spawn(|| {
            play(
                &tools,
                &built().join("dist/gazala-scs.vmod"),
                &["--setup", "main-event.vsav", "--turns", "25"],
                "play-gazala-scs",
            )
        });
        (days.join().unwrap(), counted.join().unwrap())
    });
    days.assert_clean("gazala-1942");
    counted.assert_clean("gazala-scs");

    // Gazala 1942 (2.0): one turn a day, 23 May to 22 June; pressing on stays on 22 June.
    let turns = strings(&days.action(0)["turns"]);
    assert_eq!(turns.len(), 32);
    assert_eq!(turns[29], "22 June", "{turns:?}");
    assert!(turns[29..].iter().all(|t| t == "22 June"), "{turns:?}");
    assert!(!turns.iter().any(|t| t == "23 May"), "the track never wraps: {turns:?}");
    let chat = strings(&days.action(0)["chat"]);
    assert!(
        chat.iter().any(|l| l.contains("22 June is the last turn (2.0)")),
        "{chat:?}"
    );
    // VASSAL keeps the zero of `0807` when an expression reads the location.
    assert_eq!(days.action(1)["value"], hex.as_str());

    // SCS (15.5): 24 turns.
    let turns = strings(&counted.action(0)["turns"]);
    assert_eq!(turns[22], "Turn 24", "{turns:?}");
    assert_eq!(turns[23], "Turn 24", "{turns:?}");
    assert_eq!(turns[24], "Turn 24", "{turns:?}");
    assert_eq!(counted.action(0)["property"], "24");
}
