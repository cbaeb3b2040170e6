//! The lists against the text: numbers the rulebook states, where its tables stop short,
//! and printed statements that contradict each other.

use muster_model::source::{Comparison, Contradiction, FeatureKind, StatedCount};
use muster_model::{Certainty, FindingKind, PlacementKind};

use super::{Context, Erratum, Scenario};

/// Stated counts, gaps and contradictions of every scenario and of the game.
pub(crate) fn check(cx: &Context) -> Vec<Erratum> {
    let game = cx.game;
    let mut out = Vec::new();
    for s in &cx.scenarios {
        let Some(file) = cx.file(s.id) else { continue };
        for c in &file.stated_counts {
            out.extend(stated(cx, s, c, file.incomplete.is_some()));
        }
        if let Some(gap) = &file.incomplete {
            out.push(
                Erratum::new(
                    game,
                    FindingKind::Incomplete,
                    &file.title,
                    format!("the printed scenario stops short: {}", gap.v),
                    &file.section,
                    gap.span,
                )
                .scenario(s.id)
                .sure(
                    Certainty::Certain,
                    "recorded in the data where the printed text stops",
                ),
            );
        }
        for t in &file.tables {
            if let Some(gap) = &t.incomplete {
                out.push(
                    Erratum::new(
                        game,
                        FindingKind::Incomplete,
                        &t.title,
                        format!("the printed table stops short: {}", gap.v),
                        &t.section,
                        gap.span,
                    )
                    .scenario(s.id)
                    .sure(
                        Certainty::Certain,
                        "recorded in the data where the table stops",
                    ),
                );
            }
        }
        for c in &file.contradictions {
            out.push(contradiction(cx, c, Some(s.id)));
        }
    }
    let gaps = [
        ("order of battle", "", game.oob.incomplete.as_ref()),
        ("manifest", "", game.counters.incomplete.as_ref()),
    ];
    let tables = game
        .meta
        .tables
        .iter()
        .map(|t| ("table", t.section.as_str(), t.incomplete.as_ref()));
    for (what, section, gap) in gaps.into_iter().chain(tables) {
        if let Some(gap) = gap {
            // What the manifest's gap leaves unchecked.
            let unchecked = if what == "manifest" {
                super::chits::unchecked(cx)
            } else {
                String::new()
            };
            out.push(
                Erratum::new(
                    game,
                    FindingKind::Incomplete,
                    what,
                    format!("the printed {what} stops short: {}{unchecked}", gap.v),
                    section,
                    gap.span,
                )
                .sure(
                    Certainty::Certain,
                    "recorded in the data where the printed text stops",
                ),
            );
        }
    }
    for c in &game.meta.contradictions {
        out.push(contradiction(cx, c, None));
    }
    out
}

/// How many of what a stated count counts the lists give, when muster can count it.
fn actual(cx: &Context, s: &Scenario, c: &StatedCount) -> Option<usize> {
    let game = cx.game;
    let setup = |u: &&crate::solve::SolvedUnit| {
        s.placements[u.placement].kind == PlacementKind::Setup
    };
    if c.what == "victory-hexes" {
        Some(
            game.maps
                .iter()
                .flat_map(|m| &m.features)
                .filter(|f| f.kind == FeatureKind::VictoryHex && f.section == c.section)
                .count(),
        )
    } else if let Some(f) = c.what.strip_prefix("formation:") {
        Some(
            game.units
                .iter()
                .filter(|u| {
                    u.formation.as_deref() == Some(f)
                        && u.section.as_deref() == Some(c.section.as_str())
                })
                .count(),
        )
    } else if let Some(side) = c.what.strip_prefix("setup:") {
        Some(s.solution.units.iter().filter(|u| u.side == side).filter(setup).count())
    } else if let Some(t) = c.what.strip_prefix("type:") {
        let of_type = |u: &&crate::solve::SolvedUnit| {
            game.unit(&u.unit).and_then(|x| x.unit_type.as_deref()) == Some(t)
        };
        Some(s.solution.units.iter().filter(of_type).filter(setup).count())
    } else {
        c.what.strip_prefix("placed:").map(|name| {
            s.solution.units.iter().filter(|u| u.name == name).filter(setup).count()
        })
    }
}

