//! The text-fit check: every counter side's text fitted to its template's fields, and
//! each text that does not fit reported once, with the counters that print it.

use std::collections::BTreeMap;

use muster_model::{Diagnostic, FindingKind, Game, Span};

use crate::counter::faces;
use crate::face_arts::FaceArts;
use crate::template::Misfit;

/// A text that does not fit, where it is first printed and on which other counters.
struct Sighting {
    misfit: Misfit,
    span: Span,
    first: String,
    others: Vec<String>,
}

/// Fits the text of every counter side of a game (as drawn in `arts`) and reports each
/// text that does not fit its field: a `text-overflow` warning where it is drawn at its
/// smallest size, a `text-omitted` note where its field is left off. One finding per text
/// and field, at the first counter that prints it, naming the others.
pub fn check(game: &Game, arts: &FaceArts) -> Vec<Diagnostic> {
    // By template, field and text: the first counter that prints it, and the others.
    let mut seen: BTreeMap<(String, String, String), Sighting> = BTreeMap::new();
    for unit in game.units.iter().chain(&game.markers) {
        for face in faces(unit) {
            let art = arts.get(game, unit, face);
            for m in &art.misfits {
                let key = (art.template.clone(), m.field.clone(), m.text.clone());
                let label = format!(
                    "`{}` ({}, line {})",
                    unit.printed.v,
                    face.name(),
                    unit.printed.span.line
                );
                seen.entry(key).and_modify(|e| e.others.push(label.clone())).or_insert(
                    Sighting {
                        misfit: m.clone(),
                        span: unit.printed.span,
                        first: format!("`{}` ({})", unit.printed.v, face.name()),
                        others: vec![],
                    },
                );
            }
        }
    }
    seen.into_iter()
        .map(|((template, field, text), Sighting { misfit: m, span, first, others })| {
            let kind = if m.omitted { FindingKind::TextOmitted } else { FindingKind::TextOverflow };
            let what = if m.omitted { "is left off" } else { "is drawn past its edge" };
            let mut d = Diagnostic::finding(
                kind,
                span,
                format!("`{text}` does not fit the `{field}` field of {first} and {what}"),
            )
            .with_expected(format!(
                "text at most {:.1} units wide at {} units ({template}); it is {:.1}",
                m.room, m.min_size, m.width
            ))
            .with_hint(format!(
                "shorten it, or give `{field}` a smaller `min_size`, a wider `fit_width`, two `lines` or `visible: false` in `counter_style.fields`"
            ));
            if !others.is_empty() {
                let shown: Vec<&str> = others.iter().take(5).map(String::as_str).collect();
                let more = others.len().saturating_sub(5);
                d = d.with_hint(format!(
                    "also on {}{}",
                    shown.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                ));
            }
            d
        })
        .collect()
}
