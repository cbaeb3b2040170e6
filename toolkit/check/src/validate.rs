//! Scenario validation and the checking of a concrete position.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use muster_hex::Cell;
use muster_model::{FindingKind, Game, ParsedPlacement, Severity, Span};
use muster_rules::{Allowed, Position, RuleKind, check_placement, check_stacking};
use serde::Deserialize;
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::region::Region;
use crate::resolve::{Resolution, Resolved};
use crate::solve::{self, Solution, placed, ruleset};

/// A problem with a scenario or a position. Its severity is its kind's
/// ([`Finding::severity`]). It reads back only as [`crate::stored`] writes it whole.
#[derive(Debug, Clone, Deserialize)]
pub struct Finding {
    /// Game id.
    pub game: String,
    /// Scenario id.
    pub scenario: String,
    /// What kind of problem.
    pub kind: FindingKind,
    /// The printed text at fault (a unit, a hex label, a location), which
    /// `errata.yaml` names to acknowledge it.
    pub subject: String,
    /// The rule section it concerns.
    pub rule: String,
    /// The printed hex label or location.
    pub location: String,
    /// Printed names of the units involved.
    pub units: Vec<String>,
    /// What is wrong.
    pub message: String,
    /// Acknowledged in `errata.yaml`, with its note: reported, but needing no attention.
    pub known: Option<String>,
    /// Where it is printed.
    #[serde(default)]
    pub span: Span,
}

impl Finding {
    /// How bad it is: the severity of its kind.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }

    /// Does it need attention: an error or a warning that is not acknowledged?
    pub fn needs_attention(&self) -> bool {
        self.severity().needs_attention() && self.known.is_none()
    }
}

impl Serialize for Finding {
    /// Game, scenario, kind, severity, subject, rule, location, units, message and whether
    /// it is known; written whole, the acknowledgement's note and the span instead.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Finding", 11)?;
        st.serialize_field("game", &self.game)?;
        st.serialize_field("scenario", &self.scenario)?;
        st.serialize_field("kind", &self.kind)?;
        st.serialize_field("severity", &self.severity())?;
        st.serialize_field("subject", &self.subject)?;
        st.serialize_field("rule", &self.rule)?;
        st.serialize_field("location", &self.location)?;
        st.serialize_field("units", &self.units)?;
        st.serialize_field("message", &self.message)?;
        if crate::public_json::public(self) {
            st.serialize_field("known", &self.known.is_some())?;
        } else {
            st.serialize_field("known", &self.known)?;
            st.serialize_field("span", &self.span)?;
        }
        st.end()
    }
}

/// The note of the acknowledgement in `errata.yaml` of a finding of `kind` about
/// `subject`, if the publisher acknowledged it (a note may be empty).
pub fn acknowledged(game: &Game, kind: FindingKind, subject: &str) -> Option<String> {
    game.known_errata
        .known
        .iter()
        .find(|k| k.kind.v == kind && k.subject.v == subject)
        .map(|k| k.note.clone().unwrap_or_default())
}

/// Validates a scenario's printed setup: every unit reference resolved, fixed placements
/// within the stacking rules, every group shown placeable (by solving it) or the reason it
/// cannot be.
pub fn validate_scenario(game: &Game, scenario: &str) -> Vec<Finding> {
    validate_solved(game, scenario, &solve::solve(game, scenario))
}

/// [`validate_scenario`] for a scenario already solved: `solution` is what
/// [`solve::solve`] gave for it.
pub fn validate_solved(game: &Game, scenario: &str, solution: &Solution) -> Vec<Finding> {
    let placements = solve::placements(game, scenario);
    let mut out = Findings { game, scenario, list: Vec::new() };
    printed_units(&mut out, solution, &placements);
    used_too_often(&mut out, solution, &placements);
    let reported = fixed_placements(&mut out, solution, &placements);
    not_placed(&mut out, solution, &reported);
    named_places(&mut out, &placements);
    unchecked_limits(&mut out, &placements);
    for a in crate::areas::unknown_areas(game, &placements) {
        out.push(
            FindingKind::UnknownArea,
            &a.area,
            &a.section,
            &a.area,
            vec![],
            a.message,
            a.span,
        );
    }
    let mut out = out.list;
    out.sort_by_key(|f| (f.span.file, f.span.line, f.span.column));
    out
}

/// The findings of one scenario as they are found.
struct Findings<'g> {
    game: &'g Game,
    scenario: &'g str,
    list: Vec<Finding>,
}

