//! The real VASSAL 3.7.26 engine, run by the harness in `../shared/tools/vassal/` (a
//! program that loads a module, a predefined setup or a save under Xvfb and reports every
//! warning, error, dialog and piece location as JSON), as the first consumer of every
//! module muster writes.
//!
//! `MUSTER_VASSAL_TOOLS` names the harness folder; without it the tests look for
//! `../shared/tools/vassal` beside the repository. `.ci/run` builds the engine and sets
//! `MUSTER_REQUIRE_VASSAL`, which turns a missing harness into a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Condvar, Mutex, OnceLock};

use serde_json::Value;

use crate::modules::built;
use crate::util::root;

/// The harness folder, or `None` (with a note) when it is absent and not required.
pub fn tools() -> Option<PathBuf> {
    let dir = std::env::var_os("MUSTER_VASSAL_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/tools/vassal"));
    if dir.join("run.sh").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("MUSTER_REQUIRE_VASSAL").is_none(),
        "MUSTER_REQUIRE_VASSAL is set but {} holds no run.sh (set MUSTER_VASSAL_TOOLS)",
        dir.display()
    );
    eprintln!("no VASSAL harness at {}: .ci/run provides it", dir.display());
    None
}

/// At most two engines run at once, whichever tests start them: each is a JVM with its
/// own X server, and the machine has two cores.
fn slot() -> impl Drop {
    static SLOTS: OnceLock<(Mutex<usize>, Condvar)> = OnceLock::new();
    let (lock, cv) = SLOTS.get_or_init(|| (Mutex::new(2), Condvar::new()));
    let mut free = lock.lock().unwrap_or_else(|e| e.into_inner());
    while *free == 0 {
        free = cv.wait(free).unwrap_or_else(|e| e.into_inner());
    }
    *free -= 1;
    struct Slot(&'static (Mutex<usize>, Condvar));
    impl Drop for Slot {
        fn drop(&mut self) {
            let (lock, cv) = self.0;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) += 1;
            cv.notify_one();
        }
    }
    Slot(SLOTS.get().expect("initialised above"))
}

/// What one run of the engine reported.
pub struct Run {
    /// The harness's exit code (0 OK, 1 errors, 2 did not load, 124 timeout).
    pub code: i32,
    /// The JSON report.
    pub report: Value,
    /// Where the JSON report is, for `compare.py`.
    pub report_path: PathBuf,
    /// What the harness printed (text report, then VASSAL's log), for failure messages.
    pub text: String,
}

impl Run {
    /// The report of the `n`-th action of a play run.
    pub fn action(&self, n: usize) -> &Value {
        &self.report["actions"][n]
    }

    /// The findings that are not INFO, as `LEVEL [phase] text` lines.
    pub fn problems(&self) -> Vec<String> {
        self.report["issues"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["level"] != "INFO")
            .map(|i| format!("{} [{}] {}", i["level"], i["phase"], i["text"]))
            .collect()
    }
}

/// Runs the engine on `module` with the harness arguments `args` (`--setup F`, a save,
/// `--move U=L`, `--save OUT`, ...), in strict mode (notes count as errors); `label`
/// names the JSON report under the test's temporary folder.
pub fn run(tools: &Path, module: &Path, args: &[&str], label: &str) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("vassal");
    std::fs::create_dir_all(&dir).expect("report folder");
    let report_path = dir.join(format!("{label}.json"));
    let _ = std::fs::remove_file(&report_path);
    let _slot = slot();
    let out = Command::new(tools.join("run.sh"))
        .arg(module)
        .args(args)
        .arg("--strict")
        .arg("--json")
        .arg(&report_path)
        .output()
        .expect("the VASSAL harness runs");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::fs::read(&report_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| panic!("{label}: the harness wrote no JSON report\n{text}"));
    Run { code: out.status.code().unwrap_or(-1), report, report_path, text }
}

