//! `muster pieces` against VASSAL's own answers on the module fixtures of
//! `tests/modules/`: each fixture is packed into a `.vmod` (`pack.py`), each of its saves
//! listed with `--format json`, and every piece's location and name compared with the
//! record VASSAL 3.7.26 gave (`expected/<save>.json`). A piece muster warns about
//! (`unmodelled-component`: a class that is not VASSAL's own, an expression in its name)
//! may differ; any other difference fails the test, listed. Empty decks, which VASSAL's
//! answers list among the pieces, are decks for muster. Empty decks, which VASSAL's
//! answers list among the pieces, are decks for muster.
//!
//! Files of public modules that stay outside the repository (a buildFile, saves) are
//! looked for under `MUSTER_MODULE_DATA/<slug>/` (default `../shared/vassal-modules/`);
//! a fixture without them is skipped with a note. When the VASSAL harness is there, the recorded answers are checked against a
//! new run of the engine too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::{muster, root};

/// A fixture: its folder, the folder of its files kept outside the repository, and
/// its saves with VASSAL's answers.
pub(crate) struct Fixture {
    /// The fixture's folder name.
    pub(crate) slug: String,
    dir: PathBuf,
    data: Option<PathBuf>,
    saves: Vec<(PathBuf, PathBuf)>,
}

/// Every fixture of `tests/modules/` whose files are at hand.
pub(crate) fn fixtures() -> Vec<Fixture> {
    let modules = root().join("tests/modules");
    let data_root = Some(
        std::env::var_os("MUSTER_MODULE_DATA")
            .map_or_else(|| root().join("../shared/vassal-modules"), PathBuf::from),
    );
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(&modules) else { return out };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("expected").is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let slug = dir.file_name().unwrap().to_string_lossy().to_string();
        let data = data_root.as_ref().map(|d| d.join(&slug)).filter(|d| d.is_dir());
        let has = |name: &str| {
            dir.join(name).is_file()
                || data.as_ref().is_some_and(|d| d.join(name).is_file())
        };
        if !has("buildFile.xml") && !has("buildFile") {
            eprintln!(
                "{slug}: its buildFile is kept outside the repository; set MUSTER_MODULE_DATA"
            );
            continue;
        }
        let mut saves = Vec::new();
        for e in std::fs::read_dir(dir.join("expected")).unwrap().flatten() {
            let expected = e.path();
            let Some(stem) =
                expected.file_stem().map(|s| s.to_string_lossy().to_string())
            else {
                continue;
            };
            let name = format!("{stem}.vsav");
            let save = [Some(dir.clone()), data.clone()]
                .into_iter()
                .flatten()
                .map(|d| d.join(&name))
                .find(|p| p.is_file());
            match save {
                Some(save) => saves.push((save, expected)),
                None => eprintln!("{slug}: no {name}; set MUSTER_MODULE_DATA"),
            }
        }
        saves.sort();
        out.push(Fixture { slug, dir, data, saves });
    }
    out
}

/// Packs a fixture with the corpus's own packer.
pub(crate) fn pack(f: &Fixture, out: &Path) -> PathBuf {
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("tests/modules/pack.py")).arg(&f.dir).arg(out);
    if let Some(d) = &f.data {
        cmd.arg("--data").arg(d);
    }
    let o = cmd.output().expect("python3 runs pack.py");
    assert!(
        o.status.success(),
        "{}: pack.py: {}",
        f.slug,
        String::from_utf8_lossy(&o.stderr)
    );
    out.join(format!("{}.vmod", f.slug))
}

/// The pieces of an oracle report or recorded answer, by id; empty decks are not pieces.
fn oracle_pieces(doc: &Value) -> BTreeMap<String, Value> {
    let list = doc
        .get("pieces")
        .or_else(|| doc.get("game").and_then(|g| g.get("pieces")))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    list.into_iter()
        .filter(|p| p["in"] != "empty-deck")
        .filter_map(|p| Some((p["id"].as_str()?.to_string(), p)))
        .collect()
}

