//! The loaded model of a game as JSON: `dist/<game>/game.json` and `muster inspect`.

use std::collections::BTreeMap;

use muster_model::source::ScenarioFile;
use muster_model::{Game, ParsedPlacement, Unit};
use muster_render::Keep;
use rayon::prelude::*;
use serde_json::{Value, json};

use super::Context;
use crate::error::{Error, ErrorKind, Result};

/// Counters printed in one kept run of `game.json`.
pub const RUN: usize = 64;

/// Writes `dist/<game>/game.json`, the loaded model ([`game_json`]), each run of [`RUN`]
/// counters printed through the cache.
pub fn write_model(ctx: &Context, game: &Game) -> Result<()> {
    let dist = ctx.out.join("dist").join(&game.id);
    let keep = ctx.cache.keeper(ErrorKind::Json, &game.id);
    ctx.outputs.write(&dist.join("game.json"), &game_json_kept(game, Some(&*keep))?)
}

/// The loaded game as JSON: unit sizes and types, the board, printed tables and
/// contradictions, every assumption of the data, units, formations, markers, maps, rules and
/// scenarios with their rules, victory conditions and parsed placements (each with the line
/// it is printed on).
pub fn game_json(game: &Game) -> Value {
    Value::Object(
        entries(game).into_iter().map(|(k, e)| (k.to_string(), e.value(game))).collect(),
    )
}

/// [`game_json`] as pretty-printed JSON, byte for byte what `serde_json` prints for it,
/// with the units, markers and scenarios worked out and printed side by side.
pub fn game_json_pretty(game: &Game) -> Result<Vec<u8>> {
    game_json_kept(game, None)
}

/// [`game_json_pretty`], with each run of [`RUN`] counters and each scenario printed
/// through `keep` when one is given: under the compact JSON of what its printed text
/// shows (the counters; the scenario, its parsed placements and the lines they are
/// printed on).
pub fn game_json_kept(game: &Game, keep: Option<&Keep>) -> Result<Vec<u8>> {
    // Keys in order, as `serde_json`'s map keeps them.
    let entries: BTreeMap<&str, Entry> = entries(game).into_iter().collect();
    let printed = entries
        .into_par_iter()
        .map(|(key, entry)| Ok((key, entry.placed(game, keep)?)))
        .collect::<Result<Vec<_>>>()?;
    let mut out =
        Vec::with_capacity(printed.iter().map(|(k, v)| k.len() + v.len() + 8).sum());
    out.extend_from_slice(b"{");
    for (i, (key, value)) in printed.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n  " } else { b",\n  " });
        serde_json::to_writer(&mut out, key)?;
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
    }
    out.extend_from_slice(if printed.is_empty() { b"}" } else { b"\n}" });
    Ok(out)
}

/// One top-level entry of [`game_json`].
enum Entry<'g> {
    /// A value worked out already.
    Value(Value),
    /// Counters, each turned to JSON on its own.
    Units(&'g [Unit]),
    /// Scenarios, each turned to JSON on its own.
    Scenarios(&'g [ScenarioFile]),
}

impl Entry<'_> {
    /// The entry as a value.
    fn value(self, game: &Game) -> Value {
        match self {
            Entry::Value(v) => v,
            Entry::Units(units) => json!(units),
            Entry::Scenarios(s) => {
                Value::Array(s.iter().map(|s| scenario_json(game, s)).collect())
            }
        }
    }

    /// The entry pretty-printed in its place in the top-level object (its lines after
    /// the first indented by two spaces), its elements side by side: the counters in
    /// runs of [`RUN`] and the scenarios one by one, each through `keep` when one is
    /// given.
    fn placed(self, game: &Game, keep: Option<&Keep>) -> Result<Vec<u8>> {
        let elements: Vec<Vec<u8>> = match self {
            Entry::Value(v) => {
                let mut out = Vec::new();
                indented(&mut out, &serde_json::to_vec_pretty(&v)?, 2);
                return Ok(out);
            }
            Entry::Units(units) => units
                .par_chunks(RUN)
                .map(|run| {
                    let parts = [serde_json::to_vec(run)?];
                    kept(keep, "game.json counters", &parts, || units_placed(run))
                })
                .collect::<Result<_>>()?,
            Entry::Scenarios(s) => s
                .par_iter()
                .map(|s| {
                    let placements = game.placements(&s.id.v);
                    let lines: Vec<Option<u32>> =
                        placements.iter().map(placement_line).collect();
                    let parts = [
                        serde_json::to_vec(s)?,
                        serde_json::to_vec(placements)?,
                        serde_json::to_vec(&lines)?,
                    ];
                    kept(keep, "game.json scenario", &parts, || {
                        let mut out = Vec::new();
                        let pretty = serde_json::to_vec_pretty(&scenario_json(game, s))?;
                        indented(&mut out, &pretty, ELEMENT);
                        Ok(out)
                    })
                })
                .collect::<Result<_>>()?,
        };
        if elements.is_empty() {
            return Ok(b"[]".to_vec());
        }
        let mut out = Vec::with_capacity(elements.iter().map(|e| e.len() + 6).sum());
        out.extend_from_slice(b"[");
        for (i, e) in elements.iter().enumerate() {
            out.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
            out.extend_from_slice(e);
        }
        out.extend_from_slice(b"\n  ]");
        Ok(out)
    }
}

