//! Counters listed under an unexpected side or nationality: a counter whose nationality
//! belongs to another side than the one it is listed under, or whose side is not its
//! formation's, and a counter of a national formation whose nationality is another.
//!
//! A nationality of its own is how the data records an attachment the rulebook prints: a
//! mark printed with the name (SCS 16.1.3's `7 RTR Arm Bn (Brit)` under the 1st South
//! African Division), or the counter's own `nationality:` given with a `note` or an
//! `assumed` reason (Gazala 1942's `3 (I)` with the 7th Armoured Division). Those are not
//! reported, and neither are units of a grouping of independents, which gathers units by
//! command, not by nation.

use muster_model::notation::parse_units;
use muster_model::{Certainty, FindingKind, Unit};

use super::{Context, Erratum};

/// Both checks, one finding per counter: a side at odds is reported as such, not again as
/// a nationality.
pub(crate) fn check(cx: &Context) -> Vec<Erratum> {
    let game = cx.game;
    let mut out = Vec::new();
    for u in game.units.iter().filter(|u| !u.side.is_empty()) {
        if let Some(e) = unexpected_side(cx, u) {
            out.push(e);
        } else if let Some(e) = unexpected_nationality(cx, u) {
            out.push(e);
        }
    }
    out
}

/// The side a nationality belongs to.
fn side_of<'g>(cx: &Context<'g>, nationality: &str) -> Option<&'g str> {
    cx.game
        .meta
        .nationalities
        .iter()
        .find(|n| n.id.v == nationality)
        .map(|n| n.side.v.as_str())
}

/// The printed name of a side.
fn side_name(cx: &Context, side: &str) -> String {
    cx.game
        .meta
        .sides
        .iter()
        .find(|s| s.id.v == side)
        .map_or_else(|| side.to_string(), |s| s.name.clone())
}

/// The printed name of a nationality.
fn nationality_name(cx: &Context, nationality: &str) -> String {
    cx.game
        .meta
        .nationalities
        .iter()
        .find(|n| n.id.v == nationality)
        .map_or_else(|| nationality.to_string(), |n| n.name.clone())
}

/// The other counters of a unit's formation, or, for a unit in none, of its manifest
/// section and side.
fn peers<'g>(cx: &Context<'g>, u: &Unit) -> Vec<&'g Unit> {
    cx.game
        .units
        .iter()
        .filter(|p| p.id != u.id)
        .filter(|p| match &u.formation {
            Some(f) => p.formation.as_ref() == Some(f),
            None => p.formation.is_none() && p.section == u.section && p.side == u.side,
        })
        .collect()
}

/// `likely` where every other counter of its formation agrees with what is expected of it,
/// `possible` otherwise.
fn by_peers(u: &Unit, agree: usize, of: usize, what: &str) -> (Certainty, String) {
    let whose = if u.formation.is_some() {
        "its formation"
    } else {
        "its section of the manifest"
    };
    if of > 0 && agree == of {
        (Certainty::Likely, format!("the {of} other counters of {whose} are all {what}"))
    } else {
        (
            Certainty::Possible,
            format!("{agree} of the {of} other counters of {whose} are {what}"),
        )
    }
}

/// A counter listed under a side its nationality belongs not to, or that is not its
/// formation's.
fn unexpected_side(cx: &Context, u: &Unit) -> Option<Erratum> {
    let game = cx.game;
    let formation = u.formation.as_deref().and_then(|f| game.formation(f));
    // Against its formation, the formation's side is expected, as the other counters of
    // the formation have it; against its nationality, the side it is listed under, as
    // the other counters of its formation have it with nationalities of that side.
    let (expected, because, nationality) = match formation {
        Some(f) if f.side != u.side => {
            (f.side.as_str(), format!("its formation {} is", f.printed.v), None)
        }
        _ => {
            let n = u.nationality.as_deref()?;
            let side = side_of(cx, n)?;
            if side == u.side {
                return None;
            }
            (side, format!("its nationality, {}, is", nationality_name(cx, n)), Some(n))
        }
    };
    let peers = peers(cx, u);
    let (agree, what) = match nationality {
        None => (
            peers.iter().filter(|p| p.side == expected).count(),
            format!("of the {} side", side_name(cx, expected)),
        ),
        Some(_) => (
            peers
                .iter()
                .filter(|p| {
                    p.side == u.side
                        && p.nationality.as_deref().and_then(|n| side_of(cx, n))
                            == Some(u.side.as_str())
                })
                .count(),
            format!("of the {} side and of its nationalities", side_name(cx, &u.side)),
        ),
    };
    let (certainty, evidence) = by_peers(u, agree, peers.len(), &what);
    // A side given to a group of counters against their formation's is one erratum.
    let key = match (formation, nationality) {
        (Some(f), None) => format!("{}\u{1f}{}", f.id, u.side),
        _ => format!("{}\u{1f}{}", u.id, u.side),
    };
    Some(
        Erratum::new(
            game,
            FindingKind::UnexpectedSide,
            &u.printed.v,
            format!(
                "`{}` is listed under the {} side, but {because} of the {} side",
                u.printed.v,
                side_name(cx, &u.side),
                side_name(cx, expected)
            ),
            u.section.as_deref().unwrap_or_default(),
            u.printed.span,
        )
        .expected(format!("a counter of the {} side", side_name(cx, expected)))
        .suggestion(super::counter_ref(
            game,
            &u.id,
            &format!("{} side", side_name(cx, expected)),
        ))
        .sure(certainty, evidence)
        .key(key),
    )
}

/// A counter of a national formation with another nationality, which no mark, note or
/// reason of the data explains.
fn unexpected_nationality(cx: &Context, u: &Unit) -> Option<Erratum> {
    let game = cx.game;
    let f = game.formation(u.formation.as_deref()?)?;
    let (own, theirs) = (u.nationality.as_deref()?, f.nationality.as_deref()?);
    if own == theirs || f.independent || recorded(cx, u) {
        return None;
    }
    let peers = peers(cx, u);
    let agree = peers.iter().filter(|p| p.nationality.as_deref() == Some(theirs)).count();
    let theirs_name = nationality_name(cx, theirs);
    let (certainty, evidence) =
        by_peers(u, agree, peers.len(), &format!("of {theirs_name}"));
    Some(
        Erratum::new(
            game,
            FindingKind::UnexpectedNationality,
            &u.printed.v,
            format!(
                "the nationality of `{}` is {}, but it is listed in {} ({}), a formation of {}, and no mark, note or reason of the data says why",
                u.printed.v,
                nationality_name(cx, own),
                f.printed.v,
                f.section.as_deref().unwrap_or_default(),
                theirs_name
            ),
            u.section.as_deref().unwrap_or_default(),
            u.printed.span,
        )
        .expected(format!("a counter of {theirs_name}, or the attachment recorded"))
        .suggestion(super::counter_ref(game, &u.id, &format!("of {theirs_name}")))
        .sure(certainty, evidence),
    )
}

/// Does the data record why the counter's nationality is its own: a nationality mark
/// printed with its name, or a note or an assumed nationality?
fn recorded(cx: &Context, u: &Unit) -> bool {
    let marked = parse_units(&u.printed.v, &cx.game.marks)
        .first()
        .is_some_and(|i| i.nationality.is_some());
    marked || u.note.is_some() || u.assumed.contains_key("nationality")
}
