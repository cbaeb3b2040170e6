//! `muster bench`: runs the library's benchmark and prints its figures.

use anyhow::Result;
use serde_json::Value;

use crate::args::Format;
use crate::out::outln;

/// Prints the benchmark's figures.
pub fn print_report(r: &Value) -> Result<()> {
    let f = |v: &Value| v.as_f64().unwrap_or_default();
    let c = &r["cold_build"];
    outln!(
        "cold build of {} games (maps {} dpi, counters {} dpi, sheets {} dpi, {} threads): {:.2} s, peak {:.0} MiB",
        r["games"],
        r["map_dpi"],
        r["counter_dpi"],
        r["sheet_dpi"],
        r["threads"],
        f(&c["seconds"]),
        f(&c["peak_bytes"]) / 1048576.0
    )?;
    outln!(
        "  whole build: {:.0} counter sides/s and {:.1} Mpx of map/s, everything else included",
        f(&c["counters_per_second"]),
        f(&c["map_pixels_per_second"]) / 1e6
    )?;
    let fl = &r["floor"];
    outln!(
        "floor (bare resvg + PNG encoder + zip on the same inputs): {:.2} s",
        f(&fl["seconds"])
    )?;
    outln!(
        "  {:.0} counter sides/s (counter, sheet and contact images alone), {:.1} Mpx of map/s (maps alone)",
        f(&fl["counters_per_second"]),
        f(&fl["map_pixels_per_second"]) / 1e6
    )?;
    for (stage, v) in fl["stages"].as_object().into_iter().flatten() {
        outln!("  {stage}: {:.2} s", f(&v["seconds"]))?;
    }
    outln!("ratio cold build / floor: {:.2}", f(&r["ratio_cold_to_floor"]))?;
    outln!(
        "no-op rebuild: {:.3} s ({} made)",
        f(&r["noop_rebuild"]["seconds"]),
        r["noop_rebuild"]["made"]
    )?;
    let one = &r["one_counter_rebuild"];
    if one.is_null() {
        outln!("one-counter rebuild: no counter with a movement value to change")?;
    } else {
        outln!(
            "one-counter rebuild ({} line {}, {}): {:.3} s (best of {}), made {}",
            one["changed"]["file"].as_str().unwrap_or_default(),
            one["changed"]["line"],
            one["changed"]["change"].as_str().unwrap_or_default(),
            f(&one["seconds"]),
            one["runs"]
                .as_array()
                .map(|runs| runs
                    .iter()
                    .map(|s| format!("{:.3} s", f(s)))
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default(),
            one["made"]
                .as_array()
                .map(|m| m
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default()
        )?;
    }
    if let Some(cpu) = one["cpu_seconds"].as_f64() {
        outln!(
            "  the best run took {cpu:.2} s of processor time (user and system, all threads); its stages (s): {}; for every game (s): {}",
            named_seconds(&one["stage_seconds"]),
            named_seconds(&one["phase_seconds"])
        )?;
    }
    let rewrite = &one["module_rewrite"];
    if !rewrite.is_null() {
        outln!(
            "  its floor (the module, {:.1} MB, written again and flushed to disk): {:.3} s; ratio {:.2}",
            f(&rewrite["bytes"]) / 1e6,
            f(&rewrite["seconds"]),
            f(&one["ratio_to_module_rewrite"])
        )?;
    }
    let p = &r["png_settings"];
    for (name, e) in p["encodings"].as_object().into_iter().flatten() {
        outln!(
            "PNG {name} on {} ({}x{}): {:.2} s, {:.1} MB{}",
            p["image"].as_str().unwrap_or_default(),
            p["width"],
            p["height"],
            f(&e["seconds"]),
            f(&e["bytes"]) / 1e6,
            if name == "balanced" { " (muster's setting)" } else { "" }
        )?;
    }
    outln!(
        "validating all {} scenarios: {:.1} ms",
        r["validation"]["scenarios"],
        f(&r["validation"]["seconds"]) * 1000.0
    )?;
    Ok(())
}

/// Runs the benchmark and prints its figures, as text or as the JSON written to the
/// output file.
pub fn run(bench: &muster_build::bench::BenchSettings, format: Format) -> Result<()> {
    let report = muster_build::bench::run(bench)?;
    if format == Format::Json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    match report["sizes"].as_array() {
        None => print_report(&report)?,
        Some(sizes) => {
            for size in sizes {
                let shape = &size["shape"];
                outln!(
                    "== monster game of {} counters ({} formations, {} map sheets, {} scenarios placing {} units)",
                    shape["counters"],
                    shape["formations"],
                    shape["map_sheets"],
                    shape["scenarios"],
                    shape["units_placed"]
                )?;
                print_report(size)?;
            }
            print_growth(&report["growth"])?;
        }
    }
    print_hostile(&report["hostile_inputs"])?;
    outln!("figures written to {}", bench.output.display())?;
    Ok(())
}

/// Prints how reading each hostile input grew with its size.
fn print_hostile(h: &Value) -> Result<()> {
    let f = |v: &Value| v.as_f64().unwrap_or_default();
    for c in h["cases"].as_array().into_iter().flatten() {
        let (small, large) = (&c["small"], &c["large"]);
        outln!(
            "hostile input, {}: {} {} read in {:.3} s, {} in {:.3} s: {:.1} times (bound {}){}",
            c["input"].as_str().unwrap_or_default(),
            small["size"],
            c["unit"].as_str().unwrap_or_default(),
            f(&small["seconds"]),
            large["size"],
            f(&large["seconds"]),
            f(&c["ratio"]),
            c["bound"],
            if c["linear"] == true { "" } else { " (faster than linear)" }
        )?;
    }
    Ok(())
}

/// Prints how each figure grew with the game.
fn print_growth(g: &Value) -> Result<()> {
    outln!(
        "growth from the smaller game to the larger ({:.1} times the counters):",
        g["counters_ratio"].as_f64().unwrap_or_default()
    )?;
    for (name, f) in g["figures"].as_object().into_iter().flatten() {
        let (unit, scale) =
            if name == "peak memory" { (" MiB", 1048576.0) } else { (" s", 1.0) };
        outln!(
            "  {name}: {:.3}{unit} -> {:.3}{unit}, {:.2} times{}",
            f["small"].as_f64().unwrap_or_default() / scale,
            f["large"].as_f64().unwrap_or_default() / scale,
            f["ratio"].as_f64().unwrap_or_default(),
            if f["linear"] == true { "" } else { " (faster than linear)" }
        )?;
    }
    outln!("every figure linear: {}", if g["linear"] == true { "yes" } else { "no" })?;
    Ok(())
}

/// A JSON object of seconds by name, as `name 0.12, other 0.34`.
fn named_seconds(seconds: &Value) -> String {
    seconds
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, s)| format!("{name} {:.2}", s.as_f64().unwrap_or_default()))
        .collect::<Vec<_>>()
        .join(", ")
}
