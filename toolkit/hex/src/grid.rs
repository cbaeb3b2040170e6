//! Integer hex geometry: offset cells, cube coordinates, neighbours, distance, hexsides.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which way the hexes point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Orientation {
    /// Flat edges at top and bottom; hexes form vertical columns.
    FlatTop,
    /// Points at top and bottom; hexes form horizontal rows.
    PointyTop,
}

/// Which columns (flat-top) or rows (pointy-top) are pushed half a hex down (or right).
///
/// Counted on the board's own zero-based index, from the top-left cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Stagger {
    /// Index 1, 3, 5, … is shifted.
    Odd,
    /// Index 0, 2, 4, … is shifted.
    Even,
}

/// The shape of a grid: orientation and stagger. Size lives in [`crate::Board`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// Flat-top or pointy-top.
    pub orientation: Orientation,
    /// Which lines are shifted half a hex.
    pub stagger: Stagger,
}

/// A cell of a board in offset coordinates: column from the left, row from the top,
/// both zero-based on the whole board.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    JsonSchema,
)]
pub struct Cell {
    /// Zero-based column, left to right.
    pub col: i32,
    /// Zero-based row, top to bottom.
    pub row: i32,
}

impl Cell {
    /// A cell at `col`, `row`.
    pub const fn new(col: i32, row: i32) -> Self {
        Self { col, row }
    }
}

/// One of the six directions out of a hex, numbered clockwise.
///
/// For flat-top grids 0 is north; for pointy-top grids 0 is north-east.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    JsonSchema,
)]
pub struct Direction(pub u8);

impl Direction {
    /// All six directions, clockwise.
    pub const ALL: [Direction; 6] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
    ];

    /// The direction pointing the other way.
    pub fn opposite(self) -> Direction {
        Direction((self.0 + 3) % 6)
    }

    /// The compass name of this direction for a grid orientation (`n`, `ne`, …).
    pub fn name(self, orientation: Orientation) -> &'static str {
        const FLAT: [&str; 6] = ["n", "ne", "se", "s", "sw", "nw"];
        const POINTY: [&str; 6] = ["ne", "e", "se", "sw", "w", "nw"];
        match orientation {
            Orientation::FlatTop => FLAT[usize::from(self.0 % 6)],
            Orientation::PointyTop => POINTY[usize::from(self.0 % 6)],
        }
    }

    /// Parses a compass name for a grid orientation.
    pub fn from_name(name: &str, orientation: Orientation) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|d| d.name(orientation).eq_ignore_ascii_case(name))
    }
}

/// Cube coordinates (q, r, s with q + r + s = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Cube {
    pub q: i32,
    pub r: i32,
}

impl Cube {
    fn s(self) -> i32 {
        -self.q - self.r
    }
    fn distance(self, other: Cube) -> u32 {
        let dq = (self.q - other.q).unsigned_abs();
        let dr = (self.r - other.r).unsigned_abs();
        let ds = (self.s() - other.s()).unsigned_abs();
        dq.max(dr).max(ds)
    }
}

/// Cube direction vectors, clockwise from north (flat-top) or north-east (pointy-top).
const FLAT_DIRS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
const POINTY_DIRS: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

impl Grid {
    /// Is this column (flat-top) or row (pointy-top) shifted half a hex?
    pub(crate) fn shifted(self, line: i32) -> bool {
        let odd = line & 1 == 1;
        match self.stagger {
            Stagger::Odd => odd,
            Stagger::Even => !odd,
        }
    }

    pub(crate) fn to_cube(self, c: Cell) -> Cube {
        match self.orientation {
            Orientation::FlatTop => {
                let shift = i32::from(self.shifted(c.col)) - i32::from(self.shifted(0));
                // `col - shift` is always even, so the halving is exact.
                let r = c.row - (c.col - shift) / 2;
                Cube { q: c.col, r }
            }
            Orientation::PointyTop => {
                let shift = i32::from(self.shifted(c.row)) - i32::from(self.shifted(0));
                let q = c.col - (c.row - shift) / 2;
                Cube { q, r: c.row }
            }
        }
    }

    pub(crate) fn cell_of_cube(self, h: Cube) -> Cell {
        match self.orientation {
            Orientation::FlatTop => {
                let col = h.q;
                let shift = i32::from(self.shifted(col)) - i32::from(self.shifted(0));
                Cell { col, row: h.r + (col - shift) / 2 }
            }
            Orientation::PointyTop => {
                let row = h.r;
                let shift = i32::from(self.shifted(row)) - i32::from(self.shifted(0));
                Cell { col: h.q + (row - shift) / 2, row }
            }
        }
    }

