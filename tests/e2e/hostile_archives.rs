//! Saved games and modules whose zip is hostile or damaged: entries of one name, entries
//! sharing bytes, entries that unpack to far more than the file holds, damaged entries.
//! muster refuses them with a message naming the entry, within bounded memory, and never
//! gives a verdict on bytes VASSAL would not load.

use std::path::Path;
use std::process::Output;

use muster_package::archive::{Archive, DeflatedPart, joined_entry};
use muster_package::vassal::save::{KEY, command_stream, obfuscate};

use crate::modules::built;
use crate::util::muster;

/// One entry of a zip written by hand: its name, compression method (0 stored, 8
/// deflated), its bytes as they lie in the archive, and the size and CRC-32 its headers
/// declare.
struct Entry {
    name: String,
    method: u16,
    data: Vec<u8>,
    size: u32,
    crc: u32,
}

fn stored(name: &str, bytes: &[u8]) -> Entry {
    Entry {
        name: name.into(),
        method: 0,
        data: bytes.to_vec(),
        size: bytes.len() as u32,
        crc: crc32fast::hash(bytes),
    }
}

/// An entry of `mib` mebibytes of zeros, deflated: about a kilobyte a mebibyte.
fn zeros(name: &str, mib: usize) -> Entry {
    let part = DeflatedPart::of(&[0; 1 << 20]).unwrap();
    let one = joined_entry(name, &vec![part; mib]).unwrap();
    let word = |i: usize| u32::from_le_bytes(one[i..i + 4].try_into().unwrap());
    let start = 30 + name.len();
    Entry {
        name: name.into(),
        method: 8,
        data: one[start..start + word(18) as usize].to_vec(),
        size: word(22),
        crc: word(14),
    }
}

