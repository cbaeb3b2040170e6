//! Chits that presuppose a counter on the map: a chit of a deck that names an HQ (Dance of
//! War 1.4's `Littorio chit` activates the `LITTORIO HQ`), or a deck that gives one chit per
//! HQ (Gazala 1942 2.2), is drawn to no purpose where no setup or reinforcement places that
//! HQ.
//!
//! A deck is the game's, so it is in play in every scenario that places units. A counter a
//! rule brings in outside the setups (`mentions`: Dance of War 3.3.3 places the Kampfgruppe
//! HQ when its chit is drawn) is not looked for. A chit that names a formation with no HQ
//! counter in the manifest cannot be checked: where the manifest stops short it is said in
//! the manifest's `incomplete` finding, otherwise it is a possible finding.

use std::collections::{BTreeMap, BTreeSet};

use muster_model::source::DeckDef;
use muster_model::{Certainty, FindingKind, Formation, Span, Unit};
use muster_rules::Category;

use super::{Context, Erratum, Scenario, counter_ref};
use crate::resolve::Resolved;
use crate::words::normalise;

/// What a chit names.
enum Named<'g> {
    /// The HQ counters (or the one counter) it activates.
    Counters(Vec<&'g Unit>),
    /// Formations with no HQ counter in the manifest.
    NoHq(Vec<&'g Formation>),
    /// Nothing of the order of battle (`8th Army`, `Independent brigade chit`): a chit
    /// whose rule chooses the HQ when it is drawn.
    Nothing,
}

/// One chit of a deck that lists its markers.
struct Chit<'g> {
    /// The marker.
    marker: &'g Unit,
    /// The deck's entry for it in `game.yaml`.
    span: Span,
    /// The deck.
    deck: &'g DeckDef,
    /// What it names.
    named: Named<'g>,
}

/// The chits of every deck that lists its markers.
fn chits<'g>(cx: &Context<'g>) -> Vec<Chit<'g>> {
    let game = cx.game;
    let mut out = Vec::new();
    for deck in &game.meta.play.decks {
        for entry in &deck.markers {
            let Some(marker) = game.markers.iter().find(|m| m.id == entry.v) else {
                continue;
            };
            out.push(Chit { marker, span: entry.span, deck, named: named(cx, marker) });
        }
    }
    out
}

/// What a chit's printed name (without `chit` and `command`) names: the formations printed
/// so, or the one the name abbreviates, and their HQ counters.
fn named<'g>(cx: &Context<'g>, marker: &Unit) -> Named<'g> {
    let game = cx.game;
    let words: Vec<&str> = marker
        .printed
        .v
        .split_whitespace()
        .filter(|w| !w.eq_ignore_ascii_case("chit") && !w.eq_ignore_ascii_case("command"))
        .collect();
    let name = normalise(&words.join(" "));
    if name.is_empty() {
        return Named::Nothing;
    }
    let mut formations: Vec<&Formation> = game
        .formations
        .iter()
        .filter(|f| {
            std::iter::once(&f.printed)
                .chain(&f.also_printed)
                .any(|p| normalise(&p.v) == name)
        })
        .collect();
    if formations.is_empty() {
        formations.extend(
            cx.resolver.formation_by_heading(&name).and_then(|id| game.formation(id)),
        );
    }
    let hqs: Vec<&Unit> = game
        .units
        .iter()
        .filter(|u| {
            u.category == Category::Hq
                && formations.iter().any(|f| u.formation.as_deref() == Some(&f.id))
        })
        .collect();
    if !hqs.is_empty() {
        return Named::Counters(hqs);
    }
    let counters: Vec<&Unit> =
        game.units.iter().filter(|u| normalise(&u.printed.v) == name).collect();
    match (counters.is_empty(), formations.is_empty()) {
        (false, _) => Named::Counters(counters),
        (true, false) => Named::NoHq(formations),
        (true, true) => Named::Nothing,
    }
}

