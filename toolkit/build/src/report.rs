//! What a build did, per game and per stage: the value [`crate::Build::run`] returns.
//!
//! Each game's report serializes to the summary `muster build --format json` prints and
//! the cache keeps beside a game's stamp.

use std::collections::BTreeMap;

use muster_model::Loaded;
use serde::{Deserialize, Serialize};

/// What a build of the selected games did.
#[derive(Debug)]
pub struct BuildReport {
    /// The games as loaded, with every diagnostic of loading them and the sources the
    /// diagnostics point into.
    pub loaded: Loaded,
    /// One report per game that loaded, in the order of the games.
    pub games: Vec<GameReport>,
    /// Seconds the whole build took, loading included.
    pub seconds: f64,
}

impl BuildReport {
    /// Whether a game failed to load (its folder holds an error), so that nothing of it was
    /// built.
    pub fn has_errors(&self) -> bool {
        self.loaded.has_errors()
    }
}

/// What the build of one game made, reused and found, and how long each stage took.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GameReport {
    /// The game id.
    pub game: String,
    /// Whether the game's inputs and outputs were as its last build left them, so that
    /// nothing was done (the other figures are that build's).
    #[serde(default)]
    pub up_to_date: bool,
    /// Seconds the game took.
    pub seconds: f64,
    /// Seconds per stage (`model`, `maps`, `counters`, `setups`, `errata`, `module`).
    pub stage_seconds: BTreeMap<String, f64>,
    /// What the cache gave and what was made.
    #[serde(default)]
    pub cache: CacheReport,
    /// Units in the manifest.
    pub units: usize,
    /// Markers in the manifest.
    pub markers: usize,
    /// Formations in the order of battle.
    pub formations: usize,
    /// Map sheets.
    pub maps: usize,
    /// Scenarios.
    pub scenarios: usize,
    /// Printed placements over every scenario.
    pub placements: usize,
    /// Units whose type the rulebook does not print.
    pub units_of_unknown_type: usize,
    /// Hexes whose terrain the rules do not give, over every map.
    pub hexes_of_unknown_terrain: usize,
    /// Every map sheet drawn.
    pub map_images: Vec<MapImage>,
    /// Counter sides drawn.
    pub counter_sides: usize,
    /// Counter values drawn as `?` because the rulebook does not print them.
    pub unknown_counter_values: usize,
    /// Print sheet pages.
    pub sheet_pages: usize,
    /// What was written for the counters.
    pub counters: CounterImages,
    /// Setup findings that need attention.
    pub setup_findings: usize,
    /// What was written for the module.
    pub module: ModuleReport,
    /// Errata that are not information.
    pub errata: usize,
}

/// What the cache did during one game's build.
#[derive(Debug, Default, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct CacheReport {
    /// Results taken from the cache.
    pub reused: usize,
    /// Results made in this build, by label (`counter 1-sa-inf-bde-full`, `module`, ...).
    pub made: Vec<String>,
}

/// What was written for one map sheet.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MapImage {
    /// Map id.
    pub map: String,
    /// PNG path.
    pub png: String,
    /// Pixel width.
    pub width: u32,
    /// Pixel height.
    pub height: u32,
    /// Sheet width in inches.
    pub width_in: f64,
    /// Sheet height in inches.
    pub height_in: f64,
    /// Whether the sheet size is printed in the rulebook.
    pub printed_size: bool,
    /// Hexes whose terrain the rules do not give.
    pub unknown_terrain: usize,
    /// PNG size in bytes.
    pub bytes: usize,
    /// The PNG itself, for the module (not reported).
    #[serde(skip)]
    pub data: Vec<u8>,
    /// Resolution it was drawn at (not reported).
    #[serde(skip)]
    pub dpi: u32,
}

/// What was written for a game's counters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CounterImages {
    /// Counter sides rendered (one PNG each).
    pub sides: usize,
    /// Values drawn as `?` because the rulebook does not print them.
    pub unknown_values: usize,
    /// PDF print sheets written.
    pub pdf: String,
    /// Pages in the PDF.
    pub pages: usize,
    /// PNG sheet pages written.
    pub png_pages: usize,
    /// The contact sheet.
    pub contact_sheet: String,
}

/// What was written for a game's module.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModuleReport {
    /// The `.vmod` path.
    pub path: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// Palette slots and deck pieces.
    pub pieces: usize,
    /// Prototypes defined.
    pub prototypes: usize,
    /// Predefined setups.
    pub setups: Vec<SetupReport>,
}

/// One predefined setup of a module.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetupReport {
    /// The scenario id.
    pub scenario: String,
    /// The setup's file in the module.
    pub file: String,
    /// Counters it places.
    pub pieces: usize,
}
