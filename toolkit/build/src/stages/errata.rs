//! The errata stage: the game's own data cross-checked, as `errata.json` and `errata.md`.

use std::path::Path;

use muster_check::{Erratum, Finding, Resolver, Solution};
use muster_model::{Certainty, Game, Sources};
use serde_json::{Value, json};

use crate::error::Result;
use crate::output::Outputs;

/// Writes `dist/<game>/errata.md` and `errata.json` of the game `resolver` reads through
/// `outputs`; returns the findings. `checked` are the game's scenarios solved and
/// validated already, if any, each with what validating it found (the others are solved
/// and validated here).
pub fn write_errata<'g>(
    outputs: &Outputs,
    out: &Path,
    resolver: &'g Resolver<'g>,
    checked: &[(&'g Solution, &'g [Finding])],
    sources: &Sources,
) -> Result<Vec<Erratum>> {
    let game = resolver.game();
    let errata = muster_check::errata_of_checked(resolver, checked);
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

/// An erratum as JSON, with file, line and column, and every other place it is printed.
pub fn erratum_json(e: &Erratum, sources: &Sources) -> Value {
    let file = |span: muster_model::Span| {
        (!span.is_detached()).then(|| sources.path(span.file).display().to_string())
    };
    let also: Vec<Value> = e
        .also
        .iter()
        .map(|p| {
            json!({
                "file": file(p.span),
                "line": p.span.line,
                "column": p.span.column,
                "section": p.section,
                "scenario": p.scenario,
            })
        })
        .collect();
    json!({
        "game": e.game,
        "kind": e.kind,
        "severity": e.severity(),
        "certainty": e.certainty,
        "evidence": e.evidence,
        "subject": e.subject,
        "expected": e.expected,
        "suggestion": e.suggestion,
        "file": file(e.span),
        "line": e.span.line,
        "column": e.span.column,
        "message": e.message,
        "section": e.section,
        "scenario": e.scenario,
        "also": also,
        "known": e.known,
        "known_note": e.known_note,
    })
}

/// The errata report as Markdown, a proofreader's list: most certain first, one line per
/// erratum with its sections, the printed text, what is wrong and what the rest of the
/// rulebook says, the likely fix and every place it is printed.
pub fn errata_markdown(game: &Game, errata: &[Erratum], sources: &Sources) -> String {
    use std::fmt::Write;
    let count = |c: Certainty| errata.iter().filter(|e| e.certainty == c).count();
    let attention = errata.iter().filter(|e| e.needs_attention()).count();
    let mut s = format!(
        "# Errata: {}\n\n{} finding(s) from the game's own data: {} certain, {} likely, {} possible, and {} that muster could not check; {attention} need(s) attention.\n",
        game.meta.title,
        errata.len(),
        count(Certainty::Certain),
        count(Certainty::Likely),
        count(Certainty::Possible),
        count(Certainty::Unchecked),
    );
    let place = |span: muster_model::Span| {
        if span.is_detached() {
            String::new()
        } else {
            format!(
                "`{}:{}:{}`",
                sources.path(span.file).display(),
                span.line,
                span.column
            )
        }
    };
    for certainty in
        [Certainty::Certain, Certainty::Likely, Certainty::Possible, Certainty::Unchecked]
    {
        let list: Vec<&Erratum> =
            errata.iter().filter(|e| e.certainty == certainty).collect();
        if list.is_empty() {
            continue;
        }
        let title = match certainty {
            Certainty::Certain => "Certain",
            Certainty::Likely => "Likely",
            Certainty::Possible => "Possible",
            Certainty::Unchecked => "Not checked (muster's reading, no erratum)",
        };
        let _ = write!(s, "\n## {title}\n\n");
        for e in list {
            let mut sections = vec![e.section.clone()];
            for p in &e.also {
                if !sections.contains(&p.section) {
                    sections.push(p.section.clone());
                }
            }
            sections.retain(|x| !x.is_empty());
            let mut line = String::from("- ");
            if !sections.is_empty() {
                let _ = write!(line, "**{}** ", sections.join(", "));
            }
            let _ = write!(line, "`{}`: {}", e.subject, e.message);
            if let Some(x) = &e.expected {
                let _ = write!(line, "; the rulebook elsewhere: {x}");
            }
            if let Some(x) = &e.suggestion {
                let _ = write!(line, "; likely `{x}`");
            }
            let mut places = vec![place(e.span)];
            places.extend(e.also.iter().map(|p| place(p.span)));
            places.retain(|p| !p.is_empty());
            if !places.is_empty() {
                let _ = write!(line, " — {}", places.join(", "));
            }
            let _ = write!(line, " ({}, {}", e.kind, e.severity());
            if !e.evidence.is_empty() {
                let _ = write!(line, "; {}", e.evidence);
            }
            line.push(')');
            if e.known {
                let _ = write!(
                    line,
                    " **known{}**",
                    e.known_note.as_ref().map(|n| format!(": {n}")).unwrap_or_default()
                );
            }
            let _ = writeln!(s, "{line}");
        }
    }
    s
}
