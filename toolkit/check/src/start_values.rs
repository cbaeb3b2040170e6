//! The values a scenario starts each counter with, where they are not its counter's own:
//! a table of starting values (`6.8 Scenario Starting Strengths`), or a strength its setup
//! line prints (`6/2 (I) [2-0-7]`, a set-up table's strength column) that neither side
//! of the counter prints.

use std::collections::BTreeMap;

use muster_model::{Game, ParsedPlacement, PlacementKind};

/// The counter values a printed strength gives, by value id: its numbers in the order of
/// `ids`; when `ids` is empty, in the order of the game's values, all of them when the
/// numbers are as many, else the values the counter's own sides print, else the values
/// that every side of the game printing that many numbers prints (`2-0-7`: combat, armor
/// and movement where artillery alone prints a range). `None` when nothing decides.
pub(crate) fn printed_values(
    game: &Game,
    ids: &[String],
    printed: &str,
    unit: Option<&muster_model::Unit>,
) -> Option<BTreeMap<String, String>> {
    let parts: Vec<&str> = printed.split('-').map(str::trim).collect();
    if parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let ids =
        if ids.is_empty() { form_of(game, parts.len(), unit)? } else { ids.to_vec() };
    (parts.len() == ids.len())
        .then(|| ids.into_iter().zip(parts.iter().map(|p| (*p).to_string())).collect())
}

/// The value ids, in the game's order, that a strength of `n` numbers stands for.
fn form_of(
    game: &Game,
    n: usize,
    unit: Option<&muster_model::Unit>,
) -> Option<Vec<String>> {
    let order = |face: &BTreeMap<String, String>| -> Vec<String> {
        game.meta
            .values
            .iter()
            .filter(|v| face.contains_key(&v.id.v))
            .map(|v| v.id.v.clone())
            .collect()
    };
    if game.meta.values.len() == n {
        return Some(game.meta.values.iter().map(|v| v.id.v.clone()).collect());
    }
    let own = unit.into_iter().flat_map(|u| [order(&u.front), order(&u.back)]);
    if let Some(ids) = own.into_iter().find(|ids| ids.len() == n) {
        return Some(ids);
    }
    let mut forms: Vec<Vec<String>> = game
        .units
        .iter()
        .flat_map(|u| [order(&u.front), order(&u.back)])
        .filter(|ids| ids.len() == n)
        .collect();
    forms.sort();
    forms.dedup();
    match <[Vec<String>; 1]>::try_from(forms) {
        Ok([one]) => Some(one),
        Err(_) => None,
    }
}

/// The values a scenario starts a counter with as its strength label shows them: in the
/// order of the game's values, joined by `-` (`17`, `2-0-7`); `None` when there are none.
pub fn label(game: &Game, values: &BTreeMap<String, String>) -> Option<String> {
    let parts: Vec<&str> = game
        .meta
        .values
        .iter()
        .filter_map(|v| values.get(&v.id.v).map(String::as_str))
        .collect();
    (!parts.is_empty()).then(|| parts.join("-"))
}

/// Values joined with `-` in the order the game declares them (`4-1-7`).
pub fn strength(game: &Game, values: &BTreeMap<String, String>) -> String {
    game.meta
        .values
        .iter()
        .filter_map(|v| values.get(&v.id.v).cloned())
        .collect::<Vec<_>>()
        .join("-")
}

/// The strength `printed` for counter `id` when it is a starting value: one that neither
/// side of the counter prints (a strength that matches a side only chooses that side).
pub(crate) fn own_strength(
    game: &Game,
    id: &str,
    printed: Option<&String>,
) -> Option<String> {
    let printed = printed?;
    let unit = game.unit(id)?;
    let face =
        |v: &BTreeMap<String, String>| !v.is_empty() && strength(game, v) == *printed;
    (!face(&unit.front) && !face(&unit.back)).then(|| printed.clone())
}

