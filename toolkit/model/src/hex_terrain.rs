//! The terrains of every hex of a board, as the map files give them: one lookup for the
//! renderer, the setup checks and the rules.

use std::collections::BTreeMap;

use muster_hex::{Board, Cell};

use crate::Game;
use crate::source::MapFile;

/// Every cell's terrain ids on `board`, from the game's map files: the hex's own terrain
/// first (the terrain whose `hexes` list it, or its map's `default`, `unknown` unless the
/// map says otherwise), then each terrain whose `also` lists it, in file order.
///
/// Every cell of a sheet the board places has an entry, and its list is never empty. A hex
/// listed under `hexes` more than once takes the last listing. Labels that do not parse
/// (an error when the game loads) are left out.
pub fn terrains<'g>(game: &'g Game, board: &Board) -> BTreeMap<Cell, Vec<&'g str>> {
    of_maps(&game.maps, board)
}

/// [`terrains`] of the map files `maps` on `board`.
fn of_maps<'m>(maps: &'m [MapFile], board: &Board) -> BTreeMap<Cell, Vec<&'m str>> {
    let mut out: BTreeMap<Cell, Vec<&str>> = BTreeMap::new();
    for m in maps {
        let Some(sheet) = board.sheets().iter().find(|s| s.id == m.id.v) else {
            continue;
        };
        let default = m.terrain.default.v.as_str();
        out.extend(
            board.cells().filter(|c| sheet.contains(*c)).map(|c| (c, vec![default])),
        );
    }
    let cells = |t: &'m crate::source::TerrainHexes| {
        let terrain = t.terrain.v.as_str();
        t.hexes.iter().filter_map(move |h| Some((board.parse(&h.v).ok()?, terrain)))
    };
    for (cell, terrain) in maps.iter().flat_map(|m| &m.terrain.hexes).flat_map(cells) {
        match out.get_mut(&cell) {
            Some(own) => own[0] = terrain,
            None => {
                out.insert(cell, vec![terrain]);
            }
        }
    }
    for (cell, terrain) in maps.iter().flat_map(|m| &m.terrain.also).flat_map(cells) {
        out.entry(cell).or_insert_with(|| vec!["unknown"]).push(terrain);
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::Path;

    use super::*;
    use crate::source::TerrainHexes;
    use crate::{LoadOptions, Sources, Spanned, load_game};

    fn oasis() -> Game {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources/example-oasis");
        load_game(&dir, &mut Sources::new(), &LoadOptions::default()).ok().unwrap().0
    }

    fn also(terrain: &str, hexes: &[&str]) -> TerrainHexes {
        TerrainHexes {
            terrain: Spanned::detached(terrain.to_string()),
            hexes: hexes.iter().map(|h| Spanned::detached(h.to_string())).collect(),
            section: None,
        }
    }

    #[test]
    fn own_terrain_comes_first_then_also_in_file_order() {
        let mut game = oasis();
        game.maps[0].terrain.also =
            vec![also("marsh", &["09.02", "05.05"]), also("rough", &["09.02"])];
        let board = game.board.clone().unwrap();
        let found = terrains(&game, &board);
        let at = |label: &str| found[&board.parse(label).unwrap()].clone();
        assert_eq!(at("09.02"), ["town", "marsh", "rough"]);
        assert_eq!(at("05.05"), ["clear", "marsh"]);
        assert_eq!(at("06.06"), ["oasis"]);
        assert_eq!(at("00.10"), ["unknown"]);
        assert_eq!(found.len(), board.cells().count());
    }

    #[test]
    fn a_hex_listed_twice_takes_the_last_listing() {
        let mut game = oasis();
        game.maps[0].terrain.hexes.push(also("hills", &["06.06"]));
        let board = game.board.clone().unwrap();
        assert_eq!(terrains(&game, &board)[&board.parse("06.06").unwrap()], ["hills"]);
    }
}
