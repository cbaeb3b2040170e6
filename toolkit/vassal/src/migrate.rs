//! A saved game carried to another release of its module, as VASSAL's File > Refresh
//! Counters carries it (`GameRefresher` with "refresh pieces" and the layer and label name
//! options, `GpIdChecker.createUpdatedPiece`): each piece is made anew from the palette
//! slot of its gpid, and keeps the state of every trait the new piece still has.

use crate::palette::Palette;
use crate::vassal::encoder::decode;
use crate::vassal::piece::{Piece, Trait};
use crate::vassal::save::SavedGame;

/// Something a migration could not carry as it was.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "what", rename_all = "kebab-case")]
pub enum Left {
    /// No slot of the new module has the piece's gpid: the piece stays as it was saved.
    NotInModule {
        /// Piece id in the save.
        piece: String,
        /// Its name.
        name: String,
        /// Its gpid.
        gpid: String,
    },
    /// A trait of the piece is defined otherwise in the new module and names nothing to
    /// match it by: it starts as the module defines it (a layer at its first level, a
    /// label's text as defined).
    Reset {
        /// Piece id in the save.
        piece: String,
        /// Its name.
        name: String,
        /// The trait id (`emb2`, `label`, …).
        trait_id: String,
    },
    /// An entry of the save that was not read: it is not in the new save.
    Unread {
        /// Its place in the command stream.
        entry: usize,
        /// Its id.
        id: String,
    },
}

/// A saved game carried to a new module.
#[derive(Debug, Clone, Default)]
pub struct Migrated {
    /// The `AddPiece` commands of the new save, in the old save's order.
    pub adds: Vec<String>,
    /// Pieces made anew from the module.
    pub refreshed: usize,
    /// What could not be carried as it was.
    pub left: Vec<Left>,
}

/// Carries every piece of `game` to the module whose palette is `palette`; stacks, decks
/// and every other component's state stay as saved.
pub fn migrate(game: &SavedGame, palette: &Palette) -> Migrated {
    let mut out = Migrated::default();
    for added in &game.added {
        let add = match (&added.piece, &added.stack, &added.deck) {
            (Some(old), _, _) => {
                let gpid = old.position().map(|p| p.gpid).unwrap_or_default();
                let name = old.name().unwrap_or_default();
                match palette.slots.get(&gpid) {
                    Some(slot) => {
                        let fresh = palette.game_piece(slot);
                        let (piece, reset) = carry_state(old, &fresh);
                        out.refreshed += 1;
                        out.left.extend(reset.into_iter().map(|trait_id| Left::Reset {
                            piece: added.id.clone(),
                            name: name.clone(),
                            trait_id,
                        }));
                        piece.add_command(&added.id)
                    }
                    None => {
                        out.left.push(Left::NotInModule {
                            piece: added.id.clone(),
                            name,
                            gpid,
                        });
                        old.add_command(&added.id)
                    }
                }
            }
            (_, Some(stack), _) => stack.add_command(&added.id),
            (_, _, Some(deck)) => deck.add_command(&added.id),
            _ => continue,
        };
        out.adds.push(add);
    }
    out.left.extend(
        game.unread.iter().map(|u| Left::Unread { entry: u.entry, id: u.id.clone() }),
    );
    out
}

/// The new piece with the old one's state: the BasicPiece's whole (map, place, gpid,
/// properties), and each trait's from the old trait of the same kind and definition, or of
/// the same layer or label name; a property marker keeps the module's value, and a label
/// players cannot change keeps the module's text. Returns the ids of the traits the old
/// piece had in another definition that nothing matched.
fn carry_state(old: &Piece, fresh: &Piece) -> (Piece, Vec<String>) {
    let mut piece = fresh.clone();
    let mut reset = Vec::new();
    let last = piece.traits.len().saturating_sub(1);
    for (k, t) in piece.traits.iter_mut().enumerate() {
        if k == last {
            if let Some(basic) = old.traits.last() {
                t.state = basic.state.clone();
            }
            continue;
        }
        let kind = class(t.id());
        let same_class = || old.traits.iter().filter(move |o| class(o.id()) == kind);
        let found = same_class().find(|o| o.kind == t.kind).or_else(|| {
            same_class().find(|o| named(o).is_some() && named(o) == named(t))
        });
        match found {
            Some(o) => {
                let keep_module =
                    t.id() == "mark" || (t.id() == "label" && !changeable(t));
                if !keep_module {
                    t.state = o.state.clone();
                }
            }
            // Said only where a state is lost: another than the one it starts with.
            None if t.id() != "mark" && same_class().any(|o| o.state != t.state) => {
                reset.push(t.id().to_string());
            }
            None => {}
        }
    }
    (piece, reset)
}

