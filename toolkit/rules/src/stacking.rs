//! Applying stacking rules to a position.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::language::{
    Category, Filter, Limit, OpposingUnits, Points, Ruleset, StackingRule,
};

/// A unit on the table, with the attributes rules look at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlacedUnit {
    /// The counter id.
    pub id: String,
    /// The unit's printed name, for messages.
    pub name: String,
    /// The side id.
    pub side: String,
    /// What kind of piece it is.
    pub category: Category,
    /// The unit type id.
    pub unit_type: String,
    /// The unit size id.
    pub size: String,
    /// Steps on the counter.
    pub steps: u8,
    /// The formation it belongs to, if any.
    pub formation: Option<String>,
    /// Where it stands: a printed hex label or the name of a holding box.
    pub location: String,
    /// The numbers its counter's front prints for the values stacking rules count as
    /// points, by value id. Default: none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, u32>,
    /// The terrains of its hex, where stacking rules hold only in some terrains: its own
    /// and those it shares. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<String>,
}

/// Units on the table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Position {
    /// Every unit and where it stands.
    pub units: Vec<PlacedUnit>,
}

/// Which kind of rule a finding breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RuleKind {
    /// A stacking rule: a hex holds more (or other) units than it allows.
    Stacking,
    /// Units of opposing sides stand in one hex where the rules forbid it.
    OpposingUnits,
    /// A unit stands where its printed setup does not put it.
    Setup,
}

/// A rule broken by a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Finding {
    /// Which kind of rule it breaks.
    pub kind: RuleKind,
    /// The rule section.
    pub rule: String,
    /// The printed hex label (or box name) where it is broken.
    pub location: String,
    /// The printed names of the units involved.
    pub units: Vec<String>,
    /// What is wrong, in words.
    pub message: String,
}

impl Filter<String> {
    /// Whether `u`, counted as a unit of `size` (its own, or the size a free unit's excess
    /// counts as), is one of the units this filter describes.
    pub fn matches(&self, u: &PlacedUnit, size: &str) -> bool {
        (self.category.is_empty() || self.category.contains(&u.category))
            && (self.types.is_empty() || self.types.contains(&u.unit_type))
            && (self.size.is_empty() || self.size.iter().any(|s| s == size))
            && self.steps.is_none_or(|s| s == u.steps)
            && (self.name.is_empty() || self.name.contains(&u.name))
            && self.not.as_ref().is_none_or(|n| !n.matches(u, size))
    }

    /// The units it describes, in the words of the checker's messages
    /// (`brigade or regiment units`, `units other than HQ units`).
    pub fn describe(&self) -> String {
        let mut words: Vec<String> = Vec::new();
        if !self.size.is_empty() {
            words.push(self.size.join(" or "));
        }
        if !self.types.is_empty() {
            words.push(self.types.join(" or "));
        }
        if !self.category.is_empty() {
            let c: Vec<String> = self
                .category
                .iter()
                .map(|c| match c {
                    Category::Combat => "combat",
                    Category::Hq => "HQ",
                    Category::Supply => "supply",
                    Category::Leader => "leader",
                    Category::Marker => "marker",
                })
                .map(String::from)
                .collect();
            words.push(c.join(" or "));
        }
        if let Some(s) = self.steps {
            words.push(format!("{s}-step"));
        }
        let mut out = if words.is_empty() {
            "units".into()
        } else {
            format!("{} units", words.join(" "))
        };
        if let Some(n) = &self.not {
            out = format!("{out} other than {}", n.describe());
        }
        out
    }
}

impl Points<String> {
    /// What `u`, counted as a unit of `size`, is worth.
    pub fn of(&self, u: &PlacedUnit, size: &str) -> u32 {
        let printed = self.value.as_ref().and_then(|v| u.values.get(v).copied());
        printed
            .or_else(|| {
                self.by.iter().find(|b| b.units.matches(u, size)).map(|b| b.points)
            })
            .unwrap_or(self.otherwise)
    }
}

