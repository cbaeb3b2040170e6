//! The boards of a map as an arrangement places them, and VASSAL's name for a point of
//! the map (`Map.locationName`): the deck standing exactly there, else the name the grid
//! of the board under it gives, else `offboard`.

use std::collections::{HashMap, HashSet};

use super::grids::{Named, Unmodelled};
use super::module_info::{BoardInfo, MapInfo, Slot};

/// What VASSAL calls a point no deck stands on and no board's grid names
/// (`Map.offboard`).
pub const OFFBOARD: &str = "offboard";

/// VASSAL's name for a point of a map (`Map.locationName`): the deck standing exactly
/// there, else the name the grid of the board under it gives, else `offboard`; none when
/// the map or grid is of a class muster cannot read. To name many points of one map,
/// build its [`Layout`] once.
pub fn locate(map: &MapInfo, arrangement: &[Slot], x: i64, y: i64) -> Option<String> {
    Layout::new(map, arrangement).locate(x, y)
}

/// The boards of a map as an arrangement places them, indexed to name any point in time
/// independent of the number of boards: where each board starts, by name and by area.
#[derive(Debug)]
pub struct Layout<'m> {
    map: &'m MapInfo,
    /// The boards in play turned round.
    reversed: HashSet<&'m str>,
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
        let reversed: Vec<&str> = map.reversed.iter().map(String::as_str).collect();
        Layout::turned(map, arrangement, &reversed)
    }

    /// As [`Layout::new`], the boards named in `reversed` turned round.
    pub fn turned(
        map: &'m MapInfo,
        arrangement: &[Slot],
        reversed: &[&str],
    ) -> Layout<'m> {
        let reversed: HashSet<&'m str> = map
            .boards
            .iter()
            .map(|b| b.name.as_str())
            .filter(|n| reversed.contains(n))
            .collect();
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
        Layout { map, reversed, origins, by_name, cell, cells }
    }

    /// VASSAL's name for a point of the map, as [`locate`] gives it.
    pub fn locate(&self, x: i64, y: i64) -> Option<String> {
        self.name(x, y).ok()
    }

    /// VASSAL's name for a point of the map (`Map.locationName`), or what muster cannot
    /// model to tell it.
    pub fn name(&self, x: i64, y: i64) -> Result<String, Unmodelled> {
        let map = self.map;
        if let Some(u) = &map.unmodelled {
            return Err(u.clone());
        }
        for pile in &map.piles {
            let (ox, oy) = match &pile.board {
                Some(b) => self.by_name.get(b.as_str()).copied(),
                None => None,
            }
            .unwrap_or((i64::from(map.edge.0), i64::from(map.edge.1)));
            if (pile.x.saturating_add(ox), pile.y.saturating_add(oy)) == (x, y) {
                return Ok(pile.name.clone());
            }
        }
        let named = match self.board_at(x, y) {
            Some((b, p)) => board_name(b, p, self.reversed.contains(b.name.as_str()))?,
            None => None,
        };
        Ok(named.unwrap_or_else(|| OFFBOARD.to_string()))
    }

    /// The first board in the map's order that holds the point, and the point in the
    /// board's pixels.
    fn board_at(&self, x: i64, y: i64) -> Option<(&'m BoardInfo, (i64, i64))> {
        let cell = (x.div_euclid(self.cell.0), y.div_euclid(self.cell.1));
        for &k in self.cells.get(&cell).map_or(&[][..], Vec::as_slice) {
            let (b, (ox, oy)) = self.origins[k];
            let (lx, ly) = (x.saturating_sub(ox), y.saturating_sub(oy));
            if lx >= 0 && ly >= 0 && lx < i64::from(b.width) && ly < i64::from(b.height) {
                return Some((b, (lx, ly)));
            }
        }
        None
    }
}

