//! Grids as the buildFile writes them: `HexGrid`, `SquareGrid`, `RegionGrid` and
//! `ZonedGrid` elements with their numberings, regions and zones; any other class under a
//! board or zone is a grid muster cannot read.

use muster_hex::vassal::VassalGrid;
use roxmltree::Node;

use super::grids::{Grid, Unmodelled, ZonedGrid};
use super::grids::{Zone, parse_path};
use super::regular::{Numbering, RegionGrid, SquareGrid};

/// Whether an element's class is VASSAL's own.
pub fn is_vassal(n: &Node) -> bool {
    n.tag_name().name().starts_with("VASSAL.")
}

/// Whether an element's class name ends with `suffix` (`.HexGrid`).
pub fn is(n: &Node, suffix: &str) -> bool {
    n.is_element() && n.tag_name().name().ends_with(suffix)
}

/// Where an element is in the buildFile: each enclosing component's class (its last part)
/// and name, outermost first, from the module down.
pub fn component_path(n: &Node) -> String {
    let mut parts: Vec<String> = n
        .ancestors()
        .filter(|a| a.is_element() && a.parent().is_some_and(|p| p.is_element()))
        .map(|a| {
            let class = a.tag_name().name();
            let short = class.rsplit('.').next().unwrap_or(class);
            match a.attribute("mapName").or_else(|| a.attribute("name")) {
                Some(name) if !name.is_empty() => format!("{short} \"{name}\""),
                _ => short.to_string(),
            }
        })
        .collect();
    parts.reverse();
    parts.join(" > ")
}

/// A component of a class that is not VASSAL's own, as a grid that names nothing.
pub fn unmodelled(n: &Node) -> Grid {
    Grid::Unmodelled(Unmodelled {
        class: n.tag_name().name().to_string(),
        path: component_path(n),
    })
}

fn num<T: std::str::FromStr>(n: &Node, k: &str, default: T) -> T {
    n.attribute(k).and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

/// The grid an element holds as a child (a board's, a zone's, a zoned grid's
/// background), skipping what is not a grid; a class that is not VASSAL's own is an
/// unmodelled grid.
pub fn child_grid(parent: &Node) -> Option<Grid> {
    parent.children().filter(Node::is_element).find_map(|c| {
        if !is_vassal(&c) {
            return Some(unmodelled(&c));
        }
        grid(&c)
    })
}

/// A grid element of VASSAL's own, or `None` when the element is not a grid.
pub fn grid(n: &Node) -> Option<Grid> {
    if is(n, ".HexGrid") {
        Some(Grid::Hex(hex_grid(*n)))
    } else if is(n, ".SquareGrid") {
        Some(Grid::Square(square_grid(n)))
    } else if is(n, ".RegionGrid") {
        let defined = n
            .children()
            .filter(|c| is(c, ".Region"))
            .map(|r| {
                let origin = (num(&r, "originx", 0), num(&r, "originy", 0));
                (origin, r.attribute("name").unwrap_or_default().to_string())
            })
            .collect();
        Some(Grid::Region(RegionGrid::from_defined(defined)))
    } else if is(n, ".ZonedGrid") {
        Some(Grid::Zoned(zoned_grid(n)))
    } else {
        None
    }
}

fn zoned_grid(n: &Node) -> ZonedGrid {
    let mut out = ZonedGrid::default();
    for c in n.children().filter(Node::is_element) {
        if is(&c, "mapgrid.Zone") {
            out.zones.push(zone(&c));
        } else if !is_vassal(&c) {
            out.background = Some(Box::new(unmodelled(&c)));
        } else if let Some(g) = grid(&c) {
            out.background = Some(Box::new(g));
        }
    }
    out
}

fn zone(z: &Node) -> Zone {
    let mut zone = Zone::new(
        z.attribute("name").unwrap_or_default(),
        z.attribute("locationFormat").unwrap_or("$name$"),
        parse_path(z.attribute("path").unwrap_or_default()),
    );
    zone.use_parent_grid = z.attribute("useParentGrid") == Some("true");
    // A zone's properties are not grids; another class of its own may be.
    zone.own_grid = z
        .children()
        .filter(|c| c.is_element() && !is(c, ".ZoneProperty"))
        .find_map(|c| if is_vassal(&c) { grid(&c) } else { Some(unmodelled(&c)) });
    if let Some(Grid::Hex(g)) = &zone.own_grid {
        zone.grid.clone_from(g);
    }
    zone
}

fn square_grid(n: &Node) -> SquareGrid {
    let numbering = n
        .children()
        .find(|c| is(c, "SquareGridNumbering"))
        .map(|c| numbering(&c, "$gridLocation$"));
    SquareGrid {
        origin: (num(n, "x0", 24), num(n, "y0", 24)),
        dx: num(n, "dx", 48.0),
        dy: num(n, "dy", 48.0),
        numbering,
    }
}

fn numbering(n: &Node, default_format: &str) -> Numbering {
    let kind = |k: &str| if n.attribute(k) == Some("A") { 'A' } else { 'N' };
    let b = |k: &str| n.attribute(k) == Some("true");
    Numbering {
        first: n.attribute("first").and_then(|f| f.chars().next()).unwrap_or('H'),
        sep: n.attribute("sep").unwrap_or_default().to_string(),
        types: (kind("hType"), kind("vType")),
        leading: (num(n, "hLeading", 1), num(n, "vLeading", 1)),
        offsets: (num(n, "hOff", 1), num(n, "vOff", 1)),
        descend: (b("hDescend"), b("vDescend")),
        format: n.attribute("locationFormat").unwrap_or(default_format).to_string(),
    }
}

/// A `HexGrid` and its `HexGridNumbering`; `None` without a numbering VASSAL can read.
pub fn hex_grid(grid: Node) -> Option<VassalGrid> {
    let num_node =
        grid.children().find(|n| n.tag_name().name().ends_with("HexGridNumbering"))?;
    let n = numbering(&num_node, "$gridLocation$");
    let b = |k: &str| grid.attribute(k) == Some("true");
    Some(VassalGrid {
        sideways: b("sideways"),
        x0: num(&grid, "x0", 0),
        y0: num(&grid, "y0", 32),
        dx: num(&grid, "dx", 55.425_625_842_204_07),
        dy: num(&grid, "dy", 64.0),
        first: n.first,
        sep: n.sep,
        h_leading: n.leading.0,
        v_leading: n.leading.1,
        h_off: n.offsets.0,
        v_off: n.offsets.1,
        h_descend: n.descend.0,
        v_descend: n.descend.1,
        h_type: n.types.0,
        v_type: n.types.1,
        stagger: num_node.attribute("stagger") != Some("false"),
        location_format: n.format,
    })
}
