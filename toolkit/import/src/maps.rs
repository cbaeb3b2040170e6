//! Maps from a module's boards: a board with a hex grid becomes a painted map whose
//! columns, rows and numbering are those of the module's grid, its reference hexes the
//! centres VASSAL's grid puts them at.

use muster_hex::vassal::VassalGrid;
use muster_vassal::read::{BoardInfo, MapInfo, Zone};

use crate::carried::Report;
use crate::counters::slug;

/// The dots per inch the imported maps are declared at: the board's pixels give its size
/// in inches at this resolution, which `muster build --map-dpi` draws back at the same size.
pub const DPI: f64 = 150.0;

/// How one axis of a map is numbered, as `maps/<id>.yaml` says it.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The first number (the lowest), muster's: `A` is 1.
    pub first: i64,
    /// Zero-padded width.
    pub digits: u32,
    /// Whether the numbers fall as the index grows (right-to-left, bottom-to-top).
    pub descending: bool,
    /// Whether the axis is lettered.
    pub letters: bool,
}

/// A map to write: a board with a hex grid.
#[derive(Debug, Clone)]
pub struct HexMap {
    /// The map file's id.
    pub id: String,
    /// The board's name.
    pub name: String,
    /// The VASSAL map the board is on.
    pub map: String,
    /// The board's image under the module's `images/`.
    pub image: String,
    /// Board size in pixels.
    pub size: (u32, u32),
    /// Pointy-top (VASSAL's `sideways`).
    pub pointy: bool,
    /// Whether even (0, 2, …) lines are the shifted ones.
    pub stagger_even: bool,
    /// Columns and rows.
    pub columns: i64,
    /// Rows.
    pub rows: i64,
    /// Column numbering.
    pub column: Axis,
    /// Row numbering.
    pub row: Axis,
    /// Column number first.
    pub column_first: bool,
    /// Separator.
    pub separator: String,
    /// Prefix before every label.
    pub prefix: String,
    /// Hex size in inches at [`DPI`] (flat side to flat side).
    pub hex_size_in: f64,
    /// Reference hexes: label and centre in board pixels.
    pub references: Vec<(String, f64, f64)>,
}

fn bounds(zone: &Zone) -> (f64, f64, f64, f64) {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in &zone.path {
        x0 = x0.min(*x);
        y0 = y0.min(*y);
        x1 = x1.max(*x);
        y1 = y1.max(*y);
    }
    (x0, y0, x1 - x0, y1 - y0)
}

/// The raw index range whose centres lie inside `0..=extent` along one axis.
fn range(origin: f64, step: f64, extent: f64, shift: f64) -> (i64, i64) {
    let lo = ((-origin) / step).ceil() as i64;
    let hi = ((extent - origin - shift) / step).floor() as i64;
    (lo, hi)
}

