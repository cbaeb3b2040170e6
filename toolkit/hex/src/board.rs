//! Map sheets joined into one board, with labels that name every cell as printed.

use std::fmt;

use crate::{Cell, Grid, LabelError, Numbering};

/// Largest number of cells a board may have; larger maps are refused as absurd.
pub const MAX_CELLS: u64 = 2_000_000;

/// One printed map sheet placed on a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    /// The sheet's id (`a`, `b`, `main`).
    pub id: String,
    /// Number of columns on the sheet.
    pub cols: u32,
    /// Number of rows on the sheet.
    pub rows: u32,
    /// How the sheet numbers its hexes.
    pub numbering: Numbering,
    /// Board column of the sheet's leftmost column. Default: 0.
    pub col_offset: i32,
    /// Board row of the sheet's top row. Default: 0.
    pub row_offset: i32,
}

impl Sheet {
    /// A sheet at the board origin.
    pub fn new(id: &str, cols: u32, rows: u32, numbering: Numbering) -> Sheet {
        Sheet { id: id.to_string(), cols, rows, numbering, col_offset: 0, row_offset: 0 }
    }

    /// Does the board cell lie on this sheet?
    pub fn contains(&self, c: Cell) -> bool {
        let (col, row) = (c.col - self.col_offset, c.row - self.row_offset);
        col >= 0 && row >= 0 && (col as u32) < self.cols && (row as u32) < self.rows
    }

    fn local(&self, c: Cell) -> Cell {
        Cell::new(c.col - self.col_offset, c.row - self.row_offset)
    }
}

/// Why sheets cannot form a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// A board needs at least one sheet.
    Empty,
    /// A sheet has no cells.
    EmptySheet(String),
    /// The board is larger than [`MAX_CELLS`].
    TooLarge(u64),
    /// Two sheets cover the same cell.
    Overlap(String, String),
    /// Two sheets share a prefix, so labels would be ambiguous.
    SamePrefix(String, String),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Empty => write!(f, "a board needs at least one map sheet"),
            BoardError::EmptySheet(s) => write!(f, "map {s} has no hexes"),
            BoardError::TooLarge(n) => {
                write!(f, "the board has {n} hexes, more than the limit of {MAX_CELLS}")
            }
            BoardError::Overlap(a, b) => {
                write!(f, "maps {a} and {b} overlap on the board")
            }
            BoardError::SamePrefix(a, b) => write!(
                f,
                "maps {a} and {b} number their hexes with the same prefix, so labels would be ambiguous"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// Several sheets on one grid: distances and regions run across the joins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    sheets: Vec<Sheet>,
}

impl Board {
    /// Joins sheets into a board, refusing overlaps, ambiguous labels and absurd sizes.
    pub fn new(grid: Grid, sheets: Vec<Sheet>) -> Result<Board, BoardError> {
        if sheets.is_empty() {
            return Err(BoardError::Empty);
        }
        let mut total: u64 = 0;
        for s in &sheets {
            if s.cols == 0 || s.rows == 0 {
                return Err(BoardError::EmptySheet(s.id.clone()));
            }
            total += u64::from(s.cols) * u64::from(s.rows);
        }
        if total > MAX_CELLS {
            return Err(BoardError::TooLarge(total));
        }
        for (i, a) in sheets.iter().enumerate() {
            for b in &sheets[i + 1..] {
                let overlap = |a0: i32, al: u32, b0: i32, bl: u32| {
                    i64::from(a0) < i64::from(b0) + i64::from(bl)
                        && i64::from(b0) < i64::from(a0) + i64::from(al)
                };
                if overlap(a.col_offset, a.cols, b.col_offset, b.cols)
                    && overlap(a.row_offset, a.rows, b.row_offset, b.rows)
                {
                    return Err(BoardError::Overlap(a.id.clone(), b.id.clone()));
                }
                if a.numbering.prefix.starts_with(&b.numbering.prefix)
                    || b.numbering.prefix.starts_with(&a.numbering.prefix)
                {
                    return Err(BoardError::SamePrefix(a.id.clone(), b.id.clone()));
                }
            }
        }
        Ok(Board { grid, sheets })
    }

    /// The grid shape.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The sheets, in declaration order.
    pub fn sheets(&self) -> &[Sheet] {
        &self.sheets
    }

    /// The sheet a cell lies on.
    pub fn sheet_of(&self, c: Cell) -> Option<&Sheet> {
        self.sheets.iter().find(|s| s.contains(c))
    }

    /// Does the cell lie on any sheet?
    pub fn contains(&self, c: Cell) -> bool {
        self.sheet_of(c).is_some()
    }

