//! Turning a scenario's printed setup into one concrete, legal, deterministic position.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use muster_hex::Cell;
use muster_model::{FindingKind, Game, ParsedPlacement, PlacementKind, Span};
use muster_rules::embedded::UnitFacts;
use muster_rules::{PlacedUnit, Ruleset, stacking_holds};
use serde::{Deserialize, Serialize};

use crate::region::{Region, Target, region};
use crate::resolve::{Resolution, Resolved, Resolver, descendants};

/// One counter of the solved setup.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    /// The values the scenario starts it with where they are not its counter's own (a
    /// table of starting strengths, a strength its line prints), by value id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, String>,
    /// Index of the printed placement it comes from.
    pub placement: usize,
    /// Board cell, for units on the map.
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
    pub cell: Option<Cell>,
}

/// A placement that could not be carried out, and why.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Problem {
    /// Index of the printed placement.
    pub placement: usize,
    /// What kind of finding it makes.
    pub kind: FindingKind,
    /// Rule section it concerns.
    pub rule: String,
    /// Printed names of the units involved.
    pub units: Vec<String>,
    /// Where the location is printed.
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
    pub span: Span,
    /// The printed location.
    pub location: String,
    /// What went wrong.
    pub message: String,
}

/// A counter printed more often in one scenario than the manifest has it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Duplicate {
    /// Counter id.
    pub unit: String,
    /// The item as printed at the extra use.
    pub printed: String,
    /// Index of the placement of the extra use.
    pub placement: usize,
    /// Index of the placement that used it first.
    pub first: usize,
    /// Where the first use is printed.
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
    pub first_span: Span,
    /// Where the extra use is printed.
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
    pub span: Span,
    /// How many counters the manifest has.
    pub counters: u32,
    /// One of the two uses is a reinforcement and the other at the start.
    pub reinforcement: bool,
}

/// A solved setup.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Solution {
    /// Scenario id.
    pub scenario: String,
    /// Every counter of the setup, reinforcements and groups.
    pub units: Vec<SolvedUnit>,
    /// Placements that could not be made legal.
    pub problems: Vec<Problem>,
    /// Uses of a counter beyond the manifest's count, which were not placed.
    pub duplicates: Vec<Duplicate>,
    /// Each placement's resolved items, for reports.
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
    pub resolutions: Vec<Vec<Resolution>>,
    /// Each placement's region.
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
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
    let mut placed = unit_facts(game, u).placed(location);
    if copy != 0 {
        placed.id = format!("{}#{copy}", u.id);
    }
    Some(placed)
}

/// What the rules read of a counter, as the checker and the module's ruleset give it:
/// of its printed values, those the game's stacking rules count as points.
pub fn unit_facts(game: &Game, u: &muster_model::Unit) -> UnitFacts {
    let values = game
        .rules
        .point_values()
        .filter_map(|v| Some((v.v.clone(), u.front.get(&v.v)?.trim().parse().ok()?)))
        .collect();
    UnitFacts {
        id: u.id.clone(),
        name: u.printed.v.clone(),
        side: u.side.clone(),
        nationality: u.nationality.clone(),
        formation: u.formation.clone(),
        category: u.category,
        unit_type: u.unit_type.clone(),
        size: u.size.clone(),
        steps: u.steps,
        values,
    }
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
        Target::Units(ids) => ids.contains(&u.unit),
    }
}

/// Solves a scenario's setup: every at-start unit on a hex its printed location allows,
/// stacking respected, nearest the printed anchor first and with the rest of its line;
/// reinforcements and groups in holding boxes by turn, area and group. Units that cannot
/// stand on a hex go to the holding box [`NOT_PLACED`] with a [`Problem`] that says why;
/// no counter is used more often than the manifest has it (the excess is a [`Duplicate`]).
/// Deterministic.
pub fn solve(game: &Game, scenario: &str) -> Solution {
    solve_with(&Resolver::new(game), scenario)
}

