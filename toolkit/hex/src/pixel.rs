//! Pixel geometry: hex centres and corners at any resolution, and the cell under a point.
//!
//! Units are whatever the caller chooses (inches, CSS pixels, image pixels); `hex_size`
//! is the distance between opposite flat sides in those units.

use crate::{Cell, Grid, Orientation};

/// √3, correctly rounded.
const SQRT3: f64 = 1.732_050_807_568_877_2;

/// Placement of a board's grid in a picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Grid shape.
    pub grid: Grid,
    /// Distance between opposite flat sides of a hex.
    pub hex_size: f64,
    /// Centre of board cell (0, 0).
    pub origin: (f64, f64),
}

impl Layout {
    /// Distance between opposite corners of a hex.
    pub fn corner_size(&self) -> f64 {
        self.hex_size * 2.0 / SQRT3
    }

    /// Horizontal and vertical distance between neighbouring column and row centres.
    pub fn spacing(&self) -> (f64, f64) {
        match self.grid.orientation {
            Orientation::FlatTop => (self.corner_size() * 0.75, self.hex_size),
            Orientation::PointyTop => (self.hex_size, self.corner_size() * 0.75),
        }
    }

    /// Centre of a cell.
    pub fn centre(&self, c: Cell) -> (f64, f64) {
        let (dx, dy) = self.spacing();
        let (shift0, shift) = match self.grid.orientation {
            Orientation::FlatTop => (self.grid.shifted(0), self.grid.shifted(c.col)),
            Orientation::PointyTop => (self.grid.shifted(0), self.grid.shifted(c.row)),
        };
        let half = (f64::from(u8::from(shift)) - f64::from(u8::from(shift0))) * 0.5;
        match self.grid.orientation {
            Orientation::FlatTop => (
                self.origin.0 + f64::from(c.col) * dx,
                self.origin.1 + (f64::from(c.row) + half) * dy,
            ),
            Orientation::PointyTop => (
                self.origin.0 + (f64::from(c.col) + half) * dx,
                self.origin.1 + f64::from(c.row) * dy,
            ),
        }
    }

    /// The six corners of a cell, clockwise from the first corner after north/north-east.
    pub fn corners(&self, c: Cell) -> [(f64, f64); 6] {
        let (x, y) = self.centre(c);
        let r = self.corner_size() / 2.0;
        let h = self.hex_size / 2.0;
        match self.grid.orientation {
            Orientation::FlatTop => [
                (x + r / 2.0, y - h),
                (x + r, y),
                (x + r / 2.0, y + h),
                (x - r / 2.0, y + h),
                (x - r, y),
                (x - r / 2.0, y - h),
            ],
            Orientation::PointyTop => [
                (x, y - r),
                (x + h, y - r / 2.0),
                (x + h, y + r / 2.0),
                (x, y + r),
                (x - h, y + r / 2.0),
                (x - h, y - r / 2.0),
            ],
        }
    }

    /// The cell whose centre is nearest to a point.
    pub fn cell_at(&self, p: (f64, f64)) -> Cell {
        let (dx, dy) = self.spacing();
        let col = ((p.0 - self.origin.0) / dx).round() as i32;
        let row = ((p.1 - self.origin.1) / dy).round() as i32;
        let mut best = Cell::new(col, row);
        let mut best_d = f64::INFINITY;
        for c in col - 1..=col + 1 {
            for r in row - 1..=row + 1 {
                let cell = Cell::new(c, r);
                let (x, y) = self.centre(cell);
                let d = (x - p.0) * (x - p.0) + (y - p.1) * (y - p.1);
                if d < best_d {
                    best_d = d;
                    best = cell;
                }
            }
        }
        best
    }
}

