//! Placement: a position compared with a scenario's setup. A counter standing outside the
//! hexes its printed setup line allows, a reinforcement on the map before its turn, a
//! counter in a holding box it does not start in, and a counter the setup has that is not
//! there.

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::stacking::{Finding, Position, RuleKind};
use crate::turn::Turn;

/// Where one counter may stand at the start of a scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Allowed {
    /// Hex labels of the region its setup lines give (shared by the counters a line
    /// places: a region of many hexes is held once).
    pub hexes: Arc<[String]>,
    /// The printed locations of those lines (`w/i 2 of A55.15`).
    pub printed: Vec<String>,
    /// Rule section of the first line.
    pub rule: String,
    /// Where each copy of it starts in the scenario's setup, one entry per copy. Empty in
    /// rulesets written before starts were recorded: such counters are only checked
    /// against `hexes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub starts: Vec<Start>,
}

/// Where one copy of a counter starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Start {
    /// The holding box it starts in; none when it starts on a hex.
    #[serde(rename = "box", default, skip_serializing_if = "Option::is_none")]
    pub holding: Option<String>,
    /// Its printed line sets it up on the map (even if the setup could not place it and
    /// left it in a box).
    pub on_map: bool,
    /// For a reinforcement: the turn it arrives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<Turn>,
    /// Where the setup puts it, in words: the printed location or the box.
    pub place: String,
    /// Rule section of its line.
    pub rule: String,
    /// The strength the scenario starts it with where that is not its counter's own
    /// (`17`, `2-0-7`), as its strength label shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
}

/// The message of the counter `name` standing in `hex`, outside what its setup `says` (the
/// printed locations of its lines, joined by `` ` or ` ``).
pub fn setup_message(name: &str, hex: &str, says: &str) -> String {
    format!("{name} stands in {hex}, but its setup says `{says}`")
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
            kind: RuleKind::Setup,
            rule: a.rule.clone(),
            location: at.location.clone(),
            units: vec![at.name.clone()],
            message: setup_message(&at.name, &at.location, &a.printed.join("` or `")),
        });
    }
    out
}

/// Where a piece of a position is.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// On a hex of the board.
    #[default]
    Hex,
    /// In a holding box, or anywhere else on a map that is not a hex.
    Box,
    /// In a deck (a cup of chits, a pile of cards), named by `location`.
    Deck,
    /// On no map.
    Nowhere,
}

/// One counter of a position, for the comparison with the setup.
#[derive(Debug, Clone, Copy)]
pub struct Stand<'a> {
    /// Counter id.
    pub unit: &'a str,
    /// Printed name.
    pub name: &'a str,
    /// Hex label or box name.
    pub location: &'a str,
    /// Where it is.
    pub standing: Standing,
    /// The strength its label shows, when it has a strength label.
    pub strength: Option<&'a str>,
}

