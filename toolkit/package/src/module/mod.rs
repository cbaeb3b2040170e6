//! A game as a VASSAL 3.7 module: the map with one board per printed sheet (each with a
//! zoned hex grid named as printed), the table of holding boxes and decks, the palette,
//! prototypes, dice, turn track, predefined setups and the rules the checker needs.

mod assemble;
mod boards;
mod build_file;
pub mod charts;
pub mod dead_piles;
pub mod documentation;
mod files;
pub mod gpid;
pub mod keys;
pub mod live_rules;
mod pieces;
mod setups;
pub mod table;
pub mod turns;
pub mod web;

use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

use muster_check::Solution;
use muster_model::Game;
use muster_render::FaceArts;
pub use muster_render::Keep;

pub use assemble::build;
pub use boards::{BoardPlan, MAIN_MAP, TABLE_MAP};
pub use dead_piles::{DeadPile, DeadPiles};
pub use files::Drawn;
pub use pieces::{Prototype, Slot, image_name};
pub use setups::{PlacedPiece, SetupFile};

use muster_rules::Turn;
use muster_rules::embedded::{FORMAT, RulesetDoc};

use crate::vassal::xml::Element;

/// The VASSAL version modules are written for: the oldest 3.7 release, so no 3.7.x warns.
pub const VASSAL_VERSION: &str = "3.7.0";

/// One rendered map sheet.
#[derive(Debug, Clone)]
pub struct SheetImage {
    /// The sheet (map) id.
    pub sheet: String,
    /// The PNG, or its origin when its drawer holds it ([`Drawn::Held`]).
    pub png: Drawn,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels per inch the sheet was rendered at.
    pub dpi: f64,
    /// What the image's content is known by, in hex (a digest of its bytes, or of what
    /// draws them alike every time): it names the image in the module.
    pub digest: String,
}

/// Settings for a module (its version comes from `game.yaml`'s `module.version`).
#[derive(Debug, Clone, Copy)]
pub struct ModuleOptions<'a> {
    /// Counter size in inches (drawn at the maps' resolution).
    pub counter_in: f64,
    /// The game's counter sides, drawn.
    pub arts: &'a FaceArts,
    /// The release's date (`2026-12-07`), shown in the about screen and the help.
    pub released: &'a str,
    /// What changed since the last release, for the help's "What's new" page, when the
    /// build was told the last release.
    pub whats_new: Option<&'a muster_model::changes::Changes>,
}

/// Why a module could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageError(pub String);

impl std::fmt::Display for PackageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PackageError {}

/// The files of a module and what its setups hold.
#[derive(Debug)]
pub struct Module {
    /// Archive path → bytes.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Archive path → origin of each image drawn with one ([`Drawn`]).
    pub origins: BTreeMap<String, String>,
    /// The archive paths of the images their drawer holds ([`Drawn::Held`]): files of the
    /// module whose bytes are not in `files`, each with its origin in `origins`.
    pub held: BTreeSet<String>,
    /// One entry per scenario.
    pub setups: Vec<SetupFile>,
    /// Palette slots.
    pub slots: usize,
    /// Prototypes defined.
    pub prototypes: usize,
    /// The browser table.
    pub web: web::Web,
    /// The rules checked live in VASSAL, and what of them only approximately.
    pub live_rules: LiveRulesReport,
}

/// What the module checks live in VASSAL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LiveRulesReport {
    /// The checks, as `section (kind)`.
    pub checked: Vec<String>,
    /// What could not be stated exactly, and what is checked instead, in words.
    pub approximated: Vec<String>,
}

/// The module's path of its rules as the embedded checker reads them (the ruleset as JSON).
pub const RULESET: &str = "rules/ruleset.json";

/// The module's path of the embedded rules checker, compiled for WebAssembly.
pub const CHECKER: &str = "rules/checker.wasm";

/// The module's path of what its release changed since the last one (the JSON of
/// [`muster_model::changes::Changes`]), when the build was told the last release.
pub const CHANGES: &str = "rules/changes.json";

