//! The game's rules live in VASSAL: the stacking rules, the rules on opposing units and on
//! prohibited terrain, and each scenario's setup lines, of the ruleset the embedded checker
//! reads ([`RulesetDoc`]), compiled into VASSAL 3.7's own automation, so that a player who
//! breaks one while moving counters is told at once.
//!
//! Nothing here restates a rule: every expression is generated from the ruleset, the words
//! of every report come from the checker's own message functions
//! ([`stacking_message`], [`Breach::reason`], [`opposing_message`], [`prohibited_message`],
//! [`setup_message`]), and a count of units is
//! VASSAL's `CountLocation` over the properties muster writes on every counter (`Side`,
//! `Category`, `Type`, `Size`, `Steps`, `Formation` and its printed name).
//!
//! In the module:
//!
//! - The main map's move key ([`keys::MOVED`]) reaches every counter that ends a move there
//!   (dragged, dropped from the palette or a dead pile); while the preference [`PREFERENCE`]
//!   is on, a Trigger Action fires [`keys::CHECK_SIDE`] and [`keys::CHECK_HEX`].
//! - One Report Action per stacking rule, on `CHECK_SIDE`, reports the rule if the counter's
//!   side breaks it in the counter's hex; one on `CHECK_HEX` reports opposing units sharing
//!   it. A report is the checker's message for that hex; a legal hex reports nothing.
//! - Before the reports, when the hex breaks a rule, a Global Key Command asks the counters
//!   of the hex (of the side, for stacking) to add their printed names to a global property
//!   ([`SIDE_UNITS`], [`HEX_UNITS`]) with a Set Global Property trait; a report ends with
//!   that list.
//! - The main map's Check rules button sends [`keys::CHECK_ALL`] to every counter on it; two
//!   Trigger Actions let only the lowest counter of each side in a stack check its side's
//!   stacking and the lowest non-marker counter check opposing units, so every broken rule
//!   is reported once.
//! - A predefined setup sets the global property [`SETUP`] to `true` and gives each counter
//!   it places on the map its setup line as three properties of the piece ([`SETUP_HEXES`],
//!   [`SETUP_SAYS`], [`SETUP_RULE`]): while [`SETUP`] is `true`, a counter that ends a move
//!   (or, for the Check rules button, stands) outside its line's hexes reports it with
//!   [`keys::CHECK_SETUP`] (a message that names the counter first, and no list after).
//!   The toolbar button [`END_SETUP`] sets it to `false`.
//! - A Layer ([`LAYER`]) follows whether the counter's hex breaks a rule for its side (or
//!   holds opposing units) and frames the counter in red: the offending hex is highlighted,
//!   and the frame goes as soon as the hex is legal again, since the layer is worked out
//!   afresh whenever the counter is drawn.
//!
//! Checks never block a move; they only report.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use muster_rules::embedded::{RulesetDoc, prohibited_message};
use muster_rules::{
    Allowed, Breach, Category, Filter, Limit, OpposingUnits, Points, StackingRule,
    opposing_message, setup_message, stacking_message,
};

use super::MAIN_MAP;
use super::keys;
use crate::vassal::piece::Trait;
use crate::vassal::xml::Element;

/// The module preference (a global property, `true` or `false`) that turns the checks made
/// after each move, and the highlight, on and off.
pub const PREFERENCE: &str = "MusterLiveRules";
/// The Layer that frames a counter whose hex breaks a rule.
pub const LAYER: &str = "RuleBroken";
/// The frame's image under `images/`.
pub const HIGHLIGHT_IMAGE: &str = "rule-broken.png";
/// The main map's button that checks every hex.
pub const CHECK_BUTTON: &str = "Check rules";
/// The global property listing the counters of the checking piece's side in its hex.
pub const SIDE_UNITS: &str = "RuleUnitsSide";
/// The global property listing every counter in the checking piece's hex.
pub const HEX_UNITS: &str = "RuleUnitsHex";
/// The global property (`true` or `false`) that says whether counters are checked against
/// their setup lines: `true` in a predefined setup until [`END_SETUP`] is pressed.
pub const SETUP: &str = "MusterSetup";
/// The toolbar button that ends the checks against the setup lines.
pub const END_SETUP: &str = "End setup";
/// A counter's property in a predefined setup: the hexes its setup line allows, each
/// between commas (`,0101,0102,`).
pub const SETUP_HEXES: &str = "MusterSetupHexes";
/// A counter's property in a predefined setup: what its setup line prints.
pub const SETUP_SAYS: &str = "MusterSetupSays";
/// A counter's property in a predefined setup: the rule section of its setup line.
pub const SETUP_RULE: &str = "MusterSetupRule";

/// A condition on one piece's properties: BeanShell, or a constant.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cond {
    Always,
    Never,
    Expr(String),
}

impl Cond {
    fn and(self, other: Cond) -> Cond {
        match (self, other) {
            (Cond::Never, _) | (_, Cond::Never) => Cond::Never,
            (Cond::Always, c) | (c, Cond::Always) => c,
            (Cond::Expr(a), Cond::Expr(b)) => Cond::Expr(format!("{a} && {b}")),
        }
    }

    fn not(self) -> Cond {
        match self {
            Cond::Always => Cond::Never,
            Cond::Never => Cond::Always,
            Cond::Expr(e) => Cond::Expr(format!("!({e})")),
        }
    }

    fn all(conds: impl IntoIterator<Item = Cond>) -> Cond {
        conds.into_iter().fold(Cond::Always, Cond::and)
    }

    fn any(conds: impl IntoIterator<Item = Cond>) -> Cond {
        let mut parts = Vec::new();
        for c in conds {
            match c {
                Cond::Always => return Cond::Always,
                Cond::Never => {}
                Cond::Expr(e) => parts.push(e),
            }
        }
        match parts.len() {
            0 => Cond::Never,
            1 => Cond::Expr(parts.remove(0)),
            _ => Cond::Expr(format!("({})", parts.join(" || "))),
        }
    }

    /// As a BeanShell boolean.
    fn text(&self) -> String {
        match self {
            Cond::Always => "true".into(),
            Cond::Never => "false".into(),
            Cond::Expr(e) => format!("({e})"),
        }
    }
}

/// A Java string literal.
pub(super) fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn is(property: &str, value: &str) -> Cond {
    Cond::Expr(format!("{property} == {}", quote(value)))
}

/// The pieces the checker counts: those of a counter or marker, which all carry one of the
/// rules' categories (chits and cards carry their own).
fn counter() -> Cond {
    Cond::any(Category::ALL.map(|c| is("Category", c.name())))
}

/// The pieces of the checking piece's own side.
fn own_side() -> Cond {
    Cond::Expr("Side == \"$Side$\"".into())
}

