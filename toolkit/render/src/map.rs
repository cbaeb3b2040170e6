//! Map scenes: one printed sheet drawn from hex data, numbered as the game prints it.

use std::collections::{BTreeMap, BTreeSet};

use muster_hex::pixel::Layout;
use muster_hex::{Board, Cell, Direction, Sheet};
use muster_model::source::MapLayer;
use muster_model::source::{Feature, FeatureKind, MapFile, SheetEdge, TerrainSymbol};
use muster_model::{Diagnostic, FindingKind, Game, MapArt, hex_terrain};

use crate::edge_numbers;
use crate::legend;
use crate::map_joins;
use crate::map_labels::{self, Labels, Rect};
use crate::map_marks::{self, Swatch, feature_style};
use crate::map_symbols;
use crate::metrics::Weight;
use crate::svg::{Svg, n};

/// Pixels per inch of SVG user units (CSS pixels).
const PX: f64 = 96.0;
/// Margin around the grid when the sheet size is not printed, in inches.
const MARGIN_IN: f64 = 0.5;
/// Fill of hexes whose terrain the rulebook does not give.
const UNKNOWN_FILL: &str = "#f3efe4";
/// Size of the inset of the first terrain a hex also holds, as a share of the hex.
const ALSO_INSET: f64 = 0.55;
/// Size of each further inset, as a share of the one before it.
const ALSO_STEP: f64 = 0.7;
/// Fill of a terrain type that declares no colour.
const DEFAULT_FILL: &str = "#e8e0c8";
/// How far a sheet's paper and frame run on past its edge, unseen but for the bleed of
/// its print page (`map_print`), in inches: the widest bleed that page has, what
/// `--bleed` takes at most.
pub const MAX_BLEED_IN: f64 = 0.5;
/// The id of a painted sheet's image in its SVG.
pub const ART_ID: &str = "muster-map-art";

/// How one terrain type is drawn: its fill and the symbol in each of its hexes.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainLook {
    /// Terrain id (`oasis`).
    pub id: String,
    /// Name as printed, as the legend shows it.
    pub name: String,
    /// Fill colour, `#rrggbb`.
    pub fill: String,
    /// The symbol drawn in each hex, if the terrain declares one.
    pub symbol: Option<TerrainSymbol>,
}

impl TerrainLook {
    /// The grey a greyscale print gives the fill, from 0 (black) to 1 (white): Rec. 709
    /// luma of the sRGB values. `None` when the fill is not `#rrggbb`.
    pub fn luminance(&self) -> Option<f64> {
        luma(&self.fill)
    }
}

/// Rec. 709 luma of a `#rrggbb` colour, from 0 to 1.
pub fn luma(rgb: &str) -> Option<f64> {
    let hex = rgb.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii())?;
    let c = |i: usize| {
        u8::from_str_radix(&hex[i..i + 2], 16).ok().map(|v| f64::from(v) / 255.0)
    };
    Some(0.2126 * c(0)? + 0.7152 * c(2)? + 0.0722 * c(4)?)
}

/// The look of every declared terrain type, by id.
fn declared_looks(game: &Game) -> BTreeMap<&str, TerrainLook> {
    game.meta
        .terrain
        .iter()
        .map(|t| {
            let look = TerrainLook {
                id: t.id.v.clone(),
                name: t.name.clone(),
                fill: t.rgb.as_ref().map_or(DEFAULT_FILL, |c| c.v.as_str()).to_string(),
                symbol: t.symbol,
            };
            (t.id.v.as_str(), look)
        })
        .collect()
}

/// The terrain ids of every cell of a sheet, as the map files give them: the hex's own
/// terrain first (`unknown` where the rules do not say), then what it also holds.
fn sheet_terrain<'g>(
    game: &'g Game,
    board: &Board,
    sheet: &Sheet,
) -> Vec<(Cell, Vec<&'g str>)> {
    hex_terrain::terrains(game, board)
        .into_iter()
        .filter(|(c, _)| sheet.contains(*c))
        .collect()
}

/// The declared terrain types drawn on one map sheet of a game, in the legend's order.
/// Empty when the map is not on the game's board.
pub fn terrain_looks(game: &Game, map_index: usize) -> Vec<TerrainLook> {
    let (Some(board), Some(map)) = (game.board.as_ref(), game.maps.get(map_index)) else {
        return Vec::new();
    };
    let Some(sheet) = board.sheets().iter().find(|s| s.id == map.id.v) else {
        return Vec::new();
    };
    let used: BTreeSet<&str> =
        sheet_terrain(game, board, sheet).into_iter().flat_map(|(_, t)| t).collect();
    let mut looks = declared_looks(game);
    used.into_iter().filter_map(|t| looks.remove(t)).collect()
}

