//! Filling counter templates: each field's text put in place and fitted to its room,
//! the unit-type symbol drawn in its slot, conditional elements kept or left out, and
//! every id prefixed with the template's tag so that counters of different templates
//! on one page never share one.
//!
//! Text is drawn in the fonts muster ships, whatever family the template names; a text
//! element is drawn as one line, or two when its fit rule allows it to break.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use muster_model::source::{FieldStyle, FontWeight, Overflow};
use muster_model::template::{
    Element, Node, TEXT_FIELDS, Template, first_number, length, placeholders,
};

use crate::metrics::{Weight, ink_extent, text_width};
use crate::safe_area::SafeBox;
use crate::svg::{esc, n};

/// A run of field text, with the colours it is drawn in when they differ from the
/// text's own (Dance of War colours the movement factor by mobility).
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Run {
    /// The text.
    pub text: String,
    /// Fill colour.
    pub fill: Option<&'static str>,
    /// Outline colour.
    pub stroke: Option<&'static str>,
}

impl Run {
    /// Plain text.
    pub fn plain(text: impl Into<String>) -> Run {
        Run { text: text.into(), fill: None, stroke: None }
    }
}

/// What one counter side fills a template with.
#[derive(Debug, Clone, Default, Hash)]
pub struct Fields {
    /// Text of each field and counter value, by name.
    pub text: BTreeMap<String, Vec<Run>>,
    /// Colours by name (`colour`, `ink`).
    pub colours: BTreeMap<&'static str, String>,
    /// The conditions that hold (`back`, `exploitation`, ...).
    pub conditions: BTreeSet<&'static str>,
    /// The symbol to draw in the `symbol` slot.
    pub symbol: String,
}

/// A field whose text does not fit its room at its smallest size.
#[derive(Debug, Clone, PartialEq)]
pub struct Misfit {
    /// The field.
    pub field: String,
    /// Its text.
    pub text: String,
    /// How wide the text is at the smallest size, in template units.
    pub width: f64,
    /// How wide its room is.
    pub room: f64,
    /// The smallest size it may take.
    pub min_size: f64,
    /// Whether it was left off (its overflow rule is `omit`) rather than drawn.
    pub omitted: bool,
}

/// A filled template: its content in the template's units, the fields it drew and those
/// that did not fit.
#[derive(Debug, Clone)]
pub struct Filled {
    /// SVG elements in the template's coordinates.
    pub svg: String,
    /// The fields drawn.
    pub drawn: BTreeSet<String>,
    /// Fields whose text does not fit.
    pub misfits: Vec<Misfit>,
}

/// How far a template's drawing reaches past the cut line and how far text and symbols
/// keep in from it, in the template's units.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Margins {
    /// The background's extension beyond the cut line (the bleed).
    pub bleed: f64,
    /// The safe margin inside the cut line that no text or symbol enters.
    pub safe: f64,
}

/// What text and symbols keep from the safe margin besides, in template units (a
/// twentieth of a point at 5/8 inch): room for coordinates written to a hundredth and for
/// outlines a hair outside the font's own glyph boxes.
const SLACK: f64 = 0.05;

/// What the text elements inherit from their ancestors.
#[derive(Debug, Clone, Copy)]
struct Inherited {
    size: f64,
    weight: Weight,
    anchor: Anchor,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn from_css(v: &str) -> Option<Anchor> {
        match v.trim() {
            "start" => Some(Anchor::Start),
            "middle" => Some(Anchor::Middle),
            "end" => Some(Anchor::End),
            _ => None,
        }
    }
}

/// Properties muster sets itself on a text element it fills.
const TEXT_PROPERTIES: &[&str] = &["font-size", "font-weight", "font-family", "x", "y"];

struct Filler<'a> {
    t: &'a Template,
    fields: &'a Fields,
    styles: &'a [&'a FieldStyle],
    bleed: f64,
    safe: SafeBox,
    ids: BTreeSet<String>,
    drawn: BTreeSet<String>,
    misfits: Vec<Misfit>,
}

