//! VASSAL grid parameters derived from the same geometry that draws the map, and a model of
//! how VASSAL 3.7 names a point, so that tests can prove VASSAL's location name for every
//! hex equals the printed label.
//!
//! The formulas follow VASSAL's `HexGrid` and `HexGridNumbering` (raw column and row by
//! rounding, odd raw columns shifted down by half a hex, `maxRows` computed from the
//! container height divided by the hex *width*, descending axes flipped against it).

use crate::numbering::{ColumnDirection, Order, RowDirection};
use crate::pixel::Layout;
use crate::{Board, Cell, Orientation, Sheet};

/// The attributes of a VASSAL `HexGrid` and its `HexGridNumbering`.
#[derive(Debug, Clone, PartialEq)]
pub struct VassalGrid {
    /// `sideways`: true for pointy-top hexes.
    pub sideways: bool,
    /// `x0`: integer x of the reference hex centre, in container pixels.
    pub x0: i64,
    /// `y0`: integer y of the reference hex centre.
    pub y0: i64,
    /// `dx`: distance between column centres.
    pub dx: f64,
    /// `dy`: distance between centres within a column.
    pub dy: f64,
    /// `first`: `H` for column first, `V` for row first.
    pub first: char,
    /// `sep`.
    pub sep: String,
    /// `hLeading`.
    pub h_leading: u32,
    /// `vLeading`.
    pub v_leading: u32,
    /// `hOff`.
    pub h_off: i64,
    /// `vOff`.
    pub v_off: i64,
    /// `hDescend`.
    pub h_descend: bool,
    /// `vDescend`.
    pub v_descend: bool,
    /// `hType`: `A` for a lettered axis, else `N`.
    pub h_type: char,
    /// `vType`: `A` for a lettered axis, else `N`.
    pub v_type: char,
    /// `stagger`: always false, since muster's rows are offset rows.
    pub stagger: bool,
    /// `locationFormat`, such as `A$gridLocation$`.
    pub location_format: String,
}

/// Computes the VASSAL grid of one sheet drawn with `layout` (in container pixels) in a
/// container (board image or zone) of `width` by `height` pixels.
pub fn grid_params(
    board: &Board,
    sheet: &Sheet,
    layout: &Layout,
    width: f64,
    height: f64,
) -> VassalGrid {
    let sideways = board.grid().orientation == Orientation::PointyTop;
    // A reference hex on an unshifted line, so VASSAL's "odd raw columns are lower" matches.
    let shifted0 =
        board.grid().shifted(if sideways { sheet.row_offset } else { sheet.col_offset });
    let reference = if sideways {
        Cell::new(sheet.col_offset, sheet.row_offset + i32::from(shifted0))
    } else {
        Cell::new(sheet.col_offset + i32::from(shifted0), sheet.row_offset)
    };
    let (rx, ry) = layout.centre(reference);
    let (sx, sy) = layout.spacing();
    let local =
        Cell::new(reference.col - sheet.col_offset, reference.row - sheet.row_offset);
    let num = sheet.numbering.numbers_of(local, sheet.cols, sheet.rows);
    let n = &sheet.numbering;
    // In VASSAL terms, the "column" index runs along x (along y when sideways).
    let (x0, y0, dx, dy) = if sideways {
        (ry.round() as i64, rx.round() as i64, sy, sx)
    } else {
        (rx.round() as i64, ry.round() as i64, sx, sy)
    };
    // VASSAL flips the vertical index (vDescend) against floor(height / dx + 0.5) and the
    // horizontal one (hDescend) against floor(width / dy + 0.5), sideways or not.
    let max_v = (height / dx + 0.5).floor() as i64;
    let max_h = (width / dy + 0.5).floor() as i64;
    // VASSAL's alphabetic numbering names 0 `A`; muster's letters name 1 `A`.
    let (c_ref, r_ref) = (
        i64::from(num.column) - i64::from(n.column.letters),
        i64::from(num.row) - i64::from(n.row.letters),
    );
    let kind = |letters: bool| if letters { 'A' } else { 'N' };
    let (h_type, v_type) = if sideways {
        (kind(n.row.letters), kind(n.column.letters))
    } else {
        (kind(n.column.letters), kind(n.row.letters))
    };
    let col_desc = n.column.direction == ColumnDirection::RightToLeft;
    let row_desc = n.row.direction == RowDirection::BottomToTop;
    let off = |reference: i64, descending: bool, max: i64| {
        if descending { reference - max } else { reference }
    };
    // VASSAL's "column" is our column on a normal grid and our row on a sideways one.
    let (h_off, h_leading, v_off, v_leading) = if sideways {
        (
            off(r_ref, row_desc, max_v),
            n.row.digits,
            off(c_ref, col_desc, max_h),
            n.column.digits,
        )
    } else {
        (
            off(c_ref, col_desc, max_h),
            n.column.digits,
            off(r_ref, row_desc, max_v),
            n.row.digits,
        )
    };
    let column_first = n.order == Order::ColumnRow;
    VassalGrid {
        sideways,
        x0,
        y0,
        dx,
        dy,
        first: if column_first != sideways { 'H' } else { 'V' },
        sep: n.separator.clone(),
        h_leading: u32::from(h_leading.saturating_sub(1)),
        v_leading: u32::from(v_leading.saturating_sub(1)),
        h_off,
        v_off,
        h_descend: col_desc,
        v_descend: row_desc,
        h_type,
        v_type,
        stagger: false,
        location_format: format!("{}$gridLocation$", n.prefix),
    }
}

