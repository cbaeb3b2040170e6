//! Printed locations resolved to hexes, or to a relation with other units.

use std::collections::{BTreeMap, BTreeSet};

use muster_hex::{Board, Cell};
use muster_model::notation::LocationExpr;
use muster_model::{FindingKind, Game, hex_terrain};

use serde::{Deserialize, Serialize};

use crate::resolve::Resolver;

/// Whose hexes a "stacked with" placement may use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// Units of these formations (and their subordinates).
    Formations(BTreeSet<String>),
    /// Units set up by the earlier lines of the same block.
    Above,
    /// Any unit that belongs to a formation.
    AnyFormation,
    /// These counters: the units of a nationality or a type, or whose printed name holds
    /// the words (`any Breton unit`, `his personal guard`).
    Units(BTreeSet<String>),
}

/// Where a placement may put its units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Region {
    /// These hexes, nearest the anchors first.
    Hexes {
        /// Allowed hexes, sorted by distance to the nearest anchor, then position.
        cells: Vec<Cell>,
        /// The printed anchor hexes.
        anchors: Vec<Cell>,
        /// The printed distance (0 for an exact hex).
        distance: u32,
    },
    /// In a hex holding units of the target, or in one of `plus`.
    WithUnits {
        /// Whose hexes.
        target: Target,
        /// Hexes also allowed (`A53.12 and/or with any of the above`).
        plus: Vec<Cell>,
    },
    /// A holding box off the map that the location names (`DAF box`, `Reinforcement
    /// Pool`, `See 5.2`): the units start there.
    Box {
        /// The box's name, as printed.
        name: String,
    },
    /// The location cannot be turned into hexes, and why.
    Unresolved {
        /// What kind of finding this makes: [`FindingKind::BadHex`],
        /// [`FindingKind::ProhibitedHex`], [`FindingKind::UnparsedLocation`],
        /// [`FindingKind::UnprintedZone`] or [`FindingKind::UnresolvedLocation`].
        kind: FindingKind,
        /// Why.
        reason: String,
        /// The printed hex label at fault, for a bad or prohibited hex.
        bad_label: Option<String>,
    },
}

impl Region {
    /// A location that cannot be turned into hexes.
    pub fn unresolved(kind: FindingKind, reason: impl Into<String>) -> Region {
        Region::Unresolved { kind, reason: reason.into(), bad_label: None }
    }
}

/// Every hex of the board no unit may enter, by label, with its terrain
/// (`prohibited_terrain` in rules.yaml).
pub fn prohibited_hexes(game: &Game) -> BTreeMap<String, String> {
    let Some(board) = &game.board else { return BTreeMap::new() };
    prohibited_cells(game, board)
        .into_iter()
        .filter_map(|(c, t)| Some((board.label(c)?, t.to_string())))
        .collect()
}

/// Every cell no unit may enter, with the terrain that keeps units out: the first of its
/// terrains (its own, then what it also holds) that `prohibited_terrain` in rules.yaml
/// names.
fn prohibited_cells<'g>(game: &'g Game, board: &Board) -> BTreeMap<Cell, &'g str> {
    let banned: BTreeSet<&str> =
        game.rules.prohibited_terrain.iter().map(|t| t.v.as_str()).collect();
    if banned.is_empty() {
        return BTreeMap::new();
    }
    hex_terrain::terrains(game, board)
        .into_iter()
        .filter_map(|(c, ts)| Some((c, ts.into_iter().find(|t| banned.contains(t))?)))
        .collect()
}

/// The terrains stacking rules hold in or not (`only_in`, `except_in`) of each hex that
/// has any, by label: what the checker needs to know of a hex's terrain.
pub fn rule_terrain(game: &Game) -> BTreeMap<String, Vec<String>> {
    let named: BTreeSet<&str> = game
        .rules
        .stacking
        .iter()
        .flat_map(|r| r.only_in.iter().chain(&r.except_in))
        .map(|t| t.v.as_str())
        .collect();
    let Some(board) = game.board.as_ref().filter(|_| !named.is_empty()) else {
        return BTreeMap::new();
    };
    muster_model::hex_terrain::terrains(game, board)
        .into_iter()
        .filter_map(|(cell, terrains)| {
            let terrains: Vec<String> = terrains
                .into_iter()
                .filter(|t| named.contains(t))
                .map(String::from)
                .collect();
            (!terrains.is_empty()).then(|| Some((board.label(cell)?, terrains)))?
        })
        .collect()
}