/// The values the scenario starts counter `id` of line `p` with, by value id: its
/// scenario's table of starting values, overridden by the strength its line prints.
pub(crate) fn of(
    game: &Game,
    scenario: &str,
    p: &ParsedPlacement,
    id: &str,
    printed: Option<&str>,
) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = game
        .starting_values(scenario, id)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.value.clone())).collect())
        .unwrap_or_default();
    if p.kind == PlacementKind::Setup
        && let Some(values) = printed
            .and_then(|s| printed_values(game, &p.strength_values, s, game.unit(id)))
    {
        out.extend(values);
    }
    out
}

/// A printed strength that sets no value: its index among those given to [`unread`], and
/// what is wrong.
pub(crate) struct Unread {
    /// Its index among the printed strengths.
    pub index: usize,
    /// What is wrong.
    pub message: String,
}

/// A unit a placement prints with a strength: the placement's index, the unit as printed,
/// its counter and the strength.
pub(crate) struct Printed<'a> {
    /// Index of the printed placement.
    pub placement: usize,
    /// The unit as printed.
    pub unit: &'a str,
    /// Its counter.
    pub id: &'a str,
    /// The strength as printed.
    pub strength: &'a String,
}

/// Each printed strength that is a starting value but whose numbers no form of the game's
/// values fits (an `unread-strength` finding).
pub(crate) fn unread(
    game: &Game,
    placements: &[&ParsedPlacement],
    printed: &[Printed],
) -> Vec<Unread> {
    let mut out = Vec::new();
    for (index, x) in printed.iter().enumerate() {
        let p = placements[x.placement];
        let Some(s) = own_strength(game, x.id, Some(x.strength)) else { continue };
        if printed_values(game, &p.strength_values, &s, game.unit(x.id)).is_some() {
            continue;
        }
        let ids: Vec<String> = if p.strength_values.is_empty() {
            game.meta.values.iter().map(|v| v.id.v.clone()).collect()
        } else {
            p.strength_values.clone()
        };
        let n = s.split('-').count();
        out.push(Unread {
            index,
            message: format!(
                "the strength `{s}` printed for {} gives {n} number(s), but the game's values are {} ({}) and no side of a counter prints {n} of them; it sets no value",
                x.unit,
                ids.len(),
                ids.join("-"),
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(id: &str) -> Game {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
        let loaded = muster_model::load(
            &root,
            &[id.into()],
            &muster_model::LoadOptions::default(),
        );
        loaded.games.into_iter().next().expect("the seed loads")
    }

    fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect()
    }

    #[test]
    fn a_printed_strength_is_read_in_the_form_the_counters_print() {
        // The example's values are attack, defense and movement, all printed.
        let g = seed("example-oasis");
        assert_eq!(
            printed_values(&g, &[], "2-3-5", None),
            Some(values(&[("attack", "2"), ("defense", "3"), ("movement", "5")]))
        );
        assert_eq!(printed_values(&g, &[], "6-3", None), None, "no form of two numbers");
        assert_eq!(
            printed_values(&g, &["defense".into()], "4", None),
            Some(values(&[("defense", "4")])),
            "a table's strength column names its values"
        );
        // Gazala 1942 has four values; only artillery prints a range, so three numbers
        // are combat, armor and movement.
        let g = seed("gazala-1942");
        assert_eq!(
            printed_values(&g, &[], "2-0-7", None),
            Some(values(&[("armor", "0"), ("combat", "2"), ("movement", "7")]))
        );
        assert_eq!(
            label(&g, &values(&[("movement", "7"), ("combat", "2")])).as_deref(),
            Some("2-7")
        );
        assert_eq!(label(&g, &BTreeMap::new()), None);
    }

    #[test]
    fn a_strength_that_is_a_side_of_the_counter_is_no_starting_value() {
        let g = seed("example-oasis");
        let u = g.units.iter().find(|u| u.printed.v == "1/1 Inf Bn").expect("1/1 Inf Bn");
        let s = |t: &str| own_strength(&g, &u.id, Some(&t.to_string()));
        assert_eq!(s("3-4-5"), None, "its front");
        assert_eq!(s("1-2-5"), None, "its back");
        assert_eq!(s("2-3-5").as_deref(), Some("2-3-5"));
        assert_eq!(own_strength(&g, &u.id, None), None);
    }
}
