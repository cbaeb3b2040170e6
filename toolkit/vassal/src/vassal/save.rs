//! Saved games: the `savedGame` command stream, its `!VCSK` obfuscation, and reading every
//! header VASSAL has used (`!VCSK`, `VOBS`, `!VOBS`, plain text).

use std::collections::BTreeMap;

use super::encoder::{ESC, decode, encode, push_escaped, push_token};
use super::piece::{Added, decode_add};
use super::restore::{Restore, decode_restore};

/// The key muster obfuscates with. Any byte works; a fixed one keeps builds reproducible.
pub const KEY: u8 = 0x5a;

/// Obfuscates a command stream as VASSAL 3.x writes `savedGame`: `!VCSK`, the key as two
/// hex digits, then every byte XOR the key as two lowercase hex digits.
pub fn obfuscate(text: &str, key: u8) -> Vec<u8> {
    let mut out = obfuscation_header(key);
    obfuscate_into(&mut out, text.as_bytes(), key);
    out
}

/// What an obfuscated `savedGame` starts with, before its bytes ([`obfuscate_into`]):
/// `!VCSK` and the key as two hex digits.
pub fn obfuscation_header(key: u8) -> Vec<u8> {
    let mut out = b"!VCSK".to_vec();
    obfuscate_into(&mut out, &[key], 0);
    out
}

/// Appends `bytes` as [`obfuscate`] writes a command stream's bytes after its header: each
/// byte XOR `key`, as two lowercase hex digits. A stream obfuscated in parts is the same as
/// obfuscated whole.
pub fn obfuscate_into(out: &mut Vec<u8>, bytes: &[u8], key: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for b in bytes.iter().map(|b| b ^ key) {
        out.push(HEX[usize::from(b >> 4)]);
        out.push(HEX[usize::from(b & 15)]);
    }
}

/// Why a saved game could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveError(pub String);

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SaveError {}

/// Reads the `savedGame` entry in any of VASSAL's forms and returns the command text.
pub fn deobfuscate(raw: &[u8]) -> Result<String, SaveError> {
    let bytes = if let Some(hex) = raw.strip_prefix(b"!VCSK") {
        if hex.len() % 2 != 0 {
            return Err(SaveError(
                "the !VCSK saved game has an odd number of hex digits".into(),
            ));
        }
        let digit = |c: u8| -> Result<u8, SaveError> {
            (c as char).to_digit(16).map(|d| d as u8).ok_or_else(|| {
                SaveError(format!(
                    "{:?} is not a hex digit in a !VCSK saved game",
                    c as char
                ))
            })
        };
        let mut pairs = hex
            .chunks(2)
            .map(|p| Ok::<u8, SaveError>((digit(p[0])? << 4) | digit(p[1])?));
        let key = pairs
            .next()
            .ok_or_else(|| SaveError("the !VCSK saved game has no key".into()))??;
        pairs.map(|b| b.map(|b| b ^ key)).collect::<Result<Vec<u8>, _>>()?
    } else if let Some(rest) =
        raw.strip_prefix(b"!VOBS").or_else(|| raw.strip_prefix(b"VOBS"))
    {
        let (&key, body) = rest
            .split_first()
            .ok_or_else(|| SaveError("the VOBS saved game has no key".into()))?;
        body.iter().map(|b| b ^ key).collect()
    } else {
        raw.to_vec()
    };
    String::from_utf8(bytes)
        .map_err(|_| SaveError("the saved game is not UTF-8 text".into()))
}

/// The command stream of a saved game: the pieces (every piece before the stack that lists
/// it) and the restore commands of components such as the board pickers. It is
/// [`STREAM_HEAD`], then each add command as [`push_add`] writes it, then
/// [`stream_tail`]: a caller can write the adds in parts and keep them.
pub fn command_stream(adds: &[String], restores: &[String]) -> String {
    let mut text = STREAM_HEAD.to_string();
    for add in adds {
        push_add(&mut text, add);
    }
    text.push_str(&stream_tail(restores));
    text
}

/// How every command stream starts: `begin_save`, then the (empty) first command of the
/// nested list of adds.
pub const STREAM_HEAD: &str = "begin_save\u{1b}\u{1b}";

/// Appends one add command as it stands in a [`command_stream`]: in the nested list of adds,
/// escaped once for that list and once more for the stream around it.
pub fn push_add(out: &mut String, add: &str) {
    let mut nested = String::with_capacity(add.len() + 8);
    push_token(&mut nested, add, ESC);
    out.push('\\');
    out.push(ESC);
    // The nested list as a whole is never quoted: it starts with its empty first command.
    push_escaped(out, &nested, ESC);
}