/// What muster says of one save: its pieces by id, and the ids it warns about.
fn listed(module: &Path, save: &Path) -> (BTreeMap<String, Value>, BTreeSet<String>) {
    let doc = crate::util::pieces_json(save.parent().unwrap(), save, module);
    let report = &doc[0];
    let pieces = report["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap().to_string(), p.clone()))
        .collect();
    let warned = report["unmodelled"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u["id"].as_str().map(str::to_string))
        .collect();
    (pieces, warned)
}

/// Compares one save; returns (pieces, agreeing on location and name, warned about) and
/// adds each difference to `wrong`.
fn compare(
    label: &str,
    expected: &BTreeMap<String, Value>,
    (pieces, warned): &(BTreeMap<String, Value>, BTreeSet<String>),
    wrong: &mut Vec<String>,
) -> (usize, usize, usize) {
    let (mut agree, mut warn) = (0, 0);
    for (id, v) in expected {
        let Some(m) = pieces.get(id) else {
            wrong.push(format!("{label}: piece {id} ({}) is not listed", v["name"]));
            continue;
        };
        let same_location = m["location"] == v["location"] && m["map"] == v["map"];
        let same_name = m["name"] == v["name"];
        if same_location && same_name {
            agree += 1;
        } else if warned.contains(id) {
            warn += 1;
        } else {
            wrong.push(format!(
                "{label}: piece {id}: VASSAL {} at {} on {} | muster {} at {} on {}",
                v["name"], v["location"], v["map"], m["name"], m["location"], m["map"]
            ));
        }
    }
    // Which pieces a save holds is the save decoder's matter, tested elsewhere; a piece
    // VASSAL does not list after loading the game is noted.
    for (id, m) in pieces {
        if !expected.contains_key(id) {
            eprintln!("{label}: piece {id} ({}) is not one VASSAL lists", m["name"]);
        }
    }
    (expected.len(), agree, warn)
}

#[test]
fn pieces_names_every_piece_of_the_module_fixtures_as_vassal_does() {
    let tmp = tempfile::tempdir().unwrap();
    let (mut total, mut agree, mut warned, mut saves) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    for f in fixtures() {
        let module = pack(&f, tmp.path());
        for (save, expected) in &f.saves {
            let label =
                format!("{}/{}", f.slug, save.file_name().unwrap().to_string_lossy());
            let want = oracle_pieces(
                &serde_json::from_slice(&std::fs::read(expected).unwrap()).unwrap(),
            );
            let (n, a, w) = compare(&label, &want, &listed(&module, save), &mut wrong);
            eprintln!("{label}: {a} of {n} pieces agree, {w} warned about");
            (total, agree, warned, saves) = (total + n, agree + a, warned + w, saves + 1);
        }
    }
    assert!(saves > 0, "no fixture save under tests/modules");
    eprintln!(
        "all: {agree} of {total} pieces agree on location and name, {warned} warned about"
    );
    assert!(wrong.is_empty(), "{} difference(s):\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn vassal_still_gives_the_recorded_answers() {
    let Some(tools) = crate::vassal::tools() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let mut wrong = Vec::new();
    for f in fixtures() {
        let module = pack(&f, tmp.path());
        for (save, expected) in &f.saves {
            let stem = save.file_stem().unwrap().to_string_lossy().replace(' ', "_");
            let label = format!("module-reader-{}-{stem}", f.slug);
            let run = crate::vassal::run(
                &tools,
                &module,
                &[save.to_str().unwrap(), "--no-render"],
                &label,
            );
            let now = oracle_pieces(&run.report);
            let want = oracle_pieces(
                &serde_json::from_slice(&std::fs::read(expected).unwrap()).unwrap(),
            );
            for (id, v) in &want {
                let fields = |p: &Value| {
                    (p["name"].clone(), p["map"].clone(), p["location"].clone())
                };
                if now.get(id).map(fields) != Some(fields(v)) {
                    wrong.push(format!(
                        "{label}: piece {id}: recorded {v} | now {:?}",
                        now.get(id)
                    ));
                }
            }
            if now.len() != want.len() {
                wrong.push(format!(
                    "{label}: {} pieces now, {} recorded",
                    now.len(),
                    want.len()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_grid_of_a_modules_own_class_is_a_warning_not_a_location() {
    use muster_package::archive::write_zip;
    use muster_package::vassal::save::{KEY, command_stream, obfuscate};
    let dir = tempfile::tempdir().unwrap();
    let board = "VASSAL.build.module.map.boardPicker.Board";
    let xml = format!(
        "<VASSAL.launch.BasicModule name=\"m\"><VASSAL.build.module.Map mapName=\"Main\">\
         <VASSAL.build.module.map.BoardPicker>\
         <{board} name=\"Crawl\" width=\"100\" height=\"100\"><org.example.CrawlGrid/></{board}>\
         </VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>\
         </VASSAL.launch.BasicModule>"
    );
    let module = dir.path().join("m.vmod");
    let files = [("buildFile.xml".to_string(), xml.into_bytes())];
    std::fs::write(&module, write_zip(&files.into()).unwrap()).unwrap();
    let stream = command_stream(
        &["+/7/piece;;;a.png;Scout/Main;40;40;1;0".to_string()],
        &["MainBoardPicker\tCrawl\t0\t0".to_string()],
    );
    let files = [("savedGame".to_string(), obfuscate(&stream, KEY))];
    let save = dir.path().join("g.vsav");
    std::fs::write(&save, write_zip(&files.into()).unwrap()).unwrap();
    let out = muster(dir.path(), &["pieces", "g.vsav", "--module", "m.vmod"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "g.vsav: warning [unmodelled-component] entry 4 (7) not modelled: its location on map `Main` is not told: \
             Map \"Main\" > BoardPicker > Board \"Crawl\" > CrawlGrid uses the class org.example.CrawlGrid"
        ),
        "{text}"
    );
    let out = muster(
        dir.path(),
        &["pieces", "g.vsav", "--module", "m.vmod", "--format", "json"],
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc[0]["pieces"][0]["location"], Value::Null);
    assert_eq!(doc[0]["unmodelled"][0]["kind"], "unmodelled-component");
}
