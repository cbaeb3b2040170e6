//! Printed locations: `w/i 3 of A55.15`, `Within 2 hexes of hex 2403`,
//! `Radius 1 hex from 25.23`, `A53.12 and/or with any of the above`, `Hex 0609`.

use std::ops::Range;

use serde::Serialize;

/// A hex label inside a printed location, with its byte range there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HexRef {
    /// The label as printed.
    pub label: String,
    /// Byte range in the printed location.
    pub range: Range<usize>,
}

/// A run of hexes printed as its two ends (`4108-09`, `3714-5`, `4015-4515`): every hex of
/// the column, row or hex line between them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HexRun {
    /// The first hex, as printed.
    pub from: HexRef,
    /// The last hex: as printed, or the first with its last digits replaced by the printed
    /// tail (`09` in `4108-09` gives `4109`); its range is the tail's.
    pub to: HexRef,
}

/// Whether a zone placement is inside or outside the zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneRelation {
    /// Inside the zone.
    Inside,
    /// Outside the zone.
    Outside,
}

/// A parsed printed location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "form", rename_all = "kebab-case")]
pub enum LocationExpr {
    /// Exactly this hex.
    Hex {
        /// The hex.
        hex: HexRef,
    },
    /// Within `distance` hexes (inclusive) of any of the hexes.
    Within {
        /// Distance in hexes.
        distance: u32,
        /// The anchor hexes.
        of: Vec<HexRef>,
    },
    /// Any of these hexes and runs of hexes (`3801, 3900, 4000`, `1612 and 1619`, `A & B`,
    /// `4409-11, 4508-9`), or one hex with the hexes its unit extends into (`A28.29 ex
    /// A27.30`: the unit stands in the first).
    Hexes {
        /// Single hexes.
        hexes: Vec<HexRef>,
        /// Runs of hexes.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        runs: Vec<HexRun>,
        /// Hexes printed after `ex`: the unit's extended lines, not where it stands.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        extended: Vec<HexRef>,
    },
    /// A hex and the state its units start in (`2818—in Battle mode`, `2818 - disrupted`).
    InState {
        /// The hex.
        hex: HexRef,
        /// The state as printed (`in Battle mode`), and where it is in the location.
        state: HexRef,
    },
    /// A hex and the place the map names there (`1217 (Charleroi)`).
    Named {
        /// The hex.
        hex: HexRef,
        /// The place as printed.
        place: String,
    },
    /// A place the map names, or within `distance` hexes of it (`Charleroi`, `within 1 hex
    /// of the Windnolle`).
    Place {
        /// The place as printed.
        place: String,
        /// The printed distance (0 for the place itself).
        distance: u32,
    },
    /// Any hex of the board (`Any hex`, `anywhere on the map`).
    Anywhere,
    /// Within `distance` of any map feature of a kind between two hexes
    /// (`w/i 5 of any British MFH between A29.06 to A46.14 (inclusive)`).
    WithinFeature {
        /// Distance in hexes.
        distance: u32,
        /// The feature as printed (`British MFH`).
        feature: String,
        /// The two hexes bounding the stretch.
        between: Vec<HexRef>,
    },
    /// Inside or outside a named zone, possibly limited by distance and a stretch.
    Zone {
        /// Inside or outside.
        relation: ZoneRelation,
        /// The zone as printed (`Bir Hacheim Minefield`).
        zone: String,
        /// Distance from the zone, if printed.
        #[serde(skip_serializing_if = "Option::is_none")]
        distance: Option<u32>,
        /// Hexes that locate or bound the zone.
        hexes: Vec<HexRef>,
        /// A printed direction (`westward`).
        #[serde(skip_serializing_if = "Option::is_none")]
        direction: Option<String>,
    },
    /// Within `distance` hexes of a map edge (`within 6 hexes of the east edge of the map
    /// (the farthest hex is numbered 2129)`), the edge hexes counting as the first.
    NearEdge {
        /// Distance in hexes.
        distance: u32,
        /// The edge as printed (`east`).
        edge: String,
        /// The farthest hex from the edge, when the text names it.
        #[serde(skip_serializing_if = "Option::is_none")]
        farthest: Option<HexRef>,
    },
    /// Stacked with units described in words (`any Afrika Korps unit`).
    StackedWith {
        /// The description as printed.
        target: String,
    },
    /// With units set up by earlier lines (`any of the above`, `Sabratha or Trento Divs`).
    WithAbove {
        /// The description as printed.
        target: String,
    },
    /// Either of several locations (`A53.12 and/or with any of the above`).
    Either {
        /// The alternatives.
        options: Vec<LocationExpr>,
    },
    /// A location and a limit printed after it that muster cannot check (`w/i 8 B51.30,
    /// but west or south of Boatswain’s Swamp`): the units stand in the location, and
    /// the limit is named in an `unchecked-limit` finding.
    Limited {
        /// The location before the limit.
        location: Box<LocationExpr>,
        /// The limit as printed (`west or south of Boatswain’s Swamp`), and where it is.
        limit: HexRef,
    },
    /// Text that fits no printed form.
    Unparsed {
        /// The text.
        text: String,
    },
}

