//! The commands, each a flat sequence of pipeline stages.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use muster_model::{Game, LoadOptions, Loaded};
use serde_json::{Value, json};

use crate::args::{Cli, Command, Format, Global};
use crate::output::write_atomic;
use crate::report::{counts, print_diagnostics};

/// Exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Everything is clean.
    Clean = 0,
    /// The command ran and found problems in the data.
    Findings = 1,
    /// The input could not be used.
    Unusable = 2,
}

/// Runs a command.
pub fn run(cli: &Cli) -> Result<Exit> {
    let g = &cli.global;
    if let Some(jobs) = g.jobs {
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build_global()
            .context("failed to start the worker threads")?;
    }
    match &cli.command {
        Command::Build { games, map_dpi, counters, format } => {
            build(g, &games.games, *map_dpi, counters, *format)
        }
        Command::Inspect { game } => inspect(g, game),
        Command::Schema { write } => schema(write.as_deref()),
        Command::Validate { games, scenario, format } => {
            validate(g, &games.games, scenario.as_deref(), *format)
        }
        Command::Bench { map_dpi, output } => {
            let out =
                if output.is_absolute() { output.clone() } else { g.out.join(output) };
            let report = crate::bench::run(&g.sources, &out, map_dpi)?;
            for m in report["maps"].as_array().into_iter().flatten() {
                println!(
                    "maps at {} dpi: {:.1} Mpx/s (floor {:.1} Mpx/s, ratio {:.2}), peak {:.0} MiB (floor {:.0} MiB)",
                    m["dpi"],
                    m["muster_pixels_per_second"].as_f64().unwrap_or_default() / 1e6,
                    m["floor_pixels_per_second"].as_f64().unwrap_or_default() / 1e6,
                    m["ratio_to_floor"].as_f64().unwrap_or_default(),
                    m["muster_peak_bytes"].as_f64().unwrap_or_default() / 1048576.0,
                    m["floor_peak_bytes"].as_f64().unwrap_or_default() / 1048576.0,
                );
            }
            let c = &report["counters"];
            println!(
                "counters at {} dpi: {:.0} sides/s (floor {:.0} sides/s single-threaded, ratio {:.2})",
                c["dpi"],
                c["muster_counters_per_second"].as_f64().unwrap_or_default(),
                c["floor_counters_per_second"].as_f64().unwrap_or_default(),
                c["ratio_to_floor"].as_f64().unwrap_or_default(),
            );
            println!(
                "validating all {} scenarios: {:.1} ms",
                report["validation"]["scenarios"],
                report["validation"]["seconds"].as_f64().unwrap_or_default() * 1000.0
            );
            println!("figures written to {}", out.display());
            Ok(Exit::Clean)
        }
        Command::Errata { games, format } => errata(g, &games.games, *format),
        Command::Check { save, module, scenario, format } => {
            crate::check::run(save, module, scenario.as_deref(), *format)
        }
        Command::Serve { game, port } => {
            crate::serve::run(&g.out, game.as_deref(), *port)
        }
        Command::Pieces { file, module, format } => {
            crate::pieces::run(file, module.as_deref(), *format)
        }
    }
}

/// Stage 1 for every command: load the games, print what went wrong.
fn load(g: &Global, games: &[String], format: Format) -> Loaded {
    let loaded = muster_model::load(&g.sources, games, &LoadOptions::default());
    if format == Format::Text || loaded.has_errors() {
        print_diagnostics(&loaded.sources, &loaded.diagnostics);
    }
    loaded
}

