//! The errata checker: every inconsistency between manifest, order of battle, setups,
//! reinforcements and the rules' own statements, with where it is and what was meant.
//!
//! Nothing here names a seed unit: every finding comes from comparing a game's own data.

use std::collections::BTreeMap;

use muster_model::notation::parse_location;
use muster_model::source::{Comparison, Contradiction, FeatureKind};
use muster_model::{FindingKind, Game, PlacementKind, Severity, Span};
use muster_rules::Category;
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::resolve::{Resolved, Resolver, normalise};
use crate::solve::{placements, solve};

/// One inconsistency. Its severity is its kind's ([`Erratum::severity`]).
#[derive(Debug, Clone)]
pub struct Erratum {
    /// Game id.
    pub game: String,
    /// Kind of inconsistency.
    pub kind: FindingKind,
    /// The printed text at fault.
    pub subject: String,
    /// What the manifest or rule says.
    pub expected: Option<String>,
    /// The likely intended text, with a similarity where one applies.
    pub suggestion: Option<String>,
    /// What is wrong.
    pub message: String,
    /// The rule section it concerns.
    pub section: String,
    /// The scenario, for setup findings.
    pub scenario: Option<String>,
    /// Acknowledged as known errata (the finding stays in the report).
    pub known: bool,
    /// A note from the acknowledgement.
    pub known_note: Option<String>,
    /// Where it is.
    pub span: Span,
}

impl Erratum {
    /// How bad it is: the severity of its kind.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }

    /// Does it need attention: an error or a warning that is not acknowledged?
    pub fn needs_attention(&self) -> bool {
        self.severity().needs_attention() && !self.known
    }

    /// The order of certainty for reports: errors, then warnings, then information.
    pub fn rank(&self) -> u8 {
        match self.severity() {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        }
    }
}

