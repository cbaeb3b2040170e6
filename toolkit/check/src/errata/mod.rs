//! The errata checker: every inconsistency between manifest, order of battle, setups,
//! reinforcements and the rules' own statements, with where it is, what the rest of the
//! rulebook says and how sure the checker is.
//!
//! Nothing here names a seed unit: every finding comes from comparing a game's own data.
//! Each check is its own module and returns findings; `report` then merges the findings
//! that are one erratum printed in several places, marks the acknowledged ones and sorts
//! the list, most certain first.

mod allegiance;
mod chits;
mod counts;
mod differences;
mod manifest;
mod maps;
mod report;
mod scenarios;
mod setups;
mod texts;
mod unused;

use muster_model::{Certainty, FindingKind, Game, ParsedPlacement, Severity, Span};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::resolve::Resolver;
use crate::solve::{Solution, placements, solve_with};
pub(crate) use crate::unit_messages::counter_ref;
use crate::validate::{Finding, validate_solved};

/// One inconsistency. Its severity is its kind's ([`Erratum::severity`]); its certainty
/// says how sure the checker is that the data really disagrees with itself.
#[derive(Debug, Clone)]
pub struct Erratum {
    /// Game id.
    pub game: String,
    /// Kind of inconsistency.
    pub kind: FindingKind,
    /// The printed text at fault.
    pub subject: String,
    /// What the rest of the rulebook says (the manifest, a rule, another scenario).
    pub expected: Option<String>,
    /// The likely intended text: the counter and the section it comes from, with a
    /// similarity where one applies.
    pub suggestion: Option<String>,
    /// What is wrong.
    pub message: String,
    /// The rule section it concerns.
    pub section: String,
    /// The scenario, for setup findings.
    pub scenario: Option<String>,
    /// How sure the checker is.
    pub certainty: Certainty,
    /// What the certainty rests on.
    pub evidence: String,
    /// Acknowledged as known errata (the finding stays in the report).
    pub known: bool,
    /// A note from the acknowledgement.
    pub known_note: Option<String>,
    /// Where it is.
    pub span: Span,
    /// Other places that print the same erratum (the same line in another scenario, the
    /// setups that name a misprinted counter), in file order.
    pub also: Vec<Place>,
    /// What makes two findings one erratum, when the check knows better than the printed
    /// text (the counter and the two words that differ).
    pub(crate) key: Option<String>,
    /// The counters a misprinted unit is taken to mean (the nearest counter of an
    /// `unknown-unit`, the halves of a list with a missing comma): used by that line.
    pub(crate) means: Vec<String>,
}

/// Another place an erratum is printed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    /// Where.
    pub span: Span,
    /// The scenario, for setup lines.
    pub scenario: Option<String>,
    /// The rule section of that place.
    pub section: String,
}

impl Erratum {
    /// A finding of `kind` about `subject` at `span`, certain unless said otherwise.
    pub fn new(
        game: &Game,
        kind: FindingKind,
        subject: impl Into<String>,
        message: impl Into<String>,
        section: impl Into<String>,
        span: Span,
    ) -> Self {
        Erratum {
            game: game.id.clone(),
            kind,
            subject: subject.into(),
            expected: None,
            suggestion: None,
            message: message.into(),
            section: section.into(),
            scenario: None,
            certainty: Certainty::Certain,
            evidence: String::new(),
            known: false,
            known_note: None,
            span,
            also: Vec::new(),
            key: None,
            means: Vec::new(),
        }
    }

    /// One erratum with every finding of the same kind and `key`.
    pub(crate) fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// With what the rest of the rulebook says.
    pub fn expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// With the likely intended text.
    pub fn suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// In a scenario.
    pub fn scenario(mut self, scenario: &str) -> Self {
        self.scenario = Some(scenario.to_string());
        self
    }

    /// With a certainty and the evidence it rests on.
    pub fn sure(mut self, certainty: Certainty, evidence: impl Into<String>) -> Self {
        self.certainty = certainty;
        self.evidence = evidence.into();
        self
    }

    /// How bad it is: the severity of its kind.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }

    /// Does it need attention: an error or a warning that is not acknowledged?
    pub fn needs_attention(&self) -> bool {
        self.severity().needs_attention() && !self.known
    }

    /// The order of severity for reports: errors, then warnings, then information.
    pub fn rank(&self) -> u8 {
        match self.severity() {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        }
    }
}

