//! Printed unit lists: `Brescia Inf Div (Brescia HQ; Inf Bns: I/19, II/19; 27 Eng Bn)`,
//! `65/101 (I), 66/101 (I)`, `1 TS/1 SA - 1 DUKE/1 SA; 1 RNC/1 SA`.
//!
//! Besides nesting and marks, the parser reads four shorthands the rulebooks print:
//! list labels with or without a colon (`Inf Bns: I/19, II/19`, `Cstl Arty Bns 523, 528`),
//! a type and size written once after a list (`4 Fld, 5 Fld, 7 Fld Arty Bn` is three
//! Fld Arty Bns), counts with or without `x` (`4 x SU`, `4 SU`) and a qualifier printed
//! before the units it qualifies (`(or with any of the above): KG Hecker Comm Bn`).
//! Text that fits none of its forms becomes an item marked `unparsed`, never a unit.

use std::ops::Range;

use serde::Serialize;

use super::name::{Vocabulary, parse_name};

/// The marks a game prints inside parentheses, from its `notation` and vocabulary.
#[derive(Debug, Clone, Default)]
pub struct Marks {
    /// Reduced-side marks without parentheses (`R`, `r`).
    pub reduced: Vec<String>,
    /// Independent-unit marks (`Ind`).
    pub independent: Vec<String>,
    /// Type codes (`I`, `T`, `AA`).
    pub type_codes: Vec<String>,
    /// Nationality marks (`Brit`).
    pub nationalities: Vec<String>,
    /// Other remarks (`Dummy`).
    pub remarks: Vec<String>,
    /// Words a bare number counts, without `x` (`SU` in `4 SU`, `supply units` in `two
    /// supply units`): the abbreviations of the game's generic counters and their meanings.
    pub counted: Vec<String>,
    /// The game's type and size words, to read a type written once after a list and list
    /// labels printed without a colon.
    pub words: Vocabulary,
    /// The manifest's printed names that carry a parenthesis or bracket (`I Corps
    /// (d'Erlon)`): such a name is read whole before it is read as a formation and its
    /// units.
    pub names: Vec<String>,
}

/// One unit (or formation with its listed units) in a printed list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitItem {
    /// The unit's name as printed, trimmed (`I/19`, `3 SA Inf Bde`).
    pub name: String,
    /// Byte range of `name` in the printed string.
    pub range: Range<usize>,
    /// Type and size words that apply to this item: a list label (`Inf Bns` in
    /// `Inf Bns: I/19, II/19` or `Cstl Arty Bns 523, 528`), or the type and size printed
    /// once after the list (`Arty Bn` for `4 Fld` in `4 Fld, 5 Fld, 7 Fld Arty Bn`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A count (`4 x SU`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// Marked as starting reduced (`(R)`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reduced: bool,
    /// Marked as independent (`(Ind)`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub independent: bool,
    /// Type codes printed after it (`I` in `65/101 (I)`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub type_codes: Vec<String>,
    /// A nationality mark (`Brit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nationality: Option<String>,
    /// A printed strength (`4-1-7` from `[4-1-7]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
    /// Words in brackets that tell apart counters of one name (`one star` from
    /// `II Corps (Hill) [one star]`), with their byte range (brackets included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<(String, Range<usize>)>,
    /// The name is a manifest name read whole, parentheses included (`I Corps (d'Erlon)`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub whole: bool,
    /// Byte ranges of the text this item read besides its name and its units: marks,
    /// strengths, selectors and notes with their brackets, the brackets around its units,
    /// its count, list label and qualifier.
    #[serde(skip)]
    pub read: Vec<Range<usize>>,
    /// Parenthesised remarks (`All Out of Supply`, `enters at I`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// A placement qualifier printed with the unit (`with either of the above British Bdes`,
    /// or `or with any of the above` printed before it as `(or with any of the above): X`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    /// Units listed under it, for a formation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<UnitItem>,
    /// The text fits no form of the notation: `name` holds it exactly as printed and it
    /// names no unit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unparsed: bool,
    /// Printed after ` - `, joined to the item before it (`1 TS/1 SA - 1 DUKE/1 SA`); a
    /// game whose rules say so (`notation.joined_stacks`) reads joined items as one stack.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub joined: bool,
    /// Printed after ` & ` or ` and ` (`Supply` in `5 Corps HQ & Supply`, `Valley HQ and
    /// Supply`): a single word may share the head of the unit before it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub after_ampersand: bool,
    /// Its count is printed after it in parentheses (`(2 units)`, `(2 units each)`), and so
    /// may count the run of units it ends.
    #[serde(skip)]
    pub count_after: Option<CountAfter>,
    /// One copy goes on each hex the location lists (`5b, one each in: A34.30, A28.29`,
    /// `…, one per hex`): its count is the number of hexes.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub one_each: bool,
}

/// A count printed after a run of units (`Lnb/YG and Boy/YG (2 units)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountAfter {
    /// `(2 units)`: the units of the run together, or of this one.
    Total,
    /// `(2 units each)`: of every unit of the run.
    Each,
}

impl UnitItem {
    fn new(name: String, range: Range<usize>) -> Self {
        UnitItem {
            name,
            range,
            label: None,
            count: None,
            reduced: false,
            independent: false,
            type_codes: vec![],
            nationality: None,
            strength: None,
            selector: None,
            whole: false,
            read: vec![],
            notes: vec![],
            qualifier: None,
            children: vec![],
            unparsed: false,
            joined: false,
            after_ampersand: false,
            count_after: None,
            one_each: false,
        }
    }

    /// This item and every item below it, depth first.
    pub fn walk(&self) -> Vec<&UnitItem> {
        let mut out = vec![self];
        for c in &self.children {
            out.extend(c.walk());
        }
        out
    }
}

/// Parses a printed unit list. Never fails: text that fits no form of the notation
/// becomes an item marked `unparsed`.
pub fn parse_units(text: &str, marks: &Marks) -> Vec<UnitItem> {
    let mut p = Parser { s: text, i: 0, marks };
    p.list(None)
}

