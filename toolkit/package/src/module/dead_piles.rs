//! Dead piles: a map with one box per side, where a counter's Eliminate command (Send to
//! Location) puts it. Each box is a zone whose name is the location VASSAL reports for the
//! counters in it (`Axis dead pile`), so a saved game tells which counters are eliminated
//! by their map and location; `rules/ruleset.json` lists the piles for the rules checker.

use muster_model::Game;
pub use muster_rules::embedded::DeadPile;

use super::table::{self, Table};

/// The dead pile map's identifier.
pub const DEAD_PILE_MAP: &str = "Dead Pile";
/// Its board's name.
pub const DEAD_PILE_BOARD: &str = "Dead Pile";

/// A pile per side, unless `game.yaml` turns dead piles off.
pub fn piles(game: &Game) -> Vec<DeadPile> {
    if !game.meta.module.dead_piles {
        return Vec::new();
    }
    game.meta
        .sides
        .iter()
        .map(|s| DeadPile {
            side: s.id.v.clone(),
            map: DEAD_PILE_MAP.into(),
            location: format!("{} dead pile", s.name),
        })
        .collect()
}

/// The dead piles of a module and the board that holds them.
#[derive(Debug, Clone)]
pub struct DeadPiles {
    /// One pile per side, in `game.yaml`'s order.
    pub piles: Vec<DeadPile>,
    /// The board: its size and one box per pile (empty without piles).
    pub board: Table,
    /// The board's image under `images/`, named by its content.
    pub image: String,
    /// The board's image as SVG.
    pub svg: String,
}

impl DeadPiles {
    /// The piles laid out for counters `counter_px` wide.
    pub fn plan(game: &Game, counter_px: u32) -> DeadPiles {
        let piles = piles(game);
        let names: Vec<String> = piles.iter().map(|p| p.location.clone()).collect();
        let board = table::layout(&names, &[], counter_px);
        let title = format!("{}: eliminated units", game.meta.title);
        let svg = table::svg(&board, &title, muster_render::fonts::FAMILY);
        let image = super::files::named_by_content(
            "dead-pile",
            "png",
            &super::files::drawing(&svg, board.width, board.height),
        );
        DeadPiles { piles, board, image, svg }
    }

    /// The pile of `side`, if it has one.
    pub fn of_side(&self, side: &str) -> Option<&DeadPile> {
        self.piles.iter().find(|p| p.side == side)
    }

    /// Whether the module has a dead pile map.
    pub fn any(&self) -> bool {
        !self.piles.is_empty()
    }
}