impl Findings<'_> {
    /// Adds a finding, acknowledged when `errata.yaml` acknowledges its kind and subject.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        kind: FindingKind,
        subject: &str,
        rule: &str,
        location: &str,
        units: Vec<String>,
        message: String,
        span: Span,
    ) {
        self.list.push(Finding {
            game: self.game.id.clone(),
            scenario: self.scenario.to_string(),
            kind,
            subject: subject.to_string(),
            rule: rule.to_string(),
            location: location.to_string(),
            units,
            message,
            known: acknowledged(self.game, kind, subject),
            span,
        });
    }

    /// Adds a finding about the printed unit `r` of the placement `p`.
    fn unit(
        &mut self,
        p: &ParsedPlacement,
        r: &Resolution,
        kind: FindingKind,
        message: String,
    ) {
        let location = p.location_text.as_ref().map(|t| t.v.clone()).unwrap_or_default();
        self.push(
            kind,
            &r.printed,
            &p.section,
            &location,
            vec![r.printed.clone()],
            message,
            r.span,
        );
    }

    /// A side's name as printed, or its id.
    fn side_name(&self, id: &str) -> String {
        self.game
            .meta
            .sides
            .iter()
            .find(|s| s.id.v == id)
            .map_or(id.to_string(), |s| s.name.clone())
    }
}

/// Printed units: unknown, printed otherwise, of the other side, marked oddly.
fn printed_units(
    out: &mut Findings,
    solution: &Solution,
    placements: &[&ParsedPlacement],
) {
    let game = out.game;
    for (pi, res) in solution.resolutions.iter().enumerate() {
        let p = placements[pi];
        for (k, r) in res.iter().enumerate() {
            if let Resolved::Formation { id, whole: true } = &r.to
                && r.count > 0
            {
                let counters: u32 =
                    res.iter().filter(|c| c.parent == Some(k)).map(|c| c.count).sum();
                if counters != r.count && counters > 0 {
                    let message = format!(
                        "`{}` is printed with {} units, but the order of battle gives {id} {counters} counters; all {counters} are placed",
                        r.printed, r.count
                    );
                    out.unit(p, r, FindingKind::CountMismatch, message);
                }
            }
            if let (Some((sel, span)), Resolved::Unit { id, .. }) =
                (&r.unmatched_selector, &r.to)
            {
                let name =
                    game.unit(id).map_or(r.printed.as_str(), |u| u.printed.v.as_str());
                let location =
                    p.location_text.as_ref().map(|t| t.v.clone()).unwrap_or_default();
                out.push(
                    FindingKind::UnknownMark,
                    sel,
                    &p.section,
                    &location,
                    vec![r.printed.clone()],
                    format!(
                        "`{sel}` tells apart none of the counters printed `{name}` (no word of their note, id, formation or values), so muster chose `{id}` without it"
                    ),
                    *span,
                );
            }
            match &r.to {
                Resolved::Unit {
                    id,
                    differs_from,
                    other_side,
                    listed_under,
                    by_type,
                } => {
                    let found = Found {
                        id,
                        differs: differs_from.is_some(),
                        other_side: other_side.as_deref(),
                        listed_under: listed_under.as_deref(),
                        by_type: by_type.as_deref(),
                    };
                    unit_found(out, p, r, &found);
                }
                Resolved::UnknownMark { mark } => {
                    let cell = &p.units.printed[r.cell].v;
                    let open = r
                        .read
                        .first()
                        .and_then(|at| cell[..at.start].trim_end().chars().next_back())
                        .filter(|c| *c == '[')
                        .unwrap_or('(');
                    out.unit(
                        p,
                        r,
                        FindingKind::UnknownMark,
                        unknown_mark(game, mark, open),
                    );
                }
                Resolved::Unknown { nearest } => {
                    let hint = nearest
                        .first()
                        .map(|(_, n, s)| {
                            format!("; did you mean `{n}`? (similarity {s:.2})")
                        })
                        .unwrap_or_default();
                    let message =
                        format!("`{}` names no counter of the manifest{hint}", r.printed);
                    out.unit(p, r, FindingKind::UnknownUnit, message);
                }
                Resolved::NotACounter => {
                    let message = format!(
                        "`{}` is no counter of the manifest (a chit, replacement points, a withdrawal or units described by their kind), so no counter is placed for it",
                        r.printed
                    );
                    out.unit(p, r, FindingKind::NotACounter, message);
                }
                Resolved::Formation { .. } => {}
            }
        }
    }
}

