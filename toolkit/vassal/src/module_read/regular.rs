//! The grids that name a point by arithmetic or by distance: square grids with their
//! numbering (`SquareGrid`, `SquareGridNumbering`) and region grids (`RegionGrid`, the
//! nearest region in the order VASSAL's hash map visits them).
/// A `SquareGrid` and its `SquareGridNumbering`.
#[derive(Debug, Clone, PartialEq)]
pub struct SquareGrid {
    /// `x0`, `y0`: the centre of cell 0, 0.
    pub origin: (i64, i64),
    /// `dx`: cell width.
    pub dx: f64,
    /// `dy`: cell height.
    pub dy: f64,
    /// The numbering; without one the grid names no point.
    pub numbering: Option<Numbering>,
}

/// A `RegularGridNumbering` (the square grid's).
#[derive(Debug, Clone, PartialEq)]
pub struct Numbering {
    /// `first`: `H` for column first, `V` for row first.
    pub first: char,
    /// `sep`.
    pub sep: String,
    /// `hType`, `vType`: `A` for letters, else digits.
    pub types: (char, char),
    /// `hLeading`, `vLeading`.
    pub leading: (u32, u32),
    /// `hOff`, `vOff`.
    pub offsets: (i64, i64),
    /// `hDescend`, `vDescend`.
    pub descend: (bool, bool),
    /// `locationFormat` (`$gridLocation$`, `$row$`, `$column$`).
    pub format: String,
}

/// A `RegionGrid`: named points, in the order VASSAL's `HashMap` of them visits them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RegionGrid {
    /// Each region's origin and name.
    pub regions: Vec<((i64, i64), String)>,
}

impl SquareGrid {
    /// `SquareGridNumbering.locationName`.
    pub fn name(&self, p: (i64, i64), size: (i64, i64)) -> Option<String> {
        let n = self.numbering.as_ref()?;
        let max_columns = (size.0 as f64 / self.dx + 0.5) as i64;
        let max_rows = (size.1 as f64 / self.dy + 0.5) as i64;
        let mut column = ((p.0 - self.origin.0) as f64 / self.dx + 0.5).floor() as i64;
        // VASSAL truncates the row (towards zero) but floors the column.
        let mut row = ((p.1 - self.origin.1) as f64 / self.dy + 0.5) as i64;
        if n.descend.0 {
            column = max_columns - column;
        }
        if n.descend.1 {
            row = max_rows - row;
        }
        Some(n.name(row, column))
    }
}

impl Numbering {
    /// `RegularGridNumbering.locationName` for a row and column.
    pub fn name(&self, row: i64, column: i64) -> String {
        let r = axis_name(row + self.offsets.1, self.types.1, self.leading.1);
        let c = axis_name(column + self.offsets.0, self.types.0, self.leading.0);
        let grid = if self.first == 'H' {
            format!("{c}{}{r}", self.sep)
        } else {
            format!("{r}{}{c}", self.sep)
        };
        self.format
            .replace("$gridLocation$", &grid)
            .replace("$row$", &r)
            .replace("$column$", &c)
    }
}

/// `RegularGridNumbering.getName`: letters (`A` for 0, `Z` for 25, then `AA`, `BB`, …) or
/// digits padded with `leading` zeros.
pub fn axis_name(v: i64, kind: char, leading: u32) -> String {
    let mut out = if v < 0 { String::from("-") } else { String::new() };
    let mut a = v.unsigned_abs();
    if kind == 'A' {
        let letter = char::from(b'A' + u8::try_from(a % 26).unwrap_or(0));
        loop {
            out.push(letter);
            if a < 26 {
                return out;
            }
            a -= 26;
        }
    }
    let mut l = leading;
    while l > 0 && (a as f64) < 10f64.powi(i32::try_from(l).unwrap_or(i32::MAX)) {
        out.push('0');
        l -= 1;
    }
    out.push_str(&a.to_string());
    out
}

impl RegionGrid {
    /// `RegionGrid.locationName`: the region whose origin is nearest, the first of equals
    /// in VASSAL's order.
    pub fn name(&self, p: (i64, i64)) -> Option<String> {
        let mut best: Option<(i64, &str)> = None;
        for ((x, y), name) in &self.regions {
            let (dx, dy) = (p.0 - x, p.1 - y);
            let d = dx.saturating_mul(dx).saturating_add(dy.saturating_mul(dy));
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, name));
            }
        }
        best.map(|(_, n)| n.to_string())
    }

    /// The regions in the order VASSAL's `HashMap<Point, Region>` iterates them, from
    /// the buildFile's order: a region at the same origin as an earlier one replaces its
    /// name in its place.
    pub fn from_defined(defined: Vec<((i64, i64), String)>) -> RegionGrid {
        let mut regions: Vec<((i64, i64), String)> = Vec::new();
        let mut at = std::collections::HashMap::new();
        for (p, name) in defined {
            match at.get(&p) {
                Some(&k) => regions[k] = (p, name),
                None => {
                    at.insert(p, regions.len());
                    regions.push((p, name));
                }
            }
        }
        let capacity = java_capacity(regions.len());
        // A stable sort by bucket keeps the order of putting within a bucket.
        regions.sort_by_key(|(p, _)| java_bucket(*p, capacity));
        RegionGrid { regions }
    }
}

