//! Saved games as players send them: every entry VASSAL writes is read, and what cannot be
//! read is said by `muster pieces` and `muster check`, never passed over.

use std::path::Path;

use muster_package::archive::{Archive, write_zip};
use muster_package::vassal::save::{
    KEY, command_stream, deobfuscate, obfuscate, parse_stream,
};
use serde_json::Value;

use crate::modules::built;
use crate::util::muster;

/// A deck as VASSAL 3.7.26 writes the impulse chits of Gazala 1942, empty.
const DECK: &str = "+/1796127019550/deck;true;255,255,255;160;100;Never;Always;false;false;false;;;;Impulse chits;;;;true;false;;;10;;false;;false;;$BasicName$;;false;;Shuffle;Reverse;;Draw multiple cards;Draw specific cards;Face up;Face down;;;;;Save Deck;;Deck Saved;Load Deck;;Deck Loaded;false;/Holding Boxes;920;320;false";

/// A module's own setup with `adds` and `restores` appended, written to `dir/name`.
pub(crate) fn extended(
    dir: &Path,
    game: &str,
    setup: &str,
    adds: &[&str],
    restores: &[&str],
    name: &str,
) -> std::path::PathBuf {
    let vmod = built().join(format!("dist/{game}.vmod"));
    let mut module = Archive::open(std::fs::read(vmod).unwrap()).unwrap();
    let mut save = Archive::open(module.read(setup).unwrap()).unwrap();
    let game =
        parse_stream(&deobfuscate(&save.read("savedGame").unwrap()).unwrap()).unwrap();
    let mut all: Vec<String> = game
        .added
        .iter()
        .map(|a| match (&a.piece, &a.stack) {
            (Some(p), _) => p.add_command(&a.id),
            (_, Some(s)) => s.add_command(&a.id),
            _ => unreachable!("muster's setups hold pieces and stacks"),
        })
        .collect();
    all.extend(adds.iter().map(|s| s.to_string()));
    let mut r = game.component_restores();
    r.extend(restores.iter().map(|s| s.to_string()));
    let path = dir.join(name);
    let text = command_stream(&all, &r);
    std::fs::write(
        &path,
        write_zip(&[("savedGame".to_string(), obfuscate(&text, KEY))].into()).unwrap(),
    )
    .unwrap();
    path
}

/// A command's standard output as JSON; the output and errors in the failure otherwise.
pub(crate) fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn decks_and_turns_are_read_and_what_is_not_is_a_warning_in_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    let vmod = built().join("dist/gazala-1942.vmod");
    let vmod = vmod.to_str().unwrap();
    let turn = "TURNTurnTracker0\t0|3;0;0;true";
    let read = extended(
        tmp.path(),
        "gazala-1942",
        "operation-aida.vsav",
        &[DECK],
        &[turn, "SETUP_STACK\t"],
        "read.vsav",
    );
    let unread = extended(
        tmp.path(),
        "gazala-1942",
        "operation-aida.vsav",
        &[DECK],
        &["NEWTHING\tx", turn],
        "unread.vsav",
    );
    let pieces = |save: &Path| {
        muster(
            tmp.path(),
            &["pieces", save.to_str().unwrap(), "--module", vmod, "--format", "json"],
        )
    };
    let check = |save: &Path, format: &str| {
        muster(
            tmp.path(),
            &[
                "check",
                save.to_str().unwrap(),
                "--module",
                vmod,
                "--scenario",
                "operation-aida",
                "--format",
                format,
            ],
        )
    };

    let out = pieces(&read);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let listed = json(&out);
    assert_eq!(listed[0]["decks"][0]["name"], "Impulse chits");
    assert_eq!(listed[0]["decks"][0]["location"], "Impulse chits");
    assert_eq!(listed[0]["turns"][0]["levels"][0]["value"], "26 May");
    assert_eq!(listed[0]["started"], true);
    assert_eq!(listed[0]["unread"], Value::Array(vec![]));
    let out = check(&read, "text");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));

    // An entry muster does not know: a warning with its id and what was not understood,
    // exit 1 in both commands, and `check` does not call the save clean.
    let out = pieces(&unread);
    assert_eq!(out.status.code(), Some(1));
    let listed = json(&out);
    let u = &listed[0]["unread"];
    assert_eq!(u.as_array().unwrap().len(), 1, "{u}");
    assert_eq!(u[0]["id"], "NEWTHING");
    assert_eq!(u[0]["severity"], "warning");
    assert!(u[0]["what"].as_str().unwrap().contains("not a command VASSAL 3.7 writes"));
    assert_eq!(listed[0]["decks"][0]["name"], "Impulse chits", "the rest is still read");
    let out = check(&unread, "text");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("warning [unread-entry] entry")
            && text.contains("(NEWTHING) not read"),
        "{text}"
    );
    assert!(text.contains("1 entry not read, so the check is incomplete"), "{text}");
    let report = json(&check(&unread, "json"));
    assert_eq!(report["violations"], Value::Array(vec![]));
    assert_eq!(report["unread"][0]["id"], "NEWTHING");
}

#[test]
fn a_save_read_with_another_module_says_so_in_its_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dist = built().join("dist");
    let mut module =
        Archive::open(std::fs::read(dist.join("gazala-1942.vmod")).unwrap()).unwrap();
    let save = tmp.path().join("aida.vsav");
    std::fs::write(&save, module.read("operation-aida.vsav").unwrap()).unwrap();
    let save = save.to_str().unwrap();
    let other = dist.join("dance-of-war.vmod");
    let pieces = |module: &Path, format: &str| {
        muster(
            tmp.path(),
            &["pieces", save, "--module", module.to_str().unwrap(), "--format", format],
        )
    };

    let out = pieces(&other, "text");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let line = text.lines().nth(1).unwrap_or_default();
    assert!(
        line.contains(
            "warning [other-module] the game was saved with the module `Gazala 1942`"
        ) && line.contains(", not `Dance of War"),
        "{text}"
    );
    let listed = json(&pieces(&other, "json"));
    assert_eq!(listed[0]["warnings"][0]["kind"], "other-module", "{listed}");

    // Read with its own module, nothing to say.
    let out = pieces(&dist.join("gazala-1942.vmod"), "text");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("other-module"), "{text}");
}

#[test]
fn a_setup_file_the_module_lacks_is_a_warning_and_the_others_are_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let vmod = built().join("dist/gazala-1942.vmod");
    let mut module = Archive::open(std::fs::read(vmod).unwrap()).unwrap();
    let mut files = std::collections::BTreeMap::new();
    for name in module.names().to_vec() {
        if name != "operation-aida.vsav" {
            files.insert(name.clone(), module.read(&name).unwrap());
        }
    }
    let path = tmp.path().join("short.vmod");
    std::fs::write(&path, write_zip(&files).unwrap()).unwrap();
    let out = muster(tmp.path(), &["pieces", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("warning [missing-setup-file] the module offers the setup")
            && text
                .contains("from the file `operation-aida.vsav`, which it does not hold"),
        "{text}"
    );
    assert!(
        text.contains("(british-strike-first.vsav):"),
        "the other setups are listed: {text}"
    );
    let out = muster(tmp.path(), &["pieces", path.to_str().unwrap(), "--format", "json"]);
    let listed = json(&out);
    let kinds: Vec<&Value> = listed
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["warnings"].as_array().unwrap())
        .map(|w| &w["kind"])
        .collect();
    assert_eq!(kinds, [&Value::from("missing-setup-file")], "{listed}");
}
