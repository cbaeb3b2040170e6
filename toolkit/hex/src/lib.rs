//! Hex grid geometry and printed hex numbering, shared by rules, rendering and packaging.
//!
//! muster-hex owns three things: the integer geometry of a hex grid (neighbours, distance,
//! "within N hexes" regions, hexsides), the numbering schemes that turn a grid cell into
//! the label a rulebook prints (`A29.17`, `2403`, `20.26`) and back, and the pixel centre
//! of every cell at any resolution. Several map sheets can be joined into one [`Board`] so
//! that distances and regions run across the join.
//!
//! Rules-facing code uses integers only; floating point appears only in [`pixel`], so the
//! same inputs give the same answers natively and in WebAssembly. Nothing here performs
//! I/O or panics on user data.
//!
//! # Example
//! ```
//! use muster_hex::{Board, Grid, Numbering, Orientation, Sheet, Stagger};
//! let grid = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
//! let sheet = Sheet::new("a", 62, 35, Numbering::scs("A"));
//! let board = Board::new(grid, vec![sheet]).unwrap();
//! let hex = board.parse("A29.17").unwrap();
//! assert_eq!(board.label(hex).unwrap(), "A29.17");
//! let near = board.within(hex, 1);
//! assert_eq!(near.len(), 7);
//! ```

#![deny(missing_docs)]

mod board;
mod grid;
mod numbering;
pub mod pixel;
pub mod vassal;

pub use board::{Board, BoardError, MAX_CELLS, Sheet};
pub use grid::{Cell, Direction, Grid, Hexside, Orientation, Stagger};
pub use numbering::{
    ColumnDirection, LabelError, MAX_DIGITS, Numbering, NumberingError, RowDirection,
    SheetNumber,
};
