//! The maps of a module: the main map with one board per printed sheet, joined as the
//! board places them, each with a zoned hex grid whose numbering names every hex as
//! printed; and the table map of holding boxes and decks.

use muster_hex::pixel::Layout;
use muster_hex::vassal::{VassalGrid, grid_params};
use muster_hex::{Board, Cell};
use muster_model::Game;

use super::dead_piles::{DEAD_PILE_BOARD, DEAD_PILE_MAP, DeadPiles};
use super::keys;
use super::live_rules::LiveRules;
use super::table::Table;
use super::{PackageError, SheetImage, Slot};
use crate::vassal::encoder::{TAB, encode};
use crate::vassal::xml::Element;

/// The main map's identifier.
pub const MAIN_MAP: &str = "Main Map";
/// The table map's identifier.
pub const TABLE_MAP: &str = "Holding Boxes";

/// One board of the main map: a printed sheet.
#[derive(Debug, Clone)]
pub struct PlacedBoard {
    /// Board name (the sheet's printed name).
    pub name: String,
    /// Sheet id.
    pub sheet: String,
    /// Image file under `images/`.
    pub image: String,
    /// Image size.
    pub width: u32,
    /// Image size.
    pub height: u32,
    /// Position in the board picker: column, row.
    pub slot: (u32, u32),
    /// Top-left corner in map pixels.
    pub origin: (i64, i64),
    /// The sheet's grid in board pixels.
    pub layout: Layout,
    /// VASSAL's grid for the sheet.
    pub grid: VassalGrid,
    /// Size of the zone that holds the grid (it sets VASSAL's row and column counts).
    pub zone: (u32, u32),
}

/// The zone around a sheet's grid: the board, widened where needed so that the column
/// count VASSAL derives from it (`floor(width / dy + 0.5)`) is one that readers which
/// trim a third of a hex first also derive. Widening never moves a hex or changes a name:
/// the numbering offsets are computed from the same size.
pub fn zone_size(layout: &Layout, width: u32, height: u32) -> (u32, u32) {
    let (sx, sy) = layout.spacing();
    let dy = if layout.grid.orientation == muster_hex::Orientation::PointyTop {
        sx
    } else {
        sy
    };
    let t = f64::from(width) / dy;
    let frac = t - t.floor();
    let w = if (0.5..5.0 / 6.0).contains(&frac) {
        (t.ceil() * dy).ceil() as u32
    } else {
        width
    };
    (w, height)
}

/// Where everything goes on the module's maps.
#[derive(Debug, Clone)]
pub struct BoardPlan {
    /// The sheets of the main map.
    pub boards: Vec<PlacedBoard>,
    /// Counter size in pixels.
    pub counter_px: u32,
    /// The table board's image under `images/`, when the module has a table map: named by
    /// its content, as the sheets' are ([`sheet_image`]).
    table: Option<String>,
}

impl BoardPlan {
    /// Whether the module has a table map.
    pub fn has_table(&self) -> bool {
        self.table.is_some()
    }

    /// The table board's image, named by `digest` (hex), what its content is known by; the
    /// table's image is drawn after the plan is made.
    pub fn table_image(&mut self, digest: &str) -> Option<String> {
        let name = self.table.as_mut()?;
        *name = super::files::named_by_digest("table", "png", digest);
        Some(name.clone())
    }

    /// Map, x and y where VASSAL puts a piece on a board cell, and the board it is on.
    pub fn place(&self, board: &Board, cell: Cell) -> Option<(i64, i64, &PlacedBoard)> {
        let b = self.boards.iter().find(|b| {
            board.sheets().iter().any(|s| s.id == b.sheet && s.contains(cell))
        })?;
        let (x, y) = b.layout.centre(cell);
        let (sx, sy) = b.grid.snap(x, y);
        Some((sx + b.origin.0, sy + b.origin.1, b))
    }

    /// The BoardPicker restore command of the main map.
    pub fn main_restore(&self) -> Option<String> {
        if self.boards.is_empty() {
            return None;
        }
        let mut t = vec![format!("{MAIN_MAP}BoardPicker")];
        for b in &self.boards {
            t.extend([b.name.clone(), b.slot.0.to_string(), b.slot.1.to_string()]);
        }
        Some(encode(&t, TAB))
    }

