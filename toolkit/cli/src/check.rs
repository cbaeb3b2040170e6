//! `muster check`: a saved game checked by the rules checker embedded in its module.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use muster_package::archive::Archive;
use muster_package::checker::EmbeddedChecker;
use muster_package::read::{list_pieces, read_module, read_save};
use muster_rules::embedded::{PieceAt, Request, RulesetDoc};

use crate::args::Format;
use crate::commands::Exit;
use crate::pieces::read_limited;

/// Checks `save` with the checker and ruleset inside `module`; exit 1 on violations.
pub fn run(
    save: &Path,
    module: &Path,
    scenario: Option<&str>,
    format: Format,
) -> Result<Exit> {
    let fail =
        |e: &dyn std::fmt::Display, p: &Path| anyhow::anyhow!("{}: {e}", p.display());
    let mut archive =
        Archive::open(read_limited(module)?).map_err(|e| fail(&e, module))?;
    let info = read_module(&mut archive).map_err(|e| fail(&e, module))?;
    let ruleset = archive.read("rules/ruleset.json").map_err(|e| fail(&e, module))?;
    let wasm = archive.read("rules/checker.wasm").map_err(|e| fail(&e, module))?;
    let doc: RulesetDoc = serde_json::from_slice(&ruleset).map_err(|e| {
        anyhow::anyhow!("{}: rules/ruleset.json is not a ruleset ({e})", module.display())
    })?;
    if let Some(s) = scenario
        && !doc.scenarios.contains_key(s)
    {
        let names: Vec<&str> = doc.scenarios.keys().map(String::as_str).collect();
        anyhow::bail!(
            "{}: no scenario `{s}`; the module has {}{}",
            module.display(),
            names.join(", "),
            muster_model::suggest(s, names.clone())
                .map(|x| format!(" (did you mean `{x}`?)"))
                .unwrap_or_default()
        );
    }
    let saved = read_save(read_limited(save)?).map_err(|e| fail(&e, save))?;
    let pieces = list_pieces(&saved, Some(&info));
    let hexes: std::collections::BTreeSet<&str> =
        doc.hexes.iter().map(String::as_str).collect();
    let on_map: Vec<PieceAt> = pieces
        .iter()
        .filter_map(|p| {
            let (unit, location) = (p.unit.as_ref()?, p.location.as_ref()?);
            hexes
                .contains(location.as_str())
                .then(|| PieceAt { unit: unit.clone(), location: location.clone() })
        })
        .collect();
    let mut checker =
        EmbeddedChecker::new(&wasm, &ruleset).map_err(|e| fail(&e, module))?;
    let report = checker
        .check(&Request {
            scenario: scenario.map(str::to_string),
            pieces: on_map.clone(),
        })
        .map_err(|e| fail(&e, module))?;
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        let json = serde_json::json!({
            "save": save.display().to_string(),
            "module": module.display().to_string(),
            "game": doc.game,
            "scenario": scenario,
            "pieces_checked": on_map.len(),
            "pieces_off_the_map": pieces.len() - on_map.len(),
            "violations": report.violations,
            "unknown_units": report.unknown_units,
            "unknown_locations": report.unknown_locations,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        for v in &report.violations {
            writeln!(out, "{}: {} (rule {}): {}", v.location, v.kind, v.rule, v.message)?;
        }
        for u in &report.unknown_units {
            writeln!(
                out,
                "unknown counter `{u}`: the module's ruleset does not know it"
            )?;
        }
        writeln!(
            out,
            "{}: {} counter(s) on the map checked by the {} checker, {} off the map; {} violation(s)",
            save.display(),
            on_map.len(),
            doc.title,
            pieces.len() - on_map.len(),
            report.violations.len()
        )?;
    }
    Ok(if report.violations.is_empty() { Exit::Clean } else { Exit::Findings })
}
