//! The messages of the findings about one resolved printed unit, shared by `validate`
//! and the errata checker so that both say the same of the same problem.

use muster_model::Game;

/// `` `3 Yeo` is listed under 7 Arm Div, but the manifest places it in 22 Arm Bde ``:
/// a unit printed under formation `under` whose counter `id` belongs to another. Two
/// formations of one printed name are told apart by the formation above each, or its
/// side (`I Corps (Prussian Army)`, `I Corps (Armee du Nord)`).
pub(crate) fn other_formation(
    game: &Game,
    printed: &str,
    under: &str,
    id: &str,
) -> String {
    let own = game.unit(id).and_then(|u| u.formation.as_deref()).unwrap_or_default();
    let (under_name, own_name) = formation_names(game, under, own);
    format!(
        "`{printed}` is listed under {under_name}, but the manifest places it in {own_name}"
    )
}

/// The printed names of two formations, each followed by what tells it from the other
/// when both are printed alike: the formation above it, else its side.
pub(crate) fn formation_names(game: &Game, a: &str, b: &str) -> (String, String) {
    let printed =
        |id: &str| game.formation(id).map(|f| f.printed.v.clone()).unwrap_or_default();
    let (pa, pb) = (printed(a), printed(b));
    if pa != pb {
        return (pa, pb);
    }
    let above = |id: &str| {
        game.formation(id)
            .and_then(|f| f.parent.as_deref())
            .map(printed)
            .unwrap_or_default()
    };
    let side = |id: &str| {
        let s = game.formation(id).map(|f| f.side.clone()).unwrap_or_default();
        game.meta.sides.iter().find(|x| x.id.v == s).map_or(s, |x| x.name.clone())
    };
    let (qa, qb) = match (above(a), above(b)) {
        (x, y) if !x.is_empty() && x != y => (x, y),
        _ => (side(a), side(b)),
    };
    (format!("{pa} ({qa})"), format!("{pb} ({qb})"))
}

/// `` `Col.` names no counter, only its type (column); muster uses … ``: a unit printed
/// by its type word alone, for which counter `id` of type `t` is used.
pub(crate) fn by_type(game: &Game, printed: &str, t: &str, used: &str) -> String {
    let of = game.units.iter().filter(|u| u.unit_type.as_deref() == Some(t)).count();
    format!(
        "`{printed}` names no counter, only its type ({t}); muster uses {used}, one of the {of} counters of that type"
    )
}

/// A counter as a report names it: its printed name and the section that lists it
/// (`3/18 Gar Inf Bn (16.1.9.3)`), with `extra` after the section when given.
pub(crate) fn counter_ref(game: &Game, id: &str, extra: &str) -> String {
    let Some(u) = game.unit(id).or_else(|| game.markers.iter().find(|m| m.id == id))
    else {
        return id.to_string();
    };
    let section = u.section.as_deref().unwrap_or_default();
    match (section.is_empty(), extra.is_empty()) {
        (true, true) => u.printed.v.clone(),
        (true, false) => format!("{} ({extra})", u.printed.v),
        (false, true) => format!("{} ({section})", u.printed.v),
        (false, false) => format!("{} ({section}; {extra})", u.printed.v),
    }
}
