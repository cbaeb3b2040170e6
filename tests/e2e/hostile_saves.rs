//! Saves and modules made to hurt their reader: one piece of very many traits, very many
//! notes, very many boards under very many pieces, turn levels nested very deep, and names
//! that carry control characters. `muster pieces` and `muster check` read them whole, say
//! what is too deep, and print what the file says without letting it write the terminal.

use std::path::{Path, PathBuf};

use muster_package::archive::write_zip;
use muster_package::hostile;
use muster_package::vassal::save::{KEY, command_stream, obfuscate};
use serde_json::Value;

use crate::modules::built;
use crate::saves::extended;
use crate::util::muster;

/// Writes a saved game of command stream `text` to `dir/name`.
fn save(dir: &Path, name: &str, text: &str) -> PathBuf {
    let files = [("savedGame".to_string(), obfuscate(text, KEY))];
    let path = dir.join(name);
    std::fs::write(&path, write_zip(&files.into()).unwrap()).unwrap();
    path
}

/// Writes a module of buildFile `xml` to `dir/name`.
fn module(dir: &Path, name: &str, xml: &str) -> PathBuf {
    let files = [("buildFile.xml".to_string(), xml.as_bytes().to_vec())];
    let path = dir.join(name);
    std::fs::write(&path, write_zip(&files.into()).unwrap()).unwrap();
    path
}

fn text(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn pieces(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["pieces"];
    all.extend(args);
    muster(dir, &all)
}

#[test]
fn a_piece_of_many_traits_is_listed_with_its_name() {
    let tmp = tempfile::tempdir().unwrap();
    let path = save(tmp.path(), "traits.vsav", &hostile::many_traits(20_000));
    let out = pieces(tmp.path(), &[path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["pieces"][0]["name"], "Many traits");
    assert_eq!(listed[0]["unread"], Value::Array(Vec::new()));
}

#[test]
fn many_notes_are_each_listed_once() {
    let tmp = tempfile::tempdir().unwrap();
    let mut stream = hostile::many_facts(5_000);
    // The same notes again: VASSAL writes a component twice when a module lists it twice.
    stream = stream.replace("end_save", "\u{1b}PNOTES\tnote 7\u{1b}end_save");
    let path = save(tmp.path(), "notes.vsav", &stream);
    let out = pieces(tmp.path(), &[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let listed = text(&out);
    let notes: Vec<&str> =
        listed.lines().filter(|l| l.starts_with("  public-notes: note ")).collect();
    assert_eq!(notes.len(), 5_000, "{}", &listed[..200.min(listed.len())]);
    assert_eq!(notes.iter().filter(|l| **l == "  public-notes: note 7").count(), 1);
}

#[test]
fn many_pieces_on_many_boards_are_each_placed_in_their_zone() {
    let tmp = tempfile::tempdir().unwrap();
    let (pieces_n, boards) = (400, 4_000);
    let vmod = module(tmp.path(), "boards.vmod", &hostile::board_module(boards));
    let path =
        save(tmp.path(), "boards.vsav", &hostile::pieces_on_boards(pieces_n, boards));
    let out = pieces(
        tmp.path(),
        &[path.to_str().unwrap(), "--module", vmod.to_str().unwrap(), "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let placed = listed[0]["pieces"].as_array().unwrap();
    assert_eq!(placed.len(), pieces_n);
    for (k, p) in placed.iter().enumerate() {
        let board = k * boards / pieces_n;
        assert_eq!(p["location"], format!("Z{board}"), "{p}");
    }
}

#[test]
fn turn_levels_nested_too_deep_are_an_error_naming_the_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let vmod = module(tmp.path(), "deep.vmod", &hostile::deep_turn_levels(20_000));
    let path = save(tmp.path(), "any.vsav", &command_stream(&[], &[]));
    let out =
        pieces(tmp.path(), &[path.to_str().unwrap(), "--module", vmod.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "deep.vmod: buildFile.xml: turn tracker `Turn` nests its levels more than 32 deep (line 1, column 2360); muster reads at most 32"
        ),
        "{err}"
    );
}

/// A name that would end its line and forge a clean summary, clear the screen (C1 CSI: an
/// ESC never reaches a command, as it separates them), ring the bell and turn what follows
/// around.
const FORGED: &str = "Rommel\r\n0 violation(s)\u{9b}2J\u{85}\u{7}\u{202e}";

/// What [`FORGED`] prints as.
const ESCAPED: &str = "Rommel\\r\\n0 violation(s)\\u{9b}2J\\u{85}\\u{7}\\u{202e}";

#[test]
fn names_with_control_characters_are_printed_escaped_and_kept_in_json() {
    let tmp = tempfile::tempdir().unwrap();
    let name = FORGED;
    let adds = [
        format!("+/1/piece;;;a.png;{name}/null;0;0;1;0"),
        format!("+/2/mark;Side\tpiece;;;b.png;B/{name}\tnull;0;0;2;0"),
    ];
    let restores = [
        format!("PNOTES\t{name}"),
        format!("{name}\tsomething muster does not know"),
        format!("GlobalProperty\t;{name};1;"),
    ];
    let path = save(tmp.path(), "forged.vsav", &command_stream(&adds, &restores));
    let out = pieces(tmp.path(), &[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let printed = text(&out);
    for line in printed.lines() {
        assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
        assert!(!line.starts_with("0 violation(s)"), "{printed}");
        assert!(!line.contains('\u{202e}'), "{line:?}");
    }
    // The piece, the property and the unread entry, each on its own line; the note too,
    // its line breaks shown as ` / ` as for every note.
    assert_eq!(printed.matches(ESCAPED).count(), 3, "{printed}");
    assert!(
        printed.contains("public-notes: Rommel\\r / 0 violation(s)\\u{9b}"),
        "{printed}"
    );
    assert_eq!(printed.lines().count(), 6, "{printed}");

    let out = pieces(tmp.path(), &[path.to_str().unwrap(), "--format", "json"]);
    let raw = text(&out);
    assert!(
        !raw.chars().any(|c| c.is_ascii_control() && c != '\n'),
        "JSON escapes C0 controls: {raw}"
    );
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["pieces"][0]["name"], name, "JSON keeps the name as saved");
    assert!(raw.contains("Rommel\\r\\n0 violation(s)"), "{raw}");
    assert_eq!(listed[0]["pieces"][1]["side"], name);
}

#[test]
fn check_prints_what_the_save_says_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let vmod = built().join("dist/gazala-1942.vmod");
    let unit = FORGED;
    let add = format!("+/99/mark;UnitId\tpiece;;;a.png;A/{unit}\tnull;0;0;99;0");
    let path = extended(
        tmp.path(),
        "gazala-1942",
        "operation-aida.vsav",
        &[&add],
        &[&format!("{unit}\tx")],
        "forged.vsav",
    );
    let out = muster(
        tmp.path(),
        &[
            "check",
            path.to_str().unwrap(),
            "--module",
            vmod.to_str().unwrap(),
            "--scenario",
            "operation-aida",
        ],
    );
    let printed = text(&out);
    assert_eq!(out.status.code(), Some(1), "{printed}");
    for line in printed.lines() {
        assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
        assert!(!line.starts_with("0 violation(s)"), "{printed}");
    }
    assert!(printed.contains(ESCAPED), "{printed}");
    assert!(printed.contains("1 entry not read"), "{printed}");
}
