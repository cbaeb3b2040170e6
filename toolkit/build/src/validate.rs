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
    let scenarios: Vec<(&Game, &str)> = games
        .iter()
        .flat_map(|g| g.scenarios.iter().map(move |s| (g, s.id.v.as_str())))
        .filter(|(_, s)| only.is_none_or(|o| o == *s))
        .collect();
    scenarios
        .par_iter()
        .flat_map_iter(|(game, s)| muster_check::validate_scenario(game, s))
        .collect()
}
