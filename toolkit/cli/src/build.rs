//! `muster build`: runs the library's build and reports it for a person or a program.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use muster_build::watch::Watcher;
use muster_build::{Build, BuildReport, GameReport, LeftAlone};
use serde_json::json;

use crate::args::{Format, Global};
use crate::exit::Exit;
use crate::out::{errln, outln};
use crate::progress::Bars;
use crate::report::counts;

/// Builds with `build`, showing progress and printing the report as `format` asks.
/// With `strict`, any finding that needs attention makes the exit code 1.
pub fn run(g: &Global, build: &Build, format: Format, strict: bool) -> Result<Exit> {
    let report = build.run(&Bars::new(g.quiet, format))?;
    print_report(g, &report, format)?;
    let code = exit(&report, strict);
    // The process ends next: the report (every game loaded) is left for the exit to
    // reclaim at once rather than freed piece by piece.
    std::mem::forget(report);
    Ok(code)
}

/// 2 when a game did not load; with `strict`, 1 when anything needs attention; else 0.
fn exit(report: &BuildReport, strict: bool) -> Exit {
    if report.has_errors() {
        Exit::Unusable
    } else if strict && report.needs_attention() {
        Exit::Findings
    } else {
        Exit::Clean
    }
}

/// At most this many findings of one game are listed after the build.
const LISTED: usize = 20;

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
        errln!("watching {} for changes (Ctrl+C stops)", g.sources.display())?;
    }
    let mut printed = Ok(());
    muster_build::watch::watch(build, &watcher, &bars, QUIET, |result| {
        printed = match result {
            Ok(report) => print_report(g, &report, format),
            Err(err) => errln!("error: {err:#}").map_err(Into::into),
        };
        if printed.is_ok() { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
    })?;
    printed?;
    if !g.quiet {
        errln!("stopped watching")?;
    }
    Ok(Exit::Clean)
}

/// Prints a build's report: one summary line per game and a closing line, or the whole
/// report as JSON.
pub fn print_report(g: &Global, report: &BuildReport, format: Format) -> Result<()> {
    let loaded = &report.loaded;
    if format == Format::Text && !g.quiet {
        for game in &report.games {
            errln!("{}", summary_line(game))?;
            for a in &game.module.live_rules.approximated {
                errln!("  {}: VASSAL checks {a}", game.game)?;
            }
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
            "phase_seconds": report.phase_seconds,
        });
        outln!("{}", serde_json::to_string_pretty(&out)?)?;
    } else {
        if !g.quiet {
            let findings: usize = report.games.iter().map(|g| g.attention.len()).sum();
            errln!(
                "built {} game(s) in {:.2} s; {errors} error(s), {warnings} warning(s) loading; {findings} finding(s) need attention",
                report.games.len(),
                report.seconds
            )?;
        }
        let mut err = std::io::stderr().lock();
        for game in &report.games {
            write_left(&mut err, &game.left)?;
            write_attention(&mut err, g, game)?;
        }
    }
    Ok(())
}

/// A warning for each file muster left in place among a game's outputs, at most
/// [`LISTED`], then how many more there are.
pub fn write_left(out: &mut impl Write, left: &[LeftAlone]) -> Result<()> {
    for l in left.iter().take(LISTED) {
        writeln!(out, "warning: left {} in place: {}", l.path, l.reason())?;
    }
    if left.len() > LISTED {
        writeln!(
            out,
            "warning: and {} more files left in place (`--format json` lists them)",
            left.len() - LISTED
        )?;
    }
    Ok(())
}

