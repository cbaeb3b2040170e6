//! `muster bench`: measures muster against the raw cost of the same pixels.
//!
//! For every map of every game, at each resolution, it times muster's own path (scene
//! building, strip rasterisation, PNG encoding) and the floor: a bare loop that parses the
//! same SVG with usvg, renders it into one full-size pixmap with resvg and encodes the same
//! pixels with the same PNG settings. Peak memory is read per phase from the kernel
//! (`VmHWM`, reset between phases).

use std::fs;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use muster_model::Game;
use muster_render::{Compression, map_svg, raster, render_png};
use serde_json::{Value, json};

use crate::output::write_atomic;
use crate::stages::pixels;

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

/// The floor: parse, render the whole image at once, encode the same way.
fn floor_png(svg: &str, w: u32, h: u32) -> Result<usize> {
    let tree = raster::parse(svg)?;
    let pixmap = raster::render_pixmap(&tree, w, h).context("pixmap")?;
    let mut rgb = Vec::with_capacity(w as usize * h as usize * 3);
    for px in pixmap.data().chunks_exact(4) {
        rgb.extend_from_slice(&px[..3]);
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Balanced);
        let mut writer = enc.write_header()?;
        writer.write_image_data(&rgb)?;
    }
    Ok(out.len())
}

/// Times map rendering at a resolution, muster's path and the floor.
fn maps_at(games: &[Game], dpi: u32) -> Result<Value> {
    let scenes: Vec<_> = games
        .iter()
        .flat_map(|g| (0..g.maps.len()).filter_map(move |i| map_svg(g, i)))
        .collect();
    let total_px: u64 = scenes
        .iter()
        .map(|s| u64::from(pixels(s.width_in, dpi)) * u64::from(pixels(s.height_in, dpi)))
        .sum();

    reset_peak();
    let t = Instant::now();
    let mut bytes = 0;
    for g in games {
        for i in 0..g.maps.len() {
            let Some(s) = map_svg(g, i) else { continue };
            let png = render_png(
                &s.svg,
                pixels(s.width_in, dpi),
                pixels(s.height_in, dpi),
                Compression::Balanced,
            )?;
            bytes += png.len();
        }
    }
    let muster_s = t.elapsed().as_secs_f64();
    let muster_peak = peak_bytes();

    reset_peak();
    let t = Instant::now();
    let mut floor_bytes = 0;
    for s in &scenes {
        floor_bytes +=
            floor_png(&s.svg, pixels(s.width_in, dpi), pixels(s.height_in, dpi))?;
    }
    let floor_s = t.elapsed().as_secs_f64();
    let floor_peak = peak_bytes();
    Ok(json!({
        "dpi": dpi,
        "maps": scenes.len(),
        "pixels": total_px,
        "muster_seconds": muster_s,
        "muster_pixels_per_second": total_px as f64 / muster_s,
        "muster_peak_bytes": muster_peak,
        "muster_png_bytes": bytes,
        "floor_seconds": floor_s,
        "floor_pixels_per_second": total_px as f64 / floor_s,
        "floor_peak_bytes": floor_peak,
        "floor_png_bytes": floor_bytes,
        "ratio_to_floor": muster_s / floor_s,
    }))
}

/// Times counter images at 300 dpi: muster's path (scene, strip render, encode, in
/// parallel) and the floor (the same SVGs parsed, rendered whole and encoded in a bare
/// sequential loop).
fn counters_at(games: &[Game], dpi: u32) -> Result<Value> {
    use muster_render::counter::{counter_svg, faces};
    use rayon::prelude::*;

    let size = 0.625;
    let px = pixels(size, dpi);
    let jobs: Vec<(&Game, &muster_model::Unit, muster_render::Face)> = games
        .iter()
        .flat_map(|g| {
            g.units
                .iter()
                .chain(&g.markers)
                .flat_map(move |u| faces(u).into_iter().map(move |f| (g, u, f)))
        })
        .collect();
    reset_peak();
    let t = Instant::now();
    let bytes: usize = jobs
        .par_iter()
        .map(|(g, u, f)| {
            let (svg, _) = counter_svg(g, u, *f, size);
            render_png(&svg, px, px, Compression::Balanced).map(|p| p.len())
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .sum();
    let muster_s = t.elapsed().as_secs_f64();
    let svgs: Vec<String> =
        jobs.iter().map(|(g, u, f)| counter_svg(g, u, *f, size).0).collect();
    reset_peak();
    let t = Instant::now();
    let mut floor_bytes = 0;
    for svg in &svgs {
        floor_bytes += floor_png(svg, px, px)?;
    }
    let floor_s = t.elapsed().as_secs_f64();
    Ok(json!({
        "dpi": dpi,
        "counter_sides": jobs.len(),
        "muster_seconds": muster_s,
        "muster_counters_per_second": jobs.len() as f64 / muster_s,
        "muster_png_bytes": bytes,
        "floor_seconds": floor_s,
        "floor_counters_per_second": jobs.len() as f64 / floor_s,
        "floor_png_bytes": floor_bytes,
        "ratio_to_floor": muster_s / floor_s,
    }))
}

/// Runs the benchmark on the games under `sources` and writes the figures as JSON.
pub fn run(sources: &Path, output: &Path, dpis: &[u32]) -> Result<Value> {
    reset_peak();
    let t = Instant::now();
    let loaded = muster_model::load(sources, &[], &muster_model::LoadOptions::default());
    let load_s = t.elapsed().as_secs_f64();
    anyhow::ensure!(
        !loaded.has_errors(),
        "the games under {} do not load",
        sources.display()
    );
    let mut maps = Vec::new();
    for &dpi in dpis {
        maps.push(maps_at(&loaded.games, dpi)?);
    }
    let counters = counters_at(&loaded.games, 300)?;
    // Validating every scenario (resolve, check, solve), best of five runs.
    let scenarios: usize = loaded.games.iter().map(|g| g.scenarios.len()).sum();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let mut findings = 0;
        for g in &loaded.games {
            for s in &g.scenarios {
                findings += muster_check::validate_scenario(g, &s.id.v).len();
            }
        }
        std::hint::black_box(findings);
        best = best.min(t.elapsed().as_secs_f64());
    }
    let report = json!({
        "load_seconds": load_s,
        "games": loaded.games.len(),
        "maps": maps,
        "counters": counters,
        "validation": { "scenarios": scenarios, "seconds": best },
    });
    let mut text = serde_json::to_string_pretty(&report)?;
    text.push('\n');
    write_atomic(output, text.as_bytes())?;
    Ok(report)
}
