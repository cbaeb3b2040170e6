//! Maps from a module's boards: a board with a hex grid becomes a painted map whose
//! columns, rows and numbering are those of the module's grid, its reference hexes the
//! centres VASSAL's grid puts them at.

use muster_hex::vassal::VassalGrid;
use muster_hex::{Board, Cell, Grid, Numbering, Sheet};
use muster_vassal::read::{BoardInfo, Grid as ModuleGrid, MapInfo, Zone};
use serde_json::json;

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
    /// How far muster's regular hexes may miss the module's, in pixels: the module's
    /// grid may space its lines otherwise than a regular hexagon does.
    pub tolerance_px: f64,
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

/// The index range of the hexes that reach into `0..=extent` along one axis (their
/// centres at most half a hex outside), on lines unshifted or shifted by `shift`: a
/// piece may stand on any part of the board, and the hexes of a row that lie past the
/// board's edge on every other line hold none.
fn range(origin: f64, step: f64, extent: f64, shift: f64) -> (i64, i64) {
    let lo = ((-origin - shift.max(0.0) - step / 2.0) / step).ceil() as i64;
    let hi = ((extent - origin - shift.min(0.0) + step / 2.0) / step).floor() as i64;
    (lo, hi)
}

/// How far odd raw columns lie from even ones along the row index, for the hexes a
/// number names: half a hex lower, or, when VASSAL's `stagger` numbers odd columns one
/// further along the row axis, half a hex higher.
fn odd_shift(g: &VassalGrid) -> f64 {
    if g.stagger { -g.dy / 2.0 } else { g.dy / 2.0 }
}

/// The miss a regular grid fitted to the module's may have: muster's default of 1.5
/// pixels, plus half the drift, over the map, of the module's line spacing from a regular
/// hexagon's when that reaches half a pixel.
fn tolerance(g: &VassalGrid, columns: i64, rows: i64) -> f64 {
    let regular = g.dy * 3f64.sqrt() / 2.0;
    let lines = if g.sideways { rows } else { columns } as f64;
    let drift = (g.dx - regular).abs() * lines / 2.0;
    if drift < 0.5 { 1.5 } else { (drift + 1.5).ceil() }
}

/// The hex map of one board whose zone covers it with a hex grid: of the ways muster can
/// lay out VASSAL's staggered numbering, the one that names the most hexes as the module
/// does; the hexes still named otherwise are reported.
fn hex_map(
    map: &MapInfo,
    board: &BoardInfo,
    zone: &Zone,
    g: &VassalGrid,
    path: &str,
    report: &mut Report,
) -> Option<HexMap> {
    let shifts =
        if g.stagger { vec![odd_shift(g), -odd_shift(g)] } else { vec![g.dy / 2.0] };
    let mut best: Option<(HexMap, Naming)> = None;
    for shift in shifts {
        let Some((made, named)) = laid_out(map, board, zone, g, path, shift, report)
        else {
            continue;
        };
        let wrong = |n: &Naming| n.as_ref().map_or(usize::MAX, |n| n.0);
        if best.as_ref().is_none_or(|(_, b)| wrong(&named) < wrong(b)) {
            best = Some((made, named));
        }
    }
    let (made, named) = best?;
    match named {
        Ok((0, _)) => {}
        Ok((wrong, example)) => report.add(
            format!("{path}/HexGridNumbering"),
            "numbering",
            format!(
                "{wrong} of {} hexes would be named otherwise than the module names them ({example}); muster's numbering cannot write this one",
                made.columns * made.rows
            ),
        ),
        Err(e) => report.add(
            format!("{path}/HexGridNumbering"),
            "numbering",
            format!("has no muster equivalent ({e})"),
        ),
    }
    Some(made)
}