fn not_marker() -> Cond {
    Cond::Expr(format!("Category != {}", quote(Category::Marker.name())))
}

/// The condition of a rule filter on a piece; `size` is the size the piece is counted at
/// when not its own (the excess of free units).
fn filter_cond(f: &Filter<String>, size: Option<&str>) -> Cond {
    let mut parts = Vec::new();
    if !f.category.is_empty() {
        parts.push(Cond::any(f.category.iter().map(|c| is("Category", c.name()))));
    }
    if !f.types.is_empty() {
        parts.push(Cond::any(f.types.iter().map(|t| is("Type", t))));
    }
    if !f.size.is_empty() {
        parts.push(match size {
            Some(s) if f.size.iter().any(|x| x == s) => Cond::Always,
            Some(_) => Cond::Never,
            None => Cond::any(f.size.iter().map(|s| is("Size", s))),
        });
    }
    if let Some(n) = f.steps {
        let stated = Cond::Expr(format!("Steps == {n}"));
        // The checker takes a counter of unstated steps to have 2.
        parts.push(if n == 2 { Cond::any([stated, is("Steps", "")]) } else { stated });
    }
    if !f.name.is_empty() {
        parts.push(Cond::any(f.name.iter().map(|n| is("BasicName", n))));
    }
    if let Some(not) = &f.not {
        parts.push(filter_cond(not, size).not());
    }
    Cond::all(parts)
}

/// The checking piece's hex, as a BeanShell string: its name as the grid gives it (a bare
/// `LocationName` would turn `20.10` into the number 20.1).
const HERE: &str = "GetString(\"LocationName\")";

/// How many pieces in the checking piece's hex of the main map meet `c`: a BeanShell
/// integer. The hex and map are named, as the short form (`CountLocation(expression)`)
/// counts nothing in a Report Action, whose expressions see the piece through a wrapper.
fn count_location(c: &Cond) -> String {
    match_expression(c).map_or("0".into(), |e| {
        format!("CountLocation({HERE}, {}, {e})", quote(MAIN_MAP))
    })
}

/// The sum of the numeric `property` of the pieces in the checking piece's hex of the main
/// map that meet `c` (a piece without it, or not a number, adds 0): a BeanShell integer.
fn sum_location(property: &str, c: &Cond) -> String {
    match_expression(c).map_or("0".into(), |e| {
        format!("SumLocation({}, {HERE}, {}, {e})", quote(property), quote(MAIN_MAP))
    })
}

/// `c` as the property match expression of a count or a sum (a quoted `{…}`); none when
/// no piece meets it.
fn match_expression(c: &Cond) -> Option<String> {
    let e = match c {
        Cond::Never => return None,
        Cond::Always => "true",
        Cond::Expr(e) => e,
    };
    Some(quote(&format!("{{{e}}}")))
}

/// BeanShell integers added up: `0` for none, one alone, else their sum in parentheses.
fn added(mut terms: Vec<String>) -> String {
    match terms.len() {
        0 => "0".into(),
        1 => terms.remove(0),
        _ => format!("({})", terms.join(" + ")),
    }
}

/// `n` times a BeanShell integer, leaving out what adds nothing.
fn times(n: u32, count: String) -> Option<String> {
    match (n, count.as_str()) {
        (0, _) | (_, "0") => None,
        (1, _) => Some(count),
        _ => Some(format!("{n} * {count}")),
    }
}

/// The pieces whose counter's front prints a number for `value`: those the checker counts
/// by it, named by their `UnitId`.
fn prints_value(doc: &RulesetDoc, value: &str) -> Cond {
    let ids: Vec<&str> = doc
        .units
        .iter()
        .filter(|u| u.values.contains_key(value))
        .map(|u| u.id.as_str())
        .collect();
    if ids.is_empty() {
        return Cond::Never;
    }
    Cond::Expr(format!(
        "{}.contains(\",\" + UnitId + \",\")",
        quote(&format!(",{},", ids.join(",")))
    ))
}

/// A BeanShell string: `text` with each placeholder replaced by the expression given for it.
fn concat(text: &str, args: &[(&str, &str)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = text;
    loop {
        let next = args
            .iter()
            .filter_map(|(p, e)| rest.find(p).map(|at| (at, *p, *e)))
            .min_by_key(|(at, _, _)| *at);
        match next {
            Some((at, p, e)) => {
                if at > 0 {
                    parts.push(quote(&rest[..at]));
                }
                parts.push(format!("({e})"));
                rest = &rest[at + p.len()..];
            }
            None => {
                if !rest.is_empty() || parts.is_empty() {
                    parts.push(quote(rest));
                }
                break;
            }
        }
    }
    parts.join(" + ")
}

const N: &str = "\u{1}n\u{1}";
const HEX: &str = "\u{1}hex\u{1}";
const REASON: &str = "\u{1}reason\u{1}";
const SIDES: &str = "\u{1}sides\u{1}";
const TERRAIN: &str = "\u{1}terrain\u{1}";
const NAME: &str = "\u{1}name\u{1}";
const SAYS: &str = "\u{1}says\u{1}";

/// Whether the checking piece's hex is one of `hexes`, as BeanShell.
fn here_in<'a>(hexes: impl IntoIterator<Item = &'a String>) -> String {
    let list: Vec<&str> = hexes.into_iter().map(String::as_str).collect();
    format!(
        "{}.contains(\",\" + {HERE} + \",\")",
        quote(&format!(",{},", list.join(",")))
    )
}

/// The properties a predefined setup gives a counter it places by `allowed` (none when its
/// line allows any hex): the hexes, the printed line and its section.
pub fn setup_properties(allowed: &Allowed) -> Vec<(&'static str, String)> {
    SetupProperties::default().of(allowed)
}

/// The properties of [`setup_properties`] for the counters of one setup, the hexes of a
/// line (held once, however many counters it places) joined once.
#[derive(Default)]
pub struct SetupProperties {
    /// The joined hexes, by the address of the labels they join (held, so that no other
    /// labels come to that address while the memo stands).
    joined: HashMap<*const [String], (Arc<[String]>, String)>,
}

impl SetupProperties {
    /// The properties a counter placed by `allowed` gets.
    pub fn of(&mut self, allowed: &Allowed) -> Vec<(&'static str, String)> {
        if allowed.hexes.is_empty() {
            return Vec::new();
        }
        let (_, hexes) =
            self.joined.entry(Arc::as_ptr(&allowed.hexes)).or_insert_with(|| {
                (allowed.hexes.clone(), format!(",{},", allowed.hexes.join(",")))
            });
        vec![
            (SETUP_HEXES, hexes.clone()),
            (SETUP_SAYS, allowed.printed.join("` or `")),
            (SETUP_RULE, allowed.rule.clone()),
        ]
    }
}

