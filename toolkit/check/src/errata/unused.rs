//! Counters no scenario uses.
//!
//! A counter a misprinted line names (the nearest counter of an `unknown-unit` finding) is
//! used by that line, so the misprint is reported once, not again as an unused counter,
//! and so is the HQ of a chit that no scenario places (a `chit-without-unit` finding).
//! A game that prints no placements at all has nothing to compare with, and where a
//! printed setup stops short a counter may be in the part not printed: both are said once,
//! not counter by counter.

use std::collections::BTreeMap;

use muster_model::{Certainty, FindingKind, Unit};

use super::{Context, Erratum, Place};

/// `; the rules bring in `2/361` (10.5.1), …`, or nothing.
fn rules_bring_in(cx: &Context, by_rule: &BTreeMap<String, String>) -> String {
    let named: Vec<String> = by_rule
        .iter()
        .filter_map(|(id, section)| {
            cx.game.unit(id).map(|u| format!("`{}` ({section})", u.printed.v))
        })
        .collect();
    if named.is_empty() {
        String::new()
    } else {
        format!("; the rules bring in {}", named.join(", "))
    }
}

/// Counters that no printed setup, reinforcement or group names, nor the rules bring in
/// (`mentioned`: counter id → the section of the rule that names it).
pub(crate) fn check(
    cx: &Context,
    used: &BTreeMap<String, u32>,
    mentioned: &BTreeMap<String, String>,
    found: &[Erratum],
) -> Vec<Erratum> {
    let game = cx.game;
    if cx.scenarios.iter().all(|s| s.placements.is_empty()) {
        return vec![];
    }
    let misprinted: Vec<&str> =
        found.iter().flat_map(|e| e.means.iter().map(String::as_str)).collect();
    let unused: Vec<&Unit> = game
        .units
        .iter()
        .filter(|u| {
            !used.contains_key(&u.id)
                && !misprinted.contains(&u.id.as_str())
                && !mentioned.contains_key(&u.id)
        })
        .collect();
    let short: Vec<(&str, &str)> = game
        .scenarios
        .iter()
        .filter_map(|s| {
            s.incomplete.as_ref().map(|_| (s.title.as_str(), s.section.as_str()))
        })
        .collect();
    if !short.is_empty() && unused.len() > 1 {
        return vec![stopped_short(cx, &unused, &short, mentioned)];
    }
    unused
        .into_iter()
        .map(|u| {
            Erratum::new(
                game,
                FindingKind::Unused,
                &u.printed.v,
                format!("no scenario uses `{}`", u.printed.v),
                u.section.as_deref().unwrap_or_default(),
                u.printed.span,
            )
            .sure(Certainty::Possible, "no printed line names it")
        })
        .collect()
}

/// The counters no line uses, once, where a printed setup stops short, and those the
/// rules bring in.
fn stopped_short(
    cx: &Context,
    unused: &[&Unit],
    short: &[(&str, &str)],
    by_rule: &BTreeMap<String, String>,
) -> Erratum {
    let names: Vec<String> =
        unused.iter().map(|u| format!("`{}`", u.printed.v)).collect();
    let scenarios: Vec<String> =
        short.iter().map(|(title, section)| format!("{title} ({section})")).collect();
    let first = unused[0];
    let mut e = Erratum::new(
        cx.game,
        FindingKind::Unused,
        format!("{} counters", unused.len()),
        format!(
            "no printed line uses {} counters: {}; the printed setup of {} {} short, so they may stand in what is not printed",
            unused.len(),
            names.join(", "),
            scenarios.join(", "),
            if scenarios.len() == 1 { "stops" } else { "stop" }
        ) + &rules_bring_in(cx, by_rule),
        first.section.as_deref().unwrap_or_default(),
        first.printed.span,
    )
    .sure(
        Certainty::Possible,
        "no printed line names them, and a setup the data marks incomplete may hold them",
    );
    e.also = unused[1..]
        .iter()
        .map(|u| Place {
            span: u.printed.span,
            scenario: None,
            section: u.section.clone().unwrap_or_default(),
        })
        .collect();
    e
}