/// What a printed unit resolved to, as [`Resolved::Unit`] says it.
struct Found<'a> {
    id: &'a str,
    differs: bool,
    other_side: Option<&'a str>,
    listed_under: Option<&'a str>,
    by_type: Option<&'a str>,
}

/// The findings of a printed unit that names a counter: listed under another formation,
/// named only by its type, printed with other words, of the other side, or marked reduced
/// on a counter of one side.
fn unit_found(out: &mut Findings, p: &ParsedPlacement, r: &Resolution, found: &Found) {
    let game = out.game;
    let id = found.id;
    let counter = game.unit(id);
    if let Some(f) = found.listed_under {
        let message = crate::unit_messages::other_formation(game, &r.printed, f, id);
        out.unit(p, r, FindingKind::OtherFormation, message);
    }
    if let Some(t) = found.by_type {
        let used = crate::unit_messages::counter_ref(game, id, "");
        let message = crate::unit_messages::by_type(game, &r.printed, t, &used);
        out.unit(p, r, FindingKind::UnitByType, message);
    }
    if let Some(u) = counter
        && let Some((kind, message)) =
            crate::words::warning(game, &r.printed, r.label.as_deref(), u, found.differs)
    {
        out.unit(p, r, kind, message);
    }
    if let (Some(theirs), Some(u)) = (found.other_side, counter) {
        let message = format!(
            "`{}` is listed in the {} setup, but the manifest's `{}` is a {} counter",
            r.printed,
            out.side_name(&p.side),
            u.printed.v,
            out.side_name(theirs)
        );
        out.unit(p, r, FindingKind::OtherSide, message);
    }
    if r.reduced && counter.is_some_and(|u| u.single_sided) {
        let message = format!(
            "`{}` is marked as starting reduced, but its counter is printed on one side only",
            r.printed
        );
        out.unit(p, r, FindingKind::NoReducedSide, message);
    }
}

/// The message of a parenthesised mark the game's notation does not declare, with the
/// marks it does and the nearest of them.
/// The message of a mark the notation does not declare, quoted with the bracket it is
/// printed in (`(a)` or `[a]`).
fn unknown_mark(game: &Game, mark: &str, open: char) -> String {
    let printed = if open == '[' { format!("[{mark}]") } else { format!("({mark})") };
    let n = &game.meta.notation;
    let declared: Vec<String> = n
        .reduced_marks
        .iter()
        .chain(&n.independent_marks)
        .chain(&n.remarks)
        .chain(n.type_codes.iter().map(|c| &c.code))
        .map(|m| format!("({m})"))
        .collect();
    let near = declared
        .iter()
        .find(|d| d.eq_ignore_ascii_case(&format!("({mark})")))
        .cloned()
        .or_else(|| muster_model::suggest(mark, declared.iter().map(String::as_str)));
    let declares = if declared.is_empty() {
        "it declares none; marks go in `notation` in game.yaml".to_string()
    } else {
        format!("it declares {}", declared.join(", "))
    };
    let hint = near.map(|m| format!("; did you mean `{m}`?")).unwrap_or_default();
    format!(
        "`{printed}` is no mark of this game's notation, so it is not read ({declares}){hint}"
    )
}

/// Counters used more often than the manifest has them: listed twice, or set up and also
/// a reinforcement.
fn used_too_often(
    out: &mut Findings,
    solution: &Solution,
    placements: &[&ParsedPlacement],
) {
    let game = out.game;
    for d in &solution.duplicates {
        let (first, extra) = (placements[d.first], placements[d.placement]);
        let at = |span: Span, section: &str| {
            if span.is_detached() {
                format!("section {section}")
            } else {
                format!("line {} (section {section})", span.line)
            }
        };
        let name = game.unit(&d.unit).map_or(d.printed.clone(), |u| u.printed.v.clone());
        let (kind, message) = if d.reinforcement {
            (
                FindingKind::SetupAndReinforcement,
                format!(
                    "`{name}` is set up at start and also arrives as a reinforcement (at {} and here); the manifest has {} counter(s), so this use is not placed",
                    at(d.first_span, &first.section),
                    d.counters
                ),
            )
        } else {
            (
                FindingKind::ListedTwice,
                format!(
                    "`{name}` is listed again, after {}; the manifest has {} counter(s), so this use is not placed",
                    at(d.first_span, &first.section),
                    d.counters
                ),
            )
        };
        let location =
            extra.location_text.as_ref().map(|t| t.v.clone()).unwrap_or_default();
        out.push(
            kind,
            &name,
            &extra.section,
            &location,
            vec![name.clone()],
            message,
            d.span,
        );
    }
}

