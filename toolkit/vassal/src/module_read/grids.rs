//! VASSAL's grids and how each names a point (`MapGrid.locationName`): hex grids, square
//! grids, region grids (the nearest region), zoned grids (the first zone holding the
//! point, else the background grid), and the grids muster cannot read, which name
//! nothing and say so.

use muster_hex::vassal::VassalGrid;

use super::regular::{RegionGrid, SquareGrid};

/// A board's or zone's grid.
#[derive(Debug, Clone)]
pub enum Grid {
    /// A `HexGrid`; without a `HexGridNumbering` it names no point.
    Hex(Option<VassalGrid>),
    /// A `SquareGrid`.
    Square(SquareGrid),
    /// A `RegionGrid`.
    Region(RegionGrid),
    /// A `ZonedGrid`: its zones, then its background grid.
    Zoned(ZonedGrid),
    /// A grid class muster cannot read (a module's own Java class).
    Unmodelled(Unmodelled),
}

/// A component muster cannot model: its class and where the buildFile has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmodelled {
    /// The Java class, as the buildFile names it.
    pub class: String,
    /// The component's path in the buildFile (`Map "Main" > Board "A" > …`).
    pub path: String,
}

impl std::fmt::Display for Unmodelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} uses the class {}, which is not VASSAL's own: muster cannot tell the location VASSAL names",
            self.path, self.class
        )
    }
}

/// A `ZonedGrid`.
#[derive(Debug, Clone, Default)]
pub struct ZonedGrid {
    /// Zones, in buildFile order.
    pub zones: Vec<Zone>,
    /// The background grid, for points in no zone and zones that use it.
    pub background: Option<Box<Grid>>,
}

/// What a grid says of a point: a name, nothing (VASSAL's `null`), or that it cannot be
/// told.
pub type Named = Result<Option<String>, Unmodelled>;

impl Grid {
    /// The name of a point of a container (a board or a zone) of `size` pixels, in the
    /// container's own coordinates.
    pub fn name(&self, p: (i64, i64), size: (i64, i64)) -> Named {
        match self {
            Grid::Hex(None) => Ok(None),
            Grid::Hex(Some(g)) => {
                let (w, h) = (size.0 as f64, size.1 as f64);
                Ok(Some(g.location_name(p.0 as f64, p.1 as f64, w, h)))
            }
            Grid::Square(g) => Ok(g.name(p, size)),
            Grid::Region(g) => Ok(g.name(p)),
            Grid::Zoned(g) => g.name(p, size),
            Grid::Unmodelled(u) => Err(u.clone()),
        }
    }
}

impl ZonedGrid {
    /// `ZonedGrid.locationName`: the first zone holding the point names it, else the
    /// background grid.
    fn name(&self, p: (i64, i64), size: (i64, i64)) -> Named {
        if let Some(zone) = self.zones.iter().find(|z| z.contains(p.0 as f64, p.1 as f64))
        {
            return zone.name(p, self.background.as_deref()).map(Some);
        }
        match &self.background {
            Some(g) => g.name(p, size),
            None => Ok(None),
        }
    }
}

/// A zone of a board: a polygon with a name and, maybe, a grid.
#[derive(Debug, Clone)]
pub struct Zone {
    /// Zone name.
    pub name: String,
    /// `locationFormat` (`$name$`, `$gridLocation$`).
    pub format: String,
    /// Polygon corners, board pixels.
    pub path: Vec<(f64, f64)>,
    /// The hex grid inside, when the zone's own grid is a hex grid.
    pub grid: Option<VassalGrid>,
    /// The zone's own grid of any kind (a hex grid too).
    pub own_grid: Option<Grid>,
    /// `useParentGrid`: the zone names points by its zoned grid's background grid.
    pub use_parent_grid: bool,
}