impl Limit<String> {
    /// What the limit counts, in the words of the checker's messages: the units
    /// ([`Filter::describe`]), or their stacking points.
    pub fn counted(&self) -> String {
        let units = self.count.describe();
        if self.points { format!("stacking points of {units}") } else { units }
    }
}

impl<S: AsRef<str>> StackingRule<S> {
    /// Whether the rule holds in a hex of these terrains (`only_in`, `except_in`).
    pub fn holds_in(&self, terrain: &[String]) -> bool {
        let any =
            |list: &[S]| list.iter().any(|t| terrain.iter().any(|h| h == t.as_ref()));
        (self.only_in.is_empty() || any(&self.only_in)) && !any(&self.except_in)
    }
}

/// A unit as a rule sees it: possibly counted at another size.
struct Counted<'a> {
    unit: &'a PlacedUnit,
    size: &'a str,
}

/// How a limit is broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breach {
    /// More units than the limit's `max`.
    Max(u32),
    /// Fewer units than the limit's `min`.
    Min(u32),
    /// The counted units are not all of one formation.
    Formation,
}

impl Breach {
    /// Why the limit fails, in words: `n` (a number, or whatever stands for one) units
    /// `what` ([`Filter::describe`]).
    pub fn reason(self, n: &str, what: &str) -> String {
        match self {
            Breach::Max(max) => format!("{n} {what} where at most {max} may stack"),
            Breach::Min(min) => format!("{n} {what} where at least {min} are needed"),
            Breach::Formation => format!("{n} {what} that are not all of one formation"),
        }
    }
}

/// The message of a broken stacking rule: `hex` holds `reason` ([`Breach::reason`]),
/// with the rule's section and words.
pub fn stacking_message(hex: &str, reason: &str, rule: &StackingRule<String>) -> String {
    format!(
        "{hex} holds {reason} (rule {}){}",
        rule.section,
        rule.text.as_ref().map(|t| format!(": \"{t}\"")).unwrap_or_default()
    )
}

/// The message of opposing units sharing `hex`; `sides` are their side ids joined by
/// `and`, `section` the rule that forbids it.
pub fn opposing_message(hex: &str, sides: &str, section: Option<&str>) -> String {
    format!(
        "units of opposing sides ({sides}) stand in {hex}; opposing units never stack{}",
        section.map(|s| format!(" (rule {s})")).unwrap_or_default()
    )
}

/// A limit a stack breaks: how, and how many units it counted.
struct Failing<'r> {
    limit: &'r Limit<String>,
    breach: Breach,
    counted: u32,
}

impl Failing<'_> {
    /// Why the limit fails, in words ([`Breach::reason`]).
    fn reason(&self) -> String {
        self.breach.reason(&self.counted.to_string(), &self.limit.counted())
    }
}

fn failing_limit<'r>(
    limit: &'r Limit<String>,
    points: Option<&Points<String>>,
    stack: &[Counted],
) -> Option<Failing<'r>> {
    // Counted without being collected: the solver asks this of every hex it tries.
    let hit = || stack.iter().filter(|c| limit.count.matches(c.unit, c.size));
    let n = match points.filter(|_| limit.points) {
        Some(p) => hit().map(|c| p.of(c.unit, c.size)).sum(),
        None => hit().count() as u32,
    };
    let breach = if limit.max.is_some_and(|max| n > max) {
        limit.max.map(Breach::Max)
    } else if limit.min.is_some_and(|min| n < min) {
        limit.min.map(Breach::Min)
    } else if limit.same_formation && hit().nth(1).is_some() {
        let mut units = hit().map(|c| &c.unit.formation);
        let first = units.next().and_then(Option::as_ref);
        (first.is_none() || units.any(|f| f.as_ref() != first))
            .then_some(Breach::Formation)
    } else {
        None
    };
    breach.map(|breach| Failing { limit, breach, counted: n })
}