/// The restore command of a predefined setup that turns the checks against the setup lines
/// on.
pub fn setup_restore() -> String {
    format!("GlobalProperty\t;{SETUP};true;Module")
}

/// How one stacking rule counts the units of the checking piece's side in its hex.
struct Counting<'r> {
    /// Units counted at their own size: not ignored, not free.
    own: Cond,
    /// Units free up to a number: which, how many, the size the excess counts as.
    free: Vec<(Cond, u32, Option<String>)>,
    /// What a unit is worth, for limits that count points; with the pieces that print
    /// the value it reads.
    points: Option<(&'r Points<String>, Cond)>,
}

impl<'r> Counting<'r> {
    fn new(rule: &'r StackingRule<String>, doc: &RulesetDoc) -> Counting<'r> {
        let base = counter()
            .and(own_side())
            .and(Cond::all(rule.ignore.iter().map(|f| filter_cond(f, None).not())));
        let mut earlier = Cond::Never;
        let mut free = Vec::new();
        for f in &rule.free {
            let units = filter_cond(&f.units, None);
            free.push((
                base.clone().and(units.clone()).and(earlier.clone().not()),
                f.count,
                f.excess_counts_as.clone(),
            ));
            earlier = Cond::any([earlier, units]);
        }
        let points = rule.points.as_ref().map(|p| {
            let printed = p.value.as_ref().map_or(Cond::Never, |v| prints_value(doc, v));
            (p, printed)
        });
        Counting { own: base.and(earlier.not()), free, points }
    }

    /// The stacking points of the units that match `f`, as BeanShell: the printed value
    /// of those that print it, then by kind, then the rule's `otherwise`. Free units are
    /// not counted apart: a rule that counts points frees none.
    fn points(&self, f: &Filter<String>) -> String {
        let Some((points, printed)) = &self.points else { return "0".into() };
        let counted = self.own.clone().and(filter_cond(f, None));
        let mut terms: Vec<String> = Vec::new();
        if let Some(v) = &points.value {
            terms.extend(times(
                1,
                sum_location(&format!("Full_{v}"), &counted.clone().and(printed.clone())),
            ));
        }
        let mut rest = counted.and(printed.clone().not());
        for by in &points.by {
            let units = filter_cond(&by.units, None);
            terms.extend(times(
                by.points,
                count_location(&rest.clone().and(units.clone())),
            ));
            rest = rest.and(units.not());
        }
        terms.extend(times(points.otherwise, count_location(&rest)));
        added(terms)
    }

    /// How many units that match `f` (and `extra`) the rule counts: the units counted at
    /// their own size, and of each kind of free unit those beyond the free number.
    fn count(&self, f: &Filter<String>, extra: &Cond) -> String {
        let mut terms = vec![count_location(
            &self.own.clone().and(filter_cond(f, None)).and(extra.clone()),
        )];
        for (units, k, size) in &self.free {
            let c = count_location(
                &units.clone().and(filter_cond(f, size.as_deref())).and(extra.clone()),
            );
            if c != "0" {
                terms.push(format!("({c} > {k} ? {c} - {k} : 0)"));
            }
        }
        terms.retain(|t| t != "0");
        added(terms)
    }

    /// When `limit` fails, and the checker's reason, as BeanShell.
    fn limit(&self, limit: &Limit<String>, formations: &[String]) -> (Cond, String) {
        let units = self.count(&limit.count, &Cond::Always);
        let n = if limit.points { self.points(&limit.count) } else { units.clone() };
        let what = limit.counted();
        let mut cases: Vec<(String, Breach)> = Vec::new();
        if let Some(max) = limit.max {
            cases.push((format!("{n} > {max}"), Breach::Max(max)));
        }
        if let Some(min) = limit.min {
            cases.push((format!("{n} < {min}"), Breach::Min(min)));
        }
        if limit.same_formation {
            // One formation holds every counted unit: one of the game's formations counts
            // as many of them as there are.
            let one = Cond::any(formations.iter().map(|f| {
                Cond::Expr(format!(
                    "{} == {units}",
                    self.count(&limit.count, &is("Formation", f))
                ))
            }));
            cases.push((format!("{units} > 1 && !{}", one.text()), Breach::Formation));
        }
        let fails = Cond::any(cases.iter().map(|(c, _)| Cond::Expr(c.clone())));
        let reason = |b: Breach| concat(&b.reason(N, &what), &[(N, &n)]);
        let mut text = match cases.last() {
            Some((_, b)) => reason(*b),
            None => "\"\"".into(),
        };
        for (c, b) in cases.iter().rev().skip(1) {
            text = format!("({c} ? {} : {text})", reason(*b));
        }
        (fails, text)
    }
}

/// One check a counter makes of its hex: when it fails and what it reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The rule section; empty when the rules name none.
    pub section: String,
    /// The checker's kind of finding: `stacking`, `opposing-units`, `prohibited-hex` or
    /// `outside-setup`.
    pub kind: &'static str,
    /// When the hex breaks the rule: a BeanShell boolean, evaluated on the checking piece.
    pub broken: String,
    /// The checker's message: a BeanShell string, evaluated on the checking piece.
    pub message: String,
}

impl Check {
    /// The counters this check names after its message, as BeanShell: the side's or the
    /// hex's list. A setup line's message starts with the checking counter's name, so it
    /// names none after.
    fn units(&self) -> Option<String> {
        match self.kind {
            "stacking" => Some(list_of(SIDE_UNITS)),
            "outside-setup" => None,
            _ => Some(list_of(HEX_UNITS)),
        }
    }

    /// The Report Action's format: the message and the counters involved when the rule is
    /// broken, else nothing (VASSAL reports nothing for an empty text).
    pub fn report_format(&self) -> String {
        match self.units() {
            Some(units) => format!(
                "{{{} ? {} + \" \u{2014} \" + {units} : \"\"}}",
                self.broken, self.message
            ),
            None => format!("{{{} ? {} : \"\"}}", self.broken, self.message),
        }
    }
}

/// A global property listing counters, without its leading comma.
fn list_of(property: &str) -> String {
    format!("GetString({}).replaceFirst(\"^, \", \"\")", quote(property))
}

/// The rules compiled for VASSAL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveRules {
    /// The stacking checks, one per rule, made for the checking piece's side.
    pub stacking: Vec<Check>,
    /// The checks of the whole hex: opposing units, when the rules forbid them to stack,
    /// and prohibited terrain, when the board has any.
    pub hex: Vec<Check>,
    /// The check of the checking counter against its setup line, when a scenario places a
    /// counter on a hex.
    pub setup: Option<Check>,
    /// What could not be stated exactly, and what is checked instead, in words.
    pub approximations: Vec<String>,
}