/// The forms of `what` a stated count may take, as a report names them.
const COUNTED: &str =
    "`victory-hexes`, `formation:<id>`, `placed:<name>`, `type:<id>`, `setup:<side>`";

/// A stated count the lists contradict; information where the list stops short, or where
/// it counts nothing muster can count, so that the number is seen to go unchecked.
fn stated(
    cx: &Context,
    s: &Scenario,
    c: &StatedCount,
    incomplete: bool,
) -> Option<Erratum> {
    let Some(n) = actual(cx, s, c) else {
        return Some(uncounted(cx, s, c));
    };
    let contradicts = match c.compare {
        Comparison::Exactly => n as u32 != c.count,
        Comparison::AtLeast => (n as u32) < c.count,
    };
    if !contradicts {
        return None;
    }
    // Where the list stops short or is not printed at all, the gap is recorded in the
    // data rather than an inconsistency of the rulebook.
    let short = n == 0 || incomplete;
    let (kind, certainty, evidence) = if short {
        (
            FindingKind::CountIncomplete,
            Certainty::Certain,
            "the list the number counts stops short or is not printed",
        )
    } else {
        (FindingKind::CountMismatch, Certainty::Certain, "the printed lists are complete")
    };
    let (expected, message) = match c.compare {
        Comparison::Exactly => (
            c.count.to_string(),
            format!("the text states {} ({}) but the lists give {n}", c.count, c.what),
        ),
        Comparison::AtLeast => (
            format!("at least {}", c.count),
            format!(
                "the text needs at least {} ({}) but the lists give {n}",
                c.count, c.what
            ),
        ),
    };
    Some(
        Erratum::new(cx.game, kind, &c.quote.v, message, &c.section, c.quote.span)
            .scenario(s.id)
            .expected(expected)
            .sure(certainty, evidence),
    )
}

/// A stated count whose `what` names no list muster counts: information that it is not
/// checked, and what is.
fn uncounted(cx: &Context, s: &Scenario, c: &StatedCount) -> Erratum {
    Erratum::new(
        cx.game,
        FindingKind::CountIncomplete,
        &c.quote.v,
        format!(
            "the text states {} ({}), which no list muster reads counts, so it is not checked; muster counts {COUNTED}",
            c.count, c.what
        ),
        &c.section,
        c.quote.span,
    )
    .scenario(s.id)
    .expected(c.count.to_string())
    .sure(Certainty::Certain, "the data names what it counts in no form muster counts")
}

/// Printed statements that disagree, as the data records them: the subject is the first
/// statement, and the message gives them all with the reading the data follows.
fn contradiction(cx: &Context, c: &Contradiction, scenario: Option<&str>) -> Erratum {
    let said: Vec<String> = c
        .statements
        .iter()
        .map(|st| format!("{} says \"{}\"", st.section, st.quote))
        .collect();
    let first = c.statements.first();
    let mut e = Erratum::new(
        cx.game,
        FindingKind::Contradiction,
        first.map_or(c.what.v.as_str(), |st| st.quote.as_str()),
        format!(
            "the rulebook disagrees with itself on {}: {}; {}",
            c.what.v,
            said.join("; "),
            c.note
        ),
        first.map_or("", |st| st.section.as_str()),
        c.what.span,
    )
    .sure(Certainty::Certain, "printed statements that cannot all hold");
    if let Some(st) = c.statements.get(1) {
        e = e.expected(format!("{}: {}", st.section, st.quote));
    }
    if let Some(sid) = scenario {
        e = e.scenario(sid);
    }
    e
}