/// Gives each unit the terrains of its hex that stacking rules name ([`rule_terrain`]).
pub fn on_terrain<'u>(
    terrain: &BTreeMap<String, Vec<String>>,
    units: impl IntoIterator<Item = &'u mut muster_rules::PlacedUnit>,
) {
    if terrain.is_empty() {
        return;
    }
    for u in units {
        u.terrain = terrain.get(&u.location).cloned().unwrap_or_default();
    }
}

/// The terrain of `cell` when the rules prohibit it.
fn prohibited_terrain(game: &Game, board: &Board, cell: Cell) -> Option<String> {
    prohibited_cells(game, board).get(&cell).map(|t| t.to_string())
}

fn prohibited(game: &Game, board: &Board) -> BTreeSet<Cell> {
    prohibited_cells(game, board).into_keys().collect()
}

fn within(game: &Game, board: &Board, anchors: Vec<Cell>, distance: u32) -> Region {
    let banned = prohibited(game, board);
    let mut cells: Vec<Cell> = anchors
        .iter()
        .flat_map(|a| board.within(*a, distance))
        .filter(|c| !banned.contains(c))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    cells.sort_by_key(|c| {
        (anchors.iter().map(|a| board.distance(*a, *c)).min().unwrap_or(0), *c)
    });
    Region::Hexes { cells, anchors, distance }
}

fn target(resolver: &Resolver, text: &str) -> Option<Target> {
    let t = text.trim().to_lowercase();
    if t.contains("of the above") {
        return Some(Target::Above);
    }
    if t.contains("any formation") {
        return Some(Target::AnyFormation);
    }
    let words = text.trim();
    let words = words.strip_prefix("any ").unwrap_or(words);
    let words = words.trim_end_matches(" units").trim_end_matches(" unit");
    let parts: Vec<&str> = words.split(" or ").map(str::trim).collect();
    // "Sabratha or Trento Divs": the last part's final word names the kind of every part.
    let kind = parts.last().and_then(|p| p.rsplit_once(' ')).map(|(_, k)| k.to_string());
    let mut ids = BTreeSet::new();
    for part in &parts {
        let found = resolver.formation(part).or_else(|| {
            kind.as_ref().and_then(|k| resolver.formation(&format!("{part} {k}")))
        });
        match found {
            Some(f) => ids.insert(f.to_string()),
            None => return units_described(resolver.game(), words).map(Target::Units),
        };
    }
    Some(Target::Formations(ids))
}

/// The counters words describe (`Breton`, `Franco-Flemish`, `his personal guard`): those of
/// a nationality or a unit type of that name, else those whose printed name holds every
/// word but `his`, `her`, `their`; none when no counter answers.
fn units_described(game: &Game, words: &str) -> Option<BTreeSet<String>> {
    let w = words.trim().to_lowercase();
    let nation = game.meta.nationalities.iter().find(|n| {
        n.name.to_lowercase() == w
            || n.id.v == w
            || n.printed.iter().any(|p| p.to_lowercase() == w)
    });
    let kind = game.meta.unit_types.iter().find(|t| {
        t.name.to_lowercase() == w || t.printed.iter().any(|p| p.to_lowercase() == w)
    });
    let keys: Vec<&str> = w
        .split_whitespace()
        .filter(|x| !matches!(*x, "his" | "her" | "their" | "its"))
        .collect();
    let ids: BTreeSet<String> = game
        .units
        .iter()
        .filter(|u| match (nation, kind) {
            (Some(n), _) => u.nationality.as_deref() == Some(n.id.v.as_str()),
            (None, Some(t)) => u.unit_type.as_deref() == Some(t.id.v.as_str()),
            (None, None) => {
                let name = u.printed.v.to_lowercase().replace('’', "'");
                !keys.is_empty() && keys.iter().all(|k| name.contains(k))
            }
        })
        .map(|u| u.id.clone())
        .collect();
    (!ids.is_empty()).then_some(ids)
}

