//! Predefined setups: each scenario's solved setup as a `!VCSK` saved game, every counter on
//! the hex the solver gives it (stacked), off-map counters in their holding boxes, reduced
//! counters showing their reduced side.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use muster_check::Solution;
use muster_model::{Game, PlacementKind};
use muster_rules::{Allowed, Start, Turn};
use rayon::prelude::*;
use serde::Serialize;

use super::boards::{BoardPlan, MAIN_MAP, TABLE_MAP};
use super::dead_piles::DeadPiles;
use super::pieces::Prototype;
use super::table::Table;
use super::{PackageError, Slot, moduledata};
use crate::archive::{DeflatedPart, deflated_entry, joined_entry, write_zip_entries};
use crate::vassal::encoder::{chain, encode};
use crate::vassal::piece::{Piece, Position, Stack, Trait};
use crate::vassal::save::{
    KEY, STREAM_HEAD, obfuscate_into, obfuscation_header, push_add, stream_tail,
};

/// Pieces in each run of a saved game's adds that is written and kept on its own.
const RUN: usize = 64;

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
    /// The strength its label shows: the values the scenario starts it with where they
    /// are not its counter's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
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
    /// The strength its label shows, if the scenario gives it one.
    strength: Option<String>,
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
                strength: None,
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
            strength: muster_check::start_values::label(game, &u.values),
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
            strength: w.strength,
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

/// The palette slots as saved games put them on a map, shared by every scenario's save:
/// each unit's first slot, and its piece expanded and encoded once, the first time a save
/// writes it.
pub struct SlotPieces<'a> {
    /// The first slot of each unit, and its piece once worked out.
    slots: HashMap<&'a str, SlotPiece<'a>>,
}

/// A slot placed by saved games: a hash of what its piece is made from, and the piece as
/// saves write it, worked out only when a save is written (not when it is kept).
struct SlotPiece<'a> {
    /// The slot.
    slot: &'a Slot,
    /// The prototypes, by name.
    prototypes: &'a (dyn Fn(&str) -> Option<Piece> + Sync),
    /// A hash of the slot's piece and of every prototype: all its expansion is made from.
    fingerprint: [u8; 32],
    /// The piece as saves write it, once worked out.
    saved: OnceLock<SavedPiece>,
    /// The slot's piece's name, once worked out.
    name: OnceLock<String>,
}

impl SlotPiece<'_> {
    /// The piece as saves write it.
    fn saved(&self) -> &SavedPiece {
        self.saved.get_or_init(|| SavedPiece::of(self.slot, self.prototypes))
    }

    /// The name of the slot's piece (empty when it has none).
    fn name(&self) -> &str {
        self.name.get_or_init(|| self.slot.piece.name().unwrap_or_default())
    }
}

/// A slot's piece as every saved game writes it: what stays the same wherever it stands.
struct SavedPiece {
    /// The states of its traits, outermost first, the basic piece's last.
    states: Vec<String>,
    /// Its type chain, with the basic piece as saves write it.
    type_chain: String,
    /// The basic piece's image and name.
    image: String,
    name: String,
    /// The layer that shows the reduced side, when it has one.
    step_layer: Option<usize>,
    /// The Text Label that shows its strength, when it has one.
    strength_label: Option<usize>,
}

impl<'a> SlotPieces<'a> {
    /// The slots of a module, the first of each unit id kept, its prototypes (their
    /// definitions, and the same by name).
    pub fn new(
        slots: &'a [Slot],
        definitions: &[Prototype],
        prototypes: &'a (dyn Fn(&str) -> Option<Piece> + Sync),
    ) -> Self {
        let mut all = Vec::new();
        for p in definitions {
            field(&mut all, p.name.as_bytes());
            piece_bytes(&mut all, &p.piece);
        }
        let all = blake3::hash(&all);
        // Each slot's fingerprint is worked out on its own, side by side; the first slot
        // of a unit is its piece.
        let fingerprints: Vec<[u8; 32]> = slots
            .par_iter()
            .map(|s| {
                let mut made_of = all.as_bytes().to_vec();
                piece_bytes(&mut made_of, &s.piece);
                *blake3::hash(&made_of).as_bytes()
            })
            .collect();
        let mut by_unit = HashMap::new();
        for (s, fingerprint) in slots.iter().zip(fingerprints) {
            by_unit.entry(s.id.as_str()).or_insert_with(|| SlotPiece {
                slot: s,
                prototypes,
                fingerprint,
                saved: OnceLock::new(),
                name: OnceLock::new(),
            });
        }
        Self { slots: by_unit }
    }

