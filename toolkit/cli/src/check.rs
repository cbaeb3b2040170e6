//! `muster check`: a saved game checked by the rules checker embedded in its module.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use muster_model::{FindingKind, Severity};
use muster_package::checker::{self, EmbeddedChecker};
use muster_package::listing::listing;
use muster_package::module::{CHECKER, RULESET};
use muster_package::read::read_save;
use muster_rules::Standing;

use crate::args::Format;
use crate::exit::Exit;
use crate::pieces::{
    module as open_module, other_module, put_line, read_limited, unread_json, unread_line,
};

/// Checks `save` with the checker and ruleset inside `module` (and, with `scenario`,
/// compares it with that scenario's setup); exit 1 on violations, warnings or entries of
/// the save that could not be read.
pub fn run(
    save: &Path,
    module: &Path,
    scenario: Option<&str>,
    format: Format,
) -> Result<Exit> {
    let fail =
        |e: &dyn std::fmt::Display, p: &Path| anyhow::anyhow!("{}: {e}", p.display());
    let mut m = open_module(module)?;
    // The save is read first, so that a save muster cannot read says so whatever the module.
    let (saved, meta) = read_save(read_limited(save)?).map_err(|e| fail(&e, save))?;
    let (Some(doc), Some(ruleset)) = (m.ruleset.take(), m.ruleset_bytes.take()) else {
        anyhow::bail!(
            "{}: the module has no rules muster can check: it holds no {RULESET} (muster writes one in every module it builds); `muster pieces {} --module {}` lists what the save holds",
            module.display(),
            save.display(),
            module.display()
        )
    };
    let wasm = m.archive.read(CHECKER).map_err(|e| fail(&e, module))?;
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
    let listed = listing(&saved, Some(&m.info));
    let update = crate::update::of(&listed, &mut m, &doc, scenario)
        .map_err(|e| fail(&e, module))?;
    let request = checker::request(&listed, &doc, scenario);
    let mut checker =
        EmbeddedChecker::new(&wasm, &ruleset).map_err(|e| fail(&e, module))?;
    let report = checker.check(&request).map_err(|e| fail(&e, module))?;
    let warnings = warnings(&checker, &report, &meta, &m.info.name, &listed);
    let counts = Counts::of(&listed, &request, &report);
    let eliminated = eliminated(&listed, &doc);
    let checked = Checked {
        doc: &doc,
        report: &report,
        listed: &listed,
        counts,
        eliminated,
        warnings,
        update,
        saved_version: meta.module_version.clone(),
    };
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        let json = checked.json(save, module, scenario, &meta);
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        checked.print(&mut out, save)?;
    }
    Ok(if checked.clean() { Exit::Clean } else { Exit::Findings })
}

/// Counters in a side's dead pile (the map and location `ruleset.json` gives it), with
/// the side.
fn eliminated<'a>(
    listed: &'a muster_package::listing::Listing,
    doc: &'a muster_rules::embedded::RulesetDoc,
) -> Vec<(&'a str, &'a str)> {
    listed
        .pieces
        .iter()
        .filter_map(|p| {
            let pile = doc.dead_piles.iter().find(|d| {
                p.map.as_deref() == Some(d.map.as_str())
                    && p.location.as_deref() == Some(d.location.as_str())
            })?;
            Some((p.unit_id.as_deref().unwrap_or(&p.name), pile.side.as_str()))
        })
        .collect()
}

