//! What muster reads: regular files only, within their limits, from inside the game's
//! folder. A symbolic link is followed when it leads to a file inside the game's folder,
//! and the build's key follows it too; one leading out of the folder is refused at its
//! path. A FIFO or a device, among the sources or named on the command line, is refused
//! at once by what it is.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use muster_package::archive::Archive;
use serde_json::Value;

use crate::util::{copy_tree, files_under, root};

/// How long a command that must end promptly may take before it counts as hung: far
/// beyond the fraction of a second these refusals take, far below "forever".
const DEADLINE: Duration = Duration::from_secs(20);

/// A bound on the memory muster may take (KiB of address space), so that a reading
/// without end fails instead of filling the machine.
const MEMORY_KIB: u64 = 8 * 1024 * 1024;

/// What a run of muster left.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs muster in `dir`, failing the test when it has not ended within [`DEADLINE`].
fn muster_ending(dir: &Path, args: &[&str]) -> Run {
    let logs = tempfile::tempdir().unwrap();
    let (out, err) = (logs.path().join("out"), logs.path().join("err"));
    let bounded = format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\"");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(bounded)
        .arg(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out).unwrap())
        .stderr(fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`muster {}` was still running after {DEADLINE:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        stdout: fs::read_to_string(out).unwrap(),
        stderr: fs::read_to_string(err).unwrap(),
    }
}

const BUILD: [&str; 10] = [
    "build",
    "--format",
    "json",
    "--map-dpi",
    "20",
    "--dpi",
    "20",
    "--sheet-dpi",
    "10",
    "--quiet",
];

/// A workspace holding the minimal game `mini` under `sources/`; returns it and the game's
/// folder.
fn mini() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/mini");
    copy_tree(&root().join("tests/bad-input/base/mini"), &game);
    (tmp, game)
}

