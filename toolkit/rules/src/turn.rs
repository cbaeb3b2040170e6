//! Turns as the turn track prints them: numbered (`Turn 12`, `2 GER`), or named (days,
//! half-days, months, seasons), and the printed turns of setups and reinforcements placed
//! on that track.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A turn of the turn track: as printed, and counted from 1 along the track.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Turn {
    /// As printed (`28 May`, `Turn 12`, `2 GER`).
    pub printed: String,
    /// Its place on the track, the first turn being 1; none when the text names no turn
    /// of the track.
    pub number: Option<u32>,
}

impl Turn {
    /// A printed turn, placed on a track whose turns have these names (none: numbered).
    pub fn new(printed: &str, names: &[String]) -> Turn {
        Turn { printed: printed.to_string(), number: turn_number(names, printed) }
    }
}

/// Words that open a printed arrival that is a condition, not a turn (`each turn`, `When
/// the last Allied unit is destroyed.`).
const CONDITION_WORDS: [&str; 16] = [
    "each", "every", "when", "whenever", "if", "after", "upon", "once", "until", "as",
    "between", "during", "before", "see", "per", "group",
];

/// Words a printed turn may start with before its number (`Turn 3`, `Game Turn 3`, `GT 3`,
/// `on turn 3`).
const LEAD_WORDS: [&str; 6] = ["on", "at", "game", "turn", "gt", "t"];

/// Is the printed arrival a condition rather than a turn (`each turn`, `When the last
/// Allied unit is destroyed.`, `On the first successful roll`)? Such an arrival is not
/// placed on the track.
pub fn is_condition(printed: &str) -> bool {
    let first = printed.split_whitespace().next().unwrap_or_default();
    let first = first.trim_matches(|c: char| !c.is_alphanumeric());
    CONDITION_WORDS.iter().any(|w| w.eq_ignore_ascii_case(first))
        || printed
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| DIE_WORDS.iter().any(|d| d.eq_ignore_ascii_case(w)))
}

/// Words that make an arrival depend on a die roll (`on a roll of 5 or 6`).
const DIE_WORDS: [&str; 5] = ["roll", "rolls", "rolled", "die", "dice"];

/// The place of a printed turn on a track, counted from 1:
/// - on a track whose turns have names (`23 May`, `June 15 AM`, `Spring 1862`): the name
///   as printed (case and spacing aside), or the one name the text holds as whole words
///   (`June 16 AM (Turn 4)`), or the number a setup prints for it (`Turn 3`, `3`) when
///   the track has that many turns;
/// - on a numbered track: the number the text starts with, perhaps after `Turn`, `Game
///   Turn` or `GT` (`Turn 12`, `2 GER`, `12`).
///
/// None when the text names no turn of the track.
pub fn turn_number(names: &[String], printed: &str) -> Option<u32> {
    let text = normal(printed);
    let names: Vec<String> = names.iter().map(|n| normal(n)).collect();
    if let Some(k) = names.iter().position(|n| *n == text) {
        return u32::try_from(k + 1).ok();
    }
    if !names.is_empty() {
        if let Some(k) = one_name_within(&names, &text) {
            return u32::try_from(k + 1).ok();
        }
        return leading_number(&text)
            .filter(|n| (1..=names.len()).contains(&(*n as usize)));
    }
    leading_number(&text)
}

/// Lowercase, with runs of spaces as one, commas and full stops after words dropped, and
/// times of day written one way (`4:00 p.m.`, `4 p.m.`, `4pm` are all `4 pm`).
fn normal(s: &str) -> String {
    let lower = s.to_lowercase().replace("a.m.", "am").replace("p.m.", "pm");
    let mut words: Vec<String> = Vec::new();
    for w in lower.split_whitespace() {
        let w = w.trim_end_matches([',', '.', ';']);
        let (time, half) = match w.strip_suffix("am").or_else(|| w.strip_suffix("pm")) {
            Some(t) if t.starts_with(|c: char| c.is_ascii_digit()) => (t, &w[t.len()..]),
            _ => (w, ""),
        };
        let time = time.strip_suffix(":00").unwrap_or(time);
        if !time.is_empty() {
            words.push(time.to_string());
        }
        if !half.is_empty() {
            words.push(half.to_string());
        }
    }
    // `4:00 pm`: a whole hour before `am`/`pm` is written without its minutes.
    for k in 1..words.len() {
        if (words[k] == "am" || words[k] == "pm")
            && let Some(h) = words[k - 1].strip_suffix(":00")
        {
            words[k - 1] = h.to_string();
        }
    }
    words.join(" ")
}

/// The index of the one name `text` holds as whole words (the longest, when one name is
/// part of another); none when no name, or two unrelated names, are in it.
fn one_name_within(names: &[String], text: &str) -> Option<usize> {
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let holds = |name: &str| {
        let n: Vec<&str> = name
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .collect();
        !n.is_empty() && words.windows(n.len()).any(|w| w == n.as_slice())
    };
    let found: Vec<usize> = (0..names.len()).filter(|&k| holds(&names[k])).collect();
    let longest = found.iter().copied().max_by_key(|&k| names[k].len())?;
    found.iter().all(|&k| names[longest].contains(names[k].as_str())).then_some(longest)
}