    /// The slot of `unit` and its piece; `None` when it has no slot.
    fn get(&self, unit: &str) -> Option<&SlotPiece<'a>> {
        self.slots.get(unit)
    }
}

/// Appends a piece's traits (type and state of each) to `out`, each after its length.
pub(super) fn piece_bytes(out: &mut Vec<u8>, piece: &Piece) {
    field(out, &(piece.traits.len() as u64).to_le_bytes());
    for t in &piece.traits {
        field(out, t.kind.as_bytes());
        field(out, t.state.as_bytes());
    }
}

impl SavedPiece {
    /// Expands the slot's prototypes, as VASSAL does when a piece is put into a game.
    fn of(slot: &Slot, prototypes: &dyn Fn(&str) -> Option<Piece>) -> Self {
        let piece = slot.piece.expand(prototypes, 8);
        let fields = piece.traits.last().map(Trait::fields).unwrap_or_default();
        let image = fields.get(2).cloned().unwrap_or_default();
        let name = fields.get(3).cloned().unwrap_or_default();
        // The basic piece's type does not depend on where it stands.
        let basic = Trait::basic_with(&image, &name, &Position::default(), &[]);
        let mut kinds: Vec<&str> = piece.traits.iter().map(|t| t.kind.as_str()).collect();
        if let Some(last) = kinds.last_mut() {
            *last = &basic.kind;
        }
        let step_layer = piece.traits.iter().position(|t| {
            t.id() == "emb2" && t.fields().get(18).map(String::as_str) == Some("Step")
        });
        let strength_label = piece.traits.iter().position(|t| {
            t.id() == "label"
                && t.fields().get(15).map(String::as_str)
                    == Some(muster_vassal::listing::STRENGTH)
        });
        let type_chain = chain(&kinds);
        let states: Vec<String> = piece.traits.iter().map(|t| t.state.clone()).collect();
        Self { type_chain, states, image, name, step_layer, strength_label }
    }

    /// The `AddPiece` command that puts this piece at `at` with `properties`, showing its
    /// reduced side when `reduced` and it has one, and `strength` on its strength label.
    fn add_command(
        &self,
        id: &str,
        at: &Position,
        properties: &[(&str, &str)],
        reduced: bool,
        strength: Option<&str>,
    ) -> String {
        let basic = Trait::basic_with(&self.image, &self.name, at, properties);
        let mut states: Vec<&str> = self.states.iter().map(String::as_str).collect();
        if let Some(last) = states.last_mut() {
            *last = &basic.state;
        }
        if reduced && let Some(layer) = self.step_layer {
            states[layer] = "2";
        }
        if let (Some(k), Some(text)) = (self.strength_label, strength) {
            states[k] = text;
        }
        format!("+/{}", encode(&[id, &self.type_chain, &chain(&states)], '/'))
    }
}

/// One counter of a saved game: its piece and where it stands.
struct PlacedSpec<'p> {
    /// Its id in the saved game.
    id: String,
    /// Its piece.
    piece: &'p SlotPiece<'p>,
    /// Where it stands.
    at: Position,
    /// Its setup line's properties (none off the map, or without live checks).
    properties: Vec<(&'static str, String)>,
    /// Whether it shows its reduced side.
    reduced: bool,
    /// The strength its label shows.
    strength: Option<String>,
}

