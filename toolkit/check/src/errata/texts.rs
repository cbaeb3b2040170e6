//! Hex labels in the text the data keeps as printed: scenarios' special rules, victory
//! conditions and notes, and the game's notes. A number printed after `hex` or `hexes`
//! (`controls hexes 2303, 1802 and 1404`) must be a label of the board that lies on the
//! map, and so must any other word in the board's label form with its map letter
//! (`A29.06`); a bare number elsewhere may be a rule section (`12.0`) or a year.

use std::ops::Range;

use muster_hex::{Board, LabelError};
use muster_model::{Certainty, FindingKind, Spanned};

use super::maps::looks_like_label;
use super::{Context, Erratum};
use crate::resolve::locate;

/// Bad labels in every printed text of the game and its scenarios.
pub(crate) fn check(cx: &Context) -> Vec<Erratum> {
    let game = cx.game;
    let Some(board) = &game.board else { return vec![] };
    let mut out = Vec::new();
    let mut scan = |text: &Spanned<String>, what: &str, scenario: Option<&str>| {
        for (range, err) in bad_labels(board, &text.v) {
            let label = text.v[range.clone()].to_string();
            let mut e = Erratum::new(
                game,
                FindingKind::BadHex,
                &label,
                format!("{what} prints `{label}`: {err}"),
                section_of(&text.v),
                locate(text, range),
            )
            .expected("a hex of the map, in its printed numbering")
            .sure(Certainty::Likely, "a hex label printed in running text");
            if let Some(s) = scenario {
                e = e.scenario(s);
            }
            out.push(e);
        }
    };
    for n in &game.meta.notes {
        scan(n, "a note on the game", None);
    }
    for s in &game.scenarios {
        let id = Some(s.id.v.as_str());
        for t in &s.special_rules {
            scan(t, "a special rule", id);
        }
        for t in &s.victory {
            scan(t, "a victory condition", id);
        }
        for t in &s.notes {
            scan(t, "a note on the scenario", id);
        }
    }
    out
}

/// The rule section a text starts with (`13.36: The Allied player wins …` → `13.36`).
fn section_of(text: &str) -> &str {
    let head = text.split([':', ' ']).next().unwrap_or_default();
    if !head.is_empty() && head.chars().all(|c| c.is_ascii_digit() || c == '.') {
        head.trim_end_matches('.')
    } else {
        ""
    }
}

/// The words of `text` with their byte ranges, stripped of surrounding punctuation (a
/// label's own points stay: `A29.06.` is `A29.06`).
fn words(text: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        let sep =
            c.is_whitespace() || matches!(c, ',' | ';' | ':' | '(' | ')' | '"' | '\'');
        match (start, sep) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                let w = &text[s..i];
                let trimmed = w.trim_end_matches(['.', '!', '?']);
                if !trimmed.is_empty() {
                    out.push((s..s + trimmed.len(), trimmed));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The labels of `text` the board refuses: numbers after `hex`/`hexes` that do not parse
/// or lie off the map, and other words of the board's label form with a map letter that
/// lie off the map.
fn bad_labels(board: &Board, text: &str) -> Vec<(Range<usize>, LabelError)> {
    let mut out = Vec::new();
    let mut after_hex = false;
    for (range, w) in words(text) {
        let lower = w.to_ascii_lowercase();
        if lower == "hex" || lower == "hexes" {
            after_hex = true;
            continue;
        }
        if looks_like_label(w) {
            // Without `hex` before it, a number is a label only with its map letter:
            // `12.0` is as likely a rule section, `1942` a year.
            let lettered = w.starts_with(|c: char| c.is_ascii_uppercase());
            match board.parse(w) {
                Ok(_) => {}
                Err(e @ LabelError::OffMap { .. }) if after_hex || lettered => {
                    out.push((range, e))
                }
                Err(e) if after_hex => out.push((range, e)),
                Err(_) => {}
            }
            continue;
        }
        // A list of labels goes on through `and` and `or`.
        if !(after_hex && (lower == "and" || lower == "or")) {
            after_hex = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_hex::{Grid, Numbering, Orientation, Sheet, Stagger};

    /// A 30 by 20 map numbered as SCS maps are (`29.17`).
    fn board() -> Board {
        let grid = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
        Board::new(grid, vec![Sheet::new("m", 30, 20, Numbering::scs(""))]).unwrap()
    }

    fn bad(text: &str) -> Vec<&str> {
        bad_labels(&board(), text).into_iter().map(|(r, _)| &text[r]).collect()
    }

    #[test]
    fn labels_after_hex_must_parse_and_lie_on_the_map() {
        assert!(
            bad("The Allied player wins if he controls hexes 23.03, 18.02 and 14.04.")
                .is_empty()
        );
        assert_eq!(bad("he controls hexes 23.03, 18.50 and 134."), ["18.50", "134"]);
        assert_eq!(bad("within 3 hexes of hex 134"), ["134"]);
    }

    #[test]
    fn other_numbers_are_labels_only_in_the_boards_form() {
        assert!(
            bad("The scenario begins on 23 May and ends on 22 June, turn 12.").is_empty()
        );
        assert!(bad("as 12.0 and 40.12 say, in 1942").is_empty());
        let grid = Grid { orientation: Orientation::FlatTop, stagger: Stagger::Odd };
        let lettered =
            Board::new(grid, vec![Sheet::new("a", 30, 20, Numbering::scs("A"))]).unwrap();
        let text = "Supply from A12.05 or A31.05.";
        let found: Vec<&str> =
            bad_labels(&lettered, text).into_iter().map(|(r, _)| &text[r]).collect();
        assert_eq!(found, ["A31.05"]);
        assert_eq!(section_of("13.36: The Allied player wins"), "13.36");
        assert_eq!(section_of("The Allied player wins"), "");
    }
}
