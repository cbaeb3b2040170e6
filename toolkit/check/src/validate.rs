//! Scenario validation and the checking of a concrete position.

use std::collections::BTreeMap;

use muster_hex::Cell;
use muster_model::{FindingKind, Game, Severity, Span};
use muster_rules::{Allowed, Position, check_placement, check_stacking};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::region::Region;
use crate::resolve::Resolved;
use crate::solve::{self, Solution, placed, ruleset};

/// A problem with a scenario or a position. Its severity is its kind's
/// ([`Finding::severity`]).
#[derive(Debug, Clone)]
pub struct Finding {
    /// Game id.
    pub game: String,
    /// Scenario id.
    pub scenario: String,
    /// What kind of problem.
    pub kind: FindingKind,
    /// The rule section it concerns.
    pub rule: String,
    /// The printed hex label or location.
    pub location: String,
    /// Printed names of the units involved.
    pub units: Vec<String>,
    /// What is wrong.
    pub message: String,
    /// Where it is printed.
    pub span: Span,
}

impl Finding {
    /// How bad it is: the severity of its kind.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }
}

impl Serialize for Finding {
    /// Game, scenario, kind, severity, rule, location, units and message.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Finding", 8)?;
        st.serialize_field("game", &self.game)?;
        st.serialize_field("scenario", &self.scenario)?;
        st.serialize_field("kind", &self.kind)?;
        st.serialize_field("severity", &self.severity())?;
        st.serialize_field("rule", &self.rule)?;
        st.serialize_field("location", &self.location)?;
        st.serialize_field("units", &self.units)?;
        st.serialize_field("message", &self.message)?;
        st.end()
    }
}

/// Validates a scenario's printed setup: every unit reference resolved, fixed placements
/// within the stacking rules, every group shown placeable (by solving it) or the reason it
/// cannot be.
pub fn validate_scenario(game: &Game, scenario: &str) -> Vec<Finding> {
    validate_solved(game, scenario, &solve::solve(game, scenario))
}

/// [`validate_scenario`] for a scenario already solved: `solution` is what
/// [`solve::solve`] gave for it.
pub fn validate_solved(game: &Game, scenario: &str, solution: &Solution) -> Vec<Finding> {
    let placements = solve::placements(game, scenario);
    let rules = ruleset(game);
    let mut out = Vec::new();
    let finding = |kind: FindingKind,
                   rule: String,
                   location: String,
                   units: Vec<String>,
                   message: String,
                   span: Span| Finding {
        game: game.id.clone(),
        scenario: scenario.to_string(),
        kind,
        rule,
        location,
        units,
        message,
        span,
    };
    // Unknown references.
    for (pi, res) in solution.resolutions.iter().enumerate() {
        let p = placements[pi];
        for r in res {
            if let Resolved::Unit { differs_from: Some(manifest), .. } = &r.to {
                out.push(finding(
                    FindingKind::NameDiffers,
                    p.section.clone(),
                    p.location_text.as_ref().map(|t| t.v.clone()).unwrap_or_default(),
                    vec![r.printed.clone()],
                    format!("`{}` is printed `{manifest}` in the manifest", r.printed),
                    r.span,
                ));
            }
            if let Resolved::Unknown { nearest } = &r.to {
                let hint = nearest
                    .first()
                    .map(|(_, n, s)| format!("; did you mean `{n}`? (similarity {s:.2})"))
                    .unwrap_or_default();
                out.push(finding(
                    FindingKind::UnknownUnit,
                    p.section.clone(),
                    p.location_text.as_ref().map(|t| t.v.clone()).unwrap_or_default(),
                    vec![r.printed.clone()],
                    format!("`{}` names no counter of the manifest{hint}", r.printed),
                    r.span,
                ));
            }
        }
    }
    // Fixed placements: every line that names exactly one hex, checked together per hex.
    let mut fixed: BTreeMap<Cell, Vec<(usize, String)>> = BTreeMap::new();
    for (pi, reg) in solution.regions.iter().enumerate() {
        if let Some(Region::Hexes { anchors, distance: 0, .. }) = reg
            && anchors.len() == 1
        {
            for u in solution.units.iter().filter(|u| u.placement == pi) {
                fixed.entry(anchors[0]).or_default().push((pi, u.unit.clone()));
            }
        }
    }
    for (cell, list) in &fixed {
        let label = game.board.as_ref().and_then(|b| b.label(*cell)).unwrap_or_default();
        let units: Vec<_> = list
            .iter()
            .enumerate()
            .filter_map(|(k, (_, id))| placed(game, id, k, &label))
            .collect();
        for f in check_stacking(&rules, &Position { units }) {
            let p = placements[list[0].0];
            out.push(finding(
                FindingKind::Overstack,
                f.rule,
                label.clone(),
                f.units,
                format!("the printed setup overstacks {label}: {}", f.message),
                p.location_text.as_ref().map_or(Span::detached(), |t| t.span),
            ));
        }
    }
    // Groups that cannot be placed, and locations that cannot be resolved.
    for pr in &solution.problems {
        // A line that names one hex is already reported by the overstack check above.
        if let Some(Some(Region::Hexes { anchors, distance: 0, .. })) =
            solution.regions.get(pr.placement)
            && anchors.len() == 1
        {
            continue;
        }
        let (kind, location) = match solution.regions.get(pr.placement) {
            Some(Some(Region::Unresolved { bad_label: Some(l), .. })) => {
                (FindingKind::BadHex, l.clone())
            }
            Some(Some(Region::Unresolved { .. })) => {
                (FindingKind::UnresolvedLocation, pr.location.clone())
            }
            _ => (FindingKind::Infeasible, pr.location.clone()),
        };
        out.push(finding(
            kind,
            pr.rule.clone(),
            location,
            pr.units.clone(),
            pr.message.clone(),
            pr.span,
        ));
    }
    out
}