/// `Board.locationName`: the board's grid's name of a point of the board, turned round
/// first on a reversed board; nothing on a board without a grid.
fn board_name(b: &BoardInfo, (x, y): (i64, i64), reversed: bool) -> Named {
    let size = (i64::from(b.width), i64::from(b.height));
    let p = if reversed { (size.0 - x, size.1 - y) } else { (x, y) };
    match &b.grid {
        Some(g) => g.name(p, size),
        None => Ok(None),
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
    use crate::module_read::buildfile::read_module;
    use crate::module_read::module_info::MapKind;

    const BOARD: &str = "VASSAL.build.module.map.boardPicker.Board";

    fn module(xml: &str) -> crate::module_read::ModuleInfo {
        let files = [("buildFile.xml".to_string(), xml.as_bytes().to_vec())];
        let zip = crate::archive::write_zip(&files.into()).expect("zips");
        let mut archive = crate::archive::Archive::open(zip).expect("opens");
        read_module(&mut archive).expect("reads")
    }

    fn square(numbering: &str) -> String {
        format!(
            "<VASSAL.build.module.map.boardPicker.board.SquareGrid dx=\"50\" dy=\"50\" x0=\"25\" y0=\"25\">\
             <VASSAL.build.module.map.boardPicker.board.mapgrid.SquareGridNumbering {numbering}/>\
             </VASSAL.build.module.map.boardPicker.board.SquareGrid>"
        )
    }

    #[test]
    fn maps_boards_and_decks_of_every_kind_are_named_as_vassal_names_them() {
        let grid = square(
            "first=\"H\" hType=\"A\" hOff=\"0\" vOff=\"1\" hLeading=\"0\" vLeading=\"0\"",
        );
        let xml = format!(
            "<VASSAL.launch.BasicModule name=\"m\">\
             <VASSAL.build.module.Map mapName=\"M\">\
             <VASSAL.build.module.map.BoardPicker><setup>MBoardPicker\tA/rev\t0\t0\tB\t1\t0\tC\t2\t0\tD\t3\t0</setup>\
             <{BOARD} name=\"A\" width=\"100\" height=\"100\">{grid}</{BOARD}>\
             <{BOARD} name=\"B\" width=\"100\" height=\"100\"><org.example.CrawlGrid/></{BOARD}>\
             <{BOARD} name=\"C\" width=\"100\" height=\"100\"/>\
             <org.example.TerrainBoard name=\"D\" width=\"100\" height=\"100\"/>\
             </VASSAL.build.module.map.BoardPicker>\
             <VASSAL.build.module.folder.MapSubFolder name=\"Decks\">\
             <VASSAL.build.module.folder.MapSubFolder name=\"Deeper\">\
             <VASSAL.build.module.map.DrawPile name=\"Pile\" owningBoard=\"C\" x=\"10\" y=\"10\"/>\
             <VASSAL.build.module.map.SetupStack name=\"Reserve\" owningBoard=\"A\" useGridLocation=\"true\" location=\"A1\" x=\"0\" y=\"0\"><VASSAL.build.widget.PieceSlot/></VASSAL.build.module.map.SetupStack>\
             </VASSAL.build.module.folder.MapSubFolder></VASSAL.build.module.folder.MapSubFolder>\
             </VASSAL.build.module.Map>\
             <VASSAL.build.module.PlayerHand mapName=\"Hand\"><VASSAL.build.module.map.BoardPicker>\
             <{BOARD} name=\"H\" width=\"100\" height=\"100\"/></VASSAL.build.module.map.BoardPicker>\
             </VASSAL.build.module.PlayerHand>\
             <org.example.TableMap mapName=\"Table\"><VASSAL.build.module.map.BoardPicker>\
             <{BOARD} name=\"T\" width=\"100\" height=\"100\"/></VASSAL.build.module.map.BoardPicker>\
             </org.example.TableMap>\
             </VASSAL.launch.BasicModule>"
        );
        let m = module(&xml);
        let kinds: Vec<(&str, MapKind)> =
            m.maps.iter().map(|x| (x.name.as_str(), x.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("M", MapKind::Map),
                ("Hand", MapKind::PlayerHand),
                ("Table", MapKind::Other)
            ]
        );
        let main = &m.maps[0];
        assert_eq!(main.reversed, ["A"]);
        let layout = Layout::new(main, &main.arrangement);
        // Board A is turned round: its top left corner is its grid's bottom right cell.
        assert_eq!(layout.name(30, 30), Ok("B2".to_string()));
        let turned = Layout::turned(main, &main.arrangement, &[]);
        assert_eq!(turned.name(30, 30), Ok("A1".to_string()));
        // A deck two folders down names its point; a board without a grid is offboard.
        assert_eq!(layout.name(210, 10), Ok("Pile".to_string()));
        assert_eq!(main.piles.len(), 1);
        assert_eq!(main.at_start.len(), 1);
        assert_eq!(main.at_start[0].name, "Reserve");
        assert_eq!(main.at_start[0].location.as_deref(), Some("A1"));
        assert_eq!(layout.name(250, 50), Ok(OFFBOARD.to_string()));
        assert_eq!(layout.name(900, 50), Ok(OFFBOARD.to_string()));
        let e = layout.name(350, 50).expect_err("a board of the module's own");
        assert_eq!(e.path, "Map \"M\" > BoardPicker > TerrainBoard \"D\"");
        // A grid and a map of a class muster cannot read are said, with their path.
        let e = layout.name(150, 50).expect_err("a grid of the module's own");
        assert_eq!(e.class, "org.example.CrawlGrid");
        assert_eq!(e.path, "Map \"M\" > BoardPicker > Board \"B\" > CrawlGrid");
        let table = &m.maps[2];
        let e = Layout::new(table, &table.arrangement).name(5, 5).expect_err("own map");
        assert_eq!(e.path, "TableMap \"Table\"");
    }
}
