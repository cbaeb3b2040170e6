//! `game.yaml`: what a game is made of.

use muster_hex::Grid;
use muster_rules::Category;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Assumed, Contradiction, Mention, Ref, Table};
use crate::Spanned;

/// `game.yaml`: title, sides, nationalities, unit vocabulary, notation and board.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// The game id; must equal the folder name (`gazala-scs`).
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// The title as printed.
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub title: String,
    /// The series, if the game belongs to one. Default: none.
    #[serde(default)]
    pub series: Option<String>,
    /// The rulebook the data is transcribed from.
    pub rulebook: String,
    /// Remarks about the transcription. Default: none.
    #[serde(default)]
    pub notes: Vec<Spanned<String>>,
    /// The sides.
    pub sides: Vec<SideDef>,
    /// Nationalities and their counter colours.
    pub nationalities: Vec<NationalityDef>,
    /// Unit sizes (echelons).
    pub unit_sizes: Vec<SizeDef>,
    /// Unit types.
    pub unit_types: Vec<TypeDef>,
    /// The values printed on counters, in printed order. Default: none.
    #[serde(default)]
    pub values: Vec<ValueDef>,
    /// Terrain types used by the maps. Default: none.
    #[serde(default)]
    pub terrain: Vec<TerrainDef>,
    /// Abbreviation tables the rulebook itself prints. Default: none.
    #[serde(default)]
    pub abbreviations: Vec<Abbreviation>,
    /// How setups and unit lists are written. Default: no type codes or marks.
    #[serde(default)]
    pub notation: Notation,
    /// The maps that form the playing surface. Default: none (the rulebook prints no
    /// hex grid, so there is nothing to place hexes on).
    #[serde(default)]
    pub board: Option<BoardDef>,
    /// The dice the game uses. Default: none stated.
    #[serde(default)]
    pub dice: Option<Dice>,
    /// What the table needs besides counters and maps: the turn track and the decks or
    /// chit cups. Default: none.
    #[serde(default)]
    pub play: Play,
    /// How counters print their values. Default: attack-defense-movement style with no
    /// values.
    #[serde(default)]
    pub counter_style: CounterStyle,
    /// Tables the rulebook prints for the whole game (Gazala 1942's Command Limits).
    /// Default: none.
    #[serde(default)]
    pub tables: Vec<Table>,
    /// Printed statements about the game that contradict each other. Default: none.
    #[serde(default)]
    pub contradictions: Vec<Contradiction>,
    /// The sequence of play, where the rulebook prints one. Default: none.
    #[serde(default)]
    pub sequence_of_play: Option<super::Sequence>,
    /// Units the rules name outside the setups (examples, special rules), as printed.
    /// Default: none.
    #[serde(default)]
    pub mentions: Vec<Mention>,
    /// What the VASSAL module says about itself. Default: version `1.0.0`.
    #[serde(default)]
    pub module: ModuleDef,
}

/// The VASSAL module of a game: what it says about itself, the play aids a game may leave
/// out, and the charts the publisher provides as images.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModuleDef {
    /// The module version, three numbers `major.minor.patch` (`1.2.0`), written to the
    /// module and shown on its about screen; raise it with every release, as VASSAL tells
    /// players which version a save was made with and keeps a module's sliced boards by
    /// name and version. Default: `1.0.0`.
    #[serde(default = "default_module_version")]
    #[schemars(with = "super::bounds::ModuleVersionSchema")]
    pub version: Spanned<String>,
    /// The publisher, named on the about screen. Default: none named.
    #[serde(default)]
    pub publisher: Option<String>,
    /// A dead pile per side, and an Eliminate command on every unit that sends it to its
    /// side's pile. Default: true.
    #[serde(default = "yes")]
    pub dead_piles: bool,
    /// A line-of-sight thread on the main map. Default: true.
    #[serde(default = "yes")]
    pub line_of_sight: bool,
    /// Charts the publisher provides as images (PNG, JPEG or GIF files in the game
    /// folder), shown in the chart window after the charts muster draws from the printed
    /// tables and the sequence of play. Default: none.
    #[serde(default)]
    pub charts: Vec<ImageChart>,
}