/// How a command stream ends, after its adds: its `restores`, then `end_save`.
pub fn stream_tail(restores: &[String]) -> String {
    let mut top = vec![String::new()];
    top.extend(restores.iter().cloned());
    top.push("end_save".into());
    encode(&top, ESC)
}

/// A restore command of a saved game: its text and what it says.
#[derive(Debug, Clone)]
pub struct RestoreEntry {
    /// Its place in the command stream, counting from 1.
    pub entry: usize,
    /// The command as saved.
    pub text: String,
    /// The command, decoded.
    pub command: Restore,
}

/// An entry of a saved game that muster could not fully read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unread {
    /// Its place in the command stream, counting from 1.
    pub entry: usize,
    /// The piece, stack or deck id, or the command's first word.
    pub id: String,
    /// What was not understood.
    pub what: String,
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "entry {} ({}): {}", self.entry, self.id, self.what)
    }
}

/// Everything a saved game's command stream holds.
#[derive(Debug, Default)]
pub struct SavedGame {
    /// Added pieces, stacks and decks, in order.
    pub added: Vec<Added>,
    /// Every other command, in order.
    pub restores: Vec<RestoreEntry>,
    /// Entries that could not be read, or only in part.
    pub unread: Vec<Unread>,
    /// The entry number of each of `added`.
    added_at: Vec<usize>,
}

/// The most commands muster reads from one saved game.
pub const MAX_COMMANDS: usize = 1_000_000;

/// Splits a command stream into its commands, decoding nested compound commands in
/// document order, and decodes each: pieces, stacks and decks, and the restore command of
/// every VASSAL 3.7 game component. What it cannot read is listed in
/// [`SavedGame::unread`].
pub fn parse_stream(text: &str) -> Result<SavedGame, SaveError> {
    let mut game = SavedGame::default();
    let mut seen = 0usize;
    walk(&mut game, text, 0, &mut seen)?;
    game.check_holders();
    Ok(game)
}

fn walk(
    game: &mut SavedGame,
    text: &str,
    depth: u8,
    seen: &mut usize,
) -> Result<(), SaveError> {
    for part in decode(text, ESC) {
        if part.contains(ESC) {
            if depth >= 8 {
                return Err(SaveError(
                    "the saved game nests commands more than 8 deep".into(),
                ));
            }
            walk(game, &part, depth + 1, seen)?;
            continue;
        }
        *seen += 1;
        if *seen > MAX_COMMANDS {
            return Err(SaveError(format!(
                "the saved game has more than {MAX_COMMANDS} commands"
            )));
        }
        game.classify(part, *seen);
    }
    Ok(())
}

/// The first word of a command, to name it in a finding.
fn head(command: &str) -> String {
    let word: String =
        command.chars().take_while(|c| !matches!(c, '\t' | ';' | '/')).take(40).collect();
    if word.is_empty() { command.chars().take(40).collect() } else { word }
}

impl SavedGame {
    /// The restore commands of the game's components as saved, for [`command_stream`]:
    /// without `begin_save`, `end_save` and the empty commands, which it writes itself.
    pub fn component_restores(&self) -> Vec<String> {
        self.restores
            .iter()
            .filter(|r| {
                !matches!(r.command, Restore::Begin | Restore::End | Restore::Empty)
            })
            .map(|r| r.text.clone())
            .collect()
    }

    /// The place in the command stream (from 1) of `added[k]`.
    pub fn added_entry(&self, k: usize) -> usize {
        self.added_at.get(k).copied().unwrap_or_default()
    }

    fn note_unread(&mut self, entry: usize, id: &str, what: impl Into<String>) {
        self.unread.push(Unread { entry, id: id.to_string(), what: what.into() });
    }