/// [`solve`] with the game's resolver built already: the scenarios of one game share it.
pub fn solve_with(resolver: &Resolver, scenario: &str) -> Solution {
    let game = resolver.game();
    let rules = ruleset(game);
    let terrain = crate::region::rule_terrain(game);
    let placements = placements(game, scenario);
    // Lines that name one exact hex are resolved and placed first, so flexible groups work
    // around them; everything is still reported by printed order.
    let exact = |p: &ParsedPlacement| {
        matches!(&p.location, Some(muster_model::notation::LocationExpr::Hex { .. }))
    };
    let mut order: Vec<usize> = (0..placements.len()).collect();
    order.sort_by_key(|&k| (!exact(placements[k]), k));
    let mut used = BTreeMap::new();
    let mut resolutions: Vec<Vec<Resolution>> = vec![Vec::new(); placements.len()];
    for &pi in &order {
        resolutions[pi] = resolver.resolve_placement(placements[pi], &mut used);
    }
    let regions = setup_regions(resolver, &placements);
    let (wanted, duplicates) = wanted_counters(game, &placements, &resolutions);

    let mut units: Vec<SolvedUnit> = Vec::new();
    let mut problems = Vec::new();
    let mut stacks: BTreeMap<Cell, Vec<PlacedUnit>> = BTreeMap::new();
    // How many copies of each counter the units so far hold.
    let mut copies: BTreeMap<String, usize> = BTreeMap::new();
    // The printed label of each hex tried, worked out once.
    let mut labels: HashMap<Cell, String> = HashMap::new();
    for &pi in &order {
        let p = &placements[pi];
        let location = p.location_text.as_ref().map(|t| t.v.clone()).unwrap_or_default();
        let span = p.location_text.as_ref().map_or_else(
            || p.units.printed.first().map(|u| u.span).unwrap_or_else(Span::detached),
            |t| t.span,
        );
        let holding = match &p.kind {
            // A setup line that names a holding box starts its units there.
            PlacementKind::Setup => match &regions[pi] {
                Some(Region::Box { name }) => Some(name.clone()),
                _ => None,
            },
            PlacementKind::Reinforcement => Some(format!(
                "Reinforcements: {}{}",
                turn_words(p.turn.as_deref().unwrap_or_default()),
                p.area.as_ref().map(|a| format!(", area {a}")).unwrap_or_default()
            )),
            PlacementKind::Group(_) => {
                Some(p.group.clone().unwrap_or_else(|| "Holding box".into()))
            }
        };
        let reg = &regions[pi];
        // Where the line's units may go. Placing them does not change it: each goes on
        // one of these hexes, and the line's own region is not a list of hexes.
        let cells = reg
            .as_ref()
            .filter(|r| !matches!(r, Region::Box { .. }))
            .map(|r| candidates(game, r, &units, &regions, &placements, pi));
        let mut failed: Vec<String> = Vec::new();
        for (id, reduced, printed) in &wanted[pi] {
            let counter =
                game.unit(id).or_else(|| game.markers.iter().find(|m| m.id == *id));
            let name = counter.map(|u| u.printed.v.clone()).unwrap_or_default();
            // A unit printed under the other side's heading stays its own side's.
            let side = counter
                .map(|u| u.side.clone())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| p.side.clone());
            let mut solved = SolvedUnit {
                unit: id.clone(),
                name: name.clone(),
                side,
                hex: None,
                holding: holding.clone(),
                reduced: *reduced,
                values: crate::start_values::of(
                    game,
                    scenario,
                    p,
                    id,
                    printed.as_deref(),
                ),
                placement: pi,
                cell: None,
            };
            if let Some(candidates) = &cells {
                let candidates = spread(reg.as_ref(), candidates, &units, pi);
                let copy = copies.get(id.as_str()).copied().unwrap_or(0);
                let mut placed_at = None;
                // The counter as the rules see it, tried on each candidate in turn.
                let mut trial = placed(game, id, copy, "");
                for &cell in candidates.iter() {
                    let Some(pu) = trial.as_mut() else { break };
                    pu.location.clone_from(labels.entry(cell).or_insert_with(|| {
                        game.board
                            .as_ref()
                            .and_then(|b| b.label(cell))
                            .unwrap_or_default()
                    }));
                    crate::region::on_terrain(&terrain, [&mut *pu]);
                    let here = stacks.get(&cell).map_or(&[][..], Vec::as_slice);
                    if stacking_holds(&rules, here.iter().chain([&*pu])) {
                        let label = pu.location.clone();
                        stacks.entry(cell).or_default().extend(trial.take());
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
                        solved.holding = Some(NOT_PLACED.into());
                        failed.push(name);
                    }
                }
            }
            *copies.entry(solved.unit.clone()).or_default() += 1;
            units.push(solved);
        }
        if !failed.is_empty() {
            let on_line = units.iter().filter(|u| u.placement == pi).count();
            problems.push(problem(
                &rules,
                p,
                pi,
                reg.as_ref(),
                failed,
                on_line,
                span,
                location,
            ));
        }
    }
    problems.extend(unread_strengths(game, &placements, &resolutions));
    units.sort_by_key(|u| u.placement);
    problems.sort_by_key(|p| p.placement);
    Solution {
        scenario: scenario.to_string(),
        units,
        problems,
        duplicates,
        resolutions,
        regions,
    }
}

