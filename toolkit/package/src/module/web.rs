//! The browser table: a static page that shows the map, sets up any scenario from its
//! solved setup, lets counters be dragged between hexes (snapping to hex centres) and
//! holding boxes, flipped, and checked after every move by the module's own WebAssembly
//! checker.

use std::collections::BTreeMap;

use muster_model::Game;
use rayon::prelude::*;
use serde::Serialize;

use super::table::Table;
use super::{BoardPlan, RULESET, SetupFile, Slot};

const INDEX: &str = include_str!("../../web/index.html");
const SCRIPT: &str = include_str!("../../web/table.js");

#[derive(Serialize)]
struct Board<'a> {
    name: &'a str,
    image: String,
    x: i64,
    y: i64,
    width: u32,
    height: u32,
}

#[derive(Serialize)]
struct Hex {
    label: String,
    x: i64,
    y: i64,
}

#[derive(Serialize)]
struct Counter {
    id: String,
    name: String,
    side: String,
    front: String,
    back: Option<String>,
}

#[derive(Serialize)]
struct Data<'a> {
    game: &'a str,
    title: &'a str,
    width: i64,
    height: i64,
    counter: u32,
    hex: f64,
    boards: Vec<Board<'a>>,
    hexes: Vec<Hex>,
    boxes: Vec<&'a str>,
    counters: Vec<Counter>,
    scenarios: &'a [SetupFile],
}

/// The files of `dist/<game>/web/`: its own, and those that are copies of the module's
/// (its images and ruleset), named by their path in the module so they are not copied
/// twice.
#[derive(Debug, Default)]
pub struct Web {
    /// Path under `web/` → bytes.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Path under `web/` → the module's file it is a copy of.
    pub from_module: BTreeMap<String, String>,
}

/// Every file of `dist/<game>/web/`: the images its counters and boards show and the
/// ruleset are named as the module's files they copy (which the caller must have).
pub fn files(
    game: &Game,
    plan: &BoardPlan,
    table: &Table,
    slots: &[Slot],
    setups: &[SetupFile],
) -> Result<Web, serde_json::Error> {
    let mut web = Web::default();
    let out = &mut web.files;
    let mut hexes = Vec::new();
    if let Some(board) = &game.board {
        for c in board.cells() {
            if let (Some((x, y, _)), Some(label)) = (plan.place(board, c), board.label(c))
            {
                hexes.push(Hex { label, x, y });
            }
        }
    }
    let boards: Vec<Board> = plan
        .boards
        .iter()
        .map(|b| Board {
            name: &b.name,
            image: format!("images/{}", b.image),
            x: b.origin.0,
            y: b.origin.1,
            width: b.width,
            height: b.height,
        })
        .collect();
    let width = boards.iter().map(|b| b.x + i64::from(b.width)).max().unwrap_or(0);
    let height = boards.iter().map(|b| b.y + i64::from(b.height)).max().unwrap_or(0);
    let hex = plan.boards.first().map_or(0.0, |b| b.layout.hex_size);
    // Each piece's images, name and side are read from its traits, pieces side by side.
    let counters: Vec<Counter> = slots.par_iter().filter_map(counter).collect();
    let used = counters
        .iter()
        .flat_map(|c| std::iter::once(c.front.as_str()).chain(c.back.as_deref()))
        .chain(boards.iter().map(|b| b.image.as_str()));
    for name in used {
        web.from_module.insert(name.to_string(), name.to_string());
    }
    let data = Data {
        game: &game.id,
        title: &game.meta.title,
        width,
        height,
        counter: plan.counter_px,
        hex,
        boards,
        hexes,
        boxes: table.boxes.iter().map(|b| b.name.as_str()).collect(),
        counters,
        scenarios: setups,
    };
    out.insert("data.json".into(), serde_json::to_vec(&data)?);
    web.from_module.insert("ruleset.json".into(), RULESET.into());
    out.insert("checker.wasm".into(), crate::CHECKER_WASM.to_vec());
    out.insert(
        "index.html".into(),
        INDEX
            .replace("{{title}}", &crate::vassal::xml::escape(&game.meta.title, true))
            .into_bytes(),
    );
    out.insert("table.js".into(), SCRIPT.as_bytes().to_vec());
    Ok(web)
}

/// The browser table's view of a piece: its id, name, side and images, read from its
/// traits; none for a piece with no image.
fn counter(s: &Slot) -> Option<Counter> {
    let images: Vec<String> = s
        .piece
        .traits
        .iter()
        .flat_map(|t| match t.id() {
            "emb2" => {
                crate::vassal::encoder::decode(t.fields().get(15).map_or("", |x| x), ',')
            }
            "piece" => t.fields().get(2).cloned().into_iter().collect(),
            _ => Vec::new(),
        })
        .filter(|i| !i.is_empty())
        .collect();
    let front = images.first()?;
    Some(Counter {
        id: s.id.clone(),
        name: s.piece.name().unwrap_or_default(),
        side: s.piece.marker("Side").unwrap_or_default(),
        front: format!("images/{front}"),
        back: images.get(1).map(|b| format!("images/{b}")),
    })
}
