//! A module update keeps players' games: every counter keeps its piece id (gpid) when
//! counters are inserted, removed and reordered in the manifest, and VASSAL's own Refresh
//! Counters matches every piece of a game saved with the previous module.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use muster_package::archive::Archive;
use muster_package::vassal::piece::decode_add;
use serde_json::Value;

use crate::util::{copy_tree, muster, root};

const BUILD: [&str; 10] = [
    "build",
    "--quiet",
    "--game",
    "gazala-1942",
    "--map-dpi",
    "40",
    "--dpi",
    "20",
    "--sheet-dpi",
    "10",
];

/// The edit a publisher makes between two releases: a counter inserted at the top of the
/// first group, an unused one removed, two neighbours swapped.
fn edit_manifest(text: &str) -> String {
    let edited = text
        .replacen(
            "      - \"XXI (H)\"\n",
            "      - \"999 (I)\"\n      - \"XXI (H)\"\n",
            1,
        )
        .replacen(
            "      - \"200 (I)\"\n      - \"361 (I)\"\n",
            "      - \"361 (I)\"\n      - \"200 (I)\"\n",
            1,
        );
    let heckler = edited
        .lines()
        .find(|l| l.contains("printed: \"Heckler\""))
        .expect("the manifest lists Heckler")
        .to_string();
    // Heckler is its group's only counter: the group stays, empty.
    let edited =
        edited.replacen(&format!("    counters:\n{heckler}\n"), "    counters: []\n", 1);
    assert!(
        edited.contains("999 (I)")
            && !edited.contains("printed: \"Heckler\"")
            && edited.contains("\"361 (I)\"\n      - \"200 (I)\""),
        "the edit applies"
    );
    edited
}

/// Two releases of Gazala 1942: as in `sources/`, then with the manifest edited.
pub struct Releases {
    /// The folder of the first release (sources and outputs).
    pub before: PathBuf,
    /// The folder of the second.
    pub after: PathBuf,
}

/// Both releases, built once.
pub fn releases() -> &'static Releases {
    static DIRS: OnceLock<Releases> = OnceLock::new();
    DIRS.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("releases");
        let _ = std::fs::remove_dir_all(&base);
        let (before, after) = (base.join("before"), base.join("after"));
        for dir in [&before, &after] {
            copy_tree(
                &root().join("sources/gazala-1942"),
                &dir.join("sources/gazala-1942"),
            );
        }
        let manifest = after.join("sources/gazala-1942/counters.yaml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        std::fs::write(&manifest, edit_manifest(&text)).unwrap();
        for dir in [&before, &after] {
            let out = muster(dir, &BUILD);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        }
        Releases { before, after }
    })
}

/// Every palette slot of a module: unit id → gpid, and `nextPieceSlotId`.
fn gpids(vmod: &Path) -> (BTreeMap<String, u32>, u32) {
    let mut archive = Archive::open(std::fs::read(vmod).unwrap()).unwrap();
    let text = String::from_utf8(archive.read("buildFile.xml").unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut out = BTreeMap::new();
    for slot in doc
        .descendants()
        .filter(|n| n.tag_name().name() == "VASSAL.build.widget.PieceSlot")
    {
        let gpid: u32 = slot.attribute("gpid").unwrap().parse().unwrap();
        let piece = decode_add(slot.text().unwrap()).unwrap().piece.unwrap();
        let Some(unit) = piece.marker("UnitId") else { continue };
        if piece.marker("Category").as_deref() == Some("chit") {
            continue;
        }
        assert_eq!(piece.position().unwrap().gpid, gpid.to_string(), "{unit}");
        out.insert(unit, gpid);
    }
    let next = doc.root_element().attribute("nextPieceSlotId").unwrap().parse().unwrap();
    (out, next)
}

#[test]
fn counters_keep_their_piece_ids_when_the_manifest_changes() {
    let r = releases();
    let (before, next_before) = gpids(&r.before.join("dist/gazala-1942.vmod"));
    let (after, next_after) = gpids(&r.after.join("dist/gazala-1942.vmod"));
    assert!(before.len() > 40, "{}", before.len());
    let added: Vec<&String> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    let removed: Vec<&String> =
        before.keys().filter(|k| !after.contains_key(*k)).collect();
    assert_eq!(added.len(), 1, "{added:?}");
    assert_eq!(removed.len(), 1, "{removed:?}");
    assert!(removed[0].contains("heckler"), "{removed:?}");
    for (unit, gpid) in &before {
        if let Some(now) = after.get(unit) {
            assert_eq!(now, gpid, "{unit} kept its gpid");
        }
    }
    // The new counter's id is its own, and every id stays below nextPieceSlotId.
    let new = after[added[0]];
    assert!(before.values().all(|g| *g != new));
    assert!(before.values().all(|g| *g < next_before));
    assert!(after.values().all(|g| *g < next_after));
}

#[test]
fn a_game_saved_with_the_previous_release_refreshes_against_the_next_in_vassal() {
    let Some(tools) = crate::vassal::tools() else { return };
    let r = releases();
    // A game in progress with the first release: the setup, one counter moved, saved by
    // VASSAL itself.
    let unit = "xx-it-corps-1-132-t";
    let save = r.before.join("in-progress.vsav");
    let _ = std::fs::remove_file(&save);
    let before = crate::vassal::run(
        &tools,
        &r.before.join("dist/gazala-1942.vmod"),
        &[
            "--setup",
            "operation-aida.vsav",
            "--move",
            &format!("{unit}=0808"),
            "--save",
            save.to_str().unwrap(),
        ],
        "refresh-before",
    );
    before.assert_clean("the first release");
    let moved = &before.report["moves"][0];
    assert_eq!(moved["arrived"], true, "{moved}");
    // Moving marks the counter moved and reports the move in the chat.
    let changes: Vec<&str> =
        moved["changes"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(changes.iter().any(|c| c.contains("Moved false -> true")), "{changes:?}");
    assert!(
        moved["chat"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("0808")),
        "{moved}"
    );
    assert!(save.is_file());

    // The next release refreshes every piece of that game by its gpid, each staying the
    // counter it was (same unit, name and image) where it was.
    let after = crate::vassal::play(
        &tools,
        &r.after.join("dist/gazala-1942.vmod"),
        &[save.to_str().unwrap(), "--refresh"],
        "refresh-after",
    );
    after.assert_clean("the next release");
    let refresh = after.action(0);
    let total = refresh["totalCount"].as_u64().unwrap();
    assert!(total > 40, "{refresh}");
    assert_eq!(refresh["updatedCount"].as_u64(), Some(total), "{refresh}");
    assert_eq!(refresh["notFoundCount"], 0, "{refresh}");
    assert_eq!(refresh["warnings"], 0, "{refresh}");
    assert_eq!(refresh["pieces_after"].as_u64(), Some(total), "{refresh}");
    assert_eq!(refresh["changed"].as_array().map(Vec::len), Some(0), "{refresh}");
    assert_eq!(refresh["new"].as_array().map(Vec::len), Some(0), "{refresh}");
    let pieces = after.report["game"]["pieces"].as_array().unwrap();
    assert!(pieces.iter().any(|p| p["unit_id"] == unit && p["location"] == "0808"));
}