impl Default for ModuleDef {
    fn default() -> Self {
        ModuleDef {
            version: default_module_version(),
            publisher: None,
            dead_piles: true,
            line_of_sight: true,
            charts: Vec::new(),
        }
    }
}

/// A chart the publisher provides as an image.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImageChart {
    /// The chart's name as printed (`Combat Results Table`).
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// The image, relative to the game folder (`charts/crt.png`).
    pub image: Spanned<String>,
    /// The rule section the chart belongs to. Default: none.
    #[serde(default)]
    pub section: Option<String>,
}

fn yes() -> bool {
    true
}

fn default_module_version() -> Spanned<String> {
    Spanned::detached("1.0.0".to_string())
}

/// How this game's counters print their values.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterStyle {
    /// Templates for the line of values, first match wins; `{value}` is replaced by the
    /// value or `?` when it is not printed. Default: no value line.
    #[serde(default)]
    pub values: Vec<ValueTemplate>,
    /// Values printed left and right of the unit size (Gazala Line 1942: armor factor left,
    /// infantry factor right). Default: none.
    #[serde(default)]
    pub beside_size: Option<BesideSize>,
    /// The value whose colour shows the unit's mobility (Dance of War 1.3.6). Default: none.
    #[serde(default)]
    pub mobility_value: Option<String>,
    /// Rule section that describes the counters. Default: none.
    #[serde(default)]
    pub section: Option<String>,
    /// The game's own counter templates (SVG files under the game's folder), first match
    /// wins. Default: none (muster's shipped templates draw every counter).
    #[serde(default)]
    pub templates: Vec<super::CounterTemplate>,
    /// How fields of every template are styled, the shipped ones included; a template's
    /// own `fields` come after these. Default: as each template draws them.
    #[serde(default)]
    pub fields: Vec<super::FieldStyle>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A template for the value line of some counters.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueTemplate {
    /// The text, such as `{attack}-{defense}-{movement}`.
    pub text: Spanned<String>,
    /// Only for these unit types. Default: any.
    #[serde(default)]
    pub types: Vec<Ref>,
    /// Only for these categories. Default: any.
    #[serde(default)]
    pub category: Vec<Category>,
}

/// Values printed beside the unit size.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BesideSize {
    /// The value printed left of the size.
    pub left: Ref,
    /// The value printed right of the size.
    pub right: Ref,
}

/// A side of the conflict.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    /// Id (`axis`).
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// Name as printed (`Commonwealth`).
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// Other words the rulebook uses for the side (`CW`, `Allied`). Default: none.
    #[serde(default)]
    pub printed: Vec<String>,
    /// A band of this colour (`#rrggbb`) along the top edge of the side's counters, running
    /// into the bleed: what tells the side apart when its counter colours and an opposing
    /// side's are alike in lightness (a greyscale print, a colour-blind player). Default:
    /// none.
    #[serde(default)]
    #[schemars(with = "Option<super::bounds::RgbSchema>")]
    pub stripe: Option<Spanned<String>>,
}