    fn classify(&mut self, part: String, entry: usize) {
        if let Some(body) = part.strip_prefix("+/") {
            let id = body.split('/').next().unwrap_or_default().to_string();
            match decode_add(&part) {
                Ok(a) => {
                    if let Some(p) = &a.piece {
                        let unknown = p.unknown_traits();
                        if !unknown.is_empty() {
                            let what = format!(
                                "trait {} is not one VASSAL 3.7 defines (a module's own class); muster read the piece without it",
                                unknown
                                    .iter()
                                    .map(|t| format!("`{t};`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            );
                            self.note_unread(entry, &a.id, what);
                        }
                    }
                    self.added.push(a);
                    self.added_at.push(entry);
                }
                Err(e) => self.note_unread(entry, &id, e.0),
            }
            return;
        }
        match decode_restore(&part) {
            Ok(command) => {
                self.restores.push(RestoreEntry { entry, text: part, command })
            }
            Err(what) => {
                let id = head(&part);
                self.note_unread(entry, &id, what);
            }
        }
    }

    /// Every id a stack or deck lists must be a piece added before it (VASSAL resolves them
    /// when it reads the stack and leaves out the others), and in one holder only.
    fn check_holders(&mut self) {
        let mut added: BTreeMap<&str, usize> = BTreeMap::new();
        let mut held: BTreeMap<String, String> = BTreeMap::new();
        let mut problems = Vec::new();
        for (a, &entry) in self.added.iter().zip(&self.added_at) {
            let members = match (&a.stack, &a.deck) {
                (Some(s), _) => &s.pieces,
                (_, Some(d)) => &d.pieces,
                _ => {
                    added.insert(a.id.as_str(), entry);
                    continue;
                }
            };
            let what = if a.deck.is_some() { "deck" } else { "stack" };
            for m in members {
                if !added.contains_key(m.as_str()) {
                    problems.push((entry, a.id.clone(), format!(
                        "{what} {} lists piece {m}, which no entry before it adds; VASSAL leaves it out",
                        a.id
                    )));
                } else if let Some(first) = held.insert(m.clone(), a.id.clone()) {
                    problems.push((entry, a.id.clone(), format!(
                        "piece {m} is in {first} and again in {what} {}; VASSAL keeps it in the last",
                        a.id
                    )));
                }
            }
        }
        for (entry, id, what) in problems {
            self.note_unread(entry, &id, what);
        }
        self.unread.sort_by_key(|u| u.entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obfuscation_round_trips_and_matches_the_format() {
        let text = "begin_save\u{1b}\u{1b}end_save";
        let o = obfuscate(text, 0xf3);
        assert!(o.starts_with(b"!VCSKf3"));
        assert_eq!(&o[7..9], format!("{:02x}", b'b' ^ 0xf3).as_bytes());
        assert_eq!(deobfuscate(&o).expect("reads"), text);
    }

    #[test]
    fn reads_every_header() {
        let text = "begin_save\u{1b}end_save";
        let xor: Vec<u8> = text.bytes().map(|b| b ^ 7).collect();
        for head in [&b"VOBS"[..], b"!VOBS"] {
            let mut raw = head.to_vec();
            raw.push(7);
            raw.extend(&xor);
            assert_eq!(deobfuscate(&raw).expect("reads"), text);
        }
        assert_eq!(deobfuscate(text.as_bytes()).expect("plain"), text);
        assert!(deobfuscate(b"!VCSK5").is_err());
        assert!(deobfuscate(b"!VCSKzz").is_err());
    }

    #[test]
    fn stream_keeps_pieces_before_stacks_and_restores() {
        let adds = vec![
            "+/1/piece;;;a.png;A/m;1;2;3;0".to_string(),
            "+/2/stack/m;1;2;1;@@1".to_string(),
        ];
        let s = command_stream(&adds, &["mBoardPicker\tA\t0\t0".into()]);
        assert!(s.starts_with("begin_save\u{1b}\u{1b}\\\u{1b}+/1/"));
        let g = parse_stream(&s).expect("parses");
        assert_eq!(g.added.len(), 2);
        assert!(g.added[0].piece.is_some());
        assert!(g.added[1].stack.is_some());
        assert!(g.restores.iter().any(|r| r.text == "mBoardPicker\tA\t0\t0"));
        assert!(g.unread.is_empty());
        assert_eq!(g.component_restores(), ["mBoardPicker\tA\t0\t0"]);
        let again = command_stream(&adds, &g.component_restores());
        assert_eq!(again, s, "written back the same");
    }

    proptest::proptest! {
        /// The stream written head, adds and tail is the stream VASSAL's nesting gives: the
        /// adds encoded as one list, that list a token of the stream. Obfuscated in parts,
        /// it is the same as obfuscated whole.
        #[test]
        fn a_stream_written_in_parts_is_the_nested_encoding(
            adds in proptest::collection::vec("[+/a-z;,\\t'\\\\ \u{1b}]{0,12}", 0..6),
            restores in proptest::collection::vec("[a-z;\\t'\\\\ \u{1b}]{0,8}", 0..3),
            split in 0usize..6,
        ) {
            let mut pieces = vec![String::new()];
            pieces.extend(adds.iter().cloned());
            let mut top = vec!["begin_save".to_string(), String::new(), encode(&pieces, ESC)];
            top.extend(restores.iter().cloned());
            top.push("end_save".into());
            let nested = encode(&top, ESC);
            let text = command_stream(&adds, &restores);
            proptest::prop_assert_eq!(&text, &nested);
            let at = split.min(text.len());
            let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            let mut parts = obfuscation_header(KEY);
            obfuscate_into(&mut parts, &text.as_bytes()[..at], KEY);
            obfuscate_into(&mut parts, &text.as_bytes()[at..], KEY);
            proptest::prop_assert_eq!(parts, obfuscate(&text, KEY));
        }
    }
}