struct Parser<'a> {
    s: &'a str,
    i: usize,
    marks: &'a Marks,
}

#[derive(PartialEq)]
enum Sep {
    Comma,
    Semicolon,
    Dash,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.s[self.i..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.i += c.len_utf8();
            } else {
                break;
            }
        }
    }

    /// A list up to `close` (or the end), split at `,`, `;` and ` - `.
    fn list(&mut self, close: Option<char>) -> Vec<UnitItem> {
        let mut items = Vec::new();
        // Whether each item begins a run of comma-separated items: `;`, ` - ` and a list
        // label begin one.
        let mut run_starts = Vec::new();
        let mut label: Option<String> = None;
        let mut qualifier: Option<String> = None;
        let mut new_run = true;
        let mut joined = false;
        let mut ampersand = false;
        // A qualifier printed before the units, read with the first of them.
        let mut pending_read: Option<Range<usize>> = None;
        loop {
            self.skip_ws();
            match self.peek() {
                None => break,
                Some(c) if Some(c) == close => {
                    self.i += c.len_utf8();
                    break;
                }
                _ => {}
            }
            let before = self.i;
            if let Some(q) = self.prefix_qualifier() {
                qualifier = Some(q);
                pending_read = Some(before..self.i);
                new_run = true;
                continue;
            }
            let start = self.i;
            let mut item = self.item(close);
            if !item.unparsed && !item.whole {
                let split = split_label(&item.name).or_else(|| {
                    if item.children.is_empty() {
                        split_bare_label(&item.name, &self.marks.words)
                    } else {
                        None
                    }
                });
                if let Some((l, rest_start)) = split {
                    label = Some(l);
                    new_run = true;
                    let offset = item.range.start + rest_start;
                    item.read.push(item.range.start..offset);
                    item.name = item.name[rest_start..].to_string();
                    item.range = offset..item.range.end;
                }
            }
            if item.unparsed || !fits_notation(&item) {
                item = unparsed(self.s, start..self.i);
            }
            if item.label.is_none() && !item.unparsed {
                item.label = label.clone();
            }
            if item.qualifier.is_none() && !item.unparsed {
                item.qualifier = qualifier.clone();
            }
            if !item.name.is_empty() || !item.children.is_empty() || item.count.is_some()
            {
                run_starts.push(new_run);
                item.joined = joined;
                item.after_ampersand = ampersand;
                item.read.extend(pending_read.take());
                items.push(item);
                new_run = false;
            }
            joined = false;
            ampersand = false;
            let before_separator = self.i;
            match self.separator() {
                Some(Sep::Semicolon) => {
                    label = None;
                    qualifier = None;
                    new_run = true;
                }
                Some(Sep::Dash) => {
                    new_run = true;
                    joined = true;
                }
                Some(Sep::Comma) => {
                    // `and`, `&`, `plus the`: read with the unit they join.
                    let text = &self.s[before_separator..self.i];
                    if text != "," {
                        pending_read = Some(before_separator..self.i);
                        ampersand = matches!(text.trim(), "&" | "and" | "And");
                    }
                }
                None => {
                    if self.i == start {
                        // Nothing consumed: skip one character to guarantee progress.
                        if let Some(c) = self.peek() {
                            self.i += c.len_utf8();
                        }
                    }
                }
            }
        }
        share_trailing_types(&mut items, &run_starts, &self.marks.words);
        share_counts_after(&mut items, &run_starts);
        one_each(&mut items);
        for item in &mut items {
            strip_all(item);
        }
        items
    }

    /// A qualifier printed in parentheses before the units it qualifies and a colon
    /// (`(or with any of the above): KG Hecker Comm Bn`); it applies up to the next `;`.
    fn prefix_qualifier(&mut self) -> Option<String> {
        if self.peek() != Some('(') {
            return None;
        }
        let end = matching(self.s, self.i, '(', ')')?;
        let after = &self.s[end + 1..];
        let gap = after.len() - after.trim_start().len();
        if !after[gap..].starts_with(':') {
            return None;
        }
        let q = self.s[self.i + 1..end].trim().to_string();
        if q.is_empty() {
            return None;
        }
        self.i = end + 1 + gap + 1;
        Some(q)
    }

    fn separator(&mut self) -> Option<Sep> {
        let r = self.rest();
        if r.starts_with(',') {
            self.i += 1;
            Some(Sep::Comma)
        } else if r.starts_with(';') {
            self.i += 1;
            Some(Sep::Semicolon)
        } else if r.starts_with(" - ") {
            self.i += 3;
            Some(Sep::Dash)
        } else if let Some(n) = joining_word(r) {
            self.i += n;
            Some(Sep::Comma)
        } else {
            None
        }
    }

    fn at_separator(&self) -> bool {
        let r = self.rest();
        r.starts_with(',')
            || r.starts_with(';')
            || r.starts_with(" - ")
            || joining_word(r).is_some()
    }

    /// One item: name text, then any parenthesised or bracketed parts, then more name.
    /// A manifest name printed with parentheses (`I Corps (d'Erlon)`) is read whole, and
    /// the marks, strengths and selectors around it wherever they stand.
    fn item(&mut self, close: Option<char>) -> UnitItem {
        let mut item = UnitItem::new(String::new(), self.i..self.i);
        let mut name_start: Option<usize> = None;
        let mut name_end = self.i;
        if let Some(len) = self.manifest_name_at(self.i) {
            name_start = Some(self.i);
            self.i += len;
            name_end = self.i;
            item.whole = true;
        }
        // Groups as (opening bracket, byte index of it, byte index of its closing one).
        let mut groups: Vec<(char, usize, usize)> = Vec::new();
        while let Some(c) = self.peek() {
            if Some(c) == close || self.at_separator() {
                break;
            }
            if c == '(' || c == '[' {
                let open = self.i;
                let closing = if c == '(' { ')' } else { ']' };
                let Some(inner_end) = matching(self.s, open, c, closing) else {
                    // An unclosed bracket: the rest of the text fits no form.
                    self.i = self.s.len();
                    item.unparsed = true;
                    return item;
                };
                groups.push((c, open, inner_end));
                self.i = (inner_end + 1).min(self.s.len());
                continue;
            }
            if name_start.is_none() && !c.is_whitespace() {
                name_start = Some(self.i);
            }
            // "with either …" qualifiers end the name.
            if name_start.is_some() && self.rest().starts_with(" with either") {
                let q_start = self.i + 1;
                let q_end = self.qualifier_end(q_start, close);
                item.qualifier = Some(self.s[q_start..q_end].trim().to_string());
                item.read.push(q_start..q_end);
                self.i = q_end;
                break;
            }
            self.i += c.len_utf8();
            if !c.is_whitespace() {
                name_end = self.i;
            }
        }
        if let Some(ns) = name_start {
            let raw = &self.s[ns..name_end.max(ns)];
            item.name = raw.trim().to_string();
            item.range = ns..ns + raw.trim_end().len();
            if let Some((n, rest)) = split_count(&item.name, &self.marks.counted) {
                item.count = Some(n);
                let delta = item.name.len() - rest.len();
                item.read.push(item.range.start..item.range.start + delta);
                item.range = item.range.start + delta..item.range.end;
                item.name = rest.to_string();
            }
        }
        if !item.whole
            && let Some(k) = self.whole_with_group(&item.name, &groups)
        {
            let (_, at, inner_end) = groups.remove(k);
            let inner = &self.s[at + 1..inner_end];
            item.name = format!("{} ({})", item.name, inner.trim());
            item.range = item.range.start..inner_end + 1;
            item.whole = true;
        }
        let mut had_group = false;
        for (open, at, inner_end) in groups {
            item.read.push(at..at + 1);
            item.read.push(inner_end..inner_end + 1);
            self.classify_group(&mut item, open, at + 1..inner_end, &mut had_group);
        }
        item
    }

    /// The length of the longest manifest name printed with brackets that the text at `i`
    /// starts with, followed by the end of the item or a space.
    fn manifest_name_at(&self, i: usize) -> Option<usize> {
        let rest = &self.s[i..];
        self.marks
            .names
            .iter()
            .filter(|n| {
                rest.get(..n.len()).is_some_and(|h| h.eq_ignore_ascii_case(n))
                    && rest[n.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| c.is_whitespace() || ",;)]([".contains(c))
            })
            .map(String::len)
            .max()
    }

    /// The first parenthesised group after `name` that makes, with it, a manifest name
    /// (`II Corps` and `(Pirch)`, wherever a mark or selector stands between them).
    fn whole_with_group(
        &self,
        name: &str,
        groups: &[(char, usize, usize)],
    ) -> Option<usize> {
        if name.is_empty() || self.marks.names.is_empty() {
            return None;
        }
        groups.iter().position(|&(open, at, end)| {
            open == '('
                && self.marks.names.iter().any(|n| {
                    n.eq_ignore_ascii_case(&format!(
                        "{name} ({})",
                        self.s[at + 1..end].trim()
                    ))
                })
        })
    }

    /// Where a "with either …" qualifier ends: at "of the above …" its end, otherwise
    /// right after "with either" so that a following unit is read as an item.
    fn qualifier_end(&self, start: usize, close: Option<char>) -> usize {
        let rest = &self.s[start..];
        let base = "with either";
        let after = &rest[base.len()..];
        if after.trim_start().starts_with("of the above") {
            let mut end = start;
            for (k, ch) in rest.char_indices() {
                if ch == ',' || ch == ';' || Some(ch) == close {
                    break;
                }
                end = start + k + ch.len_utf8();
            }
            end
        } else {
            start + base.len()
        }
    }

    /// Reads one bracketed group after a name: a strength, a mark, a selector, a note, or
    /// the units of a formation. `inner` is the byte range inside the brackets.
    fn classify_group(
        &mut self,
        item: &mut UnitItem,
        open: char,
        inner: Range<usize>,
        had_group: &mut bool,
    ) {
        let t = self.s[inner.clone()].trim();
        let m = self.marks;
        let whole = inner.start - 1..inner.end + 1;
        if open == '[' && is_strength(t) {
            item.strength = Some(t.to_string());
        } else if m.reduced.iter().any(|r| r == t) {
            item.reduced = true;
        } else if m.independent.iter().any(|r| r == t) {
            item.independent = true;
        } else if m.type_codes.iter().any(|r| r == t) {
            item.type_codes.push(t.to_string());
        } else if m.nationalities.iter().any(|r| r == t) {
            item.nationality = Some(t.to_string());
        } else if open == '(' && item.count.is_none() && count_group(t).is_some() {
            let (n, rest) = count_group(t).unwrap_or((1, ""));
            item.count = Some(n);
            let each = rest.to_lowercase().starts_with("each");
            item.count_after =
                Some(if each { CountAfter::Each } else { CountAfter::Total });
            if !rest.is_empty() && !each {
                item.notes.push(rest.to_string());
            }
        } else if m.remarks.iter().any(|r| r == t) {
            item.notes.push(t.to_string());
        } else if open == '['
            && (item.whole || *had_group)
            && item.selector.is_none()
            && !t.is_empty()
            && !t.contains([',', ';', ':'])
        {
            item.selector = Some((t.to_string(), whole.clone()));
        } else if *had_group
            || item.whole
            || is_note(t)
            || m.remarks.iter().any(|r| r == t)
        {
            item.notes.push(t.to_string());
        } else {
            let mut sub = Parser { s: self.s, i: inner.start, marks: self.marks };
            let close = if open == '(' { ')' } else { ']' };
            item.children = sub.list(Some(close));
            *had_group = true;
            return;
        }
        item.read.push(whole);
    }
}

