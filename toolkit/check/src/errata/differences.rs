//! Findings for printed words that differ from their counters' (`words`): one
//! per unit, one per list whose label is wrong for several units, and a naming habit the
//! rulebook keeps across formations reported once as information.

use std::collections::BTreeMap;

use muster_model::{Certainty, FindingKind, Game, Span, Unit};

use super::{Context, Erratum, Place, Scenario, counter_ref};
use crate::resolve::Resolution;
use crate::words::{Observation, compare};

/// Where a printed unit is, for findings gathered over every scenario.
#[derive(Clone)]
struct Seen {
    printed: String,
    counter: String,
    formation: Option<String>,
    place: Place,
}

/// Differences gathered over every scenario, reported once all are seen.
#[derive(Default)]
pub(crate) struct Differences {
    /// HQs printed without words of their designation, by the words dropped.
    short_forms: Vec<(Seen, String)>,
    /// Type words abbreviated in no printed table, by (counter's word, printed word).
    abbreviations: BTreeMap<(String, String), Vec<Seen>>,
    /// Findings made as the units were seen.
    errata: Vec<Erratum>,
}

/// A list label's words that differ for several units of one printed line: one erratum.
type LabelKey = (u32, FindingKind, String, String);

impl Differences {
    /// Compares every resolved unit of one placement with its counter; a unit the resolver
    /// matched loosely whose words explain nothing is a `name-differs`.
    pub(crate) fn placement(&mut self, cx: &Context, s: &Scenario, pi: usize) {
        let game = cx.game;
        let p = s.placements[pi];
        let mut by_label: BTreeMap<LabelKey, Vec<(&Resolution, &Unit, bool)>> =
            BTreeMap::new();
        for r in &s.solution.resolutions[pi] {
            let crate::resolve::Resolved::Unit { id, differs_from, .. } = &r.to else {
                continue;
            };
            let Some(unit) = game.unit(id) else { continue };
            let seen = Seen {
                printed: r.printed.clone(),
                counter: id.clone(),
                formation: unit.formation.clone(),
                place: Place {
                    span: r.span,
                    scenario: Some(s.id.to_string()),
                    section: p.section.clone(),
                },
            };
            let found =
                one_word_difference(compare(game, &r.printed, r.label.as_deref(), unit));
            if found.is_empty() {
                if let Some(m) = differs_from {
                    self.errata.push(
                        name_differs(
                            game,
                            &seen,
                            &format!("is printed `{m}` in the manifest"),
                        )
                        .sure(
                            Certainty::Likely,
                            "the only counter of the formation with this designation",
                        ),
                    );
                }
                continue;
            }
            for o in found {
                match o {
                    Observation::Type {
                        printed,
                        manifest,
                        from_label: true,
                        same_type,
                    } => {
                        by_label
                            .entry((
                                r.span.line,
                                FindingKind::TypeDiffers,
                                printed,
                                manifest,
                            ))
                            .or_default()
                            .push((r, unit, same_type));
                    }
                    Observation::Size {
                        printed,
                        manifest,
                        from_label: true,
                        same_size,
                    } => {
                        by_label
                            .entry((
                                r.span.line,
                                FindingKind::SizeDiffers,
                                printed,
                                manifest,
                            ))
                            .or_default()
                            .push((r, unit, same_size));
                    }
                    Observation::Type { printed, manifest, same_type, .. } => {
                        self.errata.push(word_differs(
                            game,
                            &seen,
                            FindingKind::TypeDiffers,
                            &printed,
                            &manifest,
                            same_type,
                        ));
                    }
                    Observation::Size { printed, manifest, same_size, .. } => {
                        self.errata.push(word_differs(
                            game,
                            &seen,
                            FindingKind::SizeDiffers,
                            &printed,
                            &manifest,
                            same_size,
                        ));
                    }
                    Observation::Abbreviation { printed, manifest } => {
                        self.abbreviations
                            .entry((manifest, printed))
                            .or_default()
                            .push(seen.clone());
                    }
                    Observation::ShortForm { dropped } => {
                        self.short_forms.push((seen.clone(), dropped));
                    }
                    Observation::Designation { printed, manifest } => {
                        self.errata.push(
                            name_differs(
                                game,
                                &seen,
                                &format!(
                                    "prints `{printed}` where the manifest prints `{manifest}`"
                                ),
                            )
                            .key(format!("name:{}:{printed}:{manifest}", seen.counter))
                            .sure(
                                Certainty::Possible,
                                format!("`{printed}` and `{manifest}` abbreviate one another"),
                            ),
                        );
                    }
                }
            }
        }
        for ((_, kind, printed, manifest), units) in by_label {
            self.errata
                .push(label_differs(game, s, pi, kind, &printed, &manifest, &units));
        }
    }

