//! `muster build`: every stage for every game, skipping games whose inputs and outputs are
//! as the last build left them, and drawing only what the cache does not hold.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use muster_model::{Game, Loaded};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::args::{CounterArgs, Format, Global};
use crate::cache::{Cache, GameCache};
use crate::commands::Exit;
use crate::output::Outputs;
use crate::progress::Progress;
use crate::report::counts;
use crate::stages::Context;

/// The settings of one build.
pub struct Settings<'a> {
    /// Resolution of map images.
    pub map_dpi: u32,
    /// Counter images and sheets.
    pub counters: &'a CounterArgs,
    /// Report format.
    pub format: Format,
}

/// What a build did, for the report and the benchmark.
pub struct Built {
    /// One summary per game.
    pub summaries: Vec<Value>,
    /// Exit code.
    pub exit: Exit,
}

/// The files and folders a game's build owns under the output folder.
pub fn game_outputs(out: &Path, game: &str) -> Vec<PathBuf> {
    vec![
        out.join("counters").join(game),
        out.join("maps").join(game),
        out.join("dist").join(game),
        out.join("dist").join(format!("{game}.vmod")),
    ]
}

/// The cache folder for an output folder.
pub fn cache_dir(out: &Path) -> PathBuf {
    out.join(crate::cache::DIR)
}

/// Builds the loaded games into `g.out`, reporting as `settings.format` asks.
pub fn run(
    g: &Global,
    loaded: &Loaded,
    all_games: bool,
    settings: &Settings,
    cache: &Cache,
) -> Result<Built> {
    let started = Instant::now();
    let progress = Progress::new(g.quiet || settings.format == Format::Json);
    let options = format!("map-dpi {} {:?}", settings.map_dpi, settings.counters);
    // Games build side by side; their summaries are reported in order.
    let built: Vec<Result<Value>> = loaded
        .games
        .par_iter()
        .map(|game| build_or_skip(g, game, loaded, settings, cache, &progress, &options))
        .collect();
    let mut summaries = Vec::new();
    for summary in built {
        let summary = summary?;
        if settings.format == Format::Text && !g.quiet {
            eprintln!("{}", summary_line(&summary));
        }
        summaries.push(summary);
    }
    if all_games && !loaded.has_errors() {
        cache.prune()?;
    }
    let (errors, warnings) = counts(&loaded.diagnostics);
    if settings.format == Format::Json {
        let out = json!({
            "games": summaries,
            "errors": errors,
            "warnings": warnings,
            "diagnostics": loaded.diagnostics.iter().map(|d| loaded.sources.to_json(d)).collect::<Vec<_>>(),
            "seconds": started.elapsed().as_secs_f64(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else if !g.quiet {
        eprintln!(
            "built {} game(s) in {:.2} s; {errors} error(s), {warnings} warning(s)",
            loaded.games.len(),
            started.elapsed().as_secs_f64()
        );
    }
    let exit = if loaded.has_errors() { Exit::Unusable } else { Exit::Clean };
    Ok(Built { summaries, exit })
}

/// Builds one game, or reports it up to date when its inputs and outputs are as its last
/// build left them.
fn build_or_skip(
    g: &Global,
    game: &Game,
    loaded: &Loaded,
    settings: &Settings,
    cache: &Cache,
    progress: &Progress,
    options: &str,
) -> Result<Value> {
    let t = Instant::now();
    let key = cache.game_key(&game.dir, &game.id, options)?;
    let owned = game_outputs(&g.out, &game.id);
    if let Some(mut summary) = cache.up_to_date(&game.id, &key, &owned) {
        summary["up_to_date"] = json!(true);
        summary["cache"] = json!({"reused": 0, "made": []});
        summary["seconds"] = json!(t.elapsed().as_secs_f64());
        return Ok(summary);
    }
    let ctx = Context {
        out: &g.out,
        outputs: Outputs::default(),
        cache: GameCache::new(cache),
        progress: progress.clone(),
        game: &game.id,
    };
    let mut summary = build_game(&ctx, game, loaded, settings)?;
    ctx.outputs.commit()?;
    ctx.outputs.sweep(&owned)?;
    summary["seconds"] = json!(t.elapsed().as_secs_f64());
    cache.stamp(&ctx.cache, &game.id, &key, &owned, &summary)?;
    summary["up_to_date"] = json!(false);
    summary["cache"] = json!(ctx.cache.report());
    Ok(summary)
}

/// Every stage of one game, in order: model, maps, counters, setups, errata, module.
fn build_game(
    ctx: &Context,
    game: &Game,
    loaded: &Loaded,
    settings: &Settings,
) -> Result<Value> {
    let mut stages = serde_json::Map::new();
    let mut timed = |stage: &str, t: Instant| {
        stages.insert(stage.into(), json!(t.elapsed().as_secs_f64()));
        Instant::now()
    };
    let t = Instant::now();
    let dist = ctx.out.join("dist").join(&game.id);
    let model = serde_json::to_vec_pretty(&crate::commands::game_json(game))?;
    ctx.outputs.write(&dist.join("game.json"), &model)?;
    let t = timed("model", t);
    let maps = crate::stages::render_maps(ctx, game, settings.map_dpi)?;
    let t = timed("maps", t);
    let counter_images = crate::stages::render_counters(ctx, game, settings.counters)?;
    let t = timed("counters", t);
    let (solutions, setups) = crate::stages::write_setups(ctx, game)?;
    let t = timed("setups", t);
    let errata =
        crate::stages::write_errata(&ctx.outputs, ctx.out, game, &loaded.sources)?;
    let t = timed("errata", t);
    let module = crate::stages::write_module(
        ctx,
        game,
        &maps,
        &solutions,
        settings.counters.counter_size,
    )?;
    timed("module", t);
    let placements: usize = game.parsed.iter().map(|p| p.placements.len()).sum();
    Ok(json!({
        "game": game.id,
        "units": game.units.len(),
        "markers": game.markers.len(),
        "formations": game.formations.len(),
        "maps": game.maps.len(),
        "scenarios": game.scenarios.len(),
        "placements": placements,
        "units_of_unknown_type": game.units.iter().filter(|u| u.unit_type.is_none()).count(),
        "hexes_of_unknown_terrain": maps.iter().map(|m| m.unknown_terrain).sum::<usize>(),
        "map_images": maps,
        "counter_sides": counter_images.sides,
        "unknown_counter_values": counter_images.unknown_values,
        "sheet_pages": counter_images.pages,
        "counters": counter_images,
        "setup_findings": setups,
        "module": module,
        "errata": errata.iter().filter(|e| e.severity != "info").count(),
        "stage_seconds": stages,
    }))
}

/// The one-line summary of a game's build.
fn summary_line(s: &Value) -> String {
    let work = if s["up_to_date"] == true {
        "up to date".to_string()
    } else {
        let made = s["cache"]["made"].as_array().map_or(0, Vec::len);
        format!("{made} made, {} reused", s["cache"]["reused"])
    };
    format!(
        "{}: {} counter sides, {} sheet pages, {} maps, {} scenarios, {} setup findings, {} errata; {work} ({:.2} s)",
        s["game"].as_str().unwrap_or_default(),
        s["counter_sides"],
        s["sheet_pages"],
        s["maps"],
        s["scenarios"],
        s["setup_findings"],
        s["errata"],
        s["seconds"].as_f64().unwrap_or_default()
    )
}
