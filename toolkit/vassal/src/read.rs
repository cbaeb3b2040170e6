//! Reading modules and saved games back: the maps, boards and zoned grids of a module's
//! buildFile, and every piece of a saved game with its map and VASSAL location name.

use std::collections::HashMap;

use muster_hex::vassal::VassalGrid;

use crate::archive::Archive;
use crate::vassal::encoder::{TAB, decode};
use crate::vassal::save::{SavedGame, deobfuscate, parse_stream};
use crate::vassal::turn::{TrackerDef, trackers};

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

/// A deck's place on a map (a `DrawPile`): VASSAL names the point it stands on after it.
#[derive(Debug, Clone)]
pub struct PileInfo {
    /// The deck's name.
    pub name: String,
    /// The board its position is relative to, if any.
    pub board: Option<String>,
    /// x, relative to that board (or to the map's edge).
    pub x: i64,
    /// y, relative to that board (or to the map's edge).
    pub y: i64,
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
    /// The margin around the boards (`edgeWidth`, `edgeHeight`).
    pub edge: (u32, u32),
    /// Decks.
    pub piles: Vec<PileInfo>,
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
    /// Turn trackers, in buildFile order.
    pub trackers: Vec<TrackerDef>,
}

fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[1..4] != b"PNG" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

/// The sizes of the board images read so far, so that each is read once, and only as far
/// as its header.
#[derive(Default)]
struct ImageSizes(std::collections::BTreeMap<String, Option<(u32, u32)>>);

