//! Saved games: the `savedGame` command stream, its `!VCSK` obfuscation, and reading every
//! header VASSAL has used (`!VCSK`, `VOBS`, `!VOBS`, plain text).

use super::encoder::{ESC, decode, encode};
use super::piece::{Added, DecodeError, decode_add};

/// The key muster obfuscates with. Any byte works; a fixed one keeps builds reproducible.
pub const KEY: u8 = 0x5a;

/// Obfuscates a command stream as VASSAL 3.x writes `savedGame`: `!VCSK`, the key as two
/// hex digits, then every byte XOR the key as two lowercase hex digits.
pub fn obfuscate(text: &str, key: u8) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = Vec::with_capacity(7 + text.len() * 2);
    out.extend_from_slice(b"!VCSK");
    for b in std::iter::once(key).chain(text.bytes().map(|b| b ^ key)) {
        out.push(HEX[usize::from(b >> 4)]);
        out.push(HEX[usize::from(b & 15)]);
    }
    out
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
/// it) and the restore commands of components such as the board pickers.
pub fn command_stream(adds: &[String], restores: &[String]) -> String {
    let mut pieces = vec![String::new()];
    pieces.extend(adds.iter().cloned());
    let mut top = vec!["begin_save".to_string(), String::new(), encode(&pieces, ESC)];
    top.extend(restores.iter().cloned());
    top.push("end_save".into());
    encode(&top, ESC)
}

/// Everything a saved game's command stream holds that muster reads.
#[derive(Debug, Default)]
pub struct SavedGame {
    /// Added pieces and stacks, in order.
    pub added: Vec<Added>,
    /// Other commands, such as `Main MapBoardPicker\tA\t0\t0`.
    pub other: Vec<String>,
    /// Commands that could not be decoded, with the reason.
    pub errors: Vec<DecodeError>,
}

/// The most commands muster reads from one saved game.
pub const MAX_COMMANDS: usize = 1_000_000;

/// Splits a command stream into its commands, decoding nested compound commands in
/// document order.
pub fn parse_stream(text: &str) -> Result<SavedGame, SaveError> {
    let mut game = SavedGame::default();
    let mut seen = 0usize;
    walk(&mut game, text, 0, &mut seen)?;
    Ok(game)
}

fn walk(
    game: &mut SavedGame,
    text: &str,
    depth: u8,
    seen: &mut usize,
) -> Result<(), SaveError> {
    for part in decode(text, ESC) {
        *seen += 1;
        if *seen > MAX_COMMANDS {
            return Err(SaveError(format!(
                "the saved game has more than {MAX_COMMANDS} commands"
            )));
        }
        if part.contains(ESC) {
            if depth >= 8 {
                return Err(SaveError(
                    "the saved game nests commands more than 8 deep".into(),
                ));
            }
            walk(game, &part, depth + 1, seen)?;
        } else {
            classify(game, part);
        }
    }
    Ok(())
}

fn classify(game: &mut SavedGame, part: String) {
    if part.starts_with("+/") {
        match decode_add(&part) {
            Ok(a) => game.added.push(a),
            Err(e) => game.errors.push(e),
        }
    } else if !part.is_empty() {
        game.other.push(part);
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
        assert!(g.other.contains(&"mBoardPicker\tA\t0\t0".to_string()));
        assert!(g.errors.is_empty());
    }
}
