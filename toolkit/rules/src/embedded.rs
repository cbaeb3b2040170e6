//! The interface of the embedded checker: a game's ruleset document in, a position of
//! counters by hex label in, findings out. The WebAssembly checker inside every module and
//! `muster check` both run exactly this.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::language::{Category, Ruleset};
use crate::placement::{Allowed, Stand, Standing, check_placement, compare_setup};
use crate::stacking::{PlacedUnit, Position, RuleKind, check_stacking};
use crate::turn::Turn;

/// The format tag of [`RulesetDoc`].
pub const FORMAT: &str = "muster-ruleset/1";

/// What the checker knows of one counter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnitFacts {
    /// Counter id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Side id.
    pub side: String,
    /// Nationality id.
    pub nationality: Option<String>,
    /// Formation id.
    pub formation: Option<String>,
    /// Category.
    pub category: Category,
    /// Unit type id.
    #[serde(rename = "type")]
    pub unit_type: Option<String>,
    /// Unit size id.
    pub size: Option<String>,
    /// Steps.
    pub steps: Option<u8>,
    /// The numbers its front prints for the values stacking rules count as points, by
    /// value id. Default: none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, u32>,
}

impl UnitFacts {
    /// The counter standing at `location`, as the rules see it: no type or size is the
    /// empty one, an unstated number of steps is 2.
    pub fn placed(&self, location: &str) -> PlacedUnit {
        PlacedUnit {
            id: self.id.clone(),
            name: self.name.clone(),
            side: self.side.clone(),
            category: self.category,
            unit_type: self.unit_type.clone().unwrap_or_default(),
            size: self.size.clone().unwrap_or_default(),
            steps: self.steps.unwrap_or(2),
            formation: self.formation.clone(),
            location: location.to_string(),
            values: self.values.clone(),
            terrain: vec![],
        }
    }
}

/// `rules/ruleset.json`: a game's rules and the data they read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RulesetDoc {
    /// Always [`FORMAT`].
    pub format: String,
    /// Game id.
    pub game: String,
    /// Game title.
    pub title: String,
    /// Stacking and placement rules.
    pub rules: Ruleset<String>,
    /// Every counter and marker.
    pub units: Vec<UnitFacts>,
    /// Every hex label of the board.
    pub hexes: Vec<String>,
    /// Per scenario: where each counter may stand at the start.
    pub scenarios: BTreeMap<String, BTreeMap<String, Allowed>>,
    /// Where each side's eliminated counters go in the module: a counter whose map and
    /// location are a pile's is eliminated. Default: none (the module has no dead piles).
    #[serde(default)]
    pub dead_piles: Vec<DeadPile>,
    /// The names of the turn track's turns in order, when they are not numbered (one a
    /// day: `23 May`, `24 May`, …); empty for numbered tracks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turn_names: Vec<String>,
    /// Per scenario: its first turn.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub first_turns: BTreeMap<String, Turn>,
    /// The hexes no unit may enter, by label, with their terrain (`prohibited_terrain`).
    /// Default: none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prohibited: BTreeMap<String, String>,
    /// The terrains stacking rules hold in or not (`only_in`, `except_in`) of each hex
    /// that has any, by label. Default: none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub terrain: BTreeMap<String, Vec<String>>,
}

/// One side's dead pile in a module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeadPile {
    /// Side id.
    pub side: String,
    /// The map's identifier (`Dead Pile`).
    pub map: String,
    /// The location name VASSAL gives every counter in the pile (`Axis dead pile`).
    pub location: String,
}

/// Whether a piece can be the counter `facts` describes, going by its `Category`
/// property: one without a category can (a module that writes none), one of the counter's
/// own category can; a chit that carries its HQ's `UnitId`, a card or a marker that shares
/// a unit's properties cannot.
pub fn is_counter(facts: &UnitFacts, category: Option<&str>) -> bool {
    category.is_none_or(|c| c == facts.category.name())
}

/// One piece of a position that carries a counter's id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PieceAt {
    /// The counter id it carries (its `UnitId`).
    pub unit: String,
    /// Hex label, or the box, deck or map it is in.
    pub location: String,
    /// Where it is; a hex when not given.
    #[serde(default, skip_serializing_if = "is_hex")]
    pub standing: Standing,
    /// Its `Category` property, which tells a counter from a chit, card or marker that
    /// carries the counter's id; a piece without one is taken to be the counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The piece's id in the saved game, to name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// The strength its label shows (`17`, `2-0-7`), when it has a strength label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
}