impl ImageSizes {
    /// The width and height of `images/{image}` when it is a PNG the archive holds.
    fn of(&mut self, archive: &mut Archive, image: &str) -> Option<(u32, u32)> {
        if image.is_empty() {
            return None;
        }
        *self.0.entry(image.to_string()).or_insert_with(|| {
            archive
                .read_head(&format!("images/{image}"), 24)
                .ok()
                .and_then(|p| png_size(&p))
        })
    }
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
    let kind = |k: &str| match num.attribute(k).unwrap_or("N") {
        "N" => Some('N'),
        "A" => Some('A'),
        _ => None,
    };
    let (h_type, v_type) = (kind("hType")?, kind("vType")?);
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
        h_type,
        v_type,
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

/// The text of a module's buildFile (`buildFile.xml`, or `buildFile` as VASSAL before
/// 3.5 names it).
pub fn build_file_text(archive: &mut Archive) -> Result<String, ReadError> {
    let name =
        if archive.contains("buildFile.xml") { "buildFile.xml" } else { "buildFile" };
    if !archive.contains(name) {
        return Err(ReadError("the module has no buildFile.xml".into()));
    }
    let bytes = archive.read(name).map_err(err)?;
    String::from_utf8(bytes).map_err(|_| ReadError(format!("{name} is not UTF-8")))
}

/// Reads a module's buildFile: maps, boards (sizes from their images), zones and setups.
pub fn read_module(archive: &mut Archive) -> Result<ModuleInfo, ReadError> {
    let text = build_file_text(archive)?;
    let doc = roxmltree::Document::parse(&text)
        .map_err(|e| ReadError(format!("buildFile.xml: {e}")))?;
    let root = doc.root_element();
    let mut sizes = ImageSizes::default();
    let mut info = ModuleInfo {
        name: root.attribute("name").unwrap_or_default().to_string(),
        ..ModuleInfo::default()
    };
    let ends =
        |n: &roxmltree::Node, s: &str| n.is_element() && n.tag_name().name().ends_with(s);
    for m in root.descendants().filter(|n| ends(n, ".Map") || ends(n, ".PrivateMap")) {
        let edge =
            |k: &str| m.attribute(k).and_then(|v| v.trim().parse().ok()).unwrap_or(0);
        let mut map = MapInfo {
            name: m.attribute("mapName").unwrap_or_default().to_string(),
            boards: Vec::new(),
            arrangement: Vec::new(),
            edge: (edge("edgeWidth"), edge("edgeHeight")),
            piles: m
                .children()
                .filter(|n| ends(n, ".DrawPile"))
                .map(|n| {
                    let num = |k: &str| {
                        n.attribute(k).and_then(|v| v.trim().parse().ok()).unwrap_or(0)
                    };
                    PileInfo {
                        name: n.attribute("name").unwrap_or_default().to_string(),
                        board: n
                            .attribute("owningBoard")
                            .filter(|b| !b.is_empty())
                            .map(str::to_string),
                        x: num("x"),
                        y: num("y"),
                    }
                })
                .collect(),
        };
        for picker in m.children().filter(|n| ends(n, ".BoardPicker")) {
            if let Some(setup) =
                picker.children().find(|n| n.tag_name().name() == "setup")
            {
                map.arrangement = arrangement(setup.text().unwrap_or_default());
            }
            for b in picker.children().filter(|n| ends(n, ".Board")) {
                let image = b.attribute("image").unwrap_or_default().to_string();
                let size = sizes.of(archive, &image);
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
    info.trackers =
        trackers(root).map_err(|e| ReadError(format!("buildFile.xml: {e}")))?;
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
/// ignored; a reversed board's `/rev` too).
fn arrangement(text: &str) -> Vec<Slot> {
    let t = decode(text, TAB);
    t[1.min(t.len())..]
        .chunks(3)
        .filter_map(|c| match c {
            [name, col, row] => Some((
                decode(name, '/').swap_remove(0),
                col.parse().ok()?,
                row.parse().ok()?,
            )),
            _ => None,
        })
        .collect()
}

/// What a saved game says of itself: the module it was saved with (`moduledata`) and the
/// save's own metadata (`savedata`). Every field is optional, as VASSAL needs none of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SaveMeta {
    /// The module's name.
    pub module: Option<String>,
    /// The module's version.
    pub module_version: Option<String>,
    /// The VASSAL version that saved it.
    pub vassal_version: Option<String>,
    /// When, in epoch milliseconds.
    pub saved: Option<String>,
    /// The comment the player gave.
    pub description: Option<String>,
}

fn xml_fields(bytes: &[u8], names: &[&str]) -> Vec<Option<String>> {
    let text = String::from_utf8_lossy(bytes);
    let Ok(doc) = roxmltree::Document::parse(&text) else {
        return vec![None; names.len()];
    };
    names
        .iter()
        .map(|n| {
            doc.root_element()
                .children()
                .find(|c| c.tag_name().name() == *n && c.attribute("lang").is_none())
                .and_then(|c| c.text())
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
        })
        .collect()
}

/// Reads a saved game (`.vsav` bytes): its `savedGame` entry in any header form, and what
/// `savedata` and `moduledata` say of it.
pub fn read_save(bytes: Vec<u8>) -> Result<(SavedGame, SaveMeta), ReadError> {
    let mut archive = Archive::open(bytes).map_err(err)?;
    if !archive.contains("savedGame") {
        return Err(ReadError("the saved game has no savedGame entry".into()));
    }
    archive.check_streamed("savedGame").map_err(err)?;
    let raw = archive.read("savedGame").map_err(err)?;
    let saved = parse_stream(&deobfuscate(&raw).map_err(err)?).map_err(err)?;
    drop(raw);
    let mut meta = SaveMeta::default();
    if let Some(b) = read_if_there(&mut archive, "moduledata")? {
        let [name, version] =
            <[Option<String>; 2]>::try_from(xml_fields(&b, &["name", "version"]))
                .unwrap_or_default();
        meta.module = name;
        meta.module_version = version;
    }
    if let Some(b) = read_if_there(&mut archive, "savedata")? {
        let f = xml_fields(&b, &["VassalVersion", "dateSaved", "description"]);
        let [v, saved, description] =
            <[Option<String>; 3]>::try_from(f).unwrap_or_default();
        meta.vassal_version = v;
        meta.saved = saved;
        meta.description = description;
    }
    Ok((saved, meta))
}

/// The entry `name` when the archive has it; a damaged one is an error.
fn read_if_there(
    archive: &mut Archive,
    name: &str,
) -> Result<Option<Vec<u8>>, ReadError> {
    if !archive.contains(name) {
        return Ok(None);
    }
    archive.read(name).map(Some).map_err(err)
}

/// VASSAL's name for a point of a map (`Map.locationName`): the deck standing exactly
/// there, else the zone or board under it; none off every board. To name many points of
/// one map, build its [`Layout`] once.
pub fn locate(map: &MapInfo, arrangement: &[Slot], x: i64, y: i64) -> Option<String> {
    Layout::new(map, arrangement).locate(x, y)
}

/// The boards of a map as an arrangement places them, indexed to name any point in time
/// independent of the number of boards: where each board starts, by name and by area.
#[derive(Debug)]
pub struct Layout<'m> {
    map: &'m MapInfo,
    /// Each board in play and its origin in map pixels, in the map's board order.
    origins: Vec<(&'m BoardInfo, (i64, i64))>,
    /// The origin of each board by name (the first board of a name).
    by_name: HashMap<&'m str, (i64, i64)>,
    /// The size of a cell of `cells`: the largest board in play.
    cell: (i64, i64),
    /// The boards (indices into `origins`) that reach into each cell.
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl<'m> Layout<'m> {
    /// The boards of `map` placed by `arrangement` (board name, column, row; every board at
    /// column 0, row 0 when it is empty), each one after the boards left of it in its row
    /// and above it in its column.
    pub fn new(map: &'m MapInfo, arrangement: &[Slot]) -> Layout<'m> {
        let origins = origins(map, arrangement);
        let mut by_name = HashMap::new();
        for (b, o) in &origins {
            by_name.entry(b.name.as_str()).or_insert(*o);
        }
        let cell = origins.iter().fold((1, 1), |(w, h), (b, _)| {
            (w.max(i64::from(b.width)), h.max(i64::from(b.height)))
        });
        let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for (k, (b, (ox, oy))) in origins.iter().enumerate() {
            if b.width == 0 || b.height == 0 {
                continue;
            }
            let (right, bottom) =
                (ox + i64::from(b.width) - 1, oy + i64::from(b.height) - 1);
            // No board is larger than a cell, so it reaches into at most four.
            for cx in [ox.div_euclid(cell.0), right.div_euclid(cell.0)] {
                for cy in [oy.div_euclid(cell.1), bottom.div_euclid(cell.1)] {
                    let list = cells.entry((cx, cy)).or_default();
                    if list.last() != Some(&k) {
                        list.push(k);
                    }
                }
            }
        }
        for list in cells.values_mut() {
            list.sort_unstable();
            list.dedup();
        }
        Layout { map, origins, by_name, cell, cells }
    }

    /// VASSAL's name for a point of the map, as [`locate`] gives it.
    pub fn locate(&self, x: i64, y: i64) -> Option<String> {
        let map = self.map;
        for pile in &map.piles {
            let (ox, oy) = match &pile.board {
                Some(b) => self.by_name.get(b.as_str()).copied().unwrap_or((0, 0)),
                None => (i64::from(map.edge.0), i64::from(map.edge.1)),
            };
            if (pile.x.saturating_add(ox), pile.y.saturating_add(oy)) == (x, y) {
                return Some(pile.name.clone());
            }
        }
        let cell = (x.div_euclid(self.cell.0), y.div_euclid(self.cell.1));
        // The first board in the map's order that holds the point.
        for &k in self.cells.get(&cell).map_or(&[][..], Vec::as_slice) {
            let (b, (ox, oy)) = &self.origins[k];
            let (lx, ly) = (x as f64 - *ox as f64, y as f64 - *oy as f64);
            if lx < 0.0
                || ly < 0.0
                || lx >= f64::from(b.width)
                || ly >= f64::from(b.height)
            {
                continue;
            }
            return Some(match b.zones.iter().find(|z| z.contains(lx, ly)) {
                Some(z) => z.location(lx, ly),
                None => b.name.clone(),
            });
        }
        None
    }
}

/// Where each board in play starts on the map, in map pixels: after the widths of the
/// boards at lower columns of its row, and the heights of those at lower rows of its
/// column.
fn origins<'m>(
    map: &'m MapInfo,
    arrangement: &[Slot],
) -> Vec<(&'m BoardInfo, (i64, i64))> {
    let mut slots: HashMap<&str, (u32, u32)> = HashMap::new();
    for (n, c, r) in arrangement {
        slots.entry(n.as_str()).or_insert((*c, *r));
    }
    let placed: Vec<(&BoardInfo, (u32, u32))> = map
        .boards
        .iter()
        .filter(|b| arrangement.is_empty() || slots.contains_key(b.name.as_str()))
        .map(|b| (b, slots.get(b.name.as_str()).copied().unwrap_or((0, 0))))
        .collect();
    // Row r: the columns of its boards and their widths; column c: rows and heights.
    let rows = Before::new(placed.iter().map(|(b, (c, r))| (*r, *c, b.width)));
    let columns = Before::new(placed.iter().map(|(b, (c, r))| (*c, *r, b.height)));
    let (ex, ey) = (i64::from(map.edge.0), i64::from(map.edge.1));
    placed
        .iter()
        .map(|(b, (c, r))| (*b, (ex + rows.sum(*r, *c), ey + columns.sum(*c, *r))))
        .collect()
}

/// Sums of sizes by line and place: for each line (a row or a column), the sum of the
/// sizes at places before a given one.
struct Before {
    /// Each line's places in order, each with the sum of the sizes before it, and the sum
    /// of all its sizes.
    lines: HashMap<u32, (Vec<(u32, u64)>, u64)>,
}

impl Before {
    fn new(items: impl Iterator<Item = (u32, u32, u32)>) -> Before {
        let mut lines: HashMap<u32, (Vec<(u32, u64)>, u64)> = HashMap::new();
        for (line, place, size) in items {
            lines.entry(line).or_default().0.push((place, u64::from(size)));
        }
        for (list, total) in lines.values_mut() {
            list.sort_unstable();
            for entry in list.iter_mut() {
                let size = entry.1;
                entry.1 = *total;
                *total += size;
            }
        }
        Before { lines }
    }

    /// The sum of the sizes on `line` at places lower than `place`.
    fn sum(&self, line: u32, place: u32) -> i64 {
        let Some((list, total)) = self.lines.get(&line) else { return 0 };
        let at = list.partition_point(|(p, _)| *p < place);
        let sum = list.get(at).map_or(*total, |(_, before)| *before);
        i64::try_from(sum).unwrap_or(i64::MAX)
    }
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
        assert_eq!(
            arrangement("mBoardPicker\tB/rev\t1\t0"),
            vec![("B".to_string(), 1, 0)]
        );
    }

    #[test]
    fn components_nested_deep_are_read_without_recursion() {
        let xml = crate::hostile::deep_folders(100_000);
        let files = [("buildFile.xml".to_string(), xml.into_bytes())];
        let zip = crate::archive::write_zip(&files.into()).expect("zips");
        let mut archive = Archive::open(zip).expect("opens");
        let module = read_module(&mut archive).expect("reads");
        assert_eq!(module.maps.len(), 1);
        assert_eq!(module.maps[0].name, crate::hostile::MAP);
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