/// Does a parsed item read as a unit of the notation: a name free of brackets and colons,
/// or a count? A nameless item with groups or marks (`(Inf Bns: 2 Leg)`) does not.
fn fits_notation(item: &UnitItem) -> bool {
    let stray = !item.whole && item.name.contains([':', '(', ')', '[', ']']);
    let nameless = item.name.is_empty()
        && item.count.is_none()
        && (!item.children.is_empty()
            || !item.notes.is_empty()
            || item.strength.is_some()
            || !item.type_codes.is_empty()
            || item.reduced
            || item.independent
            || item.nationality.is_some());
    !stray && !nameless
}

/// The item for text that fits no form: the printed text, trimmed, marked `unparsed`.
fn unparsed(s: &str, range: Range<usize>) -> UnitItem {
    let raw = &s[range.clone()];
    let lead = raw.len() - raw.trim_start().len();
    let text = raw.trim();
    let start = range.start + lead;
    let mut item = UnitItem::new(text.to_string(), start..start + text.len());
    item.unparsed = true;
    item
}

/// Words after the units of a row that put one on each hex its location lists.
const ONE_EACH: [&str; 4] = ["one each in", "one each", "one in each", "one per hex"];

/// An item that is only `one each in` or `one per hex` marks the item before it (and its
/// count, `one per hex (3 units)`, is that item's): it is read with it, not as a unit.
fn one_each(items: &mut Vec<UnitItem>) {
    let mut k = 1;
    while k < items.len() {
        let name = items[k].name.trim().trim_end_matches(':').to_lowercase();
        if ONE_EACH.contains(&name.as_str()) && items[k].children.is_empty() {
            let marker = items.remove(k);
            let before = &mut items[k - 1];
            before.one_each = true;
            before.read.push(marker.range.clone());
            before.read.extend(marker.read);
            if before.count.is_none() {
                before.count = marker.count;
            }
            before.notes.extend(marker.notes);
        } else {
            k += 1;
        }
    }
}