/// The first limit of `rule` that `units` (one side's units in one hex) break, when every
/// alternative of the rule has one.
fn check_rule<'r>(
    rule: &'r StackingRule<String>,
    units: &[&PlacedUnit],
) -> Option<Failing<'r>> {
    if !units.first().is_some_and(|u| rule.holds_in(&u.terrain)) {
        return None;
    }
    let mut stack: Vec<Counted> = units
        .iter()
        .filter(|u| !rule.ignore.iter().any(|f| f.matches(u, &u.size)))
        .map(|u| Counted { unit: u, size: u.size.as_str() })
        .collect();
    for free in &rule.free {
        // In order: the first `count` units it frees go, the rest count as it says.
        let mut seen = 0;
        stack.retain_mut(|c| {
            if free.units.matches(c.unit, c.size) {
                seen += 1;
                if seen <= free.count {
                    return false;
                }
                if let Some(size) = &free.excess_counts_as {
                    c.size = size.as_str();
                }
            }
            true
        });
    }
    let mut first = None;
    for alt in &rule.any_of {
        let points = rule.points.as_ref();
        match alt.all_of.iter().find_map(|l| failing_limit(l, points, &stack)) {
            None => return None,
            Some(failing) => {
                first.get_or_insert(failing);
            }
        }
    }
    first
}