impl LiveRules {
    /// Compiles the stacking rules, the rules on opposing units and prohibited terrain, and
    /// the setup lines of `doc`.
    pub fn compile(doc: &RulesetDoc) -> LiveRules {
        let formations: Vec<String> = doc
            .units
            .iter()
            .filter_map(|u| u.formation.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut approximations = Vec::new();
        let mut stacking = Vec::new();
        for rule in &doc.rules.stacking {
            approximations.extend(approximations_of(rule, doc));
            let counting = Counting::new(rule, doc);
            let alternatives: Vec<Vec<(Cond, String)>> = rule
                .any_of
                .iter()
                .map(|a| {
                    a.all_of.iter().map(|l| counting.limit(l, &formations)).collect()
                })
                .collect();
            // Broken when no alternative holds: each has a limit that fails, in a hex of
            // the terrains the rule holds in.
            let broken = if alternatives.is_empty() {
                Cond::Never
            } else {
                Cond::all(
                    alternatives.iter().map(|a| Cond::any(a.iter().map(|l| l.0.clone()))),
                )
                .and(holds_here(rule, doc))
            };
            if broken == Cond::Never {
                continue;
            }
            // The checker gives the first failing limit of the first alternative.
            let mut reason = "\"\"".to_string();
            for (fails, text) in alternatives[0].iter().rev() {
                reason = format!("({} ? {text} : {reason})", fails.text());
            }
            stacking.push(Check {
                section: rule.section.clone(),
                kind: "stacking",
                broken: broken.text(),
                message: concat(
                    &stacking_message(HEX, REASON, rule),
                    &[(HEX, HERE), (REASON, &reason)],
                ),
            });
        }
        let hex = opposing(doc).into_iter().chain(prohibited(doc)).collect();
        LiveRules { stacking, hex, setup: setup(doc), approximations }
    }

    /// Whether anything is checked.
    pub fn any(&self) -> bool {
        !self.stacking.is_empty() || !self.hex.is_empty() || self.setup.is_some()
    }

    /// Every check, stacking first.
    pub fn checks(&self) -> impl Iterator<Item = &Check> {
        self.stacking.iter().chain(&self.hex).chain(&self.setup)
    }

    /// The traits every counter carries for the checks (outermost first), in the `Counter`
    /// prototype: the triggers of a move and of the Check rules button, one report per
    /// check, and the highlight.
    pub fn traits(&self) -> Vec<Trait> {
        if !self.any() {
            return Vec::new();
        }
        let on_map = format!("CurrentMap == {}", quote(MAIN_MAP));
        let live = format!("{PREFERENCE} != false && {on_map}");
        let k =
            |keys: &[keys::Key]| keys.iter().map(keys::Key::encode).collect::<Vec<_>>();
        let mut after_move = vec![keys::CLEAR_UNITS];
        if !self.stacking.is_empty() {
            after_move.extend([keys::COLLECT_SIDE, keys::CHECK_SIDE]);
        }
        if !self.hex.is_empty() {
            after_move.extend([keys::COLLECT_HEX, keys::CHECK_HEX]);
        }
        if self.setup.is_some() {
            after_move.push(keys::CHECK_SETUP);
        }
        let mut out = vec![Trait::trigger(
            "Check the hex after a move",
            &format!("{{{live}}}"),
            &k(&[keys::MOVED]),
            &k(&after_move),
        )];
        if !self.stacking.is_empty() {
            // The lowest counter of its side in the stack checks the side's stacking.
            let lowest = count_location(
                &counter()
                    .and(own_side())
                    .and(Cond::Expr("StackPos < $StackPos$".into())),
            );
            out.push(Trait::trigger(
                "Check stacking for the Check rules button",
                &format!("{{{on_map} && {lowest} == 0}}"),
                &k(&[keys::CHECK_ALL]),
                &k(&[keys::CLEAR_UNITS, keys::COLLECT_SIDE, keys::CHECK_SIDE]),
            ));
            let broken =
                self.stacking.iter().map(|c| c.broken.as_str()).collect::<Vec<_>>();
            out.push(Trait::trigger(
                "List the side's counters of a hex that breaks a stacking rule",
                &format!("{{{}}}", broken.join(" || ")),
                &k(&[keys::COLLECT_SIDE]),
                &k(&[keys::GATHER_SIDE]),
            ));
        }
        if !self.hex.is_empty() {
            // The lowest counter other than a marker checks the whole hex.
            let lowest = count_location(
                &counter()
                    .and(not_marker())
                    .and(Cond::Expr("StackPos < $StackPos$".into())),
            );
            out.push(Trait::trigger(
                "Check the hex for the Check rules button",
                &format!("{{{on_map} && {} && {lowest} == 0}}", not_marker().text()),
                &k(&[keys::CHECK_ALL]),
                &k(&[keys::CLEAR_UNITS, keys::COLLECT_HEX, keys::CHECK_HEX]),
            ));
            let broken = self.hex.iter().map(|c| c.broken.as_str()).collect::<Vec<_>>();
            out.push(Trait::trigger(
                "List the counters of a hex that breaks a rule",
                &format!("{{{}}}", broken.join(" || ")),
                &k(&[keys::COLLECT_HEX]),
                &k(&[keys::GATHER_HEX]),
            ));
        }
        if self.setup.is_some() {
            out.push(Trait::trigger(
                "Check the setup line for the Check rules button",
                &format!("{{{on_map}}}"),
                &k(&[keys::CHECK_ALL]),
                &k(&[keys::CHECK_SETUP]),
            ));
        }
        // The counters of the hex (of the side) name themselves, in stack order.
        let here = format!(
            "GetString(\"CurrentMap\") == {} && {HERE} == \"$LocationName$\"",
            quote(MAIN_MAP)
        );
        let counters = Cond::Expr(here).and(counter());
        for (gather, name, of_side, list) in [
            (keys::GATHER_SIDE, keys::NAME_SIDE, true, SIDE_UNITS),
            (keys::GATHER_HEX, keys::NAME_HEX, false, HEX_UNITS),
        ] {
            if (of_side && self.stacking.is_empty()) || (!of_side && self.hex.is_empty())
            {
                continue;
            }
            let whose =
                if of_side { counters.clone().and(own_side()) } else { counters.clone() };
            out.push(Trait::global_key_command(
                &format!("Ask the counters for {list}"),
                &gather.encode(),
                &name.encode(),
                &format!("{{{}}}", whose.text()),
            ));
            out.push(Trait::set_global_property(
                list,
                &[
                    (keys::CLEAR_UNITS.encode(), String::new()),
                    (
                        name.encode(),
                        format!(
                            "{{GetString({}) + \", \" + GetString(\"BasicName\")}}",
                            quote(list)
                        ),
                    ),
                ],
            ));
        }
        for c in &self.stacking {
            out.push(Trait::report(&[keys::CHECK_SIDE.encode()], &c.report_format()));
        }
        for c in &self.hex {
            out.push(Trait::report(&[keys::CHECK_HEX.encode()], &c.report_format()));
        }
        if let Some(c) = &self.setup {
            out.push(Trait::report(&[keys::CHECK_SETUP.encode()], &c.report_format()));
        }
        let broken: Vec<&str> = self.checks().map(|c| c.broken.as_str()).collect();
        out.push(Trait::layer_following(
            LAYER,
            &format!("{{({live} && ({})) ? 2 : 1}}", broken.join(" || ")),
            &["", HIGHLIGHT_IMAGE],
        ));
        out
    }

    /// The frame drawn around a counter of `px` pixels whose hex breaks a rule.
    pub fn highlight_svg(px: u32) -> String {
        let w = f64::from(px);
        let t = (w / 16.0).max(3.0);
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{px}\" height=\"{px}\" \
             viewBox=\"0 0 {px} {px}\"><rect x=\"{h}\" y=\"{h}\" width=\"{s}\" height=\"{s}\" \
             fill=\"none\" stroke=\"#e00000\" stroke-width=\"{t}\"/></svg>",
            h = t / 2.0,
            s = w - t,
        )
    }