/// A zip of the local headers and data of `entries`, in order, and a central directory of
/// `directory`: each a name and the entry whose local header (and sizes) it points to.
fn zip(entries: &[Entry], directory: &[(&str, usize)]) -> Vec<u8> {
    let fields = |out: &mut Vec<u8>, e: &Entry, name: &str| {
        for half in [20u16, 0, e.method, 0, 0x21] {
            out.extend(half.to_le_bytes());
        }
        for word in [e.crc, e.data.len() as u32, e.size] {
            out.extend(word.to_le_bytes());
        }
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
    };
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for e in entries {
        offsets.push(out.len() as u32);
        out.extend(0x0403_4b50u32.to_le_bytes());
        fields(&mut out, e, &e.name);
        out.extend(e.name.as_bytes());
        out.extend(&e.data);
    }
    let start = out.len() as u32;
    for &(name, i) in directory {
        out.extend(0x0201_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes());
        fields(&mut out, &entries[i], name);
        out.extend([0; 10]);
        out.extend(offsets[i].to_le_bytes());
        out.extend(name.as_bytes());
    }
    let len = out.len() as u32 - start;
    let count = directory.len() as u16;
    out.extend(0x0605_4b50u32.to_le_bytes());
    for half in [0u16, 0, count, count] {
        out.extend(half.to_le_bytes());
    }
    out.extend(len.to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A zip of `entries`, each listed once under its own name.
fn plain(entries: &[Entry]) -> Vec<u8> {
    let directory: Vec<(&str, usize)> =
        entries.iter().enumerate().map(|(i, e)| (e.name.as_str(), i)).collect();
    zip(entries, &directory)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `muster args…` in `dir`, its address space limited to 768 MiB: an attempt to hold a
/// gibibyte fails, as it would on a small machine.
fn muster_in_768_mib(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .args([
            "-c",
            "ulimit -v 786432 && exec \"$@\"",
            "sh",
            env!("CARGO_BIN_EXE_muster"),
        ])
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

const VMOD: &str = "dist/gazala-1942.vmod";

/// The `savedGame` of the module's own setup of Operation Aida: a legal position.
fn legal_saved_game() -> Vec<u8> {
    let mut module = Archive::open(std::fs::read(built().join(VMOD)).unwrap()).unwrap();
    let mut save = Archive::open(module.read("operation-aida.vsav").unwrap()).unwrap();
    save.read("savedGame").unwrap()
}

fn check(dir: &Path, save: &str) -> Output {
    let vmod = built().join(VMOD);
    muster(dir, &["check", save, "--module", vmod.to_str().unwrap()])
}

#[test]
fn a_save_with_two_saved_games_is_refused_not_given_a_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let legal = legal_saved_game();
    // VASSAL loads the first savedGame (here a game with no piece at all); a reader that
    // took the last would check the legal setup and find nothing wrong.
    let other = obfuscate(&command_stream(&[], &[]), KEY);
    std::fs::write(tmp.path().join("legal.vsav"), plain(&[stored("savedGame", &legal)]))
        .unwrap();
    let out = check(tmp.path(), "legal.vsav");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let two = plain(&[stored("savedGame", &other), stored("savedGame", &legal)]);
    std::fs::write(tmp.path().join("two.vsav"), two).unwrap();
    for out in
        [check(tmp.path(), "two.vsav"), muster(tmp.path(), &["pieces", "two.vsav"])]
    {
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let e = stderr(&out);
        assert!(
            e.contains("two.vsav: the archive has 2 entries named \"savedGame\""),
            "{e}"
        );
        assert!(e.contains("VASSAL loads a saved game from the first"), "{e}");
    }
}

#[test]
fn a_module_with_two_build_files_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mut module = Archive::open(std::fs::read(built().join(VMOD)).unwrap()).unwrap();
    let mut entries: Vec<Entry> = module
        .names()
        .to_vec()
        .iter()
        .map(|name| stored(name, &module.read(name).unwrap()))
        .collect();
    entries.push(stored("buildFile.xml", b"<VASSAL.launch.BasicModule name=\"other\"/>"));
    std::fs::write(tmp.path().join("two.vmod"), plain(&entries)).unwrap();
    let out = muster(tmp.path(), &["pieces", "two.vmod"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    let e = stderr(&out);
    assert!(
        e.contains("two.vmod: the archive has 2 entries named \"buildFile.xml\""),
        "{e}"
    );
}

#[test]
fn a_saved_game_unpacking_to_a_gibibyte_is_refused_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let bomb = plain(&[zeros("savedGame", 1024)]);
    assert!(bomb.len() < 2 << 20, "{} bytes", bomb.len());
    std::fs::write(tmp.path().join("bomb.vsav"), bomb).unwrap();
    let out = muster_in_768_mib(tmp.path(), &["pieces", "bomb.vsav"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        "error: bomb.vsav: the entry \"savedGame\" unpacks to 1073741824 bytes, more than the 256 MiB (268435456 bytes) muster reads from one entry"
    );
}

/// A module whose buildFile names `files` as predefined setups.
fn build_file(files: &[String]) -> Vec<u8> {
    let setups: String = files
        .iter()
        .enumerate()
        .map(|(i, f)| format!("<VASSAL.build.module.PredefinedSetup name=\"s{i}\" file=\"{f}\" useFile=\"true\"/>"))
        .collect();
    format!("<VASSAL.launch.BasicModule name=\"m\">{setups}</VASSAL.launch.BasicModule>")
        .into_bytes()
}

#[test]
fn a_module_naming_a_huge_setup_many_times_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    // One setup of 1,000 MiB, named by twenty setups.
    let files = vec!["big.vsav".to_string(); 20];
    let module =
        plain(&[stored("buildFile.xml", &build_file(&files)), zeros("big.vsav", 1000)]);
    std::fs::write(tmp.path().join("named.vmod"), module).unwrap();
    let out = muster_in_768_mib(tmp.path(), &["pieces", "named.vmod"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        "error: named.vmod: the entry \"big.vsav\" unpacks to 1048576000 bytes, more than the 256 MiB (268435456 bytes) muster reads from one entry"
    );
}

#[test]
fn a_module_whose_entries_share_their_bytes_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    // Twenty board images of their own names whose records all point to the same 40 MiB.
    let boards: String = (0..20)
        .map(|i| format!("<VASSAL.build.module.map.boardPicker.Board name=\"b{i}\" image=\"b{i}.png\"/>"))
        .collect();
    let build = format!(
        "<VASSAL.launch.BasicModule name=\"m\"><VASSAL.build.module.Map mapName=\"Main\"><VASSAL.build.module.map.BoardPicker>{boards}</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.launch.BasicModule>"
    );
    let entries = [stored("buildFile.xml", build.as_bytes()), zeros("images/b0.png", 40)];
    let names: Vec<String> = (0..20).map(|i| format!("images/b{i}.png")).collect();
    let mut directory = vec![("buildFile.xml", 0)];
    directory.extend(names.iter().map(|f| (f.as_str(), 1)));
    std::fs::write(tmp.path().join("shared.vmod"), zip(&entries, &directory)).unwrap();
    let out = muster(tmp.path(), &["pieces", "shared.vmod"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        "error: shared.vmod: the entries \"images/b0.png\" and \"images/b1.png\" share bytes of the archive, which no zip tool writes and zip bombs do; muster does not read it"
    );
}

#[test]
fn a_damaged_saved_game_says_it_is_damaged() {
    let tmp = tempfile::tempdir().unwrap();
    let legal = legal_saved_game();
    let mut bad_crc = stored("savedGame", &legal);
    bad_crc.crc ^= 1;
    std::fs::write(tmp.path().join("crc.vsav"), plain(&[bad_crc])).unwrap();
    let mut cut = zeros("savedGame", 1);
    cut.data.truncate(cut.data.len() / 2);
    std::fs::write(tmp.path().join("cut.vsav"), plain(&[cut])).unwrap();
    for (file, why) in [("crc.vsav", "its bytes have CRC-32"), ("cut.vsav", "")] {
        for out in [check(tmp.path(), file), muster(tmp.path(), &["pieces", file])] {
            assert_eq!(out.status.code(), Some(2), "{file}");
            let e = stderr(&out);
            let said = format!("{file}: the entry \"savedGame\" is damaged: {why}");
            assert!(e.contains(&said), "{e}");
        }
    }
    // A save with no savedGame at all still says so.
    std::fs::write(tmp.path().join("none.vsav"), plain(&[stored("moduledata", b"<d/>")]))
        .unwrap();
    let out = muster(tmp.path(), &["pieces", "none.vsav"]);
    assert!(stderr(&out).contains("none.vsav: the saved game has no savedGame entry"));
}

#[test]
fn check_on_a_module_without_muster_rules_reads_the_save_then_says_what_to_use() {
    let tmp = tempfile::tempdir().unwrap();
    let mut module = Archive::open(std::fs::read(built().join(VMOD)).unwrap()).unwrap();
    let entries: Vec<Entry> = module
        .names()
        .to_vec()
        .iter()
        .filter(|name| *name != "rules/ruleset.json")
        .map(|name| stored(name, &module.read(name).unwrap()))
        .collect();
    std::fs::write(tmp.path().join("hand-made.vmod"), plain(&entries)).unwrap();
    std::fs::write(
        tmp.path().join("legal.vsav"),
        plain(&[stored("savedGame", &legal_saved_game())]),
    )
    .unwrap();
    let out = muster(tmp.path(), &["check", "legal.vsav", "--module", "hand-made.vmod"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("hand-made.vmod: the module has no rules muster can check"),
        "{e}"
    );
    assert!(
        e.contains(
            "`muster pieces legal.vsav --module hand-made.vmod` lists what the save holds"
        ),
        "{e}"
    );
    // The save is read first: a damaged save says so whatever the module.
    let mut bad = stored("savedGame", &legal_saved_game());
    bad.crc ^= 1;
    std::fs::write(tmp.path().join("bad.vsav"), plain(&[bad])).unwrap();
    let out = muster(tmp.path(), &["check", "bad.vsav", "--module", "hand-made.vmod"]);
    let e = stderr(&out);
    assert!(e.contains("bad.vsav: the entry \"savedGame\" is damaged"), "{e}");
}
