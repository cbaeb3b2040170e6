//! Findings about printed setups that loading alone can state: locations that fit no
//! printed form, and hex labels that do not parse or lie off the map.

use muster_model::notation::LocationExpr;
use muster_model::{Game, PlacementKind, Sources};
use serde_json::{Value, json};

/// Findings for every at-start placement of a game (or of one scenario).
pub fn placement_findings(
    game: &Game,
    sources: &Sources,
    only: Option<&str>,
) -> Vec<Value> {
    let mut out = Vec::new();
    for parsed in &game.parsed {
        if only.is_some_and(|s| s != parsed.id) {
            continue;
        }
        for p in &parsed.placements {
            if p.kind != PlacementKind::Setup {
                continue;
            }
            let Some(text) = &p.location_text else { continue };
            let Some(expr) = &p.location else { continue };
            let units: Vec<&str> =
                p.units.items.iter().map(|i| i.name.as_str()).collect();
            let file = sources.path(text.span.file).display().to_string();
            let mut push = |location: &str, message: String| {
                out.push(json!({
                    "game": game.id,
                    "scenario": parsed.id,
                    "rule": p.section,
                    "location": location,
                    "units": units,
                    "message": message,
                    "file": file,
                    "line": text.span.line,
                }));
            };
            if let LocationExpr::Unparsed { text: t } = expr {
                push(
                    t,
                    format!("the location `{t}` fits no placement form muster knows"),
                );
            }
            for h in expr.hexes() {
                let result = match &game.board {
                    Some(b) => b.parse(&h.label).map(|_| ()).map_err(|e| e.to_string()),
                    None => Err(format!(
                        "hex `{}` cannot be placed: the game has no map grid",
                        h.label
                    )),
                };
                if let Err(e) = result {
                    push(&h.label, e);
                }
            }
        }
    }
    out
}
