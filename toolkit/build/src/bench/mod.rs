//! `muster bench`: muster's build against the raw cost of the same pixels, in one run.
//!
//! On a copy of the sources in a temporary folder it times:
//!
//! 1. a cold build of every game (empty output folder and cache), recording every image it
//!    draws and every archive it zips;
//! 2. the floor: the same SVGs (each distinct image once) parsed with usvg, rendered whole
//!    with resvg and encoded with the same PNG settings, and the same files zipped, in a
//!    bare parallel loop on the same threads;
//! 3. a rebuild with no change;
//! 4. a rebuild after changing one counter (a movement value in the largest game that
//!    prints one), best of [`ONE_COUNTER_RUNS`] (the same value changed again each time),
//!    with the processor time each run took and the best run's stages, beside its own
//!    floor: the changed game's module written again and flushed to disk;
//! 5. validating every scenario, as `muster validate` does (best of five).
//!
//! Beside the games, it reads hostile inputs (saves and modules shaped to make a reader
//! slow, [`hostile`]) at two sizes, four times apart, with the bound their growth is held
//! to.
//!
//! Peak memory of the cold build is read from the kernel (`VmHWM`, reset before it).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use muster_render::{Encoding, raster};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::cache::DrawJob;
use crate::error::{Error, ErrorKind, IoContext, Result};
use crate::files::{files_under, write_atomic};
use crate::pipeline::Build;
use crate::progress::NoProgress;
use crate::settings::{CounterOptions, Settings};

pub mod hostile;
pub mod monster;

/// What the benchmark measures. Callers set what they need and take the rest from
/// `..BenchSettings::default()`.
#[derive(Debug, Clone)]
pub struct BenchSettings {
    /// Folder of the games to copy and build.
    ///
    /// Default: `sources`.
    pub sources: PathBuf,
    /// Resolution of map images, in dots per inch.
    ///
    /// Default: 300.
    pub map_dpi: u32,
    /// Counter images and print sheets.
    ///
    /// Default: [`CounterOptions::default`].
    pub counters: CounterOptions,
    /// Where the figures are written as JSON.
    ///
    /// Default: `dist/bench.json`.
    pub output: PathBuf,
    /// Instead of the games under `sources`, the generated monster game of this many
    /// counters and of a quarter as many, with how each figure grows between them.
    ///
    /// Default: none.
    pub scale: Option<usize>,
}

impl Default for BenchSettings {
    fn default() -> Self {
        BenchSettings {
            sources: PathBuf::from("sources"),
            map_dpi: 300,
            counters: CounterOptions::default(),
            output: PathBuf::from("dist/bench.json"),
            scale: None,
        }
    }
}

fn render_error(e: impl std::error::Error + Send + Sync + 'static) -> Error {
    Error::with_source(ErrorKind::Render, "failed to draw the floor", e)
}

/// Resets the peak resident set size so the next phase measures its own peak.
fn reset_peak() {
    let _ = fs::write("/proc/self/clear_refs", "5");
}

/// Peak resident set size since the last reset, in bytes (0 where the kernel does not say).
fn peak_bytes() -> u64 {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok())
            })
        })
        .map_or(0, |kb| kb * 1024)
}

/// The floor for one image: parse, render the whole image at once, encode the same way.
fn floor_png(job: &DrawJob) -> Result<usize> {
    let tree = raster::parse(&job.svg).map_err(render_error)?;
    let pixmap = raster::render_pixmap(&tree, job.width, job.height)
        .ok_or_else(|| Error::new(ErrorKind::Render, "pixmap too large"))?;
    let mut rgb = Vec::with_capacity(job.width as usize * job.height as usize * 3);
    for px in pixmap.data().chunks_exact(4) {
        rgb.extend_from_slice(&px[..3]);
    }
    drop(pixmap);
    Ok(raster::encode_png(&rgb, job.width, job.height, Encoding::at(job.dpi))
        .map_err(render_error)?
        .len())
}