    /// The BoardPicker restore command of the table map.
    pub fn table_restore(&self) -> Option<String> {
        self.table.as_ref().map(|_| {
            encode(
                &[
                    format!("{TABLE_MAP}BoardPicker"),
                    "Table".into(),
                    "0".into(),
                    "0".into(),
                ],
                TAB,
            )
        })
    }
}

/// The image file of a sheet inside the module, named by `digest` (hex), what the image's
/// content is known by ([`super::files::named_by_digest`]).
pub fn sheet_image(game: &Game, sheet: &str, digest: &str) -> String {
    super::files::named_by_digest(&format!("{}-{sheet}", game.id), "png", digest)
}

/// Places the sheets: rows by the board's row offsets, columns by column offsets.
pub fn plan(
    game: &Game,
    sheets: &[SheetImage],
    table: &Table,
    counter_px: u32,
) -> Result<BoardPlan, PackageError> {
    let dpi = sheets.first().map_or(150.0, |s| s.dpi);
    let mut boards = Vec::new();
    if let Some(board) = &game.board {
        let mut rows: Vec<i32> = board.sheets().iter().map(|s| s.row_offset).collect();
        rows.sort_unstable();
        rows.dedup();
        for sheet in board.sheets() {
            let Some(image) = sheets.iter().find(|s| s.sheet == sheet.id) else {
                continue;
            };
            let Some(map) = game.maps.iter().find(|m| m.id.v == sheet.id) else {
                continue;
            };
            let (geometry, _, _) =
                muster_render::map::sheet_geometry(game, board, sheet, map);
            let l = geometry.layout;
            let layout = Layout {
                grid: l.grid,
                hex_size: l.hex_size * dpi,
                origin: (l.origin.0 * dpi, l.origin.1 * dpi),
            };
            let zone = zone_size(&layout, image.width, image.height);
            let grid =
                grid_params(board, sheet, &layout, f64::from(zone.0), f64::from(zone.1));
            let row = rows.iter().position(|r| *r == sheet.row_offset).unwrap_or(0);
            let mut cols: Vec<i32> = board
                .sheets()
                .iter()
                .filter(|s| s.row_offset == sheet.row_offset)
                .map(|s| s.col_offset)
                .collect();
            cols.sort_unstable();
            let col = cols.iter().position(|c| *c == sheet.col_offset).unwrap_or(0);
            boards.push(PlacedBoard {
                name: map.name.clone(),
                sheet: sheet.id.clone(),
                image: sheet_image(game, &sheet.id, &image.digest),
                width: image.width,
                height: image.height,
                slot: (u32::try_from(col).unwrap_or(0), u32::try_from(row).unwrap_or(0)),
                origin: (0, 0),
                layout,
                grid,
                zone,
            });
        }
    }
    // VASSAL puts a board right of the boards before it in its row and below the boards
    // above it in its column.
    let snapshot = boards.clone();
    for b in &mut boards {
        let x: u32 = snapshot
            .iter()
            .filter(|o| o.slot.1 == b.slot.1 && o.slot.0 < b.slot.0)
            .map(|o| o.width)
            .sum();
        let y: u32 = snapshot
            .iter()
            .filter(|o| o.slot.0 == b.slot.0 && o.slot.1 < b.slot.1)
            .map(|o| o.height)
            .sum();
        b.origin = (i64::from(x), i64::from(y));
    }
    let names: std::collections::BTreeSet<&str> =
        boards.iter().map(|b| b.name.as_str()).collect();
    if names.len() != boards.len() {
        return Err(PackageError(format!(
            "the maps of {} need distinct names to be VASSAL boards",
            game.id
        )));
    }
    Ok(BoardPlan {
        boards,
        counter_px,
        table: (!table.boxes.is_empty() || !table.decks.is_empty()).then(String::new),
    })
}

