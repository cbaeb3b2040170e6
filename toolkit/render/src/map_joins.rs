//! Sheets printed to be laid edge to edge (`joins` in the map files): which sheets a sheet
//! continues, and where their papers lie beside its own, so that one grid runs across
//! them all and the hexes a joining edge cuts are completed on the sheet beyond it.

use muster_hex::{Board, Sheet};
use muster_model::Game;
use muster_model::source::{MapFile, SheetEdge};

/// A sheet laid beside another: its sheet, map file, paper size, and where its paper's
/// top-left corner lies, in inches from the other's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Joined<'g> {
    /// The sheet.
    pub sheet: &'g Sheet,
    /// Its map file.
    pub map: &'g MapFile,
    /// Its paper's width and height, in inches.
    pub size: (f64, f64),
    /// Its paper's top-left corner, in inches from the first sheet's.
    pub at: (f64, f64),
}

/// Each join the board bears out, either way round: from map, edge, to map.
fn links<'g>(game: &'g Game, board: &'g Board) -> Vec<(&'g str, SheetEdge, &'g str)> {
    let sheet = |id: &str| board.sheets().iter().find(|s| s.id == id);
    let mut out = Vec::new();
    for m in &game.maps {
        let Some(from) = sheet(&m.id.v) else { continue };
        for j in &m.joins {
            let Some(to) = sheet(&j.map.v) else { continue };
            if j.beside(from, to) {
                out.push((m.id.v.as_str(), j.edge, j.map.v.as_str()));
                out.push((j.map.v.as_str(), opposite(j.edge), m.id.v.as_str()));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The edge facing `edge` on the sheet beyond it.
fn opposite(edge: SheetEdge) -> SheetEdge {
    match edge {
        SheetEdge::Top => SheetEdge::Bottom,
        SheetEdge::Bottom => SheetEdge::Top,
        SheetEdge::Left => SheetEdge::Right,
        SheetEdge::Right => SheetEdge::Left,
    }
}

/// The edges of `map`'s sheet that another sheet continues.
pub(crate) fn edges(game: &Game, board: &Board, map: &MapFile) -> Vec<SheetEdge> {
    links(game, board).into_iter().filter(|l| l.0 == map.id.v).map(|l| l.1).collect()
}

/// `map`'s sheet (first) and every sheet joined to it, directly or through others, with
/// their papers laid edge to edge; `paper` gives a sheet's paper size in inches. A sheet
/// reached twice keeps the first place found.
pub(crate) fn joined<'g>(
    game: &'g Game,
    board: &'g Board,
    map: &MapFile,
    paper: impl Fn(&Sheet, &MapFile) -> (f64, f64),
) -> Vec<Joined<'g>> {
    let find = |id: &str| {
        let sheet = board.sheets().iter().find(|s| s.id == id)?;
        let map = game.maps.iter().find(|m| m.id.v == id)?;
        Some(Joined { sheet, map, size: paper(sheet, map), at: (0.0, 0.0) })
    };
    let Some(first) = find(&map.id.v) else { return Vec::new() };
    let links = links(game, board);
    let mut out = vec![first];
    let mut next = 0;
    while next < out.len() {
        let from = out[next];
        next += 1;
        for (_, edge, to) in links.iter().filter(|l| l.0 == from.map.id.v) {
            if out.iter().any(|j| j.map.id.v == *to) {
                continue;
            }
            let Some(mut j) = find(to) else { continue };
            j.at = match edge {
                SheetEdge::Bottom => (from.at.0, from.at.1 + from.size.1),
                SheetEdge::Top => (from.at.0, from.at.1 - j.size.1),
                SheetEdge::Right => (from.at.0 + from.size.0, from.at.1),
                SheetEdge::Left => (from.at.0 - j.size.0, from.at.1),
            };
            out.push(j);
        }
    }
    out
}