impl Serialize for Erratum {
    /// Every field, with the severity, without the span.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Erratum", 12)?;
        st.serialize_field("game", &self.game)?;
        st.serialize_field("kind", &self.kind)?;
        st.serialize_field("severity", &self.severity())?;
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

/// Finds every inconsistency of a game.
pub fn errata(game: &Game) -> Vec<Erratum> {
    let mut out = Vec::new();
    let resolver = Resolver::new(game);
    let mut e = |kind: FindingKind,
                 subject: &str,
                 expected: Option<String>,
                 suggestion: Option<String>,
                 message: String,
                 section: &str,
                 scenario: Option<&str>,
                 span: Span| {
        out.push(Erratum {
            game: game.id.clone(),
            kind,
            subject: subject.into(),
            expected,
            suggestion,
            message,
            section: section.into(),
            scenario: scenario.map(String::from),
            known: false,
            known_note: None,
            span,
        });
    };

    // Manifest: HQs that name another formation, and duplicate printed names.
    for u in game.units.iter().filter(|u| u.category == Category::Hq) {
        let (Some(own), Some(named)) =
            (u.formation.as_deref(), resolver.formation_by_heading(&u.name.designation))
        else {
            continue;
        };
        let designation = normalise(&u.name.designation);
        let own_names = game.formation(own).map(|f| {
            std::iter::once(&f.printed)
                .chain(&f.also_printed)
                .any(|n| normalise(&n.v) == designation)
        });
        if own != named
            && own_names != Some(true)
            && !crate::solve::descendants(game, named).iter().any(|f| f == own)
            && !crate::solve::descendants(game, own).iter().any(|f| f == named)
        {
            let own_name =
                game.formation(own).map(|f| f.printed.v.clone()).unwrap_or_default();
            let named_name =
                game.formation(named).map(|f| f.printed.v.clone()).unwrap_or_default();
            e(
                FindingKind::HqOfOtherFormation,
                &u.printed.v,
                Some(format!("the HQ of {own_name}")),
                None,
                format!(
                    "`{}` is listed as the HQ of {own_name} but names {named_name}",
                    u.printed.v
                ),
                u.section.as_deref().unwrap_or_default(),
                None,
                u.printed.span,
            );
        }
    }
    let mut by_name: BTreeMap<String, Vec<&muster_model::Unit>> = BTreeMap::new();
    for u in &game.units {
        by_name.entry(normalise(&u.printed.v)).or_default().push(u);
    }
    for list in by_name.values().filter(|l| l.len() > 1) {
        for u in &list[1..] {
            if list[0].front == u.front && list[0].size == u.size {
                e(
                    FindingKind::DuplicateName,
                    &u.printed.v,
                    None,
                    None,
                    format!(
                        "`{}` is printed for {} counters (also in section {})",
                        u.printed.v,
                        list.len(),
                        list[0].section.clone().unwrap_or_default()
                    ),
                    u.section.as_deref().unwrap_or_default(),
                    None,
                    u.printed.span,
                );
            }
        }
    }

    // Setups, reinforcements and groups.
    let mut used_anywhere: BTreeMap<String, u32> = BTreeMap::new();
    for s in &game.scenarios {
        let sid = s.id.v.as_str();
        let solution = solve(game, sid);
        let ps = placements(game, sid);
        let mut uses: BTreeMap<&str, Vec<(usize, Span)>> = BTreeMap::new();
        for (pi, res) in solution.resolutions.iter().enumerate() {
            let p = ps[pi];
            for r in res {
                match &r.to {
                    Resolved::Unknown { nearest } => {
                        let split = if r.unparsed {
                            None
                        } else {
                            missing_comma(&resolver, &r.printed, &p.side)
                        };
                        let (suggestion, message) = match (&split, nearest.first()) {
                            _ if r.unparsed => (
                                None,
                                format!(
                                    "`{}` fits no form of the printed unit notation",
                                    r.printed
                                ),
                            ),
                            (Some((a, b)), _) => (
                                Some(format!("{a}, {b}")),
                                format!(
                                    "`{}` reads as two units with a missing comma: `{a}` and `{b}`",
                                    r.printed
                                ),
                            ),
                            (None, Some((_, name, score))) => (
                                Some(format!("{name} (similarity {score:.2})")),
                                format!(
                                    "`{}` names no counter of the manifest; the nearest is `{name}`",
                                    r.printed
                                ),
                            ),
                            _ => (
                                None,
                                format!(
                                    "`{}` names no counter of the manifest",
                                    r.printed
                                ),
                            ),
                        };
                        e(
                            if split.is_some() || r.unparsed {
                                FindingKind::UnparsableList
                            } else {
                                FindingKind::UnknownUnit
                            },
                            &r.printed,
                            None,
                            suggestion,
                            message,
                            &p.section,
                            Some(sid),
                            r.span,
                        );
                    }
                    Resolved::Unit { id, differs_from, listed_under } => {
                        if r.parent.is_none()
                            || !matches!(
                                res.get(r.parent.unwrap_or(0)).map(|x| &x.to),
                                Some(Resolved::Unit { .. })
                            )
                        {
                            for _ in 0..r.count {
                                uses.entry(id.as_str()).or_default().push((pi, r.span));
                            }
                        }
                        *used_anywhere.entry(id.clone()).or_default() += 1;
                        if let Some(m) = differs_from {
                            e(
                                FindingKind::NameDiffers,
                                &r.printed,
                                Some(m.clone()),
                                Some(m.clone()),
                                format!(
                                    "`{}` is printed `{m}` in the manifest",
                                    r.printed
                                ),
                                &p.section,
                                Some(sid),
                                r.span,
                            );
                        }
                        if let Some(f) = listed_under {
                            let unit = game.unit(id);
                            let own = unit
                                .and_then(|u| u.formation.as_deref())
                                .and_then(|f| game.formation(f))
                                .map(|f| f.printed.v.clone())
                                .unwrap_or_default();
                            let under = game
                                .formation(f)
                                .map(|f| f.printed.v.clone())
                                .unwrap_or_default();
                            e(
                                FindingKind::OtherFormation,
                                &r.printed,
                                Some(format!("a unit of {own}")),
                                None,
                                format!(
                                    "`{}` is listed under {under}, but the manifest places it in {own}",
                                    r.printed
                                ),
                                &p.section,
                                Some(sid),
                                r.span,
                            );
                        }
                    }
                    _ => {}
                }
            }
        }
        for (id, list) in &uses {
            let count = game
                .unit(id)
                .or_else(|| game.markers.iter().find(|m| m.id == *id))
                .map_or(1, |u| u.count.max(1));
            let is_marker = game.markers.iter().any(|m| m.id == *id);
            if is_marker || list.len() as u32 <= count {
                continue;
            }
            let kinds: Vec<PlacementKind> =
                list.iter().map(|(pi, _)| ps[*pi].kind).collect();
            let both = kinds.contains(&PlacementKind::Setup)
                && kinds.contains(&PlacementKind::Reinforcement);
            let (pi, span) = list[1];
            let name = game.unit(id).map(|u| u.printed.v.clone()).unwrap_or_default();
            e(
                if both {
                    FindingKind::SetupAndReinforcement
                } else {
                    FindingKind::ListedTwice
                },
                &name,
                Some(format!("{count} counter")),
                None,
                if both {
                    format!(
                        "`{name}` is set up at start and also arrives as a reinforcement"
                    )
                } else {
                    format!("`{name}` is listed {} times in one scenario", list.len())
                },
                &ps[pi].section,
                Some(sid),
                span,
            );
        }
        // Stated counts.
        for c in &s.stated_counts {
            let actual = if c.what == "victory-hexes" {
                Some(
                    game.maps
                        .iter()
                        .flat_map(|m| &m.features)
                        .filter(|f| {
                            f.kind == FeatureKind::VictoryHex && f.section == c.section
                        })
                        .count(),
                )
            } else if let Some(f) = c.what.strip_prefix("formation:") {
                Some(
                    game.units
                        .iter()
                        .filter(|u| {
                            u.formation.as_deref() == Some(f)
                                && u.section.as_deref() == Some(c.section.as_str())
                        })
                        .count(),
                )
            } else if let Some(side) = c.what.strip_prefix("setup:") {
                Some(
                    solution
                        .units
                        .iter()
                        .filter(|u| {
                            u.side == side && ps[u.placement].kind == PlacementKind::Setup
                        })
                        .count(),
                )
            } else if let Some(name) = c.what.strip_prefix("placed:") {
                Some(
                    solution
                        .units
                        .iter()
                        .filter(|u| {
                            u.name == name
                                && solution.units.iter().any(|_| true)
                                && ps[u.placement].kind == PlacementKind::Setup
                        })
                        .count(),
                )
            } else {
                None
            };
            let contradicts = |n: usize| match c.compare {
                Comparison::Exactly => n as u32 != c.count,
                Comparison::AtLeast => (n as u32) < c.count,
            };
            if let Some(n) = actual
                && contradicts(n)
            {
                // Where the list stops short or is not printed at all, the gap is recorded
                // in the data rather than an inconsistency of the rulebook.
                let kind = if n == 0 || s.incomplete.is_some() {
                    FindingKind::CountIncomplete
                } else {
                    FindingKind::CountMismatch
                };
                e(
                    kind,
                    &c.quote,
                    Some(match c.compare {
                        Comparison::Exactly => c.count.to_string(),
                        Comparison::AtLeast => format!("at least {}", c.count),
                    }),
                    None,
                    match c.compare {
                        Comparison::Exactly => format!(
                            "the text states {} ({}) but the lists give {n}",
                            c.count, c.what
                        ),
                        Comparison::AtLeast => format!(
                            "the text needs at least {} ({}) but the lists give {n}",
                            c.count, c.what
                        ),
                    },
                    &c.section,
                    Some(sid),
                    c.quote.span,
                );
            }
        }
        // What the scenario records as printed short, and statements that disagree.
        if let Some(gap) = &s.incomplete {
            e(
                FindingKind::Incomplete,
                &s.title,
                None,
                None,
                format!("the printed scenario stops short: {}", gap.v),
                &s.section,
                Some(sid),
                gap.span,
            );
        }
        for t in s.tables.iter().filter(|t| t.incomplete.is_some()) {
            let gap =
                t.incomplete.as_ref().map(|g| (g.v.clone(), g.span)).unwrap_or_default();
            e(
                FindingKind::Incomplete,
                &t.title,
                None,
                None,
                format!("the printed table stops short: {}", gap.0),
                &t.section,
                Some(sid),
                gap.1,
            );
        }
        for c in &s.contradictions {
            contradiction(&mut e, c, Some(sid));
        }
        // Stacking and split strengths of the printed setup.
        for f in crate::validate::validate_scenario(game, sid) {
            if matches!(f.kind, FindingKind::Overstack | FindingKind::BadHex) {
                e(
                    f.kind,
                    &f.location,
                    None,
                    None,
                    f.message.clone(),
                    &f.rule,
                    Some(sid),
                    f.span,
                );
            }
        }
        let mut strengths: BTreeMap<(String, String), Vec<(String, Span)>> =
            BTreeMap::new();
        for p in &ps {
            for item in p.units.items.iter() {
                if let Some(st) = &item.strength {
                    strengths
                        .entry((p.section.clone(), item.name.clone()))
                        .or_default()
                        .push((
                            st.clone(),
                            p.units.printed.first().map_or(Span::detached(), |x| x.span),
                        ));
                }
            }
        }
        for ((section, name), list) in strengths.into_iter().filter(|(_, l)| l.len() > 1)
        {
            let got: Vec<&str> = list.iter().map(|(s, _)| s.as_str()).collect();
            let fits = game.rules.strength_splits.iter().any(|sp| {
                sp.parts.iter().all(|p| got.contains(&p.as_str()))
                    && got.len() == sp.parts.len()
            });
            if !fits && !game.rules.strength_splits.is_empty() {
                // The division that has the first printed part, else any sharing one.
                let splits = &game.rules.strength_splits;
                let near = splits
                    .iter()
                    .find(|sp| sp.parts.iter().any(|p| p == got[0]))
                    .or_else(|| {
                        splits
                            .iter()
                            .find(|sp| sp.parts.iter().any(|p| got.contains(&p.as_str())))
                    });
                let bad = near
                    .and_then(|sp| {
                        got.iter().find(|g| !sp.parts.iter().any(|p| p == **g))
                    })
                    .copied()
                    .unwrap_or(got[0]);
                let span =
                    list.iter().find(|(s, _)| s == bad).map_or(Span::detached(), |x| x.1);
                e(
                    FindingKind::SplitStrength,
                    &format!("{name} [{bad}]"),
                    near.map(|sp| {
                        format!("{} divides into {}", sp.full, sp.parts.join(" and "))
                    }),
                    None,
                    format!(
                        "{name} is set up as {} in {section}, which no permitted division gives",
                        got.join(" and ")
                    ),
                    near.map_or("", |sp| sp.section.as_str()),
                    Some(sid),
                    span,
                );
            }
        }
    }

    // Map errata the rules state.
    for m in &game.maps {
        for f in m.features.iter().filter(|f| f.erratum) {
            let hexes: Vec<&str> = f.hexes.iter().map(|h| h.v.as_str()).collect();
            e(
                FindingKind::MapErratum,
                &hexes.join(", "),
                None,
                None,
                f.note
                    .clone()
                    .unwrap_or_else(|| format!("map errata for {}", hexes.join(", "))),
                &f.section,
                None,
                f.hexes.first().map_or(m.id.span, |h| h.span),
            );
        }
    }

    // Hexes that map features place by a printed location (`within 3 hexes of hex 134`).
    if let Some(board) = &game.board {
        let is_label = |w: &str| board.parse(w).is_ok() || looks_like_label(w);
        for m in &game.maps {
            for f in &m.features {
                let Some(loc) = &f.location else { continue };
                for h in parse_location(&loc.v, &is_label).hexes() {
                    if let Err(err) = board.parse(&h.label) {
                        e(
                            FindingKind::BadHex,
                            &h.label,
                            None,
                            None,
                            format!(
                                "the map feature's location names `{}`: {err}",
                                h.label
                            ),
                            &f.section,
                            None,
                            crate::resolve::locate(loc, h.range.clone()),
                        );
                    }
                }
            }
        }
    }

    // What the order of battle, the manifest and the game's tables record as printed short,
    // and statements of the game that disagree.
    let gaps = [
        ("order of battle", "", game.oob.incomplete.as_ref()),
        ("manifest", "", game.counters.incomplete.as_ref()),
    ];
    let tables = game
        .meta
        .tables
        .iter()
        .map(|t| ("table", t.section.as_str(), t.incomplete.as_ref()));
    for (what, section, gap) in gaps.into_iter().chain(tables) {
        if let Some(gap) = gap {
            e(
                FindingKind::Incomplete,
                what,
                None,
                None,
                format!("the printed {what} stops short: {}", gap.v),
                section,
                None,
                gap.span,
            );
        }
    }
    for c in &game.meta.contradictions {
        contradiction(&mut e, c, None);
    }

    // Counters no scenario uses.
    if !game.scenarios.is_empty() {
        for u in game.units.iter().filter(|u| !used_anywhere.contains_key(&u.id)) {
            e(
                FindingKind::Unused,
                &u.printed.v,
                None,
                None,
                format!("no scenario uses `{}`", u.printed.v),
                u.section.as_deref().unwrap_or_default(),
                None,
                u.printed.span,
            );
        }
    }
    for k in &game.known_errata.known {
        for f in out.iter_mut().filter(|f| f.kind == k.kind.v && f.subject == k.subject.v)
        {
            f.known = true;
            f.known_note = k.note.clone();
        }
    }
    // A setup shared by two scenarios is reported once.
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|f| {
        seen.insert((f.kind, f.span.file, f.span.line, f.span.column, f.message.clone()))
    });
    out.sort_by(|a, b| {
        (a.rank(), &a.kind, a.span.file, a.span.line, a.span.column).cmp(&(
            b.rank(),
            &b.kind,
            b.span.file,
            b.span.line,
            b.span.column,
        ))
    });
    out
}