/// How far the lines of an element of a top-level array are indented.
const ELEMENT: usize = 4;

/// `make`'s bytes, through `keep` under `label` and `parts` when one is given.
fn kept(
    keep: Option<&Keep>,
    label: &str,
    parts: &[Vec<u8>],
    make: impl Fn() -> Result<Vec<u8>>,
) -> Result<Vec<u8>> {
    let Some(keep) = keep else { return make() };
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let make = || make().map_err(|e| format!("{e:#}"));
    keep(label, &parts, &make).map_err(|e| Error::new(ErrorKind::Json, e))
}

/// Counters as consecutive elements of a top-level array, in their place: each as
/// `serde_json` prints it alone, its lines after the first indented by [`ELEMENT`]
/// spaces, joined by `,`, a line break and that indent.
fn units_placed(units: &[Unit]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for (i, u) in units.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b",\n    ");
        }
        let pretty = serde_json::to_vec_pretty(&serde_json::to_value(u)?)?;
        indented(&mut out, &pretty, ELEMENT);
    }
    Ok(out)
}

/// Appends pretty-printed JSON `text`, its lines after the first indented by `by` spaces
/// more. (A JSON string holds no raw line break, so every line break is the printer's.)
fn indented(out: &mut Vec<u8>, text: &[u8], by: usize) {
    let mut lines = text.split(|&b| b == b'\n');
    if let Some(first) = lines.next() {
        out.extend_from_slice(first);
    }
    for line in lines {
        out.push(b'\n');
        out.extend(std::iter::repeat_n(b' ', by));
        out.extend_from_slice(line);
    }
}

/// The top-level entries of [`game_json`].
fn entries(game: &Game) -> Vec<(&'static str, Entry<'_>)> {
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
    let value = |v: Value| Entry::Value(v);
    vec![
        ("id", value(json!(game.id))),
        ("title", value(json!(game.meta.title))),
        ("rulebook", value(json!(game.meta.rulebook))),
        ("sides", value(json!(game.meta.sides))),
        ("nationalities", value(json!(game.meta.nationalities))),
        ("unit_sizes", value(json!(game.meta.unit_sizes))),
        ("unit_types", value(json!(game.meta.unit_types))),
        ("board", value(json!(game.meta.board))),
        ("tables", value(json!(game.meta.tables))),
        ("contradictions", value(json!(game.meta.contradictions))),
        ("assumptions", value(json!(game.assumptions()))),
        ("formations", value(json!(game.formations))),
        ("units", Entry::Units(&game.units)),
        ("markers", Entry::Units(&game.markers)),
        ("maps", value(Value::Array(maps))),
        ("rules", value(json!(game.rules))),
        ("scenarios", Entry::Scenarios(&game.scenarios)),
    ]
}

/// One scenario of [`game_json`], with its parsed placements (each with the line it is
/// printed on).
fn scenario_json(game: &Game, s: &ScenarioFile) -> Value {
    let placements: Vec<Value> = game
        .placements(&s.id.v)
        .iter()
        .map(|p| {
            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
            v["line"] = json!(placement_line(p));
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
}

/// The line a placement is printed on: its location's, else its first unit's.
fn placement_line(p: &ParsedPlacement) -> Option<u32> {
    p.location_text
        .as_ref()
        .map(|t| t.span.line)
        .or_else(|| p.units.printed.first().map(|u| u.span.line))
}
