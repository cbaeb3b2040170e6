//! Reporting scenario validation: findings as text or JSON, with file, line and column.

use muster_check::Finding;
use muster_model::{Game, Sources};
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
        "severity": f.severity,
        "rule": f.rule,
        "location": f.location,
        "units": f.units,
        "message": f.message,
        "file": file,
        "line": f.span.line,
        "column": f.span.column,
    })
}

/// Validates every scenario of a game (or one).
pub fn scenario_findings(game: &Game, only: Option<&str>) -> Vec<Finding> {
    game.scenarios
        .iter()
        .filter(|s| only.is_none_or(|o| o == s.id.v))
        .flat_map(|s| muster_check::validate_scenario(game, &s.id.v))
        .collect()
}
