//! Hex labels parsed on the SCS double map (`A29.17`, B below A) and a four-digit map.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_hex::{Board, Grid, Numbering, Orientation, Sheet, Stagger};

fuzz_target!(|text: &str| {
    let grid = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
    let a = Sheet::new("a", 62, 35, Numbering::scs("A"));
    let mut b = Sheet::new("b", 62, 35, Numbering::scs("B"));
    b.row_offset = 35;
    let Ok(board) = Board::new(grid, vec![a, b]) else { return };
    if let Ok(cell) = board.parse(text) {
        // A label that parses names a hex whose label parses back to it.
        let label = board.label(cell).expect("a parsed hex has a label");
        assert_eq!(board.parse(&label).ok(), Some(cell));
    }
});