/// A difference between a position and the setup, with its kind: `early-reinforcement`,
/// `outside-setup`, `wrong-box`, `missing` or `wrong-strength`.
pub type Difference = (&'static str, Finding);

fn arrived(s: &Start, turn: Option<&Turn>) -> bool {
    match (s.arrives.as_ref().and_then(|a| a.number), turn.and_then(|t| t.number)) {
        (Some(due), Some(now)) => due <= now,
        _ => false,
    }
}

fn take(starts: &mut Vec<&Start>, pick: impl Fn(&Start) -> bool) -> Option<Start> {
    let k = starts.iter().position(|s| pick(s))?;
    Some(starts.remove(k).clone())
}

/// Compares every counter of a position with where the setup starts it. Counters on a hex
/// match starts on the map (their hexes are `check_placement`'s business) or reinforcements
/// that have arrived by `turn`; counters in a box match starts in that box. What is left
/// is a difference: a reinforcement on a hex before its turn, a counter on a hex that
/// starts in a box, a counter in a box or deck it does not start in, a counter on no map,
/// and, when `complete` says the position holds every piece of the game, a start no
/// counter fills. A counter that fills a start with a strength and whose label shows
/// another is a difference too. Counters without starts (not in the setup, or from an
/// older ruleset) are not compared, nor copies beyond the setup's.
pub fn compare_setup(
    allowed: &BTreeMap<String, Allowed>,
    stands: &[Stand],
    turn: Option<&Turn>,
    complete: bool,
) -> Vec<Difference> {
    let mut by_unit: BTreeMap<&str, Vec<&Stand>> = BTreeMap::new();
    for s in stands {
        by_unit.entry(s.unit).or_default().push(s);
    }
    let mut out = Vec::new();
    for (unit, a) in allowed.iter().filter(|(_, a)| !a.starts.is_empty()) {
        let pieces = by_unit.remove(unit.as_str()).unwrap_or_default();
        let mut starts: Vec<&Start> = a.starts.iter().collect();
        let mut left = Vec::new();
        // Counters where the setup has them, or where they may be by now.
        for p in pieces {
            let fits = match p.standing {
                Standing::Box | Standing::Deck => {
                    take(&mut starts, |s| s.holding.as_deref() == Some(p.location))
                }
                Standing::Hex => take(&mut starts, |s| s.on_map && s.holding.is_none())
                    .or_else(|| take(&mut starts, |s| s.on_map))
                    .or_else(|| take(&mut starts, |s| arrived(s, turn))),
                _ => None,
            };
            match fits {
                Some(s) => out.extend(wrong_strength(p, &s)),
                None => left.push(p),
            }
        }
        for p in left {
            let Some(s) = take(&mut starts, |s| s.arrives.is_some() && !arrived(s, turn))
                .filter(|_| p.standing == Standing::Hex)
                .or_else(|| take(&mut starts, |_| true))
            else {
                continue;
            };
            out.push(difference(p, &s, turn));
        }
        if complete {
            for s in starts {
                let name = stands
                    .iter()
                    .find(|p| p.unit == unit)
                    .map_or(unit.as_str(), |p| p.name);
                out.push((
                    "missing",
                    Finding {
                        kind: RuleKind::Setup,
                        rule: s.rule.clone(),
                        location: s.place.clone(),
                        units: vec![name.to_string()],
                        message: format!(
                            "{name} is not in the game; its setup {}",
                            where_it_starts(s)
                        ),
                    },
                ));
            }
        }
    }
    out
}

/// A counter whose strength label shows another strength than its start gives it.
fn wrong_strength(p: &Stand, s: &Start) -> Option<Difference> {
    let (Some(want), Some(shows)) = (&s.strength, p.strength) else { return None };
    (want != shows).then(|| {
        (
            "wrong-strength",
            Finding {
                kind: RuleKind::Setup,
                rule: s.rule.clone(),
                location: p.location.to_string(),
                units: vec![p.name.to_string()],
                message: format!(
                    "{} shows strength {shows}, but the scenario starts it at {want}",
                    p.name
                ),
            },
        )
    })
}

/// `places it at `w/i 2 of 2403`` or `puts it in Reinforcements: turn 28 May`.
fn where_it_starts(s: &Start) -> String {
    match (&s.holding, s.on_map) {
        (None, _) => format!("places it at `{}`", s.place),
        (Some(b), _) => match &s.arrives {
            Some(t) => format!("puts it in {b}, to arrive on turn {}", t.printed),
            None => format!("puts it in {b}"),
        },
    }
}

fn difference(p: &Stand, s: &Start, turn: Option<&Turn>) -> Difference {
    let finding = |message: String| Finding {
        kind: RuleKind::Setup,
        rule: s.rule.clone(),
        location: p.location.to_string(),
        units: vec![p.name.to_string()],
        message,
    };
    let name = p.name;
    match p.standing {
        Standing::Hex => match &s.arrives {
            Some(t) => {
                let now = turn.map(|n| format!(" and the game is at turn {}", n.printed));
                (
                    "early-reinforcement",
                    finding(format!(
                        "{name} stands in {}, but it is a reinforcement that arrives on turn {}{}; until then it belongs in {}",
                        p.location,
                        t.printed,
                        now.unwrap_or_default(),
                        s.holding.as_deref().unwrap_or("its holding box"),
                    )),
                )
            }
            None => (
                "outside-setup",
                finding(format!(
                    "{name} stands in {}, but its setup {}",
                    p.location,
                    where_it_starts(s)
                )),
            ),
        },
        Standing::Box | Standing::Deck => (
            "wrong-box",
            finding(format!(
                "{name} is in {}, a {} it does not start in; its setup {}",
                p.location,
                if p.standing == Standing::Box { "box" } else { "deck" },
                where_it_starts(s)
            )),
        ),
        Standing::Nowhere => (
            "missing",
            Finding {
                location: s.place.clone(),
                ..finding(format!(
                    "{name} is on no map; its setup {}",
                    where_it_starts(s)
                ))
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(holding: Option<&str>, on_map: bool, arrives: Option<(&str, u32)>) -> Start {
        Start {
            holding: holding.map(str::to_string),
            on_map,
            arrives: arrives.map(|(p, n)| Turn { printed: p.into(), number: Some(n) }),
            place: holding.unwrap_or("w/i 1 of 0101").to_string(),
            rule: "13.1".into(),
            strength: None,
        }
    }

    fn turn(n: u32) -> Option<Turn> {
        Some(Turn { printed: n.to_string(), number: Some(n) })
    }

    fn allowed(starts: Vec<Start>) -> Allowed {
        Allowed { starts, ..Allowed::default() }
    }

    fn at<'a>(unit: &'a str, location: &'a str, standing: Standing) -> Stand<'a> {
        Stand { unit, name: unit, location, standing, strength: None }
    }

    #[test]
    fn a_counter_showing_another_strength_than_its_start_is_a_difference() {
        let mut s = start(None, true, None);
        s.strength = Some("17".into());
        let a: BTreeMap<String, Allowed> =
            [("a-ah".to_string(), allowed(vec![s]))].into_iter().collect();
        let with = |strength| Stand { strength, ..at("a-ah", "B32.10", Standing::Hex) };
        assert!(compare_setup(&a, &[with(Some("17"))], None, true).is_empty());
        // A module without strength labels shows none: nothing to compare.
        assert!(compare_setup(&a, &[with(None)], None, true).is_empty());
        let d = compare_setup(&a, &[with(Some("16"))], None, true);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].0, "wrong-strength");
        assert_eq!(
            d[0].1.message,
            "a-ah shows strength 16, but the scenario starts it at 17"
        );
        assert_eq!(d[0].1.location, "B32.10");
    }

    #[test]
    fn a_position_as_set_up_has_no_difference() {
        let a: BTreeMap<String, Allowed> = [
            ("a".to_string(), allowed(vec![start(None, true, None)])),
            (
                "r".to_string(),
                allowed(vec![start(
                    Some("Reinforcements: turn 3"),
                    false,
                    Some(("3", 3)),
                )]),
            ),
            ("n".to_string(), allowed(vec![start(Some("Not placed"), true, None)])),
        ]
        .into();
        let as_set_up = [
            at("a", "0101", Standing::Hex),
            at("r", "Reinforcements: turn 3", Standing::Box),
            at("n", "Not placed", Standing::Box),
        ];
        assert!(compare_setup(&a, &as_set_up, turn(1).as_ref(), true).is_empty());
        // A counter the setup could not place may still be put on its hexes.
        let placed = [as_set_up[0], as_set_up[1], at("n", "0102", Standing::Hex)];
        assert!(compare_setup(&a, &placed, turn(1).as_ref(), true).is_empty());
        // A reinforcement on the map on or after its turn has arrived.
        let arrived = [as_set_up[0], at("r", "0105", Standing::Hex), as_set_up[2]];
        assert!(compare_setup(&a, &arrived, turn(3).as_ref(), true).is_empty());
        let kinds = |found: Vec<Difference>| {
            found.into_iter().map(|(k, f)| (k, f.location)).collect::<Vec<_>>()
        };
        assert_eq!(
            kinds(compare_setup(&a, &arrived, turn(2).as_ref(), true)),
            [("early-reinforcement", "0105".to_string())]
        );
        assert_eq!(
            kinds(compare_setup(&a, &arrived, None, true)),
            [("early-reinforcement", "0105".to_string())]
        );
    }

    #[test]
    fn each_difference_names_the_counter_and_where_it_should_be() {
        let a: BTreeMap<String, Allowed> = [
            ("a".to_string(), allowed(vec![start(None, true, None)])),
            ("b".to_string(), allowed(vec![start(None, true, None)])),
            ("g".to_string(), allowed(vec![start(Some("Replacements"), false, None)])),
            (
                "c".to_string(),
                allowed(vec![start(None, true, None), start(None, true, None)]),
            ),
            ("d".to_string(), allowed(vec![start(None, true, None)])),
        ]
        .into();
        let position = [
            at("a", "Dead units", Standing::Box),
            at("g", "0203", Standing::Hex),
            at("c", "0101", Standing::Hex),
            at("d", "", Standing::Nowhere),
            at("x", "0101", Standing::Hex),
            at("b", "Cup", Standing::Deck),
        ];
        let found = compare_setup(&a, &position, turn(1).as_ref(), true);
        let got: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|(k, f)| (*k, f.units[0].as_str(), f.location.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("wrong-box", "a", "Dead units"),
                ("wrong-box", "b", "Cup"),
                ("missing", "c", "w/i 1 of 0101"),
                ("missing", "d", "w/i 1 of 0101"),
                ("outside-setup", "g", "0203"),
            ]
        );
        assert!(
            found[0].1.message.contains(
                "a box it does not start in; its setup places it at `w/i 1 of 0101`"
            ),
            "{}",
            found[0].1.message
        );
        assert!(
            found[4].1.message.contains("its setup puts it in Replacements"),
            "{}",
            found[4].1.message
        );
        // Without the whole game, what is not there is not missing.
        assert_eq!(compare_setup(&a, &position, turn(1).as_ref(), false).len(), 4);
    }
}