/// `All 4SP Artillery units of …`, `the 1-6 Division`, `a Resb`: a leading `All` or
/// article before a name is read, not named (`A` is no article: it starts names such as
/// `A NVa HQ`).
fn strip_all(item: &mut UnitItem) {
    if item.whole || item.unparsed {
        return;
    }
    let rest = ["All ", "the ", "The ", "a ", "an "]
        .iter()
        .find_map(|w| item.name.strip_prefix(w))
        .filter(|r| !r.trim().is_empty());
    if let Some(rest) = rest {
        let cut = item.name.len() - rest.len();
        item.read.push(item.range.start..item.range.start + cut);
        item.range = item.range.start + cut..item.range.end;
        item.name = rest.to_string();
    }
}

/// A count printed after the last unit of a run counts the run: `(2 units each)` gives
/// each unit of it that count; `(2 units)` after two units (`Lnb/YG and Boy/YG (2 units)`)
/// is one of each, not two of the last.
fn share_counts_after(items: &mut [UnitItem], run_starts: &[bool]) {
    let mut start = 0;
    for end in 0..items.len() {
        if run_starts.get(end).copied().unwrap_or(true) {
            start = end;
        }
        let last_of_run = run_starts.get(end + 1).copied().unwrap_or(true);
        if !last_of_run || end == start {
            continue;
        }
        let (Some(after), Some(n)) = (items[end].count_after, items[end].count) else {
            continue;
        };
        let run = end + 1 - start;
        match after {
            CountAfter::Each => {
                for item in &mut items[start..end] {
                    if item.count.is_none() {
                        item.count = Some(n);
                    }
                }
            }
            // Only where no other unit of the run has a count of its own
            // (`LG Divisions (5 units) plus the 1st Combined Grenadiers (2 units)`).
            CountAfter::Total
                if n as usize == run
                    && items[start..end].iter().all(|i| i.count.is_none()) =>
            {
                items[end].count = None
            }
            CountAfter::Total => {}
        }
    }
}

/// A type and size printed once after a run of comma-separated designations applies to
/// each of them (`4 Fld, 5 Fld, 7 Fld Arty Bn`, `I/5, II/5 Pz Bn`): the items of the run
/// before the typed one that state no type or size take its type and size words, less
/// those they already end with. Items under a list label keep the label; a typed item
/// without a size word (`PzGp Army HQ`) shares nothing.
fn share_trailing_types(items: &mut [UnitItem], run_starts: &[bool], words: &Vocabulary) {
    let mut pending: Vec<usize> = Vec::new();
    for k in 0..items.len() {
        if run_starts[k] {
            pending.clear();
        }
        let it = &items[k];
        let plain = it.children.is_empty()
            && it.count.is_none()
            && !it.unparsed
            && it.type_codes.is_empty()
            && it.label.is_none();
        if !plain {
            pending.clear();
            continue;
        }
        let parts = parse_name(&it.name, words);
        if parts.unit_type.is_none() && parts.size.is_none() {
            pending.push(k);
            continue;
        }
        if parts.size.is_some() && !parts.designation.is_empty() {
            let skip = parts.designation.split_whitespace().count();
            let tail: Vec<String> =
                it.name.split_whitespace().skip(skip).map(String::from).collect();
            for &p in &pending {
                items[p].label = Some(shared_tail(&items[p].name, &tail));
            }
        }
        pending.clear();
    }
}

/// The words of `tail` that `name` does not already end with: `4 Fld` and
/// `Fld Arty Bn` share `Fld`, leaving `Arty Bn`.
fn shared_tail(name: &str, tail: &[String]) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let most = tail.len().saturating_sub(1).min(words.len().saturating_sub(1));
    let overlap = (1..=most)
        .rev()
        .find(|&k| {
            words[words.len() - k..]
                .iter()
                .zip(&tail[..k])
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
        })
        .unwrap_or(0);
    tail[overlap..].join(" ")
}

/// The index of the bracket that closes the one at `open`.
fn matching(s: &str, open: usize, o: char, c: char) -> Option<usize> {
    let mut depth = 0;
    for (k, ch) in s[open..].char_indices() {
        if ch == o {
            depth += 1;
        } else if ch == c {
            depth -= 1;
            if depth == 0 {
                return Some(open + k);
            }
        }
    }
    None
}

