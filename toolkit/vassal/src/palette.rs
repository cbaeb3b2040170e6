//! A module's palette as VASSAL builds pieces from it: every piece slot (`PieceSlot`,
//! `CardSlot`) by its gpid, and every prototype definition by name, at any folder depth.

use std::collections::BTreeMap;

use crate::archive::Archive;
use crate::module_read::{ReadError, build_file_text};
use crate::vassal::piece::{Piece, decode_add};

/// How deep prototypes may name prototypes, as muster expands them.
pub const PROTOTYPE_DEPTH: u8 = 16;

/// A palette slot: the piece it makes and where it is in the buildFile.
#[derive(Debug, Clone)]
pub struct Slot {
    /// The slot's gpid.
    pub gpid: String,
    /// The piece as the slot defines it, prototypes not expanded.
    pub piece: Piece,
    /// The slot's path in the buildFile (`PieceWindow[Counters]/PieceSlot[21 Pz]`).
    pub path: String,
}

/// What a module's buildFile holds to make pieces.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    /// Slots by gpid (the first of a gpid, as VASSAL's refresher keeps it).
    pub slots: BTreeMap<String, Slot>,
    /// Prototype definitions by name (the first of a name, as VASSAL keeps it), each with
    /// its path in the buildFile.
    pub prototypes: BTreeMap<String, (Piece, String)>,
    /// Slots and prototypes whose piece does not decode: path and why.
    pub unread: Vec<(String, String)>,
}

impl Palette {
    /// Reads the palette of a module's buildFile.
    pub fn of_module(archive: &mut Archive) -> Result<Palette, ReadError> {
        let text = build_file_text(archive)?;
        let doc = roxmltree::Document::parse(&text)
            .map_err(|e| ReadError(format!("buildFile.xml: {e}")))?;
        Ok(Palette::read(doc.root_element()))
    }

    /// Reads the palette of a buildFile's root element.
    pub fn read(root: roxmltree::Node) -> Palette {
        let mut palette = Palette::default();
        for node in root.descendants().filter(roxmltree::Node::is_element) {
            let tag = node.tag_name().name();
            let slot = tag.ends_with(".PieceSlot") || tag.ends_with(".CardSlot");
            let prototype = tag.ends_with(".PrototypeDefinition");
            if !slot && !prototype {
                continue;
            }
            let path = crate::component::path(node);
            let text = node.text().unwrap_or_default().trim();
            let piece = match decode_add(text) {
                Ok(added) => match added.piece {
                    Some(p) => p,
                    None => {
                        palette.unread.push((path, "it holds no piece".into()));
                        continue;
                    }
                },
                Err(e) => {
                    palette.unread.push((path, e.to_string()));
                    continue;
                }
            };
            if prototype {
                let name = node.attribute("name").unwrap_or_default().to_string();
                palette.prototypes.entry(name).or_insert((piece, path));
            } else {
                let gpid = node.attribute("gpid").unwrap_or_default().to_string();
                palette.slots.entry(gpid.clone()).or_insert(Slot { gpid, piece, path });
            }
        }
        palette
    }

    /// The piece a slot puts into a game: its prototypes expanded and its gpid set, as
    /// VASSAL's `PieceCloner` and refresher make it.
    pub fn game_piece(&self, slot: &Slot) -> Piece {
        let find = |name: &str| self.prototypes.get(name).map(|(p, _)| p.clone());
        slot.piece.expand(&find, PROTOTYPE_DEPTH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_and_prototypes_are_found_at_any_depth() {
        use crate::vassal::piece::{Position, Trait};
        let at = |gpid: &str| Position { gpid: gpid.into(), ..Position::default() };
        let unit = Piece {
            traits: vec![Trait::marker("Side", "German"), Trait::basic("", "", &at(""))],
        };
        let slot = Piece {
            traits: vec![
                Trait::prototype("Unit"),
                Trait::basic("a.png", "21 Pz", &at("7")),
            ],
        };
        let esc =
            |p: &Piece| p.add_command("null").replace('&', "&amp;").replace('<', "&lt;");
        let xml = format!(
            r#"<VASSAL.launch.BasicModule name="M">
  <VASSAL.build.module.PrototypesContainer>
    <VASSAL.build.module.folder.PrototypeFolder name="F">
      <VASSAL.build.module.PrototypeDefinition name="Unit">{}</VASSAL.build.module.PrototypeDefinition>
    </VASSAL.build.module.folder.PrototypeFolder>
  </VASSAL.build.module.PrototypesContainer>
  <VASSAL.build.module.PieceWindow name="Counters">
    <VASSAL.build.widget.ListWidget name="German">
      <VASSAL.build.widget.PieceSlot gpid="7" name="21 Pz">{}</VASSAL.build.widget.PieceSlot>
      <VASSAL.build.widget.PieceSlot gpid="8" name="bad">+/null</VASSAL.build.widget.PieceSlot>
    </VASSAL.build.widget.ListWidget>
  </VASSAL.build.module.PieceWindow>
</VASSAL.launch.BasicModule>"#,
            esc(&unit),
            esc(&slot)
        );
        let doc = roxmltree::Document::parse(&xml).expect("parses");
        let palette = Palette::read(doc.root_element());
        assert_eq!(palette.prototypes.len(), 1, "{:?}", palette.unread);
        let slot = &palette.slots["7"];
        assert_eq!(
            slot.path,
            "PieceWindow[Counters]/ListWidget[German]/PieceSlot[21 Pz]"
        );
        let piece = palette.game_piece(slot);
        let ids: Vec<&str> = piece.traits.iter().map(|t| t.id()).collect();
        assert_eq!(ids, ["mark", "piece"]);
        assert_eq!(piece.marker("Side").as_deref(), Some("German"));
        assert_eq!(piece.name().as_deref(), Some("21 Pz"));
        assert_eq!(palette.unread.len(), 1, "{:?}", palette.unread);
        assert!(palette.unread[0].0.ends_with("PieceSlot[bad]"));
    }
}
