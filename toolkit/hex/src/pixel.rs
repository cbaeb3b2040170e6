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
}