/// The time and size of encoding one image's pixels with each PNG setting.
fn png_settings(job: &DrawJob) -> Result<Value> {
    use muster_render::Compression;
    let rgb =
        raster::render_rgb(&job.svg, job.width, job.height).map_err(render_error)?;
    let mut out = serde_json::Map::new();
    for (name, c) in [("fast", Compression::Fast), ("balanced", Compression::Balanced)] {
        let t = Instant::now();
        let encoding = Encoding { compression: c, dpi: job.dpi };
        let bytes = raster::encode_png(&rgb, job.width, job.height, encoding)
            .map_err(render_error)?
            .len();
        out.insert(
            name.into(),
            json!({"seconds": t.elapsed().as_secs_f64(), "bytes": bytes}),
        );
    }
    Ok(
        json!({"image": job.label, "width": job.width, "height": job.height, "encodings": out}),
    )
}

/// Which stage of a build drew an image, from its label.
fn stage_of(job: &DrawJob) -> &'static str {
    if job.label.starts_with("map ") {
        "maps"
    } else if job.label.starts_with("module ") {
        "module"
    } else {
        "counters"
    }
}

/// One build of every game, timed as `muster build` runs it: muster's identity read,
/// the games loaded and built. `record` keeps every image drawn and archive zipped.
fn timed_build(settings: &Settings, record: bool) -> Result<Timed> {
    let t = Instant::now();
    let cpu = cpu_ticks();
    let build = Build::new(settings.clone())?;
    let cache = build.cache(record);
    let built = build.run_with(&cache, &[], &NoProgress)?;
    if built.has_errors() {
        return Err(Error::new(
            ErrorKind::Sources,
            format!("the games under {} do not load", settings.sources.display()),
        ));
    }
    let seconds = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds(cpu, cpu_ticks());
    let summaries =
        built.games.iter().map(serde_json::to_value).collect::<Result<Vec<_>, _>>()?;
    let phases = serde_json::to_value(&built.phase_seconds)?;
    Ok(Timed { seconds, cpu, summaries, phases, recorded: cache.take_recorded() })
}

/// One timed build.
struct Timed {
    /// Wall-clock seconds.
    seconds: f64,
    /// Processor seconds it took, user and system, over every thread (none where the
    /// kernel does not say).
    cpu: Option<f64>,
    /// Each game's report, as JSON.
    summaries: Vec<Value>,
    /// The seconds of the parts that serve every game ([`crate::BuildReport::phase_seconds`]).
    phases: Value,
    /// What the build drew and zipped, when it recorded them.
    recorded: crate::cache::Recorded,
}

/// The processor time this process has taken so far, user and system, over all its
/// threads, as clock ticks and the ticks in a second (from `/proc/self/stat`; none where
/// there is no such file).
#[cfg(target_os = "linux")]
fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces), from the third on:
    // user time is the 14th field, system time the 15th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |field: usize| fields.get(field - 3)?.parse::<u64>().ok();
    Some((ticks(14)? + ticks(15)?, rustix::param::clock_ticks_per_second().max(1)))
}

/// The processor time this process has taken so far: not read off Linux.
#[cfg(not(target_os = "linux"))]
fn cpu_ticks() -> Option<(u64, u64)> {
    None
}

/// The processor seconds between two readings of [`cpu_ticks`].
fn cpu_seconds(before: Option<(u64, u64)>, after: Option<(u64, u64)>) -> Option<f64> {
    let ((before, _), (after, per_second)) = before.zip(after)?;
    Some(after.saturating_sub(before) as f64 / per_second as f64)
}