/// What makes a check not clean besides violations: an old checker, a save made with
/// another module, counter ids and hexes the ruleset does not know.
fn warnings(
    checker: &EmbeddedChecker,
    report: &muster_rules::embedded::Report,
    meta: &muster_package::read::SaveMeta,
    module_name: &str,
    listed: &muster_package::listing::Listing,
) -> Vec<(FindingKind, String)> {
    let mut warnings: Vec<(FindingKind, String)> = Vec::new();
    if checker.version() == 1 {
        warnings.push((FindingKind::OldChecker,
            "the module's checker speaks interface 1: it takes every piece that carries a counter's id for that counter and sees only the hexes; rebuild the module with this muster to tell chits and cards from counters and to compare boxes and turns with the setup".to_string(),
        ));
    }
    warnings.extend(other_module(meta, module_name));
    for u in &report.unknown_units {
        // Where the piece stands, so that a player finds the counter a release removed or
        // renamed.
        let at = listed
            .pieces
            .iter()
            .find(|p| p.unit_id.as_deref() == Some(u.as_str()))
            .and_then(|p| p.location.clone().or_else(|| p.map.clone()))
            .map(|at| {
                format!(" (it stands at {at}; the module may have removed or renamed it)")
            })
            .unwrap_or_default();
        warnings.push((
            FindingKind::UnknownCounter,
            format!("a piece carries the counter id `{u}`, which the module's ruleset does not know{at}"),
        ));
    }
    for l in &report.unknown_locations {
        warnings.push((
            FindingKind::UnknownLocation,
            format!("`{l}` is not a hex of the board"),
        ));
    }
    warnings
}

/// How many pieces the check counted, and where.
struct Counts {
    /// Counters on the map's hexes, checked.
    checked: usize,
    /// Counters elsewhere (boxes, dead piles).
    elsewhere: usize,
    /// Pieces that are no counter (chits, cards, markers of no counter).
    others: usize,
}

impl Counts {
    fn of(
        listed: &muster_package::listing::Listing,
        request: &muster_rules::embedded::Request,
        report: &muster_rules::embedded::Report,
    ) -> Counts {
        let not: std::collections::BTreeSet<&str> =
            report.not_counters.iter().filter_map(|n| n.piece.as_deref()).collect();
        let checked = request
            .pieces
            .iter()
            .filter(|p| p.standing == Standing::Hex)
            .filter(|p| !p.piece.as_deref().is_some_and(|id| not.contains(id)))
            .count();
        let counters = request.pieces.len() - report.not_counters.len();
        Counts {
            checked,
            elsewhere: counters - checked,
            others: listed.pieces.len() - counters,
        }
    }
}

/// A check's result, to print.
struct Checked<'a> {
    doc: &'a muster_rules::embedded::RulesetDoc,
    report: &'a muster_rules::embedded::Report,
    listed: &'a muster_package::listing::Listing,
    counts: Counts,
    eliminated: Vec<(&'a str, &'a str)>,
    warnings: Vec<(FindingKind, String)>,
    /// What the module changes in the game, when it is another release than the save's.
    update: crate::update::Update,
    /// The module version the game was saved with, when the save says.
    saved_version: Option<String>,
}

