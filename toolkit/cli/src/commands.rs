//! The commands: each parses nothing and decides nothing about the pipeline, it calls the
//! library and reports what came back.

use std::io::Write;

use anyhow::{Context, Result};
use muster_build::validate::{finding_json, scenario_findings};
use muster_build::{Build, CounterOptions, Settings};
use muster_model::{LoadOptions, Loaded, Severity};
use serde_json::Value;

use crate::args::{Cli, Command, CounterArgs, Format, Global};
use crate::exit::Exit;
use crate::out::{errln, outln};
use crate::report::print_diagnostics;

/// The counter options the arguments ask for, the print sheets dated by
/// `SOURCE_DATE_EPOCH` when it is set.
fn counter_options(args: &CounterArgs) -> Result<CounterOptions> {
    Ok(CounterOptions {
        dpi: args.dpi,
        sheet_dpi: args.sheet_dpi,
        sheet: muster_render::sheet::SheetOptions {
            counter_in: args.counter_size,
            page_in: args.sheet,
            margin_in: args.margin,
            spacing_in: args.spacing,
            bleed_in: args.bleed,
            safe_in: args.safe_area,
            shared_cuts: args.shared_cuts,
            crop_marks: !args.no_crop_marks,
            registration: args.registration.into(),
            back_offset_in: args.back_offset,
            fold: args.fold,
            die_line: args.die_line,
        },
        sheet_date: source_date_epoch()?,
        image_bleed_in: args.counter_bleed.unwrap_or(0.0),
    })
}

/// `SOURCE_DATE_EPOCH`, when set: seconds since 1970, up to the end of the year 9999.
fn source_date_epoch() -> Result<Option<u64>> {
    let Some(value) = std::env::var_os("SOURCE_DATE_EPOCH") else { return Ok(None) };
    let text = value.to_string_lossy();
    match text.trim().parse::<u64>() {
        Ok(secs) if secs <= muster_render::pdfx::LAST_DATE => Ok(Some(secs)),
        _ => anyhow::bail!(
            "SOURCE_DATE_EPOCH is `{text}`, not a number of seconds since 1970 \
             (from 0 to {}, the end of the year 9999)",
            muster_render::pdfx::LAST_DATE
        ),
    }
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
        Command::Build { games, map_dpi, counters, format, watch, strict, since } => {
            let since = match since {
                Some(spec) => Some(muster_build::since::resolve(&g.sources, spec)?),
                None => None,
            };
            let build = Build::new(Settings {
                sources: g.sources.clone(),
                out: g.out.clone(),
                games: games.games.clone(),
                map_dpi: *map_dpi,
                counters: counter_options(counters)?,
                strict: *strict,
                since,
            })?;
            if *watch {
                crate::build::watch(g, &build, *format)
            } else {
                crate::build::run(g, &build, *format, *strict)
            }
        }
        Command::Init { id } => {
            let written = muster_build::init::init(&g.sources, id)?;
            if !g.quiet {
                for path in &written {
                    outln!("{}", path.display())?;
                }
                errln!(
                    "wrote {} ({} files); build it with `muster build --game {id}`",
                    g.sources.join(id).display(),
                    written.len()
                )?;
                let schemas = g.sources.join("../schemas/game.schema.json");
                if !schemas.is_file() {
                    errln!(
                        "its files name their schemas in {}: write them with `muster schema --write {}`",
                        g.sources.join("../schemas").display(),
                        g.sources.join("../schemas").display()
                    )?;
                }
            }
            Ok(Exit::Clean)
        }
        Command::Clean { games, format } => {
            let cleaned = muster_build::clean::clean(&g.out, &games.games)?;
            if *format == Format::Json {
                let json = serde_json::json!({
                    "games": cleaned.games,
                    "files": cleaned.files,
                    "unrecorded": cleaned.unrecorded,
                    "left": cleaned.left,
                });
                outln!("{}", serde_json::to_string_pretty(&json)?)?;
            } else if !g.quiet {
                errln!(
                    "removed {} file(s) of {} game(s)",
                    cleaned.files,
                    cleaned.games.len()
                )?;
            }
            if *format == Format::Text {
                crate::build::write_left(&mut std::io::stderr().lock(), &cleaned.left)?;
                for id in &cleaned.unrecorded {
                    errln!(
                        "warning: no record of a build of {id} (the cache was removed), so its outputs stay; build it, then clean"
                    )?;
                }
            }
            Ok(Exit::Clean)
        }
        Command::Inspect { game, format: _ } => inspect(g, game),
        Command::Schema { write, format: _ } => schema(write.as_deref()),
        Command::Validate { games, scenario, format, strict } => {
            validate(g, &games.games, scenario.as_deref(), *format, *strict)
        }
        Command::Bench { map_dpi, counters, output, scale, format } => {
            let output =
                if output.is_absolute() { output.clone() } else { g.out.join(output) };
            crate::bench::run(
                &muster_build::bench::BenchSettings {
                    sources: g.sources.clone(),
                    map_dpi: *map_dpi,
                    counters: counter_options(counters)?,
                    output,
                    scale: scale.map(|n| n as usize),
                },
                *format,
            )?;
            Ok(Exit::Clean)
        }
        Command::Errata { games, format, strict } => {
            errata(g, &games.games, *format, *strict)
        }
        Command::Diff { old, new, games, format } => {
            use crate::diff::Outcome;
            let outcome =
                crate::diff::run(&g.sources, old, new.as_deref(), &games.games, *format)?;
            Ok(match outcome {
                Outcome::Same => Exit::Clean,
                Outcome::Changed => Exit::Findings,
                Outcome::Unusable => Exit::Unusable,
            })
        }
        Command::Check { save, module, scenario, format } => {
            crate::check::run(save, module, scenario.as_deref(), *format)
        }
        Command::Serve { game, port } => {
            crate::serve::run(&g.out, game.as_deref(), *port)
        }
        Command::Import { module, game, format } => {
            crate::import::run(g, module, game, *format)
        }
        Command::Pieces { file, module, format } => {
            crate::pieces::run(file, module.as_deref(), *format)
        }
        Command::Migrate { save, module, out, format } => {
            crate::migrate::run(save, module, out, *format)
        }
    }
}