/// The raw cost that bounds a one-counter rebuild from below: the changed game's module
/// `archive` (every one of its bytes depends on the change's place in it) written again to
/// a temporary file beside it and flushed to disk, best of [`ONE_COUNTER_RUNS`]. Returns
/// the seconds and the bytes.
fn rewrite_floor(archive: &Path) -> Result<Value> {
    let bytes =
        fs::read(archive).io(|| format!("failed to read {}", archive.display()))?;
    let mut best = f64::MAX;
    for _ in 0..ONE_COUNTER_RUNS {
        let t = Instant::now();
        let tmp = crate::files::write_temporary(archive, &bytes)?;
        tmp.as_file()
            .sync_all()
            .io(|| format!("failed to flush a copy of {}", archive.display()))?;
        best = best.min(t.elapsed().as_secs_f64());
        drop(tmp);
    }
    Ok(json!({"seconds": best, "bytes": bytes.len()}))
}

/// How many one-counter rebuilds are timed; the best is reported.
pub const ONE_COUNTER_RUNS: usize = 3;

/// Changes one counter: the first movement value in the counter manifest of the game with
/// the most counter sides that prints one. Returns the game, file and line changed.
fn change_one_counter(sources: &Path, summaries: &[Value]) -> Result<Option<Value>> {
    let mut games: Vec<(&str, u64)> = summaries
        .iter()
        .filter_map(|s| Some((s["game"].as_str()?, s["counter_sides"].as_u64()?)))
        .collect();
    games.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (game, _) in games {
        let path = sources.join(game).join("counters.yaml");
        let Ok(text) = fs::read_to_string(&path) else { continue };
        let Some(at) = text.find("movement: ") else { continue };
        let start = at + "movement: ".len();
        let digits = text[start..].chars().take_while(char::is_ascii_digit).count();
        let Ok(value) = text[start..start + digits].parse::<u32>() else { continue };
        let changed =
            format!("{}{}{}", &text[..start], value + 1, &text[start + digits..]);
        fs::write(&path, changed)
            .io(|| format!("failed to change {}", path.display()))?;
        let line = text[..at].lines().count();
        return Ok(Some(json!({
            "game": game,
            "file": format!("{game}/counters.yaml"),
            "line": line,
            "change": format!("movement {value} → {}", value + 1),
        })));
    }
    Ok(None)
}

/// Runs the benchmark and writes the figures as JSON to `bench.output`; returns them.
///
/// Without [`BenchSettings::scale`] it measures a copy of the games under
/// `bench.sources`. With a scale N it measures the generated monster game
/// ([`monster::generate`]) of N/4 counters and of N counters, one after the other, and
/// reports how each figure grew between them ([`growth`]).
pub fn run(bench: &BenchSettings) -> Result<Value> {
    let report = match bench.scale {
        None => {
            let work = temporary()?;
            copy_games(&bench.sources, &work.path().join("sources"))?;
            measure(bench, work.path())?
        }
        Some(n) => {
            let mut sizes = Vec::new();
            for counters in [(n / 4).max(1), n] {
                let work = temporary()?;
                let shape = monster::generate(&work.path().join("sources"), counters)?;
                let mut figures = measure(bench, work.path())?;
                figures["shape"] = json!({
                    "counters": shape.counters,
                    "formations": shape.formations,
                    "map_sheets": shape.sheets,
                    "scenarios": shape.scenarios,
                    "units_placed": shape.placed,
                });
                sizes.push(figures);
            }
            let growth = growth(&sizes[0], &sizes[1]);
            json!({"scale": n, "sizes": sizes, "growth": growth})
        }
    };
    let mut report = report;
    report["hostile_inputs"] = hostile::measure(1.0)?;
    let mut text = serde_json::to_string_pretty(&report)?;
    text.push('\n');
    write_atomic(&bench.output, text.as_bytes())?;
    Ok(report)
}

/// The figures whose growth with the size of the game is reported, as paths into a
/// size's figures.
pub const GROWING: [(&str, &str, &str); 6] = [
    ("cold build", "cold_build", "seconds"),
    ("floor", "floor", "seconds"),
    ("no-op rebuild", "noop_rebuild", "seconds"),
    ("one-counter rebuild", "one_counter_rebuild", "seconds"),
    ("validation", "validation", "seconds"),
    ("peak memory", "cold_build", "peak_bytes"),
];