/// Plays `module` in the engine with muster's own driver (`tests/vassal/play.sh`, which
/// compiles `tests/vassal/MusterPlay.java` against the harness's engine): the driver's
/// arguments `args` (`--setup F`, a save, then actions such as `--chart`,
/// `--key UNIT=COMMAND`, `--turns N`, `--refresh`); `label` names the JSON report.
pub fn play(tools: &Path, module: &Path, args: &[&str], label: &str) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("vassal");
    std::fs::create_dir_all(&dir).expect("report folder");
    let report_path = dir.join(format!("{label}.json"));
    let _ = std::fs::remove_file(&report_path);
    let _slot = slot();
    let out = Command::new(root().join("tests/vassal/play.sh"))
        .env("MUSTER_VASSAL_TOOLS", tools)
        .env(
            "MUSTER_PLAY_CLASSES",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("vassal-play"),
        )
        .arg("--json")
        .arg(&report_path)
        .arg(module)
        .args(args)
        .output()
        .expect("the play driver runs");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::fs::read(&report_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| {
            panic!("{label}: the play driver wrote no JSON report\n{text}")
        });
    Run { code: out.status.code().unwrap_or(-1), report, report_path, text }
}

impl Run {
    /// Fails unless the run had no error: no VASSAL warning, error, dialog or failed action.
    pub fn assert_clean(&self, label: &str) {
        assert!(
            self.code == 0 && self.report["verdict"] == "OK",
            "{label}: verdict {} (exit {}): {:?}\n{}",
            self.report["verdict"],
            self.code,
            self.problems(),
            self.text
        );
    }
}

