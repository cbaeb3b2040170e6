//! What muster reads of a module: its maps of every kind, their boards, decks and
//! at-start stacks, its setups and turn trackers; and why a module could not be read.

use super::grids::{Grid, Unmodelled, Zone};
use crate::vassal::turn::TrackerDef;

/// A board's place in a map's arrangement: board name, column, row.
pub type Slot = (String, u32, u32);

/// A board of a map.
#[derive(Debug, Clone)]
pub struct BoardInfo {
    /// Board name.
    pub name: String,
    /// Image file under `images/`.
    pub image: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Zones of its zoned grid, in buildFile order.
    pub zones: Vec<Zone>,
    /// Its grid; none for a board without one, where VASSAL names no point.
    pub grid: Option<Grid>,
}

impl BoardInfo {
    /// A board of a size with no grid.
    pub fn new(name: &str, width: u32, height: u32) -> BoardInfo {
        BoardInfo {
            name: name.to_string(),
            image: String::new(),
            width,
            height,
            zones: Vec::new(),
            grid: None,
        }
    }
}

/// A deck's place on a map (a `DrawPile`): VASSAL names the point it stands on after it.
#[derive(Debug, Clone)]
pub struct PileInfo {
    /// The deck's name.
    pub name: String,
    /// The board its position is relative to, if any.
    pub board: Option<String>,
    /// x, relative to that board (or to the map's edge).
    pub x: i64,
    /// y, relative to that board (or to the map's edge).
    pub y: i64,
}

/// An at-start stack (`SetupStack`): where VASSAL puts its pieces when a game starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtStartInfo {
    /// Its name.
    pub name: String,
    /// The board its position is relative to, if any.
    pub board: Option<String>,
    /// x, relative to that board (or to the map's edge).
    pub x: i64,
    /// y, relative to that board (or to the map's edge).
    pub y: i64,
    /// The location name it is placed at instead of x, y (`useGridLocation`), if any.
    pub location: Option<String>,
    /// How many pieces it holds.
    pub pieces: usize,
}

/// What kind of map a map is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MapKind {
    /// A `Map`.
    #[default]
    Map,
    /// A `PrivateMap`.
    Private,
    /// A `PlayerHand`.
    PlayerHand,
    /// A map of a class that is not VASSAL's own.
    Other,
}

/// A map of a module.
#[derive(Debug, Clone, Default)]
pub struct MapInfo {
    /// Map identifier.
    pub name: String,
    /// Boards.
    pub boards: Vec<BoardInfo>,
    /// The default board arrangement: board name, column, row.
    pub arrangement: Vec<Slot>,
    /// The margin around the boards (`edgeWidth`, `edgeHeight`).
    pub edge: (u32, u32),
    /// Decks, at any folder depth.
    pub piles: Vec<PileInfo>,
    /// Its kind.
    pub kind: MapKind,
    /// The boards the default arrangement shows turned round (`/rev`).
    pub reversed: Vec<String>,
    /// The map's class, when it is not VASSAL's own: muster cannot name its points.
    pub unmodelled: Option<Unmodelled>,
    /// At-start stacks, at any folder depth.
    pub at_start: Vec<AtStartInfo>,
}

/// What muster reads of a module.
#[derive(Debug, Clone, Default)]
pub struct ModuleInfo {
    /// Module name.
    pub name: String,
    /// Maps.
    pub maps: Vec<MapInfo>,
    /// Predefined setups: menu name and archive file.
    pub setups: Vec<(String, String)>,
    /// Turn trackers, in buildFile order.
    pub trackers: Vec<TrackerDef>,
}

/// Why a module or saved game could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError(pub String);

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReadError {}