/// How much each figure of [`GROWING`] grew from the smaller game to the larger: the
/// ratio of the two values, against the ratio of their counters. A figure grows linearly
/// (`linear: true`) when its ratio is at most the counters' ratio plus a quarter (fixed
/// costs make small games relatively slower, so linear work grows less than that).
pub fn growth(small: &Value, large: &Value) -> Value {
    let size = |v: &Value| v["shape"]["counters"].as_f64().unwrap_or(1.0).max(1.0);
    let counters = size(large) / size(small);
    let figures: serde_json::Map<String, Value> = GROWING
        .iter()
        .map(|(name, group, key)| {
            let (a, b) = (
                small[group][key].as_f64().unwrap_or_default(),
                large[group][key].as_f64().unwrap_or_default(),
            );
            let ratio = if a > 0.0 { b / a } else { 0.0 };
            let linear = ratio <= counters * 1.25;
            (
                name.to_string(),
                json!({"small": a, "large": b, "ratio": ratio, "linear": linear}),
            )
        })
        .collect();
    let linear = figures.values().all(|f| f["linear"] == true);
    json!({"counters_ratio": counters, "figures": figures, "linear": linear})
}

fn temporary() -> Result<tempfile::TempDir> {
    tempfile::tempdir().io(|| "failed to make a temporary folder".to_string())
}

/// Copies every game folder under `from` to `to`.
fn copy_games(from: &Path, to: &Path) -> Result<()> {
    let games = muster_model::discover_games(from)
        .map_err(|e| Error::new(ErrorKind::Sources, e))?;
    let sources = to;
    for dir in games {
        for file in files_under(&dir) {
            let rel = file.strip_prefix(from).unwrap_or(&file);
            let to = sources.join(rel);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent)
                    .io(|| format!("failed to create {}", parent.display()))?;
            }
            fs::copy(&file, &to).io(|| format!("failed to copy {}", file.display()))?;
        }
    }
    Ok(())
}

/// Every figure for the games under `<work>/sources`, built into `<work>/out`.
fn measure(bench: &BenchSettings, work: &Path) -> Result<Value> {
    let sources = work.join("sources");
    let settings = Settings {
        sources: sources.clone(),
        out: work.join("out"),
        games: Vec::new(),
        map_dpi: bench.map_dpi,
        counters: bench.counters.clone(),
        strict: false,
        since: None,
    };
    let (map_dpi, counters) = (bench.map_dpi, &bench.counters);

    // 1. Cold build.
    reset_peak();
    let Timed { seconds: cold_s, summaries, recorded, .. } =
        timed_build(&settings, true)?;
    let cold_peak = peak_bytes();
    let counter_sides: u64 =
        summaries.iter().filter_map(|s| s["counter_sides"].as_u64()).sum();
    let map_pixels: u64 = recorded
        .draws
        .iter()
        .filter(|d| stage_of(d) == "maps")
        .map(|d| u64::from(d.width) * u64::from(d.height))
        .sum();

    // 2. The floor, stage by stage, then the archives.
    let (floor, floor_total) = floor_figures(&recorded)?;
    // PNG settings: the largest image's pixels encoded each way.
    let png_settings = match recorded
        .draws
        .iter()
        .max_by_key(|d| u64::from(d.width) * u64::from(d.height))
    {
        Some(job) => png_settings(job)?,
        None => json!(null),
    };
    drop(recorded);

    // 3. No change.
    let Timed { seconds: noop_s, summaries: noop, .. } = timed_build(&settings, false)?;
    let noop_made: usize =
        noop.iter().map(|s| s["cache"]["made"].as_array().map_or(0, Vec::len)).sum();

    // 4. One counter changed, then changed again twice (the same value, one more each
    // time): the best of the three rebuilds, as the machine's noise is least in it.
    let one = one_counter_rebuild(&settings, &summaries)?;

    // 5. Validation of every scenario, best of five.
    let (scenarios, best) = validation(&sources);

    let floor_stage = |stage: &str| floor[stage]["seconds"].as_f64().unwrap_or_default();
    let report = json!({
        "threads": rayon::current_num_threads(),
        "games": summaries.len(),
        "map_dpi": map_dpi,
        "counter_dpi": counters.dpi,
        "sheet_dpi": counters.sheet_dpi,
        "cold_build": {
            "seconds": cold_s,
            "peak_bytes": cold_peak,
            "counter_sides": counter_sides,
            "counters_per_second": counter_sides as f64 / cold_s,
            "map_pixels": map_pixels,
            "map_pixels_per_second": map_pixels as f64 / cold_s,
        },
        "floor": {
            "seconds": floor_total,
            "counters_per_second": counter_sides as f64 / floor_stage("counters"),
            "map_pixels_per_second": map_pixels as f64 / floor_stage("maps"),
            "stages": floor,
        },
        "ratio_cold_to_floor": cold_s / floor_total,
        "noop_rebuild": {"seconds": noop_s, "made": noop_made},
        "one_counter_rebuild": one,
        "validation": {"scenarios": scenarios, "seconds": best},
        "png_settings": png_settings,
    });
    Ok(report)
}

