//! A map's legend: the map's title over a swatch and a name for each terrain and feature
//! drawn, laid out in one or more columns and placed where it covers no hex.
//!
//! Lengths are SVG user units (CSS pixels, 96 an inch), as in the map's scene.

use muster_hex::Grid;
use muster_model::source::TerrainSymbol;

use crate::map_marks::{self, Swatch};
use crate::metrics::{Weight, text_width};
use crate::svg::Svg;

/// Pixels per inch of the map's SVG.
const PX: f64 = 96.0;
/// The height of a legend line.
const LINE: f64 = 0.2 * PX;
/// The distance kept between the legend and the sheet's edge.
pub const INSET: f64 = 0.25 * PX;
/// Padding inside the box.
const PAD: f64 = 0.1 * PX;
/// The size of a row's name.
const NAME_SIZE: f64 = LINE * 0.55;
/// The size of a swatch's hex across its flats.
const SWATCH: f64 = LINE * 0.7;
/// The size of the title.
const TITLE_SIZE: f64 = LINE * 0.7;

/// One row of a legend: what its swatch shows, and the name.
pub type Row = (Swatch, String);

/// The terrain symbols the swatches of `rows` show.
pub fn symbols(rows: &[Row]) -> impl Iterator<Item = TerrainSymbol> + '_ {
    rows.iter().filter_map(|(s, _)| match s {
        Swatch::Terrain { symbol, .. } => *symbol,
        Swatch::Feature(_) => None,
    })
}

/// A point: x, y.
pub type Point = (f64, f64);

/// A legend laid out and where its top-left corner goes.
pub type Placed = (Shape, Point);

/// How a legend's rows are laid out: in `columns` columns of up to `per_column` rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    /// Columns.
    pub columns: usize,
    /// Rows in each column (the last may hold fewer).
    pub per_column: usize,
    /// Width of one column.
    pub column_w: f64,
    /// Width of the box.
    pub w: f64,
    /// Height of the box.
    pub h: f64,
}

/// Every way to lay out a legend of `rows` under `title`: one column, two, and so on, up
/// to one row a column.
pub fn shapes(title: &str, rows: &[Row]) -> Vec<Shape> {
    let widest = rows
        .iter()
        .map(|(_, name)| text_width(name, NAME_SIZE, Weight::Regular))
        .fold(0.0, f64::max);
    let column_w = LINE + widest + PAD;
    let title_w = text_width(title, TITLE_SIZE, Weight::Bold) + 2.0 * PAD;
    (1..=rows.len().max(1))
        .map(|columns| {
            let per_column = rows.len().div_ceil(columns);
            Shape {
                columns,
                per_column,
                column_w,
                w: (columns as f64 * column_w + PAD).max(title_w),
                h: LINE * (per_column as f64 + 1.6),
            }
        })
        .collect()
}

/// The lowest legend of `shapes` no wider than `width`, for a band along a sheet's edge.
pub fn lowest_within(shapes: &[Shape], width: f64) -> Option<Shape> {
    shapes.iter().copied().filter(|s| s.w <= width).min_by(|a, b| a.h.total_cmp(&b.h))
}

/// Whether the rectangle `r` (x, y, width, height) and the convex polygon `poly` share any
/// area: no edge of either is an axis that separates them.
pub fn overlaps(r: [f64; 4], poly: &[(f64, f64)]) -> bool {
    let (x0, y0, x1, y1) = (r[0], r[1], r[0] + r[2], r[1] + r[3]);
    let rect = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
    let span = |pts: &[(f64, f64)], axis: (f64, f64)| {
        pts.iter()
            .map(|p| p.0 * axis.0 + p.1 * axis.1)
            .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    let separated = |shape: &[(f64, f64)]| {
        (0..shape.len()).any(|i| {
            let (a, b) = (shape[i], shape[(i + 1) % shape.len()]);
            let axis = (b.1 - a.1, a.0 - b.0);
            let (a0, a1) = span(&rect, axis);
            let (b0, b1) = span(poly, axis);
            a1 <= b0 || b1 <= a0
        })
    };
    !(separated(&rect) || separated(poly))
}

/// The hexes of a sheet with their bounding boxes, kept in square buckets of the sheet by
/// where their boxes lie, so that a box is tested only against the hexes near it.
struct Hexes<'h> {
    polys: &'h [[(f64, f64); 6]],
    boxes: Vec<[f64; 4]>,
    /// The side of a bucket.
    side: f64,
    columns: usize,
    rows: usize,
    /// The hexes whose boxes reach into each bucket, row after row.
    buckets: Vec<Vec<usize>>,
}