/// A map sheet ready to rasterise.
#[derive(Debug, Clone)]
pub struct MapScene {
    /// Map id.
    pub id: String,
    /// The SVG text.
    pub svg: String,
    /// Width of the sheet in inches (printed, or derived from the grid).
    pub width_in: f64,
    /// Height of the sheet in inches.
    pub height_in: f64,
    /// Whether the physical size is printed in the rulebook.
    pub printed_size: bool,
    /// Hexes drawn with unknown terrain.
    pub unknown_terrain: usize,
    /// Where the legend (with the map's title) goes; none when it is not drawn.
    pub legend: Option<LegendPlace>,
    /// Where each cell's centre is, as a placement in the sheet (for packaging).
    pub layout: SheetLayout,
    /// Whether the sheet is drawn over a painted image, the SVG's element [`ART_ID`].
    pub painted: bool,
}

/// How the board's grid sits on one sheet, in inches from the sheet's top-left corner.
#[derive(Debug, Clone, Copy)]
pub struct SheetLayout {
    /// Pixel layout in inches: `layout.centre(cell)` is the centre of a board cell on this
    /// sheet, in inches from the sheet's top-left corner.
    pub layout: Layout,
}

impl SheetLayout {
    /// The centre of a board cell in pixels at `dpi`, from the sheet's top-left corner.
    pub fn centre_px(&self, cell: Cell, dpi: f64) -> (f64, f64) {
        let (x, y) = self.layout.centre(cell);
        (x * dpi, y * dpi)
    }
}

/// Where a sheet's grid lies on its paper: the layout in inches, and the paper size. A
/// sheet drawn over a painted image takes the image's size and the grid fitted to it.
pub fn sheet_geometry(
    game: &Game,
    board: &Board,
    sheet: &Sheet,
    map: &MapFile,
) -> (SheetLayout, f64, f64) {
    if let Some(art) = map_art(game, map) {
        let l = art.layout_px;
        let layout = Layout {
            grid: l.grid,
            hex_size: l.hex_size / art.dpi,
            origin: (l.origin.0 / art.dpi, l.origin.1 / art.dpi),
        };
        let (w, h) =
            (f64::from(art.image.width) / art.dpi, f64::from(art.image.height) / art.dpi);
        return (SheetLayout { layout }, w, h);
    }
    let hex = map.hex_size_in.v;
    let probe = Layout { grid: board.grid(), hex_size: hex, origin: (0.0, 0.0) };
    let (w, h) = paper_size(game, board, sheet, map);
    let joined =
        map_joins::joined(game, board, map, |s, m| paper_size(game, board, s, m));
    if joined.len() > 1 {
        // The papers laid edge to edge, and the grid of all their sheets centred on them.
        let (mut paper, mut grid) = (paper_box(), paper_box());
        for j in &joined {
            let (x, y) = j.at;
            paper = union(paper, [x, y, x + j.size.0, y + j.size.1]);
            grid = union(grid, grid_extent(&probe, j.sheet));
        }
        let dx = paper[0] + ((paper[2] - paper[0]) - (grid[2] - grid[0])) / 2.0 - grid[0];
        let dy = paper[1] + ((paper[3] - paper[1]) - (grid[3] - grid[1])) / 2.0 - grid[1];
        let layout = Layout { grid: board.grid(), hex_size: hex, origin: (dx, dy) };
        return (SheetLayout { layout }, w, h);
    }
    let [x0, y0, x1, y1] = grid_extent(&probe, sheet);
    let (gw, gh) = (x1 - x0, y1 - y0);
    // Centre the grid on the paper, above the legend's band on a sheet muster sizes.
    let dx = (w - gw) / 2.0 - x0;
    let dy = if map.size.is_some() { (h - gh) / 2.0 - y0 } else { MARGIN_IN - y0 };
    let layout = Layout { grid: board.grid(), hex_size: hex, origin: (dx, dy) };
    (SheetLayout { layout }, w, h)
}

/// An empty box, to grow with [`union`].
fn paper_box() -> [f64; 4] {
    [f64::MAX, f64::MAX, f64::MIN, f64::MIN]
}

/// The box holding two boxes (left, top, right, bottom).
fn union(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])]
}

/// The box of a sheet's hexes laid out by `probe` (left, top, right, bottom), from its
/// corner hexes and their neighbours across.
fn grid_extent(probe: &Layout, sheet: &Sheet) -> [f64; 4] {
    let mut out = paper_box();
    for col in
        [sheet.col_offset, sheet.col_offset + 1, sheet.col_offset + sheet.cols as i32 - 1]
    {
        for row in [sheet.row_offset, sheet.row_offset + sheet.rows as i32 - 1] {
            for (x, y) in probe.corners(Cell::new(col, row)) {
                out = union(out, [x, y, x, y]);
            }
        }
    }
    out
}

/// A sheet's paper in inches: its printed size, or its grid with a margin all round and
/// the legend's band below.
fn paper_size(game: &Game, board: &Board, sheet: &Sheet, map: &MapFile) -> (f64, f64) {
    if let Some(s) = &map.size {
        return (s.width_in, s.height_in);
    }
    let probe =
        Layout { grid: board.grid(), hex_size: map.hex_size_in.v, origin: (0.0, 0.0) };
    let [x0, y0, x1, y1] = grid_extent(&probe, sheet);
    let (gw, gh) = (x1 - x0, y1 - y0);
    (
        gw + 2.0 * MARGIN_IN,
        gh + 2.0 * MARGIN_IN + legend_band(game, board, sheet, map, gw),
    )
}