impl Checked<'_> {
    /// No violation, no warning, every entry of the save read.
    fn clean(&self) -> bool {
        self.report.violations.is_empty()
            && self.listed.unread.is_empty()
            && self.warnings.is_empty()
    }

    /// The result as `--format json` prints it.
    fn json(
        &self,
        save: &Path,
        module: &Path,
        scenario: Option<&str>,
        meta: &muster_package::read::SaveMeta,
    ) -> serde_json::Value {
        let report = self.report;
        serde_json::json!({
            "save": save.display().to_string(),
            "module": module.display().to_string(),
            "saved_with": meta,
            "game": self.doc.game,
            "scenario": scenario,
            "turn": report.turn,
            "pieces_checked": self.counts.checked,
            "pieces_off_the_map": self.counts.elsewhere,
            "other_pieces": self.counts.others,
            "not_counters": report.not_counters,
            "eliminated": self.eliminated
                .iter()
                .map(|(unit, side)| serde_json::json!({"unit": unit, "side": side}))
                .collect::<Vec<_>>(),
            "violations": report.violations.iter().map(|v| {
                let mut j = serde_json::to_value(v).unwrap_or_default();
                j["severity"] = severity(&v.kind).as_str().into();
                j
            }).collect::<Vec<_>>(),
            "unknown_units": report.unknown_units,
            "unknown_locations": report.unknown_locations,
            "warnings": self.warnings.iter().map(|(k, w)| serde_json::json!({"kind": k, "severity": k.severity(), "message": w})).collect::<Vec<_>>(),
            "unread": self.listed.unread.iter().map(unread_json).collect::<Vec<_>>(),
            "update": {
                "kind": FindingKind::ChangedCounter,
                "changed": self.update.changed,
                "compared": self.update.compared,
                "not_compared": self.update.not_compared,
                "moved_kind": FindingKind::MovedSetup,
                "setups": self.update.setups,
            },
        })
    }

    /// The result as text: each violation, warning and unread entry, then a summary line.
    fn print(&self, out: &mut impl Write, save: &Path) -> Result<()> {
        let (report, listed) = (self.report, self.listed);
        let name = save.display().to_string();
        for v in &report.violations {
            let s = severity(&v.kind);
            // The counters, unless the message names them already.
            let units = if v.units.iter().all(|u| v.message.contains(u.as_str())) {
                String::new()
            } else {
                format!(" \u{2014} {}", v.units.join(", "))
            };
            let line = format!(
                "{}: {s} [{}]{}: {}{units}",
                v.location,
                v.kind,
                crate::report::context(&v.rule, ""),
                v.message
            );
            put_line(out, &line)?;
        }
        for (k, w) in &self.warnings {
            put_line(out, &format!("{name}: {} [{k}] {w}", k.severity()))?;
        }
        for u in &listed.unread {
            writeln!(out, "{}", unread_line(&name, u))?;
        }
        let kind = FindingKind::ChangedCounter;
        for c in &self.update.changed {
            let line = format!(
                "{name}: {} [{kind}] {}",
                kind.severity(),
                crate::update::sentence(c)
            );
            put_line(out, &line)?;
        }
        let moved = FindingKind::MovedSetup;
        if let Some(setups) = &self.update.setups {
            for m in &setups.moved {
                let line = format!(
                    "{name}: {} [{moved}] {}",
                    moved.severity(),
                    crate::update::moved_sentence(m, &setups.versions)
                );
                put_line(out, &line)?;
            }
        }
        let dead = if self.eliminated.is_empty() {
            String::new()
        } else {
            format!(" ({} of them eliminated)", self.eliminated.len())
        };
        let turn = report.turn.as_ref().map(|t| t.printed.clone());
        let at = turn.map(|t| format!(" at turn {t}")).unwrap_or_default();
        let mut tail = String::new();
        if !self.warnings.is_empty() {
            tail.push_str(&format!("; {} warning(s)", self.warnings.len()));
        }
        if !self.update.changed.is_empty() {
            tail.push_str(&format!(
                "; {} counter(s) the module prints otherwise",
                self.update.changed.len()
            ));
        }
        if let Some(setups) = self.update.setups.as_ref().filter(|s| !s.moved.is_empty())
        {
            tail.push_str(&format!(
                "; {} counter(s) {} sets up elsewhere than {}",
                setups.moved.len(),
                setups.versions.1,
                setups.versions.0
            ));
        }
        if let (Some(setups), Some(saved)) = (&self.update.setups, &self.saved_version)
            && saved != &setups.versions.0
            && saved != &setups.versions.1
        {
            tail.push_str(&format!(
                "; the module lists what changed since {}, the game was saved with {saved}: what releases between changed is not listed",
                setups.versions.0
            ));
        }
        // Counted only when the module is found to be another release than the save's.
        if !self.update.changed.is_empty() && self.update.not_compared > 0 {
            tail.push_str(&format!(
                "; {} counter(s) the module's setups do not hold, their values not compared",
                self.update.not_compared
            ));
        }
        if !listed.unread.is_empty() {
            let n = listed.unread.len();
            tail.push_str(&format!(
                "; {n} entr{} not read, so the check is incomplete",
                if n == 1 { "y" } else { "ies" }
            ));
        }
        let Counts { checked, elsewhere, others } = self.counts;
        let summary = format!(
            "{name}: {checked} counter(s) on the map checked by the {} checker{at}, {elsewhere} elsewhere{dead}, {others} other piece(s) (chits, cards, markers of no counter) not counted; {} violation(s){tail}",
            self.doc.title,
            report.violations.len()
        );
        put_line(out, &summary)?;
        Ok(())
    }
}

/// The severity of a violation the checker reports, by its kind; a kind this muster does
/// not know (from a newer checker) is an error, as every violation is.
fn severity(kind: &str) -> Severity {
    kind.parse::<FindingKind>().map_or(Severity::Error, FindingKind::severity)
}