    /// The printed label of a cell, or `None` off the board.
    pub fn label(&self, c: Cell) -> Option<String> {
        let s = self.sheet_of(c)?;
        Some(s.numbering.format(s.numbering.numbers_of(s.local(c), s.cols, s.rows)))
    }

    /// The cell a printed label names, or why it names none.
    pub fn parse(&self, label: &str) -> Result<Cell, LabelError> {
        let Some(sheet) = self.sheets.iter().find(|s| s.numbering.claims(label)) else {
            let forms: Vec<String> =
                self.sheets.iter().map(|s| s.numbering.describe()).collect();
            return Err(LabelError::Malformed {
                label: label.to_string(),
                expected: forms.join(" or "),
            });
        };
        let n = sheet.numbering.parse_numbers(label)?;
        let local =
            sheet.numbering.cell_of(n, sheet.cols, sheet.rows, label, &sheet.id)?;
        Ok(Cell::new(local.col + sheet.col_offset, local.row + sheet.row_offset))
    }

    /// Every cell of the board, sheet by sheet, column by column.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.sheets.iter().flat_map(|s| {
            (0..s.cols as i32).flat_map(move |col| {
                (0..s.rows as i32)
                    .map(move |row| Cell::new(col + s.col_offset, row + s.row_offset))
            })
        })
    }

    /// Hex distance between two cells.
    pub fn distance(&self, a: Cell, b: Cell) -> u32 {
        self.grid.distance(a, b)
    }

    /// The neighbours of a cell that lie on the board.
    pub fn neighbours(&self, c: Cell) -> Vec<Cell> {
        self.grid.neighbours(c).into_iter().filter(|n| self.contains(*n)).collect()
    }

    /// Every board cell within `n` hexes of `centre`, inclusive (SCS 0.4.5: "w/i 4"
    /// means four or fewer hexes away), sorted.
    pub fn within(&self, centre: Cell, n: u32) -> Vec<Cell> {
        let n = n.min(10_000) as i32;
        let mut out = Vec::new();
        for col in centre.col - n..=centre.col + n {
            for row in centre.row - n - 1..=centre.row + n + 1 {
                let c = Cell::new(col, row);
                if self.contains(c) && self.grid.distance(centre, c) <= n as u32 {
                    out.push(c);
                }
            }
        }
        out.sort();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Orientation, Stagger};

    fn scs_board() -> Board {
        let grid = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
        let a = Sheet::new("a", 62, 35, Numbering::scs("A"));
        let mut b = Sheet::new("b", 62, 35, Numbering::scs("B"));
        b.row_offset = 35;
        Board::new(grid, vec![a, b]).unwrap()
    }

    #[test]
    fn labels_round_trip_on_both_sheets() {
        let board = scs_board();
        for c in board.cells() {
            let label = board.label(c).unwrap();
            assert_eq!(board.parse(&label).unwrap(), c, "{label}");
        }
    }

    #[test]
    fn map_b_joins_below_map_a() {
        let board = scs_board();
        let a = board.parse("A30.01").unwrap();
        let b = board.parse("B30.35").unwrap();
        assert_eq!(board.distance(a, b), 1);
    }

    #[test]
    fn within_counts_hexes_inclusive() {
        let board = scs_board();
        let c = board.parse("A29.17").unwrap();
        // 1 + 6 + 12 + 18 + 24 = 61 hexes within 4.
        assert_eq!(board.within(c, 4).len(), 61);
        assert_eq!(board.within(c, 0), vec![c]);
    }

    #[test]
    fn region_is_clipped_at_the_board_edge() {
        let board = scs_board();
        let corner = board.parse("A1.35").unwrap();
        assert_eq!(corner, Cell::new(0, 0));
        // Column 0 has (0,1) below it and (1,0) beside it: 3 hexes within 1.
        assert_eq!(board.within(corner, 1).len(), 3);
    }

    #[test]
    fn unknown_prefix_lists_the_printed_forms() {
        let board = scs_board();
        let err = board.parse("C10.10").unwrap_err().to_string();
        assert!(err.contains("`A29.17`") && err.contains("`B29.17`"), "{err}");
    }

    #[test]
    fn overlapping_sheets_are_refused() {
        let grid = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
        let a = Sheet::new("a", 10, 10, Numbering::scs("A"));
        let mut b = Sheet::new("b", 10, 10, Numbering::scs("B"));
        b.row_offset = 5;
        assert_eq!(
            Board::new(grid, vec![a, b]),
            Err(BoardError::Overlap("a".into(), "b".into()))
        );
    }
}