/// The hex map with odd raw columns `shift` pixels from even ones along the row index,
/// and how many hexes muster would name otherwise than the module.
#[allow(clippy::too_many_arguments)]
fn laid_out(
    map: &MapInfo,
    board: &BoardInfo,
    zone: &Zone,
    g: &VassalGrid,
    path: &str,
    shift: f64,
    report: &mut Report,
) -> Option<(HexMap, Naming)> {
    let (zx, zy, w, h) = bounds(zone);
    if board.width == 0 || board.height == 0 {
        report.add(path, "HexGrid", "its board's size is unknown (an image whose header muster does not read); the board is carried as an image");
        return None;
    }
    // In VASSAL's own axes: u runs along the raw column index, v along the raw row.
    let (uw, vw) = if g.sideways { (h, w) } else { (w, h) };
    let (nx0, nx1) = range(g.x0 as f64, g.dx, uw, 0.0);
    let (ny0, ny1) = range(g.y0 as f64, g.dy, vw, shift);
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
    // The name VASSAL gives a hex: the zone's format around the numbering's.
    let format = zone
        .format
        .replace("$name$", &zone.name)
        .replace("$gridLocation$", &g.location_format);
    let Some(prefix) = format.strip_suffix("$gridLocation$") else {
        report.add(
            format!("{path}/HexGridNumbering"),
            format!("locationFormat {format:?}"),
            "muster's labels are a prefix and the grid location; the map is carried as an image",
        );
        return None;
    };
    if prefix.contains('$') {
        report.add(
            format!("{path}/HexGridNumbering"),
            format!("locationFormat {format:?}"),
            "a property in the location format has no muster equivalent; it is written as text",
        );
    }
    // The centre of a raw index, in board pixels.
    let centre = |nx: i64, ny: i64| {
        let u = g.x0 as f64 + g.dx * nx as f64;
        let v = g.y0 as f64 + g.dy * ny as f64 + if nx % 2 != 0 { shift } else { 0.0 };
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
    // Three hexes far apart whose centres stand on the board: the first and last of the
    // top row that has two, and the middle one of the bottom row.
    let on_board = |i: i64, j: i64| {
        let (_, x, y) = label(i, j);
        (0.0..=f64::from(board.width)).contains(&x)
            && (0.0..=f64::from(board.height)).contains(&y)
    };
    let row_ends = |j: i64| {
        let on: Vec<i64> = (i0..=i1).filter(|i| on_board(*i, j)).collect();
        Some((*on.first()?, *on.last()?))
    };
    let top = (j0..=j1).find_map(|j| row_ends(j).filter(|(a, b)| a != b).map(|e| (j, e)));
    let bottom = (j0..=j1).rev().find_map(|j| row_ends(j).map(|e| (j, e)));
    let references = match (top, bottom) {
        (Some((jt, (a, b))), Some((jb, (c, d)))) if jb != jt => {
            [(a, jt), (b, jt), ((c + d) / 2, jb)]
                .into_iter()
                .map(|(i, j)| label(i, j))
                .collect()
        }
        _ => {
            report.add(path, "HexGrid", "fewer than two rows of its hexes stand on the board; the board is carried as an image");
            return None;
        }
    };
    let made = HexMap {
        id: slug(&board.name),
        name: board.name.clone(),
        map: map.name.clone(),
        image: board.image.clone(),
        size: (board.width, board.height),
        pointy: g.sideways,
        stagger_even: (nx_min % 2 != 0) == (shift > 0.0),
        columns: i1 - i0 + 1,
        rows: j1 - j0 + 1,
        column: axis(i0, i1, &col_number, col_type, col_lead, g.h_descend),
        row: axis(j0, j1, &row_number, row_type, row_lead, g.v_descend),
        column_first: (g.first == 'H') != g.sideways,
        separator: g.sep.clone(),
        prefix: prefix.to_string(),
        hex_size_in: g.dy / DPI,
        references,
        tolerance_px: tolerance(g, i1 - i0 + 1, j1 - j0 + 1),
    };
    let named = misnamed(&made, &|c, r| label(i0 + c, j0 + r).0);
    Some((made, named))
}

/// The board muster would make of `m`, read through the same JSON form as its map file.
pub fn board(m: &HexMap) -> Result<Board, String> {
    let axis = |a: &Axis, up: &str, down: &str| {
        json!({"first": a.first, "digits": a.digits, "letters": a.letters,
               "direction": if a.descending { down } else { up }})
    };
    let numbering: Numbering = serde_json::from_value(json!({
        "prefix": m.prefix,
        "column": axis(&m.column, "left-to-right", "right-to-left"),
        "row": axis(&m.row, "top-to-bottom", "bottom-to-top"),
        "separator": m.separator,
        "order": if m.column_first { "column-row" } else { "row-column" },
    }))
    .map_err(|e| e.to_string())?;
    let grid: Grid = serde_json::from_value(json!({
        "orientation": if m.pointy { "pointy-top" } else { "flat-top" },
        "stagger": if m.stagger_even { "even" } else { "odd" },
    }))
    .map_err(|e| e.to_string())?;
    let (cols, rows) = (u32::try_from(m.columns), u32::try_from(m.rows));
    let (Ok(cols), Ok(rows)) = (cols, rows) else { return Err("too many hexes".into()) };
    Board::new(grid, vec![Sheet::new(&m.id, cols, rows, numbering)])
        .map_err(|e| e.to_string())
}

/// How many hexes of `m` muster would name otherwise than `module_name(column, row)`
/// does, with the first of them.
fn misnamed(m: &HexMap, module_name: &dyn Fn(i64, i64) -> String) -> Naming {
    let board = board(m)?;
    let mut wrong = 0;
    let mut example = String::new();
    for c in 0..m.columns {
        for r in 0..m.rows {
            let ours = i32::try_from(c)
                .ok()
                .zip(i32::try_from(r).ok())
                .and_then(|(c, r)| board.label(Cell::new(c, r)))
                .unwrap_or_default();
            let theirs = module_name(c, r);
            if ours != theirs {
                if wrong == 0 {
                    example = format!("{theirs:?} would be {ours:?}");
                }
                wrong += 1;
            }
        }
    }
    Ok((wrong, example))
}

/// How many hexes muster would name otherwise than the module, with the first of them;
/// or why muster cannot number the map at all.
pub type Naming = Result<(usize, String), String>;

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
            let made = match (gridded, &board.grid) {
                (Some((zone, g)), _) => {
                    let zpath = format!("{path}/ZonedGrid/Zone[{}]/HexGrid", zone.name);
                    hex_map(map, board, zone, g, &zpath, report)
                }
                // A grid on the board itself names points as a zone over the whole
                // board does.
                (None, Some(ModuleGrid::Hex(Some(g)))) => {
                    let (w, h) = (f64::from(board.width), f64::from(board.height));
                    let whole = Zone {
                        grid: Some(g.clone()),
                        own_grid: Some(ModuleGrid::Hex(Some(g.clone()))),
                        ..Zone::new(
                            &board.name,
                            "$gridLocation$",
                            vec![(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)],
                        )
                    };
                    hex_map(map, board, &whole, g, &format!("{path}/HexGrid"), report)
                }
                (None, _) => None,
            };
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

#[cfg(test)]
mod tests {
    use muster_hex::pixel::Layout;
    use muster_hex::vassal::grid_params;
    use muster_vassal::read::{BoardInfo, MapInfo, Zone};
    use serde_json::json;

    /// `Main Map` of one board (name, image, width, height) whose one zone holds `g`.
    fn hex_zone_map(
        board: (&str, &str, u32, u32),
        path: Vec<(f64, f64)>,
        g: &muster_hex::vassal::VassalGrid,
    ) -> MapInfo {
        let zone = Zone {
            grid: Some(g.clone()),
            own_grid: Some(muster_vassal::module_read::Grid::Hex(Some(g.clone()))),
            ..Zone::new(board.0, "$gridLocation$", path)
        };
        MapInfo {
            name: "Main Map".into(),
            boards: vec![BoardInfo {
                image: board.1.into(),
                zones: vec![zone],
                ..BoardInfo::new(board.0, board.2, board.3)
            }],
            ..MapInfo::default()
        }
    }

    use super::*;

    /// A board muster drew, with the VASSAL grid muster's module gives it: what the import
    /// reads back must number every hex as the board does.
    /// Draws a board in `grid` and `numbering`, puts its VASSAL grid in a zone over the
    /// board (or, `on_board`, on the board itself), and reads it back.
    fn round_trip(
        grid: serde_json::Value,
        numbering: serde_json::Value,
        (cols, rows): (u32, u32),
        on_board: bool,
    ) {
        let grid: Grid = serde_json::from_value(grid).unwrap();
        let numbering: Numbering = serde_json::from_value(numbering).unwrap();
        let board =
            Board::new(grid, vec![Sheet::new("m", cols, rows, numbering)]).unwrap();
        let sheet = &board.sheets()[0];
        let hex = 90.0;
        let layout = Layout { grid, hex_size: hex, origin: (hex * 0.9, hex * 0.8) };
        let (w, h) =
            (f64::from(cols) * hex + 1.7 * hex, f64::from(rows) * hex + 1.6 * hex);
        let g = grid_params(&board, sheet, &layout, w, h);
        let path = vec![(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
        let mut map = hex_zone_map(("Board", "board.png", w as u32, h as u32), path, &g);
        if on_board {
            let board = &mut map.boards[0];
            board.zones.clear();
            board.grid = Some(super::ModuleGrid::Hex(Some(g.clone())));
        }
        let mut report = Report::default();
        let read = boards(&[map], &mut report);
        assert!(report.not_carried.is_empty(), "{g:?}: {:#?}", report.not_carried);
        let m = &read.hex[0];
        assert_eq!(m.pointy, grid.orientation == muster_hex::Orientation::PointyTop);
        let again = super::board(m).unwrap();
        // Every hex of the drawn board is a hex of the imported one, named the same at
        // the same place.
        for c in board.cells() {
            let label = board.label(c).unwrap();
            let (x, y) = layout.centre(c);
            assert_eq!(g.location_name(x, y, w, h), label, "{c:?}");
            assert!(again.parse(&label).is_ok(), "{label} is not a hex of {m:?}");
        }
    }

    #[test]
    fn the_grids_muster_writes_read_back_with_their_numbering() {
        let ltr = json!({"first": 1, "digits": 2, "direction": "left-to-right"});
        let rtl = json!({"first": 0, "digits": 2, "direction": "right-to-left"});
        let ttb = json!({"first": 1, "digits": 2, "direction": "top-to-bottom"});
        let btt = json!({"first": 3, "digits": 2, "direction": "bottom-to-top"});
        let letters = json!({"first": 1, "digits": 1, "direction": "top-to-bottom", "letters": true});
        for orientation in ["flat-top", "pointy-top"] {
            for stagger in ["odd", "even"] {
                let grid = json!({"orientation": orientation, "stagger": stagger});
                for (column, row, order, separator, prefix) in [
                    (&ltr, &ttb, "column-row", "", ""),
                    (&rtl, &ttb, "column-row", ".", ""),
                    (&ltr, &btt, "column-row", ".", "A"),
                    (&ltr, &letters, "row-column", "", ""),
                ] {
                    let numbering = json!({"prefix": prefix, "column": column, "row": row,
                        "separator": separator, "order": order});
                    round_trip(grid.clone(), numbering.clone(), (9, 7), false);
                    round_trip(grid.clone(), numbering, (9, 7), true);
                }
            }
        }
    }

    /// Ragnarok's grid: sideways, rows numbered bottom to top, odd columns counted one
    /// further (`stagger`), hexes slightly wider than regular.
    #[test]
    fn a_staggered_sideways_grid_is_numbered_as_vassal_names_it() {
        let g = VassalGrid {
            sideways: true,
            x0: 21,
            y0: 24,
            dx: 97.719_785_415_357_86,
            dy: 112.4,
            first: 'H',
            sep: String::new(),
            h_leading: 1,
            v_leading: 1,
            h_off: 0,
            v_off: 0,
            h_descend: false,
            v_descend: true,
            h_type: 'N',
            v_type: 'N',
            stagger: true,
            location_format: "$gridLocation$".into(),
        };
        let path = vec![(12.0, 34.0), (3081.0, 34.0), (3074.0, 1760.0), (17.0, 1757.0)];
        let map = hex_zone_map(("Map", "map.jpg", 3300, 2457), path, &g);
        let mut report = Report::default();
        let read = boards(&[map], &mut report);
        assert!(report.not_carried.is_empty(), "{:#?}", report.not_carried);
        let m = &read.hex[0];
        assert!(m.pointy && m.row.descending && !m.column.descending, "{m:?}");
        assert!(m.tolerance_px > 1.5, "{m:?}");
    }
}
