//! Inputs shaped to make a reader slow or deep, of any size: one piece of very many traits,
//! very many notes, very many boards under very many pieces, turn levels nested very deep.
//! Tests, the benchmark and the fuzz seeds read them at two sizes to show that reading
//! grows with the input and no faster; every one is a well-formed save or buildFile.

use std::fmt::Write as _;

use crate::vassal::save::command_stream;

/// A saved game's command stream holding one piece of `traits` Marker traits, each
/// separated from the next by a bare TAB (as a hand-made save might write them).
pub fn many_traits(traits: usize) -> String {
    let mut add = String::from("+/1/");
    for k in 0..traits {
        let _ = write!(add, "mark;T{k}\t");
    }
    add.push_str("piece;;;a.png;Many traits/");
    add.push_str(&"\t".repeat(traits));
    add.push_str("null;0;0;1;0");
    command_stream(&[add], &[])
}

/// A saved game's command stream of `notes` public notes, each different.
pub fn many_facts(notes: usize) -> String {
    let restores: Vec<String> = (0..notes).map(|k| format!("PNOTES\tnote {k}")).collect();
    command_stream(&[], &restores)
}

/// The map [`board_module`] and [`pieces_on_boards`] put their boards on.
pub const MAP: &str = "Main Map";

/// The side of the square grid [`board_module`] lays its boards out on.
fn grid_side(boards: usize) -> usize {
    (1..).find(|s| s * s >= boards).unwrap_or(1)
}

/// A module's buildFile with one map of `boards` boards of 100 by 100 pixels, laid out on
/// a square grid by the map's board picker, each with a zone.
pub fn board_module(boards: usize) -> String {
    let side = grid_side(boards);
    let mut setup = format!("{MAP}BoardPicker");
    let mut board_list = String::new();
    for k in 0..boards {
        let _ = write!(setup, "\tB{k}\t{}\t{}", k % side, k / side);
        let _ = write!(
            board_list,
            "<VASSAL.build.module.map.boardPicker.Board name=\"B{k}\" width=\"100\" height=\"100\">\
             <VASSAL.build.module.map.boardPicker.board.ZonedGrid>\
             <VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name=\"Z{k}\" path=\"0,0;50,0;50,50;0,50\"/>\
             </VASSAL.build.module.map.boardPicker.board.ZonedGrid>\
             </VASSAL.build.module.map.boardPicker.Board>"
        );
    }
    format!(
        "<VASSAL.build.GameModule name=\"Boards\"><VASSAL.build.module.Map mapName=\"{MAP}\">\
         <VASSAL.build.module.map.BoardPicker><setup>{setup}</setup>{board_list}\
         </VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.build.GameModule>"
    )
}

/// A saved game's command stream of `pieces` pieces spread over the boards of
/// [`board_module`]`(boards)`, each in a board's zone, and the board picker's arrangement.
pub fn pieces_on_boards(pieces: usize, boards: usize) -> String {
    let side = grid_side(boards);
    let adds: Vec<String> = (0..pieces)
        .map(|k| {
            let b = k * boards.max(1) / pieces.max(1);
            let (x, y) = ((b % side) * 100 + 10, (b / side) * 100 + 10);
            format!("+/{k}/piece;;;a.png;P{k}/{MAP};{x};{y};{k};0")
        })
        .collect();
    let mut picker = format!("{MAP}BoardPicker");
    for k in 0..boards {
        let _ = write!(picker, "\tB{k}\t{}\t{}", k % side, k / side);
    }
    command_stream(&adds, &[picker])
}

/// A module's buildFile with one turn tracker whose levels nest `depth` deep.
pub fn deep_turn_levels(depth: usize) -> String {
    let open =
        "<VASSAL.build.module.turn.CounterTurnLevel name=\"L\" start=\"1\" incr=\"1\">";
    let close = "</VASSAL.build.module.turn.CounterTurnLevel>";
    format!(
        "<VASSAL.build.GameModule name=\"Deep\"><VASSAL.build.module.turn.TurnTracker name=\"Turn\">{}{}</VASSAL.build.module.turn.TurnTracker></VASSAL.build.GameModule>",
        open.repeat(depth),
        close.repeat(depth)
    )
}

/// A module's buildFile whose one map stands `depth` folders down.
pub fn deep_folders(depth: usize) -> String {
    let open = "<VASSAL.build.module.folder.ModuleSubFolder name=\"F\">";
    let close = "</VASSAL.build.module.folder.ModuleSubFolder>";
    format!(
        "<VASSAL.build.GameModule name=\"Folders\">{}<VASSAL.build.module.Map mapName=\"{MAP}\"/>{}</VASSAL.build.GameModule>",
        open.repeat(depth),
        close.repeat(depth)
    )
}
