//! The manifest against itself and the order of battle: HQs that name another formation,
//! counters no setup can tell apart, units nobody owns.

use std::collections::BTreeMap;

use muster_model::{Certainty, FindingKind, Unit};
use muster_rules::Category;

use super::{Context, Erratum};
use crate::resolve::descendants;
use crate::words::normalise;

/// Findings of the manifest alone.
pub(crate) fn check(cx: &Context) -> Vec<Erratum> {
    let mut out = hqs_of_other_formations(cx);
    out.extend(duplicate_names(cx));
    out.extend(hq_references(cx));
    out
}

/// A formation's `hq` that names no counter of the manifest (`hq: Grnt`), at the
/// printed value, with the nearest HQ counter of its side when one is near.
fn hq_references(cx: &Context) -> Vec<Erratum> {
    let game = cx.game;
    let mut out = Vec::new();
    for f in &game.formations {
        let Some(hq) = &f.hq else { continue };
        let items = muster_model::notation::parse_units(&hq.v, &game.marks);
        let found = cx.resolver.resolve_items(&items, hq, &f.side);
        if found.iter().any(|r| !matches!(r.to, crate::Resolved::Unknown { .. })) {
            continue;
        }
        let near = cx.resolver.suggestions(&hq.v, &f.side);
        let hint = near
            .first()
            .map(|(_, n, s)| format!("; did you mean `{n}`? (similarity {s:.2})"))
            .unwrap_or_default();
        let mut e = Erratum::new(
            game,
            FindingKind::UnknownUnit,
            &hq.v,
            format!(
                "`hq: {}` of {} names no counter of the manifest{hint}",
                hq.v, f.printed.v
            ),
            f.section.as_deref().unwrap_or_default(),
            hq.span,
        )
        .expected("the printed name of the formation's HQ counter");
        if let Some((id, _, _)) = near.first() {
            e = e.suggestion(super::counter_ref(game, id, ""));
        }
        out.push(e.sure(Certainty::Certain, "no counter of the side has this name"));
    }
    out
}

/// Combat units and HQs of a game with formations that belong to none and carry no
/// independent marking: one finding per side, nationality and section that lists them.
/// A game whose setups field no unit (`used`: counter id → uses) prints no order of battle
/// to own them by, so it has none (Gazala Line 1942 names units only in its rules'
/// examples).
pub(crate) fn units_nobody_owns(
    cx: &Context,
    used: &BTreeMap<String, u32>,
) -> Vec<Erratum> {
    let game = cx.game;
    if game.formations.is_empty() || used.values().all(|&n| n == 0) {
        return vec![];
    }
    let independent =
        |u: &Unit| u.markings.contains(&muster_model::source::Marking::IndependentBar);
    // A counter that names no unit, only a nationality and a type (`German Tank`, a key's
    // sample), is no unit of the order of battle.
    let generic_words: Vec<String> = game
        .meta
        .nationalities
        .iter()
        .flat_map(|n| std::iter::once(&n.name).chain(&n.printed))
        .chain(game.meta.unit_types.iter().map(|t| &t.name))
        .flat_map(|n| n.split_whitespace().map(str::to_lowercase))
        .collect();
    let generic = |u: &Unit| {
        u.name
            .designation
            .split_whitespace()
            .all(|w| generic_words.contains(&w.to_lowercase()))
    };
    let mut groups: BTreeMap<(&str, Option<&str>, &str), Vec<&Unit>> = BTreeMap::new();
    for u in game.units.iter().filter(|u| {
        matches!(u.category, Category::Combat | Category::Hq)
            && u.formation.is_none()
            && !independent(u)
            && !generic(u)
    }) {
        groups
            .entry((
                u.side.as_str(),
                u.nationality.as_deref(),
                u.section.as_deref().unwrap_or_default(),
            ))
            .or_default()
            .push(u);
    }
    groups
        .into_iter()
        .map(|((_, _, section), units)| {
            let names: Vec<String> = units.iter().map(|u| format!("`{}`", u.printed.v)).collect();
            let mut e = Erratum::new(
                game,
                FindingKind::NoFormation,
                units.iter().map(|u| u.printed.v.as_str()).collect::<Vec<_>>().join(", "),
                format!(
                    "{} {} in no formation of the order of battle and {} no independent marking",
                    names.join(", "),
                    if units.len() == 1 { "is" } else { "are" },
                    if units.len() == 1 { "carries" } else { "carry" },
                ),
                section,
                units[0].printed.span,
            )
            .expected("a formation, or an independent marking")
            .sure(
                Certainty::Likely,
                "the order of battle lists formations and independent units, and this counter is in neither",
            );
            e.also = units[1..]
                .iter()
                .map(|u| super::Place {
                    span: u.printed.span,
                    scenario: None,
                    section: section.to_string(),
                })
                .collect();
            e
        })
        .collect()
}