impl LocationExpr {
    /// Calls `f` on every printed piece of the location (hexes, the ends of runs, a state,
    /// a limit), so that their ranges can be moved.
    fn for_each_ref(&mut self, f: &mut dyn FnMut(&mut HexRef)) {
        match self {
            LocationExpr::Hex { hex } | LocationExpr::Named { hex, .. } => f(hex),
            LocationExpr::InState { hex, state } => {
                f(hex);
                f(state);
            }
            LocationExpr::Hexes { hexes, runs, extended } => {
                hexes.iter_mut().chain(extended.iter_mut()).for_each(&mut *f);
                for r in runs {
                    f(&mut r.from);
                    f(&mut r.to);
                }
            }
            LocationExpr::Within { of, .. } => of.iter_mut().for_each(f),
            LocationExpr::WithinFeature { between, .. } => between.iter_mut().for_each(f),
            LocationExpr::Zone { hexes, .. } => hexes.iter_mut().for_each(f),
            LocationExpr::NearEdge { farthest, .. } => farthest.iter_mut().for_each(f),
            LocationExpr::Either { options } => {
                options.iter_mut().for_each(|o| o.for_each_ref(&mut *f));
            }
            LocationExpr::Limited { location, limit } => {
                location.for_each_ref(&mut *f);
                f(limit);
            }
            _ => {}
        }
    }

    /// Every hex label the location names.
    pub fn hexes(&self) -> Vec<&HexRef> {
        match self {
            LocationExpr::Hex { hex }
            | LocationExpr::Named { hex, .. }
            | LocationExpr::InState { hex, .. } => vec![hex],
            LocationExpr::Hexes { hexes, runs, extended } => hexes
                .iter()
                .chain(runs.iter().flat_map(|r| [&r.from, &r.to]))
                .chain(extended)
                .collect(),
            LocationExpr::Within { of, .. } => of.iter().collect(),
            LocationExpr::WithinFeature { between, .. } => between.iter().collect(),
            LocationExpr::Zone { hexes, .. } => hexes.iter().collect(),
            LocationExpr::NearEdge { farthest, .. } => farthest.iter().collect(),
            LocationExpr::Either { options } => {
                options.iter().flat_map(|o| o.hexes()).collect()
            }
            LocationExpr::Limited { location, .. } => location.hexes(),
            _ => vec![],
        }
    }
}

const NUMBER_WORDS: [&str; 11] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// Parses a printed location. `is_label` says whether a word looks like a hex label of
/// this game (it need not lie on the map; that is checked later).
pub fn parse_location(text: &str, is_label: &dyn Fn(&str) -> bool) -> LocationExpr {
    if let Some(at) = text.find(", but ") {
        let head = parse_location(&text[..at], is_label);
        let start = at + ", but ".len();
        let limit = text[start..].trim_end().trim_end_matches('.');
        if !matches!(head, LocationExpr::Unparsed { .. }) && !limit.trim().is_empty() {
            return LocationExpr::Limited {
                location: Box::new(head),
                limit: HexRef { range: start..start + limit.len(), label: limit.into() },
            };
        }
    }
    if let Some(limited) = on_road(text, is_label) {
        return limited;
    }
    let mut c = Cursor { s: text, i: 0, is_label };
    c.expr()
        .or_else(|| c.place())
        .unwrap_or_else(|| LocationExpr::Unparsed { text: text.trim().to_string() })
}