fn is_strength(t: &str) -> bool {
    let parts: Vec<&str> = t.split('-').collect();
    parts.len() >= 2
        && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// The length of ` and `, ` & ` or ` plus ` (perhaps ` plus the `) at the start of `r`:
/// words that join two units of a list as a comma does (`Lnb/YG and Boy/YG`).
fn joining_word(r: &str) -> Option<usize> {
    [" and the ", " plus the ", " and ", " & ", " plus "]
        .iter()
        .find(|w| r.get(..w.len()).is_some_and(|h| h.eq_ignore_ascii_case(w)))
        .map(|w| w.len() - 1)
}

/// Does a name hold a word that joins units in a list (` and `, ` & `, ` plus `)?
pub fn holds_joining_word(name: &str) -> bool {
    name.char_indices().any(|(i, _)| joining_word(&name[i..]).is_some())
}

/// A count printed after a name, in parentheses: `(4 units)`, `( 2 units)`, `(6 cavalry
/// units)`, `(9 units, excluding artillery)`, `(1 unit)`: the count and what follows it.
fn count_group(t: &str) -> Option<(u32, &str)> {
    let t = t.trim();
    let (n, rest) = t.split_once(' ')?;
    let n = number_word(n).or_else(|| n.parse().ok())?;
    let rest = rest.trim_start();
    let lower = rest.to_lowercase();
    let at = ["units", "unit"].iter().find_map(|w| {
        lower
            .split(|c: char| !c.is_alphanumeric())
            .take(2)
            .position(|x| x == *w)
            .map(|_| lower.find(w).map_or(0, |k| k + w.len()))
    })?;
    Some((n, rest[at..].trim_start_matches([',', ' '])))
}

fn is_note(t: &str) -> bool {
    let l = t.to_lowercase();
    t.trim_end().ends_with('.')
        || l.starts_with("enters at")
        || l.starts_with("see ")
        || l.starts_with("all ")
        || l.starts_with("in the ")
        || t.contains('"')
        || l.contains(" side up")
}

/// `Inf Bns: I/19` → (`Inf Bns`, index of `I/19`).
fn split_label(name: &str) -> Option<(String, usize)> {
    let colon = name.find(':')?;
    let label = name[..colon].trim();
    if label.is_empty() || label.chars().any(|c| c.is_ascii_digit() || c == '/') {
        return None;
    }
    let rest = &name[colon + 1..];
    let skip = rest.len() - rest.trim_start().len();
    Some((label.to_string(), colon + 1 + skip))
}

/// A list label printed without a colon: type words and a plural size word at the start
/// of an item, before its designation. `Cstl Arty Bns 523` → (`Cstl Arty Bns`, index of
/// `523`).
fn split_bare_label(name: &str, words: &Vocabulary) -> Option<(String, usize)> {
    let spans = word_spans(name);
    for k in 1..spans.len().saturating_sub(1) {
        let size = &name[spans[k].clone()];
        let plural = size.len() > 1 && size.ends_with(['s', 'S']);
        if !plural || !words.sizes.iter().any(|(w, _)| w.eq_ignore_ascii_case(size)) {
            continue;
        }
        let typed: Vec<&str> = spans[..k].iter().map(|r| &name[r.clone()]).collect();
        let is_type = words.types.iter().any(|(w, _)| {
            let phrase: Vec<&str> = w.split_whitespace().collect();
            phrase.len() == typed.len()
                && phrase.iter().zip(&typed).all(|(a, b)| a.eq_ignore_ascii_case(b))
        });
        if is_type {
            return Some((
                name[spans[0].start..spans[k].end].to_string(),
                spans[k + 1].start,
            ));
        }
    }
    None
}

/// The byte ranges of the whitespace-separated words of `s`.
fn word_spans(s: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (k, c) in s.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(b)) => {
                out.push(b..k);
                start = None;
            }
            (false, None) => start = Some(k),
            _ => {}
        }
    }
    if let Some(b) = start {
        out.push(b..s.len());
    }
    out
}

const NUMBER_WORDS: [&str; 12] = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];

/// The number a word writes (`one` → 1, `Twelve` → 12), for counts printed in words.
pub fn number_word(w: &str) -> Option<u32> {
    NUMBER_WORDS.iter().position(|n| n.eq_ignore_ascii_case(w)).map(|k| k as u32 + 1)
}

