//! `read_module`: the maps, boards, grids, decks, setups and turn trackers of a module's
//! buildFile, each board sized from its image's header.

use std::collections::BTreeMap;

use roxmltree::Node;

use super::grid_xml::{child_grid, component_path, is, is_vassal, unmodelled};
use super::grids::{Grid, Unmodelled};
use super::image_size::{HEAD_BYTES, image_size, may_need_more};
use super::module_info::{
    AtStartInfo, BoardInfo, MapInfo, MapKind, ModuleInfo, PileInfo, ReadError, Slot,
};
use crate::archive::Archive;
use crate::vassal::encoder::{TAB, decode};
use crate::vassal::turn::trackers;

/// The size VASSAL gives a board without an image when the buildFile gives none.
const DEFAULT_BOARD_SIDE: u32 = 500;

/// The sizes of the board images read so far, so that each is read once, and only as far
/// as its header.
#[derive(Default)]
struct ImageSizes(BTreeMap<String, Option<(u32, u32)>>);

impl ImageSizes {
    /// The width and height of `images/{image}` when the archive holds it in a format
    /// VASSAL reads.
    fn of(&mut self, archive: &mut Archive, image: &str) -> Option<(u32, u32)> {
        if image.is_empty() {
            return None;
        }
        *self.0.entry(image.to_string()).or_insert_with(|| {
            let name = format!("images/{image}");
            // A PNG's or GIF's size is in its first 24 bytes; a JPEG's or SVG's further.
            let first = archive.read_head(&name, 24).ok()?;
            if let Some(size) = image_size(&first).filter(|_| !may_need_more(&first)) {
                return Some(size);
            }
            let head = archive.read_head(&name, HEAD_BYTES).ok()?;
            if may_need_more(&head) {
                return archive.read(&name).ok().and_then(|b| image_size(&b));
            }
            image_size(&head)
        })
    }
}