/// The height, in inches, added below the grid of a sheet muster sizes (no printed size) so
/// that the legend, laid out no wider than the grid, covers no hex.
fn legend_band(
    game: &Game,
    board: &Board,
    sheet: &Sheet,
    map: &MapFile,
    grid_w: f64,
) -> f64 {
    let rows = legend_rows(game, map, board, sheet, true);
    let shapes = legend::shapes(&map.name, &rows);
    let Some(shape) = legend::lowest_within(
        &shapes,
        (grid_w + 2.0 * MARGIN_IN) * PX - 2.0 * legend::INSET,
    )
    .or_else(|| shapes.last().copied()) else {
        return 0.0;
    };
    // The legend's top, inset from the paper's bottom edge, a tenth of an inch below the
    // grid's margin.
    ((shape.h + legend::INSET) / PX - MARGIN_IN + 0.1).max(0.0)
}

/// The painted image a map is drawn over, if it names one.
fn map_art<'a>(game: &'a Game, map: &MapFile) -> Option<&'a MapArt> {
    let i = game.maps.iter().position(|m| m.id.v == map.id.v)?;
    game.map_art.get(i).and_then(Option::as_deref)
}

/// The legend's rows (swatch colour, symbol, name) for a sheet: unknown terrain, each
/// terrain drawn, and, when `features` are drawn, each kind of them.
fn legend_rows(
    game: &Game,
    map: &MapFile,
    board: &Board,
    sheet: &Sheet,
    features: bool,
) -> Vec<legend::Row> {
    let terrain = sheet_terrain(game, board, sheet);
    let used: BTreeSet<&str> =
        terrain.iter().flat_map(|(_, t)| t.iter().copied()).collect();
    let mut rows: Vec<legend::Row> = Vec::new();
    if used.contains("unknown") {
        let unknown = Swatch::Terrain { fill: UNKNOWN_FILL.into(), symbol: None };
        rows.push((unknown, "Terrain not given by the rules".into()));
    }
    let mut looks = declared_looks(game);
    for t in used {
        if let Some(look) = looks.remove(t) {
            rows.push((
                Swatch::Terrain { fill: look.fill, symbol: look.symbol },
                look.name,
            ));
        }
    }
    for f in map.features.iter().filter(|_| features) {
        let (_, name) = feature_style(f.kind);
        let drawn =
            f.hexes.iter().any(|h| board.parse(&h.v).is_ok()) || !f.hexsides.is_empty();
        if drawn && !rows.iter().any(|(_, n)| n == name) {
            rows.push((Swatch::Feature(f.kind), name.into()));
        }
    }
    rows
}

/// Where a map's legend goes.
#[derive(Debug, Clone)]
pub enum LegendPlace {
    /// On the sheet: its box in inches from the sheet's top-left corner (x, y, width,
    /// height), and the labels of the hexes it covers (none unless the map file's
    /// `legend_at` puts it over some).
    OnSheet([f64; 4], Vec<String>),
    /// On a sheet of its own, since the map's printed sheet has no free place for it: the
    /// legend's SVG and its size in inches.
    Apart(String, f64, f64),
}

/// Where the legend of `rows` under `title` goes on a sheet of `sheet` inches whose `cells`
/// lie by `layout` (inches), and its shape: at the map file's `legend_at`, else at the
/// first place that covers no hex, else apart.
fn place_legend(
    map: &MapFile,
    board: &Board,
    cells: &[Cell],
    layout: &Layout,
    rows: &[legend::Row],
    sheet: (f64, f64),
) -> (LegendPlace, Option<legend::Placed>) {
    let shapes = legend::shapes(&map.name, rows);
    let hexes: Vec<[(f64, f64); 6]> =
        cells.iter().map(|c| layout.corners(*c).map(|p| (p.0 * PX, p.1 * PX))).collect();
    let found = match &map.legend_at {
        Some(at) => Some((shapes[0], (at.v[0] * PX, at.v[1] * PX))),
        None => legend::free_place(&hexes, &shapes, (sheet.0 * PX, sheet.1 * PX)),
    };
    let Some((shape, at)) = found else {
        // A sheet of its own, one column.
        let s = shapes[0];
        let inset = legend::INSET;
        let (w, h) = ((s.w + 2.0 * inset) / PX, (s.h + 2.0 * inset) / PX);
        let mut svg = Svg::new(w, h);
        map_symbols::write_defs(&mut svg, legend::symbols(rows));
        legend::draw(&mut svg, board.grid(), &map.name, rows, &s, (inset, inset));
        return (LegendPlace::Apart(svg.finish(), w, h), None);
    };
    let rect = [at.0, at.1, shape.w, shape.h];
    let covers = cells
        .iter()
        .zip(&hexes)
        .filter(|(_, poly)| legend::overlaps(rect, &poly[..]))
        .filter_map(|(c, _)| board.label(*c))
        .collect();
    (LegendPlace::OnSheet(rect.map(|v| v / PX), covers), Some((shape, at)))
}

