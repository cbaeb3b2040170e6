//! Printed unit lists: `Brescia Inf Div (Brescia HQ; Inf Bns: I/19, II/19; 27 Eng Bn)`,
//! `65/101 (I), 66/101 (I)`, `1 TS/1 SA - 1 DUKE/1 SA; 1 RNC/1 SA`.

use std::ops::Range;

use serde::Serialize;

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
}

/// One unit (or formation with its listed units) in a printed list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitItem {
    /// The unit's name as printed, trimmed (`I/19`, `3 SA Inf Bde`).
    pub name: String,
    /// Byte range of `name` in the printed string.
    pub range: Range<usize>,
    /// A type label that applies to this item (`Inf Bns` in `Inf Bns: I/19, II/19`).
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
    /// Parenthesised remarks (`All Out of Supply`, `enters at I`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// A placement qualifier printed with the unit (`with either of the above British Bdes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    /// Units listed under it, for a formation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<UnitItem>,
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
            notes: vec![],
            qualifier: None,
            children: vec![],
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

/// Parses a printed unit list. Never fails: text that fits no rule stays in a name.
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
        let mut label: Option<String> = None;
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
            let start = self.i;
            let mut item = self.item(close);
            if let Some((l, rest_start)) = split_label(&item.name) {
                label = Some(l.to_string());
                let offset = item.range.start + rest_start;
                item.name = item.name[rest_start..].to_string();
                item.range = offset..item.range.end;
            }
            if item.label.is_none() {
                item.label = label.clone();
            }
            if !item.name.is_empty() || !item.children.is_empty() || item.count.is_some()
            {
                items.push(item);
            }
            match self.separator() {
                Some(Sep::Semicolon) => label = None,
                Some(_) => {}
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
        items
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
        } else {
            None
        }
    }

    fn at_separator(&self) -> bool {
        let r = self.rest();
        r.starts_with(',') || r.starts_with(';') || r.starts_with(" - ")
    }

    /// One item: name text, then any parenthesised or bracketed parts, then more name.
    fn item(&mut self, close: Option<char>) -> UnitItem {
        let mut item = UnitItem::new(String::new(), self.i..self.i);
        let mut name_start: Option<usize> = None;
        let mut name_end = self.i;
        let mut had_group = false;
        while let Some(c) = self.peek() {
            if Some(c) == close || self.at_separator() {
                break;
            }
            if c == '(' || c == '[' {
                let open = self.i;
                let closing = if c == '(' { ')' } else { ']' };
                let inner_start = open + 1;
                let inner_end =
                    matching(self.s, open, c, closing).unwrap_or(self.s.len());
                let inner = &self.s[inner_start..inner_end];
                self.classify_group(&mut item, c, inner, inner_start, &mut had_group);
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
            if let Some((n, rest)) = split_count(&item.name) {
                item.count = Some(n);
                let delta = item.name.len() - rest.len();
                item.range = item.range.start + delta..item.range.end;
                item.name = rest.to_string();
            }
        }
        item
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

    fn classify_group(
        &mut self,
        item: &mut UnitItem,
        open: char,
        inner: &str,
        inner_start: usize,
        had_group: &mut bool,
    ) {
        let t = inner.trim();
        let m = self.marks;
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
        } else if *had_group || is_note(t) || m.remarks.iter().any(|r| r == t) {
            item.notes.push(t.to_string());
        } else {
            let mut sub = Parser { s: self.s, i: inner_start, marks: self.marks };
            let close = if open == '(' { ')' } else { ']' };
            item.children = sub.list(Some(close));
            *had_group = true;
        }
    }
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

fn is_note(t: &str) -> bool {
    let l = t.to_lowercase();
    l.starts_with("enters at")
        || l.starts_with("see ")
        || l.starts_with("all ")
        || l.starts_with("in the ")
        || t.contains('"')
        || l.contains(" side up")
}

/// `Inf Bns: I/19` → (`Inf Bns`, index of `I/19`).
fn split_label(name: &str) -> Option<(&str, usize)> {
    let colon = name.find(':')?;
    let label = name[..colon].trim();
    if label.is_empty() || label.chars().any(|c| c.is_ascii_digit() || c == '/') {
        return None;
    }
    let rest = &name[colon + 1..];
    let skip = rest.len() - rest.trim_start().len();
    Some((label, colon + 1 + skip))
}

/// `4 x SU` → (4, `SU`).
fn split_count(name: &str) -> Option<(u32, &str)> {
    let (n, rest) = name.split_once(' ')?;
    let n: u32 = n.parse().ok()?;
    let rest = rest.strip_prefix("x ")?;
    Some((n, rest.trim_start()))
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
    fn hostile_text_never_panics() {
        for t in
            ["((((", "]]]", "(", "- - -", ",,;;", "4 x", "é (é) [é-é]", ":", "a: (b: [c"]
        {
            let _ = parse_units(t, &marks());
        }
    }
}