/// The findings of a game that need attention, grouped by kind, at most [`LISTED`], then
/// how many more there are and where the full report is.
fn write_attention(out: &mut impl Write, g: &Global, game: &GameReport) -> Result<()> {
    let all = &game.attention;
    if all.is_empty() {
        return Ok(());
    }
    let report = g.out.join("dist").join(&game.game).join("errata.md");
    writeln!(out, "{}: {} finding(s) need attention:", game.game, all.len())?;
    let mut kind = None;
    for a in all.iter().take(LISTED) {
        if kind != Some(a.kind) {
            let n = all.iter().filter(|x| x.kind == a.kind).count();
            writeln!(out, "  {} {} ({n}):", a.severity, a.kind)?;
            kind = Some(a.kind);
        }
        let at = match &a.file {
            Some(file) => format!("{file}:{}:{}: ", a.line, a.column),
            None => String::new(),
        };
        let scenario = a.scenario.as_ref().map(|s| format!("[{s}] ")).unwrap_or_default();
        writeln!(out, "    {at}{scenario}{}", a.message)?;
    }
    if all.len() > LISTED {
        writeln!(out, "  and {} more", all.len() - LISTED)?;
    }
    writeln!(out, "  full report: {}", report.display())?;
    Ok(())
}

/// The one-line summary of a game's build.
fn summary_line(s: &GameReport) -> String {
    let work = if s.up_to_date {
        "up to date".to_string()
    } else {
        format!("{} made, {} reused", s.cache.made.len(), s.cache.reused)
    };
    let apart = s.map_images.iter().filter(|m| m.legend_apart.is_some()).count();
    let mut notes = Vec::new();
    if apart > 0 {
        notes.push(format!("{apart} with the legend on a sheet of its own"));
    }
    let fits: Vec<f64> = s
        .map_images
        .iter()
        .filter_map(|m| m.grid_fit_px.as_ref())
        .flatten()
        .copied()
        .collect();
    if !fits.is_empty() {
        let worst = fits.iter().copied().fold(0.0, f64::max);
        notes.push(format!("grid fitted to the painting within {worst:.2} px"));
    }
    let maps = if notes.is_empty() {
        format!("{} maps", s.maps)
    } else {
        format!("{} maps ({})", s.maps, notes.join("; "))
    };
    format!(
        "{}: {} counter sides, {} sheet pages, {maps}, {} scenarios, {} setup findings, {} errata; {work} ({:.2} s)",
        s.game,
        s.counter_sides,
        s.sheet_pages,
        s.scenarios,
        s.setup_findings,
        s.errata,
        s.seconds
    )
}

#[cfg(test)]
mod tests {
    use muster_build::Attention;
    use muster_model::{FindingKind, Severity};

    use super::*;

    fn finding(kind: FindingKind, line: u32) -> Attention {
        Attention {
            kind,
            severity: kind.severity(),
            file: Some("sources/g/scenarios/s.yaml".into()),
            line,
            column: 3,
            scenario: Some("s".into()),
            message: format!("finding {line}"),
        }
    }

    #[test]
    fn a_build_lists_twenty_findings_a_game_by_kind_and_counts_the_rest() {
        let mut attention: Vec<Attention> =
            (1..=3).map(|l| finding(FindingKind::Overstack, l)).collect();
        attention.extend((4..=25).map(|l| finding(FindingKind::UnknownUnit, l)));
        assert_eq!(attention[0].severity, Severity::Error);
        let game = GameReport { game: "g".into(), attention, ..GameReport::default() };
        let g = Global {
            sources: "sources".into(),
            out: "out".into(),
            quiet: false,
            jobs: None,
        };
        let mut text = Vec::new();
        write_attention(&mut text, &g, &game).unwrap();
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "g: 25 finding(s) need attention:");
        assert_eq!(lines[1], "  error overstack (3):");
        assert_eq!(lines[2], "    sources/g/scenarios/s.yaml:1:3: [s] finding 1");
        assert_eq!(lines[5], "  warning unknown-unit (22):");
        assert_eq!(lines[22], "    sources/g/scenarios/s.yaml:20:3: [s] finding 20");
        assert_eq!(lines[23], "  and 5 more");
        assert_eq!(lines[24], format!("  full report: {}", "out/dist/g/errata.md"));
        assert_eq!(lines.len(), 25);
    }

    #[test]
    fn a_game_with_nothing_to_attend_to_lists_nothing() {
        let game = GameReport { game: "g".into(), ..GameReport::default() };
        let g = Global { sources: "s".into(), out: ".".into(), quiet: false, jobs: None };
        let mut text = Vec::new();
        write_attention(&mut text, &g, &game).unwrap();
        assert!(text.is_empty());
    }
}
