//! The manifest against itself and the order of battle: HQs that name another formation,
//! counters no setup can tell apart.

use std::collections::BTreeMap;

use muster_model::{Certainty, FindingKind, Unit};
use muster_rules::Category;

use super::{Context, Erratum};
use crate::resolve::normalise;
use crate::solve::descendants;

/// Findings of the manifest alone.
pub(crate) fn check(cx: &Context) -> Vec<Erratum> {
    let mut out = hqs_of_other_formations(cx);
    out.extend(duplicate_names(cx));
    out
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
