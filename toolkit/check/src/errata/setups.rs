//! Setups, reinforcements and groups against the manifest: every printed unit resolved,
//! strengths no division gives, and what validation finds (units used twice, overstacked
//! hexes, bad labels, locations no form reads).

use std::collections::BTreeMap;

use muster_model::notation::parse_units;
use muster_model::source::UnitsField;
use muster_model::{Certainty, FindingKind, PlacementKind, Span};
use muster_rules::{Position, check_stacking};

use super::differences::Differences;
use super::{Context, Erratum, Scenario, counter_ref};
use crate::resolve::{Resolution, Resolved, Resolver};
use crate::words::normalise;

/// What the setups check found, and how often each counter is used in any scenario.
pub(crate) struct SetupFindings {
    /// The findings.
    pub errata: Vec<Erratum>,
    /// Counter id → the number of printed items that name it, over every scenario.
    pub used: BTreeMap<String, u32>,
}

/// Every setup finding of every scenario.
pub(crate) fn check(cx: &Context) -> SetupFindings {
    let mut out = SetupFindings { errata: Vec::new(), used: BTreeMap::new() };
    let mut words = Differences::default();
    for s in &cx.scenarios {
        resolutions(cx, s, &mut out);
        for pi in 0..s.placements.len() {
            words.placement(cx, s, pi);
        }
        out.errata.extend(validation(cx, s));
        out.errata.extend(joined_stacks(cx, s));
        out.errata.extend(rows_without_units(cx, s));
        out.errata.extend(split_strengths(cx, s));
    }
    out.errata.extend(words.finish(cx.game));
    out
}

/// Unknown units, units found but printed otherwise, units under another formation, and
/// units named by their type alone.
fn resolutions(cx: &Context, s: &Scenario, out: &mut SetupFindings) {
    for (pi, res) in s.solution.resolutions.iter().enumerate() {
        let p = s.placements[pi];
        for r in res {
            if let Resolved::Unit { id, .. } = &r.to {
                *out.used.entry(id.clone()).or_default() += 1;
            }
            out.errata.extend(item_findings(cx, r, &p.side, &p.section, Some(s.id)));
        }
    }
}

/// Units the rules name outside the setups (`mentions` in `game.yaml`), found in the
/// manifest like any printed reference, and the counters they name with the section that
/// names each first.
pub(crate) fn mentions(cx: &Context) -> (Vec<Erratum>, BTreeMap<String, String>) {
    let mut out = Vec::new();
    let mut named = BTreeMap::new();
    for m in &cx.game.meta.mentions {
        let printed: Vec<&muster_model::Spanned<String>> = match &m.units {
            UnitsField::Printed(t) => vec![t],
            UnitsField::List(l) => l.iter().collect(),
        };
        for origin in printed {
            let items = parse_units(&origin.v, &cx.game.marks);
            for r in cx.resolver.resolve_items(&items, origin, &m.side.v) {
                if let Resolved::Unit { id, .. } = &r.to {
                    named.entry(id.clone()).or_insert_with(|| m.section.clone());
                }
                out.extend(item_findings(cx, &r, &m.side.v, &m.section, None));
            }
        }
    }
    (out, named)
}