/// The region of each setup line's location (none for reinforcements and groups).
fn setup_regions(
    resolver: &Resolver,
    placements: &[&ParsedPlacement],
) -> Vec<Option<Region>> {
    placements
        .iter()
        .map(|p| {
            (p.kind == PlacementKind::Setup).then(|| match &p.location {
                Some(expr) => region(resolver.game(), resolver, expr),
                None => Region::unresolved(
                    FindingKind::UnresolvedLocation,
                    "the line prints no location",
                ),
            })
        })
        .collect()
}

/// An `unread-strength` problem for each printed strength that sets no value.
fn unread_strengths(
    game: &Game,
    placements: &[&ParsedPlacement],
    resolutions: &[Vec<Resolution>],
) -> Vec<Problem> {
    let mut printed = Vec::new();
    let mut spans = Vec::new();
    for (placement, res) in resolutions.iter().enumerate() {
        for r in res {
            if let (Resolved::Unit { id, .. }, Some(strength)) = (&r.to, &r.strength) {
                let unit = &r.printed;
                printed.push(crate::start_values::Printed {
                    placement,
                    unit,
                    id,
                    strength,
                });
                spans.push(r.span);
            }
        }
    }
    crate::start_values::unread(game, placements, &printed)
        .into_iter()
        .map(|u| {
            let x = &printed[u.index];
            Problem {
                placement: x.placement,
                kind: FindingKind::UnreadStrength,
                rule: placements[x.placement].section.clone(),
                units: vec![x.unit.to_string()],
                span: spans[u.index],
                location: x.strength.clone(),
                message: u.message,
            }
        })
        .collect()
}

/// The holding box of units the printed setup cannot put on a hex.
pub const NOT_PLACED: &str = "Not placed";

/// The hexes to try for one unit of the line `pi`: units printed at a list of hexes
/// (`1919, 2017, 2019`, `4108-09`, `one each in: A34.30, A28.29`) spread over them, the
/// hex with the fewest of the line's units first; any other line's in their order.
fn spread<'a>(
    region: Option<&Region>,
    candidates: &'a [Cell],
    units: &[SolvedUnit],
    pi: usize,
) -> std::borrow::Cow<'a, [Cell]> {
    match region {
        Some(Region::Hexes { anchors, distance: 0, .. }) if anchors.len() > 1 => {
            let mut by_load = candidates.to_vec();
            by_load.sort_by_key(|c| {
                units.iter().filter(|u| u.placement == pi && u.cell == Some(*c)).count()
            });
            std::borrow::Cow::Owned(by_load)
        }
        _ => std::borrow::Cow::Borrowed(candidates),
    }
}

/// A counter a placement asks for: its id, whether it starts reduced, and the strength
/// its line prints when that is a starting value rather than a side of the counter.
type Wanted = (String, bool, Option<String>);

/// The counters each placement asks for (id, starts reduced, printed strength), in printed order, with no
/// counter asked for more often than the manifest has it; the uses beyond that.
fn wanted_counters(
    game: &Game,
    placements: &[&ParsedPlacement],
    resolutions: &[Vec<Resolution>],
) -> (Vec<Vec<Wanted>>, Vec<Duplicate>) {
    let mut uses: BTreeMap<String, Vec<(usize, Span)>> = BTreeMap::new();
    let mut duplicates = Vec::new();
    let mut wanted = Vec::new();
    for (pi, res) in resolutions.iter().enumerate() {
        let mut list = Vec::new();
        for r in res {
            let Resolved::Unit { id, .. } = &r.to else { continue };
            let strength_reduced = r.strength.as_ref().is_some_and(|s| {
                game.unit(id).is_some_and(|u| {
                    !u.back.is_empty() && crate::resolve::strength(game, &u.back) == *s
                })
            });
            let limit = counters_of(game, id);
            for _ in 0..r.count.min(50) {
                let seen = uses.entry(id.clone()).or_default();
                match limit {
                    Some(n) if seen.len() as u32 >= n => {
                        duplicates.push(Duplicate {
                            unit: id.clone(),
                            printed: r.printed.clone(),
                            placement: pi,
                            first: seen[0].0,
                            first_span: seen[0].1,
                            span: r.span,
                            counters: n,
                            reinforcement: [pi, seen[0].0].iter().any(|&k| {
                                placements[k].kind == PlacementKind::Reinforcement
                            }) && [pi, seen[0].0]
                                .iter()
                                .any(|&k| placements[k].kind == PlacementKind::Setup),
                        });
                    }
                    _ => {
                        seen.push((pi, r.span));
                        list.push((
                            id.clone(),
                            r.reduced || strength_reduced,
                            crate::start_values::own_strength(
                                game,
                                id,
                                r.strength.as_ref(),
                            ),
                        ));
                    }
                }
            }
        }
        wanted.push(list);
    }
    (wanted, duplicates)
}