/// The findings made while loading (a turn the track does not have, a file muster does
/// not read), as JSON: in text, `load` prints them; in JSON they lead the report's list.
fn load_findings(loaded: &Loaded) -> impl Iterator<Item = Value> + '_ {
    loaded
        .diagnostics
        .iter()
        .filter(|d| d.kind.is_some())
        .map(|d| loaded.sources.to_json(d))
}

/// Loads the games, printing what went wrong.
fn load(g: &Global, games: &[String], format: Format) -> Loaded {
    let loaded = muster_model::load(&g.sources, games, &LoadOptions::default());
    if format == Format::Text || loaded.has_errors() {
        print_diagnostics(&loaded.sources, &loaded.diagnostics);
    }
    loaded
}

fn inspect(g: &Global, game: &str) -> Result<Exit> {
    let loaded = load(g, std::slice::from_ref(&game.to_string()), Format::Json);
    let Some(found) = loaded.games.first() else { return Ok(Exit::Unusable) };
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(
        &mut out,
        &muster_build::stages::model::game_json(found),
    )?;
    writeln!(out)?;
    Ok(Exit::Clean)
}

fn schema(write: Option<&std::path::Path>) -> Result<Exit> {
    match write {
        Some(dir) => muster_build::reports::write_schemas(dir)?,
        None => {
            let all: serde_json::Map<String, Value> = muster_model::schemas()
                .into_iter()
                .map(|(n, s)| {
                    (n.to_string(), serde_json::to_value(s).unwrap_or(Value::Null))
                })
                .collect();
            outln!("{}", serde_json::to_string_pretty(&all)?)?;
        }
    }
    Ok(Exit::Clean)
}

/// The exit code of a reporting command from the severities of its findings that
/// `errata.yaml` does not acknowledge: 2 when a game did not load; 1 on an error, or with
/// `strict` on an error or a warning (of loading too); else 0.
fn exit_for(
    loaded: &Loaded,
    found: impl IntoIterator<Item = Severity>,
    strict: bool,
) -> Exit {
    let fails = |s: Severity| s == Severity::Error || (strict && s.needs_attention());
    if loaded.has_errors() {
        Exit::Unusable
    } else if found.into_iter().any(fails)
        || loaded.diagnostics.iter().any(|d| d.known().is_none() && fails(d.severity))
    {
        Exit::Findings
    } else {
        Exit::Clean
    }
}

fn errata(g: &Global, games: &[String], format: Format, strict: bool) -> Result<Exit> {
    use muster_build::stages::errata::erratum_json;
    let loaded = load(g, games, format);
    let found = muster_build::reports::errata(&g.out, &loaded)?;
    let all: Vec<Value> = load_findings(&loaded)
        .chain(found.iter().flatten().map(|e| erratum_json(e, &loaded.sources)))
        .collect();
    if format == Format::Text {
        for e in found.iter().flatten() {
            let at = crate::report::place(&loaded.sources, e.span);
            let known = if e.known { " (known)" } else { "" };
            outln!(
                "{at}{} [{}] {} ({}){known}",
                e.severity(),
                e.kind,
                e.message,
                e.certainty
            )?;
            if let Some(x) = &e.expected {
                outln!("  expected: {x}")?;
            }
            if let Some(s) = &e.suggestion {
                outln!("  likely: {s}")?;
            }
            for p in &e.also {
                outln!(
                    "  also: {}",
                    crate::report::place(&loaded.sources, p.span).trim_end_matches(": ")
                )?;
            }
        }
    } else {
        outln!("{}", serde_json::to_string_pretty(&all)?)?;
    }
    let severities = found.iter().flatten().filter(|e| !e.known).map(|e| e.severity());
    Ok(exit_for(&loaded, severities, strict))
}

fn validate(
    g: &Global,
    games: &[String],
    scenario: Option<&str>,
    format: Format,
    strict: bool,
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
        errln!(
            "error: no scenario `{s}`{} (the scenarios are {})",
            muster_model::suggest(s, all.iter().copied())
                .map(|x| format!("; did you mean `{x}`?"))
                .unwrap_or_default(),
            if all.is_empty() { "none".to_string() } else { all.join(", ") }
        )?;
        return Ok(Exit::Unusable);
    }
    let findings = scenario_findings(&loaded.games, scenario);
    let serious = findings.iter().filter(|f| f.needs_attention()).count();
    if format == Format::Json {
        let list: Vec<Value> = load_findings(&loaded)
            .chain(findings.iter().map(|f| finding_json(f, &loaded.sources)))
            .collect();
        outln!("{}", serde_json::to_string_pretty(&list)?)?;
    } else {
        for f in &findings {
            let at = crate::report::place(&loaded.sources, f.span);
            outln!(
                "{at}{} [{}] {}{}: {}",
                f.severity(),
                f.scenario,
                f.kind,
                crate::report::context(&f.rule, &f.location),
                f.message
            )?;
        }
        if !g.quiet {
            errln!("{} finding(s), {serious} needing attention", findings.len())?;
        }
    }
    let severities = findings.iter().filter(|f| f.known.is_none()).map(|f| f.severity());
    Ok(exit_for(&loaded, severities, strict))
}