    /// The findings, with each habit the rulebook keeps across formations reported once
    /// and the rest one by one.
    pub(crate) fn finish(mut self, game: &Game) -> Vec<Erratum> {
        let formations: std::collections::BTreeSet<&Option<String>> =
            self.short_forms.iter().map(|(s, _)| &s.formation).collect();
        if formations.len() >= 2 {
            self.errata.push(short_form_habit(game, &self.short_forms));
        } else {
            for (seen, dropped) in &self.short_forms {
                self.errata.push(
                    name_differs(game, seen, &format!("is printed without `{dropped}`"))
                        .sure(Certainty::Possible, "an HQ named by its formation alone"),
                );
            }
        }
        for ((manifest, printed), list) in &self.abbreviations {
            let counters: std::collections::BTreeSet<&str> =
                list.iter().map(|s| s.counter.as_str()).collect();
            if counters.len() >= 2 {
                self.errata.push(abbreviation_habit(game, manifest, printed, list));
            } else {
                for seen in list {
                    self.errata.push(
                        word_differs(
                            game,
                            seen,
                            FindingKind::TypeDiffers,
                            printed,
                            manifest,
                            true,
                        )
                        .sure(
                            Certainty::Possible,
                            format!(
                                "`{printed}` abbreviates `{manifest}` in no printed table"
                            ),
                        ),
                    );
                }
            }
        }
        self.errata
    }
}

/// A unit printed with both other type and other size words (`Inf Bns: 3 Yeo` for `3 Yeo
/// Arm Bde`) is one misprint: one type difference naming both words.
fn one_word_difference(found: Vec<Observation>) -> Vec<Observation> {
    let size = found.iter().position(|o| matches!(o, Observation::Size { .. }));
    let kind = found.iter().position(|o| matches!(o, Observation::Type { .. }));
    let (Some(si), Some(ti)) = (size, kind) else { return found };
    let (
        Observation::Type { printed: pt, manifest: mt, from_label: tl, same_type },
        Observation::Size { printed: ps, manifest: ms, from_label: sl, same_size },
    ) = (&found[ti], &found[si])
    else {
        return found;
    };
    if tl != sl {
        return found;
    }
    let both = Observation::Type {
        printed: format!("{pt} {ps}"),
        manifest: format!("{mt} {ms}"),
        from_label: *tl,
        same_type: *same_type && *same_size,
    };
    let mut out: Vec<Observation> = found
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != si && *k != ti)
        .map(|(_, o)| o.clone())
        .collect();
    out.insert(0, both);
    out
}

/// A unit printed with a word of its designation otherwise.
fn name_differs(game: &Game, seen: &Seen, what: &str) -> Erratum {
    Erratum::new(
        game,
        FindingKind::NameDiffers,
        &seen.printed,
        format!("`{}` {what}", seen.printed),
        &seen.place.section,
        seen.place.span,
    )
    .scenario(seen.place.scenario.as_deref().unwrap_or_default())
    .expected(counter_ref(game, &seen.counter, ""))
    .suggestion(counter_ref(game, &seen.counter, ""))
}

/// A unit printed with other type or size words than its counter.
fn word_differs(
    game: &Game,
    seen: &Seen,
    kind: FindingKind,
    printed: &str,
    manifest: &str,
    same_class: bool,
) -> Erratum {
    let what = if kind == FindingKind::SizeDiffers { "size" } else { "type" };
    let evidence = if same_class {
        format!(
            "`{printed}` and `{manifest}` are one {what} in the game's vocabulary, but the rulebook prints no table that equates them"
        )
    } else {
        format!("`{printed}` and `{manifest}` are different {what}s")
    };
    Erratum::new(
        game,
        kind,
        &seen.printed,
        format!(
            "`{}` is printed as `{printed}`; the manifest prints `{}` as `{manifest}`",
            seen.printed,
            counter_ref(game, &seen.counter, "")
        ),
        &seen.place.section,
        seen.place.span,
    )
    .scenario(seen.place.scenario.as_deref().unwrap_or_default())
    .expected(counter_ref(game, &seen.counter, ""))
    .suggestion(counter_ref(game, &seen.counter, ""))
    .key(format!("{kind}:{}:{printed}:{manifest}", seen.counter))
    .sure(if same_class { Certainty::Possible } else { Certainty::Likely }, evidence)
}