fn java_round(v: f64) -> i64 {
    (v + 0.5).floor() as i64
}

/// `RegularGridNumbering.getName`: a value in letters (`A` for 0, `AA` for 26) or in
/// digits padded with `leading` zeros.
fn name(v: i64, kind: char, leading: u32) -> String {
    let mut out = String::new();
    if v < 0 {
        out.push('-');
    }
    let a = v.unsigned_abs();
    if kind == 'A' {
        out.push_str(&crate::numbering::letters_of(
            u32::try_from(a).unwrap_or(u32::MAX - 1) + 1,
        ));
        return out;
    }
    let mut l = leading;
    while l > 0 && a < 10u64.pow(l) {
        out.push('0');
        l -= 1;
    }
    out.push_str(&a.to_string());
    out
}

impl VassalGrid {
    /// VASSAL's raw column and row of a point (`HexGrid.getRawColumn`/`getRawRow`): odd raw
    /// columns lie half a hex lower. Sideways grids swap the point first (the origin stays
    /// as written).
    fn raw_index(&self, x: f64, y: f64) -> (i64, i64) {
        let (px, py) = if self.sideways { (y, x) } else { (x, y) };
        let (x0, y0) = (self.x0 as f64, self.y0 as f64);
        let nx = ((px - x0) / self.dx + 0.5).floor() as i64;
        let ny = if nx % 2 == 0 {
            java_round((py - y0) / self.dy)
        } else {
            java_round((py - y0 - self.dy / 2.0) / self.dy)
        };
        (nx, ny)
    }

    /// The point VASSAL 3.7 snaps `(x, y)` to: the integer centre of the hex it falls in,
    /// as `HexGrid.hexPointCenterFromRawIndex` computes it.
    pub fn snap(&self, x: f64, y: f64) -> (i64, i64) {
        let (x0, y0) = (self.x0 as f64, self.y0 as f64);
        let (nx, ny) = self.raw_index(x, y);
        let cx = (self.dx * nx as f64 + x0) as i64;
        let cy = if nx % 2 == 0 {
            (self.dy * ny as f64 + y0) as i64
        } else {
            (self.dy * ny as f64 + (self.dy / 2.0).trunc() + y0) as i64
        };
        if self.sideways { (cy, cx) } else { (cx, cy) }
    }