/// Where each counter of a scenario may stand at the start: the union of the regions of
/// the printed lines that place it, with their printed locations.
pub fn allowed_hexes(game: &Game, scenario: &str) -> BTreeMap<String, Allowed> {
    let mut allowed: BTreeMap<String, Allowed> = BTreeMap::new();
    let Some(board) = &game.board else { return allowed };
    let solution = solve::solve(game, scenario);
    let placements = solve::placements(game, scenario);
    for u in &solution.units {
        if let Some(Some(Region::Hexes { cells, .. })) = solution.regions.get(u.placement)
        {
            let e = allowed.entry(u.unit.clone()).or_default();
            let line = &placements[u.placement];
            if e.rule.is_empty() {
                e.rule = line.section.clone();
            }
            e.hexes.extend(cells.iter().filter_map(|c| board.label(*c)));
            if let Some(t) = &line.location_text
                && !e.printed.contains(&t.v)
            {
                e.printed.push(t.v.clone());
            }
        }
    }
    for a in allowed.values_mut() {
        a.hexes.sort();
        a.hexes.dedup();
    }
    allowed
}

/// Checks a concrete position (a player's setup) against a scenario: hexes overstacked
/// under which rule, and units standing where their printed setup does not allow.
pub fn check_position(game: &Game, scenario: &str, position: &Position) -> Vec<Finding> {
    let finding = |kind: FindingKind| {
        move |f: muster_rules::Finding| Finding {
            game: game.id.clone(),
            scenario: scenario.to_string(),
            kind,
            rule: f.rule,
            location: f.location,
            units: f.units,
            message: f.message,
            span: Span::detached(),
        }
    };
    let mut out: Vec<Finding> = check_stacking(&ruleset(game), position)
        .into_iter()
        .map(finding(FindingKind::Overstack))
        .collect();
    let allowed = allowed_hexes(game, scenario);
    out.extend(
        check_placement(&allowed, position)
            .into_iter()
            .map(finding(FindingKind::OutsideSetup)),
    );
    out
}
