//! The build cache: a rebuild with no change does nothing, a changed counter remakes only
//! what shows it, results never differ from a cold build, and `muster clean` undoes it all.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::time::SystemTime;

use serde_json::Value;

use crate::util::{copy_tree, files_under, muster, root};

const BUILD: [&str; 10] = [
    "build",
    "--format",
    "json",
    "--map-dpi",
    "30",
    "--dpi",
    "40",
    "--sheet-dpi",
    "20",
    "--quiet",
];

fn workspace(games: &[&str]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for g in games {
        copy_tree(&root().join("sources").join(g), &tmp.path().join("sources").join(g));
    }
    tmp
}

fn build(dir: &Path) -> Value {
    let out = muster(dir, &BUILD);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every output file (not sources, not the cache): path → (bytes, modification time).
fn outputs(dir: &Path) -> BTreeMap<String, (Vec<u8>, SystemTime)> {
    let mut out = BTreeMap::new();
    for top in ["counters", "maps", "dist"] {
        for p in files_under(&dir.join(top)) {
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            let mtime = fs::metadata(&p).unwrap().modified().unwrap();
            out.insert(rel, (fs::read(&p).unwrap(), mtime));
        }
    }
    out
}

fn game<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["games"].as_array().unwrap().iter().find(|g| g["game"] == id).unwrap()
}