    /// The location name VASSAL 3.7 gives the point `(x, y)` of a container of
    /// `width` by `height` pixels.
    pub fn location_name(&self, x: f64, y: f64, width: f64, height: f64) -> String {
        let (nx, ny) = self.raw_index(x, y);
        let max_v = (height / self.dx + 0.5).floor() as i64;
        let max_h = (width / self.dy + 0.5).floor() as i64;
        // The index along real y is flipped by vDescend, the one along real x by hDescend.
        let (mut vertical, mut horizontal) =
            if self.sideways { (nx, ny) } else { (ny, nx) };
        if self.v_descend {
            vertical = max_v - vertical;
        }
        if self.h_descend {
            horizontal = max_h - horizontal;
        }
        let (column, mut row) =
            if self.sideways { (vertical, horizontal) } else { (horizontal, vertical) };
        // VASSAL counts the odd columns one further along the row axis, back down when
        // that axis descends (hDescend when sideways, vDescend otherwise).
        let row_descends = if self.sideways { self.h_descend } else { self.v_descend };
        if self.stagger && nx % 2 != 0 {
            row += if row_descends { -1 } else { 1 };
        }
        let c = name(column + self.h_off, self.h_type, self.h_leading);
        let r = name(row + self.v_off, self.v_type, self.v_leading);
        let grid = if self.first == 'H' {
            format!("{c}{}{r}", self.sep)
        } else {
            format!("{r}{}{c}", self.sep)
        };
        self.location_format.replace("$gridLocation$", &grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, Numbering, Stagger};

    fn check(board: &Board, hex_px: f64) {
        for sheet in board.sheets() {
            let probe =
                Layout { grid: board.grid(), hex_size: hex_px, origin: (0.0, 0.0) };
            let first = Cell::new(sheet.col_offset, sheet.row_offset);
            let (fx, fy) = probe.centre(first);
            let layout = Layout {
                grid: board.grid(),
                hex_size: hex_px,
                origin: (hex_px - fx + 7.3, hex_px - fy + 5.1),
            };
            let (w, h) = (
                sheet.cols as f64 * hex_px + 2.0 * hex_px,
                sheet.rows as f64 * hex_px + 2.0 * hex_px,
            );
            let g = grid_params(board, sheet, &layout, w, h);
            for c in board.cells().filter(|c| sheet.contains(*c)) {
                let (x, y) = layout.centre(c);
                assert_eq!(
                    g.location_name(x, y, w, h),
                    board.label(c).unwrap(),
                    "{c:?} {g:?}"
                );
                // Where VASSAL snaps a piece dropped on the centre is named the same.
                let (sx, sy) = g.snap(x, y);
                assert!((sx as f64 - x).abs() < 1.5 && (sy as f64 - y).abs() < 1.5);
                assert_eq!(
                    g.location_name(sx as f64, sy as f64, w, h),
                    board.label(c).unwrap()
                );
            }
        }
    }

    #[test]
    fn vassal_names_scs_hexes_as_printed() {
        let grid = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
        let a = Sheet::new("a", 62, 35, Numbering::scs("A"));
        let mut b = Sheet::new("b", 62, 35, Numbering::scs("B"));
        b.row_offset = 35;
        let board = Board::new(grid, vec![a, b]).unwrap();
        check(&board, 93.75);
        check(&board, 187.5);
    }

    #[test]
    fn vassal_names_lettered_rows_as_printed() {
        use crate::numbering::AxisNumbering;
        for (orientation, order) in [
            (Orientation::FlatTop, Order::RowColumn),
            (Orientation::PointyTop, Order::RowColumn),
            (Orientation::FlatTop, Order::ColumnRow),
        ] {
            let numbering = Numbering {
                prefix: String::new(),
                column: AxisNumbering {
                    first: 1,
                    digits: 2,
                    direction: ColumnDirection::LeftToRight,
                    letters: false,
                },
                row: AxisNumbering {
                    first: 1,
                    digits: 1,
                    direction: RowDirection::TopToBottom,
                    letters: true,
                },
                separator: String::new(),
                order,
            };
            let board = Board::new(
                Grid { orientation, stagger: Stagger::Even },
                vec![Sheet::new("m", 19, 13, numbering)],
            )
            .unwrap();
            if order == Order::RowColumn {
                assert_eq!(board.label(Cell::new(12, 5)).unwrap(), "F13");
                assert_eq!(board.parse("F13"), Ok(Cell::new(12, 5)));
                assert!(board.parse("F1x").is_err() && board.parse("FG13").is_err());
            }
            check(&board, 72.0);
        }
    }

    #[test]
    fn vassal_names_other_schemes_as_printed() {
        use crate::numbering::AxisNumbering;
        for (orientation, stagger) in [
            (Orientation::FlatTop, Stagger::Even),
            (Orientation::PointyTop, Stagger::Even),
            (Orientation::PointyTop, Stagger::Odd),
        ] {
            for (cd, rd) in [
                (ColumnDirection::LeftToRight, RowDirection::TopToBottom),
                (ColumnDirection::RightToLeft, RowDirection::TopToBottom),
                (ColumnDirection::LeftToRight, RowDirection::BottomToTop),
            ] {
                let numbering = Numbering {
                    prefix: String::new(),
                    column: AxisNumbering {
                        first: 0,
                        digits: 2,
                        direction: cd,
                        letters: false,
                    },
                    row: AxisNumbering {
                        first: 1,
                        digits: 2,
                        direction: rd,
                        letters: false,
                    },
                    separator: String::new(),
                    order: Order::ColumnRow,
                };
                let board = Board::new(
                    Grid { orientation, stagger },
                    vec![Sheet::new("m", 12, 10, numbering)],
                )
                .unwrap();
                check(&board, 72.0);
            }
        }
    }

    /// `HexGridNumbering.getRow`: on a sideways grid the staggered odd columns count one
    /// further along the row axis unless *that* axis (hDescend) descends; vDescend says
    /// nothing of it.
    #[test]
    fn staggered_sideways_grids_count_odd_columns_as_vassal_does() {
        let g = VassalGrid {
            sideways: true,
            x0: 21,
            y0: 24,
            dx: 97.72,
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
        let (w, h) = (3069.0, 1726.0);
        // A point VASSAL 3.7.26 names 0101 on the module this grid comes from.
        let module = VassalGrid {
            dx: 97.719_785_415_357_86,
            dy: 112.399_999_999_998_95,
            ..g.clone()
        };
        assert_eq!(module.location_name(80.0, 1682.0, w, h), "0101");
        // Raw column 1 (the second line down), raw row 2: the row counts 3, not 1.
        let (x, y) = (24.0 + 112.4 * 2.0 + 56.2, 21.0 + 97.72);
        let max_v = (h / g.dx + 0.5).floor() as i64;
        assert_eq!(g.location_name(x, y, w, h), format!("{:02}03", max_v - 1));
        let descending = VassalGrid { h_descend: true, ..g.clone() };
        let max_h = (w / g.dy + 0.5).floor() as i64;
        assert_eq!(
            descending.location_name(x, y, w, h),
            format!("{:02}{:02}", max_v - 1, max_h - 2 - 1)
        );
    }
}
