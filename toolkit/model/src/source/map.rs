//! `maps/<id>.yaml`: one printed map sheet as hex data.

use muster_hex::{Numbering, Sheet};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Assumed, Printed, Ref};
use crate::Spanned;

/// A printed map sheet: its size, grid, numbering, terrain and features.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// Id (`a`); the file is `maps/<id>.yaml`.
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// Name as printed (`Map A`).
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// Rule section that describes the map. Default: none.
    #[serde(default)]
    pub section: Option<String>,
    /// Printed physical size. Default: not printed (rendered from the hex size).
    #[serde(default)]
    pub size: Option<Spanned<PhysicalSize>>,
    /// Distance between opposite flat sides of a hex, in inches.
    #[schemars(range(min = 0.1, max = 10.0))]
    pub hex_size_in: Spanned<f64>,
    /// Number of hex columns.
    #[schemars(range(min = 1, max = 2000))]
    pub columns: Spanned<u32>,
    /// Number of hex rows.
    #[schemars(range(min = 1, max = 2000))]
    pub rows: Spanned<u32>,
    /// How hexes are numbered, as printed.
    pub numbering: Spanned<Numbering>,
    /// How hex numbers are printed on the map. Default: every hex, none emphasised.
    #[serde(default)]
    pub hex_numbers: HexNumbers,
    /// How the grid was worked out from the rulebook, where it does not print it.
    #[serde(default)]
    pub reasoning: Vec<String>,
    /// Terrain. Default: all unknown.
    #[serde(default)]
    pub terrain: TerrainLayer,
    /// Everything the rules place on the map. Default: none.
    #[serde(default)]
    pub features: Vec<Feature>,
    /// The painted map image the sheet is drawn over, with the reference hexes that fit
    /// the grid to it. Default: none (muster draws the whole sheet).
    #[serde(default)]
    pub image: Option<super::MapImage>,
    /// Where the legend's top-left corner goes, in inches from the sheet's top-left corner.
    /// Default: the first place along the sheet's edges (a corner first) where it covers no
    /// hex.
    #[serde(default)]
    pub legend_at: Option<Spanned<[f64; 2]>>,
    /// The sheets this one continues, printed to be laid edge to edge with it
    /// (`[{edge: bottom, map: b}]`): no margin or frame on that edge, and the grid runs to
    /// it, so that the hexes the edge cuts are completed on the other sheet. Each must be
    /// a map the board places beside this one on that edge. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joins: Vec<MapJoin>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// How a map prints its hex numbers.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexNumbers {
    /// Every hex carries its number. Default: true.
    #[serde(default = "yes")]
    pub every_hex: bool,
    /// Rows whose printed number is a multiple of this are emphasised as gridlines
    /// (SCS 0.4.1.1: "Each fifth hex (xx.05, xx.10, xx.15) has a printed hex number").
    /// Default: none.
    #[serde(default, deserialize_with = "super::bounds::opt_int::<_, u32, 1, 100>")]
    #[schemars(range(min = 1, max = 100))]
    pub emphasise_every: Option<u32>,
    /// Map edges the numbers are printed along, rather than in each hex (with
    /// `every_hex: false`): column numbers along `top` and `bottom`, row numbers down
    /// `left` and `right`, each in line with its column or row. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<SheetEdge>,
    /// Rule section that says how numbers are printed. Default: none.
    #[serde(default)]
    pub section: Option<String>,
}

/// A sheet that continues a map's sheet beyond one of its edges.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapJoin {
    /// The edge of this sheet that the other continues.
    pub edge: SheetEdge,
    /// The id of the map beyond the edge.
    pub map: Spanned<String>,
}

impl MapJoin {
    /// Whether the board places `other` beside `sheet` on this join's edge: its first row
    /// (or column) next to the sheet's last (or first), the two in line.
    pub fn beside(&self, sheet: &Sheet, other: &Sheet) -> bool {
        let (rows, cols) = (sheet.rows as i32, sheet.cols as i32);
        let (other_rows, other_cols) = (other.rows as i32, other.cols as i32);
        match self.edge {
            SheetEdge::Bottom => {
                other.row_offset == sheet.row_offset + rows
                    && other.col_offset == sheet.col_offset
            }
            SheetEdge::Top => {
                sheet.row_offset == other.row_offset + other_rows
                    && other.col_offset == sheet.col_offset
            }
            SheetEdge::Right => {
                other.col_offset == sheet.col_offset + cols
                    && other.row_offset == sheet.row_offset
            }
            SheetEdge::Left => {
                sheet.col_offset == other.col_offset + other_cols
                    && other.row_offset == sheet.row_offset
            }
        }
    }
}

/// An edge of a map sheet: where another sheet joins it, or where hex numbers are
/// printed along it (column numbers above or below the grid, row numbers left or right).
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
pub enum SheetEdge {
    /// The top edge.
    Top,
    /// The bottom edge.
    Bottom,
    /// The left edge.
    Left,
    /// The right edge.
    Right,
}