fn interaction() -> Vec<Element> {
    [
        "ForwardToKeyBuffer",
        "Scroller",
        "ForwardToChatter",
        "MenuDisplayer",
        "MapCenterer",
        "StackExpander",
        "PieceMover",
        "KeyBufferer",
    ]
    .iter()
    .map(|c| Element::new(&format!(".module.map.{c}")))
    .chain([
        Element::new(".module.map.StackMetrics")
            .attr("bottom", "40,0")
            .attr("disabled", "false")
            .attr("down", "37,0")
            .attr("exSepX", 6)
            .attr("exSepY", 18)
            .attr("top", "38,0")
            .attr("unexSepX", 3)
            .attr("unexSepY", 5)
            .attr("up", "39,0"),
        Element::new(".module.map.Zoomer")
            .attr("inIconName", "/images/zoomIn.gif")
            .attr("inTooltip", "Zoom in")
            .attr("outIconName", "/images/zoomOut.gif")
            .attr("outTooltip", "Zoom out")
            .attr("pickIconName", "/images/zoom.png")
            .attr("pickTooltip", "Select Zoom")
            .attr("zoomLevels", "0.25,0.4,0.6,0.8,1.0,1.25,1.6")
            .attr("zoomStart", 4),
        viewer(),
        Element::new(".module.properties.GlobalProperties"),
        Element::new(".module.map.SelectionHighlighters"),
        Element::new(".module.map.HighlightLastMoved")
            .attr("color", "255,0,0")
            .attr("enabled", "true")
            .attr("thickness", 2),
    ])
    .collect()
}

/// The mouse-over stack viewer: over a stack, its hex (or box) name above the counters in
/// it; over a hex without counters, its name alone.
fn viewer() -> Element {
    Element::new(".module.map.CounterDetailViewer")
        .attr("version", 4)
        .attr("delay", 500)
        .attr("showgraph", "true")
        .attr("showtext", "true")
        .attr("minDisplayPieces", 0)
        .attr("summaryReportFormat", "$LocationName$")
        .attr("counterReportFormat", "")
        .attr("emptyHexReportForma", "$LocationName$")
        .attr("display", "from all layers")
        .attr("fontSize", 12)
        .attr("fgColor", "0,0,0")
        .attr("bgColor", "255,255,255")
        .attr("borderColor", "0,0,0")
        .attr("zoomlevel", "1.0")
        .attr("graphicsZoom", "1.0")
}

/// The main map's tools: overview, hide pieces, save as image, flare and, when the game has
/// one, the line-of-sight thread.
fn main_tools(plan: &BoardPlan, line_of_sight: bool) -> Vec<Element> {
    let (w, h) = plan.boards.iter().fold((0u32, 0u32), |(w, h), b| {
        (
            w.max(b.width + u32::try_from(b.origin.0).unwrap_or(0)),
            h.max(b.height + u32::try_from(b.origin.1).unwrap_or(0)),
        )
    });
    // The overview is about 400 pixels across its longer side.
    let scale = (400.0 / f64::from(w.max(h).max(1))).clamp(0.01, 1.0);
    let mut out = vec![
        Element::new(".module.map.GlobalMap")
            .attr("buttonText", "")
            .attr("color", "255,0,0")
            .attr("hotkey", "")
            .attr("icon", "/images/overview.gif")
            .attr("scale", format!("{scale:.4}"))
            .attr("tooltip", "Show or hide the overview map"),
        Element::new(".module.map.HidePiecesButton")
            .attr("buttonText", "")
            .attr("hiddenIcon", "/images/globe_selected.gif")
            .attr("hotkey", "")
            .attr("showingIcon", "/images/globe_unselected.gif")
            .attr("tooltip", "Hide or show the counters on the map"),
        Element::new(".module.map.ImageSaver")
            .attr("buttonText", "")
            .attr("hotkey", "")
            .attr("icon", "/images/camera.gif")
            .attr("tooltip", "Save the map as a PNG image"),
        Element::new(".module.map.Flare")
            .attr("flareName", "Flare")
            .attr("description", "Alt+click flares a hex for every player")
            .attr("flareKey", "keyAlt")
            .attr("circleSize", 100)
            .attr("circleColor", "255,0,0")
            .attr("circleScale", "true")
            .attr("flarePulses", 6)
            .attr("flarePulsesPerSec", 3)
            .attr("reportFormat", "$PlayerName$ flares $FlareLocation$"),
    ];
    if line_of_sight {
        out.push(
            Element::new(".module.map.LOS_Thread")
                .attr("threadName", "Line of Sight")
                .attr("label", "")
                .attr("tooltip", "Line of sight: drag from hex to hex")
                .attr("iconName", "/images/thread.gif")
                .attr("hotkey", "")
                .attr("snapStart", "true")
                .attr("snapEnd", "true")
                .attr("drawRange", "true")
                .attr("scale", 0)
                .attr("round", "Nearest whole number")
                .attr("hideCounters", "false")
                .attr("hideOpacity", 0)
                .attr("losThickness", 3)
                .attr("threadColor", "255,0,0")
                .attr("rangeFg", "255,255,255")
                .attr("rangeBg", "0,0,0")
                .attr("persistence", "Ctrl-Click & Drag")
                .attr("persistentIconName", "/images/thread.gif")
                .attr("global", "Always")
                .attr(
                    "report",
                    "$PlayerName$ checks line of sight from $FromLocation$ to $ToLocation$ (range $Range$)",
                ),
        );
    }
    out
}