/// Builds the scene of one map sheet of a game. The map must be on the game's board.
pub fn map_svg(game: &Game, map_index: usize) -> Option<MapScene> {
    let board = game.board.as_ref()?;
    let map = game.maps.get(map_index)?;
    let sheet = board.sheets().iter().find(|s| s.id == map.id.v)?;
    let (geometry, w, h) = sheet_geometry(game, board, sheet, map);
    let art = map_art(game, map);
    // Over a painted image muster draws only the layers the map file asks for.
    let drawn = |layer: MapLayer| art.is_none_or(|a| a.draw.contains(&layer));
    let l = geometry.layout;
    let hex_px = l.hex_size * PX;
    let terrain = sheet_terrain(game, board, sheet);
    let cells: Vec<Cell> = terrain.iter().map(|(c, _)| *c).collect();
    let beyond = if art.is_none() {
        beyond_joins(game, board, map, &l, (w, h))
    } else {
        Vec::new()
    };
    let mut svg = Svg::new(w, h);
    // The paper runs on past the sheet's edge, unseen but for the bleed of its print page.
    let reach = MAX_BLEED_IN * PX;
    match art {
        Some(a) => svg.image(
            (0.0, 0.0, w * PX, h * PX),
            &format!(r#"id="{ART_ID}""#),
            &crate::svg::data_url(a.image.format.media_type(), &a.image.bytes),
        ),
        None => svg.rect(
            -reach,
            -reach,
            w * PX + 2.0 * reach,
            h * PX + 2.0 * reach,
            r##"fill="#fbf8f0""##,
        ),
    }
    let looks = declared_looks(game);
    if drawn(MapLayer::Terrain) || drawn(MapLayer::Legend) {
        let symbols = terrain.iter().chain(&beyond).flat_map(|(_, ts)| ts);
        map_symbols::write_defs(
            &mut svg,
            symbols.filter_map(|t| looks.get(t).and_then(|lk| lk.symbol)),
        );
    }
    let stroke = if drawn(MapLayer::Grid) {
        map_marks::grid_stroke(hex_px)
    } else {
        String::new()
    };
    let fills = drawn(MapLayer::Terrain);
    let unknown = draw_terrain(&mut svg, &terrain, &looks, &l, &stroke, fills);
    draw_terrain(&mut svg, &beyond, &looks, &l, &stroke, fills);

    // Features; their names wait for the hex numbers they must keep clear of.
    let mut labels = Labels::new((w * PX, h * PX));
    for f in map.features.iter().filter(|_| drawn(MapLayer::Features)) {
        let hexes: Vec<Cell> =
            f.hexes.iter().filter_map(|h| board.parse(&h.v).ok()).collect();
        if hexes.is_empty() && f.hexsides.is_empty() {
            continue;
        }
        draw_feature(&mut svg, &mut labels, board, &l, f, &hexes, hex_px);
    }

    // Hex numbers, as the map prints them, over the features, each on a halo of its
    // hex's fill where the fills are drawn.
    if drawn(MapLayer::Numbers) {
        let fills: BTreeMap<Cell, &str> = terrain
            .iter()
            .filter(|_| drawn(MapLayer::Terrain))
            .map(|(c, ts)| (*c, cell_fill(ts.first().copied(), &looks)))
            .collect();
        let numbers = draw_numbers(&mut svg, board, sheet, map, &l, &cells, &fills);
        labels.keep_clear(numbers);
        let edges = edge_numbers::draw(&mut svg, sheet, &map.hex_numbers.edges, &l, PX);
        labels.keep_clear(edges);
    }
    labels.draw(&mut svg);

    // Frame, where muster draws the sheet, but along the edges other sheets continue.
    if art.is_none() {
        draw_frame(
            &mut svg,
            (w * PX, h * PX),
            &map_joins::edges(game, board, map),
            reach,
        );
    }

    // Legend.
    let mut legend_place = None;
    if drawn(MapLayer::Legend) {
        let rows = legend_rows(game, map, board, sheet, drawn(MapLayer::Features));
        let all: Vec<Cell> =
            cells.iter().copied().chain(beyond.iter().map(|t| t.0)).collect();
        let (place, drawn_at) = place_legend(map, board, &all, &l, &rows, (w, h));
        if let Some((shape, at)) = drawn_at {
            legend::draw(&mut svg, board.grid(), &map.name, &rows, &shape, at);
        }
        legend_place = Some(place);
    }

    Some(MapScene {
        id: map.id.v.clone(),
        svg: svg.finish(),
        width_in: w,
        height_in: h,
        printed_size: map.size.is_some(),
        unknown_terrain: unknown,
        legend: legend_place,
        layout: geometry,
        painted: art.is_some(),
    })
}

/// The cells of the sheets joined to `map`'s (by `joins`) whose hexes, laid out by `l`,
/// reach onto its paper of `paper` inches, with their terrain.
fn beyond_joins<'g>(
    game: &'g Game,
    board: &Board,
    map: &MapFile,
    l: &Layout,
    paper: (f64, f64),
) -> Vec<(Cell, Vec<&'g str>)> {
    let joined =
        map_joins::joined(game, board, map, |s, m| paper_size(game, board, s, m));
    let on_paper = |c: Cell| {
        let b =
            l.corners(c).iter().fold(paper_box(), |b, p| union(b, [p.0, p.1, p.0, p.1]));
        b[0] < paper.0 && b[2] > 0.0 && b[1] < paper.1 && b[3] > 0.0
    };
    joined
        .iter()
        .skip(1)
        .flat_map(|j| sheet_terrain(game, board, j.sheet))
        .filter(|(c, _)| on_paper(*c))
        .collect()
}

