//! Set-ups printed as tables (unit, size, command, type, strength, hex), and the state a
//! location may print for its units (`2818—in Battle mode`). Each table row is read as
//! a setup line, its footnote marks as the table defines them, its command as the
//! formation its units belong to, its type and size words as the units' label (checked
//! against the counters), its strength as the units' printed strength in that scenario.

use crate::diag::Diagnostic;
use crate::finding::FindingKind;
use crate::game::{ParsedPlacement, ParsedUnits, PlacementKind};
use crate::notation::{self, LocationExpr, Marks};
use crate::source::{SetupBlock, SetupColumn, SetupTable};
use crate::span::Spanned;

/// The setup lines a table prints, in row order. A table without a `unit` and a `hex`
/// column, or a row with another number of cells than the table has columns, is an error
/// where it is printed.
pub(crate) fn placements(
    block: &SetupBlock,
    table: &SetupTable,
    marks: &Marks,
    is_label: &dyn Fn(&str) -> bool,
    errors: &mut Vec<Diagnostic>,
) -> Vec<ParsedPlacement> {
    let column = |kind: SetupColumn| table.columns.iter().position(|c| c.v == kind);
    let (Some(unit), Some(hex)) = (column(SetupColumn::Unit), column(SetupColumn::Hex))
    else {
        let at = table.columns.first().map_or(block.side.span, |c| c.span);
        errors.push(
            Diagnostic::error(at, "a set-up table needs a `unit` and a `hex` column")
                .with_expected(
                    "columns such as [unit, size, command, type, strength, hex]",
                ),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for row in &table.rows {
        if row.len() != table.columns.len() {
            let at = row.first().map_or(block.side.span, |c| c.span);
            errors.push(
                Diagnostic::error(
                    at,
                    format!(
                        "the row has {} cells, but the table has {} columns",
                        row.len(),
                        table.columns.len()
                    ),
                )
                .with_expected("a cell under each column, `\"\"` for an empty one"),
            );
            continue;
        }
        let cell = |kind: SetupColumn| {
            column(kind)
                .map(|k| without_marks(&row[k], &table.marks))
                .filter(|c| !c.v.is_empty())
        };
        let unit_cell = without_marks(&row[unit], &table.marks);
        let mut units = ParsedUnits { printed: vec![], items: vec![], origin: vec![] };
        if !unit_cell.v.is_empty() {
            units.items = notation::parse_units(&unit_cell.v, marks);
            units.origin = vec![0; units.items.len()];
            units.printed = vec![unit_cell];
        }
        let words: Vec<String> = [SetupColumn::Type, SetupColumn::Size]
            .into_iter()
            .filter_map(|k| cell(k).map(|c| c.v))
            .collect();
        let strength = cell(SetupColumn::Strength).map(|c| c.v);
        for item in units.items.iter_mut().filter(|i| !i.unparsed) {
            if item.label.is_none() && !words.is_empty() {
                item.label = Some(words.join(" "));
            }
            if item.strength.is_none() {
                item.strength.clone_from(&strength);
            }
        }
        let location_text = without_marks(&row[hex], &table.marks);
        let location = notation::parse_location(&location_text.v, is_label);
        start_state(&location, &location_text, &mut units, marks, errors);
        one_each(&location, &mut units);
        out.push(ParsedPlacement {
            kind: PlacementKind::Setup,
            side: block.side.v.clone(),
            section: block.section.clone(),
            heading: cell(SetupColumn::Command)
                .map(|c| c.v)
                .or_else(|| block.heading.as_ref().map(|h| h.v.clone())),
            turn: None,
            area: None,
            group: None,
            location: (!location_text.v.is_empty()).then_some(location),
            location_text: (!location_text.v.is_empty()).then_some(location_text),
            units,
            strength_values: table.strength.iter().map(|v| v.v.clone()).collect(),
        });
    }
    out
}

/// A cell without the footnote marks printed at its end (`5*` is `5` with the mark `*`;
/// `Meagher [a]` is `Meagher` with `a`), trimmed; its span still starts where it did.
fn without_marks(
    cell: &Spanned<String>,
    marks: &std::collections::BTreeMap<String, String>,
) -> Spanned<String> {
    let mut text = cell.v.trim_end();
    loop {
        let found = marks.keys().find_map(|m| {
            let bracketed = [format!("[{m}]"), format!("({m})")];
            let symbol = !m.chars().any(char::is_alphanumeric);
            if let Some(rest) =
                bracketed.iter().find_map(|b| text.strip_suffix(b.as_str()))
            {
                Some(rest)
            } else if symbol {
                text.strip_suffix(m.as_str())
            } else {
                text.strip_suffix(m.as_str()).filter(|r| r.ends_with(' '))
            }
        });
        match found {
            Some(rest) if !rest.trim().is_empty() => text = rest.trim_end(),
            _ => break,
        }
    }
    let lead = text.len() - text.trim_start().len();
    let tail = cell.v.len() - text.len();
    Spanned::new(text.trim_start().to_string(), shifted(cell, lead, tail))
}

/// The cell's span, its start moved `lead` bytes on (a cell printed with leading spaces)
/// and its end `tail` bytes back (the marks taken off), so that places within the text
/// still point at the file.
fn shifted(cell: &Spanned<String>, lead: usize, tail: usize) -> crate::Span {
    let mut span = cell.span;
    let (lead, tail) =
        (u32::try_from(lead).unwrap_or(0), u32::try_from(tail).unwrap_or(0));
    span.offset += lead;
    span.column += lead;
    span.len = span.len.saturating_sub(lead + tail);
    span
}

/// A location that prints the state its units start in (`2818—in Battle mode`): a
/// reduced mark of the notation starts them on their back; any other state is an
/// `unknown-mark` finding at the state, and they start on their front.
pub(crate) fn start_state(
    location: &LocationExpr,
    text: &Spanned<String>,
    units: &mut ParsedUnits,
    marks: &Marks,
    found: &mut Vec<Diagnostic>,
) {
    let LocationExpr::InState { state, .. } = location else { return };
    let st = state.label.trim();
    let bare = st.strip_prefix("in ").unwrap_or(st);
    if marks
        .reduced
        .iter()
        .any(|m| m.eq_ignore_ascii_case(st) || m.eq_ignore_ascii_case(bare))
    {
        for item in &mut units.items {
            item.reduced = true;
        }
        return;
    }
    found.push(
        Diagnostic::finding(
            FindingKind::UnknownMark,
            text.span_of(state.range.clone()),
            format!(
                "`{st}` is no mark of this game's notation, so the units of `{}` start on their front",
                text.v
            ),
        )
        .with_subject(st)
        .with_expected("a state the notation declares (`reduced_marks` in game.yaml)"),
    );
}

/// Units printed `one each in` the hexes of their location (`5b, one each in: A34.30,
/// A28.29`) count one per hex the location lists, unless a count is printed.
pub(crate) fn one_each(location: &LocationExpr, units: &mut ParsedUnits) {
    let hexes = match location {
        LocationExpr::Hexes { hexes, runs, .. } if runs.is_empty() => hexes.len(),
        LocationExpr::Within { distance: 0, of } => of.len(),
        _ => return,
    };
    for item in units.items.iter_mut().filter(|i| i.one_each && i.count.is_none()) {
        item.count = u32::try_from(hexes).ok();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spanned(s: &str) -> Spanned<String> {
        Spanned::new(s.to_string(), crate::Span::detached())
    }

    #[test]
    fn footnote_marks_come_off_the_end_of_a_cell() {
        let marks =
            [("*".to_string(), "fatigued".to_string()), ("a".into(), "see 4.2".into())]
                .into_iter()
                .collect();
        assert_eq!(without_marks(&spanned("5*"), &marks).v, "5");
        assert_eq!(without_marks(&spanned("Meagher [a]"), &marks).v, "Meagher");
        assert_eq!(without_marks(&spanned("Meagher a*"), &marks).v, "Meagher");
        assert_eq!(without_marks(&spanned("Jackson"), &marks).v, "Jackson", "no mark");
        assert_eq!(
            without_marks(&spanned("Hanna"), &marks).v,
            "Hanna",
            "a letter of a word"
        );
        assert_eq!(without_marks(&spanned("*"), &marks).v, "*", "a mark alone stays");
    }
}
