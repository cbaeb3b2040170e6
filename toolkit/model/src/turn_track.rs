//! The turn track's own shape (days, names, count), and every printed turn of the
//! scenarios placed on it: a turn the track does not have is a finding where it is printed.

use std::collections::BTreeSet;

use crate::calendar::{track_length, track_names};
use crate::diag::{Diagnostic, suggest};
use crate::finding::FindingKind;
use crate::source::{ScenarioFile, TurnTrack};
use crate::span::Spanned;

/// Checks the track's days, names and count agree with each other.
pub(crate) fn check_track(
    track: &TurnTrack,
    at: crate::Span,
    errors: &mut Vec<Diagnostic>,
) {
    for day in [&track.first_day, &track.last_day].into_iter().flatten() {
        if !crate::source::bounds::is_day(&day.v) {
            errors.push(
                Diagnostic::error(day.span, format!("`{}` is not a day", day.v))
                    .with_expected("a day and an English month name, such as `23 May`"),
            );
        }
    }
    if track.first_day.is_some() != track.last_day.is_some() {
        errors.push(Diagnostic::error(
            at,
            "a turn track of days needs both `first_day` and `last_day`",
        ));
    }
    let Some(first) = track.names.first() else { return };
    if track.first_day.is_some() {
        errors.push(
            Diagnostic::error(
                first.span,
                "a turn track has either days or names, not both",
            )
            .with_expected("`names` alone, or `first_day` and `last_day` alone"),
        );
    }
    let mut seen = BTreeSet::new();
    for n in &track.names {
        if n.v.trim().is_empty() || n.v.contains(['\n', '\r']) {
            errors.push(
                Diagnostic::error(n.span, "a turn's name is empty or has a line break")
                    .with_expected("the turn's name as the track prints it, on one line"),
            );
        } else if !seen.insert(n.v.trim().to_lowercase()) {
            errors.push(
                Diagnostic::error(n.span, format!("the track names `{}` twice", n.v))
                    .with_expected("each turn once, in the order of the track"),
            );
        }
    }
    if let Some(count) = track.count
        && count as usize != track.names.len()
    {
        errors.push(
            Diagnostic::error(
                first.span,
                format!(
                    "the track names {} turns but `count` says {count}",
                    track.names.len()
                ),
            )
            .with_expected("as many names as turns, or no `count`"),
        );
    }
}

/// Every printed turn of a scenario (its first and last turn, each reinforcement's) that
/// the track does not have: an [`FindingKind::UnknownTurn`] where it is printed. A printed
/// condition (`each turn`, `When …`) is no turn and is not looked for.
pub(crate) fn check_printed_turns(
    track: &TurnTrack,
    scenario: &ScenarioFile,
    warnings: &mut Vec<Diagnostic>,
) {
    let names = track_names(track).unwrap_or_default();
    let length = track_length(track);
    let printed = scenario
        .first_turn
        .iter()
        .chain(&scenario.last_turn)
        .chain(scenario.reinforcements.iter().map(|r| &r.turn));
    for turn in printed {
        if muster_rules::is_condition(&turn.v) {
            continue;
        }
        let number = muster_rules::turn_number(&names, &turn.v);
        let past = number.zip(length).is_some_and(|(n, len)| n > len);
        if number.is_none() || past {
            warnings.push(unknown(track, &names, length, turn, past));
        }
    }
}

fn unknown(
    track: &TurnTrack,
    names: &[String],
    length: Option<u32>,
    turn: &Spanned<String>,
    past: bool,
) -> Diagnostic {
    let section = &track.section;
    let message = if past {
        format!("`{}` is past the last turn of the turn track ({section})", turn.v)
    } else {
        format!("`{}` is no turn of the turn track ({section})", turn.v)
    };
    let expected = match (names.first(), names.last(), length) {
        (Some(a), Some(b), Some(n)) => format!(
            "a turn the track names, `{a}` to `{b}`, or `Turn N` with N from 1 to {n}"
        ),
        (_, _, Some(n)) => format!("`Turn N` or `N`, with N from 1 to {n}"),
        _ => {
            "a turn number (`Turn 3`, `3`), or a condition (`each turn`, `When …`)".into()
        }
    };
    Diagnostic::finding(FindingKind::UnknownTurn, turn.span, message)
        .with_subject(turn.v.clone())
        .with_expected(expected)
        .with_suggestion(misspelt(&turn.v, names))
}

/// The track's name that `printed` is a misspelling of; none when the two differ only in
/// their numbers (`June 19 AM` is another day than `June 15 AM`, not a typo of it).
fn misspelt(printed: &str, names: &[String]) -> Option<String> {
    let near = suggest(printed, names.iter().map(String::as_str))?;
    let letters = |s: &str| -> String {
        s.chars().filter(|c| !c.is_ascii_digit()).collect::<String>().to_lowercase()
    };
    (letters(&near) != letters(printed)).then_some(near)
}