/// Compares the pieces VASSAL shows in a loaded setup with `module.json`'s statement of
/// that setup (the harness's `compare.py`); returns its summary object.
pub fn compare(tools: &Path, run: &Run, module_json: &Path, setup: &str) -> Value {
    let out_path = run.report_path.with_extension("compare.json");
    let out = Command::new("python3")
        .arg(tools.join("compare.py"))
        .arg(&run.report_path)
        .arg(module_json)
        .arg(setup)
        .arg("--json")
        .arg(&out_path)
        .output()
        .expect("python3 runs compare.py");
    let doc: Value = std::fs::read(&out_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| {
            panic!(
                "{setup}: compare.py wrote nothing\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let mut summary = doc["summary"].clone();
    summary["exit"] = out.status.code().unwrap_or(-1).into();
    summary["text"] = String::from_utf8_lossy(&out.stdout).into_owned().into();
    summary
}

/// Every predefined setup of every built module, as `(game, setup file)`.
pub fn setups() -> Vec<(String, String)> {
    let mut all = Vec::new();
    for game in crate::modules::GAMES {
        let doc: Value = serde_json::from_slice(
            &std::fs::read(built().join(format!("dist/{game}/module.json")))
                .expect("module.json"),
        )
        .expect("module.json parses");
        for s in doc.as_array().expect("a list of setups") {
            all.push((game.to_string(), s["file"].as_str().expect("file").to_string()));
        }
    }
    all
}

#[test]
fn vassal_loads_every_module_and_setup_with_every_piece_on_its_location() {
    let Some(tools) = tools() else { return };
    let setups = setups();
    assert!(setups.len() >= 11, "every scenario of every game has a setup: {setups:?}");
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = setups
            .iter()
            .map(|(game, file)| {
                let tools = &tools;
                scope.spawn(move || {
                    let module = built().join(format!("dist/{game}.vmod"));
                    let label = format!("load-{game}-{file}");
                    let run = run(tools, &module, &["--setup", file], &label);
                    let mut wrong = Vec::new();
                    if run.code != 0 || run.report["verdict"] != "OK" {
                        wrong.push(format!(
                            "verdict {} (exit {}): {:?}\n{}",
                            run.report["verdict"],
                            run.code,
                            run.problems(),
                            run.text
                        ));
                    }
                    if run.report["note_count"] != 0 || run.report["error_count"] != 0 {
                        wrong.push(format!("problems: {:?}", run.problems()));
                    }
                    if run.report["game"]["game_started"] != true {
                        wrong.push("the game did not start".into());
                    }
                    let summary = compare(
                        tools,
                        &run,
                        &built().join(format!("dist/{game}/module.json")),
                        file,
                    );
                    let muster = summary["muster"].as_u64().unwrap_or_default();
                    if summary["exit"] != 0
                        || muster == 0
                        || summary["location_equal"] != muster
                        || summary["map_equal"] != muster
                        || summary["vassal_only"] != 0
                        || summary["muster_only"] != 0
                        || summary["reduced_ok"] != summary["reduced_checked"]
                    {
                        wrong.push(format!("positions differ: {}", summary["text"]));
                    }
                    wrong
                        .into_iter()
                        .map(|w| format!("{game} {file}: {w}"))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a setup check")).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // The comparison does see a piece that is not where module.json says.
    let (game, file) = &setups[0];
    let module_json = built().join(format!("dist/{game}/module.json"));
    let mut doc: Value =
        serde_json::from_slice(&std::fs::read(&module_json).unwrap()).unwrap();
    let setup = doc
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["file"] == file.as_str())
        .unwrap();
    let piece = setup["pieces"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["map"] == "Main Map")
        .unwrap();
    let elsewhere = if piece["location"] == "2020" { "2021" } else { "2020" };
    piece["location"] = elsewhere.into();
    let tampered = built().join("tampered-module.json");
    std::fs::write(&tampered, serde_json::to_vec(&doc).unwrap()).unwrap();
    let label = format!("load-{game}-{file}");
    let report_path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("vassal")
        .join(format!("{label}.json"));
    let report = serde_json::from_slice(&std::fs::read(&report_path).unwrap()).unwrap();
    let run = Run { code: 0, report, report_path, text: String::new() };
    let summary = compare(&tools, &run, &tampered, file);
    assert_ne!(summary["exit"], 0, "{}", summary["text"]);
    assert_eq!(
        summary["location_equal"].as_u64().unwrap() + 1,
        summary["muster"].as_u64().unwrap()
    );
}

#[test]
fn vassal_loads_a_module_whose_largest_entries_are_deflated_in_parts() {
    let Some(tools) = tools() else { return };
    let dir = tempfile::tempdir().expect("temporary folder");
    // A game large enough for its ruleset to pass the part size, so that the module's
    // zip joins that entry from parts deflated apart.
    let shape = muster_build::bench::monster::generate(&dir.path().join("sources"), 1200)
        .expect("the monster game is generated");
    let out = crate::util::muster(
        dir.path(),
        &["--out", "out", "-q", "build", "--map-dpi", "20", "--dpi", "30"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let module = dir.path().join("out/dist/monster.vmod");
    let mut archive =
        muster_package::archive::Archive::open(std::fs::read(&module).expect("module"))
            .expect("the module opens");
    let ruleset = archive.read(muster_package::module::RULESET).expect("ruleset");
    assert!(
        ruleset.len() > muster_package::archive::MAX_PART,
        "{} bytes: not large enough to be deflated in parts",
        ruleset.len()
    );
    let run = run(&tools, &module, &[], "load-monster-in-parts");
    run.assert_clean("load-monster-in-parts");
    assert_eq!(run.report["error_count"], 0, "{:?}", run.problems());
    assert_eq!(run.report["note_count"], 0, "{:?}", run.problems());
    assert_eq!(run.report["module"]["piece_slot_count"], shape.counters, "{}", run.text);
}

/// The images VASSAL 3.7.26's own tiler (`TilingHandler`, `ZipFileImageTiler`, driven by
/// `tests/vassal/tiles.sh`) finds stale in `module` and slices into the tile cache `cache`,
/// as a player's launch of the module does.
pub fn sliced(tools: &Path, module: &Path, cache: &Path) -> Vec<String> {
    let _slot = slot();
    let out = Command::new(root().join("tests/vassal/tiles.sh"))
        .env("MUSTER_VASSAL_TOOLS", tools)
        .env(
            "MUSTER_PLAY_CLASSES",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("vassal-play"),
        )
        .arg(module)
        .arg(cache)
        .output()
        .expect("the tiler runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the tiler failed on {}: {stdout}{}",
        module.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let line =
        stdout.lines().rfind(|l| l.starts_with("{\"sliced\"")).unwrap_or_else(|| {
            panic!(
                "the tiler printed no list: {stdout}{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let report: Value = serde_json::from_str(line).unwrap();
    serde_json::from_value(report["sliced"].clone()).unwrap()
}