/// The number a printed turn starts with, after the words a turn may open with.
fn leading_number(text: &str) -> Option<u32> {
    let mut words = text
        .split(|c: char| c.is_whitespace() || c == '#')
        .filter(|w| !w.is_empty())
        .peekable();
    while words.peek().is_some_and(|w| LEAD_WORDS.contains(w)) {
        words.next();
    }
    let first = words.next()?;
    let digits: String = first.chars().take_while(char::is_ascii_digit).collect();
    let rest = &first[digits.len()..];
    // `3`, `3,`, `3)`; an ordinal before `turn` (`5th Turn`); not `15th June`, `1942-43`
    // or a time (`4:00 p.m.`).
    let ordinal =
        ["st", "nd", "rd", "th"].contains(&rest) && words.peek() == Some(&"turn");
    let plain = rest.chars().all(|c| matches!(c, ',' | ')' | '.' | ';'));
    let time = matches!(words.peek(), Some(&"am" | &"pm"));
    if digits.is_empty() || (!plain && !ordinal) || time {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn days_are_placed_on_their_track() {
        let days = track(&["23 May", "24 May", "25 May"]);
        assert_eq!(turn_number(&days, "25 May"), Some(3));
        assert_eq!(turn_number(&days, " 23 may "), Some(1));
        assert_eq!(turn_number(&days, "Turn 2"), Some(2), "the number a setup prints");
        assert_eq!(turn_number(&days, "Turn 4"), None, "past the track");
        assert_eq!(turn_number(&days, "26 May"), None);
    }

    #[test]
    fn named_turns_are_found_by_name_or_by_number() {
        let t = track(&["June 15 AM", "June 15 PM", "June 16 AM", "June 16 PM"]);
        assert_eq!(turn_number(&t, "June 16 AM"), Some(3));
        assert_eq!(turn_number(&t, "Turn 3"), Some(3));
        assert_eq!(turn_number(&t, "3"), Some(3));
        assert_eq!(turn_number(&t, "June 16 PM turn"), Some(4));
        assert_eq!(turn_number(&t, "Turn 4 (June 16 PM)"), Some(4));
        assert_eq!(turn_number(&t, "June 17 AM"), None, "no such turn");
        assert_eq!(turn_number(&t, "June 15 AM or June 15 PM"), None, "two turns");
        let seasons = track(&["Spring 1862", "Summer 1862", "Fall 1862"]);
        assert_eq!(turn_number(&seasons, "summer 1862"), Some(2));
        assert_eq!(
            turn_number(&seasons, "Summer"),
            None,
            "no year: the text names no turn"
        );
    }

    #[test]
    fn times_of_day_match_however_they_are_written() {
        let t = track(&["3 p.m. June 26th", "3:30 p.m. June 26th", "4 p.m. June 26th"]);
        assert_eq!(turn_number(&t, "4:00 p.m. June 26th."), Some(3));
        assert_eq!(turn_number(&t, "3pm, June 26th"), Some(1));
        assert_eq!(turn_number(&t, "3:30pm June 26th"), Some(2));
        assert_eq!(turn_number(&t, "4 am June 26th"), None);
        assert!(is_condition("Group 1"));
    }

    #[test]
    fn numbered_turns_start_with_their_number() {
        assert_eq!(turn_number(&[], "Turn 12"), Some(12));
        assert_eq!(turn_number(&[], "GT 7"), Some(7));
        assert_eq!(turn_number(&[], "Game Turn 7"), Some(7));
        assert_eq!(turn_number(&[], "2 GER"), Some(2));
        assert_eq!(turn_number(&[], "13"), Some(13));
        assert_eq!(turn_number(&[], "June 15 AM"), None, "a date on a numbered track");
        assert_eq!(turn_number(&[], "15th"), None);
        assert_eq!(turn_number(&[], "5th Turn"), Some(5));
        assert_eq!(turn_number(&[], "4:00 p.m. June 26th."), None, "a time is no number");
        assert_eq!(turn_number(&[], "Turn 3."), Some(3));
        assert_eq!(turn_number(&[], "When the last unit is destroyed."), None);
    }

    #[test]
    fn conditions_are_not_turns() {
        assert!(is_condition("each turn"));
        assert!(is_condition("When last Allied unit is destroyed."));
        assert!(is_condition("between the Assault Periods (11.5)"));
        assert!(is_condition("[See Rules below]"));
        assert!(is_condition("On the first successful roll"));
        assert!(!is_condition("On Turn 3"));
        assert!(!is_condition("Turn 3"));
        assert!(!is_condition("June 15 AM"));
    }
}
