//! Decks in a saved game: VASSAL's `Deck` piece (`+/id/deck;TYPE/STATE`), the cup or pile a
//! `DrawPile` creates when a game starts, with its contents and state.

use super::encoder::{decode, encode};
use super::piece::DecodeError;

/// The fields of a deck's type that muster reads, by position after `deck;`
/// (`Deck.getType` of VASSAL 3.7: outline, colour, width, height, face-down option,
/// shuffle option, ..., the deck name 13th).
const FACE_DOWN_OPTION: usize = 4;
const SHUFFLE_OPTION: usize = 5;
const NAME: usize = 12;

/// A deck of a saved game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deck {
    /// The deck's name (the `DrawPile` it belongs to).
    pub name: String,
    /// When its contents are face down: `Always`, `Never`, `Via right-click Menu`.
    pub face_down_option: String,
    /// When it shuffles: `Always`, `Never`, `Via right-click Menu`.
    pub shuffle_option: String,
    /// Map identifier, or none.
    pub map: Option<String>,
    /// Map x.
    pub x: i64,
    /// Map y.
    pub y: i64,
    /// Whether its contents are face down now.
    pub face_down: bool,
    /// Piece ids in deck order (index 0 first, as VASSAL lists them).
    pub pieces: Vec<String>,
    /// The type as saved, after `deck;`, kept to write the deck back unchanged.
    pub kind: String,
}

impl Deck {
    /// Decodes a deck's type (without `deck;`) and state (`map;x;y;faceDown;id,id,…`) as
    /// `Deck.mySetType` and `Deck.setState` read them: missing numbers read as 0.
    pub fn decode(id: &str, kind: &str, state: &str) -> Result<Deck, DecodeError> {
        let fields = decode(kind, ';');
        let field = |i: usize| fields.get(i).cloned().unwrap_or_default();
        let name = field(NAME);
        if name.is_empty() {
            return Err(DecodeError(format!("deck {id}: its type names no deck")));
        }
        let s = decode(state, ';');
        let number = |i: usize| -> Result<i64, DecodeError> {
            match s.get(i).map(String::as_str) {
                None | Some("") => Ok(0),
                Some(v) => v.parse().map_err(|_| {
                    DecodeError(format!("deck {id}: {v:?} is not a pixel position"))
                }),
            }
        };
        let map = s.first().filter(|m| *m != "null" && !m.is_empty()).cloned();
        let pieces = s
            .get(4)
            .map(|ids| decode(ids, ',').into_iter().filter(|p| !p.is_empty()).collect())
            .unwrap_or_default();
        Ok(Deck {
            name,
            face_down_option: field(FACE_DOWN_OPTION),
            shuffle_option: field(SHUFFLE_OPTION),
            map,
            x: number(1)?,
            y: number(2)?,
            face_down: s.get(3).map(String::as_str) == Some("true"),
            pieces,
            kind: kind.to_string(),
        })
    }

    /// The `AddPiece` command of the deck, as VASSAL writes it.
    pub fn add_command(&self, id: &str) -> String {
        let mut state = vec![
            self.map.clone().unwrap_or_else(|| "null".into()),
            self.x.to_string(),
            self.y.to_string(),
            self.face_down.to_string(),
        ];
        if !self.pieces.is_empty() {
            state.push(encode(&self.pieces, ','));
        }
        let kind = format!("deck;{}", self.kind);
        format!("+/{}", encode(&[id, &kind, &encode(&state, ';')], '/'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vassal::piece::decode_add;

    /// A deck as VASSAL 3.7.26 saved it (the impulse chits of a Gazala 1942 game).
    const SAVED: &str = "+/1796127019550/deck;true;255,255,255;160;100;Never;Always;false;false;false;;;;Impulse chits;;;;true;false;;;10;;false;;false;;$BasicName$;;false;;Shuffle;Reverse;;Draw multiple cards;Draw specific cards;Face up;Face down;;;;;Save Deck;;Deck Saved;Load Deck;;Deck Loaded;false;/Holding Boxes;920;320;false;1796127019538,1796127019539";

    #[test]
    fn reads_a_deck_vassal_wrote_and_writes_it_back() {
        let added = decode_add(SAVED).expect("decodes");
        let deck = added.deck.expect("a deck");
        assert_eq!(deck.name, "Impulse chits");
        assert_eq!(deck.map.as_deref(), Some("Holding Boxes"));
        assert_eq!((deck.x, deck.y, deck.face_down), (920, 320, false));
        assert_eq!(deck.shuffle_option, "Always");
        assert_eq!(deck.face_down_option, "Never");
        assert_eq!(deck.pieces, ["1796127019538", "1796127019539"]);
        assert_eq!(deck.add_command(&added.id), SAVED);
    }

    #[test]
    fn empty_and_broken_decks() {
        let empty = Deck::decode("7", "true;;;;Never;Never;;;;;;;Cup", "null;0;0;true")
            .expect("decodes");
        assert!(empty.pieces.is_empty() && empty.map.is_none() && empty.face_down);
        assert_eq!(
            Deck::decode("7", "true;;;;Never;Never;;;;;;;Cup", "null;0;0;true")
                .expect("decodes")
                .add_command("7"),
            "+/7/deck;true;;;;Never;Never;;;;;;;Cup/null;0;0;true"
        );
        assert!(Deck::decode("7", "true", "m;1;2;false").is_err(), "no name");
        assert!(Deck::decode("7", "true;;;;;;;;;;;;Cup", "m;x;2;false").is_err());
    }
}