/// A nationality and its counter colour.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NationalityDef {
    /// Id (`south-africa`).
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// Name as printed.
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// The side it fights for.
    pub side: Ref,
    /// The colour name as printed (`Reddish Brown`). Default: not printed.
    #[serde(default)]
    pub colour: Option<String>,
    /// The colour muster draws, `#rrggbb`. Default: a neutral grey.
    #[serde(default)]
    #[schemars(with = "Option<super::bounds::RgbSchema>")]
    pub rgb: Option<Spanned<String>>,
    /// Rule section that gives the colour. Default: none.
    #[serde(default)]
    pub section: Option<String>,
    /// Words that mark a unit of this nationality in printed lists (`(Brit)`). Default: none.
    #[serde(default)]
    pub printed: Vec<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A unit size (echelon).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SizeDef {
    /// Id (`battalion`).
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// Name as printed (`Battalion`).
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// The echelon mark drawn on counters (`II`, `X`, `KG`, `HQ`, or empty).
    pub symbol: String,
    /// Words that state this size in printed unit names (`Bn`, `Bns`). Default: none.
    #[serde(default)]
    pub printed: Vec<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A unit type.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeDef {
    /// Id (`infantry`).
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// Name as printed.
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// The NATO symbol drawn for it (`infantry`, `armor`, `hq`, …).
    #[schemars(with = "super::bounds::SymbolSchema")]
    pub symbol: Spanned<String>,
    /// What kind of piece units of this type are.
    pub category: Category,
    /// Words that state this type in printed unit names (`Inf`, `Arty`). Default: none.
    #[serde(default)]
    pub printed: Vec<String>,
    /// The type moves motorized (drawn with wheels). Default: false.
    #[serde(default)]
    pub motorized: bool,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A value printed on counters.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueDef {
    /// Id (`attack`).
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// Name as printed (`Attack Strength`).
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// Rule section that defines it. Default: none.
    #[serde(default)]
    pub section: Option<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A terrain type.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainDef {
    /// Id (`clear`).
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// Name as printed.
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// Fill colour, `#rrggbb`. Default: chosen by the renderer.
    #[serde(default)]
    #[schemars(with = "Option<super::bounds::RgbSchema>")]
    pub rgb: Option<Spanned<String>>,
    /// The symbol muster draws in every hex of this terrain and in its legend swatch, so
    /// the map reads in black and white. Default: none (the fill alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<TerrainSymbol>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A terrain symbol muster draws itself, in dark ink over the terrain's fill.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum TerrainSymbol {
    /// Palm trees (oasis).
    Palms,
    /// Blocks of buildings (town, village, city).
    Town,
    /// Scattered rocks (rough, broken ground).
    Rough,
    /// Contour arcs (hills).
    Hills,
    /// Tufts of grass over water lines (marsh, swamp).
    Marsh,
    /// Stipple (sand, dunes).
    Sand,
    /// Wave lines (sea, lake, water).
    Waves,
    /// Tree crowns (woods, forest).
    Woods,
    /// Peaks (mountains).
    Mountain,
    /// A ring with inward ticks (depression, basin below the surrounding ground).
    Depression,
}

impl TerrainSymbol {
    /// Every symbol, in declaration order.
    pub const ALL: [TerrainSymbol; 10] = [
        TerrainSymbol::Palms,
        TerrainSymbol::Town,
        TerrainSymbol::Rough,
        TerrainSymbol::Hills,
        TerrainSymbol::Marsh,
        TerrainSymbol::Sand,
        TerrainSymbol::Waves,
        TerrainSymbol::Woods,
        TerrainSymbol::Mountain,
        TerrainSymbol::Depression,
    ];

    /// The name used in `game.yaml` (`palms`).
    pub fn name(self) -> &'static str {
        match self {
            TerrainSymbol::Palms => "palms",
            TerrainSymbol::Town => "town",
            TerrainSymbol::Rough => "rough",
            TerrainSymbol::Hills => "hills",
            TerrainSymbol::Marsh => "marsh",
            TerrainSymbol::Sand => "sand",
            TerrainSymbol::Waves => "waves",
            TerrainSymbol::Woods => "woods",
            TerrainSymbol::Mountain => "mountain",
            TerrainSymbol::Depression => "depression",
        }
    }
}

/// One row of an abbreviation table the rulebook prints.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Abbreviation {
    /// The abbreviation (`SU`).
    pub abbr: String,
    /// Its meaning as printed (`Supply Units`).
    pub meaning: String,
    /// The table's section.
    pub section: String,
}

/// How printed unit lists are written in this game.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Notation {
    /// Type codes printed after a unit (`(I)` for infantry). Default: none.
    #[serde(default)]
    pub type_codes: Vec<TypeCode>,
    /// Marks for units that start on their reduced side (`(R)`, `(r)`). Default: none.
    #[serde(default)]
    pub reduced_marks: Vec<String>,
    /// Marks for independent units (`(Ind)`). Default: none.
    #[serde(default)]
    pub independent_marks: Vec<String>,
    /// Other parenthesised remarks printed after a unit (`(Dummy)`), kept as notes
    /// rather than read as a list of subordinate units. Default: none.
    #[serde(default)]
    pub remarks: Vec<String>,
    /// The rule section by which units joined with ` - ` in a setup row stand in one hex
    /// (`1 TS/1 SA - 1 DUKE/1 SA; 1 RNC/1 SA` is two stacks), so that each joined group
    /// is checked against the stacking rules like a hex. Default: ` - ` only separates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined_stacks: Option<String>,
    /// The rule section by which a formation printed alone in a setup row or a
    /// reinforcement (`DH Division`, `V Corps`) stands for every counter of it and of its
    /// subordinates, less those printed after `less` (`AH Division (less B-AH)`). Default:
    /// a formation printed alone names no counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_formations: Option<String>,
}