/// A list label whose type or size words do not fit the units printed under it.
fn label_differs(
    game: &Game,
    s: &Scenario,
    pi: usize,
    kind: FindingKind,
    printed: &str,
    manifest: &str,
    units: &[(&Resolution, &Unit, bool)],
) -> Erratum {
    let p = s.placements[pi];
    let names: Vec<String> =
        units.iter().map(|(r, _, _)| format!("`{}`", r.printed)).collect();
    let counters: Vec<String> =
        units.iter().map(|(_, u, _)| counter_ref(game, &u.id, "")).collect();
    let label = units[0].0.label.clone().unwrap_or_default();
    let what = if kind == FindingKind::SizeDiffers { "size" } else { "type" };
    let mut ids: Vec<&str> = units.iter().map(|(_, u, _)| u.id.as_str()).collect();
    ids.sort();
    let mut e = Erratum::new(
        game,
        kind,
        units.iter().map(|(r, _, _)| r.printed.as_str()).collect::<Vec<_>>().join(", "),
        format!(
            "{} {} printed under `{label}`, but the manifest prints {} as `{manifest}`: {}",
            names.join(", "),
            if names.len() == 1 { "is" } else { "are" },
            if names.len() == 1 { "it" } else { "them" },
            counters.join(", ")
        ),
        &p.section,
        units[0].0.span,
    )
    .scenario(s.id)
    .expected(counters.join(", "))
    .key(format!("label:{kind}:{printed}:{manifest}:{}", ids.join(",")))
    .sure(
        if units.iter().all(|(_, _, same)| *same) { Certainty::Possible } else { Certainty::Likely },
        format!("the label's {what} `{printed}` is not the counters' `{manifest}`"),
    );
    for (r, _, _) in &units[1..] {
        e.also.push(Place {
            span: r.span,
            scenario: Some(s.id.to_string()),
            section: p.section.clone(),
        });
    }
    e
}

/// HQs printed by their formation's name alone, for several formations: a habit.
fn short_form_habit(game: &Game, list: &[(Seen, String)]) -> Erratum {
    let mut examples: Vec<String> = Vec::new();
    for (seen, _) in list {
        let e =
            format!("`{}` for `{}`", seen.printed, counter_ref(game, &seen.counter, ""));
        if !examples.contains(&e) {
            examples.push(e);
        }
    }
    let formations: std::collections::BTreeSet<&Option<String>> =
        list.iter().map(|(s, _)| &s.formation).collect();
    habit(
        game,
        "HQ short forms",
        format!(
            "the setups name an HQ by its formation without the manifest's type and size words, for {} formations: {}",
            formations.len(),
            examples.join(", ")
        ),
        list.iter().map(|(s, _)| s.place.clone()).collect(),
    )
}

/// A type word abbreviated in no printed table, for several counters: a habit.
fn abbreviation_habit(
    game: &Game,
    manifest: &str,
    printed: &str,
    list: &[Seen],
) -> Erratum {
    let mut examples: Vec<String> = Vec::new();
    for seen in list {
        let e =
            format!("`{}` for `{}`", seen.printed, counter_ref(game, &seen.counter, ""));
        if !examples.contains(&e) {
            examples.push(e);
        }
    }
    habit(
        game,
        &format!("{printed} for {manifest}"),
        format!(
            "the setups print `{printed}` for the manifest's `{manifest}`, an abbreviation no table of the rulebook lists, for {} counters: {}",
            list.iter()
                .map(|s| &s.counter)
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            examples.join(", ")
        ),
        list.iter().map(|s| s.place.clone()).collect(),
    )
}

/// One finding for a habit, at its first place, with every other place under `also`.
fn habit(game: &Game, subject: &str, message: String, mut places: Vec<Place>) -> Erratum {
    places.sort();
    places.dedup_by(|a, b| a.span == b.span);
    let first = places.first().cloned().unwrap_or(Place {
        span: Span::detached(),
        scenario: None,
        section: String::new(),
    });
    let mut e = Erratum::new(
        game,
        FindingKind::NamingHabit,
        subject,
        message,
        &first.section,
        first.span,
    )
    .key(format!("habit:{subject}"))
    .sure(
        Certainty::Certain,
        "the same pattern in the game's own data across formations",
    );
    if let Some(sid) = &first.scenario {
        e = e.scenario(sid);
    }
    e.also = places.into_iter().skip(1).collect();
    e
}