/// A trait's definition with the codes of named key commands left out: VASSAL gives each
/// name a code of its own in each session (`NamedKeyManager`, from U+E000), writes it in
/// what it saves, and compares definitions after giving both the same code.
pub fn neutral_keys(kind: &str) -> String {
    let mut out = String::with_capacity(kind.len());
    let mut digits = String::new();
    let mut chars = kind.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            digits.push(c);
            if chars.peek().is_some_and(char::is_ascii_digit) {
                continue;
            }
            let named =
                digits.parse::<u32>().is_ok_and(|n| (0xE000..=0xF8FF).contains(&n))
                    && matches!(chars.peek(), Some('\\' | ','));
            out.push_str(if named { "K" } else { &digits });
            digits.clear();
        } else {
            out.push(c);
        }
    }
    out
}

/// The trait class an id decodes to (VASSAL reads the old ids into the new classes).
fn class(id: &str) -> &str {
    match id {
        "emb" => "emb2",
        "nonRect" => "nonRect2",
        other => other,
    }
}

/// The name the refresher matches a trait by when its definition changed: a layer's name,
/// a label's description; none for other traits or an empty name.
fn named(t: &Trait) -> Option<String> {
    let index = match class(t.id()) {
        "emb2" => 18,
        "label" => 16,
        _ => return None,
    };
    t.fields().get(index).filter(|n| !n.is_empty()).cloned()
}

/// Whether players can change a Text Label (it has a key to do so), so that its text is
/// theirs: `Labeler.canChange`.
fn changeable(t: &Trait) -> bool {
    let key = t.fields().into_iter().next().unwrap_or_default();
    let parts = decode(&key, ',');
    let code = parts.first().map(String::as_str).unwrap_or_default();
    let name = parts.get(2).map(String::as_str).unwrap_or_default();
    !key.is_empty() && (!matches!(code, "" | "0") || !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vassal::piece::Position;

    fn layer(name: &str, images: &str, level: &str) -> Trait {
        Trait {
            kind: format!(
                "emb2;;2;;Flip;2;F;;2;;;;1;false;0;0;{images};,;true;{name};;;false;;1;1;true;;"
            ),
            state: level.into(),
        }
    }

    fn piece(traits: Vec<Trait>, image: &str, x: i64) -> Piece {
        let mut traits = traits;
        let at = Position { map: Some("Main".into()), x, y: 5, gpid: "7".into() };
        traits.push(Trait::basic(image, "21 Pz", &at));
        Piece { traits }
    }

    #[test]
    fn state_is_carried_by_definition_or_layer_name_and_markers_take_the_module_value() {
        let old = piece(
            vec![Trait::marker("Attack", "6"), layer("Step", "a.png,b.png", "2")],
            "a.png",
            300,
        );
        let fresh = piece(
            vec![Trait::marker("Attack", "7"), layer("Step", "a2.png,b2.png", "1")],
            "a2.png",
            0,
        );
        let (new, reset) = carry_state(&old, &fresh);
        assert!(reset.is_empty(), "{reset:?}");
        assert_eq!(new.marker("Attack").as_deref(), Some("7"), "the module's value");
        assert_eq!(new.traits[1].state, "2", "still reduced");
        assert_eq!(new.traits[1].kind, fresh.traits[1].kind, "the new definition");
        assert_eq!(new.position().map(|p| p.x), Some(300), "where it was");
        assert_eq!(new.traits[2].kind, fresh.traits[2].kind, "the new image");
    }

    #[test]
    fn named_key_codes_of_another_session_are_the_same_definition() {
        assert_eq!(
            neutral_keys("macro;a;57346\\,0\\,Moved;5"),
            "macro;a;K\\,0\\,Moved;5"
        );
        assert_eq!(neutral_keys("report;70,130;57350,0,X"), "report;70,130;K,0,X");
        assert_eq!(neutral_keys("mark;57346"), "mark;57346");
    }

    #[test]
    fn a_layer_renamed_and_redefined_is_reset_and_said() {
        let old = piece(vec![layer("Step", "a.png,b.png", "2")], "a.png", 1);
        let fresh = piece(vec![layer("Side", "c.png,d.png", "1")], "c.png", 1);
        let (new, reset) = carry_state(&old, &fresh);
        assert_eq!(new.traits[0].state, "1");
        assert_eq!(reset, ["emb2"]);
    }

    #[test]
    fn labels_players_change_keep_their_text() {
        let label = |key: &str, text: &str| Trait {
            kind: format!(
                "label;{key};Change;10;;0,0,0;t;0;c;0;b;c;$pieceName$;Dialog;0;0;Strength;"
            ),
            state: text.into(),
        };
        let old = piece(vec![label("76,130", "17")], "a.png", 1);
        let fresh = piece(vec![label("76,130", "")], "a.png", 1);
        assert_eq!(carry_state(&old, &fresh).0.traits[0].state, "17");
        let old = piece(vec![label("", "old text")], "a.png", 1);
        let fresh = piece(vec![label("", "new text")], "a.png", 1);
        assert_eq!(carry_state(&old, &fresh).0.traits[0].state, "new text");
    }
}
