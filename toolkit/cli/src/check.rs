//! `muster check`: a saved game checked by the rules checker embedded in its module.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use muster_package::checker::EmbeddedChecker;
use muster_package::listing::listing;
use muster_package::read::read_save;
use muster_rules::embedded::{PieceAt, Request};

use crate::args::Format;
use crate::commands::Exit;
use crate::pieces::{module as open_module, read_limited, unread_json, unread_line};

/// Checks `save` with the checker and ruleset inside `module`; exit 1 on violations.
pub fn run(
    save: &Path,
    module: &Path,
    scenario: Option<&str>,
    format: Format,
) -> Result<Exit> {
    let fail =
        |e: &dyn std::fmt::Display, p: &Path| anyhow::anyhow!("{}: {e}", p.display());
    let mut m = open_module(module)?;
    let ruleset = m.archive.read("rules/ruleset.json").map_err(|e| fail(&e, module))?;
    let wasm = m.archive.read("rules/checker.wasm").map_err(|e| fail(&e, module))?;
    let Some(doc) = m.ruleset.take() else {
        anyhow::bail!("{}: the module has no rules/ruleset.json", module.display())
    };
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
    let (saved, _) = read_save(read_limited(save)?).map_err(|e| fail(&e, save))?;
    let listed = listing(&saved, Some(&m.info));
    let pieces = &listed.pieces;
    let hexes: std::collections::BTreeSet<&str> =
        doc.hexes.iter().map(String::as_str).collect();
    let on_map: Vec<PieceAt> = pieces
        .iter()
        .filter_map(|p| {
            let (unit, location) = (p.unit_id.as_ref()?, p.location.as_ref()?);
            hexes
                .contains(location.as_str())
                .then(|| PieceAt { unit: unit.clone(), location: location.clone() })
        })
        .collect();
    // Counters in a side's dead pile (the map and location `ruleset.json` gives it).
    let eliminated: Vec<(&str, &str)> = pieces
        .iter()
        .filter_map(|p| {
            let pile = doc.dead_piles.iter().find(|d| {
                p.map.as_deref() == Some(d.map.as_str())
                    && p.location.as_deref() == Some(d.location.as_str())
            })?;
            Some((p.unit_id.as_deref().unwrap_or(&p.name), pile.side.as_str()))
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
            "eliminated": eliminated
                .iter()
                .map(|(unit, side)| serde_json::json!({"unit": unit, "side": side}))
                .collect::<Vec<_>>(),
            "violations": report.violations,
            "unknown_units": report.unknown_units,
            "unknown_locations": report.unknown_locations,
            "unread": listed.unread.iter().map(unread_json).collect::<Vec<_>>(),
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
        let name = save.display().to_string();
        for u in &listed.unread {
            writeln!(out, "{}", unread_line(&name, u))?;
        }
        let unread = if listed.unread.is_empty() {
            String::new()
        } else {
            format!(
                "; {} entr{} not read, so the check is incomplete",
                listed.unread.len(),
                if listed.unread.len() == 1 { "y" } else { "ies" }
            )
        };
        let dead = if eliminated.is_empty() {
            String::new()
        } else {
            format!(" ({} of them eliminated)", eliminated.len())
        };
        writeln!(
            out,
            "{name}: {} counter(s) on the map checked by the {} checker, {} off the map{dead}; {} violation(s){unread}",
            on_map.len(),
            doc.title,
            pieces.len() - on_map.len(),
            report.violations.len()
        )?;
    }
    let clean = report.violations.is_empty() && listed.unread.is_empty();
    Ok(if clean { Exit::Clean } else { Exit::Findings })
}