/// The findings of one resolved printed item, in a scenario or not.
fn item_findings(
    cx: &Context,
    r: &Resolution,
    side: &str,
    section: &str,
    scenario: Option<&str>,
) -> Vec<Erratum> {
    let game = cx.game;
    let placed = |e: Erratum| match scenario {
        Some(sid) => e.scenario(sid),
        None => e,
    };
    let mut out = Vec::new();
    match &r.to {
        Resolved::Unknown { nearest } => {
            out.push(placed(unknown(cx, r, nearest, side, section)));
        }
        Resolved::Unit { id, differs_from, listed_under, by_type, .. } => {
            // In a scenario the word-for-word comparison reports how the name differs.
            if let (Some(m), None) = (differs_from, scenario) {
                out.push(placed(
                    Erratum::new(
                        game,
                        FindingKind::NameDiffers,
                        &r.printed,
                        format!("`{}` is printed `{m}` in the manifest", r.printed),
                        section,
                        r.span,
                    )
                    .expected(counter_ref(game, id, ""))
                    .suggestion(counter_ref(game, id, ""))
                    .sure(
                        Certainty::Likely,
                        "the only counter of the formation with this designation",
                    ),
                ));
            }
            if let Some(f) = listed_under {
                let (under, own) = crate::unit_messages::formation_names(
                    game,
                    f,
                    game.unit(id)
                        .and_then(|u| u.formation.as_deref())
                        .unwrap_or_default(),
                );
                out.push(placed(
                    Erratum::new(
                        game,
                        FindingKind::OtherFormation,
                        &r.printed,
                        crate::unit_messages::other_formation(game, &r.printed, f, id),
                        section,
                        r.span,
                    )
                    .expected(format!("a unit of {own}"))
                    .suggestion(counter_ref(game, id, ""))
                    .sure(
                        Certainty::Likely,
                        format!("no counter of {under} has this name"),
                    ),
                ));
            }
            if let Some(t) = by_type {
                out.push(placed(
                    Erratum::new(
                        game,
                        FindingKind::UnitByType,
                        &r.printed,
                        crate::unit_messages::by_type(
                            game,
                            &r.printed,
                            t,
                            &counter_ref(game, id, ""),
                        ),
                        section,
                        r.span,
                    )
                    .sure(
                        Certainty::Certain,
                        "the printed name is a type word of the game",
                    ),
                ));
            }
        }
        _ => {}
    }
    out
}

/// A printed unit that names no counter: a list run together, text that fits no form, or
/// a unit the manifest lacks, with the nearest counters.
fn unknown(
    cx: &Context,
    r: &Resolution,
    nearest: &[(String, String, f64)],
    side: &str,
    section: &str,
) -> Erratum {
    let game = cx.game;
    let new = |kind, message: String| {
        Erratum::new(game, kind, &r.printed, message, section, r.span)
    };
    if r.unparsed {
        return new(
            FindingKind::UnparsableList,
            format!("`{}` fits no form of the printed unit notation", r.printed),
        )
        .sure(Certainty::Certain, "the text reads as no unit, list label or count");
    }
    if let Some((a, b)) = missing_comma(cx.resolver, &r.printed, side) {
        let means = [&a, &b]
            .iter()
            .filter_map(|x| {
                cx.resolver.nearest(x, side).first().map(|(id, _, _)| id.clone())
            })
            .collect();
        return Erratum {
            means,
            ..new(
                FindingKind::UnparsableList,
                format!(
                    "`{}` reads as two units with a missing comma: `{a}` and `{b}`",
                    r.printed
                ),
            )
            .suggestion(format!("{a}, {b}"))
            .sure(Certainty::Certain, "both halves name counters of the manifest")
        };
    }
    match nearest.first() {
        Some((id, name, score)) => Erratum {
            means: if *score >= 0.85 { vec![id.clone()] } else { vec![] },
            ..new(
                FindingKind::UnknownUnit,
                format!(
                    "`{}` names no counter of the manifest; the nearest is `{name}`",
                    r.printed
                ),
            )
        }
        .suggestion(counter_ref(game, id, &format!("similarity {score:.2}")))
        .sure(
            if *score >= 0.85 { Certainty::Likely } else { Certainty::Possible },
            format!("the nearest counter `{name}` has a similarity of {score:.2}"),
        ),
        None => new(
            FindingKind::UnknownUnit,
            format!("`{}` names no counter of the manifest", r.printed),
        )
        .sure(Certainty::Possible, "no counter of the side is like it"),
    }
}

/// `4/10 BL 2 Cam-a`: two manifest names run together where a comma is missing.
fn missing_comma(
    resolver: &Resolver,
    printed: &str,
    side: &str,
) -> Option<(String, String)> {
    let words: Vec<&str> = printed.split_whitespace().collect();
    for k in 1..words.len() {
        let (a, b) = (words[..k].join(" "), words[k..].join(" "));
        let known = |x: &str| {
            resolver.nearest(x, side).first().is_some_and(|(_, n, s)| {
                *s >= 0.99 || normalise(n).starts_with(&format!("{} ", normalise(x)))
            })
        };
        if known(&a) && known(&b) {
            return Some((a, b));
        }
    }
    None
}