impl PlacedSpec<'_> {
    /// Appends everything its `AddPiece` command is made from to `out`, each field after
    /// its length, so that different specs never give the same bytes.
    fn key_bytes(&self, out: &mut Vec<u8>) {
        field(out, &self.piece.fingerprint);
        field(out, self.id.as_bytes());
        field(out, self.at.map.as_deref().unwrap_or_default().as_bytes());
        field(out, &self.at.x.to_le_bytes());
        field(out, &self.at.y.to_le_bytes());
        field(out, self.at.gpid.as_bytes());
        field(out, &[u8::from(self.reduced)]);
        field(out, self.strength.as_deref().unwrap_or_default().as_bytes());
        field(out, &(self.properties.len() as u64).to_le_bytes());
        for (k, v) in &self.properties {
            field(out, k.as_bytes());
            field(out, v.as_bytes());
        }
    }

    /// Its `AddPiece` command.
    fn add_command(&self) -> String {
        let properties: Vec<(&str, &str)> =
            self.properties.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.piece.saved().add_command(
            &self.id,
            &self.at,
            &properties,
            self.reduced,
            self.strength.as_deref(),
        )
    }
}

/// Appends `bytes` to `out` after their length, so that different sequences of fields
/// never give the same bytes.
pub(super) fn field(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// The restore command that puts the turn tracker at the scenario's first turn, when the
/// game has a track and the scenario prints a first turn on it.
fn first_turn(
    game: &Game,
    scenario: &muster_model::source::ScenarioFile,
) -> Option<String> {
    let track = game.meta.play.turns.as_ref()?;
    let names = super::turn_names(game);
    let number = Turn::new(&scenario.first_turn.as_ref()?.v, &names).number?;
    super::turns::first_turn_restore(track, number)
}

/// Writes the saved game of one scenario; returns its archive path, bytes and contents.
/// With `lines` (where each counter may stand, for the checks VASSAL makes), every counter
/// on a hex carries its setup line and the game starts with those checks on.
pub fn save(
    game: &Game,
    solution: &Solution,
    slots: &SlotPieces,
    maps: &Surroundings,
    lines: Option<&BTreeMap<String, Allowed>>,
    keep: &super::Keep,
) -> Result<(String, Vec<u8>, SetupFile), PackageError> {
    let Surroundings { plan, table, dead_piles } = *maps;
    let scenario = game
        .scenarios
        .iter()
        .find(|s| s.id.v == solution.scenario)
        .ok_or_else(|| PackageError(format!("no scenario {}", solution.scenario)))?;
    let wanted = wanted(game, solution);
    let mut pieces = Vec::new();
    let mut specs = Vec::new();
    let mut stacks: BTreeMap<(String, i64, i64), Vec<String>> = BTreeMap::new();
    let mut order: Vec<(String, i64, i64)> = Vec::new();
    let mut properties_of = super::live_rules::SetupProperties::default();
    for (k, Wanted { unit, cell, holding, reduced, strength, .. }) in
        wanted.iter().enumerate()
    {
        let piece = slots.get(unit).ok_or_else(|| {
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
        let properties = match (lines.and_then(|l| l.get(unit)), cell) {
            (Some(a), Some(_)) => properties_of.of(a),
            _ => Vec::new(),
        };
        let at =
            Position { map: Some(map.clone()), x, y, gpid: piece.slot.gpid.to_string() };
        let key = (map.clone(), x, y);
        if !stacks.contains_key(&key) {
            order.push(key.clone());
        }
        stacks.entry(key).or_default().push(id.clone());
        specs.push(PlacedSpec {
            id,
            piece,
            at,
            properties,
            reduced: *reduced,
            strength: strength.clone(),
        });
        pieces.push(PlacedPiece {
            unit: unit.clone(),
            name: piece.name().to_string(),
            map,
            location,
            x,
            y,
            reduced: *reduced,
            strength: strength.clone(),
        });
    }
    let stack_adds: Vec<String> = order
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let stack = Stack {
                map: key.0.clone(),
                x: key.1,
                y: key.2,
                pieces: stacks[key].clone(),
            };
            stack.add_command(&format!("{}", 2_000_000 + i))
        })
        .collect();
    let restores: Vec<String> = plan
        .main_restore()
        .into_iter()
        .chain(plan.table_restore())
        .chain(dead_piles.any().then(super::boards::dead_pile_restore))
        .chain(lines.map(|_| super::live_rules::setup_restore()))
        .chain(first_turn(game, scenario))
        .collect();
    let data = moduledata(game);
    let file = format!("{}.vsav", scenario.id.v);
    // The archive is a function of its counters' specs, its stacks, its restore commands
    // and the module data alone: those are its key, and the commands are only encoded when
    // the key is new.
    // Each run of pieces is also kept under its own specs.
    let placed: Vec<Vec<u8>> = specs
        .chunks(RUN)
        .map(|run| {
            let mut bytes = Vec::new();
            for spec in run {
                spec.key_bytes(&mut bytes);
            }
            bytes
        })
        .collect();
    let mut parts: Vec<&[u8]> = vec![data.as_bytes()];
    let counts = [placed.len() as u64, stack_adds.len() as u64, restores.len() as u64]
        .map(u64::to_le_bytes);
    parts.extend(counts.iter().map(|c| c.as_slice()));
    parts.extend(placed.iter().map(Vec::as_slice));
    parts.extend(stack_adds.iter().chain(&restores).map(String::as_bytes));
    let bytes = keep(&file, &parts, &|| {
        archive(&file, &specs, &placed, &stack_adds, &restores, &data, keep)
    })
    .map_err(|e| PackageError(format!("failed to archive {file} ({e})")))?;
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

/// The saved game's archive: its adds in runs of [`RUN`] pieces, each written, obfuscated
/// and deflated on its own and kept under `placed` (its specs), then the stacks and the
/// restore commands, and the module data.
fn archive(
    file: &str,
    specs: &[PlacedSpec],
    placed: &[Vec<u8>],
    stack_adds: &[String],
    restores: &[String],
    data: &str,
    keep: &super::Keep,
) -> Result<Vec<u8>, String> {
    // The adds go in runs of `RUN` pieces, each written, obfuscated and deflated on its
    // own and kept: a changed counter writes only its run again.
    let run = |adds: &[String]| -> Result<DeflatedPart, String> {
        let mut text = String::new();
        for add in adds {
            push_add(&mut text, add);
        }
        let mut bytes = Vec::new();
        obfuscate_into(&mut bytes, text.as_bytes(), KEY);
        DeflatedPart::of(&bytes).map_err(|e| e.0)
    };
    let mut head = obfuscation_header(KEY);
    obfuscate_into(&mut head, STREAM_HEAD.as_bytes(), KEY);
    let mut tail = Vec::new();
    obfuscate_into(&mut tail, stream_tail(restores).as_bytes(), KEY);
    let mut parts = vec![DeflatedPart::of(&head).map_err(|e| e.0)?];
    let runs = specs
        .par_chunks(RUN)
        .zip(placed)
        .enumerate()
        .map(|(i, (run_specs, placed))| {
            let kept = keep(&format!("{file} pieces run {}", i + 1), &[placed], &|| {
                let adds: Vec<String> =
                    run_specs.iter().map(PlacedSpec::add_command).collect();
                Ok(run(&adds)?.to_bytes())
            })?;
            DeflatedPart::from_bytes(&kept).map_err(|e| e.0)
        })
        .collect::<Result<Vec<_>, String>>()?;
    parts.extend(runs);
    parts.push(run(stack_adds)?);
    parts.push(DeflatedPart::of(&tail).map_err(|e| e.0)?);
    let mut entries = BTreeMap::new();
    entries.insert(
        "savedGame".to_string(),
        joined_entry("savedGame", &parts).map_err(|e| e.0)?,
    );
    entries.insert(
        "moduledata".to_string(),
        deflated_entry("moduledata", data.as_bytes()).map_err(|e| e.0)?,
    );
    write_zip_entries(&entries).map_err(|e| e.0)
}