fn map(name: &str, launch: bool, mark_moved: bool) -> Element {
    let m = Element::new(".module.Map")
        .attr("allowMultiple", "false")
        .attr("backgroundcolor", "255,255,255")
        .attr("buttonName", name)
        .attr("color", "0,0,0")
        .attr("edgeHeight", 0)
        .attr("edgeWidth", 0)
        .attr("launch", launch)
        .attr("mapName", name)
        .attr("markMoved", if mark_moved { "Always" } else { "Never" });
    let m = if mark_moved {
        m.attr("markUnmovedIcon", "/images/unmoved.gif")
            .attr("markUnmovedText", "")
            .attr("markUnmovedTooltip", "Mark every counter on this map as not moved")
            .attr("markUnmovedHotkey", "")
            .attr("markUnmovedReport", "$PlayerName$ marks every counter not moved")
    } else {
        m
    };
    m.attr("moveToFormat", "$pieceName$ moves $previousLocation$ &rarr; $location$ *")
        .attr(
            "moveWithinFormat",
            "$pieceName$ moves $previousLocation$ &rarr; $location$ *",
        )
        .attr("createFormat", "$pieceName$ created in $location$ *")
        .attr("thickness", 2)
}

fn numbering(g: &VassalGrid) -> Element {
    Element::new(".module.map.boardPicker.board.mapgrid.HexGridNumbering")
        .attr("color", "0,0,0")
        .attr("first", g.first)
        .attr("fontSize", 9)
        .attr("hDescend", g.h_descend)
        .attr("hDrawOff", 0)
        .attr("hLeading", g.h_leading)
        .attr("hOff", g.h_off)
        .attr("hType", g.h_type)
        .attr("locationFormat", &g.location_format)
        .attr("rotateText", 0)
        .attr("sep", &g.sep)
        .attr("stagger", g.stagger)
        .attr("vDescend", g.v_descend)
        .attr("vDrawOff", 0)
        .attr("vLeading", g.v_leading)
        .attr("vOff", g.v_off)
        .attr("vType", g.v_type)
        .attr("visible", "false")
}

fn hex_grid(g: &VassalGrid) -> Element {
    Element::new(".module.map.boardPicker.board.HexGrid")
        .attr("color", "0,0,0")
        .attr("cornersLegal", "false")
        .attr("dotsVisible", "false")
        .attr("dx", g.dx)
        .attr("dy", g.dy)
        .attr("edgesLegal", "false")
        .attr("sideways", g.sideways)
        .attr("snapTo", "true")
        .attr("visible", "false")
        .attr("x0", g.x0)
        .attr("y0", g.y0)
        .child(numbering(g))
}

fn zone(name: &str, path: &str, format: &str) -> Element {
    Element::new(".module.map.boardPicker.board.mapgrid.Zone")
        .attr("highlightProperty", "")
        .attr("locationFormat", format)
        .attr("name", name)
        .attr("path", path)
        .attr("useHighlight", "false")
        .attr("useParentGrid", "false")
}

fn picker(map_name: &str, boards: Vec<Element>, setup: Option<String>) -> Element {
    let mut p = Element::new(".module.map.BoardPicker")
        .attr("addColumnText", "Add column")
        .attr("addRowText", "Add row")
        .attr("boardPrompt", "Select board")
        .attr("slotHeight", 125)
        .attr("slotScale", "0.2")
        .attr("slotWidth", 350)
        .attr("title", format!("Choose boards for {map_name}"))
        .children(boards);
    if let Some(s) = setup {
        p = p.child(Element::new("setup").text(s));
    }
    p
}

