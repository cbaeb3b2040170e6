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

/// The loaded game as JSON: unit sizes and types, the board, printed tables and
/// contradictions, every assumption of the data, units, formations, markers, maps, rules and
/// scenarios with their rules, victory conditions and parsed placements (each with the line
/// it is printed on).
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
                    "special_rules": s.special_rules,
                    "victory": s.victory,
                    "tables": s.tables,
                    "stated_counts": s.stated_counts,
                    "contradictions": s.contradictions,
                    "notes": s.notes,
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
        "unit_sizes": game.meta.unit_sizes,
        "unit_types": game.meta.unit_types,
        "board": game.meta.board,
        "tables": game.meta.tables,
        "contradictions": game.meta.contradictions,
        "assumptions": game.assumptions(),
        "formations": game.formations,
        "units": game.units,
        "markers": game.markers,
        "maps": maps,
        "rules": game.rules,
        "scenarios": scenarios,
    })
}
