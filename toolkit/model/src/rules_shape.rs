//! What `rules.yaml` says that cannot hold together, and the limits the checker can count
//! only in part: checked when a game loads.

use crate::diag::Diagnostic;
use crate::finding::FindingKind;
use crate::game::Unit;
use crate::source::RulesFile;
use crate::span::Span;

/// Checks the stacking rules of `rules` (written in the file at `at`): a rule that counts
/// points states what a unit is worth and frees no units; a rule that holds in no hex is
/// refused; a counter whose back prints another number for a value counted as points is
/// a warning, since the checker counts the front.
pub(crate) fn check(
    rules: &RulesFile,
    units: &[Unit],
    at: Span,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    for rule in &rules.stacking {
        let counts_points = rule.any_of.iter().flat_map(|a| &a.all_of).any(|l| l.points);
        if counts_points && rule.points.is_none() {
            errors.push(
                Diagnostic::error(
                    at,
                    format!(
                        "rule {} has a limit that counts points (`points: true`) but does not say what a unit is worth",
                        rule.section
                    ),
                )
                .with_hint("give the rule `points:` (a printed `value`, points `by` kind of unit, `otherwise`)"),
            );
        }
        if rule.points.is_some() && !rule.free.is_empty() {
            errors.push(
                Diagnostic::error(
                    at,
                    format!(
                        "rule {} counts points and frees units: which units are free cannot be told",
                        rule.section
                    ),
                )
                .with_hint("give the free units 0 points in `points.by`, or `ignore` them"),
            );
        }
        if let Some(t) =
            rule.only_in.iter().find(|t| rule.except_in.iter().any(|e| e.v == t.v))
        {
            errors.push(Diagnostic::error(
                t.span,
                format!(
                    "rule {} holds only in {} and never in {}",
                    rule.section, t.v, t.v
                ),
            ));
        }
        if let Some(value) = rule.points.as_ref().and_then(|p| p.value.as_ref()) {
            warn_reduced(&rule.section, &value.v, units, value.span, warnings);
        }
    }
    if let Some(why) = &rules.stacking_unknown
        && !rules.stacking.is_empty()
    {
        errors.push(Diagnostic::error(
            why.span,
            "`stacking_unknown` says the text gives no stacking rule, but `stacking` states some",
        ));
    }
}

/// A warning for each counter whose front prints no number for `value` (it is worth the
/// rule's `otherwise`), or whose back prints another number than its front (the checker
/// does not know which side is up, and counts the front).
fn warn_reduced(
    section: &str,
    value: &str,
    units: &[Unit],
    at: Span,
    warnings: &mut Vec<Diagnostic>,
) {
    for u in units {
        let Some(front) = u.front.get(value) else { continue };
        if front.trim().parse::<u32>().is_err() {
            warnings.push(
                Diagnostic::finding(
                    FindingKind::UncheckedLimit,
                    at,
                    format!(
                        "rule {section} counts `{value}` as stacking points, but `{}` prints `{front}`, no number: it counts as the rule's `otherwise`",
                        u.printed.v
                    ),
                )
                .with_subject(u.printed.v.clone()),
            );
            continue;
        }
        let Some(back) = u.back.get(value) else { continue };
        if front != back {
            warnings.push(
                Diagnostic::finding(
                    FindingKind::UncheckedLimit,
                    at,
                    format!(
                        "rule {section} counts `{value}` as stacking points: `{}` prints {front} on its front and {back} on its back, and the checker counts the front whichever side is up",
                        u.printed.v
                    ),
                )
                .with_subject(u.printed.v.clone()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn rules(yaml: &str) -> RulesFile {
        serde_saphyr::from_str(yaml).unwrap()
    }

    fn messages(yaml: &str) -> (Vec<String>, Vec<String>) {
        let (mut errors, mut warnings) = (Vec::new(), Vec::new());
        check(&rules(yaml), &[], Span::detached(), &mut errors, &mut warnings);
        let text = |d: Vec<Diagnostic>| d.into_iter().map(|d| d.message).collect();
        (text(errors), text(warnings))
    }

    #[test]
    fn a_points_limit_needs_the_rule_to_say_what_a_unit_is_worth() {
        let (errors, _) = messages(
            "stacking:\n  - section: '5'\n    any_of: [{all_of: [{count: {}, max: 6, points: true}]}]\n",
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("does not say what a unit is worth"), "{errors:?}");
    }

    #[test]
    fn points_and_free_units_do_not_mix() {
        let (errors, _) = messages(
            "stacking:\n  - section: '5'\n    points: {otherwise: 1}\n    free: [{units: {category: [hq]}, count: 1}]\n    any_of: [{all_of: [{count: {}, max: 6, points: true}]}]\n",
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("frees units"), "{errors:?}");
    }

    #[test]
    fn an_unknown_rule_and_a_stated_one_contradict() {
        let (errors, _) = messages(
            "stacking_unknown: not in the text\nstacking:\n  - section: '5'\n    any_of: [{all_of: [{count: {}, max: 1}]}]\n",
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        let (errors, _) = messages("stacking_unknown: not in the text\n");
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn a_counted_value_that_is_no_number_or_differs_on_the_back_is_said() {
        let loaded = crate::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources"),
            &["example-oasis".to_string()],
            &crate::LoadOptions::default(),
        );
        let mut units = loaded.games[0].units.clone();
        units[1].front.insert("attack".into(), "?".into());
        let r = rules(
            "stacking:\n  - section: '5'\n    points: {value: attack}\n    any_of: [{all_of: [{count: {}, max: 6, points: true}]}]\n",
        );
        let (mut errors, mut warnings) = (Vec::new(), Vec::new());
        check(&r, &units, Span::detached(), &mut errors, &mut warnings);
        let text: Vec<String> = warnings.into_iter().map(|d| d.message).collect();
        assert!(errors.is_empty());
        assert!(text.iter().any(|w| w.contains("prints `?`, no number")), "{text:?}");
        // The example's battalions print attack 3 on the front and 1 on the back.
        assert!(
            text.iter().any(|w| w.contains("prints 3 on its front and 1 on its back")),
            "{text:?}"
        );
    }
}