/// Fixed placements: every line that names exactly one hex, checked together per hex
/// against the stacking rules. Returns the placements whose hex was reported.
fn fixed_placements(
    out: &mut Findings,
    solution: &Solution,
    placements: &[&ParsedPlacement],
) -> Vec<usize> {
    let game = out.game;
    let rules = ruleset(game);
    let terrain = crate::region::rule_terrain(game);
    let mut fixed: BTreeMap<Cell, Vec<(usize, String)>> = BTreeMap::new();
    for (pi, reg) in solution.regions.iter().enumerate() {
        if let Some(Region::Hexes { anchors, distance: 0, .. }) = reg
            && anchors.len() == 1
        {
            for u in solution.units.iter().filter(|u| u.placement == pi) {
                fixed.entry(anchors[0]).or_default().push((pi, u.unit.clone()));
            }
        }
    }
    let not_placed = |lines: &[usize]| -> Vec<String> {
        solution
            .problems
            .iter()
            .filter(|pr| lines.contains(&pr.placement))
            .flat_map(|pr| pr.units.iter().map(|n| format!("`{n}`")))
            .collect()
    };
    let mut reported = Vec::new();
    for (cell, list) in &fixed {
        let label = game.board.as_ref().and_then(|b| b.label(*cell)).unwrap_or_default();
        let mut units: Vec<_> = list
            .iter()
            .enumerate()
            .filter_map(|(k, (_, id))| placed(game, id, k, &label))
            .collect();
        crate::region::on_terrain(&terrain, &mut units);
        let lines: Vec<usize> = list.iter().map(|(pi, _)| *pi).collect();
        let left = not_placed(&lines);
        let held = if left.is_empty() {
            String::new()
        } else {
            format!("; {} not placed (held in `{}`)", left.join(", "), solve::NOT_PLACED)
        };
        for f in check_stacking(&rules, &Position { units }) {
            let p = placements[list[0].0];
            let what = match f.kind {
                RuleKind::OpposingUnits => "puts opposing units in",
                _ => "overstacks",
            };
            out.push(
                f.kind.into(),
                &label,
                &f.rule,
                &label,
                f.units,
                format!("the printed setup {what} {label}: {}{held}", f.message),
                p.location_text.as_ref().map_or(Span::detached(), |t| t.span),
            );
            reported.extend(lines.iter().copied());
        }
    }
    reported
}

/// Hexes printed with a place name (`1217 (Charleroi)`) that the maps name otherwise: a
/// place the maps put elsewhere, or one no map names.
fn named_places(out: &mut Findings, placements: &[&ParsedPlacement]) {
    use muster_model::notation::LocationExpr;
    let game = out.game;
    let Some(board) = &game.board else { return };
    for p in placements {
        let (Some(LocationExpr::Named { hex, place }), Some(text)) =
            (&p.location, &p.location_text)
        else {
            continue;
        };
        let Ok(cell) = board.parse(&hex.label) else { continue };
        let cells = crate::region::place_cells(game, place);
        if cells.contains(&cell) {
            continue;
        }
        let message = if cells.is_empty() {
            format!(
                "`{}` names `{place}`, but no map names a place `{place}` (a feature with that `name` in maps/*.yaml); the units stand on {}",
                text.v, hex.label
            )
        } else {
            let at: Vec<String> = cells.iter().filter_map(|c| board.label(*c)).collect();
            format!(
                "`{}` puts `{place}` on {}, but the map names `{place}` at {}; the units stand on {}",
                text.v,
                hex.label,
                at.join(", "),
                hex.label
            )
        };
        out.push(
            FindingKind::PlaceDiffers,
            place,
            &p.section,
            &text.v,
            vec![],
            message,
            hex_span(text, hex),
        );
    }
}

/// Limits printed after a location that muster cannot check (`…, but west or south of
/// Boatswain’s Swamp`): the units stand in the location, perhaps outside the limit.
fn unchecked_limits(out: &mut Findings, placements: &[&ParsedPlacement]) {
    use muster_model::notation::LocationExpr;
    for p in placements {
        let (Some(LocationExpr::Limited { limit, .. }), Some(text)) =
            (&p.location, &p.location_text)
        else {
            continue;
        };
        out.push(
            FindingKind::UncheckedLimit,
            &limit.label,
            &p.section,
            &text.v,
            vec![],
            format!(
                "`{}` is not checked: muster cannot tell which hexes it allows; the units stand anywhere in the location before it",
                limit.label
            ),
            hex_span(text, limit),
        );
    }
}

