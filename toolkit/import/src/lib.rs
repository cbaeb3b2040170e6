//! `muster import`: an existing VASSAL module read back into a game's sources. Counters
//! from its palette pieces (prototypes resolved), each side's image as the publisher's art;
//! maps from its boards with hex grids, as painted maps with the module's grid and
//! numbering; formations from the palette's folders; scenarios from its predefined setups
//! as exact placements; boards without a grid and charts as images; and a report of every
//! component it could not carry, with the component's path in the module.

pub mod carried;
pub mod counters;
pub mod maps;
pub mod palette;
pub mod setups;
pub mod write;

use muster_vassal::read::{ModuleInfo, read_module};
use muster_vassal::zip_reader::Archive;
use roxmltree::Node;

pub use crate::carried::{NotCarried, Report};
use crate::counters::{Counter, file_name, slug};
use muster_vassal::component::{is, path};

/// Why a module could not be imported at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError(pub String);

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ImportError {}

/// A game read from a module: its files (relative to the game folder) and the report.
#[derive(Debug)]
pub struct Imported {
    /// Every file of the game folder, relative path and bytes, in a stable order.
    pub files: Vec<(String, Vec<u8>)>,
    /// What could not be carried.
    pub report: Report,
    /// Counters read.
    pub counters: usize,
    /// Maps written.
    pub maps: usize,
    /// Scenarios written.
    pub scenarios: usize,
    /// Charts written.
    pub charts: usize,
}

/// The module's sides: its player roster's, without the seats muster adds itself.
fn roster(root: Node) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for r in root.descendants().filter(|n| is(*n, "PlayerRoster")) {
        for e in r.children().filter(|n| n.tag_name().name() == "entry") {
            let name = e.text().unwrap_or_default().trim().to_string();
            let id = slug(&name);
            let seat = ["solitaire", "observer", "referee"].contains(&id.as_str());
            if !name.is_empty() && !seat && !out.iter().any(|(i, _)| *i == id) {
                out.push((id, name));
            }
        }
    }
    out
}

/// The sides the counters name, in order, the roster's first.
fn sides(roster: &[(String, String)], counters: &[Counter]) -> Vec<(String, String)> {
    let mut out = roster.to_vec();
    for c in counters {
        if let Some(k) = out.iter().position(|(id, _)| *id == c.side) {
            out[k].1.clone_from(&c.side_name);
        } else {
            out.push((c.side.clone(), c.side_name.clone()));
        }
    }
    out
}

/// The charts of the module's chart windows: (name, image file under `images/`).
fn charts(root: Node, report: &mut Report) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for c in root.descendants().filter(|n| is(*n, "Chart")) {
        match c.attribute("fileName").filter(|f| !f.is_empty()) {
            Some(f) => out
                .push((c.attribute("chartName").unwrap_or(f).to_string(), f.to_string())),
            None => report.add(path(c), "Chart", "has no image"),
        }
    }
    out
}

/// The components no part of the import reads, reported by class: maps' own grids of
/// other kinds, custom classes.
fn unread_components(root: Node, report: &mut Report) {
    for n in root.descendants().filter(|n| n.is_element()) {
        let class = n.tag_name().name();
        let word = muster_vassal::component::short(n);
        if class.contains('.') && !class.starts_with("VASSAL.") {
            report.add(
                path(n),
                format!("class {class}"),
                "a custom Java class: muster cannot know what it does",
            );
        } else if ["SquareGrid", "RegionGrid", "Region"].contains(&word.as_str())
            && !n.ancestors().skip(1).any(|a| is(a, "RegionGrid"))
        {
            report.add(
                path(n),
                format!("grid {word}"),
                "only hex grids are carried; the board is carried as an image",
            );
        } else if word == "HexGrid" && n.parent().is_some_and(|p| is(p, "Board")) {
            report.add(path(n), "grid HexGrid", "a hex grid on the board itself, outside a zone, is not read yet; the board is carried as an image");
        } else if ["DrawPile", "SetupStack"].contains(&word.as_str()) {
            report.add(
                path(n),
                word.as_str(),
                "decks and at-start stacks are not carried",
            );
        }
    }
}

/// Gives every board the module's reading left without a size (an image other than a
/// PNG) the size its image's header states, so that its grid and pieces can be placed.
fn sized(info: &mut ModuleInfo, archive: &mut Archive) {
    for board in info.maps.iter_mut().flat_map(|m| m.boards.iter_mut()) {
        if (board.width == 0 || board.height == 0) && !board.image.is_empty() {
            let size = archive
                .read(&format!("images/{}", board.image))
                .ok()
                .and_then(|b| muster_model::art::header_size(&b));
            if let Some((w, h)) = size {
                (board.width, board.height) = (w, h);
            }
        }
    }
}