impl<'h> Hexes<'h> {
    /// `polys` bucketed over a sheet of `sheet`.
    fn new(polys: &'h [[(f64, f64); 6]], sheet: (f64, f64)) -> Self {
        let boxes: Vec<[f64; 4]> = polys
            .iter()
            .map(|poly| {
                poly.iter().fold([f64::MAX, f64::MAX, f64::MIN, f64::MIN], |b, p| {
                    [b[0].min(p.0), b[1].min(p.1), b[2].max(p.0), b[3].max(p.1)]
                })
            })
            .collect();
        // Buckets about two hexes wide, and never more than a few thousand.
        let widest = boxes.iter().map(|b| b[2] - b[0]).fold(0.0, f64::max);
        let side = (2.0 * widest).max(sheet.0.max(sheet.1) / 64.0).max(1.0);
        let columns = ((sheet.0 / side).ceil() as usize).max(1);
        let rows = ((sheet.1 / side).ceil() as usize).max(1);
        let mut hexes = Hexes {
            polys,
            boxes,
            side,
            columns,
            rows,
            buckets: vec![Vec::new(); columns * rows],
        };
        for i in 0..hexes.boxes.len() {
            let b = hexes.boxes[i];
            let (c0, c1, r0, r1) = hexes.span(b);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    hexes.buckets[r * columns + c].push(i);
                }
            }
        }
        hexes
    }

    /// The first and last bucket column and row that the box `b` (x0, y0, x1, y1) reaches.
    /// Whatever lies beyond the sheet falls in the buckets along its edges.
    fn span(&self, b: [f64; 4]) -> (usize, usize, usize, usize) {
        let at =
            |v: f64, n: usize| ((v / self.side).floor().max(0.0) as usize).min(n - 1);
        (
            at(b[0], self.columns),
            at(b[2], self.columns),
            at(b[1], self.rows),
            at(b[3], self.rows),
        )
    }

    /// Whether a box at `at` of `size` covers none of the hexes. Two boxes that share a
    /// point share a bucket, so only the hexes in the buckets the box reaches can overlap it.
    fn clear_of(&self, at: (f64, f64), size: (f64, f64)) -> bool {
        let r = [at.0, at.1, size.0, size.1];
        let (c0, c1, r0, r1) = self.span([r[0], r[1], r[0] + r[2], r[1] + r[3]]);
        (r0..=r1).all(|row| {
            (c0..=c1).all(|column| {
                self.buckets[row * self.columns + column].iter().all(|&i| {
                    let b = self.boxes[i];
                    // Far apart: no need for the exact test.
                    b[2] <= r[0]
                        || r[0] + r[2] <= b[0]
                        || b[3] <= r[1]
                        || r[1] + r[3] <= b[1]
                        || !overlaps(r, &self.polys[i])
                })
            })
        })
    }
}

/// The places a box of `size` may take on a sheet of `sheet`, inset from its edges: the
/// corners (bottom right, bottom left, top right, top left), then along the bottom, top,
/// left and right edges; none when it is larger than the sheet.
fn places(size: Point, sheet: Point) -> (Vec<Point>, Vec<Point>) {
    let (left, top) = (INSET, INSET);
    let (right, bottom) = (sheet.0 - size.0 - INSET, sheet.1 - size.1 - INSET);
    if right < left || bottom < top {
        return (Vec::new(), Vec::new());
    }
    let step = 0.1 * PX;
    let along = |from: f64, to: f64| {
        let n = ((to - from) / step).floor().max(0.0) as usize;
        (0..=n).map(move |k| from + k as f64 * step).chain(std::iter::once(to)).rev()
    };
    let corners = vec![(right, bottom), (left, bottom), (right, top), (left, top)];
    let edges = along(left, right)
        .map(|x| (x, bottom))
        .chain(along(left, right).map(|x| (x, top)))
        .chain(along(top, bottom).map(|y| (left, y)))
        .chain(along(top, bottom).map(|y| (right, y)))
        .collect();
    (corners, edges)
}

