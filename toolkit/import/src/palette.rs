//! The pieces of a module's palettes (`PieceSlot`s in `PieceWindow`s and their folders),
//! with every `UsePrototype` resolved, and what each trait of them is.

use std::collections::BTreeMap;

use muster_vassal::vassal::encoder::decode;
use muster_vassal::vassal::piece::{Piece, Trait, decode_add};
use roxmltree::Node;

use crate::carried::Report;
use muster_vassal::component::{is, label, path};

/// How deep prototypes may nest inside each other (VASSAL has no limit; a cycle would be
/// endless).
const PROTOTYPE_DEPTH: u8 = 16;

/// A trait of a palette piece and where the module defines it.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The trait.
    pub item: Trait,
    /// The component that holds it: the slot itself or a prototype definition.
    pub origin: String,
}

/// A palette piece: its folders, its slot's name, its gpid and its traits with every
/// prototype resolved (outermost first, the BasicPiece last).
#[derive(Debug, Clone)]
pub struct Slot {
    /// The names of the folders it is in, outermost first (the window's own name first).
    pub folders: Vec<String>,
    /// The slot's name in the palette.
    pub entry: String,
    /// The slot's gpid (pieces in a save carry it).
    pub gpid: String,
    /// Its path in the module.
    pub path: String,
    /// Its traits, prototypes resolved.
    pub traits: Vec<Placed>,
}

impl Slot {
    /// The piece, prototypes resolved.
    pub fn piece(&self) -> Piece {
        Piece { traits: self.traits.iter().map(|p| p.item.clone()).collect() }
    }
}

/// The prototype definitions by name, each with its path in the module; one that cannot
/// be read is reported.
pub fn prototypes(root: Node, report: &mut Report) -> BTreeMap<String, (Piece, String)> {
    let palette = muster_vassal::palette::Palette::read(root);
    for (at, why) in palette.unread {
        if at.rsplit('/').next().is_some_and(|c| c.starts_with("PrototypeDefinition")) {
            report.add(at, "prototype", format!("cannot be read ({why})"));
        }
    }
    palette.prototypes
}

/// The traits of `piece` with each prototype reference replaced by the prototype's own
/// traits (recursively), each with the component that defines it.
fn resolve(
    piece: &Piece,
    origin: &str,
    prototypes: &BTreeMap<String, (Piece, String)>,
    depth: u8,
    report: &mut Report,
) -> Vec<Placed> {
    let mut out = Vec::new();
    for t in &piece.traits {
        if t.id() != "prototype" {
            out.push(Placed { item: t.clone(), origin: origin.to_string() });
            continue;
        }
        let name = t.fields().into_iter().next().unwrap_or_default();
        match prototypes.get(&name) {
            Some((p, at)) if depth > 0 => {
                let inner = resolve(p, at, prototypes, depth - 1, report);
                out.extend(inner.into_iter().filter(|p| p.item.id() != "piece"));
            }
            Some(_) => report.add(
                origin,
                format!("prototype {name}"),
                "prototypes nest deeper than 16 levels (a cycle?); the rest is left out",
            ),
            None => report.add(
                origin,
                format!("prototype {name}"),
                "names no prototype definition of the module",
            ),
        }
    }
    out
}

/// The folders a slot is in: the names of the palette widgets around it, outermost first.
fn folders(slot: Node) -> Vec<String> {
    let mut out: Vec<String> = slot
        .ancestors()
        .skip(1)
        .filter(|n| {
            [
                "PieceWindow",
                "TabWidget",
                "ListWidget",
                "PanelWidget",
                "BoxWidget",
                "ScrollWidget",
            ]
            .iter()
            .any(|w| is(*n, w))
        })
        .filter_map(|n| label(n).map(str::to_string))
        .collect();
    out.reverse();
    out.dedup();
    out
}

/// Every palette slot of the module (a `PieceSlot` in a `PieceWindow`), in buildFile
/// order; a module without palettes gives the pieces of its at-start stacks and decks.
pub fn slots(
    root: Node,
    prototypes: &BTreeMap<String, (Piece, String)>,
    report: &mut Report,
) -> Vec<Slot> {
    let mut out = Vec::new();
    let palette = |n: &Node| n.ancestors().any(|a| is(a, "PieceWindow"));
    let any_palette = root.descendants().any(|n| is(n, "PieceSlot") && palette(&n));
    let wanted = |n: &Node| is(*n, "PieceSlot") && (palette(n) || !any_palette);
    for slot in root.descendants().filter(wanted) {
        let at = path(slot);
        let piece = match decode_add(slot.text().unwrap_or_default()) {
            Ok(added) => match added.piece {
                Some(p) => p,
                None => continue,
            },
            Err(e) => {
                report.add(at, "piece", format!("cannot be read ({e})"));
                continue;
            }
        };
        let traits = resolve(&piece, &at, prototypes, PROTOTYPE_DEPTH, report);
        out.push(Slot {
            folders: folders(slot),
            entry: slot.attribute("entryName").unwrap_or_default().to_string(),
            gpid: slot.attribute("gpid").unwrap_or_default().to_string(),
            path: at,
            traits,
        });
    }
    out
}

/// The images of a Layer (`emb2`) trait, in level order, the empty ones left out.
pub fn layer_images(t: &Trait) -> Vec<String> {
    t.fields()
        .get(15)
        .map(|f| decode(f, ',').into_iter().filter(|i| !i.is_empty()).collect())
        .unwrap_or_default()
}

/// The image of a BasicPiece trait, if it has one.
pub fn basic_image(t: &Trait) -> Option<String> {
    t.fields().get(2).filter(|i| !i.is_empty()).cloned()
}