fn build(
    g: &Global,
    games: &[String],
    map_dpi: u32,
    counters: &crate::args::CounterArgs,
    format: Format,
) -> Result<Exit> {
    let started = Instant::now();
    let loaded = load(g, games, format);
    let mut summaries = Vec::new();
    for game in &loaded.games {
        let t = Instant::now();
        let dist = g.out.join("dist").join(&game.id);
        let model = serde_json::to_vec_pretty(&game_json(game))?;
        write_atomic(&dist.join("game.json"), &model)?;
        let maps = crate::stages::render_maps(game, &g.out, map_dpi)?;
        let counter_images = crate::stages::render_counters(game, &g.out, counters)?;
        let (solutions, setups) = crate::stages::write_setups(game, &g.out)?;
        let errata = crate::stages::write_errata(game, &g.out, &loaded.sources)?;
        let untyped = game.units.iter().filter(|u| u.unit_type.is_none()).count();
        let mut summary = summary(game, t.elapsed().as_secs_f64());
        summary["units_of_unknown_type"] = json!(untyped);
        summary["hexes_of_unknown_terrain"] =
            json!(maps.iter().map(|m| m.unknown_terrain).sum::<usize>());
        summary["map_images"] = json!(maps);
        summary["counter_sides"] = json!(counter_images.sides);
        summary["unknown_counter_values"] = json!(counter_images.unknown_values);
        summary["sheet_pages"] = json!(counter_images.pages);
        summary["counters"] = json!(counter_images);
        summary["setup_findings"] = json!(setups);
        let module = crate::stages::write_module(
            game,
            &g.out,
            &maps,
            &solutions,
            counters.counter_size,
        )?;
        summary["module"] = json!(module);
        summary["errata"] = json!(errata.iter().filter(|e| e.severity != "info").count());
        if format == Format::Text && !g.quiet {
            eprintln!("{}", summary_line(&summary));
        }
        summaries.push(summary);
    }
    let (errors, warnings) = counts(&loaded.diagnostics);
    if format == Format::Json {
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
    Ok(if loaded.has_errors() { Exit::Unusable } else { Exit::Clean })
}

fn summary(game: &Game, seconds: f64) -> Value {
    let placements: usize = game.parsed.iter().map(|p| p.placements.len()).sum();
    json!({
        "game": game.id,
        "units": game.units.len(),
        "markers": game.markers.len(),
        "formations": game.formations.len(),
        "maps": game.maps.len(),
        "scenarios": game.scenarios.len(),
        "placements": placements,
        "seconds": seconds,
    })
}

fn summary_line(s: &Value) -> String {
    format!(
        "{}: {} units ({} of unknown type), {} markers, {} counter sides ({} unknown values), {} sheet pages, {} formations, {} maps ({} hexes of unknown terrain), {} scenarios, {} placements, {} setup findings, {} errata ({:.2} s)",
        s["game"].as_str().unwrap_or_default(),
        s["units"],
        s["units_of_unknown_type"],
        s["markers"],
        s["counter_sides"],
        s["unknown_counter_values"],
        s["sheet_pages"],
        s["formations"],
        s["maps"],
        s["hexes_of_unknown_terrain"],
        s["scenarios"],
        s["placements"],
        s["setup_findings"],
        s["errata"],
        s["seconds"].as_f64().unwrap_or_default()
    )
}

/// The loaded game as JSON, for `inspect` and `dist/<game>/game.json`.
fn game_json(game: &Game) -> Value {
    let maps: Vec<Value> = game
        .maps
        .iter()
        .map(|m| {
            json!({
                "id": m.id.v,
                "name": m.name,
                "columns": m.columns,
                "rows": m.rows,
                "hex_size_in": m.hex_size_in,
                "size": m.size,
                "numbering": m.numbering,
                "features": m.features,
                "terrain": m.terrain,
            })
        })
        .collect();
    let scenarios: Vec<Value> =
        game.scenarios
            .iter()
            .map(|s| {
                let placements: Vec<Value> =
                    game.placements(&s.id.v)
                        .iter()
                        .map(|p| {
                            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
                            let line =
                                p.location_text.as_ref().map(|t| t.span.line).or_else(
                                    || p.units.printed.first().map(|u| u.span.line),
                                );
                            v["line"] = json!(line);
                            v
                        })
                        .collect();
                json!({
                    "id": s.id.v,
                    "title": s.title,
                    "section": s.section,
                    "first_turn": s.first_turn,
                    "last_turn": s.last_turn,
                    "first_player": s.first_player,
                    "first_to_deploy": s.first_to_deploy,
                    "setup_from": s.setup_from,
                    "incomplete": s.incomplete,
                    "placements": placements,
                })
            })
            .collect();
    json!({
        "id": game.id,
        "title": game.meta.title,
        "rulebook": game.meta.rulebook,
        "sides": game.meta.sides,
        "nationalities": game.meta.nationalities,
        "formations": game.formations,
        "units": game.units,
        "markers": game.markers,
        "maps": maps,
        "rules": game.rules,
        "scenarios": scenarios,
    })
}

fn inspect(g: &Global, game: &str) -> Result<Exit> {
    let loaded = load(g, std::slice::from_ref(&game.to_string()), Format::Json);
    let Some(found) = loaded.games.first() else { return Ok(Exit::Unusable) };
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &game_json(found))?;
    writeln!(out)?;
    Ok(Exit::Clean)
}

