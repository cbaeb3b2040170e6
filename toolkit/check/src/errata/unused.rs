//! Counters no scenario uses.

use std::collections::BTreeMap;

use muster_model::{Certainty, FindingKind};

use super::{Context, Erratum};

/// Counters that no printed setup, reinforcement or group names.
pub(crate) fn check(
    cx: &Context,
    used: &BTreeMap<String, u32>,
    _found: &[Erratum],
) -> Vec<Erratum> {
    let game = cx.game;
    if game.scenarios.is_empty() {
        return vec![];
    }
    game.units
        .iter()
        .filter(|u| !used.contains_key(&u.id))
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