/// The span of a printed hex inside its location cell.
fn hex_span(
    text: &muster_model::Spanned<String>,
    hex: &muster_model::notation::HexRef,
) -> Span {
    crate::resolve::locate(text, hex.range.clone())
}

/// Units that could not be placed, and why, but those of the lines `reported` already.
fn not_placed(out: &mut Findings, solution: &Solution, reported: &[usize]) {
    for pr in solution.problems.iter().filter(|pr| !reported.contains(&pr.placement)) {
        let subject = match solution.regions.get(pr.placement) {
            Some(Some(Region::Unresolved { bad_label: Some(l), .. })) => l.clone(),
            _ => pr.location.clone(),
        };
        // A bad or prohibited hex is located by its label.
        out.push(
            pr.kind,
            &subject,
            &pr.rule,
            &subject,
            pr.units.clone(),
            pr.message.clone(),
            pr.span,
        );
    }
}

/// Where each counter of a scenario may stand at the start: the union of the regions of
/// the printed lines that place it, with their printed locations.
pub fn allowed_hexes(game: &Game, scenario: &str) -> BTreeMap<String, Allowed> {
    allowed_in(game, scenario, &solve::solve(game, scenario))
}

/// [`allowed_hexes`] from the scenario's solution, already solved.
pub fn allowed_in(
    game: &Game,
    scenario: &str,
    solution: &Solution,
) -> BTreeMap<String, Allowed> {
    let mut allowed: BTreeMap<String, Allowed> = BTreeMap::new();
    let Some(board) = &game.board else { return allowed };
    let placements = solve::placements(game, scenario);
    // The units of one placement share its region: its labels are written and sorted once,
    // and held once. So do placements of the same hexes (lines printing one location).
    let mut labels: HashMap<usize, Arc<[String]>> = HashMap::new();
    let mut of_cells: HashMap<&[Cell], Arc<[String]>> = HashMap::new();
    // Counters whose hexes come from more than one line, to be sorted again at the end.
    let mut merged: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for u in &solution.units {
        if let Some(Some(Region::Hexes { cells, .. })) = solution.regions.get(u.placement)
        {
            let hexes = labels.entry(u.placement).or_insert_with(|| {
                let shared = of_cells.entry(cells.as_slice()).or_insert_with(|| {
                    let mut hexes: Vec<String> =
                        cells.iter().filter_map(|c| board.label(*c)).collect();
                    hexes.sort();
                    hexes.dedup();
                    hexes.into()
                });
                Arc::clone(shared)
            });
            let e = allowed.entry(u.unit.clone()).or_default();
            let line = &placements[u.placement];
            if e.rule.is_empty() {
                e.rule = line.section.clone();
            }
            if e.hexes.is_empty() {
                e.hexes = Arc::clone(hexes);
            } else if e.hexes != *hexes {
                merged
                    .entry(u.unit.clone())
                    .or_insert_with(|| e.hexes.to_vec())
                    .extend(hexes.iter().cloned());
            }
            if let Some(t) = &line.location_text
                && !e.printed.contains(&t.v)
            {
                e.printed.push(t.v.clone());
            }
        }
    }
    for (unit, mut hexes) in merged {
        if let Some(a) = allowed.get_mut(&unit) {
            hexes.sort();
            hexes.dedup();
            a.hexes = hexes.into();
        }
    }
    allowed
}

/// Checks a concrete position (a player's setup) against a scenario: hexes overstacked
/// under which rule, and units standing where their printed setup does not allow.
pub fn check_position(game: &Game, scenario: &str, position: &Position) -> Vec<Finding> {
    let finding = |kind: FindingKind| {
        move |f: muster_rules::Finding| Finding {
            game: game.id.clone(),
            scenario: scenario.to_string(),
            kind,
            subject: f.location.clone(),
            known: None,
            rule: f.rule,
            location: f.location,
            units: f.units,
            message: f.message,
            span: Span::detached(),
        }
    };
    let mut position = position.clone();
    crate::region::on_terrain(&crate::region::rule_terrain(game), &mut position.units);
    let mut out: Vec<Finding> = check_stacking(&ruleset(game), &position)
        .into_iter()
        .map(|f| finding(f.kind.into())(f))
        .collect();
    let allowed = allowed_hexes(game, scenario);
    out.extend(
        check_placement(&allowed, &position)
            .into_iter()
            .map(finding(FindingKind::OutsideSetup)),
    );
    out
}