/// Draws an SVG as a PNG of the given size and resolution. The caller chooses how
/// (directly, or through a cache).
pub type Draw<'a> = dyn Fn(&ToDraw) -> Result<Drawn, String> + Sync + 'a;

/// An image for a [`Draw`] callback: an SVG at `width` × `height` pixels recording `dpi`,
/// known by the digest of its bytes and made only when it has to be drawn.
pub struct ToDraw<'a> {
    /// What the image is, for messages.
    pub label: &'a str,
    /// The BLAKE3 digest of the SVG's bytes.
    pub digest: [u8; 32],
    /// Makes the SVG.
    pub svg: &'a (dyn Fn() -> String + Sync),
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The resolution the PNG records.
    pub dpi: u32,
}

/// `moduledata`: name, version and the VASSAL version, with a fixed save date.
pub fn moduledata(game: &Game) -> String {
    Element::new("data")
        .attr("version", "1")
        .child(Element::new("version").text(game.meta.module.version.v.clone()))
        .child(Element::new("extra1"))
        .child(Element::new("extra2"))
        .child(Element::new("VassalVersion").text(VASSAL_VERSION))
        .child(Element::new("dateSaved").text("0"))
        .child(
            Element::new("description")
                .text(format!("{} (from {})", game.meta.title, game.meta.rulebook)),
        )
        .child(Element::new("name").text(game.meta.title.clone()))
        .document()
}

/// The names of the turn track's turns, when it has one a day (`23 May`, …); empty for a
/// numbered track. The module's turn tracker and the ruleset both read them.
pub fn turn_names(game: &Game) -> Vec<String> {
    game.meta.play.turns.as_ref().and_then(turns::day_names).unwrap_or_default()
}

/// The game's ruleset document: its stacking and placement rules, the facts about each
/// counter and hex they read, and for each scenario where every counter may stand and
/// where its setup starts it (from the scenario's solution, as the module's setup does),
/// for the embedded checker.
pub fn ruleset_doc(game: &Game, solutions: &[Solution]) -> RulesetDoc {
    let units = game
        .units
        .iter()
        .chain(&game.markers)
        .map(|u| muster_check::solve::unit_facts(game, u))
        .collect();
    let hexes = game
        .board
        .as_ref()
        .map(|b| b.cells().filter_map(|c| b.label(c)).collect())
        .unwrap_or_default();
    let names = turn_names(game);
    // Scenario by scenario, side by side.
    let scenarios = solutions
        .par_iter()
        .map(|solution| {
            let id = &solution.scenario;
            let mut allowed = muster_check::allowed_in(game, id, solution);
            for (unit, starts) in setups::starts(game, solution, &names) {
                allowed.entry(unit).or_default().starts = starts;
            }
            (id.clone(), allowed)
        })
        .collect();
    let first_turns = game
        .scenarios
        .iter()
        .filter_map(|s| {
            Some((s.id.v.clone(), Turn::new(&s.first_turn.as_ref()?.v, &names)))
        })
        .collect();
    RulesetDoc {
        format: FORMAT.into(),
        game: game.id.clone(),
        title: game.meta.title.clone(),
        rules: muster_check::ruleset(game),
        terrain: muster_check::rule_terrain(game),
        units,
        hexes,
        scenarios,
        dead_piles: dead_piles::piles(game),
        turn_names: names,
        first_turns,
        prohibited: muster_check::region::prohibited_hexes(game),
    }
}

/// `rules/ruleset.json`: [`ruleset_doc`] as JSON.
pub fn ruleset_json(
    game: &Game,
    solutions: &[Solution],
) -> Result<Vec<u8>, PackageError> {
    document_json(&ruleset_doc(game, solutions))
}

fn document_json(doc: &RulesetDoc) -> Result<Vec<u8>, PackageError> {
    let mut bytes = serde_json::to_vec(doc).map_err(|e| PackageError(e.to_string()))?;
    bytes.push(b'\n');
    Ok(bytes)
}