/// The first place on a sheet of `sheet` where a legend of one of `shapes` covers none of
/// `hexes`: a corner in any shape (fewest columns first), else a place along an edge.
pub fn free_place(
    hexes: &[[(f64, f64); 6]],
    shapes: &[Shape],
    sheet: (f64, f64),
) -> Option<Placed> {
    let hexes = Hexes::new(hexes, sheet);
    let each = |corners: bool| {
        shapes.iter().find_map(|s| {
            let (c, e) = places((s.w, s.h), sheet);
            let list = if corners { c } else { e };
            list.into_iter().find(|at| hexes.clear_of(*at, (s.w, s.h))).map(|at| (*s, at))
        })
    };
    each(true).or_else(|| each(false))
}

/// Draws the legend of `rows` under `title` laid out as `shape` with its top-left corner at
/// `at`, each swatch a hex of `grid` drawn as the map draws it.
pub fn draw(
    svg: &mut Svg,
    grid: Grid,
    title: &str,
    rows: &[Row],
    shape: &Shape,
    at: (f64, f64),
) {
    let (x, y) = at;
    svg.open("g", r#"class="legend""#);
    svg.rect(
        x,
        y,
        shape.w,
        shape.h,
        r##"fill="#ffffff" fill-opacity="0.9" stroke="#2b2b2b" stroke-width="1.5""##,
    );
    svg.text(
        (x + PAD, y + LINE),
        TITLE_SIZE,
        "start",
        r##"font-weight="bold" fill="#111111""##,
        title,
    );
    for (i, (swatch, name)) in rows.iter().enumerate() {
        let (column, row) = (i / shape.per_column.max(1), i % shape.per_column.max(1));
        let cx = x + PAD + column as f64 * shape.column_w;
        let yy = y + LINE * (row as f64 + 2.0);
        let kind = match swatch {
            Swatch::Feature(k) => format!(r#" data-kind="{}""#, map_marks::kind_name(*k)),
            Swatch::Terrain { .. } => String::new(),
        };
        svg.open("g", &format!(r#"class="swatch"{kind}"#));
        map_marks::swatch(svg, grid, swatch, (cx + LINE * 0.4, yy - LINE * 0.3), SWATCH);
        svg.close("g");
        svg.text(
            (cx + LINE, yy - LINE * 0.1),
            NAME_SIZE,
            "start",
            r##"fill="#111111""##,
            name,
        );
    }
    svg.close("g");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(n: usize) -> Vec<Row> {
        let swatch = || Swatch::Terrain { fill: "#000000".into(), symbol: None };
        (0..n).map(|i| (swatch(), format!("Terrain {i}"))).collect()
    }

    #[test]
    fn more_columns_make_a_lower_wider_box() {
        let s = shapes("Map", &rows(6));
        assert_eq!(s.len(), 6);
        assert_eq!((s[0].columns, s[0].per_column), (1, 6));
        assert_eq!((s[1].columns, s[1].per_column), (2, 3));
        assert!(s[1].w > s[0].w && s[1].h < s[0].h);
        assert_eq!(lowest_within(&s, s[1].w), Some(s[1]));
        assert_eq!(lowest_within(&s, 1.0), None);
    }

    #[test]
    fn a_rectangle_overlaps_a_hexagon_only_where_they_share_area() {
        // A pointy-top hexagon around (100, 100), 40 across the flats.
        let r = 40.0 / 3f64.sqrt();
        let hex: Vec<(f64, f64)> = (0..6)
            .map(|k| {
                let a =
                    std::f64::consts::PI / 3.0 * k as f64 - std::f64::consts::PI / 2.0;
                (100.0 + r * a.cos(), 100.0 + r * a.sin())
            })
            .collect();
        assert!(overlaps([90.0, 90.0, 5.0, 5.0], &hex), "inside");
        assert!(overlaps([0.0, 0.0, 200.0, 200.0], &hex), "around");
        assert!(!overlaps([121.0, 0.0, 50.0, 200.0], &hex), "beside the flat side");
        // Beside the top vertex, in the corner the bounding box would count.
        assert!(!overlaps([78.0, 75.0, 8.0, 8.0], &hex), "in the bounding box's corner");
        assert!(overlaps([95.0, 75.0, 8.0, 8.0], &hex), "over the top vertex");
    }

    #[test]
    fn the_buckets_find_every_hex_a_box_covers() {
        // Pointy-top hexes 40 across, some missing, some reaching past the sheet's edges.
        let sheet = (1000.0, 600.0);
        let r = 40.0 / 3f64.sqrt();
        let mut polys = Vec::new();
        for row in -1..18 {
            for col in -1..27 {
                if (row * 7 + col * 13) % 5 == 0 {
                    continue;
                }
                let cx = f64::from(col) * 40.0 + if row % 2 == 0 { 0.0 } else { 20.0 };
                let cy = f64::from(row) * 1.5 * r;
                polys.push(std::array::from_fn(|k| {
                    let a = std::f64::consts::PI / 3.0 * k as f64
                        - std::f64::consts::PI / 2.0;
                    (cx + r * a.cos(), cy + r * a.sin())
                }));
            }
        }
        let hexes = Hexes::new(&polys, sheet);
        let every = |at: (f64, f64), size: (f64, f64)| {
            let rect = [at.0, at.1, size.0, size.1];
            polys.iter().all(|p| !overlaps(rect, &p[..]))
        };
        let (mut clear, mut covered) = (0, 0);
        for (i, size) in [(3.0, 3.0), (12.0, 9.0), (45.0, 20.0), (400.0, 300.0)]
            .into_iter()
            .enumerate()
        {
            for k in 0..400 {
                let at = (
                    f64::from((k * 37 + i as i32 * 11) % 1100) - 50.0,
                    f64::from((k * 53 + i as i32 * 7) % 700) - 50.0,
                );
                let want = every(at, size);
                assert_eq!(hexes.clear_of(at, size), want, "box at {at:?} of {size:?}");
                if want { clear += 1 } else { covered += 1 }
            }
        }
        assert!(clear > 20 && covered > 20, "{clear} clear, {covered} covered");
    }

    #[test]
    fn the_first_free_place_is_a_corner_else_a_place_along_an_edge() {
        let sheet = (1000.0, 600.0);
        let s = shapes("Map", &rows(2));
        // Nothing on the sheet: the bottom-right corner.
        let (_, at) = free_place(&[], &s, sheet).expect("a place");
        assert_eq!(at, (1000.0 - s[0].w - INSET, 600.0 - s[0].h - INSET));
        // A hexagon over every corner but room in the middle of the bottom edge.
        let block = |x: f64, y: f64| -> [(f64, f64); 6] {
            [
                (x, y),
                (x + 300.0, y),
                (x + 300.0, y + 150.0),
                (x, y + 150.0),
                (x, y + 1.0),
                (x, y + 2.0),
            ]
        };
        let hexes =
            [block(0.0, 0.0), block(700.0, 0.0), block(0.0, 450.0), block(700.0, 450.0)];
        let (shape, at) = free_place(&hexes, &s, sheet).expect("a place");
        assert!(at.0 >= 300.0 && at.0 + shape.w <= 700.0 && at.1 > 450.0 - 1.0, "{at:?}");
        // Covered all over: none.
        assert!(
            free_place(&[block(-10.0, -10.0).map(|p| (p.0 * 5.0, p.1 * 5.0))], &s, sheet)
                .is_none()
        );
    }
}
