//! Reading modules and saved games back: the maps, boards and zoned grids of a module's
//! buildFile, and every piece of a saved game with its map and VASSAL location name.

use muster_hex::vassal::VassalGrid;
use serde::Serialize;

use crate::archive::Archive;
use crate::vassal::encoder::{TAB, decode};
use crate::vassal::save::{SavedGame, deobfuscate, parse_stream};

/// Why a module or saved game could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError(pub String);

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReadError {}

fn err(e: impl std::fmt::Display) -> ReadError {
    ReadError(e.to_string())
}

/// A board's place in a map's arrangement: board name, column, row.
pub type Slot = (String, u32, u32);

/// A zone of a board: a polygon with a name and, for hex zones, a grid.
#[derive(Debug, Clone)]
pub struct Zone {
    /// Zone name.
    pub name: String,
    /// `locationFormat` (`$name$`, `$gridLocation$`).
    pub format: String,
    /// Polygon corners, board pixels.
    pub path: Vec<(f64, f64)>,
    /// The hex grid inside, if any.
    pub grid: Option<VassalGrid>,
}

impl Zone {
    fn bounds(&self) -> (f64, f64) {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for (x, y) in &self.path {
            x0 = x0.min(*x);
            y0 = y0.min(*y);
            x1 = x1.max(*x);
            y1 = y1.max(*y);
        }
        (x1 - x0, y1 - y0)
    }

