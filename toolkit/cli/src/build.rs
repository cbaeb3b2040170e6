//! `muster build`: runs the library's build and reports it for a person or a program.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use muster_build::watch::Watcher;
use muster_build::{Build, BuildReport, GameReport};
use serde_json::json;

use crate::args::{Format, Global};
use crate::commands::Exit;
use crate::progress::Bars;
use crate::report::counts;

/// Builds with `build`, showing progress and printing the report as `format` asks.
pub fn run(g: &Global, build: &Build, format: Format) -> Result<Exit> {
    let report = build.run(&Bars::new(g.quiet, format))?;
    print_report(g, &report, format)?;
    Ok(exit(&report))
}

fn exit(report: &BuildReport) -> Exit {
    if report.has_errors() { Exit::Unusable } else { Exit::Clean }
}

/// How long the sources must be quiet after a change before the rebuild starts.
const QUIET: Duration = Duration::from_millis(200);

/// Builds, then watches the sources and rebuilds the games whose files change, printing
/// each report, until Ctrl+C (a second Ctrl+C during a rebuild ends muster at once).
pub fn watch(g: &Global, build: &Build, format: Format) -> Result<Exit> {
    // Watching starts before the first build, so that no change during it is missed.
    let watcher = Watcher::new(&g.sources)?;
    let stopper = watcher.stopper();
    let stopping = AtomicBool::new(false);
    ctrlc::set_handler(move || {
        if stopping.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        stopper.stop();
    })
    .context("failed to catch Ctrl+C")?;
    let bars = Bars::new(g.quiet, format);
    let first = build.run(&bars)?;
    print_report(g, &first, format)?;
    if !g.quiet {
        eprintln!("watching {} for changes (Ctrl+C stops)", g.sources.display());
    }
    let mut printed = Ok(());
    muster_build::watch::watch(build, &watcher, &bars, QUIET, |result| {
        printed = match result {
            Ok(report) => print_report(g, &report, format),
            Err(err) => {
                eprintln!("error: {err:#}");
                Ok(())
            }
        };
        if printed.is_ok() { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
    })?;
    printed?;
    if !g.quiet {
        eprintln!("stopped watching");
    }
    Ok(Exit::Clean)
}

/// Prints a build's report: one summary line per game and a closing line, or the whole
/// report as JSON.
pub fn print_report(g: &Global, report: &BuildReport, format: Format) -> Result<()> {
    let loaded = &report.loaded;
    if format == Format::Text && !g.quiet {
        for game in &report.games {
            eprintln!("{}", summary_line(game));
        }
    }
    let (errors, warnings) = counts(&loaded.diagnostics);
    if format == Format::Json {
        let out = json!({
            "games": report.games,
            "errors": errors,
            "warnings": warnings,
            "diagnostics": loaded.diagnostics.iter().map(|d| loaded.sources.to_json(d)).collect::<Vec<_>>(),
            "seconds": report.seconds,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else if !g.quiet {
        eprintln!(
            "built {} game(s) in {:.2} s; {errors} error(s), {warnings} warning(s)",
            loaded.games.len(),
            report.seconds
        );
    }
    Ok(())
}

/// The one-line summary of a game's build.
fn summary_line(s: &GameReport) -> String {
    let work = if s.up_to_date {
        "up to date".to_string()
    } else {
        format!("{} made, {} reused", s.cache.made.len(), s.cache.reused)
    };
    format!(
        "{}: {} counter sides, {} sheet pages, {} maps, {} scenarios, {} setup findings, {} errata; {work} ({:.2} s)",
        s.game,
        s.counter_sides,
        s.sheet_pages,
        s.maps,
        s.scenarios,
        s.setup_findings,
        s.errata,
        s.seconds
    )
}
