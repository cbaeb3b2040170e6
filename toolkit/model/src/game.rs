//! The validated game model that every later stage reads.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use muster_hex::Board;
use muster_hex::pixel::Layout;
use muster_rules::Category;
use serde::Serialize;

use crate::Spanned;
use crate::art::{FaceArt, RasterArt};
use crate::notation::{LocationExpr, Marks, NameParts, UnitItem, Vocabulary};
use crate::source::MapLayer;
use crate::source::{
    CountersFile, GameFile, GroupKind, MapFile, Marking, Mobility, OobFile, RulesFile,
    ScenarioFile,
};
use crate::template::Template;

/// A game that loaded without errors. Only the loader can build one.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Game {
    /// The game id (`gazala-scs`).
    pub id: String,
    /// The folder it was loaded from.
    pub dir: PathBuf,
    /// `game.yaml`.
    pub meta: GameFile,
    /// `oob.yaml`.
    pub oob: OobFile,
    /// `counters.yaml`.
    pub counters: CountersFile,
    /// `rules.yaml`.
    pub rules: RulesFile,
    /// `maps/*.yaml`, in board order.
    pub maps: Vec<MapFile>,
    /// `scenarios/*.yaml`, sorted by id.
    pub scenarios: Vec<ScenarioFile>,
    /// The maps joined into one board, when the game has a printed grid.
    pub board: Option<Board>,
    /// Every formation, parents before subordinates, in printed order.
    pub formations: Vec<Formation>,
    /// Every unit counter, in manifest order.
    pub units: Vec<Unit>,
    /// Every marker counter.
    pub markers: Vec<Unit>,
    /// Each scenario's printed placements, parsed.
    pub parsed: Vec<ParsedScenario>,
    /// The marks the game prints in unit lists.
    pub marks: Marks,
    /// The type and size words of the game.
    pub vocabulary: Vocabulary,
    /// `errata.yaml`: errata the publisher acknowledges.
    pub known_errata: crate::source::KnownErrata,
    /// The documents under `docs/`, by file name.
    pub documents: Vec<crate::assets::Document>,
    /// The images of `module.charts`, in its order.
    pub chart_images: Vec<crate::assets::Image>,
    /// The game's own counter templates, parsed, one for each of
    /// `meta.counter_style.templates`.
    pub templates: Vec<Arc<Template>>,
    /// The painted image of each map of `maps` that names one, with its fitted grid.
    pub map_art: Vec<Option<Arc<MapArt>>>,
    /// Where each unit and formation is in `units` and `formations`, by id, so that a
    /// look-up by id does not grow with the game.
    pub(crate) index: Index,
}

/// Positions of units and formations by id.
#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    units: std::collections::HashMap<String, usize>,
    formations: std::collections::HashMap<String, usize>,
}

impl Index {
    /// The index of a game's units and formations.
    pub(crate) fn new(units: &[Unit], formations: &[Formation]) -> Index {
        Index {
            units: units.iter().enumerate().map(|(i, u)| (u.id.clone(), i)).collect(),
            formations: formations
                .iter()
                .enumerate()
                .map(|(i, f)| (f.id.clone(), i))
                .collect(),
        }
    }
}

/// A painted map image and the grid fitted to its reference hexes.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MapArt {
    /// The image.
    pub image: Arc<RasterArt>,
    /// Its resolution, pixels per inch.
    pub dpi: f64,
    /// The fitted grid, in the image's pixels: `layout_px.centre(cell)` is the pixel of a
    /// board cell's centre.
    pub layout_px: Layout,
    /// How far each reference hex's given centre is from the fitted one, in pixels, in
    /// the order the map file lists them.
    pub misses_px: Vec<f64>,
    /// What muster draws over the image.
    pub draw: Vec<MapLayer>,
}

/// A formation of the order of battle.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Formation {
    /// Id.
    pub id: String,
    /// The heading as printed.
    pub printed: Spanned<String>,
    /// Other printed names.
    pub also_printed: Vec<Spanned<String>>,
    /// Rule section.
    pub section: Option<String>,
    /// Side id.
    pub side: String,
    /// Nationality id.
    pub nationality: Option<String>,
    /// Size id.
    pub size: Option<String>,
    /// Printed name of its HQ counter.
    pub hq: Option<Spanned<String>>,
    /// A printed grouping of independent units rather than a formation.
    pub independent: bool,
    /// The parent formation's id.
    pub parent: Option<String>,
    /// A transcription remark.
    pub note: Option<String>,
    /// Fields the rulebook does not print (`nationality`, `size`, `side`, `hq`), each with
    /// why it was chosen; a subordinate shares its parent's assumed nationality.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub assumed: BTreeMap<String, String>,
}