/// The hexes of the place a map names `printed` (a feature with that name, case, a
/// leading `the` and the kind of apostrophe aside); empty when no map names it.
pub fn place_cells(game: &Game, printed: &str) -> Vec<Cell> {
    let Some(board) = &game.board else { return Vec::new() };
    let key = place_key(printed);
    let mut out: Vec<Cell> = game
        .maps
        .iter()
        .flat_map(|m| &m.features)
        .filter(|f| f.name.as_deref().is_some_and(|n| place_key(n) == key))
        .flat_map(|f| f.hexes.iter().filter_map(|h| board.parse(&h.v).ok()))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Does a location that names no map place name a holding box off the map: a box, pool,
/// display or track, or a rule to see (`DAF box`, `Reinforcement Pool`, `See 5.2`)?
fn names_a_box(printed: &str) -> bool {
    let l = printed.trim().to_lowercase();
    l.starts_with("see ")
        || l.split_whitespace().any(|w| {
            matches!(w, "box" | "boxes" | "pool" | "display" | "track" | "holding")
        })
}

/// A place name as compared: lowercase, `’` as `'`, without a leading `the`.
fn place_key(name: &str) -> String {
    let l = name.trim().to_lowercase().replace('’', "'");
    l.strip_prefix("the ").unwrap_or(&l).trim().to_string()
}

/// Every cell of a run of hexes: the column or row between its ends, or the hex line
/// between them; none when the ends share no column, row or line.
fn run_cells(board: &Board, a: Cell, b: Cell) -> Option<Vec<Cell>> {
    let between = |x: i32, y: i32| x.min(y)..=x.max(y);
    let cells: Vec<Cell> = if a.col == b.col {
        between(a.row, b.row).map(|r| Cell::new(a.col, r)).collect()
    } else if a.row == b.row {
        between(a.col, b.col).map(|c| Cell::new(c, a.row)).collect()
    } else {
        let d = board.distance(a, b);
        let line: Vec<Cell> = board
            .within(a, d)
            .into_iter()
            .filter(|c| board.distance(a, *c) + board.distance(*c, b) == d)
            .collect();
        if line.len() != d as usize + 1 {
            return None;
        }
        line
    };
    Some(cells.into_iter().filter(|c| board.contains(*c)).collect())
}

/// Resolves a parsed location of a game.
pub fn region(game: &Game, resolver: &Resolver, expr: &LocationExpr) -> Region {
    let Some(board) = &game.board else {
        return Region::unresolved(
            FindingKind::UnresolvedLocation,
            "the game has no printed map grid",
        );
    };
    let cells = |hexes: &[muster_model::notation::HexRef]| -> Result<Vec<Cell>, (String, String)> {
        hexes.iter().map(|h| board.parse(&h.label).map_err(|e| (e.to_string(), h.label.clone()))).collect()
    };
    let bad = |(reason, label): (String, String)| Region::Unresolved {
        kind: FindingKind::BadHex,
        reason,
        bad_label: Some(label),
    };
    match expr {
        LocationExpr::Hex { hex } => match cells(std::slice::from_ref(hex)) {
            Ok(c) => match prohibited_terrain(game, board, c[0]) {
                Some(terrain) => Region::Unresolved {
                    kind: FindingKind::ProhibitedHex,
                    reason: format!(
                        "{} is {terrain}, which no unit may enter (`prohibited_terrain` in rules.yaml)",
                        hex.label
                    ),
                    bad_label: Some(hex.label.clone()),
                },
                None => within(game, board, c, 0),
            },
            Err(e) => bad(e),
        },
        LocationExpr::Within { distance, of } => match cells(of) {
            Ok(c) => within(game, board, c, *distance),
            Err(e) => bad(e),
        },
        LocationExpr::Named { hex, .. } | LocationExpr::InState { hex, .. } => {
            region(game, resolver, &LocationExpr::Hex { hex: hex.clone() })
        }
        LocationExpr::Limited { location, .. } => region(game, resolver, location),
        LocationExpr::Hexes { hexes, runs, extended } => {
            let mut all = match cells(hexes) {
                Ok(c) => c,
                Err(e) => return bad(e),
            };
            for r in runs {
                let ends = match cells(&[r.from.clone(), r.to.clone()]) {
                    Ok(c) => c,
                    Err(e) => return bad(e),
                };
                match run_cells(board, ends[0], ends[1]) {
                    Some(c) => all.extend(c),
                    None => {
                        return Region::Unresolved {
                            kind: FindingKind::BadHex,
                            reason: format!(
                                "{} to {} is no run of hexes: the two share no column, row or hex line",
                                r.from.label, r.to.label
                            ),
                            bad_label: Some(r.to.label.clone()),
                        };
                    }
                }
            }
            if let Err(e) = cells(extended) {
                return bad(e);
            }
            all.sort();
            all.dedup();
            within(game, board, all, 0)
        }
        LocationExpr::Place { place, distance } => {
            let anchors = place_cells(game, place);
            if anchors.is_empty() && *distance == 0 && names_a_box(place) {
                return Region::Box { name: place.clone() };
            }
            if anchors.is_empty() {
                return Region::unresolved(
                    FindingKind::UnparsedLocation,
                    format!(
                        "`{place}` fits no placement form, and no map names a place `{place}` (a feature with that `name` in maps/*.yaml); see muster's book, docs/book/src/files/scenario.md"
                    ),
                );
            }
            within(game, board, anchors, *distance)
        }
        LocationExpr::Anywhere => within(game, board, board.cells().collect(), 0),
        LocationExpr::WithinFeature { feature, .. } => Region::unresolved(
            FindingKind::UnprintedZone,
            format!(
                "the hexes of every {feature} are not printed, only the two ends of the stretch"
            ),
        ),
        LocationExpr::Zone { zone, .. } => Region::unresolved(
            FindingKind::UnprintedZone,
            format!("the hexes of the {zone} are not printed"),
        ),
        LocationExpr::StackedWith { target: t }
        | LocationExpr::WithAbove { target: t } => match target(resolver, t) {
            Some(target) => Region::WithUnits { target, plus: vec![] },
            None => Region::unresolved(
                FindingKind::UnresolvedLocation,
                format!(
                    "`{t}` names no formation of the order of battle, nationality, unit type or counter"
                ),
            ),
        },
        LocationExpr::Either { options } => {
            let mut plus = Vec::new();
            let mut tgt = None;
            for o in options {
                match region(game, resolver, o) {
                    Region::Hexes { cells, .. } => plus.extend(cells),
                    Region::WithUnits { target, .. } => tgt = Some(target),
                    u @ (Region::Unresolved { .. } | Region::Box { .. }) => return u,
                }
            }
            match tgt {
                Some(target) => Region::WithUnits { target, plus },
                None => within(game, board, plus, 0),
            }
        }
        LocationExpr::NearEdge { edge, .. } => Region::unresolved(
            FindingKind::UnprintedZone,
            format!(
                "which side of the board the {edge} edge is, is not printed as hexes"
            ),
        ),
        LocationExpr::Unparsed { text } => Region::unresolved(
            FindingKind::UnparsedLocation,
            format!(
                "`{text}` fits no placement form (a hex such as `0505`, `within 2 hexes of 0505`, `stacked with …`; see muster's book, docs/book/src/files/scenario.md)"
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::Path;

    use muster_model::source::TerrainHexes;
    use muster_model::{LoadOptions, Sources, Spanned, load_game};

    use super::*;

    fn oasis() -> Game {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources/example-oasis");
        load_game(&dir, &mut Sources::new(), &LoadOptions::default()).ok().unwrap().0
    }

    #[test]
    fn the_prohibited_hexes_are_those_of_prohibited_terrain() {
        let found = prohibited_hexes(&oasis());
        let sea = ["06.01", "07.01", "08.01", "09.01", "10.01", "11.01"];
        assert_eq!(found.keys().map(String::as_str).collect::<Vec<_>>(), sea);
        assert!(found.values().all(|t| t == "sea"));
    }

    #[test]
    fn a_hex_that_also_holds_prohibited_terrain_is_prohibited() {
        let mut game = oasis();
        game.maps[0].terrain.also = vec![TerrainHexes {
            terrain: Spanned::detached("sea".to_string()),
            hexes: vec![Spanned::detached("05.05".to_string())],
            section: None,
        }];
        assert_eq!(prohibited_hexes(&game).get("05.05").map(String::as_str), Some("sea"));
        let board = game.board.as_ref().unwrap();
        let cell = board.parse("05.05").unwrap();
        assert_eq!(prohibited_terrain(&game, board, cell).as_deref(), Some("sea"));
        let near = within(&game, board, vec![board.parse("05.04").unwrap()], 1);
        let Region::Hexes { cells, .. } = near else { panic!("{near:?}") };
        assert!(!cells.contains(&cell) && cells.len() == 6, "{cells:?}");
    }
}
