//! Predefined setups: each scenario's solved setup as a `!VCSK` saved game, every counter on
//! the hex the solver gives it (stacked), off-map counters in their holding boxes, reduced
//! counters showing their reduced side.

use std::collections::{BTreeMap, HashMap};

use muster_check::Solution;
use muster_model::{Game, PlacementKind};
use muster_rules::{Allowed, Start, Turn};
use serde::Serialize;

use super::boards::{BoardPlan, MAIN_MAP, TABLE_MAP};
use super::dead_piles::DeadPiles;
use super::table::Table;
use super::{PackageError, Slot, moduledata};
use crate::archive::write_zip;
use crate::vassal::piece::{Piece, Position, Stack, Trait};
use crate::vassal::save::{KEY, command_stream, obfuscate};

/// The box for a scenario's counters that no printed placement puts on the map.
pub const NOT_PLACED: &str = "Not placed";

/// Where one counter of a setup was put.
#[derive(Debug, Clone, Serialize)]
pub struct PlacedPiece {
    /// Counter id.
    pub unit: String,
    /// Printed name (the piece name).
    pub name: String,
    /// Map identifier.
    pub map: String,
    /// The location name VASSAL gives it: the printed hex label, or the box name.
    pub location: String,
    /// Map x.
    pub x: i64,
    /// Map y.
    pub y: i64,
    /// Shows its reduced side.
    pub reduced: bool,
}

/// A predefined setup file and what it holds.
#[derive(Debug, Clone, Serialize)]
pub struct SetupFile {
    /// Scenario id.
    pub scenario: String,
    /// Scenario title (the menu entry).
    pub title: String,
    /// Archive path of the `.vsav`.
    pub file: String,
    /// Every piece, where it stands.
    pub pieces: Vec<PlacedPiece>,
}

/// The holding box of a solved counter: its own, or [`NOT_PLACED`] for counters the solver
/// could not put on the map.
fn holding_of(u: &muster_check::SolvedUnit) -> Option<String> {
    match (&u.hex, &u.holding) {
        (_, Some(h)) => Some(h.clone()),
        (None, None) => Some(NOT_PLACED.into()),
        _ => None,
    }
}

/// Every holding box the scenarios use, in order of first use.
pub fn holding_labels(game: &Game, solutions: &[Solution]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in solutions {
        let mut labels: Vec<String> = s.units.iter().filter_map(holding_of).collect();
        if s.units.is_empty() && !game.units.is_empty() {
            labels.push(NOT_PLACED.into());
        }
        for l in labels {
            if !out.contains(&l) {
                out.push(l);
            }
        }
    }
    out
}

/// One counter of a scenario's setup, where the module's setup puts it.
struct Wanted {
    unit: String,
    /// The board cell, for counters on the map.
    cell: Option<muster_hex::Cell>,
    /// The holding box, for the others.
    holding: Option<String>,
    reduced: bool,
    /// The printed placement it comes from, if any.
    placement: Option<usize>,
}

/// The counters of a scenario's setup; a scenario the rulebook sets up only on its printed
/// map (no placements) starts with every counter in the "Not placed" box.
fn wanted(game: &Game, solution: &Solution) -> Vec<Wanted> {
    if solution.units.is_empty() {
        return game
            .units
            .iter()
            .map(|u| Wanted {
                unit: u.id.clone(),
                cell: None,
                holding: Some(NOT_PLACED.to_string()),
                reduced: false,
                placement: None,
            })
            .collect();
    }
    solution
        .units
        .iter()
        .map(|u| Wanted {
            unit: u.unit.clone(),
            cell: u.cell.filter(|_| u.hex.is_some()),
            holding: holding_of(u),
            reduced: u.reduced,
            placement: Some(u.placement),
        })
        .collect()
}

/// Where each copy of each counter starts in the setup the module holds for a scenario,
/// for the checker: on the map (with its printed location), or in a box (a reinforcement
/// with the turn it arrives, on a track whose turns have `turn_names`).
pub fn starts(
    game: &Game,
    solution: &Solution,
    turn_names: &[String],
) -> BTreeMap<String, Vec<Start>> {
    let placements = muster_check::solve::placements(game, &solution.scenario);
    let section = game
        .scenarios
        .iter()
        .find(|s| s.id.v == solution.scenario)
        .map(|s| s.section.clone())
        .unwrap_or_default();
    let mut out: BTreeMap<String, Vec<Start>> = BTreeMap::new();
    for w in wanted(game, solution) {
        let line = w.placement.and_then(|k| placements.get(k));
        let on_map = line.is_none_or(|p| p.kind == PlacementKind::Setup);
        let arrives = line
            .filter(|p| p.kind == PlacementKind::Reinforcement)
            .map(|p| Turn::new(p.turn.as_deref().unwrap_or_default(), turn_names));
        let printed = line.and_then(|p| p.location_text.as_ref()).map(|t| t.v.clone());
        let hex = w.cell.and_then(|c| game.board.as_ref()?.label(c));
        let place = printed
            .filter(|_| on_map)
            .or(hex)
            .or_else(|| w.holding.clone())
            .unwrap_or_default();
        out.entry(w.unit).or_default().push(Start {
            holding: w.holding,
            on_map,
            arrives,
            place,
            rule: line.map_or_else(|| section.clone(), |p| p.section.clone()),
        });
    }
    out
}