/// Reports printed statements that disagree, as the data records them: the subject is the
/// first statement, and the message gives them all with the reading the data follows.
#[allow(clippy::type_complexity)]
fn contradiction(
    e: &mut impl FnMut(
        FindingKind,
        &str,
        Option<String>,
        Option<String>,
        String,
        &str,
        Option<&str>,
        Span,
    ),
    c: &Contradiction,
    scenario: Option<&str>,
) {
    let said: Vec<String> = c
        .statements
        .iter()
        .map(|st| format!("{} says \"{}\"", st.section, st.quote))
        .collect();
    let first = c.statements.first();
    e(
        FindingKind::Contradiction,
        first.map_or(c.what.v.as_str(), |st| st.quote.as_str()),
        c.statements.get(1).map(|st| format!("{}: {}", st.section, st.quote)),
        None,
        format!(
            "the rulebook disagrees with itself on {}: {}; {}",
            c.what.v,
            said.join("; "),
            c.note
        ),
        first.map_or("", |st| st.section.as_str()),
        scenario,
        c.what.span,
    );
}

/// A word shaped like a hex label of some scheme (digits, perhaps with a map letter and a
/// point), so that a misprinted label is checked rather than skipped.
fn looks_like_label(w: &str) -> bool {
    let w = w.trim_start_matches(|c: char| c.is_ascii_uppercase());
    !w.is_empty()
        && w.chars().all(|c| c.is_ascii_digit() || c == '.')
        && w.chars().any(|c| c.is_ascii_digit())
}

/// `4/10 BL 2 Cam-a`: two manifest names run together where a comma is missing.
fn missing_comma(
    resolver: &Resolver,
    printed: &str,
    side: &str,
) -> Option<(String, String)> {
    let words: Vec<&str> = printed.split_whitespace().collect();
    for k in 1..words.len() {
        let (a, b) = (words[..k].join(" "), words[k..].join(" "));
        let known = |x: &str| {
            resolver.nearest(x, side).first().is_some_and(|(_, n, s)| {
                *s >= 0.99 || normalise(n).starts_with(&format!("{} ", normalise(x)))
            })
        };
        if known(&a) && known(&b) {
            return Some((a, b));
        }
    }
    None
}
