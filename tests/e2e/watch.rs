//! `muster build --watch`: a changed file rebuilds its game, a YAML error is shown and the
//! watch goes on, Ctrl+C ends it cleanly.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::util::{copy_tree, root};

/// How long any one step may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(120);

/// Waits for a line of the watch's standard error that `want` accepts; returns it, or
/// fails with every line seen.
fn wait_for(
    lines: &mpsc::Receiver<String>,
    seen: &mut Vec<String>,
    want: &str,
) -> String {
    let start = Instant::now();
    while let Some(left) = PATIENCE.checked_sub(start.elapsed()) {
        match lines.recv_timeout(left) {
            Ok(line) => {
                seen.push(line.clone());
                if line.contains(want) {
                    return line;
                }
            }
            Err(_) => break,
        }
    }
    panic!("no line with `{want}` in time; saw:\n{}", seen.join("\n"));
}

fn replace(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_watch_rebuilds_changed_games_shows_yaml_errors_and_ends_on_ctrl_c() {
    let tmp = tempfile::tempdir().unwrap();
    for g in ["example-oasis", "gazala-line-1942"] {
        copy_tree(&root().join("sources").join(g), &tmp.path().join("sources").join(g));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(["build", "--watch", "--map-dpi", "30", "--dpi", "40", "--sheet-dpi", "20"])
        .current_dir(tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    wait_for(&lines, &mut seen, "watching");
    let front = tmp.path().join("counters/example-oasis/1-bde-1-bde-hq-front.png");
    let before = std::fs::read(&front).unwrap();

    // A changed counter rebuilds its game only.
    let manifest = tmp.path().join("sources/example-oasis/counters.yaml");
    replace(
        &manifest,
        "{printed: 1 Bde HQ, front: {movement: 8}}",
        "{printed: 1 Bde HQ, front: {movement: 9}}",
    );
    let line = wait_for(&lines, &mut seen, "example-oasis:");
    assert!(line.contains("made"), "{line}");
    let built = wait_for(&lines, &mut seen, "built ");
    assert!(built.starts_with("built 1 game(s)"), "only the changed game: {built}");
    assert_ne!(std::fs::read(&front).unwrap(), before, "the counter was drawn again");

    // A YAML error is shown where it is, and the watch goes on.
    replace(&manifest, "groups:", "groups: [");
    wait_for(&lines, &mut seen, "counters.yaml:");
    wait_for(&lines, &mut seen, "1 error(s)");
    replace(&manifest, "groups: [", "groups:");
    let line = wait_for(&lines, &mut seen, "example-oasis:");
    assert!(line.contains("0 setup findings"), "{line}");

    // Ctrl+C ends the watch cleanly.
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(status.unwrap().success());
    wait_for(&lines, &mut seen, "stopped watching");
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        assert!(start.elapsed() < PATIENCE, "the watch did not end");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(code, Some(0));
    let leftovers: Vec<_> = crate::util::files_under(tmp.path())
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