/// The table size of a Java `HashMap` holding `n` entries put one by one: 16, doubled
/// whenever the entries pass three quarters of it.
fn java_capacity(n: usize) -> usize {
    let mut capacity = 16usize;
    while n > capacity / 4 * 3 {
        capacity = capacity.saturating_mul(2);
    }
    capacity
}

/// The bucket of a `java.awt.Point` key in a `HashMap` of `capacity` buckets.
fn java_bucket((x, y): (i64, i64), capacity: usize) -> usize {
    let bits = (x as f64).to_bits() ^ (y as f64).to_bits().wrapping_mul(31);
    let h = (bits as u32 as i32) ^ ((bits >> 32) as u32 as i32);
    let spread = (h as u32) ^ ((h as u32) >> 16);
    spread as usize & (capacity - 1)
}
#[cfg(test)]
mod tests {
    use super::*;

    fn numbering(first: char, types: (char, char)) -> Numbering {
        Numbering {
            first,
            sep: String::new(),
            types,
            leading: (0, 0),
            offsets: (0, 0),
            descend: (false, false),
            format: "$gridLocation$".into(),
        }
    }

    #[test]
    fn square_grids_name_columns_and_rows() {
        let g = SquareGrid {
            origin: (24, 24),
            dx: 48.0,
            dy: 48.0,
            numbering: Some(numbering('H', ('A', 'N'))),
        };
        assert_eq!(g.name((24, 24), (480, 480)), Some("A0".into()));
        assert_eq!(g.name((24 + 48 * 27, 24 + 96), (480, 480)), Some("BB2".into()));
        let mut n = numbering('V', ('N', 'N'));
        n.sep = "-".into();
        n.leading = (1, 0);
        n.descend = (false, true);
        n.offsets = (1, 1);
        n.format = "r$row$ c$column$ $gridLocation$".into();
        let g = SquareGrid { numbering: Some(n), ..g };
        // Ten rows: the top row is row 10 descending, named 11 with the offset.
        assert_eq!(g.name((24, 24), (480, 480)), Some("r11 c01 11-01".into()));
        assert_eq!(SquareGrid { numbering: None, ..g }.name((0, 0), (1, 1)), None);
    }

    #[test]
    fn region_grids_name_the_nearest_region() {
        let g = RegionGrid::from_defined(vec![
            ((100, 100), "Paris".into()),
            ((300, 100), "Lyon".into()),
            ((100, 100), "Paris again".into()),
        ]);
        assert_eq!(g.regions.len(), 2);
        assert_eq!(g.name((120, 90)), Some("Paris again".into()));
        assert_eq!(g.name((260, 400)), Some("Lyon".into()));
        assert_eq!(RegionGrid::default().name((0, 0)), None);
    }

    #[test]
    fn region_ties_go_to_the_first_in_java_hash_order() {
        // Point(6,0) falls in bucket 8 of 16, Point(0,0) in bucket 0: VASSAL's map visits
        // (0,0) first although it was put second, and a point as near to both names it.
        assert_eq!((java_bucket((6, 0), 16), java_bucket((0, 0), 16)), (8, 0));
        let g =
            RegionGrid::from_defined(vec![((6, 0), "B".into()), ((0, 0), "A".into())]);
        assert_eq!(g.name((3, 0)), Some("A".to_string()));
        assert_eq!(java_capacity(12), 16);
        assert_eq!(java_capacity(13), 32);
    }

    #[test]
    fn letters_repeat_as_vassal_writes_them() {
        assert_eq!(axis_name(0, 'A', 0), "A");
        assert_eq!(axis_name(25, 'A', 0), "Z");
        assert_eq!(axis_name(26, 'A', 0), "AA");
        assert_eq!(axis_name(27, 'A', 0), "BB");
        assert_eq!(axis_name(-1, 'A', 0), "-B");
        assert_eq!(axis_name(7, 'N', 2), "007");
        assert_eq!(axis_name(10, 'N', 1), "10");
    }
}