/// `4 x SU` → (4, `SU`); `4 SU` and `two supply units` → (4, `SU`), (2, `supply units`)
/// when the rest is a counted word. A number written as a word counts only counted words.
fn split_count<'a>(name: &'a str, counted: &[String]) -> Option<(u32, &'a str)> {
    let (n, rest) = name.split_once(' ')?;
    // `2x 5b`: the `x` written against the number.
    if let Some(digits) = n.strip_suffix(['x', 'X'])
        && let Ok(k) = digits.parse::<u32>()
    {
        return Some((k, rest.trim_start()));
    }
    let word = number_word(n);
    let n: u32 = match word {
        Some(k) => k,
        None => n.parse().ok()?,
    };
    if word.is_none()
        && let Some(r) = rest.strip_prefix("x ")
    {
        return Some((n, r.trim_start()));
    }
    let r = rest.trim_start();
    counted.iter().any(|w| w.eq_ignore_ascii_case(r)).then_some((n, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks() -> Marks {
        Marks {
            reduced: vec!["R".into(), "r".into()],
            independent: vec!["Ind".into()],
            type_codes: vec![
                "I".into(),
                "T".into(),
                "H".into(),
                "AA".into(),
                "E".into(),
                "A".into(),
            ],
            nationalities: vec!["Brit".into()],
            remarks: vec!["Dummy".into()],
            counted: vec![
                "SU".into(),
                "ASU".into(),
                "Supply Units".into(),
                "Supply Unit".into(),
            ],
            words: vocabulary(),
            names: vec![],
        }
    }

    /// A Napoleonic game's marks: corps printed with their commander, a mark for the
    /// back side.
    fn corps_marks() -> Marks {
        Marks {
            reduced: vec!["in Battle Formation".into()],
            remarks: vec!["Pirch".into()],
            names: vec![
                "I Corps (d'Erlon)".into(),
                "II Corps (Hill)".into(),
                "II Corps (Pirch)".into(),
                "Res Cav Corps (Grouchy)".into(),
            ],
            ..marks()
        }
    }

    #[test]
    fn a_manifest_name_with_parentheses_is_read_whole() {
        let m = corps_marks();
        let t = "I Corps (d'Erlon), Res Cav Corps (Grouchy); II Corps (Pirch)";
        let items = parse_units(t, &m);
        assert_eq!(
            names(&items),
            ["I Corps (d'Erlon)", "Res Cav Corps (Grouchy)", "II Corps (Pirch)"]
        );
        assert!(
            items.iter().all(|i| i.whole && i.children.is_empty() && i.notes.is_empty())
        );
        assert_eq!(&t[items[0].range.clone()], "I Corps (d'Erlon)");
        // A formation of the same words that is no manifest name still lists its units.
        let items = parse_units("I Corps (1 Div, 2 Div)", &m);
        assert_eq!(names(&items[0].children), ["1 Div", "2 Div"]);
    }

    #[test]
    fn selectors_and_marks_are_read_wherever_they_stand() {
        let m = corps_marks();
        for t in [
            "II Corps (Hill) [one star] (in Battle Formation)",
            "II Corps [one star] (Hill) (in Battle Formation)",
            "II Corps (in Battle Formation) (Hill) [one star]",
        ] {
            let items = parse_units(t, &m);
            assert_eq!(names(&items), ["II Corps (Hill)"], "{t}");
            let i = &items[0];
            assert!(i.reduced, "{t}");
            let (sel, at) = i.selector.clone().expect(t);
            assert_eq!(sel, "one star", "{t}");
            assert_eq!(&t[at], "[one star]", "{t}");
            assert!(i.children.is_empty() && i.notes.is_empty(), "{t}");
        }
        // After a group, a bracket selects too.
        let items = parse_units("1 FF Inf Bde (1 FF Bde HQ) [old]", &marks());
        assert_eq!(items[0].selector.as_ref().map(|s| s.0.as_str()), Some("old"));
    }

    #[test]
    fn every_printed_byte_is_read() {
        // Names, units, marks, selectors, labels, counts and qualifiers together cover
        // every character but spaces and separators.
        let m = corps_marks();
        for t in [
            "II Corps (Hill) [one star] (in Battle Formation), 4 x SU",
            "Brescia Inf Div (Brescia HQ; Inf Bns: I/19, II/19), 6/2 (I) [4-1-7]",
            "(or with any of the above): KG Hecker Comm Bn (R)",
            "69 Inf Bde (7 GH Inf Bn) with either of the above British Bdes",
        ] {
            let mut seen = vec![false; t.len()];
            for item in parse_units(t, &m) {
                for i in item.walk() {
                    for r in
                        std::iter::once(i.range.clone()).chain(i.read.iter().cloned())
                    {
                        for b in r {
                            seen[b] = true;
                        }
                    }
                }
            }
            for (k, c) in t.char_indices() {
                assert!(
                    seen[k] || c.is_whitespace() || ",;-".contains(c),
                    "{t}: byte {k} `{c}` is not read"
                );
            }
        }
    }

    /// SCS's type and size words, as its game.yaml prints them.
    fn vocabulary() -> Vocabulary {
        let w = |w: &str, id: &str| (w.to_string(), id.to_string());
        Vocabulary {
            types: vec![
                w("Inf", "infantry"),
                w("Arm", "armor"),
                w("Pz", "armor"),
                w("PG", "mech-infantry"),
                w("Arty", "artillery"),
                w("Fld Arty", "artillery"),
                w("Hvy Arty", "artillery"),
                w("Cstl Arty", "coastal-artillery"),
                w("Mtn Arty", "mountain-artillery"),
                w("AA", "antiair"),
                w("Wpn", "support-weapons"),
                w("HQ", "headquarters"),
                w("Recon", "reconnaissance"),
            ],
            sizes: vec![
                w("Bn", "battalion"),
                w("Bns", "battalion"),
                w("Btry", "company"),
                w("Btrys", "company"),
                w("Army", "army"),
                w("KG", "kampfgruppe"),
            ],
        }
    }

    fn names(items: &[UnitItem]) -> Vec<String> {
        items.iter().map(|i| i.name.clone()).collect()
    }

    #[test]
    fn scs_formation_with_typed_sublists() {
        let t = "Brescia Inf Div (Brescia HQ; Inf Bns: I/19, II/19; Arty Bns: I/1 Cel; 27 Eng Bn), 4 x SU";
        let items = parse_units(t, &marks());
        assert_eq!(names(&items), ["Brescia Inf Div", "SU"]);
        assert_eq!(items[1].count, Some(4));
        let kids = &items[0].children;
        assert_eq!(names(kids), ["Brescia HQ", "I/19", "II/19", "I/1 Cel", "27 Eng Bn"]);
        assert_eq!(kids[1].label.as_deref(), Some("Inf Bns"));
        assert_eq!(kids[2].label.as_deref(), Some("Inf Bns"));
        assert_eq!(kids[3].label.as_deref(), Some("Arty Bns"));
        assert_eq!(kids[4].label, None);
        assert_eq!(&t[kids[2].range.clone()], "II/19");
    }

    #[test]
    fn marks_strengths_and_notes() {
        let items =
            parse_units("6/2 (I) [4-1-7], 3 Yeo (R), 42 RTR Arm Bn (Brit)", &marks());
        assert_eq!(items[0].type_codes, ["I"]);
        assert_eq!(items[0].strength.as_deref(), Some("4-1-7"));
        assert!(items[1].reduced);
        assert_eq!(items[2].nationality.as_deref(), Some("Brit"));
        let items = parse_units(
            "1 FF Inf Bde (1 FF Bde HQ; 2 Leg) (All Out of Supply)",
            &marks(),
        );
        assert_eq!(items[0].notes, ["All Out of Supply"]);
        assert_eq!(items[0].children.len(), 2);
    }

    #[test]
    fn bracketed_groups_and_qualifiers() {
        let items = parse_units(
            "69 Inf Bde (7 GH Inf Bn) with either of the above British Bdes, 50 Inf Div (50 Div HQ)",
            &marks(),
        );
        assert_eq!(names(&items), ["69 Inf Bde", "50 Inf Div"]);
        assert_eq!(
            items[0].qualifier.as_deref(),
            Some("with either of the above British Bdes")
        );
        let items = parse_units("1 SA Inf Div [7 RTR, 42 RTR Arm Bn (Brit)]", &marks());
        assert_eq!(names(&items[0].children), ["7 RTR", "42 RTR Arm Bn"]);
    }

    #[test]
    fn dance_of_war_dashes_and_attached_marks() {
        let items =
            parse_units("TRIESTE HQ - 1/65 - 2/65 (r); 1/66 - 2/66 - 1 M(r)", &marks());
        assert_eq!(names(&items), ["TRIESTE HQ", "1/65", "2/65", "1/66", "2/66", "1 M"]);
        assert!(items[2].reduced && items[5].reduced);
        let items = parse_units("Col. (\"x-x-6\" side up) (Ind)", &marks());
        assert_eq!(names(&items), ["Col."]);
        assert!(items[0].independent);
        assert_eq!(items[0].notes.len(), 1);
    }

    #[test]
    fn a_missing_comma_fuses_two_units() {
        let items =
            parse_units("Inf Bns: 2 HLI, 2/4 Gurk, 4/10 BL 2 Cam-a, 2 Cam-b", &marks());
        assert_eq!(names(&items), ["2 HLI", "2/4 Gurk", "4/10 BL 2 Cam-a", "2 Cam-b"]);
    }

    #[test]
    fn a_qualifier_printed_before_the_units() {
        // SCS 15.5.3.3.
        let t = "(or with any of the above): KG Hecker Comm Bn";
        let items = parse_units(t, &marks());
        assert_eq!(names(&items), ["KG Hecker Comm Bn"]);
        assert_eq!(items[0].qualifier.as_deref(), Some("or with any of the above"));
        assert!(items[0].children.is_empty() && !items[0].unparsed);
        assert_eq!(&t[items[0].range.clone()], "KG Hecker Comm Bn");
        // It lasts to the next semicolon.
        let items = parse_units("(with X): A Inf Bn, B Inf Bn; C Inf Bn", &marks());
        let q: Vec<_> = items.iter().map(|i| i.qualifier.as_deref()).collect();
        assert_eq!(q, [Some("with X"), Some("with X"), None]);
    }

    #[test]
    fn a_type_written_once_after_a_list() {
        // SCS 15.7.3: three Fld Arty Bns.
        let items = parse_units("4 Fld, 5 Fld, 7 Fld Arty Bn", &marks());
        assert_eq!(names(&items), ["4 Fld", "5 Fld", "7 Fld Arty Bn"]);
        let labels: Vec<_> = items.iter().map(|i| i.label.as_deref()).collect();
        assert_eq!(labels, [Some("Arty Bn"), Some("Arty Bn"), None]);
        // SCS 15.4.3: the type runs back to the previous typed unit, not past it.
        let items = parse_units(
            "21 Pz HQ, 3 Auf Recon Bn, I/5, II/5 Pz Bn, II/104, III/104 PG Bn, I/155, II/155, III/155 Arty Bn",
            &marks(),
        );
        let labels: Vec<_> = items.iter().map(|i| i.label.as_deref()).collect();
        assert_eq!(
            labels,
            [
                None,
                None,
                Some("Pz Bn"),
                None,
                Some("PG Bn"),
                None,
                Some("Arty Bn"),
                Some("Arty Bn"),
                None
            ]
        );
        // A name before an HQ is a name, not a designation waiting for a type.
        let items = parse_units("Rommel, PzGp Army HQ, KStA Recon KG", &marks());
        assert!(items.iter().all(|i| i.label.is_none()));
        // Not across semicolons or dashes, and not over a printed list label.
        let items = parse_units("4 Fld; 7 Fld Arty Bn", &marks());
        assert_eq!(items[0].label, None);
        let items = parse_units("4 Fld - 7 Fld Arty Bn", &marks());
        assert_eq!(items[0].label, None);
        let items = parse_units("Inf Bns: 3 Yeo (R), 2 Hus Arm Bn (R)", &marks());
        assert_eq!(items[0].label.as_deref(), Some("Inf Bns"));
    }

    #[test]
    fn items_joined_with_a_dash_are_marked() {
        // Dance of War 15.2: `;` ends a stack, ` - ` joins the next unit to it.
        let t = "90 L HQ - BREIHL - MARCKS (r); 580A - 1/155, 1/361";
        let items = parse_units(t, &marks());
        assert_eq!(
            names(&items),
            ["90 L HQ", "BREIHL", "MARCKS", "580A", "1/155", "1/361"]
        );
        let joined: Vec<bool> = items.iter().map(|i| i.joined).collect();
        assert_eq!(joined, [false, true, true, false, true, false]);
    }

    #[test]
    fn list_labels_without_a_colon() {
        // SCS 15.6.3.2.
        let t = "Cstl Arty Bns 523, 528, 529, 532; 902 Hvy Arty Btry; Arty Bns II/115, 408 Hvy";
        let items = parse_units(t, &marks());
        assert_eq!(
            names(&items),
            ["523", "528", "529", "532", "902 Hvy Arty Btry", "II/115", "408 Hvy"]
        );
        let labels: Vec<_> = items.iter().map(|i| i.label.as_deref()).collect();
        assert_eq!(
            labels,
            [
                Some("Cstl Arty Bns"),
                Some("Cstl Arty Bns"),
                Some("Cstl Arty Bns"),
                Some("Cstl Arty Bns"),
                None,
                Some("Arty Bns"),
                Some("Arty Bns")
            ]
        );
        assert_eq!(&t[items[0].range.clone()], "523");
        assert_eq!(&t[items[5].range.clone()], "II/115");
        // A unit named by its type and size alone is not a label.
        assert_eq!(
            names(&parse_units("AA Bn, 11 RHA Arty Bn", &marks())),
            ["AA Bn", "11 RHA Arty Bn"]
        );
    }

    #[test]
    fn counts_with_and_without_x() {
        let items = parse_units("4 x SU, 4 SU, 2 ASU, 4 Fld", &marks());
        assert_eq!(names(&items), ["SU", "SU", "ASU", "4 Fld"]);
        let counts: Vec<_> = items.iter().map(|i| i.count).collect();
        assert_eq!(counts, [Some(4), Some(4), Some(2), None]);
        // SCS 15.4.1.C: "two supply units", "one supply unit".
        let items =
            parse_units("two supply units, one supply unit, two Inf Bns", &marks());
        assert_eq!(names(&items), ["supply units", "supply unit", "two Inf Bns"]);
        let counts: Vec<_> = items.iter().map(|i| i.count).collect();
        assert_eq!(counts, [Some(2), Some(1), None]);
        let t = "10 It Corps (10 Eng Bn), 4 SU";
        let items = parse_units(t, &marks());
        assert_eq!(&t[items[1].range.clone()], "SU");
    }

    #[test]
    fn counts_against_their_x_and_counts_printed_after_the_name() {
        let items = parse_units("2x 5b, 1x MMG", &marks());
        assert_eq!(names(&items), ["5b", "MMG"]);
        assert_eq!(items.iter().map(|i| i.count).collect::<Vec<_>>(), [Some(2), Some(1)]);
        let items = parse_units(
            "Old Guard (4 units), Cossacks ( 2 units), 12th Division (9 units, excluding artillery)",
            &marks(),
        );
        assert_eq!(names(&items), ["Old Guard", "Cossacks", "12th Division"]);
        assert_eq!(
            items.iter().map(|i| i.count).collect::<Vec<_>>(),
            [Some(4), Some(2), Some(9)]
        );
        assert_eq!(items[2].notes, ["excluding artillery"]);
        assert!(items.iter().all(|i| i.children.is_empty()));
    }

    #[test]
    fn a_manifest_name_with_a_parenthesis_inside_is_read_whole() {
        let mut m = marks();
        m.names = vec!["Morand’s (MR) Division".into()];
        let items = parse_units("Morand’s (MR) Division (3 units) [a]", &m);
        assert_eq!(names(&items), ["Morand’s (MR) Division"], "{items:?}");
        assert_eq!(items[0].count, Some(3));
        assert!(!items[0].unparsed);
        let items = parse_units("Morand’s (MR) Division, Friant", &m);
        assert_eq!(names(&items), ["Morand’s (MR) Division", "Friant"]);
    }

    #[test]
    fn a_count_after_a_run_counts_the_run() {
        let items = parse_units("Lnb/YG and Boy/YG (2 units)", &marks());
        assert_eq!(items.iter().map(|i| i.count).collect::<Vec<_>>(), [None, None]);
        let items = parse_units("MR, FR, GR and CM Artillery (2 units each)", &marks());
        assert_eq!(items.iter().map(|i| i.count).collect::<Vec<_>>(), [Some(2); 4]);
        let items = parse_units(
            "Old Guard (4 units); Vlasov and 3 Bug Cossacks (2 units)",
            &marks(),
        );
        assert_eq!(
            items.iter().map(|i| i.count).collect::<Vec<_>>(),
            [Some(4), None, None]
        );
    }

    #[test]
    fn one_each_in_the_listed_hexes() {
        let items = parse_units("5b, one each in", &marks());
        assert_eq!(names(&items), ["5b"]);
        assert!(items[0].one_each);
        let t = "All 4SP Artillery units of the Reserve [d], one per hex (3 units)";
        let items = parse_units(t, &marks());
        assert_eq!(names(&items), ["4SP Artillery units of the Reserve"]);
        assert!(items[0].one_each);
        assert_eq!(items[0].count, Some(3));
    }

    #[test]
    fn and_and_ampersand_join_units_as_a_comma_does() {
        let items = parse_units(
            "Lnb/YG and Boy/YG, 5 Corps HQ & Supply plus the 1st Grenadiers",
            &marks(),
        );
        assert_eq!(
            names(&items),
            ["Lnb/YG", "Boy/YG", "5 Corps HQ", "Supply", "1st Grenadiers"]
        );
        assert!(items[3].after_ampersand && !items[4].after_ampersand);
        let items =
            parse_units("Valley HQ and Supply, the 1-6 Division and a Resb", &marks());
        assert_eq!(names(&items), ["Valley HQ", "Supply", "1-6 Division", "Resb"]);
        assert!(items[1].after_ampersand, "a word after `and` may share the head");
        assert!(!items[2].after_ampersand);
        let items =
            parse_units("1x Pioneers (No Flamethrower or smoke capabilities.)", &marks());
        assert_eq!(names(&items), ["Pioneers"]);
        assert_eq!(items[0].notes, ["No Flamethrower or smoke capabilities."]);
    }

    #[test]
    fn text_that_fits_no_form_is_an_unparsed_node() {
        for (t, raw) in [
            ("A Inf Bn, : B", ": B"),
            ("A Inf Bn, (Inf Bns: 2 Leg)", "(Inf Bns: 2 Leg)"),
            ("A Inf Bn, B (unclosed", "B (unclosed"),
            ("A Inf Bn, B) C", "B) C"),
            ("A Inf Bn, 15.6: B", "15.6: B"),
        ] {
            let items = parse_units(t, &marks());
            assert_eq!(items.len(), 2, "{t}");
            assert!(!items[0].unparsed, "{t}");
            let u = &items[1];
            assert!(u.unparsed, "{t}");
            assert_eq!(u.name, raw, "{t}");
            assert_eq!(&t[u.range.clone()], raw, "{t}");
            assert!(u.children.is_empty() && u.label.is_none() && u.count.is_none());
        }
    }

    #[test]
    fn hostile_text_never_panics() {
        for t in [
            "((((",
            "]]]",
            "(",
            "- - -",
            ",,;;",
            "4 x",
            "é (é) [é-é]",
            ":",
            "a: (b: [c",
            "(): x",
            "(é):",
            "é é é Bns é",
            "4 é, é Arty Bn",
        ] {
            for item in parse_units(t, &marks()) {
                for i in item.walk() {
                    assert!(t.get(i.range.clone()).is_some(), "{t}");
                }
            }
        }
    }
}