/// Draws the frame round a sheet of `size` pixels, but along `open` edges, where another
/// sheet continues it.
fn draw_frame(svg: &mut Svg, (w, h): (f64, f64), open: &[SheetEdge], reach: f64) {
    // A band inside the edge that runs on `reach` past it, into the bleed.
    let fw = 0.04 * PX;
    let band = fw + reach;
    let at = (fw - reach) / 2.0;
    let (x0, y0, x1, y1) = (at, at, w - at, h - at);
    if open.is_empty() {
        let style =
            format!(r##"fill="none" stroke="#2b2b2b" stroke-width="{}""##, n(band));
        svg.rect(x0, y0, x1 - x0, y1 - y0, &style);
        return;
    }
    let style = format!(
        r##"stroke="#2b2b2b" stroke-width="{}" stroke-linecap="square""##,
        n(band)
    );
    for (edge, a, b) in [
        (SheetEdge::Top, (x0, y0), (x1, y0)),
        (SheetEdge::Right, (x1, y0), (x1, y1)),
        (SheetEdge::Bottom, (x1, y1), (x0, y1)),
        (SheetEdge::Left, (x0, y1), (x0, y0)),
    ] {
        if !open.contains(&edge) {
            svg.line(a, b, &style);
        }
    }
}

/// Draws every cell's terrain: its own fill (with the grid's `stroke`, if any) and symbol,
/// then each terrain it also holds as a smaller hex inside it, with its symbol smaller
/// too. Only the grid is drawn when `fills` is false. Returns how many cells have terrain
/// the rules do not give.
fn draw_terrain(
    svg: &mut Svg,
    terrain: &[(Cell, Vec<&str>)],
    looks: &BTreeMap<&str, TerrainLook>,
    l: &Layout,
    stroke: &str,
    fills: bool,
) -> usize {
    let scale = |p: (f64, f64)| (p.0 * PX, p.1 * PX);
    let hex_px = l.hex_size * PX;
    let mut unknown = 0;
    for (c, ts) in terrain {
        let centre = scale(l.centre(*c));
        for (k, t) in ts.iter().enumerate() {
            let look = looks.get(t);
            if k == 0 && *t == "unknown" {
                unknown += 1;
            }
            let fill = if fills { cell_fill(Some(t), looks) } else { "none" };
            if k > 0 && !fills {
                break;
            }
            // The hex's own terrain fills it; each terrain it also holds an inset.
            let size =
                if k == 0 { 1.0 } else { ALSO_INSET * ALSO_STEP.powi(k as i32 - 1) };
            let corners = l.corners(*c).map(scale);
            let symbol = look.and_then(|lk| lk.symbol).filter(|_| fills);
            if k == 0 {
                let look = (fill, stroke);
                map_marks::terrain_hex(svg, (&corners, centre), hex_px, look, symbol);
                continue;
            }
            let inset = corners.map(|p| {
                (centre.0 + (p.0 - centre.0) * size, centre.1 + (p.1 - centre.1) * size)
            });
            svg.polygon(&inset, &format!(r#"fill="{fill}" {}"#, also_stroke(hex_px)));
            if let Some(symbol) = symbol {
                map_symbols::place_in_hex(svg, symbol, centre, hex_px * size);
            }
        }
    }
    unknown
}

/// The fill of a hex of terrain `t`: the terrain's colour, or the fill of terrain the rules
/// do not give.
fn cell_fill<'l>(t: Option<&str>, looks: &'l BTreeMap<&str, TerrainLook>) -> &'l str {
    match t {
        Some(t) if t != "unknown" => {
            looks.get(t).map_or(UNKNOWN_FILL, |lk| lk.fill.as_str())
        }
        _ => UNKNOWN_FILL,
    }
}

/// The outline of an inset of terrain a hex also holds, for hexes `hex_px` across.
fn also_stroke(hex_px: f64) -> String {
    format!(r##"stroke="#3b3328" stroke-width="{}""##, n(hex_px * 0.015))
}

/// Draws the numbers a map prints in its hexes: every hex's, or (with `every_hex: false`)
/// only those of the rows it emphasises, larger and bold; each on a halo of its hex's fill
/// in `fills`, if there. Returns the box of each number.
fn draw_numbers(
    svg: &mut Svg,
    board: &Board,
    sheet: &Sheet,
    map: &MapFile,
    l: &Layout,
    cells: &[Cell],
    fills: &BTreeMap<Cell, &str>,
) -> Vec<Rect> {
    let hex_px = l.hex_size * PX;
    let emph = map.hex_numbers.emphasise_every;
    let mut boxes = Vec::new();
    for c in cells {
        let Some(label) = board.label(*c) else { continue };
        let local =
            muster_hex::Cell::new(c.col - sheet.col_offset, c.row - sheet.row_offset);
        let row_no = sheet.numbering.numbers_of(local, sheet.cols, sheet.rows).row;
        let emphasised = emph.is_some_and(|e| e > 0 && row_no.is_multiple_of(e));
        if !map.hex_numbers.every_hex && !emphasised {
            continue;
        }
        let (x, y) = (l.centre(*c).0 * PX, l.centre(*c).1 * PX);
        let (size, weight) = if emphasised { (0.17, "bold") } else { (0.14, "normal") };
        let (at, size) = ((x, y - hex_px * 0.30), hex_px * size);
        let style = map_labels::number_style(weight, size, fills.get(c).copied());
        svg.text(at, size, "middle", &style, &label);
        boxes.push(map_labels::text_box(
            at,
            size,
            "middle",
            Weight::from_css(weight),
            &label,
        ));
    }
    boxes
}

/// Draws one feature on its hexes or hexsides; its name, if it has one, goes to `labels`.
fn draw_feature(
    svg: &mut Svg,
    labels: &mut Labels,
    board: &Board,
    l: &Layout,
    f: &Feature,
    hexes: &[Cell],
    hex_px: f64,
) {
    let (colour, _) = feature_style(f.kind);
    let c = |cell: Cell| (l.centre(cell).0 * PX, l.centre(cell).1 * PX);
    svg.open(
        "g",
        &format!(r#"class="feature" data-kind="{}""#, map_marks::kind_name(f.kind)),
    );
    match f.kind {
        FeatureKind::Road | FeatureKind::Track | FeatureKind::Railway => {
            let pts: Vec<(f64, f64)> = hexes.iter().map(|h| c(*h)).collect();
            map_marks::way(svg, f.kind, &pts, hex_px);
        }
        kind if map_marks::on_hexsides(kind) => {
            for (cell, (pa, pb)) in hexsides(board, l, f) {
                let river_px = f.width_in.as_ref().map(|w| w.v * PX);
                map_symbols::hexside(
                    svg,
                    f.kind,
                    colour,
                    (pa, pb),
                    c(cell),
                    hex_px,
                    river_px,
                );
            }
        }
        _ => {
            if f.kind == FeatureKind::Bridge {
                for (cell, (pa, pb)) in hexsides(board, l, f) {
                    // Across the side, as the way crosses it from hex to hex.
                    let mid = ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0);
                    let centre = c(cell);
                    let across = (mid.0 - centre.0, mid.1 - centre.1);
                    map_symbols::bridge(svg, colour, mid, across, hex_px);
                }
            }
            let value = f.value.as_ref().map_or("VP", |v| v.0.as_str());
            for (k, h) in hexes.iter().enumerate() {
                let corners = l.corners(*h).map(|p| (p.0 * PX, p.1 * PX));
                let centre = c(*h);
                map_marks::in_hex(svg, f.kind, (&corners, centre), hex_px, value);
                if f.kind == FeatureKind::VictoryHex {
                    let r = hex_px * 0.22;
                    let (x, y) = centre;
                    labels.keep_clear([[x - r, y - r, x + r, y + r]]);
                } else if k == 0
                    && !matches!(
                        f.kind,
                        FeatureKind::Minefield | FeatureKind::Sea | FeatureKind::Coast
                    )
                {
                    // The name goes on the feature's first hex only.
                    feature_name(labels, f, centre, hex_px, colour);
                }
            }
        }
    }
    svg.close("g");
}

/// Gives `labels` a feature's name, if it has one, to set near the hex centred at `centre`.
fn feature_name(
    labels: &mut Labels,
    f: &Feature,
    centre: (f64, f64),
    hex_px: f64,
    colour: &str,
) {
    let Some(label) = f.name.as_deref().filter(|l| !l.is_empty()) else { return };
    labels.add(label, centre, hex_px, colour);
}

/// The two ends of a hexside, in pixels.
type SideEnds = ((f64, f64), (f64, f64));

/// Each hexside of `f` that reads (its hex and direction), with the side's two ends.
fn hexsides<'f>(
    board: &'f Board,
    l: &'f Layout,
    f: &'f Feature,
) -> impl Iterator<Item = (Cell, SideEnds)> + 'f {
    f.hexsides.iter().filter_map(move |hs| {
        let cell = board.parse(&hs.hex.v).ok()?;
        let dir = Direction::from_name(&hs.side.v, board.grid().orientation)?;
        Some((cell, side_ends(board, l, cell, dir)))
    })
}

