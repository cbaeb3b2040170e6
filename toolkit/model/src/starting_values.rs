//! Tables of the values units start a scenario with, printed apart from the setup lines
//! (`6.8 Scenario Starting Strengths`): each row's unit is found by the name its counter
//! prints, among the table's side, and its value kept for that scenario.

use crate::diag::{Diagnostic, suggest};
use crate::finding::FindingKind;
use crate::game::{ParsedScenario, StartValue, Unit};
use crate::source::{GameFile, ScenarioFile};
use crate::span::Spanned;

/// Reads every scenario's tables of starting values into its parse: a value id the game
/// does not declare (there, or as a set-up table's `strength`) is an error; a unit no counter of the side prints is an
/// `unknown-unit` finding at its row, with the nearest printed name.
pub(crate) fn attach(
    game: &GameFile,
    scenarios: &[(std::path::PathBuf, ScenarioFile)],
    units: &[Unit],
    parsed: &mut [ParsedScenario],
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    let declared = |id: &Spanned<String>, errors: &mut Vec<Diagnostic>| {
        let known = game.values.iter().any(|v| v.id.v == id.v);
        if !known {
            errors.push(
                Diagnostic::error(
                    id.span,
                    format!("`{}` is not a value of the game", id.v),
                )
                .with_expected("an id of `values` in game.yaml")
                .with_suggestion(suggest(
                    &id.v,
                    game.values.iter().map(|v| v.id.v.as_str()),
                )),
            );
        }
        known
    };
    for (_, s) in scenarios {
        for t in s.setup.iter().filter_map(|b| b.table.as_ref()) {
            for id in &t.strength {
                declared(id, errors);
            }
        }
        let Some(p) = parsed.iter_mut().find(|p| p.id == s.id.v) else { continue };
        for table in &s.starting_values {
            if !declared(&table.value, errors) {
                continue;
            }
            let side: Vec<&Unit> =
                units.iter().filter(|u| u.side == table.side.v).collect();
            for row in &table.units {
                let found: Vec<&Unit> = side
                    .iter()
                    .copied()
                    .filter(|u| u.printed.v == row.unit.v.trim())
                    .collect();
                if found.is_empty() {
                    warnings.push(
                        Diagnostic::finding(
                            FindingKind::UnknownUnit,
                            row.unit.span,
                            format!(
                                "no {} counter prints `{}`",
                                table.side.v, row.unit.v
                            ),
                        )
                        .with_subject(row.unit.v.clone())
                        .with_expected("the name a counter of the table's side prints")
                        .with_suggestion(suggest(
                            &row.unit.v,
                            side.iter().map(|u| u.printed.v.as_str()),
                        )),
                    );
                    continue;
                }
                for u in found {
                    p.starting_values.entry(u.id.clone()).or_default().insert(
                        table.value.v.clone(),
                        StartValue {
                            value: row.value.v.trim().to_string(),
                            section: table.section.clone(),
                        },
                    );
                }
            }
        }
    }
}
