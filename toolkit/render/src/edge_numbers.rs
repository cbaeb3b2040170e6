//! Hex numbers printed along a map's edges rather than in each hex: column numbers above
//! or below the grid, each over its column, and row numbers beside it, each level with its
//! row (`hex_numbers.edges` in the map file).

use muster_hex::pixel::Layout;
use muster_hex::{Cell, Sheet};
use muster_model::source::SheetEdge;

use crate::map_labels::{self, Rect};
use crate::metrics::Weight;
use crate::svg::Svg;

/// Height of the numbers, as a share of the hex size.
const SIZE: f64 = 0.16;
/// Room between the grid and the numbers, as a share of the hex size.
const GAP: f64 = 0.08;

/// Draws the numbers of `sheet`, laid out by `l` (inches) and drawn at `px` pixels an
/// inch, along each of `edges`. Returns the box of each number.
pub(crate) fn draw(
    svg: &mut Svg,
    sheet: &Sheet,
    edges: &[SheetEdge],
    l: &Layout,
    px: f64,
) -> Vec<Rect> {
    let mut boxes = Vec::new();
    if edges.is_empty() {
        return boxes;
    }
    let hex_px = l.hex_size * px;
    let size = hex_px * SIZE;
    let gap = hex_px * GAP;
    let (x0, y0, x1, y1) = extent(sheet, l, px);
    let centre = |col: u32, row: u32| {
        let c = l.centre(Cell::new(
            sheet.col_offset + col as i32,
            sheet.row_offset + row as i32,
        ));
        (c.0 * px, c.1 * px)
    };
    let number = |col: u32, row: u32| {
        sheet.numbering.numbers_of(
            Cell::new(col as i32, row as i32),
            sheet.cols,
            sheet.rows,
        )
    };
    let style = map_labels::number_style("bold", size, None);
    let mut number_at = |at: (f64, f64), anchor: &str, text: &str| {
        svg.text(at, size, anchor, &style, text);
        boxes.push(map_labels::text_box(at, size, anchor, Weight::Bold, text));
    };
    let mut edges = edges.to_vec();
    edges.sort();
    edges.dedup();
    for edge in edges {
        match edge {
            SheetEdge::Top | SheetEdge::Bottom => {
                let (row, y) = if edge == SheetEdge::Top {
                    (0, (y0 - gap).max(size))
                } else {
                    (sheet.rows - 1, y1 + gap + size * 0.75)
                };
                for col in 0..sheet.cols {
                    let text = sheet.numbering.column.print(number(col, row).column);
                    number_at((centre(col, row).0, y), "middle", &text);
                }
            }
            SheetEdge::Left | SheetEdge::Right => {
                let (col, x, anchor) = if edge == SheetEdge::Left {
                    (0, x0 - gap, "end")
                } else {
                    (sheet.cols - 1, x1 + gap, "start")
                };
                for row in 0..sheet.rows {
                    let text = sheet.numbering.row.print(number(col, row).row);
                    let y = centre(col, row).1 + size * 0.35;
                    number_at((x, y), anchor, &text);
                }
            }
        }
    }
    boxes
}

/// Left, top, right and bottom of the sheet's hexes, in pixels at `px` an inch.
fn extent(sheet: &Sheet, l: &Layout, px: f64) -> (f64, f64, f64, f64) {
    let mut out = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for col in 0..sheet.cols as i32 {
        for row in 0..sheet.rows as i32 {
            let c = Cell::new(sheet.col_offset + col, sheet.row_offset + row);
            for (x, y) in l.corners(c) {
                out = (
                    out.0.min(x * px),
                    out.1.min(y * px),
                    out.2.max(x * px),
                    out.3.max(y * px),
                );
            }
        }
    }
    out
}
