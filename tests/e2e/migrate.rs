//! A game saved with one release carried to the next by `muster migrate`: every piece
//! made anew from the new module where it was, with its stack and state, what could not be
//! carried said, and the result the same as VASSAL's own Refresh Counters gives.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use muster_package::archive::{Archive, write_zip};
use muster_package::migrate::neutral_keys;
use muster_package::read::read_save;
use muster_package::vassal::piece::{Piece, Position, Trait};
use serde_json::Value;

use crate::refresh::releases;
use crate::saves::{extended, json};
use crate::util::muster;

/// The unit the in-progress game moves and flips.
const UNIT: &str = "xx-it-corps-1-132-t";

fn migrate(dir: &Path, save: &Path, module: &Path, out: &Path) -> std::process::Output {
    muster(
        dir,
        &[
            "migrate",
            save.to_str().unwrap(),
            "--module",
            module.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--format",
            "json",
        ],
    )
}

/// Each piece of a listing by id: map, location, x, y.
fn places(dir: &Path, save: &Path, module: &Path) -> BTreeMap<String, String> {
    crate::util::pieces_json(dir, save, module)[0]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let at = format!("{} {} {} {}", p["map"], p["location"], p["x"], p["y"]);
            (p["id"].as_str().unwrap().to_string(), at)
        })
        .collect()
}

#[test]
fn a_setup_is_carried_to_the_next_release_where_it_was_and_a_piece_it_lacks_is_said() {
    let tmp = tempfile::tempdir().unwrap();
    let r = releases();
    let (before, after) =
        (r.before.join("dist/gazala-1942.vmod"), r.after.join("dist/gazala-1942.vmod"));
    // A piece no release has: it stays as it was, and is named.
    let at =
        Position { map: Some("Main Map".into()), x: 40, y: 40, gpid: "99999".into() };
    let ghost = Piece { traits: vec![Trait::basic("ghost.png", "Ghost", &at)] };
    let save = extended(
        tmp.path(),
        "gazala-1942",
        "operation-aida.vsav",
        &[&ghost.add_command("ghost-1")],
        &[],
        "old.vsav",
    );
    let out_path = tmp.path().join("new.vsav");
    let out = migrate(tmp.path(), &save, &after, &out_path);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{report}");
    assert_eq!(findings[0]["kind"], "piece-not-in-module");
    assert!(findings[0]["message"].as_str().unwrap().contains("`Ghost`"), "{report}");
    assert!(report["refreshed"].as_u64().unwrap() > 40, "{report}");

    // Every piece where it was.
    let was = places(tmp.path(), &save, &before);
    let now = places(tmp.path(), &out_path, &after);
    assert_eq!(was, now);

    // The saved game itself is never written over, and a failed run writes nothing.
    let out = migrate(tmp.path(), &save, &after, &save);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out names the saved game"));
    let missing = tmp.path().join("nothing.vmod");
    let none = tmp.path().join("none.vsav");
    assert_eq!(migrate(tmp.path(), &save, &missing, &none).status.code(), Some(2));
    assert!(!none.exists());
}

/// The next release with two traits defined otherwise: the Mark Moved trait every counter
/// has (its icon moved), and the moved unit's Step layer (its images in another order,
/// the layer's name kept).
fn redefined(after: &Path, dir: &Path) -> PathBuf {
    let mut archive = Archive::open(std::fs::read(after).unwrap()).unwrap();
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for name in archive.names().to_vec() {
        files.insert(name.clone(), archive.read(&name).unwrap());
    }
    let text = String::from_utf8(files["buildFile.xml"].clone()).unwrap();
    let front = "xx-it-corps-1-132-t-front.png";
    let back = "xx-it-corps-1-132-t-back.png";
    let edited = text
        .replacen(
            "markmoved;\\/images\\/moved.gif;0;0;",
            "markmoved;\\/images\\/moved.gif;4;0;",
            1,
        )
        .replacen(&format!("{front},{back}"), &format!("{back},{front}"), 1);
    assert_eq!(edited.matches(";4;0;Mark Moved").count(), 1, "the edit applies");
    assert!(edited.contains(&format!("{back},{front}")), "the edit applies");
    files.insert("buildFile.xml".into(), edited.into_bytes());
    let path = dir.join("redefined.vmod");
    std::fs::write(&path, write_zip(&files).unwrap()).unwrap();
    path
}

