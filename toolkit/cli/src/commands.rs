//! The commands, each a flat sequence of pipeline stages.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use muster_model::{Game, LoadOptions, Loaded};
use serde_json::{Value, json};

use crate::args::{Cli, Command, Format, Global};
use crate::output::write_atomic;
use crate::report::print_diagnostics;

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
            let loaded = load(g, &games.games, *format);
            let cache =
                crate::cache::Cache::open(crate::build::cache_dir(&g.out), false)?;
            let settings =
                crate::build::Settings { map_dpi: *map_dpi, counters, format: *format };
            let built =
                crate::build::run(g, &loaded, games.games.is_empty(), &settings, &cache)?;
            Ok(built.exit)
        }
        Command::Clean { games } => crate::clean::run(g, &games.games),
        Command::Inspect { game } => inspect(g, game),
        Command::Schema { write } => schema(write.as_deref()),
        Command::Validate { games, scenario, format } => {
            validate(g, &games.games, scenario.as_deref(), *format)
        }
        Command::Bench { map_dpi, counters, output } => {
            let out =
                if output.is_absolute() { output.clone() } else { g.out.join(output) };
            crate::bench::run(g, *map_dpi, counters, &out)?;
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

/// The loaded game as JSON, for `inspect` and `dist/<game>/game.json`.
pub(crate) fn game_json(game: &Game) -> Value {
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
        let outputs = crate::output::Outputs::default();
        let found = crate::stages::write_errata(&outputs, &g.out, game, &loaded.sources)?;
        outputs.commit()?;
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
    let findings = crate::validate::scenario_findings(&loaded.games, scenario);
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