/// The text of a module's buildFile (`buildFile.xml`, or `buildFile` as VASSAL before
/// 3.5 names it).
pub fn build_file_text(archive: &mut Archive) -> Result<String, ReadError> {
    let name =
        if archive.contains("buildFile.xml") { "buildFile.xml" } else { "buildFile" };
    if !archive.contains(name) {
        return Err(ReadError("the module has no buildFile.xml".into()));
    }
    let bytes = archive.read(name).map_err(|e| ReadError(e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| ReadError(format!("{name} is not UTF-8")))
}

/// Reads a module's buildFile: maps of every kind, boards (sizes from their images),
/// grids, zones, decks and setups.
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
    for m in root.descendants().filter(|n| map_kind(n).is_some()) {
        info.maps.push(read_map(&m, archive, &mut sizes));
    }
    info.trackers =
        trackers(root).map_err(|e| ReadError(format!("buildFile.xml: {e}")))?;
    for s in root.descendants().filter(|n| is(n, ".PredefinedSetup")) {
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

/// What kind of map an element is: VASSAL's `Map`, `PrivateMap`, `PlayerHand`, or a
/// class of the module's own that holds boards (it has a `mapName` and a board picker).
fn map_kind(n: &Node) -> Option<MapKind> {
    if !n.is_element() {
        return None;
    }
    let class = n.tag_name().name();
    match class {
        "VASSAL.build.module.Map" => Some(MapKind::Map),
        "VASSAL.build.module.PrivateMap" => Some(MapKind::Private),
        "VASSAL.build.module.PlayerHand" => Some(MapKind::PlayerHand),
        _ if !is_vassal(n)
            && n.attribute("mapName").is_some()
            && n.children().any(|c| is(&c, ".BoardPicker")) =>
        {
            Some(MapKind::Other)
        }
        _ => None,
    }
}

fn read_map(m: &Node, archive: &mut Archive, sizes: &mut ImageSizes) -> MapInfo {
    let edge = |k: &str| m.attribute(k).and_then(|v| v.trim().parse().ok()).unwrap_or(0);
    let kind = map_kind(m).unwrap_or_default();
    let mut map = MapInfo {
        name: m.attribute("mapName").unwrap_or_default().to_string(),
        edge: (edge("edgeWidth"), edge("edgeHeight")),
        kind,
        unmodelled: (kind == MapKind::Other).then(|| Unmodelled {
            class: m.tag_name().name().to_string(),
            path: component_path(m),
        }),
        piles: piles(m),
        at_start: at_start(m),
        ..MapInfo::default()
    };
    for picker in m.children().filter(|n| is(n, ".BoardPicker")) {
        if let Some(setup) = picker.children().find(|n| n.tag_name().name() == "setup") {
            let (slots, reversed) = arrangement(setup.text().unwrap_or_default());
            map.arrangement = slots;
            map.reversed = reversed;
        }
        for b in picker.children().filter(Node::is_element) {
            if is_vassal(&b) && is(&b, ".Board") {
                map.boards.push(read_board(&b, archive, sizes));
            } else if !is_vassal(&b) {
                // A board of the module's own class: its size as given, no point named.
                let mut board = read_board(&b, archive, sizes);
                board.grid = Some(unmodelled(&b));
                board.zones.clear();
                map.boards.push(board);
            }
        }
    }
    map
}

/// The components of class `suffix` of a map, in its folders too, but not those of
/// another map inside it.
fn own<'a, 'i>(
    m: &Node<'a, 'i>,
    suffix: &'static str,
) -> impl Iterator<Item = Node<'a, 'i>> {
    let map = *m;
    m.descendants().filter(move |n| is(n, suffix)).filter(move |n| {
        n.ancestors().skip(1).find(|a| map_kind(a).is_some()) == Some(map)
    })
}

fn position(n: &Node) -> (Option<String>, i64, i64) {
    let num = |k: &str| n.attribute(k).and_then(|v| v.trim().parse().ok()).unwrap_or(0);
    let board = n.attribute("owningBoard").filter(|b| !b.is_empty()).map(str::to_string);
    (board, num("x"), num("y"))
}

/// The at-start stacks of a map, in its folders too.
fn at_start(m: &Node) -> Vec<AtStartInfo> {
    own(m, ".SetupStack")
        .map(|n| {
            let (board, x, y) = position(&n);
            AtStartInfo {
                name: n.attribute("name").unwrap_or_default().to_string(),
                board,
                x,
                y,
                location: (n.attribute("useGridLocation") == Some("true"))
                    .then(|| n.attribute("location").unwrap_or_default().to_string()),
                pieces: n.children().filter(Node::is_element).count(),
            }
        })
        .collect()
}

/// The decks of a map, in its folders too, but not those of another map inside it.
fn piles(m: &Node) -> Vec<PileInfo> {
    own(m, ".DrawPile")
        .map(|n| {
            let (board, x, y) = position(&n);
            PileInfo {
                name: n.attribute("name").unwrap_or_default().to_string(),
                board,
                x,
                y,
            }
        })
        .collect()
}

fn read_board(b: &Node, archive: &mut Archive, sizes: &mut ImageSizes) -> BoardInfo {
    let image = b.attribute("image").unwrap_or_default().to_string();
    let attr = |k: &str| b.attribute(k).and_then(|v| v.trim().parse().ok());
    let given = |k: &str| {
        attr(k).unwrap_or(if image.is_empty() { DEFAULT_BOARD_SIDE } else { 0 })
    };
    let (width, height) =
        sizes.of(archive, &image).unwrap_or((given("width"), given("height")));
    let grid = child_grid(b);
    let zones = match &grid {
        Some(Grid::Zoned(z)) => z.zones.clone(),
        _ => Vec::new(),
    };
    BoardInfo {
        name: b.attribute("name").unwrap_or_default().to_string(),
        image,
        width,
        height,
        zones,
        grid,
    }
}

/// Parses a BoardPicker arrangement `<map>BoardPicker\tname\tcol\trow…` (its map prefix
/// ignored): the slots, and the boards shown turned round (`name/rev`).
pub fn arrangement(text: &str) -> (Vec<Slot>, Vec<String>) {
    let t = decode(text, TAB);
    let mut reversed = Vec::new();
    let slots = t[1.min(t.len())..]
        .chunks(3)
        .filter_map(|c| match c {
            [name, col, row] => {
                let mut parts = decode(name, '/');
                let board = parts.swap_remove(0);
                if parts.first().is_some_and(|p| p == "rev") {
                    reversed.push(board.clone());
                }
                Some((board, col.parse().ok()?, row.parse().ok()?))
            }
            _ => None,
        })
        .collect();
    (slots, reversed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_parse() {
        assert_eq!(
            arrangement("Main MapBoardPicker\tMap A\t0\t0\tMap B\t0\t1").0,
            vec![("Map A".to_string(), 0, 0), ("Map B".to_string(), 0, 1)]
        );
        assert!(arrangement("").0.is_empty());
        assert_eq!(
            arrangement("mBoardPicker\tB/rev\t1\t0"),
            (vec![("B".to_string(), 1, 0)], vec!["B".to_string()])
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
}