/// Every piece of a saved game as what it is and how it stands: type and state chains,
/// sorted (VASSAL's refresher gives its pieces new ids), the codes VASSAL gives named key
/// commands in a session left out.
fn pieces_of(save: &Path) -> Vec<(String, String)> {
    let (game, _) = read_save(std::fs::read(save).unwrap()).unwrap();
    let mut all: Vec<(String, String)> = game
        .added
        .iter()
        .filter_map(|a| a.piece.as_ref())
        .map(|p| (neutral_keys(&p.type_chain()), p.state_chain()))
        .collect();
    all.sort();
    all
}

#[test]
fn a_game_in_progress_migrates_as_vassal_refreshes_it_and_loads_clean() {
    let Some(tools) = crate::vassal::tools() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let r = releases();
    let before = r.before.join("dist/gazala-1942.vmod");
    let next = redefined(&r.after.join("dist/gazala-1942.vmod"), tmp.path());
    // Played with the first release and saved by VASSAL: one counter moved and flipped.
    let old = tmp.path().join("in-progress.vsav");
    let played = crate::vassal::play(
        &tools,
        &before,
        &[
            "--setup",
            "operation-aida.vsav",
            "--move",
            &format!("{UNIT}=0808"),
            "--key",
            &format!("{UNIT}=Flip"),
            "--save",
            old.to_str().unwrap(),
        ],
        "migrate-before",
    );
    played.assert_clean("the first release");

    let new = tmp.path().join("migrated.vsav");
    let out = migrate(tmp.path(), &old, &next, &new);
    let report = json(&out);
    assert_eq!(out.status.code(), Some(1), "{report}");
    // The moved counter's Mark Moved state has nothing to match it by; its layer has.
    let findings = report["findings"].as_array().unwrap();
    assert!(!findings.is_empty(), "{report}");
    assert!(
        findings.iter().all(|f| f["kind"] == "state-reset"
            && f["message"].as_str().unwrap().contains("`markmoved`")),
        "{report}"
    );

    // VASSAL's own Refresh Counters on the same game and module gives the same pieces.
    let refreshed = tmp.path().join("refreshed.vsav");
    let vassal = crate::vassal::play(
        &tools,
        &next,
        &[
            old.to_str().unwrap(),
            "--refresh-named",
            "--save",
            refreshed.to_str().unwrap(),
        ],
        "migrate-refresh",
    );
    vassal.assert_clean("Refresh Counters");
    assert_eq!(vassal.action(0)["notFoundCount"], 0);
    // What VASSAL makes of muster's migrated game, saved again (VASSAL writes each trait's
    // definition in its own form), against what its refresher made.
    let resaved = tmp.path().join("resaved.vsav");
    let again = crate::vassal::play(
        &tools,
        &next,
        &[new.to_str().unwrap(), "--save", resaved.to_str().unwrap()],
        "migrate-resave",
    );
    again.assert_clean("the migrated game saved again");
    let ours = pieces_of(&resaved);
    let theirs = pieces_of(&refreshed);
    assert_eq!(ours.len(), theirs.len());
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!(a == b, "piece {k} of {}: {}", ours.len(), first_difference(a, b));
    }

    // The migrated game loads in the next release with no warning, every piece where it
    // was, the flipped counter still flipped.
    let loaded =
        crate::vassal::run(&tools, &next, &[new.to_str().unwrap()], "migrate-load");
    loaded.assert_clean("the migrated game");
    let was = &played.report["game"]["pieces"];
    let now = &loaded.report["game"]["pieces"];
    let at = |list: &Value| -> BTreeMap<String, String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["id"].as_str().unwrap().to_string(),
                    format!("{} {}", p["map"], p["location"]),
                )
            })
            .collect()
    };
    assert_eq!(at(was), at(now));
    let flipped = now
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["unit_id"] == UNIT)
        .expect("the flipped counter is there");
    let layers = flipped["layers"].to_string();
    assert!(layers.contains("Step_Level=2"), "{flipped}");
}

/// Where two pieces first differ: the trait's definition or state, muster's then VASSAL's.
fn first_difference(a: &(String, String), b: &(String, String)) -> String {
    let (what, x, y) =
        if a.0 != b.0 { ("type", &a.0, &b.0) } else { ("state", &a.1, &b.1) };
    let at = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
    let window =
        |s: &str| s.chars().skip(at.saturating_sub(80)).take(200).collect::<String>();
    format!("{what} differs at {at}:\n muster: {}\n VASSAL: {}", window(x), window(y))
}