/// The layout of regular hexes whose centres come closest, by least squares, to given
/// pixel centres of board cells: one hex size and an origin (no rotation, as VASSAL's
/// grids have none). Returns the layout and how far each given centre is from its cell's
/// centre on it; `None` when the points do not fix a size (all the same cell).
pub fn fit_layout(
    grid: Grid,
    points: &[(Cell, (f64, f64))],
) -> Option<(Layout, Vec<f64>)> {
    if points.is_empty() {
        return None;
    }
    let unit = Layout { grid, hex_size: 1.0, origin: (0.0, 0.0) };
    let count = points.len() as f64;
    let uv: Vec<(f64, f64)> = points.iter().map(|(c, _)| unit.centre(*c)).collect();
    let mean = |f: &dyn Fn(usize) -> f64| (0..points.len()).map(f).sum::<f64>() / count;
    let (mu, mv) = (mean(&|i| uv[i].0), mean(&|i| uv[i].1));
    let (mx, my) = (mean(&|i| points[i].1.0), mean(&|i| points[i].1.1));
    let (mut num, mut den) = (0.0, 0.0);
    for (i, (_, (x, y))) in points.iter().enumerate() {
        let (du, dv) = (uv[i].0 - mu, uv[i].1 - mv);
        num += du * (x - mx) + dv * (y - my);
        den += du * du + dv * dv;
    }
    if den < 1e-12 {
        return None;
    }
    let size = num / den;
    if !(size.is_finite() && size > 0.0) {
        return None;
    }
    let layout =
        Layout { grid, hex_size: size, origin: (mx - size * mu, my - size * mv) };
    let misses = points
        .iter()
        .map(|(c, (x, y))| {
            let (cx, cy) = layout.centre(*c);
            ((cx - x) * (cx - x) + (cy - y) * (cy - y)).sqrt()
        })
        .collect();
    Some((layout, misses))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stagger;

    #[test]
    fn centre_then_cell_at_is_identity() {
        for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
            for stagger in [Stagger::Odd, Stagger::Even] {
                let l = Layout {
                    grid: Grid { orientation, stagger },
                    hex_size: 187.5,
                    origin: (108.0, 93.75),
                };
                for col in 0..40 {
                    for row in 0..40 {
                        let c = Cell::new(col, row);
                        assert_eq!(l.cell_at(l.centre(c)), c);
                    }
                }
            }
        }
    }

    #[test]
    fn neighbouring_centres_are_one_hex_apart() {
        let g = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
        let l = Layout { grid: g, hex_size: 10.0, origin: (0.0, 0.0) };
        let c = Cell::new(5, 5);
        let (x, y) = l.centre(c);
        for n in g.neighbours(c) {
            let (nx, ny) = l.centre(n);
            let d = ((nx - x).powi(2) + (ny - y).powi(2)).sqrt();
            assert!((d - 10.0).abs() < 1e-9, "{n:?} at {d}");
        }
    }

    #[test]
    fn a_fit_to_three_rounded_centres_recovers_the_grid_within_half_a_pixel() {
        for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
            for stagger in [Stagger::Odd, Stagger::Even] {
                let grid = Grid { orientation, stagger };
                let known = Layout { grid, hex_size: 71.37, origin: (53.6, 48.2) };
                // Three corner hexes, their centres given to the nearest pixel as a
                // publisher reads them off the image.
                let refs = [Cell::new(0, 0), Cell::new(11, 0), Cell::new(0, 9)];
                let points: Vec<(Cell, (f64, f64))> = refs
                    .iter()
                    .map(|c| {
                        let (x, y) = known.centre(*c);
                        (*c, (x.round(), y.round()))
                    })
                    .collect();
                let (fitted, misses) = fit_layout(grid, &points).unwrap();
                assert!(misses.iter().all(|m| *m < 1.0), "{misses:?}");
                for col in 0..12 {
                    for row in 0..10 {
                        let c = Cell::new(col, row);
                        let (a, b) = (known.centre(c), fitted.centre(c));
                        let d = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                        assert!(
                            d < 0.5,
                            "{c:?} misses by {d} px ({orientation:?} {stagger:?})"
                        );
                    }
                }
            }
        }
        // One hex fixes no size.
        assert!(
            fit_layout(
                Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd },
                &[(Cell::new(2, 2), (5.0, 5.0)), (Cell::new(2, 2), (6.0, 5.0))]
            )
            .is_none()
        );
    }
}
