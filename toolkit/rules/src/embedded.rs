//! The interface of the embedded checker: a game's ruleset document in, a position of
//! counters by hex label in, findings out. The WebAssembly checker inside every module and
//! `muster check` both run exactly this.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::language::{Category, Ruleset};
use crate::placement::{Allowed, check_placement};
use crate::stacking::{PlacedUnit, Position, check_stacking};

/// The format tag of [`RulesetDoc`].
pub const FORMAT: &str = "muster-ruleset/1";

/// What the checker knows of one counter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnitFacts {
    /// Counter id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Side id.
    pub side: String,
    /// Nationality id.
    pub nationality: Option<String>,
    /// Formation id.
    pub formation: Option<String>,
    /// Category.
    pub category: Category,
    /// Unit type id.
    #[serde(rename = "type")]
    pub unit_type: Option<String>,
    /// Unit size id.
    pub size: Option<String>,
    /// Steps.
    pub steps: Option<u8>,
}

/// `rules/ruleset.json`: a game's rules and the data they read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RulesetDoc {
    /// Always [`FORMAT`].
    pub format: String,
    /// Game id.
    pub game: String,
    /// Game title.
    pub title: String,
    /// Stacking and placement rules.
    pub rules: Ruleset<String>,
    /// Every counter and marker.
    pub units: Vec<UnitFacts>,
    /// Every hex label of the board.
    pub hexes: Vec<String>,
    /// Per scenario: where each counter may stand at the start.
    pub scenarios: BTreeMap<String, BTreeMap<String, Allowed>>,
    /// Where each side's eliminated counters go in the module: a counter whose map and
    /// location are a pile's is eliminated. Default: none (the module has no dead piles).
    #[serde(default)]
    pub dead_piles: Vec<DeadPile>,
}

/// One side's dead pile in a module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeadPile {
    /// Side id.
    pub side: String,
    /// The map's identifier (`Dead Pile`).
    pub map: String,
    /// The location name VASSAL gives every counter in the pile (`Axis dead pile`).
    pub location: String,
}

/// Whether a piece can be the counter `facts` describes, going by its `Category`
/// property: one without a category can (a module that writes none), one of the counter's
/// own category can; a chit that carries its HQ's `UnitId`, a card or a marker that shares
/// a unit's properties cannot.
pub fn is_counter(facts: &UnitFacts, category: Option<&str>) -> bool {
    category.is_none_or(|c| c == facts.category.name())
}

/// One counter of a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PieceAt {
    /// Counter id.
    pub unit: String,
    /// Hex label.
    pub location: String,
}

/// A request to the checker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Request {
    /// Check starting positions against this scenario's setup lines too.
    #[serde(default)]
    pub scenario: Option<String>,
    /// The counters on the map.
    pub pieces: Vec<PieceAt>,
}

/// One violation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Violation {
    /// `overstack` or `outside-setup`.
    pub kind: String,
    /// Rule section.
    pub rule: String,
    /// Hex label.
    pub location: String,
    /// Printed names of the counters involved.
    pub units: Vec<String>,
    /// What is wrong, in words.
    pub message: String,
}

/// What the checker found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// Violations, stacking first.
    pub violations: Vec<Violation>,
    /// Counter ids of the request the ruleset does not know.
    pub unknown_units: Vec<String>,
    /// Locations that are not hexes of the board.
    pub unknown_locations: Vec<String>,
}

/// Checks a position against a game's rules (and a scenario's setup lines, if named).
pub fn check(doc: &RulesetDoc, request: &Request) -> Report {
    let facts: BTreeMap<&str, &UnitFacts> =
        doc.units.iter().map(|u| (u.id.as_str(), u)).collect();
    let mut report = Report::default();
    let mut copies: BTreeMap<&str, usize> = BTreeMap::new();
    let mut position = Position::default();
    for p in &request.pieces {
        let Some(u) = facts.get(p.unit.as_str()) else {
            report.unknown_units.push(p.unit.clone());
            continue;
        };
        if !doc.hexes.is_empty() && !doc.hexes.contains(&p.location) {
            report.unknown_locations.push(p.location.clone());
            continue;
        }
        let n = copies.entry(u.id.as_str()).or_default();
        let id = if *n == 0 { u.id.clone() } else { format!("{}#{n}", u.id) };
        *n += 1;
        position.units.push(PlacedUnit {
            id,
            name: u.name.clone(),
            side: u.side.clone(),
            category: u.category,
            unit_type: u.unit_type.clone().unwrap_or_default(),
            size: u.size.clone().unwrap_or_default(),
            steps: u.steps.unwrap_or(2),
            formation: u.formation.clone(),
            location: p.location.clone(),
        });
    }
    let tag = |kind: &str| {
        let kind = kind.to_string();
        move |f: crate::stacking::Finding| Violation {
            kind: kind.clone(),
            rule: f.rule,
            location: f.location,
            units: f.units,
            message: f.message,
        }
    };
    report
        .violations
        .extend(check_stacking(&doc.rules, &position).into_iter().map(tag("overstack")));
    if let Some(allowed) = request.scenario.as_ref().and_then(|s| doc.scenarios.get(s)) {
        report.violations.extend(
            check_placement(allowed, &position).into_iter().map(tag("outside-setup")),
        );
    }
    report
}