fn yes() -> bool {
    true
}

impl Default for HexNumbers {
    fn default() -> Self {
        HexNumbers {
            every_hex: true,
            emphasise_every: None,
            edges: vec![],
            section: None,
        }
    }
}

/// Printed physical size of a sheet.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhysicalSize {
    /// Width in inches.
    #[schemars(extend("exclusiveMinimum" = 0), range(max = 200.0))]
    pub width_in: f64,
    /// Height in inches.
    #[schemars(extend("exclusiveMinimum" = 0), range(max = 200.0))]
    pub height_in: f64,
    /// Rule section that states it.
    #[serde(default)]
    pub section: Option<String>,
}

/// Terrain of every hex: a default and exceptions.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainLayer {
    /// Terrain of hexes not listed. Default: `unknown`.
    #[serde(default = "unknown")]
    pub default: Ref,
    /// Hexes of other terrain. Default: none.
    #[serde(default)]
    pub hexes: Vec<TerrainHexes>,
    /// Terrain that shares its hexes with each hex's own terrain (a stream through a town
    /// hex, a village in a woods hex), drawn inside the hex over it. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<TerrainHexes>,
}

fn unknown() -> Ref {
    Spanned::detached("unknown".to_string())
}

impl Default for TerrainLayer {
    fn default() -> Self {
        TerrainLayer { default: unknown(), hexes: vec![], also: vec![] }
    }
}

/// Hexes of one terrain.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainHexes {
    /// The terrain id.
    pub terrain: Ref,
    /// Printed hex labels.
    pub hexes: Vec<Spanned<String>>,
    /// Rule section that places it. Default: none.
    #[serde(default)]
    pub section: Option<String>,
}

/// What a map feature is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FeatureKind {
    /// A minefield hex.
    Minefield,
    /// A hexside minefield (mined hex line).
    MinefieldHexside,
    /// A fortification line on hexsides.
    Fortification,
    /// An entrenchment hex.
    Entrenchment,
    /// An anti-tank ditch.
    AtDitch,
    /// An escarpment hexside.
    Escarpment,
    /// A cliff hexside.
    Cliff,
    /// A road through hex centres.
    Road,
    /// A track or trail through hex centres.
    Track,
    /// A railway through hex centres.
    Railway,
    /// A river along hexsides.
    River,
    /// A bridge: in a hex (`hexes`), or on the hexsides where a road crosses a river
    /// (`hexsides`).
    Bridge,
    /// A named place.
    Place,
    /// A victory point hex.
    VictoryHex,
    /// An entry area for reinforcements.
    EntryArea,
    /// A supply source.
    SupplySource,
    /// A fortified box.
    Box,
    /// A map edge used for exit or entry.
    MapEdge,
    /// A coastal hex.
    Coast,
    /// A sea hex.
    Sea,
}

/// Something the rules place on the map.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Feature {
    /// What it is.
    pub kind: FeatureKind,
    /// Its printed name (`Tobruk`, `A`). Default: none.
    #[serde(default)]
    pub name: Option<String>,
    /// The side it belongs to (minefield owner, supply source user). Default: none.
    #[serde(default)]
    pub side: Option<Ref>,
    /// Printed hex labels (in path order for roads). Empty when the rulebook does not
    /// print where it lies. Default: none.
    #[serde(default)]
    pub hexes: Vec<Spanned<String>>,
    /// Where the rulebook says it lies, as printed (`within 3 hexes of hex 2905`), when it
    /// gives a place rather than a list of hexes. Parsed like a setup location. Default: none.
    #[serde(default)]
    pub location: Option<Spanned<String>>,
    /// Hexsides it lies on. Default: none.
    #[serde(default)]
    pub hexsides: Vec<HexsideRef>,
    /// Width of a river's line in inches, where the map draws rivers of different widths
    /// (`0.08`); rivers only. Default: muster's river width, 8% of the hex size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.01, max = 0.5))]
    pub width_in: Option<Spanned<f64>>,
    /// Printed value (victory points `3/1`). Default: none.
    #[serde(default)]
    pub value: Option<Printed>,
    /// Rule section that places it.
    pub section: String,
    /// The rules state this as map errata: the printed map is wrong here. Default: false.
    #[serde(default)]
    pub erratum: bool,
    /// A remark (where the rulebook leaves the location out, say so). Default: none.
    #[serde(default)]
    pub note: Option<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A hexside named by a hex and a compass direction.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexsideRef {
    /// Printed hex label.
    pub hex: Spanned<String>,
    /// Compass direction from that hex (`n`, `ne`, `se`, `s`, `sw`, `nw` on flat-top
    /// grids; `ne`, `e`, `se`, `sw`, `w`, `nw` on pointy-top grids).
    #[schemars(with = "super::bounds::DirectionSchema")]
    pub side: Spanned<String>,
}