/// Reads `module` (the bytes of the `.vmod` file `module_file`) as the game `game`.
pub fn import(
    module: Vec<u8>,
    game: &str,
    module_file: &str,
) -> Result<Imported, ImportError> {
    let mut archive = Archive::open(module).map_err(|e| ImportError(e.to_string()))?;
    let mut info = read_module(&mut archive).map_err(|e| ImportError(e.to_string()))?;
    sized(&mut info, &mut archive);
    let name =
        if archive.contains("buildFile.xml") { "buildFile.xml" } else { "buildFile" };
    let text =
        String::from_utf8(archive.read(name).map_err(|e| ImportError(e.to_string()))?)
            .map_err(|_| ImportError(format!("{name} is not UTF-8")))?;
    let doc = roxmltree::Document::parse(&text)
        .map_err(|e| ImportError(format!("{name}: {e}")))?;
    let root = doc.root_element();
    let mut report = Report::default();
    unread_components(root, &mut report);
    let protos = palette::prototypes(root, &mut report);
    let slots = palette::slots(root, &protos, &mut report);
    let roster = roster(root);
    let mut counters = counters::all(&slots, &roster, &mut report);
    if counters.is_empty() {
        return Err(ImportError(
            "the module's palettes hold no piece, so there is no counter to import"
                .into(),
        ));
    }
    let sides = sides(&roster, &counters);
    let mut boards = maps::boards(&info.maps, &mut report);
    let extra: Vec<maps::HexMap> = boards.hex.drain(1.min(boards.hex.len())..).collect();
    for m in &extra {
        report.add(format!("Map[{}]/BoardPicker/Board[{}]", m.map, m.name), "a second hex map", "muster writes one map per game on import; the board is carried as a chart image");
        boards.images.push((format!("{} ({})", m.name, m.map), m.image.clone()));
    }
    let scenarios =
        setups::scenarios(&mut archive, &info, &counters, &boards.hex, &mut report);
    // A piece a setup places several times is as many counters.
    for c in &mut counters {
        let uses =
            scenarios.iter().map(|s| s.uses(&c.side, &c.printed)).max().unwrap_or(0);
        c.count = c.count.max(uses);
    }
    let mut chart_list = charts(root, &mut report);
    chart_list.extend(boards.images.iter().cloned());
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut copy = |from: &str, to: String, report: &mut Report| -> bool {
        if files.iter().any(|(f, _)| *f == to) {
            return true;
        }
        match archive.read(&format!("images/{from}")) {
            Ok(b) => {
                files.push((to, b));
                true
            }
            Err(e) => {
                report.add(
                    format!("images/{from}"),
                    "image",
                    format!("cannot be read ({e}); what uses it is left without it"),
                );
                false
            }
        }
    };
    let art = |i: &str| {
        [".png", ".jpg", ".jpeg", ".svg"]
            .iter()
            .any(|e| i.to_ascii_lowercase().ends_with(e))
    };
    for c in &mut counters {
        for side in [&mut c.images.0, &mut c.images.1] {
            let Some(i) = side.clone() else { continue };
            if !art(&i) {
                report.add(format!("images/{i}"), "image", "is not a PNG, JPEG or SVG, which counter art must be; muster draws that side");
                *side = None;
            } else if !copy(&i, format!("art/{}", file_name(&i)), &mut report) {
                *side = None;
            }
        }
    }
    for m in &boards.hex {
        copy(&m.image, format!("art/{}", file_name(&m.image)), &mut report);
    }
    let shown = |f: &str, report: &mut Report| {
        let ok = [".png", ".jpg", ".jpeg", ".gif"]
            .iter()
            .any(|e| f.to_ascii_lowercase().ends_with(e));
        if !ok {
            report.add(
                format!("images/{f}"),
                "image",
                "is not a PNG, JPEG or GIF, which a muster chart must be; it is left out",
            );
        }
        ok
    };
    let chart_list: Vec<(String, String)> =
        chart_list.into_iter().filter(|(_, f)| shown(f, &mut report)).collect();
    let charts: Vec<(String, String)> = chart_list
        .into_iter()
        .filter_map(|(n, f)| {
            copy(&f, format!("charts/{}", file_name(&f)), &mut report)
                .then(|| (n, format!("charts/{}", file_name(&f))))
        })
        .collect();
    let g = write::GameText {
        id: game,
        title: if info.name.is_empty() { game } else { &info.name },
        version: root.attribute("version").unwrap_or_default(),
        file: module_file,
        sides: &sides,
        map: boards.hex.first(),
        charts: &charts,
    };
    files.push(("game.yaml".into(), write::game(&g, &counters).into_bytes()));
    files.push(("oob.yaml".into(), write::oob(&counters).into_bytes()));
    files.push(("counters.yaml".into(), write::counters(&counters).into_bytes()));
    files.push(("rules.yaml".into(), write::rules().into_bytes()));
    for m in &boards.hex {
        files.push((format!("maps/{}.yaml", m.id), write::map(m).into_bytes()));
    }
    for s in &scenarios {
        files.push((format!("scenarios/{}.yaml", s.id), write::scenario(s).into_bytes()));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Imported {
        files,
        counters: counters.len(),
        maps: boards.hex.len(),
        scenarios: scenarios.len(),
        charts: charts.len(),
        report,
    })
}
