//! Placement: a counter standing outside the hexes its printed setup line allows.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::stacking::{Finding, Position};

/// Where one counter may stand at the start of a scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Allowed {
    /// Hex labels of the region its setup lines give.
    pub hexes: Vec<String>,
    /// The printed locations of those lines (`w/i 2 of A55.15`).
    pub printed: Vec<String>,
    /// Rule section of the first line.
    pub rule: String,
}

/// Every counter of `position` that stands on a hex outside its allowed region. Counter
/// ids may carry a copy suffix (`id#2`); counters with no entry are not checked.
pub fn check_placement(
    allowed: &BTreeMap<String, Allowed>,
    position: &Position,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for at in &position.units {
        let base = at.id.split('#').next().unwrap_or_default();
        let Some(a) = allowed.get(base) else { continue };
        if a.hexes.is_empty() || a.hexes.contains(&at.location) {
            continue;
        }
        out.push(Finding {
            rule: a.rule.clone(),
            location: at.location.clone(),
            units: vec![at.name.clone()],
            message: format!(
                "{} stands in {}, but its setup says `{}`",
                at.name,
                at.location,
                a.printed.join("` or `")
            ),
        });
    }
    out
}
