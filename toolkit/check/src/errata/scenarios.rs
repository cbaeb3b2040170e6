//! Scenarios that share a starting point (the same first turn), compared with each other:
//! a unit printed at another hex than in the other scenario while the rest of its
//! formation's units stand alike in both, or set up in one and used nowhere in the other
//! while the rest of its formation stands in both. A formation printed wholly elsewhere by one
//! offset (one column over) is one observation, not one per unit.

use std::collections::BTreeMap;

use muster_hex::Cell;
use muster_model::{Certainty, FindingKind, PlacementKind, Span};

use super::{Context, Erratum, Place, Scenario};
use crate::region::Region;
use crate::resolve::Resolved;

/// Where a scenario prints a unit at one exact hex.
#[derive(Clone)]
struct Spot {
    /// The hex, for a line that names exactly one.
    cell: Option<Cell>,
    label: String,
    span: Span,
    section: String,
}

/// Every pair of scenarios with the same first turn, compared formation by formation.
pub(crate) fn check(cx: &Context) -> Vec<Erratum> {
    let mut by_start: BTreeMap<&str, Vec<&Scenario>> = BTreeMap::new();
    for s in &cx.scenarios {
        let Some(file) = cx.file(s.id) else { continue };
        if file.setup_from.is_some() {
            continue;
        }
        if let Some(t) = &file.first_turn {
            by_start.entry(t.v.as_str()).or_default().push(s);
        }
    }
    let mut out = Vec::new();
    for group in by_start.values().filter(|g| g.len() > 1) {
        let spots: Vec<BTreeMap<String, Spot>> =
            group.iter().map(|s| exact_spots(s)).collect();
        for a in 0..group.len() {
            for b in a + 1..group.len() {
                out.extend(compare(cx, (group[a], &spots[a]), (group[b], &spots[b])));
            }
        }
        for a in 0..group.len() {
            for b in 0..group.len() {
                if a != b {
                    out.extend(missing(cx, (group[a], &spots[a]), (group[b], &spots[b])));
                }
            }
        }
    }
    out
}

/// Counter id → the one setup line of a scenario that places it.
fn exact_spots(s: &Scenario) -> BTreeMap<String, Spot> {
    let mut out = BTreeMap::new();
    let mut twice = Vec::new();
    for (pi, p) in s.placements.iter().enumerate() {
        if p.kind != PlacementKind::Setup {
            continue;
        }
        let Some(label) = &p.location_text else { continue };
        let cell = match s.solution.regions.get(pi) {
            Some(Some(Region::Hexes { anchors, distance: 0, .. }))
                if anchors.len() == 1 =>
            {
                Some(anchors[0])
            }
            _ => None,
        };
        for r in &s.solution.resolutions[pi] {
            if let Resolved::Unit { id, .. } = &r.to {
                let spot = Spot {
                    cell,
                    label: label.v.clone(),
                    span: r.span,
                    section: p.section.clone(),
                };
                if out.insert(id.clone(), spot).is_some() {
                    twice.push(id.clone());
                }
            }
        }
    }
    // A counter printed on two lines has no single place to compare.
    for id in twice {
        out.remove(&id);
    }
    out
}

/// One pair: per formation with three or more units at exact hexes in both, the units
/// that stand elsewhere while most stand alike, or one shift for all.
fn compare(
    cx: &Context,
    (sa, a): (&Scenario, &BTreeMap<String, Spot>),
    (sb, b): (&Scenario, &BTreeMap<String, Spot>),
) -> Vec<Erratum> {
    let game = cx.game;
    let mut formations: BTreeMap<String, Vec<(&str, &Spot, &Spot)>> = BTreeMap::new();
    for (id, x) in a {
        if let (Some(y), Some(u)) = (b.get(id), game.unit(id)) {
            let f = u.formation.clone().unwrap_or_default();
            formations.entry(f).or_default().push((id.as_str(), x, y));
        }
    }
    let title =
        |s: &Scenario| cx.file(s.id).map_or(s.id.to_string(), |f| f.title.clone());
    let mut out = Vec::new();
    for (f, units) in formations.iter().filter(|(_, u)| u.len() >= 3) {
        let differ: Vec<&(&str, &Spot, &Spot)> =
            units.iter().filter(|(_, x, y)| !same_place(cx, x, y)).collect();
        if differ.is_empty() {
            continue;
        }
        let name =
            game.formation(f).map_or("no formation".to_string(), |f| f.printed.v.clone());
        let offsets: Vec<Option<(i32, i32)>> = differ
            .iter()
            .map(|(_, x, y)| Some((y.cell?.col - x.cell?.col, y.cell?.row - x.cell?.row)))
            .collect();
        if differ.len() == units.len() {
            if offsets[0].is_some() && offsets.windows(2).all(|w| w[0] == w[1]) {
                let (dc, dr) = offsets[0].unwrap_or_default();
                let (_, x, y) = differ[0];
                let mut e = Erratum::new(
                    game,
                    FindingKind::ScenariosDiffer,
                    &name,
                    format!(
                        "{} prints every unit of {name} {} columns and {} rows from where {} prints it ({} for {})",
                        title(sb),
                        dc,
                        dr,
                        title(sa),
                        y.label,
                        x.label
                    ),
                    &y.section,
                    y.span,
                )
                .scenario(sb.id)
                .expected(format!("{} as in {} ({})", x.label, title(sa), x.section))
                .sure(Certainty::Possible, "the same first turn, one offset for the whole formation");
                e.also = differ[1..]
                    .iter()
                    .map(|(_, _, y)| Place {
                        span: y.span,
                        scenario: Some(sb.id.to_string()),
                        section: y.section.clone(),
                    })
                    .collect();
                out.push(e);
            }
            continue;
        }
        // Most agree: each unit that stands elsewhere is one finding.
        if differ.len() * 3 > units.len() {
            continue;
        }
        let agree = units.len() - differ_len(cx, units);
        for (id, x, y) in differ {
            let printed = game.unit(id).map_or(id.to_string(), |u| u.printed.v.clone());
            let mut e = Erratum::new(
                game,
                FindingKind::ScenariosDiffer,
                &printed,
                format!(
                    "{} sets up `{printed}` at {}, {} at {}, though the other {} units of {name} stand alike in both",
                    title(sb),
                    y.label,
                    title(sa),
                    x.label,
                    agree
                ),
                &y.section,
                y.span,
            )
            .scenario(sb.id)
            .expected(format!("{} ({}, {})", x.label, title(sa), x.section))
            .sure(
                Certainty::Possible,
                "scenarios with the same first turn agree on the rest of the formation",
            );
            e.also.push(Place {
                span: x.span,
                scenario: Some(sa.id.to_string()),
                section: x.section.clone(),
            });
            out.push(e);
        }
    }
    out
}