/// How many counters of `id` the manifest has, when it says: every unit counter, and
/// markers whose count is printed.
pub(crate) fn counters_of(game: &Game, id: &str) -> Option<u32> {
    if let Some(u) = game.unit(id) {
        return Some(u.count.max(1));
    }
    let marker = game.markers.iter().find(|m| m.id == id)?;
    game.counters
        .markers
        .iter()
        .find(|m| m.printed.span == marker.printed.span)
        .and_then(|m| m.count)
}

/// The hexes a unit of the line `pi` of `placements` may take, best first.
fn candidates(
    game: &Game,
    region: &Region,
    units: &[SolvedUnit],
    regions: &[Option<Region>],
    placements: &[&ParsedPlacement],
    pi: usize,
) -> Vec<Cell> {
    match region {
        Region::Hexes { cells, .. } => cells.clone(),
        Region::WithUnits { target, plus } => {
            // The lines above the placement `pi` in its own block: same side, section
            // and kind.
            let p = placements[pi];
            let block: Vec<usize> = (0..pi)
                .filter(|&k| {
                    placements[k].side == p.side
                        && placements[k].section == p.section
                        && placements[k].kind == PlacementKind::Setup
                })
                .collect();
            let scope: Vec<String> = match target {
                Target::Formations(ids) => {
                    ids.iter().flat_map(|f| descendants(game, f)).collect()
                }
                _ => vec![],
            };
            let in_scope = |f: &str| scope.iter().any(|x| x == f);
            let mut c = plus.clone();
            let targets: Vec<&SolvedUnit> = units
                .iter()
                .filter(|u| {
                    u.cell.is_some() && in_target(game, &in_scope, u, target, &block)
                })
                .collect();
            c.extend(targets.iter().filter_map(|u| u.cell));
            // Then anywhere those units were allowed to set up.
            let from: BTreeSet<usize> = targets.iter().map(|u| u.placement).collect();
            for k in from {
                if let Some(Some(Region::Hexes { cells, .. })) = regions.get(k) {
                    c.extend(cells.iter().copied());
                }
            }
            let mut seen = BTreeSet::new();
            c.retain(|x| seen.insert(*x));
            c
        }
        Region::Box { .. } | Region::Unresolved { .. } => vec![],
    }
}

/// Why the units `failed` of a line could not be placed.
#[allow(clippy::too_many_arguments)]
fn problem(
    rules: &Ruleset<String>,
    p: &ParsedPlacement,
    pi: usize,
    reg: Option<&Region>,
    failed: Vec<String>,
    on_line: usize,
    span: Span,
    location: String,
) -> Problem {
    let rule_section =
        || rules.stacking.first().map(|r| r.section.clone()).unwrap_or_default();
    let (kind, reason) = match reg {
        Some(Region::Unresolved { kind, reason, .. }) => (*kind, reason.clone()),
        Some(Region::Hexes { cells, .. }) if cells.is_empty() => (
            FindingKind::Infeasible,
            format!("every hex of `{location}` is of terrain no unit may enter"),
        ),
        Some(Region::Hexes { cells, .. }) if cells.len() == 1 => {
            let rule = rule_section();
            let reason = if on_line > 1 {
                format!(
                    "these {on_line} units must share one hex ({location}); rule {rule} allows only {} of them there",
                    on_line - failed.len()
                )
            } else {
                format!(
                    "they must stand in {location}, which other printed lines already fill under rule {rule}"
                )
            };
            (FindingKind::Overstack, reason)
        }
        Some(Region::Hexes { cells, .. }) => (
            FindingKind::Infeasible,
            format!(
                "they do not fit in the {} hexes of `{location}` without breaking the stacking rules",
                cells.len()
            ),
        ),
        _ => (
            FindingKind::Infeasible,
            format!("no hex holds the units they must stack with ({location})"),
        ),
    };
    let names: Vec<String> = failed.iter().map(|n| format!("`{n}`")).collect();
    Problem {
        placement: pi,
        kind,
        rule: match reg {
            Some(Region::Hexes { .. } | Region::WithUnits { .. })
                if !rule_section().is_empty() =>
            {
                rule_section()
            }
            _ => p.section.clone(),
        },
        message: format!(
            "{} not placed (held in `{NOT_PLACED}`): {reason}",
            names.join(", ")
        ),
        units: failed,
        span,
        location,
    }
}

/// A printed turn as a holding box names it: `turn 3` for a bare number (`3`, `2 GER`,
/// `28 May`), else as printed (`Turn 3`, `June 16 PM`, `each turn`).
pub(crate) fn turn_words(printed: &str) -> String {
    if printed.starts_with(|c: char| c.is_ascii_digit()) {
        format!("turn {printed}")
    } else {
        printed.to_string()
    }
}