fn made(report: &Value, id: &str) -> Vec<String> {
    game(report, id)["cache"]["made"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_rebuild_with_no_change_rewrites_nothing() {
    let tmp = workspace(&["example-oasis", "gazala-line-1942"]);
    let first = build(tmp.path());
    assert_eq!(game(&first, "example-oasis")["up_to_date"], false);
    let before = outputs(tmp.path());
    assert!(before.len() > 20, "{} outputs", before.len());
    let again = build(tmp.path());
    for g in again["games"].as_array().unwrap() {
        assert_eq!(g["up_to_date"], true, "{}", g["game"]);
        assert_eq!(
            g["counter_sides"],
            game(&first, g["game"].as_str().unwrap())["counter_sides"]
        );
    }
    assert_eq!(outputs(tmp.path()), before, "same bytes, same modification times");
}

#[test]
fn changing_one_counter_remakes_that_counter_its_sheet_and_the_module_only() {
    let tmp = workspace(&["example-oasis"]);
    build(tmp.path());
    let before = outputs(tmp.path());
    let manifest = tmp.path().join("sources/example-oasis/counters.yaml");
    let text = fs::read_to_string(&manifest).unwrap();
    let changed = text.replacen(
        "{printed: 1 Bde HQ, front: {movement: 8}}",
        "{printed: 1 Bde HQ, front: {movement: 9}}",
        1,
    );
    assert_ne!(text, changed);
    fs::write(&manifest, changed).unwrap();
    let report = build(tmp.path());
    let g = game(&report, "example-oasis");
    assert_eq!(g["up_to_date"], false);
    let mut made = made(&report, "example-oasis");
    made.sort();
    let counter: Vec<&String> = made
        .iter()
        .filter(|m| m.starts_with("counter ") && m.ends_with(".png"))
        .collect();
    assert_eq!(counter.len(), 1, "{made:?}");
    assert!(counter[0].ends_with("-front.png"), "{made:?}");
    // Its sides are drawn again with those of its run of counters only.
    let runs: Vec<&String> =
        made.iter().filter(|m| m.starts_with("counter sides run ")).collect();
    assert_eq!(runs, ["counter sides run 1 of example-oasis"], "{made:?}");
    assert!(made.contains(&"sheets.pdf of example-oasis".to_string()), "{made:?}");
    assert!(
        made.contains(&"buildFile.xml in example-oasis.vmod".to_string()),
        "{made:?}"
    );
    // Of the palette, only the panel that holds it is written again.
    let panels: Vec<&String> =
        made.iter().filter(|m| m.starts_with("buildFile.xml panel ")).collect();
    assert_eq!(panels, ["buildFile.xml panel 1st Brigade of example-oasis"], "{made:?}");
    assert!(made.contains(&"contact.png".to_string()), "{made:?}");
    let sheets: Vec<&String> = made.iter().filter(|m| m.starts_with("sheet-")).collect();
    assert_eq!(sheets.len(), 1, "one sheet page shows the front: {made:?}");
    assert!(!made.iter().any(|m| m.starts_with("map ")), "{made:?}");
    assert!(g["cache"]["reused"].as_u64().unwrap() > 10);

    // Only the files showing the counter changed.
    let after = outputs(tmp.path());
    let changed: Vec<&String> = after
        .keys()
        .filter(|k| before.get(*k).map(|b| &b.0) != Some(&after[*k].0))
        .collect();
    assert!(
        changed.iter().any(|c| c.ends_with(counter[0].trim_start_matches("counter ")))
    );
    for c in &changed {
        assert!(
            c.starts_with("counters/")
                || c.ends_with(".vmod")
                || c.contains("/web/")
                || c.ends_with("game.json"),
            "{c} changed: {changed:?}"
        );
    }
    let unchanged = after.keys().filter(|k| before.get(*k) == Some(&after[*k])).count();
    assert!(unchanged > after.len() / 2, "untouched files keep their times");

    // The incremental result is the cold build's, byte for byte, but for the release
    // record: it keeps the release the first build made, which a cold build never saw.
    let cold = tempfile::tempdir().unwrap();
    copy_tree(&tmp.path().join("sources"), &cold.path().join("sources"));
    build(cold.path());
    let cold_outputs = outputs(cold.path());
    assert_eq!(cold_outputs.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>());
    let record = "dist/example-oasis/release.json";
    for (k, (bytes, _)) in &cold_outputs {
        if k != record {
            assert!(bytes == &after[k].0, "{k} differs from a cold build");
        }
    }
    assert!(before[record].0 == after[record].0, "the release record stays the first");
}

#[test]
fn touched_outputs_are_rebuilt_and_stray_files_left_and_named() {
    let tmp = workspace(&["example-oasis"]);
    build(tmp.path());
    let map = tmp.path().join("maps/example-oasis/oasis.png");
    let bytes = fs::read(&map).unwrap();
    fs::remove_file(&map).unwrap();
    let stray = tmp.path().join("dist/example-oasis/web/left-over.png");
    fs::write(&stray, b"old").unwrap();
    let report = build(tmp.path());
    assert_eq!(game(&report, "example-oasis")["up_to_date"], false);
    assert!(made(&report, "example-oasis").is_empty(), "everything came from the cache");
    assert_eq!(fs::read(&map).unwrap(), bytes);
    assert_eq!(fs::read(&stray).unwrap(), b"old", "a file muster did not write stays");
    let left = &game(&report, "example-oasis")["left"];
    assert_eq!(left[0]["path"], "dist/example-oasis/web/left-over.png", "{left}");
}

#[test]
fn a_damaged_cache_is_noticed_and_remade() {
    let tmp = workspace(&["example-oasis"]);
    build(tmp.path());
    let before = outputs(tmp.path());
    // Damage every cached object and drop the stamps.
    let cache = tmp.path().join(".muster-cache");
    let objects = files_under(&cache.join("objects"));
    for p in &objects {
        fs::write(p, b"garbage").unwrap();
    }
    let damaged = objects.len();
    assert!(damaged > 10);
    fs::remove_dir_all(cache.join("games")).unwrap();
    let report = build(tmp.path());
    assert!(made(&report, "example-oasis").len() > 10);
    let after = outputs(tmp.path());
    for (k, (bytes, _)) in &before {
        assert!(bytes == &after[k].0, "{k}");
    }
}

#[test]
fn clean_removes_outputs_and_cache_but_not_other_files() {
    let tmp = workspace(&["example-oasis", "gazala-line-1942"]);
    build(tmp.path());
    let notes = tmp.path().join("dist/notes.txt");
    fs::write(&notes, b"mine").unwrap();
    let out = muster(tmp.path(), &["clean", "--game", "gazala-line-1942", "--quiet"]);
    assert!(out.status.success());
    assert!(!tmp.path().join("dist/gazala-line-1942.vmod").exists());
    assert!(tmp.path().join("dist/example-oasis.vmod").is_file());
    assert!(!tmp.path().join(".muster-cache/games/gazala-line-1942.json").exists());
    let out = muster(tmp.path(), &["clean"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("removed"), "{err}");
    for gone in ["counters", "maps", ".muster-cache", "dist/example-oasis"] {
        assert!(!tmp.path().join(gone).exists(), "{gone}");
    }
    assert_eq!(fs::read(&notes).unwrap(), b"mine");
    assert!(tmp.path().join("sources/example-oasis/game.yaml").is_file());
}

#[test]
fn builds_off_a_terminal_draw_no_progress_bars_and_end_with_one_line_per_game() {
    let tmp = workspace(&["example-oasis", "gazala-line-1942"]);
    let out = muster(
        tmp.path(),
        &["build", "--map-dpi", "30", "--dpi", "40", "--sheet-dpi", "20"],
    );
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    let lines: Vec<&str> = err.lines().collect();
    // One line per game and the total, besides what needs attention (Gazala Line 1942's
    // `German Tank Destroyer` does not fit its counter).
    let summaries = lines.iter().filter(|l| l.contains(" counter sides, ")).count();
    assert_eq!(summaries, 2, "{err}");
    assert!(
        lines.iter().any(|l| l.starts_with(
            "example-oasis: 11 counter sides, 2 sheet pages, 1 maps (grid fitted to the painting within 0.01 px), 1 scenarios"
        )),
        "{err}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("built 2 game(s)")).count(),
        1,
        "{err}"
    );
    let again = muster(
        tmp.path(),
        &["build", "--map-dpi", "30", "--dpi", "40", "--sheet-dpi", "20"],
    );
    assert!(String::from_utf8_lossy(&again.stderr).contains("up to date"));
    let quiet = muster(
        tmp.path(),
        &["build", "--quiet", "--map-dpi", "30", "--dpi", "40", "--sheet-dpi", "20"],
    );
    let quiet = String::from_utf8_lossy(&quiet.stderr);
    assert!(!quiet.contains(" counter sides, ") && !quiet.contains("built "), "{quiet}");
}

#[test]
fn bench_times_every_figure_in_one_run() {
    let tmp = workspace(&["example-oasis", "gazala-1942"]);
    let out = muster(
        tmp.path(),
        &[
            "bench",
            "--map-dpi",
            "20",
            "--dpi",
            "30",
            "--sheet-dpi",
            "15",
            "--output",
            "bench.json",
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "cold build of 2 games",
        "floor",
        "ratio cold build / floor",
        "no-op rebuild",
        "one-counter rebuild",
        "validating all 4 scenarios",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    let v: Value =
        serde_json::from_slice(&fs::read(tmp.path().join("bench.json")).unwrap())
            .unwrap();
    assert!(v["cold_build"]["seconds"].as_f64().unwrap() > 0.0);
    assert!(v["floor"]["seconds"].as_f64().unwrap() > 0.0);
    assert!(v["ratio_cold_to_floor"].as_f64().unwrap() > 0.0);
    assert_eq!(v["floor"]["stages"]["zip"]["archives"], 2);
    assert_eq!(v["noop_rebuild"]["made"], 0);
    // gazala-1942 has the most counter sides with a movement value (Rommel's).
    assert_eq!(v["one_counter_rebuild"]["changed"]["game"], "gazala-1942");
    let made: Vec<&str> = v["one_counter_rebuild"]["made"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(made.contains(&"buildFile.xml in gazala-1942.vmod"), "{made:?}");
    assert!(!made.iter().any(|m| m.starts_with("map ")), "{made:?}");
    // The best of three rebuilds, each after changing the same value once more.
    let numbers = |list: &Value| -> Vec<f64> {
        list.as_array().unwrap().iter().map(|s| s.as_f64().unwrap()).collect()
    };
    let runs = numbers(&v["one_counter_rebuild"]["runs"]);
    assert_eq!(runs.len(), 3, "{runs:?}");
    let best = v["one_counter_rebuild"]["seconds"].as_f64().unwrap();
    assert!(
        runs.iter().all(|&s| s >= best) && runs.contains(&best),
        "{best} of {runs:?}"
    );
    // Each run's processor time, and the best run's stages (the module among them).
    let one = &v["one_counter_rebuild"];
    let cpu = numbers(&one["runs_cpu_seconds"]);
    assert_eq!(cpu.len(), 3, "{cpu:?}");
    // No more than every thread busy all the run (give or take a clock tick each way).
    let threads = v["threads"].as_f64().unwrap();
    for (s, wall) in cpu.iter().zip(&runs) {
        assert!(
            *s >= 0.0 && *s <= wall * threads + 0.05,
            "{s} s in {wall} s of {threads}"
        );
    }
    let at = runs.iter().position(|&s| s == best).unwrap();
    assert_eq!(one["cpu_seconds"].as_f64(), Some(cpu[at]), "{one}");
    let stages = one["stage_seconds"].as_object().unwrap();
    for stage in ["counters", "setups", "module", "errata", "commit"] {
        assert!(stages[stage].as_f64().unwrap() > 0.0, "{stage} of {stages:?}");
    }
    let module = stages["module"].as_f64().unwrap();
    assert!(module < best, "the module's {module} s within the run's {best} s");
    // The parts that serve every game: the load and the cache's prune.
    let phases = one["phase_seconds"].as_object().unwrap();
    let load = phases["load"].as_f64().unwrap();
    assert!(load > 0.0 && load + module < best, "{phases:?} in {best} s");
    assert!(phases["prune"].as_f64().unwrap() >= 0.0, "{phases:?}");
    assert!(text.contains("of processor time"), "{text}");
    assert!(text.contains("for every game (s): load "), "{text}");
    // Its floor: the module as built, written again and flushed.
    let rewrite = &v["one_counter_rebuild"]["module_rewrite"];
    assert!(rewrite["seconds"].as_f64().unwrap() > 0.0, "{rewrite}");
    assert!(rewrite["bytes"].as_u64().unwrap() > 100_000, "{rewrite}");
    let ratio = v["one_counter_rebuild"]["ratio_to_module_rewrite"].as_f64().unwrap();
    assert!((ratio - best / rewrite["seconds"].as_f64().unwrap()).abs() < 1e-9);
    assert!(text.contains("its floor (the module"), "{text}");
    assert_eq!(v["validation"]["scenarios"], 4);
    assert!(v["cold_build"]["peak_bytes"].as_u64().unwrap() > 0);
    // The benchmark works on a copy: the sources are as they were.
    let manifest =
        fs::read_to_string(tmp.path().join("sources/gazala-1942/counters.yaml")).unwrap();
    assert_eq!(
        manifest,
        fs::read_to_string(root().join("sources/gazala-1942/counters.yaml")).unwrap()
    );
}

/// `muster bench --scale N` in `dir` at resolutions of 10 dpi (a run of seconds), writing
/// `output`, with the arguments `more`.
fn small_monster_bench(
    dir: &Path,
    scale: &str,
    output: &str,
    more: &[&str],
) -> std::process::Output {
    let mut args = vec!["bench", "--scale", scale, "--output", output];
    args.extend(["--map-dpi", "10", "--dpi", "10", "--sheet-dpi", "10"]);
    args.extend_from_slice(more);
    muster(dir, &args)
}

#[test]
fn bench_scale_measures_a_generated_game_at_two_sizes_and_their_growth() {
    let tmp = tempfile::tempdir().unwrap();
    let out = small_monster_bench(tmp.path(), "8", "bench.json", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "monster game of 2 counters",
        "monster game of 8 counters",
        "every figure linear",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    let v: Value =
        serde_json::from_slice(&fs::read(tmp.path().join("bench.json")).unwrap())
            .unwrap();
    assert_eq!(v["scale"], 8);
    let sizes = v["sizes"].as_array().unwrap();
    let counters: Vec<u64> =
        sizes.iter().map(|s| s["shape"]["counters"].as_u64().unwrap()).collect();
    assert_eq!(counters, [2, 8]);
    for s in sizes {
        assert_eq!(s["games"], 1);
        assert_eq!(s["shape"]["scenarios"], 20);
        assert_eq!(s["validation"]["scenarios"], 20);
        assert_eq!(s["noop_rebuild"]["made"], 0);
        assert_eq!(s["one_counter_rebuild"]["changed"]["game"], "monster");
        assert_eq!(
            s["cold_build"]["counter_sides"],
            2 * s["shape"]["counters"].as_u64().unwrap()
        );
    }
    // Each growth is the ratio of the two sizes' figures, judged against the counters'.
    let g = &v["growth"];
    assert_eq!(g["counters_ratio"], 4.0);
    let figures = g["figures"].as_object().unwrap();
    assert_eq!(figures.len(), 6);
    let cold = &figures["cold build"];
    let (small, large) = (
        sizes[0]["cold_build"]["seconds"].as_f64().unwrap(),
        sizes[1]["cold_build"]["seconds"].as_f64().unwrap(),
    );
    assert_eq!(cold["small"].as_f64().unwrap(), small);
    assert!((cold["ratio"].as_f64().unwrap() - large / small).abs() < 1e-9);
    assert_eq!(cold["linear"], large / small <= 5.0);
    let all = figures.values().all(|f| f["linear"] == true);
    assert_eq!(g["linear"], all);
    // As JSON: the figures written to the output file, and nothing else, on stdout.
    let out = small_monster_bench(tmp.path(), "4", "b4.json", &["--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let written: Value =
        serde_json::from_slice(&fs::read(tmp.path().join("b4.json")).unwrap()).unwrap();
    assert_eq!(printed, written);
    assert_eq!(printed["scale"], 4);
}

#[test]
fn clean_removes_only_what_the_build_recorded_and_any_stale_temporary_file() {
    let tmp = workspace(&["example-oasis"]);
    build(tmp.path());
    let d = tmp.path();
    // What a killed build leaves: a staged module beside dist/, a staged image in a folder.
    let beside = d.join("dist/.muster-example-oasis.vmod.k1ll3d.tmp");
    let inside = d.join("dist/example-oasis/web/.muster-oasis.png.k1ll3d.tmp");
    fs::write(&beside, b"half").unwrap();
    fs::write(&inside, b"half").unwrap();
    build(d);
    assert!(!beside.exists() && !inside.exists(), "the next build removes them");
    // An up-to-date build too.
    fs::write(&beside, b"half").unwrap();
    let report = build(d);
    assert_eq!(game(&report, "example-oasis")["up_to_date"], true);
    assert!(!beside.exists());

    let mine = [
        d.join("counters/example-oasis/proof.pdf"),
        d.join("dist/example-oasis/notes.md"),
    ];
    for f in &mine {
        fs::write(f, b"mine").unwrap();
    }
    fs::write(&beside, b"half").unwrap();
    fs::write(&inside, b"half").unwrap();
    let other = d.join("maps/.muster-gone.png.k1ll3d.tmp");
    fs::write(&other, b"half").unwrap();
    let out = muster(d, &["clean", "--game", "example-oasis", "--format", "json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["unrecorded"], serde_json::json!([]));
    for f in &mine {
        assert_eq!(fs::read(f).unwrap(), b"mine", "{}", f.display());
    }
    assert!(!beside.exists() && !inside.exists());
    assert!(!d.join("dist/example-oasis.vmod").exists());
    assert!(!d.join("maps/example-oasis").exists(), "emptied folders go");
    assert!(files_under(&d.join("counters")) == vec![mine[0].clone()]);
    // A clean of everything removes every stray temporary file too.
    assert!(other.exists());
    assert!(muster(d, &["clean"]).status.success());
    assert!(!other.exists());
    assert!(mine.iter().all(|f| f.is_file()));
}