fn is_hex(s: &Standing) -> bool {
    *s == Standing::Hex
}

impl PieceAt {
    /// A counter on a hex.
    pub fn on_hex(unit: &str, location: &str) -> PieceAt {
        PieceAt {
            unit: unit.to_string(),
            location: location.to_string(),
            standing: Standing::Hex,
            category: None,
            piece: None,
            strength: None,
        }
    }
}

/// A request to the checker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Request {
    /// Compare the position with this scenario's setup too.
    #[serde(default)]
    pub scenario: Option<String>,
    /// The pieces: on hexes for the stacking rules, and, to compare with a setup, in
    /// boxes, decks and nowhere too.
    pub pieces: Vec<PieceAt>,
    /// The turn the position is at, as the turn track shows it (`26 May`, `13`); the
    /// scenario's first turn when not given or earlier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The pieces are every piece of the game, wherever they are, so a counter of the
    /// setup that is not among them is missing.
    #[serde(default)]
    pub complete: bool,
}

/// One violation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Violation {
    /// `overstack` or `opposing-units`; against a scenario's setup `outside-setup`,
    /// `early-reinforcement`, `wrong-box` or `missing`.
    pub kind: String,
    /// Rule section.
    pub rule: String,
    /// Hex label.
    pub location: String,
    /// Printed names of the counters involved.
    pub units: Vec<String>,
    /// What is wrong, in words.
    pub message: String,
}

/// What the checker found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// Violations, stacking first.
    pub violations: Vec<Violation>,
    /// Counter ids of the request the ruleset does not know.
    pub unknown_units: Vec<String>,
    /// Locations that are not hexes of the board.
    pub unknown_locations: Vec<String>,
    /// Pieces that carry a counter's id but are not that counter (a chit with its HQ's
    /// id, a card, a marker sharing a unit's properties): never counted as the counter.
    #[serde(default)]
    pub not_counters: Vec<NotCounter>,
    /// The turn the position was compared at, when compared with a scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Turn>,
}

/// A piece that is not the counter whose id it carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NotCounter {
    /// The counter id it carries.
    pub unit: String,
    /// Its category.
    pub category: String,
    /// Its id in the saved game, if given.
    pub piece: Option<String>,
}

/// The turn a position is compared at: the one it says it is at, or the scenario's first
/// turn when it says none or an earlier one (a turn track left at its start).
fn turn_of(doc: &RulesetDoc, scenario: &str, said: Option<&str>) -> Option<Turn> {
    let first = doc.first_turns.get(scenario).filter(|t| t.number.is_some());
    let said = said.map(|t| Turn::new(t, &doc.turn_names));
    match (said, first) {
        (Some(s), Some(f)) if s.number >= f.number => Some(s),
        (Some(s), None) if s.number.is_some() => Some(s),
        (_, f) => f.cloned(),
    }
}