    /// The global properties that list the counters a check names, and, when counters are
    /// checked against their setup lines, the one that says whether they are, with its
    /// [`END_SETUP`] button.
    pub fn global_properties(&self) -> Vec<Element> {
        let mut out: Vec<Element> = [SIDE_UNITS, HEX_UNITS]
            .map(|name| {
                Element::new(".module.properties.GlobalProperty")
                    .attr("name", name)
                    .attr("initialValue", "")
                    .attr("description", "Counters named by the rule checks")
                    .attr("isNumeric", "false")
            })
            .to_vec();
        if self.setup.is_some() {
            out.push(
                Element::new(".module.properties.GlobalProperty")
                    .attr("name", SETUP)
                    .attr("initialValue", "false")
                    .attr(
                        "description",
                        "Whether counters are checked against their setup lines",
                    )
                    .attr("isNumeric", "false")
                    .child(
                        Element::new(".module.properties.ChangePropertyButton")
                            .attr("desc", "")
                            .attr("text", END_SETUP)
                            .attr("name", END_SETUP)
                            .attr(
                                "tooltip",
                                "Stop checking counters against their printed setup lines",
                            )
                            .attr("icon", "")
                            .attr("hotkey", "")
                            .attr(
                                "reportFormat",
                                "Setup ended: counters are no longer checked against \
                                 their setup lines",
                            )
                            .attr("propChanger", "P,false"),
                    ),
            );
        }
        out
    }

    /// The module preference that turns the checks after each move on and off.
    pub fn preference() -> Element {
        Element::new("VASSAL.preferences.BooleanPreference")
            .attr("default", "true")
            .attr(
                "desc",
                "Check the rules when a counter is moved and frame broken hexes",
            )
            .attr("name", PREFERENCE)
            .attr("tab", "Rules")
    }

    /// The main map's Check rules button: every counter on the map checks its hex, and each
    /// broken rule is reported once.
    pub fn check_button() -> Element {
        Element::new(".module.map.MassKeyCommand")
            .attr("name", CHECK_BUTTON)
            .attr("buttonText", CHECK_BUTTON)
            .attr(
                "tooltip",
                "Check every hex of the map against the rules and list what is broken",
            )
            .attr("icon", "")
            .attr("buttonHotkey", "")
            .attr("hotkey", keys::CHECK_ALL.encode())
            .attr("filter", "")
            .attr("deckCount", "-1")
            .attr("reportSingle", "false")
            .attr("reportFormat", "Checking every hex of the map against the rules")
            .attr("singleMap", "true")
    }
}

/// Whether `rule` holds in the checking piece's hex, going by the terrains it holds in or
/// not (`only_in`, `except_in`).
fn holds_here(rule: &StackingRule<String>, doc: &RulesetDoc) -> Cond {
    let hexes = |terrains: &[String]| -> Vec<&String> {
        doc.terrain
            .iter()
            .filter(|(_, ts)| ts.iter().any(|t| terrains.contains(t)))
            .map(|(hex, _)| hex)
            .collect()
    };
    let inside = |terrains: &[String]| match hexes(terrains) {
        list if list.is_empty() => Cond::Never,
        list => Cond::Expr(here_in(list)),
    };
    let only = if rule.only_in.is_empty() { Cond::Always } else { inside(&rule.only_in) };
    only.and(inside(&rule.except_in).not())
}

/// The pieces that make their hex hold their side's units, for the rule on opposing units:
/// counters other than markers and the units the rule excepts.
fn opposing_presence(doc: &RulesetDoc) -> Cond {
    counter().and(not_marker()).and(Cond::all(
        doc.rules.opposing_units_except.iter().map(|f| filter_cond(f, None).not()),
    ))
}

/// The check of opposing units sharing the hex, when the rules forbid it and the game has
/// two sides.
fn opposing(doc: &RulesetDoc) -> Option<Check> {
    let sides: BTreeSet<&str> = doc
        .units
        .iter()
        .filter(|u| u.category != Category::Marker)
        .map(|u| u.side.as_str())
        .collect();
    if doc.rules.opposing_units != OpposingUnits::Forbidden || sides.len() < 2 {
        return None;
    }
    let armed = |s: &str| {
        format!("{} > 0", count_location(&opposing_presence(doc).and(is("Side", s))))
    };
    let count: Vec<String> =
        sides.iter().map(|s| format!("({} ? 1 : 0)", armed(s))).collect();
    let names: Vec<String> = sides
        .iter()
        .map(|s| format!("({} ? {} : \"\")", armed(s), quote(&format!(" and {s}"))))
        .collect();
    let section = doc.rules.opposing_units_section.as_deref();
    Some(Check {
        section: section.unwrap_or_default().to_string(),
        kind: "opposing-units",
        broken: format!("({} >= 2)", count.join(" + ")),
        message: concat(
            &opposing_message(HEX, SIDES, section),
            &[
                (HEX, HERE),
                (SIDES, &format!("(\"\" + {}).substring(5)", names.join(" + "))),
            ],
        ),
    })
}

/// The check of a unit on a hex whose terrain no unit may enter, when the board has one.
fn prohibited(doc: &RulesetDoc) -> Option<Check> {
    let mut by_terrain: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
    for (hex, terrain) in &doc.prohibited {
        by_terrain.entry(terrain.as_str()).or_default().push(hex);
    }
    if by_terrain.is_empty() {
        return None;
    }
    let mut terrain = "\"\"".to_string();
    for (name, hexes) in by_terrain.iter().rev() {
        terrain =
            format!("({} ? {} : {terrain})", here_in(hexes.iter().copied()), quote(name));
    }
    let units = count_location(&counter().and(not_marker()));
    let section = doc.rules.prohibited_terrain_section.as_deref();
    Some(Check {
        section: section.unwrap_or_default().to_string(),
        kind: "prohibited-hex",
        broken: format!("({} && {units} > 0)", here_in(doc.prohibited.keys())),
        message: concat(
            &prohibited_message(HEX, TERRAIN, section),
            &[(HEX, HERE), (TERRAIN, &terrain)],
        ),
    })
}