/// The hex map of one board whose zone covers it with a hex grid.
fn hex_map(
    map: &MapInfo,
    board: &BoardInfo,
    zone: &Zone,
    g: &VassalGrid,
    path: &str,
    report: &mut Report,
) -> Option<HexMap> {
    let (zx, zy, w, h) = bounds(zone);
    if g.stagger {
        report.add(format!("{path}/HexGridNumbering"), "stagger=true", "muster numbers offset rows without VASSAL's staggered numbering; the hexes of odd columns are named one row apart");
    }
    // In VASSAL's own axes: u runs along the raw column index, v along the raw row.
    let (uw, vw) = if g.sideways { (h, w) } else { (w, h) };
    let (nx0, nx1) = range(g.x0 as f64, g.dx, uw, 0.0);
    let (ny0, ny1) = range(g.y0 as f64, g.dy, vw, g.dy / 2.0);
    let max_v = (h / g.dx + 0.5).floor() as i64;
    let max_h = (w / g.dy + 0.5).floor() as i64;
    // Muster's column index runs along real x, its row index along real y.
    let ((i0, i1), (j0, j1)) =
        if g.sideways { ((ny0, ny1), (nx0, nx1)) } else { ((nx0, nx1), (ny0, ny1)) };
    let (col_off, col_type, col_lead) = if g.sideways {
        (g.v_off, g.v_type, g.v_leading)
    } else {
        (g.h_off, g.h_type, g.h_leading)
    };
    let (row_off, row_type, row_lead) = if g.sideways {
        (g.h_off, g.h_type, g.h_leading)
    } else {
        (g.v_off, g.v_type, g.v_leading)
    };
    let col_number = |i: i64| (if g.h_descend { max_h - i } else { i }) + col_off;
    let row_number = |j: i64| (if g.v_descend { max_v - j } else { j }) + row_off;
    // Keep the indices whose numbers are not negative (muster numbers from 0).
    let keep = |lo: i64, hi: i64, n: &dyn Fn(i64) -> i64| -> Option<(i64, i64)> {
        let kept: Vec<i64> = (lo..=hi).filter(|k| n(*k) >= 0).collect();
        Some((*kept.first()?, *kept.last()?))
    };
    let Some((i0, i1)) = keep(i0, i1, &col_number) else {
        report.add(path, "HexGrid", "no hex of the grid has its centre on the board with a column number of 0 or more");
        return None;
    };
    let Some((j0, j1)) = keep(j0, j1, &row_number) else {
        report.add(path, "HexGrid", "no hex of the grid has its centre on the board with a row number of 0 or more");
        return None;
    };
    let axis = |lo: i64,
                hi: i64,
                n: &dyn Fn(i64) -> i64,
                kind: char,
                lead: u32,
                descending: bool| Axis {
        first: n(if descending { hi } else { lo }) + i64::from(kind == 'A'),
        digits: lead + 1,
        descending,
        letters: kind == 'A',
    };
    let Some(prefix) = g.location_format.strip_suffix("$gridLocation$") else {
        report.add(format!("{path}/HexGridNumbering"), format!("locationFormat {:?}", g.location_format), "muster's labels are a prefix and the grid location; the location names differ");
        return None;
    };
    if prefix.contains('$') {
        report.add(format!("{path}/HexGridNumbering"), format!("locationFormat {:?}", g.location_format), "a property in the location format has no muster equivalent; it is written as text");
    }
    // The centre of a raw index, in board pixels.
    let centre = |nx: i64, ny: i64| {
        let u = g.x0 as f64 + g.dx * nx as f64;
        let v =
            g.y0 as f64 + g.dy * ny as f64 + if nx % 2 != 0 { g.dy / 2.0 } else { 0.0 };
        let (x, y) = if g.sideways { (v, u) } else { (u, v) };
        (x + zx, y + zy)
    };
    let raw = |i: i64, j: i64| if g.sideways { (j, i) } else { (i, j) };
    let label = |i: i64, j: i64| {
        let (nx, ny) = raw(i, j);
        let (x, y) = centre(nx, ny);
        (zone.location(x - zx, y - zy), x, y)
    };
    let (nx_min, _) = raw(i0, j0);
    let references = [(i0, j0), (i1, j0), ((i0 + i1) / 2, j1)]
        .into_iter()
        .map(|(i, j)| label(i, j))
        .collect();
    Some(HexMap {
        id: slug(&board.name),
        name: board.name.clone(),
        map: map.name.clone(),
        image: board.image.clone(),
        size: (board.width, board.height),
        pointy: g.sideways,
        stagger_even: nx_min % 2 != 0,
        columns: i1 - i0 + 1,
        rows: j1 - j0 + 1,
        column: axis(i0, i1, &col_number, col_type, col_lead, g.h_descend),
        row: axis(j0, j1, &row_number, row_type, row_lead, g.v_descend),
        column_first: (g.first == 'H') != g.sideways,
        separator: g.sep.clone(),
        prefix: prefix.to_string(),
        hex_size_in: g.dy / DPI,
        references,
    })
}

/// What becomes of each board of the module: hex maps, and boards carried as images.
#[derive(Debug, Default)]
pub struct Boards {
    /// Boards with a hex grid.
    pub hex: Vec<HexMap>,
    /// Boards without one, carried as chart images: (title, image).
    pub images: Vec<(String, String)>,
}

/// Reads every board of every map.
pub fn boards(maps: &[MapInfo], report: &mut Report) -> Boards {
    let mut out = Boards::default();
    for map in maps {
        for board in &map.boards {
            let path = format!("Map[{}]/BoardPicker/Board[{}]", map.name, board.name);
            let gridded =
                board.zones.iter().find_map(|z| z.grid.as_ref().map(|g| (z, g)));
            let made = gridded.and_then(|(zone, g)| {
                let zpath = format!("{path}/ZonedGrid/Zone[{}]/HexGrid", zone.name);
                hex_map(map, board, zone, g, &zpath, report)
            });
            match made {
                Some(m) if out.hex.first().is_none_or(|f| f.pointy == m.pointy) => {
                    for z in board.zones.iter().filter(|z| z.grid.is_none() || z.name != zone_name(&m, board)) {
                        if z.grid.is_some() {
                            report.add(format!("{path}/ZonedGrid/Zone[{}]", z.name), "a second gridded zone", "only one hex grid per board is carried");
                        }
                    }
                    out.hex.push(m);
                }
                Some(_) => report.add(&path, "HexGrid", "its hexes lie the other way from the first map's; a muster game has one grid orientation"),
                None if board.image.is_empty() => report.add(&path, "Board", "has neither a hex grid nor an image"),
                None => {
                    for z in &board.zones {
                        report.add(format!("{path}/ZonedGrid/Zone[{}]", z.name), "Zone", "a board without a hex grid is carried as a chart image; its zones are not places of the game");
                    }
                    out.images.push((format!("{} ({})", board.name, map.name), board.image.clone()));
                }
            }
        }
    }
    out
}

fn zone_name<'a>(_m: &HexMap, board: &'a BoardInfo) -> &'a str {
    board.zones.iter().find(|z| z.grid.is_some()).map_or("", |z| z.name.as_str())
}