/// Checks a position against a game's rules (and compares it with a scenario's setup, if
/// named). Pieces whose category says they are not the counter they carry the id of are
/// set aside; the others on hexes are checked for stacking.
pub fn check(doc: &RulesetDoc, request: &Request) -> Report {
    let facts: BTreeMap<&str, &UnitFacts> =
        doc.units.iter().map(|u| (u.id.as_str(), u)).collect();
    let mut report = Report::default();
    let mut copies: BTreeMap<&str, usize> = BTreeMap::new();
    let mut position = Position::default();
    let mut stands = Vec::new();
    for p in &request.pieces {
        let Some(u) = facts.get(p.unit.as_str()) else {
            report.unknown_units.push(p.unit.clone());
            continue;
        };
        if !is_counter(u, p.category.as_deref()) {
            report.not_counters.push(NotCounter {
                unit: p.unit.clone(),
                category: p.category.clone().unwrap_or_default(),
                piece: p.piece.clone(),
            });
            continue;
        }
        stands.push(Stand {
            unit: &u.id,
            name: &u.name,
            location: &p.location,
            standing: p.standing,
            strength: p.strength.as_deref(),
        });
        if p.standing != Standing::Hex {
            continue;
        }
        if !doc.hexes.is_empty() && !doc.hexes.contains(&p.location) {
            report.unknown_locations.push(p.location.clone());
            continue;
        }
        let n = copies.entry(u.id.as_str()).or_default();
        let id = if *n == 0 { u.id.clone() } else { format!("{}#{n}", u.id) };
        *n += 1;
        let terrain = doc.terrain.get(&p.location).cloned().unwrap_or_default();
        position.units.push(PlacedUnit { id, terrain, ..u.placed(&p.location) });
    }
    let tag = |kind: &str| {
        let kind = kind.to_string();
        move |f: crate::stacking::Finding| Violation {
            kind: kind.clone(),
            rule: f.rule,
            location: f.location,
            units: f.units,
            message: f.message,
        }
    };
    report.violations.extend(check_stacking(&doc.rules, &position).into_iter().map(
        |f| {
            let kind = match f.kind {
                RuleKind::OpposingUnits => "opposing-units",
                _ => "overstack",
            };
            tag(kind)(f)
        },
    ));
    report.violations.extend(prohibited(doc, &position));
    if let Some(scenario) = &request.scenario
        && let Some(allowed) = doc.scenarios.get(scenario)
    {
        report.violations.extend(
            check_placement(allowed, &position).into_iter().map(tag("outside-setup")),
        );
        let turn = turn_of(doc, scenario, request.turn.as_deref());
        report.violations.extend(
            compare_setup(allowed, &stands, turn.as_ref(), request.complete)
                .into_iter()
                .map(|(kind, f)| tag(kind)(f)),
        );
        report.turn = turn;
    }
    report
}

/// The message of counters standing in `hex`, whose `terrain` no unit may enter by the
/// rule `section`.
pub fn prohibited_message(hex: &str, terrain: &str, section: Option<&str>) -> String {
    format!(
        "{hex} is {terrain}, which no unit may enter{}",
        section.map(|s| format!(" (rule {s})")).unwrap_or_default()
    )
}