/// Builds the workspace and returns whether the game was found up to date.
fn built_up_to_date(dir: &Path) -> bool {
    let run = muster_ending(dir, &BUILD);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    report["games"][0]["up_to_date"].as_bool().unwrap()
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn a_source_file_linked_from_outside_the_game_is_refused_even_after_its_target_changes() {
    let (tmp, game) = mini();
    let shared = tmp.path().join("shared/oob.yaml");
    fs::create_dir_all(shared.parent().unwrap()).unwrap();
    fs::rename(game.join("oob.yaml"), &shared).unwrap();
    symlink("../../shared/oob.yaml", game.join("oob.yaml")).unwrap();
    let to = shared.canonicalize().unwrap();
    let said = format!(
        "sources/mini/oob.yaml (it is a symbolic link leading outside the game's folder, to {})",
        to.display()
    );
    for round in 0..2 {
        let run = muster_ending(tmp.path(), &BUILD);
        assert_eq!(run.code, Some(2), "round {round}: {}", run.stdout);
        assert!(run.stderr.contains(&said), "round {round}: {}", run.stderr);
        assert!(
            run.stderr.contains("copy the file into the game's folder"),
            "{}",
            run.stderr
        );
        let mut text = fs::read_to_string(&shared).unwrap();
        text.push_str("# edited\n");
        fs::write(&shared, text).unwrap();
    }
}

#[test]
fn a_link_inside_the_game_is_read_and_the_key_follows_where_it_leads() {
    let (tmp, game) = mini();
    let data = game.join("data");
    fs::create_dir_all(&data).unwrap();
    let oob = fs::read_to_string(game.join("oob.yaml")).unwrap();
    fs::write(data.join("oob-a.yaml"), &oob).unwrap();
    fs::write(data.join("oob-b.yaml"), format!("# the other one\n{oob}")).unwrap();
    fs::remove_file(game.join("oob.yaml")).unwrap();
    symlink("data/oob-a.yaml", game.join("oob.yaml")).unwrap();
    assert!(!built_up_to_date(tmp.path()));
    assert!(built_up_to_date(tmp.path()), "nothing changed");

    // The link now leads elsewhere inside the game: both files are as they were.
    fs::remove_file(game.join("oob.yaml")).unwrap();
    symlink("data/oob-b.yaml", game.join("oob.yaml")).unwrap();
    assert!(!built_up_to_date(tmp.path()), "the link leads to another file");
    assert!(built_up_to_date(tmp.path()));

    // What the loader reads through the link is what was written there.
    fs::write(data.join("oob-b.yaml"), format!("{oob}\nnot: [closed\n")).unwrap();
    let run = muster_ending(tmp.path(), &BUILD);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(run.stderr.contains("sources/mini/oob.yaml:"), "{}", run.stderr);
}

/// Whether any file under `dir`, or any entry of a module under it, holds `marker`.
fn holds_anywhere(dir: &Path, marker: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files_under(dir) {
        let bytes = fs::read(&file).unwrap();
        if bytes.windows(marker.len()).any(|w| w == marker) {
            found.push(file.display().to_string());
        }
        if file.extension().is_some_and(|e| e == "vmod") {
            let mut archive = Archive::open(bytes).unwrap();
            for name in archive.names().to_vec() {
                let entry = archive.read(&name).unwrap();
                if entry.windows(marker.len()).any(|w| w == marker) {
                    found.push(format!("{}:{name}", file.display()));
                }
            }
        }
    }
    found
}

#[test]
fn a_document_linked_from_outside_the_game_is_refused_and_not_shipped() {
    let (tmp, game) = mini();
    let outside = tmp.path().join("private/secret.txt");
    fs::create_dir_all(outside.parent().unwrap()).unwrap();
    let marker = b"NOT-FOR-THE-MODULE-7f3a";
    fs::write(&outside, marker).unwrap();
    fs::create_dir_all(game.join("docs")).unwrap();
    fs::create_dir_all(game.join("text")).unwrap();
    fs::write(game.join("text/notes.txt"), b"Notes inside the game.").unwrap();
    symlink("../text/notes.txt", game.join("docs/notes.txt")).unwrap();
    symlink("../../../private/secret.txt", game.join("docs/secret.txt")).unwrap();

    let run = muster_ending(tmp.path(), &BUILD);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    let said = format!(
        "sources/mini/docs/secret.txt (it is a symbolic link leading outside the game's folder, to {})",
        outside.canonicalize().unwrap().display()
    );
    assert!(run.stderr.contains(&said), "{}", run.stderr);
    for top in ["dist", "counters", "maps"] {
        let found = holds_anywhere(&tmp.path().join(top), marker);
        assert!(found.is_empty(), "{found:?}");
    }

    // Without it, the document linked from inside the game ships.
    fs::remove_file(game.join("docs/secret.txt")).unwrap();
    assert!(!built_up_to_date(tmp.path()));
    let mut module =
        Archive::open(fs::read(tmp.path().join("dist/mini.vmod")).unwrap()).unwrap();
    assert_eq!(module.read("help/notes.txt").unwrap(), b"Notes inside the game.");
    assert!(holds_anywhere(&tmp.path().join("dist"), marker).is_empty());
}

#[test]
fn a_fifo_or_a_device_among_the_sources_is_refused_at_once_by_what_it_is() {
    let (tmp, game) = mini();
    // A FIFO where a map is read, a link to a FIFO inside the game where rules are read,
    // and a link to a device that never ends where a scenario is read.
    mkfifo(&game.join("maps/pipe.yaml"));
    mkfifo(&game.join("pipe"));
    fs::remove_file(game.join("rules.yaml")).unwrap();
    symlink("pipe", game.join("rules.yaml")).unwrap();
    symlink("/dev/zero", game.join("scenarios/zero.yaml")).unwrap();

    let run = muster_ending(tmp.path(), &BUILD);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    for said in [
        "sources/mini/maps/pipe.yaml (it is a FIFO, not a regular file)",
        "sources/mini/rules.yaml (it is a FIFO, not a regular file)",
        "sources/mini/scenarios/zero.yaml (it is a symbolic link leading outside the game's folder, to /dev/zero)",
    ] {
        assert!(run.stderr.contains(said), "{said}\n{}", run.stderr);
    }
}

#[test]
fn saves_and_modules_that_are_fifos_or_devices_are_refused_at_once_by_what_they_are() {
    let (tmp, _) = mini();
    assert!(!built_up_to_date(tmp.path()));
    let dir = tmp.path();
    let vmod = dir.join("dist/mini.vmod");
    let vmod = vmod.to_str().unwrap();
    mkfifo(&dir.join("pipe.vsav"));
    mkfifo(&dir.join("pipe.vmod"));
    let fifo = "it is a FIFO, not a regular file";
    let device = "it is a character device, not a regular file";
    let cases: [(&[&str], String); 8] = [
        (&["pieces", "pipe.vsav"], format!("cannot read pipe.vsav ({fifo})")),
        (&["pieces", "/dev/zero"], format!("cannot read /dev/zero ({device})")),
        (&["pieces", "pipe.vmod"], format!("cannot read pipe.vmod ({fifo})")),
        (
            &["pieces", "pipe.vsav", "--module", "/dev/zero"],
            format!("cannot read /dev/zero ({device})"),
        ),
        (
            &["pieces", "pipe.vsav", "--module", "pipe.vmod"],
            format!("cannot read pipe.vmod ({fifo})"),
        ),
        (
            &["check", "pipe.vsav", "--module", "pipe.vmod"],
            format!("cannot read pipe.vmod ({fifo})"),
        ),
        (
            &["check", "pipe.vsav", "--module", "/dev/zero"],
            format!("cannot read /dev/zero ({device})"),
        ),
        (
            &["check", "pipe.vsav", "--module", vmod],
            format!("cannot read pipe.vsav ({fifo})"),
        ),
    ];
    for (args, said) in cases {
        let run = muster_ending(dir, args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(&said), "{args:?}: {said}\n{}", run.stderr);
    }
}