/// A rule one hex breaks, not yet in words.
enum Broken<'r, 'u> {
    /// Units of these sides stand together where opposing units may not: every unit of
    /// the hex.
    Opposing(Vec<&'u str>, Vec<&'u PlacedUnit>),
    /// A stacking rule fails for one side's units.
    Stacking(&'r StackingRule<String>, Failing<'r>, Vec<&'u PlacedUnit>),
}

/// The rules `units` break, hex by hex in order of location, with the units of each hex
/// (sorted by id); with `first_only`, no more than the first.
fn broken<'r, 'u>(
    ruleset: &'r Ruleset<String>,
    units: impl IntoIterator<Item = &'u PlacedUnit>,
    first_only: bool,
) -> Vec<(&'u str, Broken<'r, 'u>)> {
    // By hex, each hex's units by id: a stable sort, so units of one id keep their order.
    let mut units: Vec<&PlacedUnit> = units.into_iter().collect();
    units.sort_by(|a, b| a.location.cmp(&b.location).then_with(|| a.id.cmp(&b.id)));
    let mut found = Vec::new();
    for units in units.chunk_by(|a, b| a.location == b.location) {
        let hex = units[0].location.as_str();
        // Each side's units, by id. Most hexes hold one side's: they are not copied.
        let mut by_side = Vec::new();
        let by_side: &[&PlacedUnit] = if units.iter().all(|u| u.side == units[0].side) {
            units
        } else {
            by_side.extend_from_slice(units);
            by_side.sort_by(|a, b| a.side.cmp(&b.side));
            &by_side
        };
        let sides: Vec<&[&PlacedUnit]> =
            by_side.chunk_by(|a, b| a.side == b.side).collect();
        if ruleset.opposing_units == OpposingUnits::Forbidden {
            let armed: Vec<&str> = sides
                .iter()
                .filter(|us| us.iter().any(|u| counts_as_opposing(ruleset, u)))
                .map(|us| us[0].side.as_str())
                .collect();
            if armed.len() > 1 {
                found.push((hex, Broken::Opposing(armed, units.to_vec())));
                if first_only {
                    return found;
                }
            }
        }
        for side_units in sides {
            for rule in &ruleset.stacking {
                if let Some(failing) = check_rule(rule, side_units) {
                    found.push((
                        hex,
                        Broken::Stacking(rule, failing, side_units.to_vec()),
                    ));
                    if first_only {
                        return found;
                    }
                }
            }
        }
    }
    found
}

/// Whether `u` makes its hex hold its side's units, for the rule on opposing units:
/// markers and the units the rule excepts do not.
pub fn counts_as_opposing(ruleset: &Ruleset<String>, u: &PlacedUnit) -> bool {
    u.category != Category::Marker
        && !ruleset.opposing_units_except.iter().any(|f| f.matches(u, &u.size))
}

/// Checks every hex of a position against the ruleset's stacking rules and the
/// opposing-units rule. Findings come sorted by location, then rule.
pub fn check_stacking(ruleset: &Ruleset<String>, position: &Position) -> Vec<Finding> {
    broken(ruleset, &position.units, false)
        .into_iter()
        .map(|(hex, broken)| match broken {
            Broken::Opposing(armed, units) => Finding {
                kind: RuleKind::OpposingUnits,
                rule: ruleset.opposing_units_section.clone().unwrap_or_default(),
                location: hex.to_string(),
                units: units.iter().map(|u| u.name.clone()).collect(),
                message: opposing_message(
                    hex,
                    &armed.join(" and "),
                    ruleset.opposing_units_section.as_deref(),
                ),
            },
            Broken::Stacking(rule, failing, side_units) => Finding {
                kind: RuleKind::Stacking,
                rule: rule.section.clone(),
                location: hex.to_string(),
                units: side_units.iter().map(|u| u.name.clone()).collect(),
                message: stacking_message(hex, &failing.reason(), rule),
            },
        })
        .collect()
}

/// Whether `units` break none of the rules [`check_stacking`] checks: the same answer as
/// its findings being empty, without putting them in words.
pub fn stacking_holds<'u>(
    ruleset: &Ruleset<String>,
    units: impl IntoIterator<Item = &'u PlacedUnit>,
) -> bool {
    broken(ruleset, units, true).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(
        id: &str,
        category: Category,
        size: &str,
        formation: Option<&str>,
    ) -> PlacedUnit {
        PlacedUnit {
            id: id.into(),
            name: id.into(),
            side: "axis".into(),
            category,
            unit_type: "infantry".into(),
            size: size.into(),
            steps: 2,
            formation: formation.map(String::from),
            location: "2403".into(),
            values: BTreeMap::new(),
            terrain: vec![],
        }
    }

    fn ruleset(json: &str) -> Ruleset<String> {
        serde_json::from_str(json).unwrap()
    }

    /// Gazala 1942 5.1, as the seed data states it.
    fn gazala_1942() -> Ruleset<String> {
        ruleset(
            r#"{ "stacking": [{ "section": "5.1",
              "free": [{ "units": { "category": ["hq"] }, "count": 1, "excess_counts_as": "battalion" }],
              "any_of": [
                { "all_of": [ { "count": {}, "max": 5 },
                              { "count": { "size": ["regiment", "brigade"] }, "max": 1 } ] },
                { "all_of": [ { "count": {}, "max": 3 },
                              { "count": { "size": ["regiment", "brigade"] }, "max": 2, "same_formation": true } ] }
              ] }] }"#,
        )
    }

    #[test]
    fn gazala_1942_two_regiments_of_one_formation_and_a_battalion() {
        let r = gazala_1942();
        let p = Position {
            units: vec![
                unit("a", Category::Combat, "regiment", Some("ariete")),
                unit("b", Category::Combat, "regiment", Some("ariete")),
                unit("c", Category::Combat, "battalion", None),
                unit("hq", Category::Hq, "hq", Some("ariete")),
            ],
        };
        assert!(check_stacking(&r, &p).is_empty());
    }

    #[test]
    fn gazala_1942_two_regiments_of_different_formations_are_illegal() {
        let r = gazala_1942();
        let p = Position {
            units: vec![
                unit("a", Category::Combat, "regiment", Some("ariete")),
                unit("b", Category::Combat, "regiment", Some("trieste")),
            ],
        };
        let f = check_stacking(&r, &p);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].rule, "5.1");
        assert!(f[0].message.contains("at most 1 may stack"), "{}", f[0].message);
    }

    #[test]
    fn gazala_1942_second_hq_counts_as_a_battalion() {
        let r = gazala_1942();
        let mut units: Vec<PlacedUnit> = (0..4)
            .map(|i| unit(&format!("b{i}"), Category::Combat, "battalion", None))
            .collect();
        units.push(unit("hq1", Category::Hq, "hq", None));
        assert!(check_stacking(&r, &Position { units: units.clone() }).is_empty());
        units.push(unit("hq2", Category::Hq, "hq", None));
        // four battalions, one free HQ, one HQ counted as a battalion: 5 units, legal.
        assert!(check_stacking(&r, &Position { units: units.clone() }).is_empty());
        units.push(unit("hq3", Category::Hq, "hq", None));
        assert_eq!(check_stacking(&r, &Position { units }).len(), 1);
    }

    #[test]
    fn opposing_units_never_stack() {
        let r = ruleset(
            r#"{ "opposing_units": "forbidden", "opposing_units_section": "6.3" }"#,
        );
        let mut b = unit("b", Category::Combat, "battalion", None);
        b.side = "allied".into();
        let p =
            Position { units: vec![unit("a", Category::Combat, "battalion", None), b] };
        let f = check_stacking(&r, &p);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].rule, "6.3");
        assert_eq!(f[0].kind, RuleKind::OpposingUnits);
    }

    #[test]
    fn stacking_findings_say_they_break_a_stacking_rule() {
        let r = ruleset(
            r#"{ "stacking": [{ "section": "4.3", "any_of": [{ "all_of": [{ "count": {}, "max": 1 }] }] }] }"#,
        );
        let p = Position {
            units: vec![
                unit("a", Category::Combat, "battalion", None),
                unit("b", Category::Combat, "battalion", None),
            ],
        };
        let f = check_stacking(&r, &p);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].kind, f[0].rule.as_str()), (RuleKind::Stacking, "4.3"));
    }

    #[test]
    fn findings_come_by_hex_then_side_with_each_stack_by_id() {
        let r = ruleset(
            r#"{ "stacking": [{ "section": "4.3", "any_of": [{ "all_of": [{ "count": {}, "max": 1 }] }] }], "opposing_units": "forbidden" }"#,
        );
        let at = |id: &str, side: &str, hex: &str| {
            let mut u = unit(id, Category::Combat, "battalion", None);
            u.side = side.into();
            u.location = hex.into();
            u
        };
        let units = vec![
            at("d", "axis", "2404"),
            at("z", "allied", "2403"),
            at("c", "axis", "2403"),
            at("y", "allied", "2403"),
            at("a", "axis", "2403"),
            at("b", "axis", "2404"),
            at("x", "axis", "2405"),
        ];
        let found: Vec<(String, Vec<String>)> = check_stacking(&r, &Position { units })
            .into_iter()
            .map(|f| (f.location, f.units))
            .collect();
        let stack = |hex: &str, ids: &[&str]| {
            (hex.to_string(), ids.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(
            found,
            [
                // Opposing units first (the ruleset forbids them), all by id.
                stack("2403", &["a", "c", "y", "z"]),
                stack("2403", &["y", "z"]),
                stack("2403", &["a", "c"]),
                stack("2404", &["b", "d"])
            ]
        );
    }

    #[test]
    fn a_stack_holds_exactly_when_the_check_finds_nothing() {
        let mut opposing = gazala_1942();
        opposing.opposing_units = OpposingUnits::Forbidden;
        let mut pool = [
            unit("hq1", Category::Hq, "division", Some("21pz")),
            unit("hq2", Category::Hq, "division", Some("15pz")),
            unit("r1", Category::Combat, "regiment", Some("21pz")),
            unit("r2", Category::Combat, "regiment", Some("21pz")),
            unit("r3", Category::Combat, "regiment", Some("15pz")),
            unit("b1", Category::Combat, "battalion", None),
            unit("b2", Category::Combat, "battalion", None),
            unit("m", Category::Marker, "", None),
        ];
        pool[6].side = "allied".into();
        pool[7].location = "2404".into();
        let (mut held, mut broken) = (0, 0);
        for r in [gazala_1942(), opposing] {
            for mask in 0u32..(1 << pool.len()) {
                let units: Vec<PlacedUnit> = pool
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, u)| u.clone())
                    .collect();
                let found = check_stacking(&r, &Position { units: units.clone() });
                assert_eq!(stacking_holds(&r, &units), found.is_empty(), "{mask:b}");
                if found.is_empty() { held += 1 } else { broken += 1 }
            }
        }
        assert!(held > 10 && broken > 10, "{held} held, {broken} broken");
    }

    #[test]
    fn an_excepted_unit_may_share_a_hex_with_enemy_units() {
        let r = ruleset(
            r#"{ "opposing_units": "forbidden", "opposing_units_except": [{ "category": ["hq"] }] }"#,
        );
        let mut hq = unit("hq", Category::Hq, "hq", None);
        hq.side = "allied".into();
        let a = unit("a", Category::Combat, "battalion", None);
        assert!(check_stacking(&r, &Position { units: vec![a.clone(), hq] }).is_empty());
        let mut b = unit("b", Category::Combat, "battalion", None);
        b.side = "allied".into();
        let f = check_stacking(&r, &Position { units: vec![a, b] });
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].kind, RuleKind::OpposingUnits);
    }

    #[test]
    fn points_come_from_the_printed_value_then_by_kind_then_otherwise() {
        let r = ruleset(
            r#"{ "stacking": [{ "section": "12.1",
              "points": { "value": "guns", "by": [{ "units": { "size": ["division"] }, "points": 3 }], "otherwise": 1 },
              "any_of": [{ "all_of": [{ "count": {}, "max": 10, "points": true }] }] }] }"#,
        );
        let gun = |id: &str, n: u32| {
            let mut u = unit(id, Category::Combat, "battery", None);
            u.values.insert("guns".into(), n);
            u
        };
        let p = |units: Vec<PlacedUnit>| check_stacking(&r, &Position { units });
        // 5 + 4 + 1 (a battalion, otherwise) = 10: legal.
        assert!(
            p(vec![
                gun("a", 5),
                gun("b", 4),
                unit("c", Category::Combat, "battalion", None)
            ])
            .is_empty()
        );
        // 5 + 3 (a division) + 4 = 12.
        let f = p(vec![
            gun("a", 5),
            unit("d", Category::Combat, "division", None),
            gun("b", 4),
        ]);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("12 stacking points of units where at most 10 may stack"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_rule_of_some_terrains_holds_only_in_their_hexes() {
        let r = ruleset(
            r#"{ "stacking": [{ "section": "5.2", "only_in": ["swamp"], "any_of": [{ "all_of": [{ "count": {}, "max": 1 }] }] },
                              { "section": "5.1", "except_in": ["town"], "any_of": [{ "all_of": [{ "count": {}, "max": 2 }] }] }] }"#,
        );
        let at = |terrain: &[&str], n: usize| {
            let units: Vec<PlacedUnit> = (0..n)
                .map(|i| {
                    let mut u =
                        unit(&format!("u{i}"), Category::Combat, "battalion", None);
                    u.terrain = terrain.iter().map(|t| t.to_string()).collect();
                    u
                })
                .collect();
            check_stacking(&r, &Position { units })
                .into_iter()
                .map(|f| f.rule)
                .collect::<Vec<_>>()
        };
        assert_eq!(at(&["clear"], 2), Vec::<String>::new());
        assert_eq!(at(&["clear", "swamp"], 2), ["5.2"]);
        assert_eq!(at(&["clear"], 3), ["5.1"]);
        assert_eq!(at(&["town"], 3), Vec::<String>::new());
    }
}