/// `On Road 4015-4515`: hexes with a limit printed before them, which muster cannot check
/// (no road is known by hex).
fn on_road(text: &str, is_label: &dyn Fn(&str) -> bool) -> Option<LocationExpr> {
    let lead = text.len() - text.trim_start().len();
    let rest = &text[lead..];
    let prefix = ["on road ", "on a road ", "on the road "]
        .iter()
        .find(|p| rest.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p)))?;
    let head = parse_location(&rest[prefix.len()..], is_label);
    if matches!(head, LocationExpr::Unparsed { .. }) {
        return None;
    }
    let label = rest[..prefix.len() - 1].to_string();
    Some(LocationExpr::Limited {
        location: Box::new(shifted(head, lead + prefix.len())),
        limit: HexRef { range: lead..lead + label.len(), label },
    })
}

/// A location parsed from a slice of the printed text, with its hexes' ranges moved by
/// `by` bytes so that they point into the whole text.
fn shifted(expr: LocationExpr, by: usize) -> LocationExpr {
    let mut expr = expr;
    expr.for_each_ref(&mut |h: &mut HexRef| {
        h.range = h.range.start + by..h.range.end + by
    });
    expr
}

struct Cursor<'a> {
    s: &'a str,
    i: usize,
    is_label: &'a dyn Fn(&str) -> bool,
}