/// The check of the checking counter against its setup line, while [`SETUP`] is on: when
/// some scenario places a counter on a hex its line names.
fn setup(doc: &RulesetDoc) -> Option<Check> {
    doc.scenarios.values().flat_map(|s| s.values()).any(|a| !a.hexes.is_empty()).then(
        || {
            let hexes = format!("GetString({})", quote(SETUP_HEXES));
            Check {
                section: String::new(),
                kind: "outside-setup",
                broken: format!(
                    "(GetString({}) == \"true\" && {hexes} != \"\" && !{hexes}.contains(\",\" + {HERE} + \",\"))",
                    quote(SETUP)
                ),
                message: format!(
                    "{} + \" (rule \" + GetString({}) + \")\"",
                    concat(
                        &setup_message(NAME, HEX, SAYS),
                        &[
                            (NAME, "GetString(\"BasicName\")"),
                            (HEX, HERE),
                            (SAYS, &format!("GetString({})", quote(SETUP_SAYS))),
                        ],
                    ),
                    quote(SETUP_RULE)
                ),
            }
        },
    )
}

/// What of `rule` VASSAL checks only approximately, in words.
fn approximations_of(rule: &StackingRule<String>, doc: &RulesetDoc) -> Vec<String> {
    let mut out = Vec::new();
    if rule.free.len() > 1 {
        out.push(format!(
            "rule {}: of several kinds of free units, a unit is free under the first kind it \
             matches and counts at its own size under the others",
            rule.section
        ));
    }
    // The excess of free units is counted without knowing which of them are the free ones:
    // exact when every free unit counts alike under a limit.
    for free in &rule.free {
        let units: Vec<_> = doc
            .units
            .iter()
            .map(|u| u.placed(""))
            .filter(|u| {
                !rule.ignore.iter().any(|f| f.matches(u, &u.size))
                    && free.units.matches(u, &u.size)
            })
            .collect();
        for limit in rule.any_of.iter().flat_map(|a| &a.all_of) {
            let counted: BTreeSet<bool> = units
                .iter()
                .map(|u| {
                    limit
                        .count
                        .matches(u, free.excess_counts_as.as_deref().unwrap_or(&u.size))
                })
                .collect();
            let mixed = counted.len() > 1;
            if mixed || (limit.same_formation && counted.contains(&true)) {
                out.push(format!(
                    "rule {}: of the {}, the {} free are taken to be {} where they can be \
                     (VASSAL does not know which are free), so a hex the checker finds over \
                     the limit on {} may pass",
                    rule.section,
                    free.units.describe(),
                    free.count,
                    limit.count.describe(),
                    limit.count.describe()
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(rules: &str) -> RulesetDoc {
        let unit = |id: &str, side: &str, category: &str, size: &str, formation: &str| {
            serde_json::json!({
                "id": id, "name": id.to_uppercase(), "side": side, "nationality": null,
                "formation": if formation.is_empty() { None } else { Some(formation) },
                "category": category, "type": "infantry", "size": size, "steps": 2,
            })
        };
        serde_json::from_value(serde_json::json!({
            "format": "muster-ruleset/1", "game": "g", "title": "G",
            "rules": serde_json::from_str::<serde_json::Value>(rules).expect("rules"),
            "units": [
                unit("a", "axis", "combat", "regiment", "ariete"),
                unit("b", "axis", "combat", "battalion", ""),
                unit("h", "axis", "hq", "hq", "ariete"),
                unit("m", "", "marker", "", ""),
                unit("x", "allied", "combat", "brigade", "1sa"),
            ],
            "hexes": ["0101"], "scenarios": {},
        }))
        .expect("a ruleset document")
    }

    /// An expression with the quotes of its inner expressions written `'`.
    fn plain(s: &str) -> String {
        s.replace("\\\"", "'")
    }

    /// A count of the pieces in the checking piece's hex that meet `e`.
    fn cl(e: &str) -> String {
        format!("CountLocation(GetString(\"LocationName\"), \"Main Map\", \"{{{e}}}\")")
    }

    const COUNTER: &str = "(Category == 'combat' || Category == 'hq' || Category == \
                           'supply' || Category == 'leader' || Category == 'marker')";

    #[test]
    fn a_count_of_units_is_a_count_of_the_pieces_of_the_side_in_the_hex() {
        let live = LiveRules::compile(&doc(
            r#"{"stacking": [{"section": "4.3", "ignore": [{"category": ["marker"]}],
                 "any_of": [{"all_of": [{"count": {}, "max": 3}]}]}]}"#,
        ));
        assert_eq!(live.stacking.len(), 1);
        let count =
            cl(&format!("{COUNTER} && Side == '$Side$' && !(Category == 'marker')"));
        let c = &live.stacking[0];
        assert_eq!(plain(&c.broken), format!("({count} > 3)"));
        assert_eq!(
            plain(&c.message),
            format!(
                "(GetString(\"LocationName\")) + \" holds \" + ((({count} > 3) ? ({count}) + \
                 \" units where at most 3 may stack\" : \"\")) + \" (rule 4.3)\""
            )
        );
        // Then the side's counters in the hex, listed before the report.
        assert_eq!(
            c.report_format(),
            format!(
                "{{{} ? {} + \" \u{2014} \" + GetString(\"RuleUnitsSide\").replaceFirst(\"^, \", \"\") : \"\"}}",
                c.broken, c.message
            )
        );
        assert!(live.approximations.is_empty());
    }

    #[test]
    fn points_are_the_printed_value_of_those_that_print_it_then_by_kind() {
        let mut d = doc(r#"{"stacking": [{"section": "12.1",
                 "points": {"value": "guns", "by": [{"units": {"size": ["regiment"]}, "points": 3}]},
                 "any_of": [{"all_of": [{"count": {}, "max": 10, "points": true}]}]}]}"#);
        d.units[1].values.insert("guns".into(), 5);
        let live = LiveRules::compile(&d);
        let own = format!("{COUNTER} && Side == '$Side$'");
        let printed = "',b,'.contains(',' + UnitId + ',')";
        let sum = format!(
            "SumLocation(\"Full_guns\", GetString(\"LocationName\"), \"Main Map\", \"{{{own} && {printed}}}\")"
        );
        let regiments = cl(&format!("{own} && !({printed}) && Size == 'regiment'"));
        let c = &live.stacking[0];
        assert_eq!(plain(&c.broken), format!("(({sum} + 3 * {regiments}) > 10)"));
        assert!(plain(&c.message).contains("stacking points of units where at most 10"));
    }

    #[test]
    fn excepted_units_never_make_a_hex_hold_opposing_units() {
        let live = LiveRules::compile(&doc(
            r#"{"opposing_units": "forbidden", "opposing_units_except": [{"category": ["hq"]}]}"#,
        ));
        let broken = plain(&live.hex[0].broken);
        let axis = cl(&format!(
            "{COUNTER} && Category != 'marker' && !(Category == 'hq') && Side == 'axis'"
        ));
        assert!(broken.contains(&format!("{axis} > 0")), "{broken}");
    }

    #[test]
    fn a_rule_of_some_terrains_is_broken_only_in_their_hexes() {
        let mut d = doc(
            r#"{"stacking": [{"section": "5.2", "only_in": ["town"], "except_in": ["river"],
                 "any_of": [{"all_of": [{"count": {}, "max": 6}]}]}]}"#,
        );
        d.terrain = [
            ("0101".to_string(), vec!["town".to_string()]),
            ("0102".to_string(), vec!["town".to_string(), "river".to_string()]),
        ]
        .into();
        let live = LiveRules::compile(&d);
        let broken = plain(&live.stacking[0].broken);
        let here = "GetString(\"LocationName\")";
        assert!(
            broken.ends_with(&format!(
                " && \",0101,0102,\".contains(\",\" + {here} + \",\") && !(\",0102,\".contains(\",\" + {here} + \",\")))"
            )),
            "{broken}"
        );
        // No hex of the terrain: the rule is never broken, and not compiled.
        d.terrain.clear();
        assert!(LiveRules::compile(&d).stacking.is_empty());
    }

    #[test]
    fn free_units_count_beyond_their_number_at_the_size_of_their_excess() {
        let live = LiveRules::compile(&doc(r#"{"stacking": [{"section": "5.1",
                 "free": [{"units": {"category": ["hq"]}, "count": 1, "excess_counts_as": "battalion"}],
                 "any_of": [{"all_of": [{"count": {}, "max": 5},
                                        {"count": {"size": ["regiment"]}, "max": 1}]}]}]}"#));
        let broken = plain(&live.stacking[0].broken);
        let own = cl(&format!("{COUNTER} && Side == '$Side$' && !(Category == 'hq')"));
        let hq = cl(&format!("{COUNTER} && Side == '$Side$' && Category == 'hq'"));
        // Every unit: those that are not HQs, and HQs beyond the first.
        assert!(
            broken.contains(&format!("({own} + ({hq} > 1 ? {hq} - 1 : 0)) > 5")),
            "{broken}"
        );
        // A regiment: an HQ's excess counts as a battalion, so HQs never count.
        let regiments = format!(
            "{} > 1",
            cl(&format!(
                "{COUNTER} && Side == '$Side$' && !(Category == 'hq') && Size == 'regiment'"
            ))
        );
        assert!(broken.contains(&regiments), "{broken}");
        assert!(live.approximations.is_empty(), "{:?}", live.approximations);
    }

    #[test]
    fn free_units_counted_unlike_each_other_are_an_approximation_said_in_words() {
        // Which of the free units are the free ones decides whether a regiment among them
        // counts: VASSAL counts the excess from the regiments first.
        let live = LiveRules::compile(&doc(r#"{"stacking": [{"section": "9.9",
                 "free": [{"units": {"category": ["combat", "hq"]}, "count": 1}],
                 "any_of": [{"all_of": [{"count": {"size": ["regiment"]}, "max": 1}]}]}]}"#));
        assert_eq!(live.approximations.len(), 1, "{:?}", live.approximations);
        assert!(
            live.approximations[0]
                .starts_with("rule 9.9: of the combat or HQ units, the 1 free are taken"),
            "{}",
            live.approximations[0]
        );
    }

    #[test]
    fn one_formation_is_one_of_the_games_formations_counting_every_unit() {
        let live = LiveRules::compile(&doc(
            r#"{"stacking": [{"section": "5.1", "any_of": [{"all_of": [
                 {"count": {"size": ["regiment", "brigade"]}, "max": 2, "same_formation": true}]}]}]}"#,
        ));
        let c = &live.stacking[0];
        let (broken, message) = (plain(&c.broken), plain(&c.message));
        let n = cl(&format!(
            "{COUNTER} && Side == '$Side$' && (Size == 'regiment' || Size == 'brigade')"
        ));
        let of = |f: &str| {
            format!(
                "{} == {n}",
                cl(&format!(
                    "{COUNTER} && Side == '$Side$' && (Size == 'regiment' || Size == \
                     'brigade') && Formation == '{f}'"
                ))
            )
        };
        assert_eq!(
            broken,
            format!("(({n} > 2 || {n} > 1 && !(({} || {}))))", of("1sa"), of("ariete"))
        );
        assert!(message.contains(&format!("({n} > 2 ? ({n}) + \" regiment or brigade units where at most 2 may stack\" : ({n}) + \" regiment or brigade units that are not all of one formation\")")), "{message}");
    }

    #[test]
    fn opposing_units_are_checked_only_where_the_rules_forbid_them() {
        for rules in [
            r#"{}"#,
            r#"{"opposing_units": "unstated"}"#,
            r#"{"opposing_units": "allowed", "opposing_units_section": "5.0"}"#,
        ] {
            let live = LiveRules::compile(&doc(rules));
            assert!(live.hex.is_empty(), "{rules}: no check of opposing units");
        }
    }

    #[test]
    fn opposing_units_are_two_sides_with_units_other_than_markers() {
        let live = LiveRules::compile(&doc(
            r#"{"opposing_units": "forbidden", "opposing_units_section": "6.3"}"#,
        ));
        assert!(live.stacking.is_empty() && live.setup.is_none());
        assert_eq!(live.hex.len(), 1);
        let c = &live.hex[0];
        assert_eq!((c.section.as_str(), c.kind), ("6.3", "opposing-units"));
        assert_eq!(c.broken.matches("CountLocation").count(), 2, "{}", c.broken);
        assert!(
            c.broken.contains("Side == \\\"allied\\\"") && c.broken.ends_with(">= 2)")
        );
        assert!(c.message.contains(".substring(5)"), "{}", c.message);
        assert!(
            c.message.ends_with("\"; opposing units never stack (rule 6.3)\""),
            "{}",
            c.message
        );
        let traits = live.traits();
        assert_eq!(
            traits.iter().map(Trait::id).collect::<Vec<_>>(),
            [
                "macro",     // after a move
                "macro",     // for the Check rules button
                "macro",     // list the counters of a broken hex
                "globalkey", // ... asking every counter
                "setprop",   // ... which add their names
                "report",
                "emb2"
            ]
        );
        let listed = traits[3].fields();
        assert_eq!(listed[1], keys::GATHER_HEX.encode());
        assert_eq!(listed[2], keys::NAME_HEX.encode());
        assert!(!listed[3].contains("$Side$"), "every counter of the hex: {}", listed[3]);
        let unstated = LiveRules::compile(&doc(r#"{"opposing_units": "unstated"}"#));
        assert!(!unstated.any() && unstated.traits().is_empty());
    }

    #[test]
    fn prohibited_terrain_is_the_hex_among_its_terrains_hexes_with_a_unit_in_it() {
        let mut d = doc(
            r#"{"opposing_units": "unstated", "prohibited_terrain_section": "5.3.1"}"#,
        );
        d.prohibited = [("0101", "sea"), ("0102", "sea"), ("0201", "qattara")]
            .map(|(h, t)| (h.to_string(), t.to_string()))
            .into();
        let live = LiveRules::compile(&d);
        assert_eq!(live.hex.len(), 1);
        let c = &live.hex[0];
        assert_eq!((c.section.as_str(), c.kind), ("5.3.1", "prohibited-hex"));
        let here = "\",\" + GetString(\"LocationName\") + \",\"";
        assert_eq!(
            plain(&c.broken),
            format!(
                "(\",0101,0102,0201,\".contains({here}) && {} > 0)",
                cl(&format!("{COUNTER} && Category != 'marker'"))
            )
        );
        assert_eq!(
            plain(&c.message),
            format!(
                "(GetString(\"LocationName\")) + \" is \" + ((\",0201,\".contains({here}) ? \
                 \"qattara\" : (\",0101,0102,\".contains({here}) ? \"sea\" : \"\"))) + \
                 \", which no unit may enter (rule 5.3.1)\""
            )
        );
        // It lists every counter of the hex, as the checker does.
        assert!(c.report_format().contains("GetString(\"RuleUnitsHex\")"));
    }

    #[test]
    fn a_setup_line_is_checked_from_the_counters_own_properties_while_the_setup_lasts() {
        let mut d = doc(r#"{"opposing_units": "unstated"}"#);
        assert!(LiveRules::compile(&d).setup.is_none(), "no scenario places a counter");
        let allowed = Allowed {
            hexes: ["0101".to_string(), "0102".to_string()].into(),
            printed: vec!["w/i 1 of 0101".into()],
            rule: "15.1".into(),
            starts: vec![],
        };
        d.scenarios.insert("s".into(), [("a".to_string(), allowed.clone())].into());
        let live = LiveRules::compile(&d);
        let c = live.setup.as_ref().expect("checked");
        assert_eq!(
            plain(&c.broken),
            "(GetString(\"MusterSetup\") == \"true\" && GetString(\"MusterSetupHexes\") != \"\" \
             && !GetString(\"MusterSetupHexes\").contains(\",\" + GetString(\"LocationName\") + \",\"))"
        );
        assert_eq!(
            plain(&c.message),
            "(GetString(\"BasicName\")) + \" stands in \" + (GetString(\"LocationName\")) + \
             \", but its setup says `\" + (GetString(\"MusterSetupSays\")) + \"`\" + \" (rule \" + \
             GetString(\"MusterSetupRule\") + \")\""
        );
        assert_eq!(
            setup_properties(&allowed),
            [
                (SETUP_HEXES, ",0101,0102,".to_string()),
                (SETUP_SAYS, "w/i 1 of 0101".to_string()),
                (SETUP_RULE, "15.1".to_string())
            ]
        );
        assert!(setup_properties(&Allowed::default()).is_empty(), "any hex will do");
        // Within one setup, lines that share their hexes share them joined; each keeps
        // its own wording, and other hexes are joined on their own.
        let mut memo = SetupProperties::default();
        let sharing = Allowed { printed: vec!["0101 or 0102".into()], ..allowed.clone() };
        let other = Allowed { hexes: vec!["0201".to_string()].into(), ..allowed.clone() };
        assert_eq!(memo.of(&allowed), setup_properties(&allowed));
        assert_eq!(memo.of(&sharing), setup_properties(&sharing));
        assert_eq!(memo.of(&sharing)[1], (SETUP_SAYS, "0101 or 0102".to_string()));
        assert_eq!(memo.of(&other)[0], (SETUP_HEXES, ",0201,".to_string()));
        assert!(memo.of(&Allowed::default()).is_empty());
        // Labels dropped while the memo stands are not mistaken for later ones.
        for i in 0..64 {
            let labels =
                Allowed { hexes: vec![format!("{i:04}")].into(), ..allowed.clone() };
            assert_eq!(memo.of(&labels)[0], (SETUP_HEXES, format!(",{i:04},")));
        }
        // The move and the Check rules button check it; the end-of-setup button turns it off.
        let traits = live.traits();
        let fired: Vec<String> = traits
            .iter()
            .filter(|t| t.id() == "macro")
            .map(|t| t.fields().join("|"))
            .collect();
        assert_eq!(fired.len(), 2, "{fired:?}");
        assert!(fired.iter().all(|f| f.contains(keys::CHECK_SETUP.name)), "{fired:?}");
        let properties = live.global_properties();
        let setup = properties.last().expect("the setup property").document();
        assert!(
            setup.contains("name=\"MusterSetup\"")
                && setup.contains("initialValue=\"false\"")
        );
        assert!(
            setup.contains("propChanger=\"P,false\"")
                && setup.contains("text=\"End setup\"")
        );
        assert_eq!(setup_restore(), "GlobalProperty\t;MusterSetup;true;Module");
        // The message names the counter first; the report lists no counters after it.
        assert_eq!(c.report_format(), format!("{{{} ? {} : \"\"}}", c.broken, c.message));
        assert!(!c.report_format().contains('\u{2014}'));
    }

    #[test]
    fn placeholders_become_concatenated_expressions() {
        assert_eq!(concat("a\u{1}n\u{1}b", &[(N, "x + 1")]), "\"a\" + (x + 1) + \"b\"");
        assert_eq!(concat("\u{1}n\u{1}", &[(N, "x")]), "(x)");
        assert_eq!(concat("say \"hi\"", &[]), "\"say \\\"hi\\\"\"");
    }

    #[test]
    fn steps_of_two_include_counters_of_unstated_steps() {
        let f: Filter<String> = serde_json::from_str(r#"{"steps": 2}"#).expect("filter");
        assert_eq!(filter_cond(&f, None).text(), "((Steps == 2 || Steps == \"\"))");
        let f: Filter<String> = serde_json::from_str(r#"{"steps": 1}"#).expect("filter");
        assert_eq!(filter_cond(&f, None).text(), "(Steps == 1)");
    }
}
