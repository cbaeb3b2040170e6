//! Reinforcement entry areas linked to the maps: each printed area (`D`, `B or C`) must be
//! the name of an `entry-area` feature of a map, or lie in a range such a feature names
//! (`A to K`), or be a hex or place of the map, or name a step of the sequence of play
//! (`Command Phase`: units placed by a step of the sequence, not at an entry area). An area printed as a description (`on the play area edge`, starting with a
//! lowercase word) names no area and is kept as printed.

use muster_model::source::FeatureKind;
use muster_model::{Game, ParsedPlacement, Span};

/// An entry area a reinforcement prints that no map names.
pub(crate) struct UnknownArea {
    /// The area as printed (one of the names in `B or C`).
    pub area: String,
    /// Where the reinforcement prints it.
    pub span: Span,
    /// Rule section of the reinforcement.
    pub section: String,
    /// What is wrong, with the areas there are.
    pub message: String,
}

/// The names in a printed area: `A, B, or C` → `A`, `B`, `C`.
pub(crate) fn area_names(printed: &str) -> Vec<String> {
    printed
        .split([',', ';', '/'])
        .flat_map(|part| part.split(" or "))
        .flat_map(|part| part.split(" and "))
        .map(|w| w.trim().trim_start_matches("or ").trim_start_matches("and ").trim())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Is a printed area a description of where units enter (`on the play area edge`,
/// `anywhere`) rather than names of areas? It starts with a lowercase word.
pub(crate) fn is_description(printed: &str) -> bool {
    printed.trim().chars().next().is_some_and(char::is_lowercase)
}

/// Does an entry area named `feature` (`D`, `A to K`) include the printed area `area`?
fn covers(feature: &str, area: &str) -> bool {
    if feature.eq_ignore_ascii_case(area) {
        return true;
    }
    let Some((from, to)) = feature.split_once(" to ") else { return false };
    let one = |s: &str| {
        let mut c = s.trim().chars();
        c.next().filter(|_| c.next().is_none())
    };
    match (one(from), one(to), one(area)) {
        (Some(a), Some(b), Some(x)) => (a.to_ascii_uppercase()..=b.to_ascii_uppercase())
            .contains(&x.to_ascii_uppercase()),
        _ => false,
    }
}

/// Every printed entry area of `placements` that no map of the game names.
pub(crate) fn unknown_areas(
    game: &Game,
    placements: &[&ParsedPlacement],
) -> Vec<UnknownArea> {
    let named: Vec<&str> = game
        .maps
        .iter()
        .flat_map(|m| &m.features)
        .filter(|f| f.kind == FeatureKind::EntryArea)
        .filter_map(|f| f.name.as_deref())
        .collect();
    let mut out = Vec::new();
    for p in placements {
        let Some(area) = &p.area else { continue };
        if is_description(&area.v) {
            continue;
        }
        for name in area_names(&area.v) {
            if named.iter().any(|f| covers(f, &name))
                || is_hex_or_place(game, &name)
                || names_step(game, &name)
            {
                continue;
            }
            out.push(UnknownArea {
                message: format!(
                    "entry area `{name}` (reinforcements of {}) is on no map: the maps name the entry areas {}",
                    crate::solve::turn_words(p.turn.as_deref().unwrap_or("?")),
                    named.join(", ")
                ),
                area: name,
                span: area.span,
                section: p.section.clone(),
            });
        }
    }
    if named.is_empty() {
        return unchecked(out);
    }
    out
}

/// Is a printed area a hex of the board (`5108`, `at A1.14`, `hex 4400`) or a place a map
/// names: units enter there, and that is checked against the board, not the entry areas.
fn is_hex_or_place(game: &Game, name: &str) -> bool {
    // `1018 behind III Corps`: the order of entry after the hex.
    let bare = name.split(" behind ").next().unwrap_or(name).trim();
    let bare = ["at ", "hex ", "at hex "]
        .iter()
        .fold(bare, |b, p| b.strip_prefix(p).unwrap_or(b));
    game.board.as_ref().is_some_and(|b| b.parse(bare).is_ok())
        || !crate::region::place_cells(game, bare).is_empty()
}

/// Does a printed arrival name a step of the game's sequence of play (`Command Phase`,
/// `during the Command Phase`): units that arrive by a step of the sequence rather than
/// at an entry area, as the rulebook says they are placed then?
fn names_step(game: &Game, name: &str) -> bool {
    let Some(sequence) = &game.meta.sequence_of_play else { return false };
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let printed = words(name);
    let mut steps: Vec<&muster_model::source::Step> = sequence.steps.iter().collect();
    while let Some(step) = steps.pop() {
        let text = words(&step.text);
        if !text.is_empty() && printed.windows(text.len()).any(|w| w == text.as_slice()) {
            return true;
        }
        steps.extend(&step.steps);
    }
    false
}

/// The areas of a game whose maps name none, as one finding: no line is wrong that
/// another is not, and the maps (not the setups) are what is missing.
fn unchecked(areas: Vec<UnknownArea>) -> Vec<UnknownArea> {
    let Some(first) = areas.first() else { return areas };
    let mut names: Vec<&str> = areas.iter().map(|a| a.area.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let mut lines: Vec<u32> = areas.iter().map(|a| a.span.line).collect();
    lines.dedup();
    let lines: Vec<String> = lines.iter().map(u32::to_string).collect();
    let names = names.join(", ");
    vec![UnknownArea {
        message: format!(
            "the reinforcements enter at the areas {names} (line{} {}), but no map names any entry area (an `entry-area` feature with a `name` in maps/*.yaml), so none of them is checked",
            if lines.len() == 1 { "" } else { "s" },
            lines.join(", ")
        ),
        area: names,
        span: first.span,
        section: first.section.clone(),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_areas_split_into_names_that_ranges_cover() {
        assert_eq!(area_names("A, B, or C"), ["A", "B", "C"]);
        assert_eq!(area_names("B or C"), ["B", "C"]);
        assert_eq!(area_names("D"), ["D"]);
        assert!(covers("A to K", "F") && !covers("A to K", "L"));
        assert!(covers("Tobruk", "tobruk") && !covers("Tobruk", "T"));
        assert!(is_description("on the play area edge") && !is_description("B or C"));
        assert_eq!(
            area_names("1017 or 1018 behind III Corps"),
            ["1017", "1018 behind III Corps"]
        );
    }
}