/// HQ counters whose name is the heading of another formation than the one that lists
/// them (and neither formation holds the other).
fn hqs_of_other_formations(cx: &Context) -> Vec<Erratum> {
    let game = cx.game;
    let mut out = Vec::new();
    for u in game.units.iter().filter(|u| u.category == Category::Hq) {
        let (Some(own), Some(named)) = (
            u.formation.as_deref(),
            cx.resolver.formation_by_heading(&u.name.designation),
        ) else {
            continue;
        };
        let designation = normalise(&u.name.designation);
        let own_names = game.formation(own).map(|f| {
            std::iter::once(&f.printed)
                .chain(&f.also_printed)
                .any(|n| normalise(&n.v) == designation)
        });
        if own == named
            || own_names == Some(true)
            || descendants(game, named).iter().any(|f| f == own)
            || descendants(game, own).iter().any(|f| f == named)
        {
            continue;
        }
        let heading = |id: &str| {
            game.formation(id)
                .map(|f| (f.printed.v.clone(), f.section.clone().unwrap_or_default()))
                .unwrap_or_default()
        };
        let ((own_name, own_section), (named_name, named_section)) =
            (heading(own), heading(named));
        out.push(
            Erratum::new(
                game,
                FindingKind::HqOfOtherFormation,
                &u.printed.v,
                format!(
                    "`{}` is listed as the HQ of {own_name} ({own_section}) but names {named_name} ({named_section})",
                    u.printed.v
                ),
                u.section.as_deref().unwrap_or_default(),
                u.printed.span,
            )
            .expected(format!("the HQ of {own_name}"))
            .sure(
                Certainty::Certain,
                format!(
                    "its designation `{}` is the heading of {named_name}",
                    u.name.designation
                ),
            ),
        );
    }
    out
}

/// Counters printed alike in one formation, which no printed setup can tell apart by its
/// heading (counters of the same name in different formations are told apart by it).
fn duplicate_names(cx: &Context) -> Vec<Erratum> {
    let game = cx.game;
    let mut by_name: BTreeMap<(String, Option<&str>), Vec<&Unit>> = BTreeMap::new();
    for u in &game.units {
        by_name
            .entry((normalise(&u.printed.v), u.formation.as_deref()))
            .or_default()
            .push(u);
    }
    let mut out = Vec::new();
    for list in by_name.values().filter(|l| l.len() > 1) {
        for u in &list[1..] {
            if list[0].front != u.front || list[0].size != u.size {
                continue;
            }
            out.push(
                Erratum::new(
                    game,
                    FindingKind::DuplicateName,
                    &u.printed.v,
                    format!(
                        "`{}` is printed for {} counters of one formation (also in section {})",
                        u.printed.v,
                        list.len(),
                        list[0].section.clone().unwrap_or_default()
                    ),
                    u.section.as_deref().unwrap_or_default(),
                    u.printed.span,
                )
                .sure(
                    Certainty::Possible,
                    "same name, size and values in one formation; a setup cannot tell them apart",
                ),
            );
        }
    }
    out
}