    fn contains(&self, x: f64, y: f64) -> bool {
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

    /// The location name of a board point inside the zone.
    pub fn location(&self, x: f64, y: f64) -> String {
        let grid = self.grid.as_ref().map(|g| {
            let (w, h) = self.bounds();
            g.location_name(x, y, w, h)
        });
        self.format
            .replace("$name$", &self.name)
            .replace("$gridLocation$", grid.as_deref().unwrap_or(""))
    }
}

/// A board of a map.
#[derive(Debug, Clone)]
pub struct BoardInfo {
    /// Board name.
    pub name: String,
    /// Image file under `images/`.
    pub image: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Zones, in buildFile order.
    pub zones: Vec<Zone>,
}

/// A map of a module.
#[derive(Debug, Clone)]
pub struct MapInfo {
    /// Map identifier.
    pub name: String,
    /// Boards.
    pub boards: Vec<BoardInfo>,
    /// The default board arrangement: board name, column, row.
    pub arrangement: Vec<Slot>,
}

/// What muster reads of a module.
#[derive(Debug, Clone, Default)]
pub struct ModuleInfo {
    /// Module name.
    pub name: String,
    /// Maps.
    pub maps: Vec<MapInfo>,
    /// Predefined setups: menu name and archive file.
    pub setups: Vec<(String, String)>,
}

/// A piece of a saved game.
#[derive(Debug, Clone, Serialize)]
pub struct ListedPiece {
    /// Piece id in the save.
    pub id: String,
    /// Piece name.
    pub name: String,
    /// The counter id muster gave it, if the piece carries one.
    pub unit: Option<String>,
    /// Side property.
    pub side: Option<String>,
    /// Map identifier, or none for pieces off every map.
    pub map: Option<String>,
    /// Map x.
    pub x: i64,
    /// Map y.
    pub y: i64,
    /// VASSAL's location name, where the module's grids tell it.
    pub location: Option<String>,
    /// Shows its reduced side (Layer `Step` at level 2).
    pub reduced: bool,
}

fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[1..4] != b"PNG" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

fn parse_grid(grid: roxmltree::Node) -> Option<VassalGrid> {
    let num =
        grid.children().find(|n| n.tag_name().name().ends_with("HexGridNumbering"))?;
    let a = |n: roxmltree::Node, k: &str| n.attribute(k).unwrap_or_default().to_string();
    let b = |n: roxmltree::Node, k: &str| n.attribute(k) == Some("true");
    let i = |n: roxmltree::Node, k: &str, d: i64| {
        n.attribute(k).and_then(|v| v.parse().ok()).unwrap_or(d)
    };
    let f = |k: &str, d: f64| grid.attribute(k).and_then(|v| v.parse().ok()).unwrap_or(d);
    if num.attribute("hType").unwrap_or("N") != "N"
        || num.attribute("vType").unwrap_or("N") != "N"
    {
        return None;
    }
    Some(VassalGrid {
        sideways: b(grid, "sideways"),
        x0: i(grid, "x0", 0),
        y0: i(grid, "y0", 32),
        dx: f("dx", 55.425_625_842_204_07),
        dy: f("dy", 64.0),
        first: a(num, "first").chars().next().unwrap_or('H'),
        sep: a(num, "sep"),
        h_leading: u32::try_from(i(num, "hLeading", 1)).unwrap_or(1),
        v_leading: u32::try_from(i(num, "vLeading", 1)).unwrap_or(1),
        h_off: i(num, "hOff", 1),
        v_off: i(num, "vOff", 1),
        h_descend: b(num, "hDescend"),
        v_descend: b(num, "vDescend"),
        stagger: num.attribute("stagger") != Some("false"),
        location_format: num
            .attribute("locationFormat")
            .unwrap_or("$gridLocation$")
            .to_string(),
    })
}

fn parse_path(s: &str) -> Vec<(f64, f64)> {
    s.split(';')
        .filter_map(|p| {
            let (x, y) = p.split_once(',')?;
            Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
        })
        .collect()
}

/// Reads a module's buildFile: maps, boards (sizes from their images), zones and setups.
pub fn read_module(archive: &mut Archive) -> Result<ModuleInfo, ReadError> {
    let name =
        if archive.contains("buildFile.xml") { "buildFile.xml" } else { "buildFile" };
    let bytes = archive
        .read(name)
        .map_err(|_| ReadError("the module has no buildFile.xml".into()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ReadError("buildFile.xml is not UTF-8".into()))?;
    let doc = roxmltree::Document::parse(&text)
        .map_err(|e| ReadError(format!("buildFile.xml: {e}")))?;
    let root = doc.root_element();
    let mut info = ModuleInfo {
        name: root.attribute("name").unwrap_or_default().to_string(),
        ..ModuleInfo::default()
    };
    let ends =
        |n: &roxmltree::Node, s: &str| n.is_element() && n.tag_name().name().ends_with(s);
    for m in root.descendants().filter(|n| ends(n, ".Map") || ends(n, ".PrivateMap")) {
        let mut map = MapInfo {
            name: m.attribute("mapName").unwrap_or_default().to_string(),
            boards: Vec::new(),
            arrangement: Vec::new(),
        };
        for picker in m.children().filter(|n| ends(n, ".BoardPicker")) {
            if let Some(setup) =
                picker.children().find(|n| n.tag_name().name() == "setup")
            {
                map.arrangement = arrangement(setup.text().unwrap_or_default());
            }
            for b in picker.children().filter(|n| ends(n, ".Board")) {
                let image = b.attribute("image").unwrap_or_default().to_string();
                let size = if image.is_empty() {
                    None
                } else {
                    archive
                        .read(&format!("images/{image}"))
                        .ok()
                        .and_then(|p| png_size(&p))
                };
                let attr = |k: &str| b.attribute(k).and_then(|v| v.parse().ok());
                let (width, height) = size
                    .unwrap_or((attr("width").unwrap_or(0), attr("height").unwrap_or(0)));
                let mut zones = Vec::new();
                for z in b.descendants().filter(|n| ends(n, ".Zone")) {
                    zones.push(Zone {
                        name: z.attribute("name").unwrap_or_default().to_string(),
                        format: z
                            .attribute("locationFormat")
                            .unwrap_or("$name$")
                            .to_string(),
                        path: parse_path(z.attribute("path").unwrap_or_default()),
                        grid: z
                            .children()
                            .find(|n| ends(n, ".HexGrid"))
                            .and_then(parse_grid),
                    });
                }
                map.boards.push(BoardInfo {
                    name: b.attribute("name").unwrap_or_default().to_string(),
                    image,
                    width,
                    height,
                    zones,
                });
            }
        }
        info.maps.push(map);
    }
    for s in root.descendants().filter(|n| ends(n, ".PredefinedSetup")) {
        if s.attribute("useFile") == Some("true")
            && let Some(file) = s.attribute("file")
        {
            info.setups.push((
                s.attribute("name").unwrap_or_default().to_string(),
                file.to_string(),
            ));
        }
    }
    Ok(info)
}

/// Parses a BoardPicker arrangement `<map>BoardPicker\tname\tcol\trow…` (its map prefix
/// ignored).
fn arrangement(text: &str) -> Vec<Slot> {
    let t = decode(text, TAB);
    t[1.min(t.len())..]
        .chunks(3)
        .filter_map(|c| match c {
            [name, col, row] => {
                Some((name.clone(), col.parse().ok()?, row.parse().ok()?))
            }
            _ => None,
        })
        .collect()
}

/// Reads a saved game (`.vsav` bytes): its `savedGame` entry in any header form.
pub fn read_save(bytes: Vec<u8>) -> Result<SavedGame, ReadError> {
    let mut archive = Archive::open(bytes).map_err(err)?;
    let raw = archive
        .read("savedGame")
        .map_err(|_| ReadError("the saved game has no savedGame entry".into()))?;
    parse_stream(&deobfuscate(&raw).map_err(err)?).map_err(err)
}

/// Every piece of a saved game, with its location named by the module's grids when the
/// module is given.
pub fn list_pieces(saved: &SavedGame, module: Option<&ModuleInfo>) -> Vec<ListedPiece> {
    // Board arrangements: the save's own BoardPicker commands win over the module's default.
    let mut arrangements: Vec<(String, Vec<Slot>)> = Vec::new();
    for cmd in &saved.other {
        let head = cmd.split('\t').next().unwrap_or_default();
        if let Some(map) = head.strip_suffix("BoardPicker") {
            arrangements.push((map.to_string(), arrangement(cmd)));
        }
    }
    let mut out = Vec::new();
    for added in &saved.added {
        let Some(piece) = &added.piece else { continue };
        let Some(pos) = piece.position() else { continue };
        let location = pos.map.as_ref().and_then(|m| {
            let info = module?.maps.iter().find(|x| x.name == *m)?;
            let arr = arrangements
                .iter()
                .find(|(n, _)| n == m)
                .map_or(&info.arrangement, |(_, a)| a);
            locate(info, arr, pos.x as f64, pos.y as f64)
        });
        let reduced = piece.traits.iter().any(|t| {
            t.id() == "emb2"
                && t.fields().get(18).map(String::as_str) == Some("Step")
                && t.state == "2"
        });
        out.push(ListedPiece {
            id: added.id.clone(),
            name: piece.name().unwrap_or_default(),
            unit: piece.marker("UnitId"),
            side: piece.marker("Side"),
            map: pos.map,
            x: pos.x,
            y: pos.y,
            location,
            reduced,
        });
    }
    out
}

fn locate(map: &MapInfo, arrangement: &[Slot], x: f64, y: f64) -> Option<String> {
    let slot = |name: &str| -> (u32, u32) {
        arrangement
            .iter()
            .find(|(n, _, _)| n == name)
            .map_or((0, 0), |(_, c, r)| (*c, *r))
    };
    let placed: Vec<(&BoardInfo, (u32, u32))> = map
        .boards
        .iter()
        .filter(|b| {
            arrangement.is_empty() || arrangement.iter().any(|(n, _, _)| *n == b.name)
        })
        .map(|b| (b, slot(&b.name)))
        .collect();
    for (b, (c, r)) in &placed {
        let ox: u32 = placed
            .iter()
            .filter(|(_, s)| s.1 == *r && s.0 < *c)
            .map(|(o, _)| o.width)
            .sum();
        let oy: u32 = placed
            .iter()
            .filter(|(_, s)| s.0 == *c && s.1 < *r)
            .map(|(o, _)| o.height)
            .sum();
        let (lx, ly) = (x - f64::from(ox), y - f64::from(oy));
        if lx < 0.0 || ly < 0.0 || lx >= f64::from(b.width) || ly >= f64::from(b.height) {
            continue;
        }
        return Some(match b.zones.iter().find(|z| z.contains(lx, ly)) {
            Some(z) => z.location(lx, ly),
            None => b.name.clone(),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_parse() {
        assert_eq!(
            arrangement("Main MapBoardPicker\tMap A\t0\t0\tMap B\t0\t1"),
            vec![("Map A".to_string(), 0, 0), ("Map B".to_string(), 0, 1)]
        );
        assert!(arrangement("").is_empty());
    }

    #[test]
    fn zones_contain_their_inside() {
        let z = Zone {
            name: "Box".into(),
            format: "$name$".into(),
            path: parse_path("0,0;10,0;10,10;0,10"),
            grid: None,
        };
        assert!(z.contains(5.0, 5.0));
        assert!(!z.contains(15.0, 5.0));
        assert_eq!(z.location(1.0, 1.0), "Box");
    }
}
