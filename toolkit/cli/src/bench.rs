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
//!    prints one);
//! 5. validating every scenario, as `muster validate` does (best of five).
//!
//! Peak memory of the cold build is read from the kernel (`VmHWM`, reset before it).

use std::fs;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use muster_render::raster;
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::args::{CounterArgs, Format, Global};
use crate::build::{Settings, cache_dir};
use crate::cache::{Cache, DrawJob};
use crate::output::write_atomic;

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
    let tree = raster::parse(&job.svg)?;
    let pixmap = raster::render_pixmap(&tree, job.width, job.height)
        .context("pixmap too large")?;
    let mut rgb = Vec::with_capacity(job.width as usize * job.height as usize * 3);
    for px in pixmap.data().chunks_exact(4) {
        rgb.extend_from_slice(&px[..3]);
    }
    drop(pixmap);
    Ok(raster::encode_png(
        &rgb,
        job.width,
        job.height,
        muster_render::Compression::Balanced,
    )?
    .len())
}

/// The time and size of encoding one image's pixels with each PNG setting.
fn png_settings(job: &DrawJob) -> Result<Value> {
    use muster_render::Compression;
    let rgb = raster::render_rgb(&job.svg, job.width, job.height)?;
    let mut out = serde_json::Map::new();
    for (name, c) in [("fast", Compression::Fast), ("balanced", Compression::Balanced)] {
        let t = Instant::now();
        let bytes = raster::encode_png(&rgb, job.width, job.height, c)?.len();
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

/// One build of every game under `g.sources` into `g.out`, timed.
fn timed_build(
    g: &Global,
    settings: &Settings,
    cache: &Cache,
) -> Result<(f64, Vec<Value>)> {
    let t = Instant::now();
    let loaded =
        muster_model::load(&g.sources, &[], &muster_model::LoadOptions::default());
    anyhow::ensure!(
        !loaded.has_errors(),
        "the games under {} do not load",
        g.sources.display()
    );
    let built = crate::build::run(g, &loaded, true, settings, cache)?;
    Ok((t.elapsed().as_secs_f64(), built.summaries))
}

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
            .with_context(|| format!("failed to change {}", path.display()))?;
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

/// Runs the benchmark on the games under `g.sources`, prints the figures and writes them
/// as JSON to `output`.
pub fn run(
    g: &Global,
    map_dpi: u32,
    counters: &CounterArgs,
    output: &Path,
) -> Result<Value> {
    let work = tempfile::tempdir().context("failed to make a temporary folder")?;
    let sources = work.path().join("sources");
    for dir in muster_model::discover_games(&g.sources).map_err(anyhow::Error::msg)? {
        for file in crate::cache::files_under(&dir) {
            let rel = file.strip_prefix(&g.sources).unwrap_or(&file);
            let to = sources.join(rel);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::copy(&file, &to)
                .with_context(|| format!("failed to copy {}", file.display()))?;
        }
    }
    let bench = Global {
        sources: sources.clone(),
        out: work.path().join("out"),
        quiet: true,
        jobs: g.jobs,
    };
    let settings = Settings { map_dpi, counters, format: Format::Text };

    // 1. Cold build.
    let cache = Cache::open(cache_dir(&bench.out), true)?;
    reset_peak();
    let (cold_s, summaries) = timed_build(&bench, &settings, &cache)?;
    let cold_peak = peak_bytes();
    let recorded = cache.take_recorded();
    let counter_sides: u64 =
        summaries.iter().filter_map(|s| s["counter_sides"].as_u64()).sum();
    let map_pixels: u64 = recorded
        .draws
        .iter()
        .filter(|d| stage_of(d) == "maps")
        .map(|d| u64::from(d.width) * u64::from(d.height))
        .sum();

    // 2. The floor, stage by stage, then the archives.
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
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .iter()
        .sum();
    let zip_s = t.elapsed().as_secs_f64();
    floor_total += zip_s;
    floor.insert(
        "zip".into(),
        json!({"archives": recorded.zips.len(), "seconds": zip_s, "bytes": zipped}),
    );
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
    let cache = Cache::open(cache_dir(&bench.out), false)?;
    let (noop_s, noop) = timed_build(&bench, &settings, &cache)?;
    let noop_made: usize =
        noop.iter().map(|s| s["cache"]["made"].as_array().map_or(0, Vec::len)).sum();

    // 4. One counter changed.
    let changed = change_one_counter(&sources, &summaries)?;
    let one = match &changed {
        Some(change) => {
            let cache = Cache::open(cache_dir(&bench.out), false)?;
            let (s, after) = timed_build(&bench, &settings, &cache)?;
            let made: Vec<Value> = after
                .iter()
                .flat_map(|x| x["cache"]["made"].as_array().cloned().unwrap_or_default())
                .collect();
            json!({"seconds": s, "changed": change, "made": made})
        }
        None => json!(null),
    };

    // 5. Validation of every scenario, best of five.
    let loaded = muster_model::load(&sources, &[], &muster_model::LoadOptions::default());
    let scenarios: usize = loaded.games.iter().map(|g| g.scenarios.len()).sum();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        std::hint::black_box(crate::validate::scenario_findings(&loaded.games, None));
        best = best.min(t.elapsed().as_secs_f64());
    }

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
    print_report(&report);
    let mut text = serde_json::to_string_pretty(&report)?;
    text.push('\n');
    write_atomic(output, text.as_bytes())?;
    println!("figures written to {}", output.display());
    Ok(report)
}

fn print_report(r: &Value) {
    let f = |v: &Value| v.as_f64().unwrap_or_default();
    let c = &r["cold_build"];
    println!(
        "cold build of {} games (maps {} dpi, counters {} dpi, sheets {} dpi, {} threads): {:.2} s, peak {:.0} MiB",
        r["games"],
        r["map_dpi"],
        r["counter_dpi"],
        r["sheet_dpi"],
        r["threads"],
        f(&c["seconds"]),
        f(&c["peak_bytes"]) / 1048576.0
    );
    println!(
        "  whole build: {:.0} counter sides/s and {:.1} Mpx of map/s, everything else included",
        f(&c["counters_per_second"]),
        f(&c["map_pixels_per_second"]) / 1e6
    );
    let fl = &r["floor"];
    println!(
        "floor (bare resvg + PNG encoder + zip on the same inputs): {:.2} s",
        f(&fl["seconds"])
    );
    println!(
        "  {:.0} counter sides/s (counter, sheet and contact images alone), {:.1} Mpx of map/s (maps alone)",
        f(&fl["counters_per_second"]),
        f(&fl["map_pixels_per_second"]) / 1e6
    );
    for (stage, v) in fl["stages"].as_object().into_iter().flatten() {
        println!("  {stage}: {:.2} s", f(&v["seconds"]));
    }
    println!("ratio cold build / floor: {:.2}", f(&r["ratio_cold_to_floor"]));
    println!(
        "no-op rebuild: {:.3} s ({} made)",
        f(&r["noop_rebuild"]["seconds"]),
        r["noop_rebuild"]["made"]
    );
    let one = &r["one_counter_rebuild"];
    if one.is_null() {
        println!("one-counter rebuild: no counter with a movement value to change");
    } else {
        println!(
            "one-counter rebuild ({} line {}, {}): {:.3} s, made {}",
            one["changed"]["file"].as_str().unwrap_or_default(),
            one["changed"]["line"],
            one["changed"]["change"].as_str().unwrap_or_default(),
            f(&one["seconds"]),
            one["made"]
                .as_array()
                .map(|m| m
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default()
        );
    }
    let p = &r["png_settings"];
    for (name, e) in p["encodings"].as_object().into_iter().flatten() {
        println!(
            "PNG {name} on {} ({}x{}): {:.2} s, {:.1} MB{}",
            p["image"].as_str().unwrap_or_default(),
            p["width"],
            p["height"],
            f(&e["seconds"]),
            f(&e["bytes"]) / 1e6,
            if name == "balanced" { " (muster's setting)" } else { "" }
        );
    }
    println!(
        "validating all {} scenarios: {:.1} ms",
        r["validation"]["scenarios"],
        f(&r["validation"]["seconds"]) * 1000.0
    );
}