/// A counter of the manifest with everything resolved.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Unit {
    /// Id, unique in the game.
    pub id: String,
    /// The printed name.
    pub printed: Spanned<String>,
    /// The printed name split into designation, type and size.
    pub name: NameParts,
    /// Unit type id, when known.
    pub unit_type: Option<String>,
    /// Size id, when known.
    pub size: Option<String>,
    /// What kind of piece it is.
    pub category: Category,
    /// Side id (empty for markers of both sides).
    pub side: String,
    /// Nationality id.
    pub nationality: Option<String>,
    /// Formation id.
    pub formation: Option<String>,
    /// Rule section of the manifest entry.
    pub section: Option<String>,
    /// Steps, when printed.
    pub steps: Option<u8>,
    /// How many identical counters.
    pub count: u32,
    /// Front values by value id (missing: unknown).
    pub front: BTreeMap<String, String>,
    /// Back values by value id (missing: unknown).
    pub back: BTreeMap<String, String>,
    /// Printed on one side only.
    pub single_sided: bool,
    /// Special markings.
    pub markings: Vec<Marking>,
    /// Movement colour.
    pub mobility: Option<Mobility>,
    /// Text on a marker's back.
    pub back_text: Option<String>,
    /// What its back shows when it is a state, not a step loss (`Disordered`); none for a
    /// reduced side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back_state: Option<String>,
    /// A transcription remark.
    pub note: Option<String>,
    /// Values the rulebook does not print, by the field names of `counters.yaml` (`type`,
    /// `size`, `nationality`, `formation`, `steps`, `front.movement`, …), each with why it
    /// was chosen: the counter's own markers, its group's, its formation's nationality, and
    /// a unit type or size that is assumed as a whole.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub assumed: BTreeMap<String, String>,
    /// The publisher's art for the front and the back, where a side is not drawn.
    #[serde(skip)]
    pub art: [Option<FaceArt>; 2],
}

/// A scenario's placements, parsed from the printed notation.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ParsedScenario {
    /// Scenario id.
    pub id: String,
    /// Every at-start, reinforcement and group placement in printed order.
    pub placements: Vec<ParsedPlacement>,
    /// The values its tables of starting values give, by counter id and value id.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub starting_values: BTreeMap<String, BTreeMap<String, StartValue>>,
}

/// A value a scenario starts a counter with, and the rule section that prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StartValue {
    /// The value as printed (`17`).
    pub value: String,
    /// The rule section of the table.
    pub section: String,
}

/// Where a placement comes from in the scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlacementKind {
    /// At-start setup.
    Setup,
    /// A reinforcement.
    Reinforcement,
    /// An off-map group.
    Group(GroupKind),
}

/// One printed placement line, parsed.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ParsedPlacement {
    /// What kind of placement.
    pub kind: PlacementKind,
    /// Side id.
    pub side: String,
    /// Rule section.
    pub section: String,
    /// The printed heading it falls under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    /// The turn as printed (reinforcements).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The entry area as printed (reinforcements).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<Spanned<String>>,
    /// The group name (groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The location as printed, or, for a structured location, its hexes (`0606`,
    /// `within 2 of 0505, 0606`) at the first hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_text: Option<Spanned<String>>,
    /// The location, parsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<LocationExpr>,
    /// The units.
    pub units: ParsedUnits,
    /// The counter values its printed strengths give, in order (a set-up table's
    /// `strength` column); empty for all the game's values (`4-1-7`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub strength_values: Vec<String>,
}

/// A printed unit list and its parse.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ParsedUnits {
    /// Each printed string (one for a printed list, one per entry for a list).
    pub printed: Vec<Spanned<String>>,
    /// The parsed items; `items[k]` came from `printed[origin[k]]`.
    pub items: Vec<UnitItem>,
    /// Which printed string each item came from.
    pub origin: Vec<usize>,
}

impl Game {
    /// A unit by id.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        match self.index.units.get(id).and_then(|&i| self.units.get(i)) {
            Some(u) if u.id == id => Some(u),
            // The units were changed after loading: look them through.
            Some(_) => self.units.iter().find(|u| u.id == id),
            None => None,
        }
    }

    /// A formation by id.
    pub fn formation(&self, id: &str) -> Option<&Formation> {
        match self.index.formations.get(id).and_then(|&i| self.formations.get(i)) {
            Some(f) if f.id == id => Some(f),
            Some(_) => self.formations.iter().find(|f| f.id == id),
            None => None,
        }
    }

    /// The values a scenario's tables of starting values give a counter, by value id.
    pub fn starting_values(
        &self,
        scenario: &str,
        unit: &str,
    ) -> Option<&BTreeMap<String, StartValue>> {
        self.parsed.iter().find(|p| p.id == scenario)?.starting_values.get(unit)
    }

    /// Placements of a scenario.
    pub fn placements(&self, scenario: &str) -> &[ParsedPlacement] {
        self.parsed.iter().find(|p| p.id == scenario).map_or(&[], |p| &p.placements)
    }
}