/// The module's maps a saved game places counters on.
pub struct Surroundings<'a> {
    /// The main map's boards.
    pub plan: &'a BoardPlan,
    /// The holding boxes.
    pub table: &'a Table,
    /// The dead piles.
    pub dead_piles: &'a DeadPiles,
}

/// Writes the saved game of one scenario; returns its archive path, bytes and contents.
/// With `lines` (where each counter may stand, for the checks VASSAL makes), every counter
/// on a hex carries its setup line and the game starts with those checks on.
pub fn save(
    game: &Game,
    solution: &Solution,
    slots: &[Slot],
    maps: &Surroundings,
    lines: Option<&BTreeMap<String, Allowed>>,
    prototypes: &(dyn Fn(&str) -> Option<Piece> + Sync),
) -> Result<(String, Vec<u8>, SetupFile), PackageError> {
    let Surroundings { plan, table, dead_piles } = *maps;
    let scenario = game
        .scenarios
        .iter()
        .find(|s| s.id.v == solution.scenario)
        .ok_or_else(|| PackageError(format!("no scenario {}", solution.scenario)))?;
    let wanted = wanted(game, solution);
    let mut pieces = Vec::new();
    let mut adds = Vec::new();
    let mut stacks: BTreeMap<(String, i64, i64), Vec<String>> = BTreeMap::new();
    let mut order: Vec<(String, i64, i64)> = Vec::new();
    // The first slot of each unit.
    let mut slot_of: HashMap<&str, &Slot> = HashMap::new();
    for s in slots {
        slot_of.entry(s.id.as_str()).or_insert(s);
    }
    for (k, Wanted { unit, cell, holding, reduced, .. }) in wanted.iter().enumerate() {
        let slot = slot_of.get(unit.as_str()).ok_or_else(|| {
            PackageError(format!(
                "scenario {} places {unit}, which has no counter",
                scenario.id.v
            ))
        })?;
        let (map, x, y, location) = match (cell, holding, &game.board) {
            (Some(c), _, Some(board)) => {
                let (x, y, b) = plan.place(board, *c).ok_or_else(|| {
                    PackageError(format!("{unit} is on no rendered sheet"))
                })?;
                (
                    MAIN_MAP.to_string(),
                    x,
                    y,
                    board.label(*c).unwrap_or_else(|| b.name.clone()),
                )
            }
            (_, Some(h), _) => {
                let area = table
                    .boxes
                    .iter()
                    .find(|a| a.name == *h)
                    .ok_or_else(|| PackageError(format!("no holding box {h}")))?;
                let (x, y) = area.centre();
                (TABLE_MAP.to_string(), x, y, h.clone())
            }
            _ => continue,
        };
        let id = format!("{}", 1_000_000 + k);
        let mut piece = slot.piece.expand(prototypes, 8);
        let last = piece.traits.len() - 1;
        let basic = &piece.traits[last];
        let fields = basic.fields();
        let properties = match (lines.and_then(|l| l.get(unit)), cell) {
            (Some(a), Some(_)) => super::live_rules::setup_properties(a),
            _ => Vec::new(),
        };
        let properties: Vec<(&str, &str)> =
            properties.iter().map(|(k, v)| (*k, v.as_str())).collect();
        piece.traits[last] = Trait::basic_with(
            fields.get(2).map(String::as_str).unwrap_or_default(),
            fields.get(3).map(String::as_str).unwrap_or_default(),
            &Position { map: Some(map.clone()), x, y, gpid: slot.gpid.to_string() },
            &properties,
        );
        if let Some(layer) = piece.traits.iter_mut().find(|t| {
            t.id() == "emb2" && t.fields().get(18).map(String::as_str) == Some("Step")
        }) && *reduced
        {
            layer.state = "2".into();
        }
        adds.push(piece.add_command(&id));
        let key = (map.clone(), x, y);
        if !stacks.contains_key(&key) {
            order.push(key.clone());
        }
        stacks.entry(key).or_default().push(id);
        pieces.push(PlacedPiece {
            unit: unit.clone(),
            name: slot.piece.name().unwrap_or_default(),
            map,
            location,
            x,
            y,
            reduced: *reduced,
        });
    }
    for (i, key) in order.iter().enumerate() {
        let stack =
            Stack { map: key.0.clone(), x: key.1, y: key.2, pieces: stacks[key].clone() };
        adds.push(stack.add_command(&format!("{}", 2_000_000 + i)));
    }
    let restores: Vec<String> = plan
        .main_restore()
        .into_iter()
        .chain(plan.table_restore())
        .chain(dead_piles.any().then(super::boards::dead_pile_restore))
        .chain(lines.map(|_| super::live_rules::setup_restore()))
        .collect();
    let text = command_stream(&adds, &restores);
    let mut files = BTreeMap::new();
    files.insert("savedGame".to_string(), obfuscate(&text, KEY));
    files.insert("moduledata".to_string(), moduledata(game).into_bytes());
    let bytes = write_zip(&files).map_err(|e| PackageError(e.0))?;
    let file = format!("{}.vsav", scenario.id.v);
    Ok((
        file.clone(),
        bytes,
        SetupFile {
            scenario: scenario.id.v.clone(),
            title: scenario.title.clone(),
            file,
            pieces,
        },
    ))
}