/// Fills `t` for one counter side. `styles` override the template's field styles (later
/// ones win); the bleed extends the `background` element beyond the cut, and text and
/// the symbol are fitted and moved inside the safe margin.
pub fn fill(
    t: &Template,
    fields: &Fields,
    styles: &[&FieldStyle],
    margins: Margins,
) -> Filled {
    let ids = t.elements().iter().filter_map(|e| e.id()).map(str::to_string).collect();
    let mut filler = Filler {
        t,
        fields,
        styles,
        bleed: margins.bleed,
        safe: SafeBox::inside(
            t.view_box,
            margins.safe + SLACK * f64::from(margins.safe > 0.0),
        ),
        ids,
        drawn: BTreeSet::new(),
        misfits: Vec::new(),
    };
    let mut out = String::with_capacity(2048);
    let root = Inherited { size: 16.0, weight: Weight::Regular, anchor: Anchor::Start };
    for node in &t.nodes {
        filler.node(node, root, &mut out);
    }
    Filled { svg: out, drawn: filler.drawn, misfits: filler.misfits }
}

impl Filler<'_> {
    /// The style given for a field, merged over the styles given before it.
    fn style(&self, field: &str) -> Merged {
        let mut m = Merged::default();
        for s in self.styles.iter().filter(|s| s.field.v == field) {
            m.size = s.size.as_ref().map(|v| v.v).or(m.size);
            m.weight = s.weight.or(m.weight);
            m.x = s.x.or(m.x);
            m.y = s.y.or(m.y);
            m.visible = s.visible.or(m.visible);
            m.fit_width = s.fit_width.as_ref().map(|v| v.v).or(m.fit_width);
            m.fit_height = s.fit_height.as_ref().map(|v| v.v).or(m.fit_height);
            m.min_size = s.min_size.as_ref().map(|v| v.v).or(m.min_size);
            m.lines = s.lines.as_ref().map(|v| v.v).or(m.lines);
            m.overflow = s.overflow.or(m.overflow);
        }
        m
    }

    /// The field a text element is bound to: its id, or its first placeholder.
    fn field_of(&self, e: &Element) -> Option<String> {
        if let Some(id) = e.id()
            && (TEXT_FIELDS.contains(&id) || self.fields.text.contains_key(id))
        {
            return Some(id.to_string());
        }
        placeholders(&e.text()).first().map(|(_, p)| (*p).to_string())
    }

    fn node(&mut self, node: &Node, inh: Inherited, out: &mut String) {
        match node {
            Node::Text(t) => {
                self.note(&t.text);
                out.push_str(&esc(&self.substitute(&t.text)));
            }
            Node::Element(e) => self.element(e, inh, out),
        }
    }

    fn element(&mut self, e: &Element, inh: Inherited, out: &mut String) {
        if let Some(cond) = e.id().and_then(|id| id.strip_prefix("if-"))
            && !self.fields.conditions.contains(cond)
        {
            return;
        }
        if e.id() == Some("symbol") {
            self.symbol(e, out);
            return;
        }
        let inh = inherit(e, inh);
        if e.name == "text" {
            self.text(e, inh, out);
            return;
        }
        if e.name == "style" {
            let _ = write!(out, "<style>{}</style>", esc(&e.text()));
            return;
        }
        let background = e.id() == Some("background") && e.name == "rect";
        for (_, v) in &e.attrs {
            self.note(v);
        }
        self.start_tag(e, &[], background, out);
        out.push('>');
        for c in &e.children {
            self.node(c, inh, out);
        }
        let _ = write!(out, "</{}>", e.name);
    }

    /// Writes `<name attrs…` (without the closing `>`), leaving out `skip`.
    fn start_tag(&self, e: &Element, skip: &[&str], background: bool, out: &mut String) {
        let _ = write!(out, "<{}", e.name);
        for (k, v) in &e.attrs {
            if skip.contains(&k.as_str()) || k.starts_with("data-muster-") {
                continue;
            }
            let value =
                if background && ["x", "y", "width", "height"].contains(&k.as_str()) {
                    match (k.as_str(), first_number(v)) {
                        ("x" | "y", Some(p)) => n(p - self.bleed),
                        (_, Some(p)) => n(p + 2.0 * self.bleed),
                        _ => v.clone(),
                    }
                } else if k == "id" {
                    format!("{}-{v}", self.t.tag)
                } else if k == "style" {
                    let kept: Vec<&str> = v
                        .split(';')
                        .filter(|d| {
                            let name = d.split(':').next().unwrap_or("").trim();
                            !d.trim().is_empty() && !skip.contains(&name)
                        })
                        .collect();
                    self.references(&self.substitute(&kept.join(";")))
                } else {
                    self.references(&self.substitute(v))
                };
            let _ = write!(out, r#" {k}="{}""#, esc(&value));
        }
    }

    /// Records the fields a text names as drawn.
    fn note(&mut self, text: &str) {
        for (_, name) in placeholders(text) {
            self.drawn.insert(name.to_string());
        }
    }

    /// Placeholders replaced by their fields' plain text or colours.
    fn substitute(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (at, name) in placeholders(text) {
            out.push_str(&text[last..at]);
            if let Some(c) = self.fields.colours.get(name) {
                out.push_str(c);
            } else if let Some(runs) = self.fields.text.get(name) {
                runs.iter().for_each(|r| out.push_str(&r.text));
            }
            last = at + name.len() + 2;
        }
        out.push_str(&text[last..]);
        out
    }

    /// References to the template's own ids (`url(#g)`, `#g`) prefixed with its tag.
    fn references(&self, v: &str) -> String {
        let tag = &self.t.tag;
        if let Some(id) = v.strip_prefix('#')
            && self.ids.contains(id)
        {
            return format!("#{tag}-{id}");
        }
        let mut out = String::with_capacity(v.len());
        let mut rest = v;
        while let Some(at) = rest.find("url(#") {
            let (before, after) = rest.split_at(at + "url(#".len());
            let Some(end) = after.find(')') else { break };
            out.push_str(before);
            let id = &after[..end];
            if self.ids.contains(id) {
                out.push_str(tag);
                out.push('-');
            }
            out.push_str(id);
            rest = &after[end..];
        }
        out.push_str(rest);
        out
    }

    fn symbol(&self, e: &Element, out: &mut String) {
        let num = |a: &str| e.attr(a).and_then(first_number).unwrap_or(0.0);
        let (sw, sh) = (crate::symbols::FRAME.0, crate::symbols::FRAME.1);
        let [l, t, r, b] = crate::symbols::ink_margins(&self.fields.symbol);
        let [x, y, w, h] = self.safe.place_slot(
            [num("x"), num("y"), num("width"), num("height")],
            [l / sw, t / sh, r / sw, b / sh],
        );
        let _ = write!(
            out,
            r#"<g id="{}-symbol" transform="translate({} {}) scale({} {})">"#,
            self.t.tag,
            n(x + w / 2.0),
            n(y + h / 2.0),
            n4(w / sw),
            n4(h / sh)
        );
        crate::symbols::draw(out, &self.fields.symbol, 0.0, 0.0, sw, sh);
        out.push_str("</g>");
    }

    fn text(&mut self, e: &Element, inh: Inherited, out: &mut String) {
        let field = self.field_of(e);
        let style = field.as_deref().map(|f| self.style(f)).unwrap_or_default();
        if style.visible == Some(false) {
            return;
        }
        // The first line's tspan (Inkscape puts the position and often the style there).
        let line = e.children.iter().find_map(|c| match c {
            Node::Element(t) if t.name == "tspan" => Some(t),
            _ => None,
        });
        let prop =
            |name: &str| e.property(name).or_else(|| line.and_then(|l| l.property(name)));
        let mut size =
            prop("font-size").and_then(|v| css_size(&v, inh.size)).unwrap_or(inh.size);
        let mut weight = prop("font-weight").map_or(inh.weight, |v| Weight::from_css(&v));
        let anchor =
            prop("text-anchor").and_then(|v| Anchor::from_css(&v)).unwrap_or(inh.anchor);
        let coord = |a: &str| {
            e.attr(a)
                .and_then(first_number)
                .or_else(|| line.and_then(|l| l.attr(a)).and_then(first_number))
        };
        let x = style.x.or_else(|| coord("x")).unwrap_or(0.0);
        let y = style.y.or_else(|| coord("y")).unwrap_or(0.0);
        size = style.size.unwrap_or(size);
        if let Some(w) = style.weight {
            weight = if w == FontWeight::Bold { Weight::Bold } else { Weight::Regular };
        }
        let runs = match (&field, e.id()) {
            (Some(f), Some(id)) if f == id => {
                self.drawn.insert(f.clone());
                self.fields.text.get(f).cloned().unwrap_or_default()
            }
            _ => {
                self.note(&e.text());
                self.runs(&e.text())
            }
        };
        for (_, v) in &e.attrs {
            self.note(v);
        }
        let text: String = runs.iter().map(|r| r.text.as_str()).collect();
        let data = |a: &str| e.attr(a).or_else(|| line.and_then(|l| l.attr(a)));
        let [vx, _, vw, _] = self.t.view_box;
        let pad = vw * 0.04;
        let (x, natural) = room_at(anchor, x, (vx + pad, vx + vw - pad), self.safe);
        let room = style
            .fit_width
            .or_else(|| data("data-muster-fit-width").and_then(|v| length(v).ok()))
            .map_or(natural, |w| w.min(room_at(anchor, x, (vx, vx + vw), self.safe).1));
        let min = style
            .min_size
            .or_else(|| data("data-muster-min-size").and_then(|v| length(v).ok()))
            .unwrap_or(size)
            .min(size);
        let lines = style
            .lines
            .or_else(|| data("data-muster-lines").and_then(|v| v.parse().ok()))
            .unwrap_or(1);
        let overflow = style.overflow.unwrap_or(match data("data-muster-overflow") {
            Some("omit") => Overflow::Omit,
            _ => Overflow::Report,
        });
        let height = style
            .fit_height
            .or_else(|| data("data-muster-fit-height").and_then(|v| length(v).ok()))
            .unwrap_or(f64::INFINITY);
        let mut fit = fit(&runs, size, min, (room, height), weight, lines);
        // Bold text that does not fit at its smallest size is set in the regular weight,
        // which is narrower, before it is reported.
        if fit.misfit && weight == Weight::Bold {
            let regular =
                self::fit(&runs, size, min, (room, height), Weight::Regular, lines);
            if !regular.misfit {
                (fit, weight) = (regular, Weight::Regular);
            }
        }
        if fit.misfit && !text.trim().is_empty() {
            let omitted = overflow == Overflow::Omit;
            self.misfits.push(Misfit {
                field: field.clone().unwrap_or_else(|| "text".into()),
                text: text.clone(),
                width: text_width(&text, min, weight),
                room,
                min_size: min,
                omitted,
            });
            if omitted {
                return;
            }
        }
        // Broken lines are centred on their own baseline where the template gives one.
        let y = match data("data-muster-break-y").and_then(|v| length(v).ok()) {
            Some(b) if fit.lines.len() > 1 => b,
            _ => y,
        };
        let (shift, fits) = ink_shift(self.safe, &fit, y, weight);
        if !fits && !text.trim().is_empty() {
            self.misfits.push(Misfit {
                field: field.clone().unwrap_or_else(|| "text".into()),
                text: text.clone(),
                width: text_width(&text, fit.size, weight),
                room,
                min_size: min,
                omitted: false,
            });
        }
        let y = y + shift;
        self.start_tag(e, TEXT_PROPERTIES, false, out);
        let _ = write!(
            out,
            r#" x="{}" y="{}" font-size="{}" font-weight="{}">"#,
            n(x),
            n(y),
            n(fit.size),
            if weight == Weight::Bold { "bold" } else { "normal" }
        );
        match &fit.lines[..] {
            [one] => write_runs(one, out),
            lines => {
                // The lines are centred on the baseline.
                let step = fit.size * LINE_SPACING;
                for (i, line) in lines.iter().enumerate() {
                    let dy = if i == 0 {
                        -step * (lines.len() - 1) as f64 / 2.0
                    } else {
                        step
                    };
                    let _ = write!(out, r#"<tspan x="{}" dy="{}">"#, n(x), n(dy));
                    write_runs(line, out);
                    out.push_str("</tspan>");
                }
            }
        }
        out.push_str("</text>");
    }

    /// The runs of a text with placeholders: plain text, and each field's own runs.
    fn runs(&self, text: &str) -> Vec<Run> {
        let mut out = Vec::new();
        let mut last = 0;
        for (at, name) in placeholders(text) {
            out.push(Run::plain(&text[last..at]));
            if let Some(c) = self.fields.colours.get(name) {
                out.push(Run::plain(c.clone()));
            } else if let Some(runs) = self.fields.text.get(name) {
                out.extend(runs.iter().cloned());
            }
            last = at + name.len() + 2;
        }
        out.push(Run::plain(&text[last..]));
        out.retain(|r| !r.text.is_empty());
        out
    }
}

/// Where a text anchored at `x` stands and how wide it may be: inside the safe box and
/// the span `(left, right)` both, moved in when its anchor is outside them.
fn room_at(
    anchor: Anchor,
    x: f64,
    (left, right): (f64, f64),
    safe: SafeBox,
) -> (f64, f64) {
    let (left, right) = (left.max(safe.x0), right.min(safe.x1));
    let right = right.max(left);
    let x = x.clamp(left, right);
    let room = match anchor {
        Anchor::Start => right - x,
        Anchor::End => x - left,
        Anchor::Middle => 2.0 * (x - left).min(right - x),
    };
    (x, room.max(0.0))
}

/// [`SafeBox::vertical_shift`] of fitted text whose lines are centred on baseline `y`:
/// its ink from the top of its first line to the bottom of its last, outlines of
/// coloured runs included.
fn ink_shift(safe: SafeBox, fit: &Fit, y: f64, weight: Weight) -> (f64, bool) {
    let count = fit.lines.len().max(1);
    let half = fit.size * LINE_SPACING * (count - 1) as f64 / 2.0;
    let joined = |runs: &[Run]| runs.iter().map(|r| r.text.as_str()).collect::<String>();
    let outline = |runs: &[Run]| {
        if runs.iter().any(|r| r.stroke.is_some_and(|s| s != "none")) { 0.1 } else { 0.0 }
    };
    let (first, last) = match (fit.lines.first(), fit.lines.last()) {
        (Some(a), Some(b)) => (a.as_slice(), b.as_slice()),
        _ => return (0.0, true),
    };
    let up = ink_extent(&joined(first), fit.size, weight).0 + outline(first);
    let down = ink_extent(&joined(last), fit.size, weight).1 + outline(last);
    if up == 0.0 && down == 0.0 {
        return (0.0, true);
    }
    safe.vertical_shift(y - half - up, y + half + down)
}

/// A field's style, merged from every style given for it.
#[derive(Debug, Clone, Default)]
struct Merged {
    size: Option<f64>,
    weight: Option<FontWeight>,
    x: Option<f64>,
    y: Option<f64>,
    visible: Option<bool>,
    fit_width: Option<f64>,
    fit_height: Option<f64>,
    min_size: Option<f64>,
    lines: Option<u8>,
    overflow: Option<Overflow>,
}

/// What an element passes on to the text inside it.
fn inherit(e: &Element, inh: Inherited) -> Inherited {
    Inherited {
        size: e
            .property("font-size")
            .and_then(|v| css_size(&v, inh.size))
            .unwrap_or(inh.size),
        weight: e.property("font-weight").map_or(inh.weight, |v| Weight::from_css(&v)),
        anchor: e
            .property("text-anchor")
            .and_then(|v| Anchor::from_css(&v))
            .unwrap_or(inh.anchor),
    }
}

/// A font size: a length, or `em` and `%` of the inherited size.
fn css_size(v: &str, inherited: f64) -> Option<f64> {
    let v = v.trim();
    if let Some(em) = v.strip_suffix("em") {
        return em.trim().parse::<f64>().ok().map(|k| k * inherited);
    }
    if let Some(p) = v.strip_suffix('%') {
        return p.trim().parse::<f64>().ok().map(|k| k / 100.0 * inherited);
    }
    length(v).ok().filter(|s| *s > 0.0)
}

fn n4(v: f64) -> String {
    format!("{v:.4}")
}

fn write_runs(runs: &[Run], out: &mut String) {
    for r in runs {
        match (r.fill, r.stroke) {
            (None, None) => out.push_str(&esc(&r.text)),
            (fill, stroke) => {
                let _ = write!(
                    out,
                    r#"<tspan fill="{}" stroke="{}" stroke-width="0.2">{}</tspan>"#,
                    fill.unwrap_or("currentColor"),
                    stroke.unwrap_or("none"),
                    esc(&r.text)
                );
            }
        }
    }
}

/// How a text is fitted: its size and lines, and whether it still overflows.
#[derive(Debug, Clone, PartialEq)]
struct Fit {
    size: f64,
    lines: Vec<Vec<Run>>,
    misfit: bool,
}

/// Fits runs of text into `room`: at `size` if they fit, else shrunk toward `min`, else
/// (when `lines` allows) broken at the spaces that balance two, then three lines, else at
/// `min` on one line. Broken lines also shrink until they fit `height` (their count times
/// the line spacing).
fn fit(
    runs: &[Run],
    size: f64,
    min: f64,
    (room, height): (f64, f64),
    weight: Weight,
    lines: u8,
) -> Fit {
    let text: String = runs.iter().map(|r| r.text.as_str()).collect();
    let width = text_width(&text, size, weight);
    if width <= room || text.is_empty() {
        return Fit { size, lines: vec![runs.to_vec()], misfit: false };
    }
    let shrunk = size * room / width;
    if shrunk >= min {
        return Fit { size: floor2(shrunk), lines: vec![runs.to_vec()], misfit: false };
    }
    let spaces: Vec<usize> =
        text.char_indices().filter(|(_, c)| *c == ' ').map(|(i, _)| i).collect();
    for count in 2..=lines.min(3) {
        // The break points whose widest line is narrowest.
        let widest = |cuts: &[usize]| {
            let mut from = 0;
            let mut most: f64 = 0.0;
            for &end in cuts.iter().chain(std::iter::once(&text.len())) {
                most = most.max(text_width(text[from..end].trim(), size, weight));
                from = (end + 1).min(text.len());
            }
            most
        };
        let candidates: Vec<Vec<usize>> = match count {
            2 => spaces.iter().map(|&a| vec![a]).collect(),
            _ => spaces
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| spaces[i + 1..].iter().map(move |&b| vec![a, b]))
                .collect(),
        };
        let best = candidates
            .into_iter()
            .map(|cuts| {
                let w = widest(&cuts);
                (cuts, w)
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((cuts, widest)) = best {
            let s = if widest <= room { size } else { size * room / widest };
            let s = s.min(height / (f64::from(count) * LINE_SPACING));
            if s >= min {
                let mut parts = Vec::new();
                let mut rest = runs.to_vec();
                for at in cuts {
                    // Where the rest begins in the whole text.
                    let left: usize = rest.iter().map(|r| r.text.len()).sum();
                    let (a, b) = split_runs(&rest, at.saturating_sub(text.len() - left));
                    parts.push(a);
                    rest = b;
                }
                parts.push(rest);
                return Fit { size: floor2(s), lines: parts, misfit: false };
            }
        }
    }
    Fit { size: min, lines: vec![runs.to_vec()], misfit: true }
}

/// Distance between the baselines of broken lines, per unit of font size.
const LINE_SPACING: f64 = 1.15;

/// Sizes are rounded down to a hundredth, as they are written.
fn floor2(v: f64) -> f64 {
    (v * 100.0).floor() / 100.0
}

/// Runs split at byte `at` of their joined text, the space there dropped.
fn split_runs(runs: &[Run], at: usize) -> (Vec<Run>, Vec<Run>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut pos = 0;
    for r in runs {
        let end = pos + r.text.len();
        if end <= at {
            a.push(r.clone());
        } else if pos > at {
            b.push(r.clone());
        } else {
            let cut = at - pos;
            let (x, y) = (r.text[..cut].trim_end(), r.text[cut..].trim_start());
            if !x.is_empty() {
                a.push(Run { text: x.to_string(), ..r.clone() });
            }
            if !y.is_empty() {
                b.push(Run { text: y.to_string(), ..r.clone() });
            }
        }
        pos = end;
    }
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_model::FileId;
    use muster_model::template::parse;

    const T: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45">
<defs><linearGradient id="g"/></defs>
<rect id="background" x="0" y="0" width="45" height="45" fill="url(#g)"/>
<text id="designation" x="22.5" y="30" text-anchor="middle" style="font-size:8px;font-weight:bold;font-family:Arial">X</text>
<text x="22.5" y="43" text-anchor="middle" font-size="9" data-muster-min-size="8">{attack}-{movement}</text>
<g id="if-back"><rect width="45" height="10" fill="#fff"/></g>
<rect id="symbol" x="12" y="8" width="22" height="13"/>
</svg>"##;

    fn fields(designation: &str) -> Fields {
        let mut f = Fields::default();
        f.text.insert("designation".into(), vec![Run::plain(designation)]);
        f.text.insert("attack".into(), vec![Run::plain("4")]);
        f.text.insert(
            "movement".into(),
            vec![Run {
                text: "7".into(),
                fill: Some("#f5cf00"),
                stroke: Some("#000000"),
            }],
        );
        f.symbol = "infantry".into();
        f
    }

    #[test]
    fn fields_conditions_slots_and_ids_are_filled() {
        let t = parse(FileId(0), T, "t.svg", "t0").unwrap();
        let out = fill(&t, &fields("21"), &[], Margins { bleed: 2.0, safe: 0.0 });
        let s = &out.svg;
        assert!(s.contains(r#"<rect id="t0-background" x="-2.00" y="-2.00" width="49.00" height="49.00" fill="url(#t0-g)"/>"#) || s.contains(r#"id="t0-background" x="-2.00""#), "{s}");
        assert!(s.contains(">21</text>") && !s.contains("Arial"), "{s}");
        assert!(s.contains(r##">4-<tspan fill="#f5cf00" stroke="#000000" stroke-width="0.2">7</tspan></text>"##), "{s}");
        assert!(!s.contains("if-back"), "the back band is on backs only");
        assert!(
            s.contains("<g id=\"t0-symbol\" transform=\"translate(23.00 14.50)"),
            "the symbol is drawn in its slot: {s}"
        );
        assert!(out.misfits.is_empty());
        let mut back = fields("21");
        back.conditions.insert("back");
        assert!(fill(&t, &back, &[], Margins::default()).svg.contains("t0-if-back"));
    }

    #[test]
    fn text_and_the_symbol_are_kept_inside_the_safe_margin() {
        let t = parse(FileId(0), T, "t.svg", "t0").unwrap();
        let safe = Margins { bleed: 0.0, safe: 4.5 };
        let out = fill(&t, &fields("Trieste Motorized"), &[], safe);
        // The values' baseline (43 in the template) moves up: digits stand on it.
        let values = out.svg.split("<text").nth(2).unwrap();
        let y = crate::test_svg::attr(values, "y");
        assert!((40.0..=40.5).contains(&y), "{y}: {values}");
        // The designation is fitted to the safe width, 36 units less the slack.
        assert_eq!(out.misfits.len(), 1, "{:?}", out.misfits);
        assert!((out.misfits[0].room - 35.9).abs() < 1e-9, "{:?}", out.misfits);
        // The symbol slot (12,8)-(34,21) stays: its outline is inside.
        assert!(
            out.svg.contains(r#"<g id="t0-symbol" transform="translate(23.00 14.50)"#),
            "{}",
            out.svg
        );
        // With the counter 4 units lower the slot's top is 0.5 past the margin: it moves.
        let mut lower = t.clone();
        lower.view_box = [0.0, 4.0, 45.0, 45.0];
        let moved = fill(&lower, &fields("1"), &[], safe).svg;
        assert!(!moved.contains("translate(23.00 14.50)"), "{moved}");
    }

    #[test]
    fn references_to_the_templates_own_ids_are_tagged_and_others_kept() {
        let t = parse(FileId(0), T, "t.svg", "t0").unwrap();
        let f = fields("21");
        let filler = Filler {
            t: &t,
            fields: &f,
            styles: &[],
            bleed: 0.0,
            safe: SafeBox::inside([0.0, 0.0, 45.0, 45.0], 0.0),
            ids: ["g".to_string(), "background".to_string()].into(),
            drawn: BTreeSet::new(),
            misfits: Vec::new(),
        };
        assert_eq!(filler.references("#g"), "#t0-g");
        assert_eq!(filler.references("#other"), "#other");
        assert_eq!(
            filler.references("fill:url(#g);stroke:url(#other);x:url(#background)"),
            "fill:url(#t0-g);stroke:url(#other);x:url(#t0-background)"
        );
        assert_eq!(filler.references("url(#g"), "url(#g", "an unclosed reference stays");
        assert_eq!(filler.references("#fff"), "#fff", "a colour is no reference");
    }

    #[test]
    fn long_text_shrinks_to_its_minimum_and_then_is_reported() {
        let t = parse(FileId(0), T, "t.svg", "t0").unwrap();
        let style = FieldStyle {
            field: muster_model::Spanned::detached("designation".into()),
            size: None,
            weight: None,
            x: None,
            y: None,
            visible: None,
            fit_width: None,
            fit_height: None,
            min_size: Some(muster_model::Spanned::detached(6.0)),
            lines: None,
            overflow: None,
        };
        // Shrinks, and stays above the minimum.
        let out = fill(&t, &fields("1 TS/1 SA Inf"), &[&style], Margins::default());
        assert!(out.misfits.is_empty());
        let size = crate::test_svg::attr(&out.svg, "font-size");
        assert!((6.0..8.0).contains(&size), "{size}");
        // Too long even at 6: drawn at 6 and reported.
        let out = fill(
            &t,
            &fields("Trieste Motorized Infantry Division"),
            &[&style],
            Margins::default(),
        );
        assert_eq!(out.misfits.len(), 1);
        let m = &out.misfits[0];
        assert_eq!(
            (m.field.as_str(), m.min_size, m.omitted),
            ("designation", 6.0, false)
        );
        assert!(m.width > m.room);
        // Hidden fields are not drawn and not measured.
        let hidden = FieldStyle { visible: Some(false), ..style.clone() };
        let out = fill(
            &t,
            &fields("Trieste Motorized Infantry Division"),
            &[&style, &hidden],
            Margins::default(),
        );
        assert!(out.misfits.is_empty() && !out.svg.contains("Trieste"));
        // Two lines when allowed.
        let two = FieldStyle { lines: Some(muster_model::Spanned::detached(2)), ..style };
        let out = fill(&t, &fields("Afrika Korps Supply"), &[&two], Margins::default());
        assert!(out.misfits.is_empty());
        assert!(
            out.svg.contains(">Afrika Korps</tspan>")
                || out.svg.contains(">Afrika</tspan>"),
            "{}",
            out.svg
        );
        // Three lines, centred on the baseline, when two are not enough.
        let three =
            FieldStyle { lines: Some(muster_model::Spanned::detached(3)), ..two.clone() };
        let out = fill(
            &t,
            &fields("1st Armoured Division Activation"),
            &[&three],
            Margins::default(),
        );
        assert!(out.misfits.is_empty(), "{:?}", out.misfits);
        assert_eq!(out.svg.matches("<tspan x=").count(), 3, "{}", out.svg);
        assert!(out.svg.contains(">Activation</tspan>"), "{}", out.svg);
        let two_only = fill(
            &t,
            &fields("1st Armoured Division Activation"),
            &[&two],
            Margins::default(),
        );
        assert_eq!(two_only.misfits.len(), 1);
    }
}