/// Everything validation finds but the unit references reported above: counters used
/// more often than the manifest has them, overstacked hexes, bad labels, locations no
/// form reads, units of the other side, undeclared marks and unknown entry areas. Items
/// that are no counter (`one German tank`) are no erratum: validation names them.
fn validation(cx: &Context, s: &Scenario) -> Vec<Erratum> {
    s.findings
        .iter()
        .filter(|f| {
            !matches!(
                f.kind,
                FindingKind::UnknownUnit
                    | FindingKind::NameDiffers
                    | FindingKind::TypeDiffers
                    | FindingKind::SizeDiffers
                    | FindingKind::OtherFormation
                    | FindingKind::UnitByType
                    | FindingKind::NotACounter
            )
        })
        .map(|f| {
            let (certainty, evidence) = evidence(f.kind, &f.rule, &f.message);
            Erratum::new(cx.game, f.kind, &f.subject, f.message.clone(), &f.rule, f.span)
                .scenario(s.id)
                .sure(certainty, evidence)
        })
        .collect()
}

/// Setup rows that print a location and no units.
fn rows_without_units(cx: &Context, s: &Scenario) -> Vec<Erratum> {
    s.placements
        .iter()
        .filter(|p| {
            p.units.items.is_empty()
                && p.units.printed.iter().all(|t| t.v.trim().is_empty())
        })
        .filter_map(|p| {
            let at = p.location_text.as_ref()?;
            Some(
                Erratum::new(
                    cx.game,
                    FindingKind::NoUnits,
                    &at.v,
                    format!("{} prints the location `{}` and no units", p.section, at.v),
                    &p.section,
                    at.span,
                )
                .scenario(s.id)
                .expected("the units that stand there")
                .sure(
                    Certainty::Certain,
                    "the row has a location and an empty unit list",
                ),
            )
        })
        .collect()
}

/// Units a setup row joins with ` - ` where the game's rules make them one stack
/// (`notation.joined_stacks`): each joined group checked against the stacking rules like
/// a printed hex, wherever in its area the row puts it. Reinforcements are not checked:
/// their rows join units that enter at different places.
fn joined_stacks(cx: &Context, s: &Scenario) -> Vec<Erratum> {
    let game = cx.game;
    let Some(section) = game.meta.notation.joined_stacks.as_deref() else {
        return vec![];
    };
    // A printed stack names no hex: rules that hold only in some terrains are not
    // checked on it.
    let mut rules = crate::solve::ruleset(game);
    rules.stacking.retain(|r| r.only_in.is_empty() && r.except_in.is_empty());
    let mut out = Vec::new();
    for (pi, p) in s.placements.iter().enumerate() {
        if p.kind != PlacementKind::Setup {
            continue;
        }
        let mut stacks: Vec<Vec<&Resolution>> = Vec::new();
        for r in s.solution.resolutions[pi].iter().filter(|r| r.parent.is_none()) {
            match stacks.last_mut() {
                Some(last) if r.joined => last.push(r),
                _ => stacks.push(vec![r]),
            }
        }
        for stack in stacks.iter().filter(|st| st.len() > 1) {
            let printed: Vec<&str> = stack.iter().map(|r| r.printed.as_str()).collect();
            let subject = printed.join(" - ");
            let label = format!("`{subject}`");
            let mut units = Vec::new();
            for r in stack {
                if let Resolved::Unit { id, .. } = &r.to {
                    for _ in 0..r.count {
                        units.extend(crate::solve::placed(game, id, units.len(), &label));
                    }
                }
            }
            for f in check_stacking(&rules, &Position { units }) {
                out.push(
                    Erratum::new(
                        game,
                        f.kind.into(),
                        &subject,
                        format!("the printed stack {}", f.message),
                        &f.rule,
                        stack[0].span,
                    )
                    .scenario(s.id)
                    .expected(format!("a stack within rule {}", f.rule))
                    .sure(
                        Certainty::Likely,
                        format!("{section} puts the units a setup row joins with ` - ` in one hex; rule {} counts them", f.rule),
                    ),
                );
            }
        }
    }
    out
}