    /// Hex distance between two cells (number of steps, so a cell is 0 from itself).
    pub fn distance(self, a: Cell, b: Cell) -> u32 {
        self.to_cube(a).distance(self.to_cube(b))
    }

    /// The cell next to `c` in direction `d` (which may lie off any board).
    pub fn neighbour(self, c: Cell, d: Direction) -> Cell {
        let dirs = match self.orientation {
            Orientation::FlatTop => FLAT_DIRS,
            Orientation::PointyTop => POINTY_DIRS,
        };
        let (dq, dr) = dirs[usize::from(d.0 % 6)];
        let h = self.to_cube(c);
        self.cell_of_cube(Cube { q: h.q + dq, r: h.r + dr })
    }

    /// The six cells around `c`, clockwise.
    pub fn neighbours(self, c: Cell) -> [Cell; 6] {
        Direction::ALL.map(|d| self.neighbour(c, d))
    }

    /// The direction from `a` to its neighbour `b`, if they are adjacent.
    pub fn direction_to(self, a: Cell, b: Cell) -> Option<Direction> {
        Direction::ALL.into_iter().find(|&d| self.neighbour(a, d) == b)
    }

    /// The hexside between `c` and its neighbour in direction `d`, in canonical form.
    pub fn hexside(self, c: Cell, d: Direction) -> Hexside {
        let other = self.neighbour(c, d);
        if (c.col, c.row) <= (other.col, other.row) {
            Hexside { cell: c, dir: d }
        } else {
            Hexside { cell: other, dir: d.opposite() }
        }
    }
}

/// The edge between two adjacent cells, stored canonically so both sides name it alike.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    JsonSchema,
)]
pub struct Hexside {
    /// The lesser of the two cells (by column, then row).
    pub cell: Cell,
    /// The direction from `cell` across the side.
    pub dir: Direction,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grids() -> Vec<Grid> {
        let mut v = Vec::new();
        for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
            for stagger in [Stagger::Odd, Stagger::Even] {
                v.push(Grid { orientation, stagger });
            }
        }
        v
    }

    #[test]
    fn cube_round_trip_including_negative_cells() {
        for g in grids() {
            for col in -7..9 {
                for row in -7..9 {
                    let c = Cell::new(col, row);
                    assert_eq!(g.cell_of_cube(g.to_cube(c)), c, "{g:?} {c:?}");
                }
            }
        }
    }

    #[test]
    fn neighbours_are_at_distance_one_and_symmetric() {
        for g in grids() {
            for col in -3..6 {
                for row in -3..6 {
                    let c = Cell::new(col, row);
                    let ns = g.neighbours(c);
                    let mut uniq = ns.to_vec();
                    uniq.sort();
                    uniq.dedup();
                    assert_eq!(uniq.len(), 6);
                    for (i, n) in ns.iter().enumerate() {
                        assert_eq!(g.distance(c, *n), 1);
                        let d = Direction(i as u8);
                        assert_eq!(g.neighbour(*n, d.opposite()), c);
                        assert_eq!(g.hexside(c, d), g.hexside(*n, d.opposite()));
                    }
                }
            }
        }
    }

    #[test]
    fn flat_top_odd_columns_sit_lower() {
        // In a flat-top grid with odd columns shifted down, (1,0) touches (0,0) and (0,1).
        let g = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
        let n = g.neighbours(Cell::new(1, 0));
        assert!(n.contains(&Cell::new(0, 0)));
        assert!(n.contains(&Cell::new(0, 1)));
        assert!(!n.contains(&Cell::new(0, -1)));
        // With even columns shifted down, column 1 sits higher: (1,1) touches (0,0), (0,1).
        let g = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Even };
        let n = g.neighbours(Cell::new(1, 1));
        assert!(n.contains(&Cell::new(0, 0)));
        assert!(n.contains(&Cell::new(0, 1)));
        assert!(!n.contains(&Cell::new(0, 2)));
    }

    #[test]
    fn distance_along_a_column_and_diagonal() {
        let g = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
        assert_eq!(g.distance(Cell::new(0, 0), Cell::new(0, 5)), 5);
        assert_eq!(g.distance(Cell::new(0, 0), Cell::new(4, 2)), 4);
        assert_eq!(g.distance(Cell::new(0, 0), Cell::new(4, 0)), 4);
        assert_eq!(g.distance(Cell::new(0, 0), Cell::new(4, 3)), 5);
    }
}