impl Cursor<'_> {
    fn skip_ws(&mut self) {
        let rest = &self.s[self.i..];
        self.i += rest.len() - rest.trim_start().len();
    }

    fn done(&mut self) -> bool {
        self.skip_ws();
        self.i >= self.s.len()
    }

    /// Consumes `word` (case-insensitive) followed by a word boundary.
    fn eat(&mut self, word: &str) -> bool {
        self.skip_ws();
        let rest = &self.s[self.i..];
        if rest.len() >= word.len()
            && rest.is_char_boundary(word.len())
            && rest[..word.len()].eq_ignore_ascii_case(word)
        {
            let after = rest[word.len()..].chars().next();
            if after.is_none_or(|c| !c.is_alphanumeric() && c != '/') {
                self.i += word.len();
                return true;
            }
        }
        false
    }

    /// The next whitespace-delimited word, without consuming it.
    fn peek_word(&mut self) -> (usize, &str) {
        self.skip_ws();
        let rest = &self.s[self.i..];
        let end = rest
            .find(|c: char| {
                c.is_whitespace() || matches!(c, ',' | ':' | '(' | ')' | '—' | '–')
            })
            .unwrap_or(rest.len());
        (self.i, &rest[..end])
    }

    fn number(&mut self) -> Option<u32> {
        let (start, w) = self.peek_word();
        let n = w.parse().ok().or_else(|| {
            NUMBER_WORDS.iter().position(|n| n.eq_ignore_ascii_case(w)).map(|p| p as u32)
        })?;
        self.i = start + w.len();
        Some(n)
    }

    fn label(&mut self) -> Option<HexRef> {
        let (start, w) = self.peek_word();
        let w = w.to_string();
        if !w.is_empty() && (self.is_label)(&w) {
            let hex = HexRef { range: start..start + w.len(), label: w };
            self.i = hex.range.end;
            Some(hex)
        } else {
            None
        }
    }

    /// A hex or a run of hexes (`4108-09`, `3714-5`, `4001-4100`).
    fn spot(&mut self) -> Option<(HexRef, Option<HexRef>)> {
        if let Some(h) = self.label() {
            return Some((h, None));
        }
        let (start, w) = self.peek_word();
        let w = w.to_string();
        let (from, tail) = w.split_once('-')?;
        if from.is_empty() || tail.is_empty() || !(self.is_label)(from) {
            return None;
        }
        let to = if (self.is_label)(tail) && tail.len() == from.len() {
            tail.to_string()
        } else if tail.len() < from.len()
            && tail.chars().all(|c| c.is_ascii_digit())
            && from.is_char_boundary(from.len() - tail.len())
        {
            format!("{}{tail}", &from[..from.len() - tail.len()])
        } else {
            return None;
        };
        if !(self.is_label)(&to) {
            return None;
        }
        let from_ref =
            HexRef { range: start..start + from.len(), label: from.to_string() };
        let tail_start = start + from.len() + 1;
        let to_ref = HexRef { range: tail_start..tail_start + tail.len(), label: to };
        self.i = start + w.len();
        Some((from_ref, Some(to_ref)))
    }

    /// `3801, 3900, 4000`, `1612 and 1619`, `A & B`, `4409-11, 4508-9`: hexes and runs,
    /// with what joins them.
    fn spot_list(&mut self) -> (Vec<HexRef>, Vec<HexRun>) {
        let (mut hexes, mut runs) = (Vec::new(), Vec::new());
        while let Some((from, to)) = self.spot() {
            match to {
                Some(to) => runs.push(HexRun { from, to }),
                None => hexes.push(from),
            }
            self.skip_ws();
            let rest = &self.s[self.i..];
            if rest.starts_with(',') || rest.starts_with('&') {
                self.i += 1;
            }
            let _ = self.eat("or") || self.eat("and");
        }
        (hexes, runs)
    }

    /// `1213, 1611, 2112 or 2509`.
    fn label_list(&mut self) -> Vec<HexRef> {
        let mut out = Vec::new();
        while let Some(h) = self.label() {
            out.push(h);
            self.skip_ws();
            if self.s[self.i..].starts_with(',') || self.s[self.i..].starts_with('&') {
                self.i += 1;
            }
            let _ = self.eat("or") || self.eat("and") || self.eat("to");
        }
        out
    }

    fn rest_text(&mut self) -> String {
        self.skip_ws();
        let t = self.s[self.i..].trim().to_string();
        self.i = self.s.len();
        t
    }

    fn expr(&mut self) -> Option<LocationExpr> {
        // `in hex 0514`, `in 0721`
        if !self.eat("in") || self.done() {
            self.i = 0;
        }
        let save = self.i;
        if let Some(e) = self.hexes_or_hex() {
            return Some(e);
        }
        self.i = save;
        let _ = self.eat("hex");
        if (self.eat("any") && (self.eat("hex") || self.eat("hexes")))
            || (self.eat("anywhere")
                && (self.done()
                    || (self.eat("on") && self.eat("the") && self.eat("map"))))
        {
            return self.done().then_some(LocationExpr::Anywhere);
        }
        self.i = save;
        let _ = self.eat("hex");
        if self.eat("w/i") || self.eat("within") {
            return self.within();
        }
        if self.eat("radius") {
            let distance = self.number()?;
            let _ = self.eat("hexes") || self.eat("hex");
            if !self.eat("from") {
                return None;
            }
            let of = self.label_list();
            return (!of.is_empty() && self.done())
                .then_some(LocationExpr::Within { distance, of });
        }
        if self.eat("inside") {
            return self.zone(ZoneRelation::Inside, None);
        }
        if self.eat("stacked") {
            if !self.eat("with") {
                return None;
            }
            return Some(LocationExpr::StackedWith { target: self.rest_text() });
        }
        // `with any Breton unit`
        if self.eat("with") {
            return (!self.done())
                .then(|| LocationExpr::StackedWith { target: self.rest_text() });
        }
        let hex = self.label()?;
        if self.done() {
            return Some(LocationExpr::Hex { hex });
        }
        if self.eat("and/or") && self.eat("with") {
            let target = self.rest_text();
            return Some(LocationExpr::Either {
                options: vec![
                    LocationExpr::Hex { hex },
                    LocationExpr::WithAbove { target },
                ],
            });
        }
        None
    }

    /// A hex followed by more hexes, runs, `ex` hexes or its place name in parentheses;
    /// none when the text is a single plain hex or another form.
    fn hexes_or_hex(&mut self) -> Option<LocationExpr> {
        let _ = self.eat("hex") || self.eat("hexes");
        let (hexes, runs) = self.spot_list();
        if hexes.is_empty() && runs.is_empty() {
            return None;
        }
        if self.done() {
            return match (&hexes[..], runs.is_empty()) {
                ([one], true) => Some(LocationExpr::Hex { hex: one.clone() }),
                _ => Some(LocationExpr::Hexes { hexes, runs, extended: Vec::new() }),
            };
        }
        if let ([hex], true) = (&hexes[..], runs.is_empty()) {
            // `A28.29 ex A27.30 ex A29.30`
            let mut extended = Vec::new();
            while self.eat("ex") {
                extended.push(self.label()?);
            }
            if !extended.is_empty() {
                return self.done().then(|| LocationExpr::Hexes {
                    hexes: hexes.clone(),
                    runs: Vec::new(),
                    extended,
                });
            }
            // `2818—in Battle mode`, `2818 - in Battle mode`
            self.skip_ws();
            let rest = &self.s[self.i..];
            if let Some(dash) =
                ["—", "–", "- ", "-- "].iter().find(|d| rest.starts_with(**d))
            {
                let start = self.i + dash.len();
                let text = self.s[start..].trim();
                if !text.is_empty() {
                    let at = start
                        + (self.s[start..].len() - self.s[start..].trim_start().len());
                    let state =
                        HexRef { label: text.to_string(), range: at..at + text.len() };
                    self.i = self.s.len();
                    return Some(LocationExpr::InState { hex: hex.clone(), state });
                }
            }
            // `1217 (Charleroi)`
            if let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')'))
                && !inner.trim().is_empty()
                && !inner.contains(['(', ')'])
            {
                let place = inner.trim().to_string();
                self.i = self.s.len();
                return Some(LocationExpr::Named { hex: hex.clone(), place });
            }
        }
        None
    }

    /// Text naming no hex: a place of the map, perhaps with a distance (`Charleroi`,
    /// `within 1 hex of the Windnolle`), when it is a short name without digits.
    fn place(&mut self) -> Option<LocationExpr> {
        self.i = 0;
        let mut distance = 0;
        if self.eat("w/i") || self.eat("within") {
            distance = self.number()?;
            let _ = self.eat("hexes") || self.eat("hex");
            if !self.eat("of") {
                return None;
            }
        }
        let _ = self.eat("the");
        let place = self.rest_text();
        let words = place.split_whitespace().count();
        // `See 5.2` names a rule's box: its digits are a section.
        let see = place.to_lowercase().starts_with("see ");
        let plain = place.chars().all(|c| c.is_alphabetic() || " '’-.".contains(c));
        ((plain || see) && (1..=5).contains(&words))
            .then_some(LocationExpr::Place { place, distance })
    }

    fn within(&mut self) -> Option<LocationExpr> {
        let distance = self.number()?;
        let _ = self.eat("hexes") || self.eat("hex");
        if self.eat("outside") {
            return self.zone(ZoneRelation::Outside, Some(distance));
        }
        if !self.eat("of") {
            // `w/i 2 A35.35` (CWB 1.4.1 prints no `of`)
            let of = self.label_list();
            return (!of.is_empty() && self.done())
                .then_some(LocationExpr::Within { distance, of });
        }
        if let Some(edge) = self.edge(distance) {
            return Some(edge);
        }
        let _ = self.eat("the");
        let _ = self.eat("hexes") || self.eat("hex");
        if self.eat("any") {
            if self.eat("of") {
                let _ = self.eat("the") && self.eat("following");
                let _ = self.eat("hexes") || self.eat("hex");
                self.skip_ws();
                if self.s[self.i..].starts_with(':') {
                    self.i += 1;
                }
                let of = self.label_list();
                return (!of.is_empty() && self.done())
                    .then_some(LocationExpr::Within { distance, of });
            }
            // `any British MFH between A29.06 to A46.14 (inclusive)`
            let start = self.i;
            let between_at = self.s[start..].to_lowercase().find(" between ")?;
            let feature = self.s[start..start + between_at].trim().to_string();
            self.i = start + between_at + " between ".len();
            let between = self.label_list();
            let _ = self.eat("(inclusive)");
            return (between.len() == 2 && self.done())
                .then_some(LocationExpr::WithinFeature { distance, feature, between });
        }
        let of = self.label_list();
        (!of.is_empty() && self.done()).then_some(LocationExpr::Within { distance, of })
    }

    /// `the east edge of the map`, then perhaps `(the farthest hex is numbered 2129)`.
    fn edge(&mut self, distance: u32) -> Option<LocationExpr> {
        let save = self.i;
        let (start, w) = if self.eat("the") { self.peek_word() } else { (self.i, "") };
        let edge = w.to_string();
        self.i = start + edge.len();
        if edge.is_empty() || !self.eat("edge") {
            self.i = save;
            return None;
        }
        if self.eat("of") {
            let _ = self.eat("the");
            let _ = self.eat("map");
        }
        let mut farthest = None;
        self.skip_ws();
        if self.s[self.i..].starts_with('(') {
            self.i += 1;
            if !(self.eat("the") && self.eat("farthest") && self.eat("hex")) {
                self.i = save;
                return None;
            }
            let _ = self.eat("is");
            let _ = self.eat("numbered");
            farthest = Some(self.label()?);
            self.skip_ws();
            if !self.s[self.i..].starts_with(')') {
                self.i = save;
                return None;
            }
            self.i += 1;
        }
        self.done().then_some(LocationExpr::NearEdge { distance, edge, farthest })
    }

    /// `the minefield surrounding A17.04`, `Bir Hacheim Minefield from A20.02 westward
    /// to A16.04`.
    fn zone(
        &mut self,
        relation: ZoneRelation,
        distance: Option<u32>,
    ) -> Option<LocationExpr> {
        let _ = self.eat("the");
        let mut words = Vec::new();
        let mut hexes = Vec::new();
        let mut direction = None;
        while !self.done() {
            if let Some(h) = self.label() {
                hexes.push(h);
                continue;
            }
            let (start, w) = self.peek_word();
            let w = w.to_string();
            self.i = start + w.len().max(1);
            let lw = w.to_lowercase();
            if lw.ends_with("ward") {
                direction = Some(w);
            } else if !hexes.is_empty()
                || matches!(lw.as_str(), "from" | "to" | "surrounding")
            {
                // connective words after the zone name
            } else {
                words.push(w);
            }
        }
        if words.is_empty() {
            return None;
        }
        Some(LocationExpr::Zone {
            relation,
            zone: words.join(" "),
            distance,
            hexes,
            direction,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scs(w: &str) -> bool {
        let w = w.strip_prefix('A').or_else(|| w.strip_prefix('B')).unwrap_or("");
        w.split_once('.').is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && (a.to_string() + b).chars().all(|c| c.is_ascii_digit())
        })
    }

    fn four(w: &str) -> bool {
        !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
    }

    fn labels(e: &LocationExpr) -> Vec<&str> {
        e.hexes().iter().map(|h| h.label.as_str()).collect()
    }

    #[test]
    fn scs_forms() {
        let e = parse_location("w/i 3 of A55.15", &scs);
        assert!(matches!(e, LocationExpr::Within { distance: 3, .. }));
        assert_eq!(labels(&e), ["A55.15"]);
        let e = parse_location("A40.06", &scs);
        assert!(matches!(e, LocationExpr::Hex { .. }));
        let e = parse_location("A53.12 and/or with any of the above", &scs);
        let LocationExpr::Either { options } = &e else { panic!("{e:?}") };
        assert_eq!(
            options[1],
            LocationExpr::WithAbove { target: "any of the above".into() }
        );
        let e = parse_location(
            "w/i 5 of any British MFH between A29.06 to A46.14 (inclusive)",
            &scs,
        );
        assert!(
            matches!(&e, LocationExpr::WithinFeature { feature, .. } if feature == "British MFH"),
            "{e:?}"
        );
        let e = parse_location(
            "w/i 2 outside Bir Hacheim Minefield from A20.02 westward to A16.04",
            &scs,
        );
        let LocationExpr::Zone { relation, zone, distance, direction, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(
            (*relation, zone.as_str(), *distance),
            (ZoneRelation::Outside, "Bir Hacheim Minefield", Some(2))
        );
        assert_eq!(direction.as_deref(), Some("westward"));
        let e = parse_location("Inside the minefield surrounding A17.04", &scs);
        assert!(
            matches!(&e, LocationExpr::Zone { relation: ZoneRelation::Inside, zone, .. } if zone == "minefield"),
            "{e:?}"
        );
    }

    #[test]
    fn gazala_1942_forms() {
        assert!(matches!(parse_location("Hex 2403", &four), LocationExpr::Hex { .. }));
        let e = parse_location("Within 2 hexes of hex 2403", &four);
        assert!(matches!(e, LocationExpr::Within { distance: 2, .. }));
        let e = parse_location("Within two hexes of hex 0815", &four);
        assert!(matches!(e, LocationExpr::Within { distance: 2, .. }));
        let e = parse_location(
            "within 2 hexes of any of the following hexes: 1213, 1611, 2112 or 2509",
            &four,
        );
        assert_eq!(labels(&e), ["1213", "1611", "2112", "2509"]);
        // 10.4: a strip along the east edge, not a circle around its farthest hex.
        let t = "within 6 hexes of the east edge of the map (the farthest hex is numbered 2129)";
        let e = parse_location(t, &four);
        let LocationExpr::NearEdge { distance: 6, edge, farthest: Some(h) } = &e else {
            panic!("{e:?}")
        };
        assert_eq!((edge.as_str(), &t[h.range.clone()]), ("east", "2129"));
        assert!(matches!(
            parse_location("within 2 hexes of the west edge", &four),
            LocationExpr::NearEdge { distance: 2, farthest: None, .. }
        ));
        let e = parse_location("Stacked with any Afrika Korps unit", &four);
        assert_eq!(
            e,
            LocationExpr::StackedWith { target: "any Afrika Korps unit".into() }
        );
    }

    #[test]
    fn dance_of_war_forms_and_ranges() {
        let t = "Radius 1 hex from 25.23";
        let e = parse_location(t, &|w: &str| w.contains('.') && w.len() == 5);
        let LocationExpr::Within { distance: 1, of } = &e else { panic!("{e:?}") };
        assert_eq!(&t[of[0].range.clone()], "25.23");
    }

    fn spots(e: &LocationExpr) -> (Vec<&str>, Vec<(&str, &str)>, Vec<&str>) {
        let LocationExpr::Hexes { hexes, runs, extended } = e else { panic!("{e:?}") };
        (
            hexes.iter().map(|h| h.label.as_str()).collect(),
            runs.iter().map(|r| (r.from.label.as_str(), r.to.label.as_str())).collect(),
            extended.iter().map(|h| h.label.as_str()).collect(),
        )
    }

    #[test]
    fn lists_runs_and_extended_hexes() {
        let e = parse_location("3801, 3900, 4000", &four);
        assert_eq!(spots(&e).0, ["3801", "3900", "4000"]);
        for t in ["1612 and 1619", "1612 & 1619", "1612 or 1619"] {
            assert_eq!(spots(&parse_location(t, &four)).0, ["1612", "1619"], "{t}");
        }
        let t = "4409-11, 4508-9";
        let e = parse_location(t, &four);
        assert_eq!(spots(&e).1, [("4409", "4411"), ("4508", "4509")]);
        let LocationExpr::Hexes { runs, .. } = &e else { unreachable!() };
        assert_eq!(&t[runs[0].to.range.clone()], "11", "the tail as printed");
        assert_eq!(spots(&parse_location("4001-4100", &four)).1, [("4001", "4100")]);
        assert_eq!(spots(&parse_location("3203, 3102-4", &four)).0, ["3203"]);
        let e = parse_location("A35.30 ex A34.30 ex A36.30", &scs);
        assert_eq!(spots(&e).0, ["A35.30"]);
        assert_eq!(spots(&e).2, ["A34.30", "A36.30"]);
        let e = parse_location("w/i 2 A35.35", &scs);
        assert!(matches!(e, LocationExpr::Within { distance: 2, .. }), "{e:?}");
        let e = parse_location("within 3 hexes of the 2627", &four);
        assert_eq!(labels(&e), ["2627"]);
    }

    #[test]
    fn a_limit_after_a_location_is_kept_apart() {
        let t = "w/i 8 B51.30, but west or south of Boatswain’s Swamp.";
        let is_label = |w: &str| w == "B51.30";
        let LocationExpr::Limited { location, limit } = parse_location(t, &is_label)
        else {
            panic!("{t}")
        };
        assert!(
            matches!(*location, LocationExpr::Within { distance: 8, .. }),
            "{location:?}"
        );
        assert_eq!(limit.label, "west or south of Boatswain’s Swamp");
        assert_eq!(&t[limit.range.clone()], limit.label);
        let t = "On Road 4015-4515";
        let is_label = |w: &str| w.len() == 4 && w.chars().all(|c| c.is_ascii_digit());
        let LocationExpr::Limited { location, limit } = parse_location(t, &is_label)
        else {
            panic!("{t}")
        };
        assert_eq!(&t[limit.range.clone()], "On Road");
        let LocationExpr::Hexes { runs, .. } = *location else { panic!("{location:?}") };
        assert_eq!(&t[runs[0].from.range.clone()], "4015", "ranges point into the cell");
        assert_eq!(&t[runs[0].to.range.clone()], "4515");
        // Nothing after `, but`: no limit.
        assert!(matches!(
            parse_location("w/i 8 B51.30, but ", &is_label),
            LocationExpr::Unparsed { .. } | LocationExpr::Within { .. }
        ));
    }

    #[test]
    fn places_and_anywhere() {
        let e = parse_location("1217 (Charleroi)", &four);
        let LocationExpr::Named { hex, place } = &e else { panic!("{e:?}") };
        assert_eq!((hex.label.as_str(), place.as_str()), ("1217", "Charleroi"));
        assert_eq!(
            parse_location("within 1 hex of the Windnolle", &four),
            LocationExpr::Place { place: "Windnolle".into(), distance: 1 }
        );
        assert_eq!(
            parse_location("Charleroi", &four),
            LocationExpr::Place { place: "Charleroi".into(), distance: 0 }
        );
        assert_eq!(parse_location("Any Hex", &four), LocationExpr::Anywhere);
        for t in ["2818—in Battle mode", "2818 - in Battle mode", "2818 – in Battle mode"]
        {
            let LocationExpr::InState { hex, state } = parse_location(t, &four) else {
                panic!("{t}")
            };
            assert_eq!(
                (hex.label.as_str(), state.label.as_str()),
                ("2818", "in Battle mode")
            );
            assert_eq!(&t[state.range.clone()], "in Battle mode");
        }
        assert!(matches!(parse_location("in hex 0514", &four), LocationExpr::Hex { .. }));
        assert!(matches!(parse_location("in 0721", &four), LocationExpr::Hex { .. }));
        assert_eq!(
            parse_location("with any Breton unit", &four),
            LocationExpr::StackedWith { target: "any Breton unit".into() }
        );
        assert_eq!(parse_location("anywhere on the map", &four), LocationExpr::Anywhere);
    }

    #[test]
    fn unknown_text_is_kept() {
        let e = parse_location("somewhere nice", &four);
        assert_eq!(
            e,
            LocationExpr::Place { place: "somewhere nice".into(), distance: 0 }
        );
        let e = parse_location("somewhere 12 nice, or not", &four);
        assert_eq!(
            e,
            LocationExpr::Unparsed { text: "somewhere 12 nice, or not".into() }
        );
        for t in [
            "w/i",
            "w/i x of",
            "radius 3 hex",
            "hex",
            "",
            "inside",
            "stacked",
            "within 2 of the",
            "within 2 of the east edge (",
            "within 2 of the east edge (the farthest hex 12",
        ] {
            let _ = parse_location(t, &four);
        }
    }
}