fn schema(write: Option<&Path>) -> Result<Exit> {
    let schemas = muster_model::schemas();
    match write {
        Some(dir) => {
            for (name, schema) in &schemas {
                let mut text = serde_json::to_string_pretty(schema)?;
                text.push('\n');
                write_atomic(&dir.join(name), text.as_bytes())
                    .with_context(|| format!("failed to write schema {name}"))?;
            }
        }
        None => {
            let all: serde_json::Map<String, Value> = schemas
                .into_iter()
                .map(|(n, s)| {
                    (n.to_string(), serde_json::to_value(s).unwrap_or(Value::Null))
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&all)?);
        }
    }
    Ok(Exit::Clean)
}

/// The exit code of a reporting command: unusable input wins, then findings.
fn exit_for(loaded: &Loaded, serious: usize) -> Exit {
    if loaded.has_errors() {
        Exit::Unusable
    } else if serious == 0 {
        Exit::Clean
    } else {
        Exit::Findings
    }
}

fn errata(g: &Global, games: &[String], format: Format) -> Result<Exit> {
    let loaded = load(g, games, format);
    let mut all = Vec::new();
    for game in &loaded.games {
        let found = crate::stages::write_errata(game, &g.out, &loaded.sources)?;
        if format == Format::Text {
            for e in &found {
                let at = crate::report::place(&loaded.sources, e.span);
                let known = if e.known { " (known)" } else { "" };
                println!("{at}{} [{}] {}{known}", e.severity, e.kind, e.message);
                if let Some(s) = &e.suggestion {
                    println!("  likely: {s}");
                }
            }
        }
        all.extend(found.iter().map(|e| crate::stages::erratum_json(e, &loaded.sources)));
    }
    if format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&all)?);
    }
    let serious =
        all.iter().filter(|e| e["severity"] != "info" && e["known"] != true).count();
    Ok(exit_for(&loaded, serious))
}

fn validate(
    g: &Global,
    games: &[String],
    scenario: Option<&str>,
    format: Format,
) -> Result<Exit> {
    let loaded = load(g, games, format);
    if let Some(s) = scenario
        && !loaded.games.iter().any(|game| game.scenarios.iter().any(|x| x.id.v == s))
    {
        let all: Vec<&str> = loaded
            .games
            .iter()
            .flat_map(|game| game.scenarios.iter().map(|x| x.id.v.as_str()))
            .collect();
        eprintln!(
            "error: no scenario `{s}`{}",
            muster_model::suggest(s, all.iter().copied())
                .map(|x| format!("; did you mean `{x}`?"))
                .unwrap_or_default()
        );
        return Ok(Exit::Unusable);
    }
    let mut findings = Vec::new();
    for game in &loaded.games {
        findings.extend(crate::validate::scenario_findings(game, scenario));
    }
    let serious = findings.iter().filter(|f| f.severity != "info").count();
    if format == Format::Json {
        let list: Vec<Value> = findings
            .iter()
            .map(|f| crate::validate::finding_json(f, &loaded.sources))
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
    } else {
        for f in &findings {
            let at = crate::report::place(&loaded.sources, f.span);
            println!(
                "{at}{} [{}] {} (rule {}, {}): {}",
                f.severity, f.scenario, f.kind, f.rule, f.location, f.message
            );
        }
        if !g.quiet {
            eprintln!("{} finding(s), {serious} needing attention", findings.len());
        }
    }
    Ok(exit_for(&loaded, serious))
}