impl Serialize for Erratum {
    /// Every field, with the severity, without the spans.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Erratum", 14)?;
        st.serialize_field("game", &self.game)?;
        st.serialize_field("kind", &self.kind)?;
        st.serialize_field("severity", &self.severity())?;
        st.serialize_field("certainty", &self.certainty)?;
        st.serialize_field("evidence", &self.evidence)?;
        st.serialize_field("subject", &self.subject)?;
        st.serialize_field("expected", &self.expected)?;
        st.serialize_field("suggestion", &self.suggestion)?;
        st.serialize_field("message", &self.message)?;
        st.serialize_field("section", &self.section)?;
        st.serialize_field("scenario", &self.scenario)?;
        st.serialize_field("known", &self.known)?;
        st.serialize_field("known_note", &self.known_note)?;
        st.end()
    }
}

/// One scenario of the game, solved once for every check that reads it.
pub(crate) struct Scenario<'g> {
    /// Scenario id.
    pub id: &'g str,
    /// The printed placements: setup (its own or the one it shares), reinforcements,
    /// groups.
    pub placements: Vec<&'g ParsedPlacement>,
    /// The solved setup, with each placement's resolutions and region.
    pub solution: &'g Solution,
    /// What validating the solved setup found ([`validate_solved`]).
    pub findings: &'g [Finding],
}

/// What every check reads: the game, its resolver and its solved scenarios.
pub(crate) struct Context<'g> {
    /// The game.
    pub game: &'g Game,
    /// Printed references resolved against the manifest.
    pub resolver: &'g Resolver<'g>,
    /// Every scenario, solved, in id order.
    pub scenarios: Vec<Scenario<'g>>,
}

impl<'g> Context<'g> {
    /// The context of `game`, whose printed references `resolver` resolves and whose
    /// scenarios `checked` solve and validate (any order); a scenario without them is in
    /// `missing`.
    fn new(
        game: &'g Game,
        resolver: &'g Resolver<'g>,
        checked: &[(&'g Solution, &'g [Finding])],
        missing: &'g [(Solution, Vec<Finding>)],
    ) -> Self {
        let scenarios = game
            .scenarios
            .iter()
            .filter_map(|s| {
                let (solution, findings) = checked
                    .iter()
                    .copied()
                    .chain(missing.iter().map(|(x, f)| (x, f.as_slice())))
                    .find(|(x, _)| x.scenario == s.id.v)?;
                Some(Scenario {
                    id: s.id.v.as_str(),
                    placements: placements(game, &s.id.v),
                    solution,
                    findings,
                })
            })
            .collect();
        Context { game, resolver, scenarios }
    }

    /// The scenario file of a solved scenario.
    pub fn file(&self, id: &str) -> Option<&'g muster_model::source::ScenarioFile> {
        self.game.scenarios.iter().find(|s| s.id.v == id)
    }
}

/// Finds every inconsistency of a game, most certain first.
pub fn errata(game: &Game) -> Vec<Erratum> {
    errata_of_checked(&Resolver::new(game), &[])
}

/// [`errata`] of the game `resolver` reads, some or all of whose scenarios are solved and
/// validated already: each `(solution, findings)` as [`solve_with`] and [`validate_solved`] give
/// them. The other scenarios are solved and validated here.
pub fn errata_of_checked<'g>(
    resolver: &'g Resolver<'g>,
    checked: &[(&'g Solution, &'g [Finding])],
) -> Vec<Erratum> {
    let game = resolver.game();
    let missing: Vec<(Solution, Vec<Finding>)> = game
        .scenarios
        .iter()
        .filter(|s| !checked.iter().any(|(x, _)| x.scenario == s.id.v))
        .map(|s| {
            let solution = solve_with(resolver, &s.id.v);
            let findings = validate_solved(game, &s.id.v, &solution);
            (solution, findings)
        })
        .collect();
    let cx = Context::new(game, resolver, checked, &missing);
    let mut out = Vec::new();
    out.extend(manifest::check(&cx));
    let setups = setups::check(&cx);
    let used = setups.used;
    out.extend(setups.errata);
    out.extend(manifest::units_nobody_owns(&cx, &used));
    out.extend(allegiance::check(&cx));
    let (mentioned, by_rule) = setups::mentions(&cx);
    out.extend(mentioned);
    let chits = chits::check(&cx, &by_rule, &out);
    out.extend(chits);
    out.extend(counts::check(&cx));
    out.extend(scenarios::check(&cx));
    out.extend(maps::check(&cx));
    out.extend(texts::check(&cx));
    out.extend(unused::check(&cx, &used, &by_rule, &out));
    report::finish(game, out)
}
