//! The loaded model of a game as JSON: `dist/<game>/game.json` and `muster inspect`.

use muster_model::Game;
use serde_json::{Value, json};

use super::Context;
use crate::error::Result;

/// Writes `dist/<game>/game.json`, the loaded model ([`game_json`]).
pub fn write_model(ctx: &Context, game: &Game) -> Result<()> {
    let dist = ctx.out.join("dist").join(&game.id);
    let model = serde_json::to_vec_pretty(&game_json(game))?;
    ctx.outputs.write(&dist.join("game.json"), &model)
}

/// The loaded game as JSON: units, formations, markers, maps, rules and scenarios with
/// their parsed placements (each with the line it is printed on).
pub fn game_json(game: &Game) -> Value {
    let maps: Vec<Value> = game
        .maps
        .iter()
        .map(|m| {
            json!({
                "id": m.id.v,
                "name": m.name,
                "columns": m.columns,
                "rows": m.rows,
                "hex_size_in": m.hex_size_in,
                "size": m.size,
                "numbering": m.numbering,
                "features": m.features,
                "terrain": m.terrain,
            })
        })
        .collect();
    let scenarios: Vec<Value> =
        game.scenarios
            .iter()
            .map(|s| {
                let placements: Vec<Value> =
                    game.placements(&s.id.v)
                        .iter()
                        .map(|p| {
                            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
                            let line =
                                p.location_text.as_ref().map(|t| t.span.line).or_else(
                                    || p.units.printed.first().map(|u| u.span.line),
                                );
                            v["line"] = json!(line);
                            v
                        })
                        .collect();
                json!({
                    "id": s.id.v,
                    "title": s.title,
                    "section": s.section,
                    "first_turn": s.first_turn,
                    "last_turn": s.last_turn,
                    "first_player": s.first_player,
                    "first_to_deploy": s.first_to_deploy,
                    "setup_from": s.setup_from,
                    "incomplete": s.incomplete,
                    "placements": placements,
                })
            })
            .collect();
    json!({
        "id": game.id,
        "title": game.meta.title,
        "rulebook": game.meta.rulebook,
        "sides": game.meta.sides,
        "nationalities": game.meta.nationalities,
        "formations": game.formations,
        "units": game.units,
        "markers": game.markers,
        "maps": maps,
        "rules": game.rules,
        "scenarios": scenarios,
    })
}