/// Hexes whose terrain no unit may enter where a unit stands, one violation a hex naming
/// every counter there (markers too, as for opposing units).
fn prohibited(doc: &RulesetDoc, position: &Position) -> Vec<Violation> {
    let section = doc.rules.prohibited_terrain_section.as_deref();
    let mut by_hex: BTreeMap<&str, (bool, Vec<String>)> = BTreeMap::new();
    for u in &position.units {
        if doc.prohibited.contains_key(&u.location) {
            let (armed, units) = by_hex.entry(u.location.as_str()).or_default();
            *armed |= u.category != crate::Category::Marker;
            units.push(u.name.clone());
        }
    }
    by_hex
        .into_iter()
        .filter(|(_, (armed, _))| *armed)
        .map(|(hex, (_, units))| Violation {
            kind: "prohibited-hex".into(),
            rule: section.unwrap_or_default().to_string(),
            location: hex.to_string(),
            message: prohibited_message(hex, &doc.prohibited[hex], section),
            units,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::Start;

    fn doc() -> RulesetDoc {
        let unit = |id: &str, category: Category| UnitFacts {
            id: id.into(),
            name: id.to_uppercase(),
            side: "axis".into(),
            nationality: None,
            formation: None,
            category,
            unit_type: None,
            size: None,
            steps: Some(1),
            values: BTreeMap::new(),
        };
        let rules: Ruleset<String> = serde_json::from_str(
            r#"{"stacking": [{"section": "5.1", "any_of": [{"all_of": [{"count": {}, "max": 1}]}]}]}"#,
        )
        .expect("rules");
        let days: Vec<String> =
            ["23 May", "24 May", "25 May", "26 May", "27 May", "28 May"]
                .map(String::from)
                .to_vec();
        let start = |holding: Option<&str>, arrives: Option<&str>| Start {
            holding: holding.map(str::to_string),
            on_map: holding.is_none(),
            arrives: arrives.map(|t| Turn::new(t, &days)),
            place: holding.unwrap_or("0101").to_string(),
            rule: "13.2".into(),
            strength: None,
        };
        let allowed = |s: Start| Allowed { starts: vec![s], ..Allowed::default() };
        RulesetDoc {
            format: FORMAT.into(),
            game: "g".into(),
            title: "G".into(),
            rules,
            units: vec![unit("h", Category::Hq), unit("r", Category::Combat)],
            hexes: vec!["0101".into(), "0102".into(), "0103".into()],
            scenarios: [(
                "s".to_string(),
                [
                    ("h".to_string(), allowed(start(None, None))),
                    (
                        "r".to_string(),
                        allowed(start(
                            Some("Reinforcements: turn 28 May"),
                            Some("28 May"),
                        )),
                    ),
                ]
                .into(),
            )]
            .into(),
            dead_piles: Vec::new(),
            terrain: BTreeMap::new(),
            first_turns: [("s".to_string(), Turn::new("26 May", &days))].into(),
            turn_names: days,
            prohibited: [("0103".to_string(), "lake".to_string())].into(),
        }
    }

    #[test]
    fn counters_on_a_hex_no_unit_may_enter_are_a_violation() {
        let request = |location: &str| Request {
            scenario: None,
            pieces: vec![piece("r", location, Standing::Hex, None)],
            turn: None,
            complete: false,
        };
        let report = check(&doc(), &request("0103"));
        let found: Vec<(&str, &str)> = report
            .violations
            .iter()
            .map(|v| (v.kind.as_str(), v.location.as_str()))
            .collect();
        assert_eq!(found, [("prohibited-hex", "0103")]);
        assert!(
            report.violations[0]
                .message
                .contains("0103 is lake, which no unit may enter")
        );
        assert!(check(&doc(), &request("0101")).violations.is_empty());
    }

    fn piece(
        unit: &str,
        location: &str,
        standing: Standing,
        category: Option<&str>,
    ) -> PieceAt {
        PieceAt {
            standing,
            category: category.map(str::to_string),
            piece: Some(format!("{unit}-{location}")),
            ..PieceAt::on_hex(unit, location)
        }
    }

    #[test]
    fn a_chit_carrying_its_hqs_id_is_not_a_second_hq() {
        let doc = doc();
        let hq = piece("h", "0101", Standing::Hex, Some("hq"));
        let chit = piece("h", "0101", Standing::Hex, Some("chit"));
        let request = |pieces: Vec<PieceAt>| Request {
            scenario: None,
            pieces,
            turn: None,
            complete: false,
        };
        let r = check(&doc, &request(vec![hq.clone(), chit.clone()]));
        assert!(r.violations.is_empty(), "{:?}", r.violations);
        assert_eq!(
            r.not_counters,
            [NotCounter {
                unit: "h".into(),
                category: "chit".into(),
                piece: Some("h-0101".into())
            }]
        );
        for c in Category::ALL {
            assert_eq!(
                serde_json::to_value(c).expect("json"),
                c.name(),
                "as pieces write it"
            );
        }
        // Two pieces that are the HQ (or say nothing of their category) do overstack.
        let r = check(&doc, &request(vec![hq, PieceAt::on_hex("h", "0101")]));
        assert_eq!(r.violations.len(), 1);
        assert!(r.not_counters.is_empty());
    }

    #[test]
    fn reinforcements_are_compared_at_the_turn_of_the_position() {
        let doc = doc();
        let at = |turn: Option<&str>| {
            check(
                &doc,
                &Request {
                    scenario: Some("s".into()),
                    pieces: vec![
                        piece("h", "0101", Standing::Hex, Some("hq")),
                        piece("r", "0102", Standing::Hex, Some("combat")),
                    ],
                    turn: turn.map(str::to_string),
                    complete: true,
                },
            )
        };
        // A turn track left at its start: the scenario's first turn.
        for early in [None, Some("23 May"), Some("27 May"), Some("no such day")] {
            let r = at(early);
            assert_eq!(r.violations.len(), 1, "{early:?}: {:?}", r.violations);
            assert_eq!(r.violations[0].kind, "early-reinforcement");
            assert!(
                r.violations[0]
                    .message
                    .contains("arrives on turn 28 May and the game is at turn 2"),
                "{}",
                r.violations[0].message
            );
        }
        assert_eq!(at(None).turn.map(|t| t.printed), Some("26 May".to_string()));
        assert_eq!(
            at(Some("27 May")).turn.map(|t| t.printed),
            Some("27 May".to_string())
        );
        assert!(at(Some("28 May")).violations.is_empty());
    }
}