/// The Map elements: the main map (if the game has a board) with its tools, the table of
/// holding boxes and decks, and the dead piles.
pub fn maps(
    plan: &BoardPlan,
    table: &Table,
    decks: &[(String, Vec<Slot>)],
    dead_piles: &DeadPiles,
    line_of_sight: bool,
    live_rules: bool,
) -> Vec<Element> {
    let mut out = Vec::new();
    if !plan.boards.is_empty() {
        let boards = plan
            .boards
            .iter()
            .map(|b| {
                let path = format!("0,0;{w},0;{w},{h};0,{h}", w = b.zone.0, h = b.zone.1);
                Element::new(".module.map.boardPicker.Board")
                    .attr("image", &b.image)
                    .attr("name", &b.name)
                    .attr("reversible", "false")
                    .attr("width", b.width)
                    .attr("height", b.height)
                    .child(Element::new(".module.map.boardPicker.board.ZonedGrid").child(
                        zone(&b.name, &path, "$gridLocation$").child(hex_grid(&b.grid)),
                    ))
            })
            .collect();
        let mut main = map(MAIN_MAP, false, true);
        if live_rules {
            main = main.attr("moveKey", keys::MOVED.encode());
        }
        out.push(
            main.child(picker(MAIN_MAP, boards, plan.main_restore()))
                .children(interaction())
                .children(main_tools(plan, line_of_sight))
                .children(live_rules.then(LiveRules::check_button)),
        );
    }
    if plan.has_table() {
        let mut grid = Element::new(".module.map.boardPicker.board.ZonedGrid");
        for a in table.boxes.iter().chain(&table.decks) {
            grid = grid.child(zone(&a.name, &a.path(), "$name$"));
        }
        let board = Element::new(".module.map.boardPicker.Board")
            .attr("image", plan.table.clone().unwrap_or_default())
            .attr("name", "Table")
            .attr("reversible", "false")
            .attr("width", table.width)
            .attr("height", table.height)
            .child(grid);
        let mut m = map(TABLE_MAP, true, false)
            .child(picker(TABLE_MAP, vec![board], plan.table_restore()))
            .children(interaction());
        for ((name, contents), area) in decks.iter().zip(&table.decks) {
            let (x, y) = area.centre();
            let mut pile = Element::new(".module.map.DrawPile")
                .attr("name", name)
                .attr("owningBoard", "Table")
                .attr("x", x)
                .attr("y", y)
                .attr("width", area.w * 2 / 3)
                .attr("height", area.h * 2 / 3)
                .attr("allowMultiple", "false")
                .attr("allowSelect", "false")
                .attr("faceDown", "Never")
                .attr("drawFaceUp", "true")
                .attr("shuffle", "Always")
                .attr("reversible", "false")
                .attr("draw", "true")
                .attr("reshufflable", "false")
                .attr("color", "255,255,255");
            for s in contents {
                pile = pile.child(super::build_file::slot_element(
                    s,
                    plan.counter_px,
                    plan.counter_px,
                ));
            }
            m = m.child(pile);
        }
        out.push(m);
    }
    if dead_piles.any() {
        let mut grid = Element::new(".module.map.boardPicker.board.ZonedGrid");
        for a in &dead_piles.board.boxes {
            grid = grid.child(zone(&a.name, &a.path(), "$name$"));
        }
        let board = Element::new(".module.map.boardPicker.Board")
            .attr("image", &dead_piles.image)
            .attr("name", DEAD_PILE_BOARD)
            .attr("reversible", "false")
            .attr("width", dead_piles.board.width)
            .attr("height", dead_piles.board.height)
            .child(grid);
        out.push(
            map(DEAD_PILE_MAP, true, false)
                .child(picker(DEAD_PILE_MAP, vec![board], Some(dead_pile_restore())))
                .children(interaction()),
        );
    }
    out
}

/// The BoardPicker restore command of the dead pile map.
pub fn dead_pile_restore() -> String {
    encode(
        &[
            format!("{DEAD_PILE_MAP}BoardPicker"),
            DEAD_PILE_BOARD.into(),
            "0".into(),
            "0".into(),
        ],
        TAB,
    )
}