/// The floor of a build: the seconds it takes to draw the distinct images the build
/// drew, stage by stage, and to zip its archives, each with what was made; and the
/// seconds of them all.
fn floor_figures(
    recorded: &crate::cache::Recorded,
) -> Result<(serde_json::Map<String, Value>, f64)> {
    let mut floor = serde_json::Map::new();
    let mut floor_total = 0.0;
    // An image drawn twice in the build (a module's counter at the counters' resolution)
    // counts once: the floor is the cost of the distinct pixels.
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<&DrawJob> = recorded
        .draws
        .iter()
        .filter(|d| seen.insert((&d.svg, d.width, d.height)))
        .collect();
    for stage in ["maps", "counters", "module"] {
        let jobs: Vec<&DrawJob> =
            distinct.iter().copied().filter(|d| stage_of(d) == stage).collect();
        let t = Instant::now();
        let bytes: usize = jobs
            .par_iter()
            .map(|j| floor_png(j))
            .collect::<Result<Vec<_>>>()?
            .iter()
            .sum();
        let s = t.elapsed().as_secs_f64();
        floor_total += s;
        floor.insert(
            stage.into(),
            json!({"images": jobs.len(), "seconds": s, "png_bytes": bytes}),
        );
    }
    let t = Instant::now();
    let zipped: usize = recorded
        .zips
        .par_iter()
        .map(|files| muster_package::archive::write_zip(files).map(|z| z.len()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Error::new(ErrorKind::Package, e.to_string()))?
        .iter()
        .sum();
    let zip_s = t.elapsed().as_secs_f64();
    floor_total += zip_s;
    floor.insert(
        "zip".into(),
        json!({"archives": recorded.zips.len(), "seconds": zip_s, "bytes": zipped}),
    );
    Ok((floor, floor_total))
}

/// One counter of the games built with `settings` changed, then changed again twice (the
/// same value, one more each time), and rebuilt each time: the best of the three
/// rebuilds, with what it made and the floor of rewriting the changed game's module;
/// null when no counter can be changed.
fn one_counter_rebuild(settings: &Settings, summaries: &[Value]) -> Result<Value> {
    let sources = &settings.sources;
    let changed = change_one_counter(sources, summaries)?;
    Ok(match &changed {
        Some(change) => {
            let first = timed_build(settings, false)?;
            let made: Vec<Value> = first
                .summaries
                .iter()
                .flat_map(|x| x["cache"]["made"].as_array().cloned().unwrap_or_default())
                .collect();
            let mut runs = vec![first];
            for _ in 1..ONE_COUNTER_RUNS {
                change_one_counter(sources, summaries)?;
                runs.push(timed_build(settings, false)?);
            }
            let best = runs
                .iter()
                .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
                .ok_or_else(|| Error::new(ErrorKind::Io, "no rebuild was timed"))?;
            let game = change["game"].as_str().unwrap_or_default();
            let floor =
                rewrite_floor(&settings.out.join("dist").join(format!("{game}.vmod")))?;
            let ratio =
                floor["seconds"].as_f64().filter(|s| *s > 0.0).map(|s| best.seconds / s);
            // Where the best run's time went: the changed game's stages.
            let stages = best
                .summaries
                .iter()
                .find(|s| s["game"] == change["game"])
                .map_or(json!(null), |s| s["stage_seconds"].clone());
            json!({
                "seconds": best.seconds,
                "cpu_seconds": best.cpu,
                "stage_seconds": stages,
                "phase_seconds": best.phases,
                "runs": runs.iter().map(|r| r.seconds).collect::<Vec<_>>(),
                "runs_cpu_seconds": runs.iter().map(|r| r.cpu).collect::<Vec<_>>(),
                "changed": change,
                "made": made,
                "module_rewrite": floor,
                "ratio_to_module_rewrite": ratio,
            })
        }
        None => json!(null),
    })
}

/// The scenarios of the games under `sources`, and the best of five timings of
/// validating them all.
fn validation(sources: &Path) -> (usize, f64) {
    let loaded = muster_model::load(sources, &[], &muster_model::LoadOptions::default());
    let scenarios: usize = loaded.games.iter().map(|g| g.scenarios.len()).sum();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        std::hint::black_box(crate::validate::scenario_findings(&loaded.games, None));
        best = best.min(t.elapsed().as_secs_f64());
    }
    (scenarios, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn processor_time_counts_the_work_done() {
        let before = cpu_ticks().expect("reads /proc/self/stat");
        // This thread kept busy until the process has counted a fifth of a second, or ten
        // seconds have passed: on a loaded machine the work takes longer, but is counted
        // all the same (other tests only add to the process's time).
        let t = Instant::now();
        let mut x = 1u64;
        let mut seconds = 0.0;
        while seconds < 0.2 && t.elapsed().as_secs_f64() < 10.0 {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            seconds = cpu_seconds(Some(before), cpu_ticks()).expect("reads it again");
        }
        assert!(seconds >= 0.2, "{seconds} s counted in {:?} of work", t.elapsed());
        assert_eq!(cpu_seconds(None, cpu_ticks()), None);
    }

    #[test]
    fn growth_compares_each_figure_with_the_growth_of_the_game() {
        let size = |counters: u64, cold: f64, memory: u64| {
            json!({
                "shape": {"counters": counters},
                "cold_build": {"seconds": cold, "peak_bytes": memory},
                "floor": {"seconds": cold / 2.0},
                "noop_rebuild": {"seconds": 0.01},
                "one_counter_rebuild": {"seconds": 0.1},
                "validation": {"seconds": 0.001},
            })
        };
        let linear = growth(&size(100, 1.0, 100), &size(400, 4.5, 300));
        assert_eq!(linear["counters_ratio"], 4.0);
        assert_eq!(linear["figures"]["cold build"]["ratio"], 4.5);
        assert_eq!(linear["figures"]["peak memory"]["ratio"], 3.0);
        assert_eq!(linear["linear"], true);
        let quadratic = growth(&size(100, 1.0, 100), &size(400, 16.0, 300));
        assert_eq!(quadratic["figures"]["cold build"]["linear"], false);
        assert_eq!(quadratic["figures"]["floor"]["linear"], false);
        assert_eq!(quadratic["figures"]["validation"]["linear"], true);
        assert_eq!(quadratic["linear"], false);
    }
}