/// The two ends of the side `dir` of `cell`, in pixels.
fn side_ends(board: &Board, l: &Layout, cell: Cell, dir: Direction) -> SideEnds {
    let corners = l.corners(cell);
    // Side d lies between corners d and d+1 for flat-top grids (corner 0 is the upper
    // right), and between d and d+1 for pointy-top (corner 0 is top).
    let (a, b) = side_corners(board, dir);
    ((corners[a].0 * PX, corners[a].1 * PX), (corners[b].0 * PX, corners[b].1 * PX))
}

/// The two corner indices (of [`Layout::corners`]) that bound a hexside direction.
fn side_corners(board: &Board, d: Direction) -> (usize, usize) {
    let i = usize::from(d.0 % 6);
    match board.grid().orientation {
        // Flat-top corners start at the upper right (north-east end of the north side).
        muster_hex::Orientation::FlatTop => ((i + 5) % 6, i),
        // Pointy-top corners start at the top (north end of the north-east side).
        muster_hex::Orientation::PointyTop => (i, (i + 1) % 6),
    }
}

/// What a finding on `legend_at` suggests.
const LEAVE_LEGEND_AT_OUT: &str =
    "leave `legend_at` out: muster then finds a free place, or prints the legend apart";

/// Where the map file's `legend_at` puts the legend of a map of `game` beyond its sheet or
/// over hexes, as warnings at the `legend_at`.
pub fn check(game: &Game) -> Vec<Diagnostic> {
    let Some(board) = game.board.as_ref() else { return Vec::new() };
    let mut found = Vec::new();
    for map in &game.maps {
        let Some(at) = map.legend_at.as_ref() else { continue };
        let Some(sheet) = board.sheets().iter().find(|s| s.id == map.id.v) else {
            continue;
        };
        let drawn = |layer| map_art(game, map).is_none_or(|a| a.draw.contains(&layer));
        if !drawn(MapLayer::Legend) {
            continue;
        }
        let (geometry, w, h) = sheet_geometry(game, board, sheet, map);
        let cells: Vec<Cell> = board.cells().filter(|c| sheet.contains(*c)).collect();
        let rows = legend_rows(game, map, board, sheet, drawn(MapLayer::Features));
        let (LegendPlace::OnSheet([x, y, lw, lh], covers), _) =
            place_legend(map, board, &cells, &geometry.layout, &rows, (w, h))
        else {
            continue;
        };
        // A hundredth of an inch of rounding is let pass.
        let within = |v: f64, size: f64, room: f64| {
            v.is_finite() && v >= -0.01 && v + size <= room + 0.01
        };
        if !within(x, lw, w) || !within(y, lh, h) {
            found.push(
                Diagnostic::finding(
                    FindingKind::LegendOffSheet,
                    at.span,
                    format!(
                        "`legend_at` puts the legend of map `{}` ({} by {} inches) beyond its sheet of {} by {} inches",
                        map.id.v,
                        n(lw),
                        n(lh),
                        n(w),
                        n(h)
                    ),
                )
                .with_expected(format!(
                    "a top-left corner from 0 to {} inches across and 0 to {} down",
                    n((w - lw).max(0.0)),
                    n((h - lh).max(0.0))
                ))
                .with_hint(LEAVE_LEGEND_AT_OUT),
            );
        }
        if covers.is_empty() {
            continue;
        }
        let shown: Vec<&str> = covers.iter().take(6).map(String::as_str).collect();
        let more = covers.len().saturating_sub(shown.len());
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        found.push(
            Diagnostic::finding(
                FindingKind::LegendCoversHexes,
                at.span,
                format!(
                    "`legend_at` puts the legend of map `{}` over hexes {}{more}",
                    map.id.v,
                    shown.join(", ")
                ),
            )
            .with_expected("a place on the sheet where the legend covers no hex")
            .with_hint(LEAVE_LEGEND_AT_OUT),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::Path;

    use muster_model::source::{SheetEdge, TerrainHexes};
    use muster_model::{LoadOptions, Sources, Spanned, load_game};

    use super::*;

    /// The example game, its map drawn whole by muster rather than over its painted image.
    fn oasis() -> Game {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources/example-oasis");
        let mut game =
            load_game(&dir, &mut Sources::new(), &LoadOptions::default()).ok().unwrap().0;
        game.map_art.clear();
        game
    }

    #[test]
    fn terrain_a_hex_also_holds_is_an_inset_over_its_own_and_in_the_legend() {
        let mut game = oasis();
        let terrain = &mut game.maps[0].terrain;
        // Marsh moves from its own hexes into a town hex it shares.
        terrain.hexes.retain(|t| t.terrain.v != "marsh");
        terrain.also = vec![TerrainHexes {
            terrain: Spanned::detached("marsh".to_string()),
            hexes: vec![Spanned::detached("09.02".to_string())],
            section: None,
        }];
        let svg = map_svg(&game, 0).unwrap().svg;
        let marsh = r##"fill="#b9c9b0" stroke="#3b3328""##;
        assert_eq!(svg.matches(marsh).count(), 1, "one inset, in 09.02");
        let town = svg.find(r##"fill="#c9c1b6" stroke="#7d7566""##).unwrap();
        assert!(town < svg.find(marsh).unwrap(), "the inset is drawn over the town");
        assert!(svg.contains(">Salt marsh<"), "the legend lists it");
        // Its symbol is drawn smaller than a whole hex's.
        let uses: Vec<&str> = svg.split("<use").skip(1).collect();
        let marsh_uses: Vec<&&str> =
            uses.iter().filter(|u| u.contains("muster-terrain-marsh")).collect();
        let town_use = uses.iter().find(|u| u.contains("muster-terrain-town")).unwrap();
        assert_eq!(marsh_uses.len(), 2, "the hex and the legend's swatch");
        let scale = |u: &str| -> f64 {
            u.split("scale(").nth(1).unwrap().split(')').next().unwrap().parse().unwrap()
        };
        assert!((scale(marsh_uses[0]) / scale(town_use) - ALSO_INSET).abs() < 0.01);
    }

    #[test]
    fn a_map_without_shared_terrain_draws_no_inset() {
        let svg = map_svg(&oasis(), 0).unwrap().svg;
        let insets = svg
            .split("<polygon")
            .filter(|p| p.split('>').next().unwrap().contains(&also_stroke(72.0)[..16]))
            .count();
        assert_eq!(insets, 0);
    }

    /// Every text element of `svg` as (x, y, anchor, text).
    fn texts(svg: &str) -> Vec<(f64, f64, String, String)> {
        let attr = |t: &str, name: &str| -> String {
            t.split(&format!(" {name}=\""))
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .into()
        };
        svg.split("<text")
            .skip(1)
            .map(|t| {
                let body = t.split('>').nth(1).unwrap().split('<').next().unwrap();
                let x = attr(t, "x").parse().unwrap();
                let y = attr(t, "y").parse().unwrap();
                (x, y, attr(t, "text-anchor"), body.to_string())
            })
            .collect()
    }

    #[test]
    fn numbers_printed_down_the_side_line_up_with_their_columns_and_rows() {
        let mut game = oasis();
        let numbers = &mut game.maps[0].hex_numbers;
        numbers.every_hex = false;
        numbers.emphasise_every = None;
        numbers.edges = vec![SheetEdge::Top, SheetEdge::Left];
        let scene = map_svg(&game, 0).unwrap();
        let board = game.board.as_ref().unwrap();
        let texts = texts(&scene.svg);
        assert!(!texts.iter().any(|t| t.3 == "05.05"), "no number in the hexes");
        let centre =
            |label: &str| scene.layout.centre_px(board.parse(label).unwrap(), PX);
        let top: Vec<_> = texts
            .iter()
            .filter(|t| {
                t.2 == "middle"
                    && t.3.len() == 2
                    && t.3.chars().all(|c| c.is_ascii_digit())
            })
            .collect();
        let left: Vec<_> = texts.iter().filter(|t| t.2 == "end").collect();
        assert_eq!(top.len(), 12, "{top:?}");
        assert_eq!(left.len(), 10, "{left:?}");
        let hex_px = scene.layout.layout.hex_size * PX;
        for t in &top {
            // Over its column, above the grid's top row.
            let (x, y) = centre(&format!("{}.01", t.3));
            assert!((t.0 - x).abs() < 0.01, "{t:?}");
            assert!(t.1 < y - hex_px / 2.0, "{t:?}");
        }
        for t in &left {
            // Level with its row, left of the grid's first column (numbered 11).
            let (x, y) = centre(&format!("11.{}", t.3));
            assert!((t.1 - y).abs() < hex_px * 0.1, "{t:?}");
            assert!(t.0 < x - hex_px / 2.0, "{t:?}");
        }
    }

    #[test]
    fn emphasised_rows_are_still_numbered_in_their_hexes() {
        let mut game = oasis();
        game.maps[0].hex_numbers.every_hex = false;
        let texts = texts(&map_svg(&game, 0).unwrap().svg);
        assert!(texts.iter().any(|t| t.3 == "05.05"));
        assert!(!texts.iter().any(|t| t.3 == "05.04"));
        assert!(!texts.iter().any(|t| t.2 == "end"), "no numbers on the edges unasked");
    }

    #[test]
    fn bridges_are_drawn_on_hexsides_and_in_hexes_and_in_the_legend() {
        let mut game = oasis();
        let features = &mut game.maps[0].features;
        let mut hexside =
            features.iter().find(|f| f.kind == FeatureKind::River).unwrap().clone();
        hexside.kind = FeatureKind::Bridge;
        hexside.hexsides.truncate(1);
        let mut in_hex = features
            .iter()
            .find(|f| f.kind == FeatureKind::Entrenchment)
            .unwrap()
            .clone();
        in_hex.kind = FeatureKind::Bridge;
        in_hex.name = Some("Old bridge".into());
        features.extend([hexside, in_hex]);
        let svg = map_svg(&game, 0).unwrap().svg;
        let (colour, name) = feature_style(FeatureKind::Bridge);
        let bridge_lines = svg
            .split("<polyline")
            .skip(1)
            .filter(|p| {
                p.split("/>").next().unwrap().contains(&format!(r#"stroke="{colour}""#))
            })
            .count();
        assert_eq!(bridge_lines, 6, "two lines a bridge, and the legend's swatch");
        let texts = texts(&svg);
        assert!(texts.iter().any(|t| t.3 == "Old bridge"));
        assert!(texts.iter().any(|t| t.3 == name), "the legend lists bridges");
    }
}
