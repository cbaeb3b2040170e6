//! Scenario validation for `muster validate` and the benchmark: findings in game and
//! scenario order, and as JSON with file, line and column.

use muster_check::Finding;
use muster_model::{Game, Sources};
use rayon::prelude::*;
use serde_json::{Value, json};

/// A finding as JSON: game, scenario, kind, severity, rule, location, units, message,
/// file, line and column.
pub fn finding_json(f: &Finding, sources: &Sources) -> Value {
    let file =
        (!f.span.is_detached()).then(|| sources.path(f.span.file).display().to_string());
    json!({
        "game": f.game,
        "scenario": f.scenario,
        "kind": f.kind,
        "severity": f.severity(),
        "rule": f.rule,
        "location": f.location,
        "units": f.units,
        "message": f.message,
        "file": file,
        "line": f.span.line,
        "column": f.span.column,
    })
}

/// Validates every scenario of the games (or the one named), scenarios in parallel,
/// findings in game and scenario order.
pub fn scenario_findings(games: &[Game], only: Option<&str>) -> Vec<Finding> {
    let selected = |s: &str| only.is_none_or(|o| o == s);
    // Each game's resolver is built once, for all its selected scenarios.
    let resolvers: Vec<muster_check::Resolver> = games
        .par_iter()
        .filter(|g| g.scenarios.iter().any(|s| selected(&s.id.v)))
        .map(muster_check::Resolver::new)
        .collect();
    let scenarios: Vec<(&muster_check::Resolver, &str)> = resolvers
        .iter()
        .flat_map(|r| r.game().scenarios.iter().map(move |s| (r, s.id.v.as_str())))
        .filter(|(_, s)| selected(s))
        .collect();
    scenarios
        .par_iter()
        .flat_map_iter(|(resolver, s)| {
            let solution = muster_check::solve_with(resolver, s);
            muster_check::validate_solved(resolver.game(), s, &solution)
        })
        .collect()
}