/// How sure a validation finding of `kind` is, and what that rests on. What muster could
/// not check is no erratum: a zone or location it cannot turn into hexes, a limit after a
/// location, entry areas when no map names any.
fn evidence(kind: FindingKind, rule: &str, message: &str) -> (Certainty, String) {
    match kind {
        FindingKind::UnprintedZone
        | FindingKind::UnresolvedLocation
        | FindingKind::UncheckedLimit => (
            Certainty::Unchecked,
            "muster cannot tell which hexes the text means, so it checks nothing here"
                .to_string(),
        ),
        FindingKind::UnknownArea if message.contains("no map names any entry area") => (
            Certainty::Unchecked,
            "no map names an entry area, so muster checks none".to_string(),
        ),
        FindingKind::Overstack => (
            Certainty::Certain,
            format!("the line names one hex; rule {rule} counts its units"),
        ),
        FindingKind::BadHex => (
            Certainty::Certain,
            "the label does not parse or lies off the map".to_string(),
        ),
        FindingKind::ListedTwice | FindingKind::SetupAndReinforcement => (
            Certainty::Likely,
            "the same counter resolved from two printed items".to_string(),
        ),
        FindingKind::OtherSide => (
            Certainty::Likely,
            "no counter of the listing side has this name; one of the other side has"
                .to_string(),
        ),
        _ => (
            Certainty::Certain,
            "the printed text and the game data disagree".to_string(),
        ),
    }
}

/// The printed strengths of a divided unit that no permitted division gives.
fn split_strengths(cx: &Context, s: &Scenario) -> Vec<Erratum> {
    let game = cx.game;
    let splits = &game.rules.strength_splits;
    if splits.is_empty() {
        return vec![];
    }
    let mut strengths: BTreeMap<(String, String), Vec<(String, Span)>> = BTreeMap::new();
    for p in &s.placements {
        for item in &p.units.items {
            if let Some(st) = &item.strength {
                strengths
                    .entry((p.section.clone(), item.name.clone()))
                    .or_default()
                    .push((
                        st.clone(),
                        p.units.printed.first().map_or(Span::detached(), |x| x.span),
                    ));
            }
        }
    }
    let mut out = Vec::new();
    for ((section, name), list) in strengths.into_iter().filter(|(_, l)| l.len() > 1) {
        let got: Vec<&str> = list.iter().map(|(s, _)| s.as_str()).collect();
        let fits = splits.iter().any(|sp| {
            sp.parts.iter().all(|p| got.contains(&p.as_str()))
                && got.len() == sp.parts.len()
        });
        if fits {
            continue;
        }
        // The division that has the first printed part, else any sharing one.
        let near =
            splits.iter().find(|sp| sp.parts.iter().any(|p| p == got[0])).or_else(|| {
                splits
                    .iter()
                    .find(|sp| sp.parts.iter().any(|p| got.contains(&p.as_str())))
            });
        let bad = near
            .and_then(|sp| got.iter().find(|g| !sp.parts.iter().any(|p| p == **g)))
            .copied()
            .unwrap_or(got[0]);
        let span = list.iter().find(|(s, _)| s == bad).map_or(Span::detached(), |x| x.1);
        let mut e = Erratum::new(
            game,
            FindingKind::SplitStrength,
            format!("{name} [{bad}]"),
            format!(
                "{name} is set up as {} in {section}, which no permitted division gives",
                got.join(" and ")
            ),
            near.map_or("", |sp| sp.section.as_str()),
            span,
        )
        .scenario(s.id)
        .sure(
            Certainty::Certain,
            format!("the printed parts {} match no listed division", got.join(" and ")),
        );
        if let Some(sp) = near {
            e = e.expected(format!(
                "{} divides into {}",
                sp.full,
                sp.parts.join(" and ")
            ));
        }
        out.push(e);
    }
    out
}