/// The counters each scenario places (set up, brought in, grouped, or meant by a misprint
/// of its lines), by scenario id.
fn placed<'g>(
    cx: &Context<'g>,
    found: &[Erratum],
) -> BTreeMap<&'g str, BTreeSet<String>> {
    let mut out: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for s in &cx.scenarios {
        let ids = out.entry(s.id).or_default();
        for r in s.solution.resolutions.iter().flatten() {
            if let Resolved::Unit { id, .. } = &r.to {
                ids.insert(id.clone());
            }
        }
        for e in found.iter().filter(|e| e.scenario.as_deref() == Some(s.id)) {
            ids.extend(e.means.iter().cloned());
        }
    }
    out
}

/// Chits whose HQ or unit is placed by no scenario in which the deck is played, each at
/// its deck's entry (or, for a deck of one chit per unit, at that unit's counter).
/// `by_rule`: counter id → the section of a rule that brings it in.
pub(crate) fn check(
    cx: &Context,
    by_rule: &BTreeMap<String, String>,
    found: &[Erratum],
) -> Vec<Erratum> {
    let in_play: Vec<&Scenario> =
        cx.scenarios.iter().filter(|s| !s.placements.is_empty()).collect();
    if in_play.is_empty() {
        return vec![];
    }
    let placed = placed(cx, found);
    let places =
        |u: &Unit, s: &Scenario| placed.get(s.id).is_some_and(|p| p.contains(&u.id));
    let mut out = Vec::new();
    for chit in chits(cx) {
        match &chit.named {
            Named::Counters(counters) => {
                if counters.iter().any(|u| by_rule.contains_key(&u.id)) {
                    continue;
                }
                let missing: Vec<&Scenario> = in_play
                    .iter()
                    .copied()
                    .filter(|s| !counters.iter().any(|u| places(u, s)))
                    .collect();
                if !missing.is_empty() {
                    out.push(unplaced(cx, &chit, counters, &missing, in_play.len()));
                }
            }
            Named::NoHq(formations) if cx.game.counters.incomplete.is_none() => {
                out.push(no_hq(cx, &chit, formations));
            }
            Named::NoHq(_) | Named::Nothing => {}
        }
    }
    for deck in &cx.game.meta.play.decks {
        for u in
            cx.game.units.iter().filter(|u| deck.one_per_unit_of.contains(&u.category))
        {
            if by_rule.contains_key(&u.id) || in_play.iter().any(|s| places(u, s)) {
                continue;
            }
            out.push(one_per_unit(cx, deck, u, &in_play));
        }
    }
    out
}

/// `the Full Campaign (15.3)` for a scenario.
fn title(cx: &Context, s: &Scenario) -> String {
    cx.file(s.id)
        .map_or_else(|| s.id.to_string(), |f| format!("{} ({})", f.title, f.section))
}

/// How sure a finding about scenarios that leave a counter out is: likely where they are
/// printed in full, possible where one of them stops short and may place it unprinted.
fn sureness(cx: &Context, missing: &[&Scenario]) -> (Certainty, String) {
    let short: Vec<String> = missing
        .iter()
        .filter(|s| cx.file(s.id).is_some_and(|f| f.incomplete.is_some()))
        .map(|s| title(cx, s))
        .collect();
    if short.is_empty() {
        (
            Certainty::Likely,
            "every scenario that leaves it out prints its setup and reinforcements in full".into(),
        )
    } else {
        (
            Certainty::Possible,
            format!(
                "the data marks the printed setup of {} as stopping short, so it may be placed in what is not printed",
                short.join(", ")
            ),
        )
    }
}

/// `no scenario places it`, or which scenarios do not, of the `of` in which a deck is
/// played.
fn leaving_out(cx: &Context, missing: &[&Scenario], of: usize) -> String {
    match (missing.len() == of, missing) {
        (true, [one]) => format!("the scenario {} does not place it", title(cx, one)),
        (true, _) => "no scenario places it".into(),
        (false, [one]) => format!("{} does not place it", title(cx, one)),
        (false, _) => {
            let names: Vec<String> = missing.iter().map(|s| title(cx, s)).collect();
            format!("{} do not place it", names.join(", "))
        }
    }
}

