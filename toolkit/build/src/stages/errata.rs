//! The errata stage: the game's own data cross-checked, as `errata.json` and `errata.md`.

use std::path::Path;

use muster_check::Erratum;
use muster_model::{Game, Sources};
use serde_json::{Value, json};

use crate::error::Result;
use crate::output::Outputs;

/// Writes `dist/<game>/errata.md` and `errata.json` through `outputs`; returns the
/// findings.
pub fn write_errata(
    outputs: &Outputs,
    out: &Path,
    game: &Game,
    sources: &Sources,
) -> Result<Vec<Erratum>> {
    let errata = muster_check::errata(game);
    let dir = out.join("dist").join(&game.id);
    let json: Vec<Value> = errata.iter().map(|e| erratum_json(e, sources)).collect();
    let mut text = serde_json::to_string_pretty(&json)?;
    text.push('\n');
    outputs.write(&dir.join("errata.json"), text.as_bytes())?;
    outputs.write(
        &dir.join("errata.md"),
        errata_markdown(game, &errata, sources).as_bytes(),
    )?;
    Ok(errata)
}

/// An erratum as JSON, with file, line and column.
pub fn erratum_json(e: &Erratum, sources: &Sources) -> Value {
    let file =
        (!e.span.is_detached()).then(|| sources.path(e.span.file).display().to_string());
    json!({
        "game": e.game,
        "kind": e.kind,
        "severity": e.severity(),
        "subject": e.subject,
        "expected": e.expected,
        "suggestion": e.suggestion,
        "file": file,
        "line": e.span.line,
        "column": e.span.column,
        "message": e.message,
        "section": e.section,
        "scenario": e.scenario,
        "known": e.known,
        "known_note": e.known_note,
    })
}

/// The errata report as Markdown: grouped by kind, most certain first.
pub fn errata_markdown(game: &Game, errata: &[Erratum], sources: &Sources) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "# Errata: {}\n\n{} finding(s) from the game's own data.\n",
        game.meta.title,
        errata.len()
    );
    let mut kinds: Vec<(muster_model::FindingKind, u8)> = Vec::new();
    for e in errata {
        if !kinds.iter().any(|(k, _)| *k == e.kind) {
            kinds.push((e.kind, e.rank()));
        }
    }
    for (kind, _) in kinds {
        let _ = write!(s, "\n## {kind}\n\n");
        for e in errata.iter().filter(|e| e.kind == kind) {
            let at = if e.span.is_detached() {
                String::new()
            } else {
                format!(
                    " — `{}:{}:{}`",
                    sources.path(e.span.file).display(),
                    e.span.line,
                    e.span.column
                )
            };
            let known = if e.known {
                format!(
                    " **(known{})**",
                    e.known_note.as_ref().map(|n| format!(": {n}")).unwrap_or_default()
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "- {} ({}, section {}{}){at}{known}",
                e.message,
                e.severity(),
                e.section,
                e.scenario.as_ref().map(|x| format!(", {x}")).unwrap_or_default()
            );
            if let Some(sug) = &e.suggestion {
                let _ = writeln!(s, "  - likely: {sug}");
            }
        }
    }
    s
}
