//! The publisher's own design and art, as the YAML files name them: counter templates and
//! how their fields are styled, image files for counter sides, sheets of counter art cut
//! by a grid, and painted map images with the reference hexes that fit the grid to them.
//! Every path is relative to the game's folder (`art/unit.svg`).

use muster_rules::Category;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Ref;
use crate::Spanned;

/// A counter template: an SVG whose fields muster fills from the manifest, and the
/// counters it is for. The first template whose filters all match a counter side draws it;
/// sides no template matches are drawn with the template shipped with muster.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterTemplate {
    /// The SVG file (`art/unit.svg`).
    pub file: Spanned<String>,
    /// Only for counters of this side. Default: any side.
    #[serde(default)]
    pub side: Option<Ref>,
    /// Only for these categories (`combat`, `hq`, `marker`, ...). Default: any.
    #[serde(default)]
    pub category: Vec<Category>,
    /// Only for these unit types. Default: any.
    #[serde(default)]
    pub types: Vec<Ref>,
    /// Only for this side of the counter. Default: both.
    #[serde(default)]
    pub face: Option<FaceName>,
    /// How fields of this template are styled, over `counter_style.fields`. Default: as
    /// the template draws them.
    #[serde(default)]
    pub fields: Vec<FieldStyle>,
}

/// A side of a counter, as the YAML files name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FaceName {
    /// The front (full strength).
    Front,
    /// The back (reduced strength).
    Back,
}

/// A font weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FontWeight {
    /// Regular.
    Normal,
    /// Bold.
    Bold,
}

/// What happens to text that does not fit its field even at its smallest size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Overflow {
    /// Drawn at the smallest size and reported as a warning with the counter's line.
    Report,
    /// Left off the counter and reported as information.
    Omit,
}

/// How one field of a template is drawn: its size, weight, place and whether it is drawn
/// at all, and the rule that fits long text. Lengths are in the template's own units.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldStyle {
    /// The field (`designation`, `formation`, `values`, a counter value id, ...).
    pub field: Spanned<String>,
    /// Font size. Default: the template's.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub size: Option<Spanned<f64>>,
    /// Font weight. Default: the template's.
    #[serde(default)]
    pub weight: Option<FontWeight>,
    /// Horizontal position of the text's anchor. Default: the template's.
    #[serde(default)]
    pub x: Option<f64>,
    /// Baseline of the text. Default: the template's.
    #[serde(default)]
    pub y: Option<f64>,
    /// Whether the field is drawn. Default: true.
    #[serde(default)]
    pub visible: Option<bool>,
    /// Width the text must fit in. Default: the template's `data-muster-fit-width`, or
    /// the room between the anchor and the template's edges.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub fit_width: Option<Spanned<f64>>,
    /// Height the lines of a text broken into two or three must fit in: they shrink
    /// (not below `min_size`) until they do. Default: the template's
    /// `data-muster-fit-height`, or any height.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub fit_height: Option<Spanned<f64>>,
    /// Smallest size long text shrinks to. Default: the template's
    /// `data-muster-min-size`, or the field's size (text does not shrink).
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub min_size: Option<Spanned<f64>>,
    /// Lines the text may break into at spaces, 1, 2 or 3. Default: the template's
    /// `data-muster-lines`, or 1.
    #[serde(default)]
    #[schemars(range(min = 1, max = 3))]
    pub lines: Option<Spanned<u8>>,
    /// What happens when it still does not fit. Default: the template's
    /// `data-muster-overflow`, or `report`.
    #[serde(default)]
    pub overflow: Option<Overflow>,
}

/// Image files that show a counter's sides instead of drawing them: PNG, JPEG or SVG.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FaceFiles {
    /// The front. Default: drawn.
    #[serde(default)]
    pub front: Option<Spanned<String>>,
    /// The back. Default: drawn.
    #[serde(default)]
    pub back: Option<Spanned<String>>,
}

/// A sheet of counter art (a scan or export of a printed counter sheet, PNG or JPEG) cut
/// into faces by a grid: where the first face is, how large a face is and the gutters
/// between faces, in the image's pixels, and which counter each cell holds.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtSheet {
    /// The image of the fronts.
    pub file: Spanned<String>,
    /// Top-left corner of the first cell's face, in pixels.
    pub origin: Spanned<[f64; 2]>,
    /// Width and height of one face, in pixels.
    pub cell: Spanned<[f64; 2]>,
    /// Gap between neighbouring faces, across and down, in pixels. Default: none.
    #[serde(default)]
    pub gutter: [f64; 2],
    /// How far the grid is turned clockwise in the image (a scan laid slightly askew), in
    /// degrees, about the origin (-360 to 360). Default: 0.
    #[serde(default, deserialize_with = "super::bounds::degrees")]
    #[schemars(range(min = -360.0, max = 360.0))]
    pub rotation: f64,
    /// The counters, row by row: each a counter id (as `muster inspect` lists them), or
    /// `~` for a cell that holds none.
    pub rows: Vec<Vec<Option<Spanned<String>>>>,
    /// The image of the backs, when the sheet has them. Default: none (the backs are
    /// drawn).
    #[serde(default)]
    pub back: Option<ArtSheetBack>,
}

/// The backs of a sheet of counter art.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArtSheetBack {
    /// The image of the backs.
    pub file: Spanned<String>,
    /// Top-left corner of the back image's top-left cell, in pixels. Default: the
    /// fronts' grid mirrored across the image.
    #[serde(default)]
    pub origin: Option<Spanned<[f64; 2]>>,
    /// How far the back image's grid is turned clockwise, in degrees (-360 to 360).
    /// Default: the fronts'.
    #[serde(default, deserialize_with = "super::bounds::opt_degrees")]
    #[schemars(range(min = -360.0, max = 360.0))]
    pub rotation: Option<f64>,
    /// The back of a counter lies in the mirrored column (the sheet turned over on its long
    /// edge, as printed duplex): column `c` of the fronts is column `columns - 1 - c` of the
    /// backs. Default: true.
    #[serde(default = "yes")]
    pub mirrored: bool,
}

fn yes() -> bool {
    true
}

/// A painted map image the sheet is drawn over, and the reference hexes that fit the hex
/// grid to it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapImage {
    /// The image (PNG or JPEG).
    pub file: Spanned<String>,
    /// Its resolution in pixels per inch. Default: its width over the sheet's printed
    /// width.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub dpi: Option<Spanned<f64>>,
    /// Two or more hexes whose centres the image shows, with the pixel of each centre.
    pub hexes: Vec<ReferenceHex>,
    /// Largest distance, in pixels, allowed between a reference centre and the centre of
    /// the fitted grid. Default: 1.5.
    #[serde(default = "tolerance")]
    pub tolerance_px: f64,
    /// What muster draws over the image. Default: nothing (the image as painted).
    #[serde(default)]
    pub draw: Vec<MapLayer>,
}

fn tolerance() -> f64 {
    1.5
}

/// A hex of a painted map and where its centre is in the image.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReferenceHex {
    /// The printed hex label.
    pub hex: Spanned<String>,
    /// The pixel of its centre, x then y from the image's top-left corner.
    pub at: Spanned<[f64; 2]>,
}

/// What muster may draw over a painted map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MapLayer {
    /// Terrain fills and symbols.
    Terrain,
    /// Hex outlines.
    Grid,
    /// Hex numbers.
    Numbers,
    /// Map features (roads, hexsides, places, victory hexes, ...).
    Features,
    /// The legend and title.
    Legend,
}