/// A chit whose counter some scenario in which it is drawn does not place.
fn unplaced(
    cx: &Context,
    chit: &Chit,
    counters: &[&Unit],
    missing: &[&Scenario],
    of: usize,
) -> Erratum {
    let game = cx.game;
    let names: Vec<String> =
        counters.iter().map(|u| format!("`{}`", u.printed.v)).collect();
    let (certainty, evidence) = sureness(cx, missing);
    let mut e = Erratum::new(
        game,
        FindingKind::ChitWithoutUnit,
        &chit.marker.printed.v,
        format!(
            "the chit `{}` of the deck `{}` ({}) activates {}; {} by setup or reinforcement, and no rule the data records brings it in",
            chit.marker.printed.v,
            chit.deck.name,
            chit.deck.section,
            names.join(" or "),
            leaving_out(cx, missing, of),
        ),
        &chit.deck.section,
        chit.span,
    )
    .expected(format!(
        "{} placed in every scenario that draws from `{}`",
        names.join(" or "),
        chit.deck.name
    ))
    .suggestion(counter_ref(game, &counters[0].id, ""))
    .sure(certainty, evidence);
    if let [s] = missing {
        e = e.scenario(s.id);
    }
    e.means = counters.iter().map(|u| u.id.clone()).collect();
    e
}

/// A chit that names formations with no HQ counter in a manifest printed in full.
fn no_hq(cx: &Context, chit: &Chit, formations: &[&Formation]) -> Erratum {
    let names: Vec<String> = formations
        .iter()
        .map(|f| match &f.section {
            Some(s) => format!("{} ({s})", f.printed.v),
            None => f.printed.v.clone(),
        })
        .collect();
    Erratum::new(
        cx.game,
        FindingKind::ChitWithoutUnit,
        &chit.marker.printed.v,
        format!(
            "the chit `{}` of the deck `{}` ({}) names {}, which has no HQ counter in the manifest",
            chit.marker.printed.v,
            chit.deck.name,
            chit.deck.section,
            names.join(", ")
        ),
        &chit.deck.section,
        chit.span,
    )
    .expected(format!("an HQ counter of {}", names.join(", ")))
    .sure(
        Certainty::Possible,
        "the chit names a formation of the order of battle, and no HQ counter of it is listed; its rule may activate another HQ",
    )
}

/// A unit whose chit a deck of one chit per unit gives, and which no scenario places.
fn one_per_unit(
    cx: &Context,
    deck: &DeckDef,
    u: &Unit,
    in_play: &[&Scenario],
) -> Erratum {
    let (certainty, evidence) = sureness(cx, in_play);
    let mut e = Erratum::new(
        cx.game,
        FindingKind::ChitWithoutUnit,
        &u.printed.v,
        format!(
            "the deck `{}` ({}) gives `{}` a chit; {} by setup or reinforcement, and no rule the data records brings it in",
            deck.name,
            deck.section,
            u.printed.v,
            leaving_out(cx, in_play, in_play.len()),
        ),
        u.section.as_deref().unwrap_or_default(),
        u.printed.span,
    )
    .expected(format!("`{}` placed by a scenario that draws from `{}`", u.printed.v, deck.name))
    .suggestion(counter_ref(cx.game, &u.id, ""))
    .sure(certainty, evidence);
    e.means = vec![u.id.clone()];
    e
}

/// `; the chits … name formations with no HQ counter here, …`: what the manifest's gap
/// leaves unchecked, or nothing.
pub(crate) fn unchecked(cx: &Context) -> String {
    let names: Vec<String> = chits(cx)
        .iter()
        .filter(|c| matches!(c.named, Named::NoHq(_)))
        .map(|c| format!("`{}`", c.marker.printed.v))
        .collect();
    if names.is_empty() {
        return String::new();
    }
    format!(
        "; the chits {} name formations with no HQ counter here, so whether their HQs are placed cannot be checked",
        names.join(", ")
    )
}