impl Zone {
    /// A zone with a name, a format and a polygon, and no grid.
    pub fn new(name: &str, format: &str, path: Vec<(f64, f64)>) -> Zone {
        Zone {
            name: name.to_string(),
            format: format.to_string(),
            path,
            grid: None,
            own_grid: None,
            use_parent_grid: false,
        }
    }

    /// The width and height of the polygon's bounds (`Polygon.getBounds()`).
    pub fn bounds(&self) -> (f64, f64) {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for (x, y) in &self.path {
            x0 = x0.min(*x);
            y0 = y0.min(*y);
            x1 = x1.max(*x);
            y1 = y1.max(*y);
        }
        if self.path.is_empty() { (0.0, 0.0) } else { (x1 - x0, y1 - y0) }
    }

    /// Whether the point is inside the polygon (even-odd rule, as `Polygon.contains`).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        let p = &self.path;
        let mut inside = false;
        let mut j = p.len().wrapping_sub(1);
        for i in 0..p.len() {
            let ((xi, yi), (xj, yj)) = (p[i], p[j]);
            if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
                inside = !inside;
            }
            j = i;
        }
        inside
    }

    /// The location name of a board point inside the zone, its grid asked with no
    /// background grid.
    pub fn location(&self, x: f64, y: f64) -> String {
        let p = (x as i64, y as i64);
        self.name(p, None).unwrap_or_else(|_| self.format.replace("$name$", &self.name))
    }

    /// `Zone.locationName`: the format with `$name$` and `$gridLocation$` (the zone's
    /// own grid's name of the point, or the background grid's when the zone uses it;
    /// empty when the grid names nothing).
    pub fn name(
        &self,
        p: (i64, i64),
        background: Option<&Grid>,
    ) -> Result<String, Unmodelled> {
        let grid = if self.use_parent_grid { background } else { self.own_grid.as_ref() };
        let size = self.bounds();
        let located = match grid {
            Some(g) if self.format.contains("$gridLocation$") => {
                g.name(p, (size.0 as i64, size.1 as i64))?
            }
            _ => None,
        };
        Ok(self
            .format
            .replace("$name$", &self.name)
            .replace("$gridLocation$", located.as_deref().unwrap_or("")))
    }
}

/// Parses a zone's `path` attribute: `x,y;x,y;…`.
pub fn parse_path(s: &str) -> Vec<(f64, f64)> {
    s.split(';')
        .filter_map(|p| {
            let (x, y) = p.split_once(',')?;
            Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmodelled_grids_say_so() {
        let u = Unmodelled {
            class: "org.x.MyGrid".into(),
            path: "Map \"M\" > Board \"B\"".into(),
        };
        let e = Grid::Unmodelled(u).name((0, 0), (1, 1)).expect_err("cannot name");
        assert!(e.to_string().contains("org.x.MyGrid"), "{e}");
    }

    #[test]
    fn zones_contain_their_inside() {
        let z = Zone::new("Box", "$name$", parse_path("0,0;10,0;10,10;0,10"));
        assert!(z.contains(5.0, 5.0));
        assert!(!z.contains(15.0, 5.0));
        assert_eq!(z.location(1.0, 1.0), "Box");
    }

    #[test]
    fn a_grid_location_zone_names_the_nearest_region() {
        let mut z =
            Zone::new("Europe", "$gridLocation$", parse_path("0,0;500,0;500,500;0,500"));
        let regions = RegionGrid::from_defined(vec![
            ((50, 50), "Paris".into()),
            ((400, 60), "Berlin".into()),
        ]);
        z.own_grid = Some(Grid::Region(regions.clone()));
        assert_eq!(z.name((380, 90), None), Ok("Berlin".into()));
        // A zone that uses the background grid names by it.
        let mut parent = Zone::new("Land", "$name$ $gridLocation$", z.path.clone());
        parent.use_parent_grid = true;
        let background = Grid::Region(regions);
        assert_eq!(parent.name((60, 40), Some(&background)), Ok("Land Paris".into()));
        assert_eq!(parent.name((60, 40), None), Ok("Land ".into()));
    }
}
