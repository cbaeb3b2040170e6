//! Turning a scenario's printed setup into one concrete, legal, deterministic position.

use std::collections::BTreeMap;

use muster_hex::Cell;
use muster_model::{Game, ParsedPlacement, PlacementKind, Span};
use muster_rules::{PlacedUnit, Position, Ruleset, check_stacking};
use serde::Serialize;

use crate::region::{Region, Target, region};
use crate::resolve::{Resolution, Resolved, Resolver};

/// One counter of the solved setup.
#[derive(Debug, Clone, Serialize)]
pub struct SolvedUnit {
    /// Counter id.
    pub unit: String,
    /// Printed name in the manifest.
    pub name: String,
    /// Side id.
    pub side: String,
    /// The hex, for units on the map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// The holding box, for units off the map (reinforcements, groups, unplaced units).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holding: Option<String>,
    /// Starts on its reduced side.
    pub reduced: bool,
    /// Index of the printed placement it comes from.
    pub placement: usize,
    /// Board cell, for units on the map.
    #[serde(skip)]
    pub cell: Option<Cell>,
}

/// A placement that could not be carried out, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// Index of the printed placement.
    pub placement: usize,
    /// Rule section it concerns.
    pub rule: String,
    /// Printed names of the units involved.
    pub units: Vec<String>,
    /// Where the location is printed.
    #[serde(skip)]
    pub span: Span,
    /// The printed location.
    pub location: String,
    /// What went wrong.
    pub message: String,
}

/// A solved setup.
#[derive(Debug, Clone, Serialize)]
pub struct Solution {
    /// Scenario id.
    pub scenario: String,
    /// Every counter of the setup, reinforcements and groups.
    pub units: Vec<SolvedUnit>,
    /// Placements that could not be made legal.
    pub problems: Vec<Problem>,
    /// Each placement's resolved items, for reports.
    #[serde(skip)]
    pub resolutions: Vec<Vec<Resolution>>,
    /// Each placement's region.
    #[serde(skip)]
    pub regions: Vec<Option<Region>>,
}

/// The placements of a scenario's setup (its own, or the one it says it shares) followed
/// by its reinforcements and groups.
pub fn placements<'g>(game: &'g Game, scenario: &str) -> Vec<&'g ParsedPlacement> {
    let Some(s) = game.scenarios.iter().find(|s| s.id.v == scenario) else {
        return vec![];
    };
    let own = game.placements(scenario);
    let setup_from = s.setup_from.as_ref().map(|f| game.placements(&f.v)).unwrap_or(&[]);
    let setup = if setup_from.is_empty() { own } else { setup_from };
    setup
        .iter()
        .filter(|p| p.kind == PlacementKind::Setup)
        .chain(own.iter().filter(|p| p.kind != PlacementKind::Setup))
        .collect()
}

/// The rules-checker view of a counter at a location.
pub fn placed(game: &Game, id: &str, copy: usize, location: &str) -> Option<PlacedUnit> {
    let u = game.unit(id).or_else(|| game.markers.iter().find(|m| m.id == id))?;
    Some(PlacedUnit {
        id: if copy == 0 { u.id.clone() } else { format!("{}#{copy}", u.id) },
        name: u.printed.v.clone(),
        side: u.side.clone(),
        category: u.category,
        unit_type: u.unit_type.clone().unwrap_or_default(),
        size: u.size.clone().unwrap_or_default(),
        steps: u.steps.unwrap_or(2),
        formation: u.formation.clone(),
        location: location.to_string(),
    })
}

/// The game's rules with plain strings, for the checker.
pub fn ruleset(game: &Game) -> Ruleset<String> {
    game.rules.clone().map(|s| s.v)
}

fn in_target(
    game: &Game,
    resolver_scope: &dyn Fn(&str) -> bool,
    u: &SolvedUnit,
    target: &Target,
    block: &[usize],
) -> bool {
    match target {
        Target::Above => block.contains(&u.placement),
        Target::AnyFormation => game
            .unit(&u.unit)
            .and_then(|x| x.formation.as_ref())
            .and_then(|f| game.formation(f))
            .is_some_and(|f| !f.independent),
        Target::Formations(_) => game
            .unit(&u.unit)
            .and_then(|x| x.formation.as_deref())
            .is_some_and(resolver_scope),
    }
}

