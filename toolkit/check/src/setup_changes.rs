//! Where each counter sets up, compared between two states of a game: the placements part
//! of [`Changes`], from both states' setups solved.

use std::collections::{BTreeMap, BTreeSet};

use muster_model::Game;
use muster_model::changes::{self, Change, ChangeKind, Changes};

use crate::resolve::Resolver;
use crate::solve::{Solution, solve_with};

/// Said of a counter a scenario does not set up.
const NOT_SET_UP: &str = "not set up";

/// What changed from `old` to `new` ([`changes::between`]), with where each counter of
/// each scenario both have sets up.
pub fn changes(old: &Game, new: &Game) -> Changes {
    let mut found = changes::between(old, new);
    found.placements = placements(old, new);
    found
}

/// Each counter whose setup place differs, scenario by scenario, in the newer state's
/// order of scenarios and counters (those only the older one sets up last).
fn placements(old: &Game, new: &Game) -> Vec<Change> {
    let ids =
        |g: &Game| -> Vec<String> { g.parsed.iter().map(|s| s.id.clone()).collect() };
    let before: BTreeSet<String> = ids(old).into_iter().collect();
    let (was_resolver, is_resolver) = (Resolver::new(old), Resolver::new(new));
    let mut out = Vec::new();
    for id in ids(new).into_iter().filter(|id| before.contains(id)) {
        let was = set_up(&solve_with(&was_resolver, &id));
        let is = set_up(&solve_with(&is_resolver, &id));
        let gone = was.order.iter().filter(|u| !is.at.contains_key(*u));
        let mut moved = Vec::new();
        for unit in is.order.iter().chain(gone) {
            let (from, to) = (was.at.get(unit), is.at.get(unit));
            if from.map(|f| &f.1) == to.map(|t| &t.1) {
                continue;
            }
            let name = to.or(from).map_or(unit.as_str(), |(n, _)| n.as_str());
            let place = |p: Option<&(String, String)>| {
                Some(p.map_or(NOT_SET_UP.to_string(), |(_, at)| at.clone()))
            };
            moved.push(Change {
                scenario: Some(id.clone()),
                from: place(from),
                to: place(to),
                unit: Some(unit.clone()),
                ..changes::change(ChangeKind::Changed, format!("where {name} sets up"))
            });
        }
        out.extend(without_renamed(moved));
    }
    out
}

/// The counters of a solved setup, in its order, each with its printed name and where it
/// sets up.
#[derive(Default)]
struct SetUp {
    /// Counter ids, in the setup's order.
    order: Vec<String>,
    /// By counter id: its printed name and its places (`09.02`, a holding box, `(reduced)`
    /// when it starts reduced), joined when it sets up more than once.
    at: BTreeMap<String, (String, String)>,
}

/// Where each counter of `solution` sets up.
fn set_up(solution: &Solution) -> SetUp {
    let mut out = SetUp::default();
    for u in &solution.units {
        let at = u.hex.clone().or_else(|| u.holding.clone()).unwrap_or_default();
        let at = if u.reduced { format!("{at} (reduced)") } else { at };
        match out.at.get_mut(&u.unit) {
            Some((_, places)) => {
                places.push_str(", ");
                places.push_str(&at);
            }
            None => {
                out.order.push(u.unit.clone());
                out.at.insert(u.unit.clone(), (u.name.clone(), at));
            }
        }
    }
    out
}

/// The moves without those of a counter renamed (the counters part lists it): a counter
/// no longer set up, and one newly set up in the same place, are one counter.
fn without_renamed(mut moved: Vec<Change>) -> Vec<Change> {
    let not = Some(NOT_SET_UP.to_string());
    let mut k = 0;
    while k < moved.len() {
        let renamed = (moved[k].to == not)
            .then(|| moved.iter().position(|c| c.from == not && c.to == moved[k].from))
            .flatten();
        match renamed {
            Some(j) => {
                let (first, second) = (k.max(j), k.min(j));
                moved.remove(first);
                moved.remove(second);
                k = second;
            }
            None => k += 1,
        }
    }
    moved
}