/// A printed type code.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeCode {
    /// The code as printed, without parentheses (`I`, `AA`).
    pub code: String,
    /// The unit types it stands for.
    pub types: Vec<Ref>,
    /// Rule section that defines it.
    pub section: String,
}

/// The maps that form the playing surface, joined into one board.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardDef {
    /// Hex orientation and stagger of the board.
    pub grid: Grid,
    /// The map sheets and where each lies.
    pub sheets: Vec<SheetPlacement>,
    /// How the placement of the sheets was worked out. Default: none.
    #[serde(default)]
    pub reasoning: Option<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// Where a map sheet lies on the board, in hexes from the board's top-left cell.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SheetPlacement {
    /// The map id (a file under `maps/`).
    pub map: Ref,
    /// Board column of the sheet's first column. Default: 0.
    #[serde(default)]
    pub col_offset: i32,
    /// Board row of the sheet's top row. Default: 0.
    #[serde(default)]
    pub row_offset: i32,
}

/// What the table needs besides counters and maps.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Play {
    /// The turn record track. Default: none printed.
    #[serde(default)]
    pub turns: Option<TurnTrack>,
    /// Decks the players draw from: chit cups and playing cards. Default: none.
    #[serde(default)]
    pub decks: Vec<DeckDef>,
}

/// The turn record track: a count of turns, a run of days, or named turns.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnTrack {
    /// How many turns, numbered from 1 (1 to 1000). Omit when the rulebook does not print
    /// it.
    #[serde(default, deserialize_with = "super::bounds::opt_int::<_, u32, 1, 1000>")]
    #[schemars(range(min = 1, max = 1000))]
    pub count: Option<u32>,
    /// One turn a day from this date to `last_day`, written as printed (`23 May`).
    #[serde(default)]
    #[schemars(with = "Option<super::bounds::DaySchema>")]
    pub first_day: Option<Spanned<String>>,
    /// The last day of the track (`22 June`).
    #[serde(default)]
    #[schemars(with = "Option<super::bounds::DaySchema>")]
    pub last_day: Option<Spanned<String>>,
    /// The turns' names as the track prints them, in order (`June 15 AM`, `June 15 PM`,
    /// …; `September 1941`; `Spring 1862`), for a track that names its turns by half-day,
    /// month or season. A setup's `Turn 3` is the third name. Default: none (numbered, or
    /// one a day).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<Spanned<String>>,
    /// Steps within each turn, such as the two deck shuffles of a card-driven game.
    #[serde(default)]
    pub steps: Vec<String>,
    /// Rule section that says so.
    pub section: String,
    /// What the rulebook leaves out.
    #[serde(default)]
    pub note: Option<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A deck or chit cup.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckDef {
    /// Name shown at the table.
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// Rule section that describes it.
    pub section: String,
    /// Markers (by id) that go in it, each as many times as its `count`.
    #[serde(default)]
    pub markers: Vec<Ref>,
    /// One chit per unit of these categories (a chit for every headquarters).
    #[serde(default)]
    pub one_per_unit_of: Vec<Category>,
    /// A standard 52-card deck with this many jokers.
    #[serde(default)]
    pub playing_cards: Option<PlayingCards>,
}

/// A standard deck of playing cards.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayingCards {
    /// Jokers added to the 52 cards (0 to 4).
    #[serde(deserialize_with = "super::bounds::int::<_, u8, 0, 4>")]
    #[schemars(range(min = 0, max = 4))]
    pub jokers: u8,
}

/// The dice a game uses.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dice {
    /// How many dice (1 to 20).
    #[serde(deserialize_with = "super::bounds::int::<_, u8, 1, 20>")]
    #[schemars(range(min = 1, max = 20))]
    pub count: u8,
    /// Faces per die (2 to 100).
    #[serde(deserialize_with = "super::bounds::int::<_, u8, 2, 100>")]
    #[schemars(range(min = 2, max = 100))]
    pub sides: u8,
    /// Rule section that says so.
    pub section: String,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}