/// Every counter a scenario uses anywhere: set up, as a reinforcement or in a group.
fn used<'s>(s: &'s Scenario) -> std::collections::BTreeSet<&'s str> {
    s.solution
        .resolutions
        .iter()
        .flatten()
        .filter_map(|r| match &r.to {
            Resolved::Unit { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect()
}

/// One direction of a pair: units that `sa` sets up at an exact place and `sb` does not
/// use at all, while at least two thirds of their formation (three units or more) stand
/// in both.
fn missing(
    cx: &Context,
    (sa, a): (&Scenario, &BTreeMap<String, Spot>),
    (sb, b): (&Scenario, &BTreeMap<String, Spot>),
) -> Vec<Erratum> {
    let game = cx.game;
    let in_b = used(sb);
    let mut both: BTreeMap<&str, usize> = BTreeMap::new();
    let mut gone: BTreeMap<&str, Vec<(&str, &Spot)>> = BTreeMap::new();
    for (id, x) in a {
        let Some(f) = game.unit(id).and_then(|u| u.formation.as_deref()) else {
            continue;
        };
        if b.contains_key(id) {
            *both.entry(f).or_default() += 1;
        } else if !in_b.contains(id.as_str()) {
            gone.entry(f).or_default().push((id.as_str(), x));
        }
    }
    let title =
        |s: &Scenario| cx.file(s.id).map_or(s.id.to_string(), |f| f.title.clone());
    let mut out = Vec::new();
    for (f, units) in gone {
        let stay = both.get(f).copied().unwrap_or(0);
        if stay < 3 || units.len() * 3 > stay + units.len() {
            continue;
        }
        let name = game.formation(f).map_or(f.to_string(), |f| f.printed.v.clone());
        for (id, x) in units {
            let printed = game.unit(id).map_or(id.to_string(), |u| u.printed.v.clone());
            out.push(
                Erratum::new(
                    game,
                    FindingKind::ScenariosDiffer,
                    &printed,
                    format!(
                        "{} sets up `{printed}` at {}, {} does not use it at all, though {stay} other units of {name} stand in both",
                        title(sa),
                        x.label,
                        title(sb),
                    ),
                    &x.section,
                    x.span,
                )
                .scenario(sa.id)
                .expected(format!("`{printed}` in {} too, or a reason it is left out", title(sb)))
                .sure(
                    Certainty::Possible,
                    "scenarios with the same first turn field the rest of the formation",
                ),
            );
        }
    }
    out
}

/// How many units of a formation stand elsewhere.
fn differ_len(cx: &Context, units: &[(&str, &Spot, &Spot)]) -> usize {
    units.iter().filter(|(_, x, y)| !same_place(cx, x, y)).count()
}

/// Do two lines put a unit in the same place: the same hex, or the same printed location
/// word for word, through the abbreviation tables the rulebook prints (`MF`, `Minefield`)?
fn same_place(cx: &Context, x: &Spot, y: &Spot) -> bool {
    match (x.cell, y.cell) {
        (Some(a), Some(b)) => a == b,
        _ => {
            let (a, b): (Vec<&str>, Vec<&str>) = (
                x.label.split_whitespace().collect(),
                y.label.split_whitespace().collect(),
            );
            a.len() == b.len()
                && a.iter().zip(&b).all(|(p, q)| crate::words::same_word(cx.game, p, q))
        }
    }
}