/// Solves a scenario's setup: every at-start unit on a hex its printed location allows,
/// stacking respected, nearest the printed anchor first and with the rest of its line;
/// reinforcements and groups in holding boxes by turn, area and group. Deterministic.
pub fn solve(game: &Game, scenario: &str) -> Solution {
    let resolver = Resolver::new(game);
    let rules = ruleset(game);
    let mut used = BTreeMap::new();
    let mut units: Vec<SolvedUnit> = Vec::new();
    let mut problems = Vec::new();
    let mut resolutions = Vec::new();
    let mut regions = Vec::new();
    let mut regions_so_far: BTreeMap<usize, Option<Region>> = BTreeMap::new();
    let mut stacks: BTreeMap<Cell, Vec<PlacedUnit>> = BTreeMap::new();
    let placements = placements(game, scenario);
    // Lines that name one exact hex are placed first, so flexible groups work around them;
    // everything is still reported by printed order.
    let exact = |p: &ParsedPlacement| {
        matches!(&p.location, Some(muster_model::notation::LocationExpr::Hex { .. }))
    };
    let mut order: Vec<usize> = (0..placements.len()).collect();
    order.sort_by_key(|&k| (!exact(placements[k]), k));
    let mut by_index: BTreeMap<usize, (Vec<Resolution>, Option<Region>)> =
        BTreeMap::new();
    for pi in order {
        let p = &placements[pi];
        let res = resolver.resolve_placement(p, &mut used);
        let mut wanted: Vec<(String, bool)> = Vec::new();
        for r in &res {
            if let Resolved::Unit { id, .. } = &r.to {
                let strength_reduced = r.strength.as_ref().is_some_and(|s| {
                    game.unit(id).is_some_and(|u| {
                        !u.back.is_empty()
                            && crate::resolve::strength(game, &u.back) == *s
                    })
                });
                for _ in 0..r.count.min(50) {
                    wanted.push((id.clone(), r.reduced || strength_reduced));
                }
            }
        }
        let location = p.location_text.as_ref().map(|t| t.v.clone()).unwrap_or_default();
        let span = p.location_text.as_ref().map_or_else(
            || p.units.printed.first().map(|u| u.span).unwrap_or_else(Span::detached),
            |t| t.span,
        );
        let holding = match &p.kind {
            PlacementKind::Setup => None,
            PlacementKind::Reinforcement => Some(format!(
                "Reinforcements: turn {}{}",
                p.turn.clone().unwrap_or_default(),
                p.area.as_ref().map(|a| format!(", area {a}")).unwrap_or_default()
            )),
            PlacementKind::Group(_) => {
                Some(p.group.clone().unwrap_or_else(|| "Holding box".into()))
            }
        };
        let reg = if holding.is_some() {
            None
        } else {
            Some(match &p.location {
                Some(expr) => region(game, &resolver, expr),
                None => Region::Unresolved {
                    reason: "the line prints no location".into(),
                    bad_label: None,
                },
            })
        };
        let block: Vec<usize> = (0..pi)
            .filter(|&k| {
                placements[k].side == p.side
                    && placements[k].section == p.section
                    && placements[k].kind == PlacementKind::Setup
            })
            .collect();
        let mut failed: Vec<String> = Vec::new();
        for (id, reduced) in wanted {
            let name = game
                .unit(&id)
                .or_else(|| game.markers.iter().find(|m| m.id == id))
                .map(|u| u.printed.v.clone())
                .unwrap_or_default();
            let mut solved = SolvedUnit {
                unit: id.clone(),
                name: name.clone(),
                side: p.side.clone(),
                hex: None,
                holding: holding.clone(),
                reduced,
                placement: pi,
                cell: None,
            };
            if let Some(r) = &reg {
                let candidates: Vec<Cell> = match r {
                    Region::Hexes { cells, .. } => cells.clone(),
                    Region::WithUnits { target, plus } => {
                        let scope: Box<dyn Fn(&str) -> bool> = match target {
                            Target::Formations(ids) => {
                                let all: Vec<String> = ids
                                    .iter()
                                    .flat_map(|f| descendants(game, f))
                                    .collect();
                                Box::new(move |f: &str| all.iter().any(|x| x == f))
                            }
                            _ => Box::new(|_: &str| false),
                        };
                        let mut c = plus.clone();
                        let targets: Vec<&SolvedUnit> = units
                            .iter()
                            .filter(|u| {
                                u.cell.is_some()
                                    && in_target(game, &*scope, u, target, &block)
                            })
                            .collect();
                        c.extend(targets.iter().filter_map(|u| u.cell));
                        // Then anywhere those units were allowed to set up.
                        let from: std::collections::BTreeSet<usize> =
                            targets.iter().map(|u| u.placement).collect();
                        for k in from {
                            if let Some(Some(Region::Hexes { cells, .. })) =
                                regions_so_far.get(&k)
                            {
                                c.extend(cells.iter().copied());
                            }
                        }
                        let mut seen = std::collections::BTreeSet::new();
                        c.retain(|x| seen.insert(*x));
                        c
                    }
                    Region::Unresolved { .. } => vec![],
                };
                let copy = units.iter().filter(|u| u.unit == id).count();
                let mut placed_at = None;
                for cell in candidates {
                    let label = game
                        .board
                        .as_ref()
                        .and_then(|b| b.label(cell))
                        .unwrap_or_default();
                    let Some(pu) = placed(game, &id, copy, &label) else { break };
                    let mut trial = stacks.get(&cell).cloned().unwrap_or_default();
                    trial.push(pu.clone());
                    if check_stacking(&rules, &Position { units: trial }).is_empty() {
                        stacks.entry(cell).or_default().push(pu);
                        placed_at = Some((cell, label));
                        break;
                    }
                }
                match placed_at {
                    Some((cell, label)) => {
                        solved.cell = Some(cell);
                        solved.hex = Some(label);
                    }
                    None => {
                        solved.holding = Some("Not placed".into());
                        failed.push(name);
                    }
                }
            }
            units.push(solved);
        }
        if !failed.is_empty() {
            let message = match &reg {
                Some(Region::Unresolved { reason, .. }) => {
                    format!("cannot be placed: {reason}")
                }
                Some(Region::Hexes { cells, .. }) if cells.len() == 1 => {
                    let on_hex = units.iter().filter(|u| u.placement == pi).count();
                    let rule = rules
                        .stacking
                        .first()
                        .map(|r| r.section.clone())
                        .unwrap_or_default();
                    if on_hex > 1 {
                        format!(
                            "these {on_hex} units must share one hex ({location}); rule {rule} allows only {} of them there",
                            on_hex - failed.len()
                        )
                    } else {
                        format!(
                            "{} must stand in {location}, which other printed lines already fill under rule {rule}",
                            failed.join(", ")
                        )
                    }
                }
                Some(Region::Hexes { cells, .. }) => format!(
                    "{} of these units do not fit in the {} hexes of `{location}` without breaking the stacking rules",
                    failed.len(),
                    cells.len()
                ),
                _ => format!("no hex holds the units these must stack with ({location})"),
            };
            problems.push(Problem {
                placement: pi,
                rule: if matches!(reg, Some(Region::Unresolved { .. })) {
                    p.section.clone()
                } else {
                    rules
                        .stacking
                        .first()
                        .map(|r| r.section.clone())
                        .unwrap_or_else(|| p.section.clone())
                },
                units: failed,
                span,
                location,
                message,
            });
        }
        by_index.insert(pi, (res, reg.clone()));
        regions_so_far.insert(pi, reg);
    }
    for (_, (res, reg)) in by_index {
        resolutions.push(res);
        regions.push(reg);
    }
    units.sort_by_key(|u| u.placement);
    problems.sort_by_key(|p| p.placement);
    Solution { scenario: scenario.to_string(), units, problems, resolutions, regions }
}

/// A formation and every formation below it.
pub fn descendants(game: &Game, id: &str) -> Vec<String> {
    let mut out = vec![id.to_string()];
    let mut k = 0;
    while k < out.len() {
        let cur = out[k].clone();
        out.extend(
            game.formations
                .iter()
                .filter(|f| f.parent.as_deref() == Some(&cur))
                .map(|f| f.id.clone()),
        );
        k += 1;
    }
    out
}
