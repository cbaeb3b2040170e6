//! Counter art: one SVG per counter side, in the game's own counter style.
//!
//! A counter is drawn in a 100 by 100 box of counter units; `bleed` extends the
//! background beyond the cut line for print sheets. Values the rulebook does not print are
//! drawn as `?` and counted.

use std::fmt::Write;

use muster_model::source::{Marking, Mobility};
use muster_model::{Game, Unit};
use muster_rules::Category;

use crate::svg::{esc, n};

/// A side of a counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// Full strength (or the only side).
    Front,
    /// Reduced strength, or a marker's other side.
    Back,
}

impl Face {
    /// `front` or `back`, for file names.
    pub fn name(self) -> &'static str {
        match self {
            Face::Front => "front",
            Face::Back => "back",
        }
    }
}

/// The sides a counter has: one for single-sided counters and markers without a back.
pub fn faces(unit: &Unit) -> Vec<Face> {
    let one_sided = unit.single_sided
        || unit.steps == Some(1)
        || (unit.category == Category::Marker && unit.back_text.is_none());
    if one_sided { vec![Face::Front] } else { vec![Face::Front, Face::Back] }
}

/// Counter art as an SVG fragment in counter units, with how many values are unknown.
#[derive(Debug, Clone)]
pub struct CounterArt {
    /// SVG elements drawing the counter in the box (0,0)-(100,100), background extended by
    /// the bleed.
    pub fragment: String,
    /// Values drawn as `?`.
    pub unknown_values: usize,
}

fn nationality_colour<'a>(game: &'a Game, unit: &Unit) -> &'a str {
    unit.nationality
        .as_ref()
        .and_then(|n| game.meta.nationalities.iter().find(|x| x.id.v == *n))
        .and_then(|n| n.rgb.as_ref())
        .map_or("#c8c2b4", |c| c.v.as_str())
}

/// Is this a dark colour (so text on it should be white)?
fn dark(rgb: &str) -> bool {
    let v = |i: usize| {
        u32::from_str_radix(rgb.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255)
    };
    let (r, g, b) = (v(1), v(3), v(5));
    (r * 299 + g * 587 + b * 114) / 1000 < 110
}

fn fit(text: &str, max: f64, width: f64) -> f64 {
    let len = text.chars().count().max(1) as f64;
    max.min(width / (0.56 * len))
}

/// Fills a value template (`{attack}-{defense}-{movement}`) as SVG text pieces.
fn value_line(
    template: &str,
    values: &std::collections::BTreeMap<String, String>,
    mobility: Option<(&str, Mobility)>,
    unknown: &mut usize,
) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&esc(&rest[..open]));
        let Some(close) = rest[open..].find('}') else { break };
        let name = &rest[open + 1..open + close];
        let value = match values.get(name) {
            Some(v) => v.clone(),
            None => {
                *unknown += 1;
                "?".into()
            }
        };
        match mobility {
            Some((m, mob)) if m == name => {
                let (fill, stroke) = match mob {
                    Mobility::Mechanized => ("#f5cf00", "#000000"),
                    Mobility::Motorized => ("#000000", "none"),
                    Mobility::Foot => ("#ffffff", "#000000"),
                };
                let _ = write!(
                    out,
                    r#"<tspan fill="{fill}" stroke="{stroke}" stroke-width="0.4">{}</tspan>"#,
                    esc(&value)
                );
            }
            _ => out.push_str(&esc(&value)),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(&esc(rest));
    out
}

/// Draws one side of a unit or marker.
pub fn counter_fragment(game: &Game, unit: &Unit, face: Face, bleed: f64) -> CounterArt {
    let mut f = String::with_capacity(2048);
    let mut unknown = 0;
    let (lo, span) = (-bleed, 100.0 + 2.0 * bleed);
    if unit.category == Category::Marker {
        let _ = write!(
            f,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#d9d4c7"/>"##,
            n(lo),
            n(lo),
            n(span),
            n(span)
        );
        let text = match face {
            Face::Front => unit.printed.v.clone(),
            Face::Back => unit.back_text.clone().unwrap_or_default(),
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        let lines: Vec<String> = if words.len() > 1 && text.len() > 9 {
            let mid = words.len().div_ceil(2);
            vec![words[..mid].join(" "), words[mid..].join(" ")]
        } else {
            vec![text.clone()]
        };
        let size = lines.iter().map(|l| fit(l, 20.0, 90.0)).fold(20.0, f64::min);
        for (i, l) in lines.iter().enumerate() {
            let y = 50.0
                + size * 0.35
                + (i as f64 - (lines.len() as f64 - 1.0) / 2.0) * size * 1.15;
            let _ = write!(
                f,
                r##"<text x="50" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="#1a1a1a">{}</text>"##,
                n(y),
                n(size),
                esc(l)
            );
        }
        return CounterArt { fragment: f, unknown_values: 0 };
    }

    let bg = nationality_colour(game, unit);
    let ink = if dark(bg) { "#ffffff" } else { "#000000" };
    let _ = write!(
        f,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{bg}"/>"#,
        n(lo),
        n(lo),
        n(span),
        n(span)
    );
    if unit.markings.contains(&Marking::Camouflage) {
        for k in 0..6 {
            let x = -20.0 + f64::from(k) * 25.0;
            let _ = write!(
                f,
                r##"<path d="M{} 0 l20 100" stroke="#000000" stroke-opacity="0.12" stroke-width="6"/>"##,
                n(x)
            );
        }
    }
    if face == Face::Back {
        // Reduced side: a light band across the top.
        let _ = write!(
            f,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#ffffff" fill-opacity="0.45"/>"##,
            n(lo),
            n(lo),
            n(span),
            n(24.0 + bleed)
        );
    }
    let style = &game.meta.counter_style;
    let values = match face {
        Face::Front => &unit.front,
        Face::Back => &unit.back,
    };
    // Size mark, with values beside it where the game prints them there.
    let size_symbol = unit
        .size
        .as_ref()
        .and_then(|s| game.meta.unit_sizes.iter().find(|d| d.id.v == *s))
        .map(|d| d.symbol.clone())
        .unwrap_or_default();
    if !size_symbol.is_empty() {
        let _ = write!(
            f,
            r#"<text x="50" y="17" font-size="12" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
            esc(&size_symbol)
        );
    }
    if let Some(b) = &style.beside_size {
        for (x, key) in [(18.0, &b.left.v), (82.0, &b.right.v)] {
            let v = values.get(key).cloned().unwrap_or_else(|| {
                unknown += 1;
                "?".into()
            });
            let _ = write!(
                f,
                r#"<text x="{}" y="19" font-size="16" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
                n(x),
                esc(&v)
            );
        }
    }
    // Unit symbol.
    let symbol = unit
        .unit_type
        .as_ref()
        .and_then(|t| game.meta.unit_types.iter().find(|d| d.id.v == *t))
        .map_or("none", |d| d.symbol.v.as_str());
    crate::symbols::draw(
        &mut f,
        if unit.unit_type.is_none() { "unknown" } else { symbol },
        50.0,
        40.0,
        44.0,
        26.0,
    );
    if unit.unit_type.is_none() {
        let _ = write!(
            f,
            r##"<text x="50" y="45" font-size="14" font-weight="bold" text-anchor="middle" fill="#000000">?</text>"##
        );
    }
    // Designation and parent formation.
    let designation = if unit.name.designation.is_empty() {
        unit.printed.v.clone()
    } else {
        unit.name.designation.clone()
    };
    let ds = fit(&designation, 13.0, 92.0);
    let _ = write!(
        f,
        r#"<text x="50" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
        n(59.0 + ds),
        n(ds),
        esc(&designation)
    );
    if unit.markings.contains(&Marking::IndependentBar) {
        let _ = write!(
            f,
            r##"<rect x="14" y="{}" width="72" height="2.6" fill="#ffffff"/>"##,
            n(62.0 + ds)
        );
    }
    if let Some(formation) = unit
        .formation
        .as_ref()
        .and_then(|id| game.formation(id))
        .filter(|f| !f.independent)
    {
        let short = formation
            .also_printed
            .first()
            .map_or(formation.printed.v.as_str(), |s| s.v.as_str());
        let fs = fit(short, 8.0, 92.0);
        let _ = write!(
            f,
            r#"<text x="50" y="{}" font-size="{}" text-anchor="middle" fill="{ink}">{}</text>"#,
            n(67.5 + ds),
            n(fs),
            esc(short)
        );
    }
    // Values.
    let template = style.values.iter().find(|t| {
        (t.types.is_empty()
            || unit.unit_type.as_ref().is_some_and(|u| t.types.iter().any(|x| x.v == *u)))
            && (t.category.is_empty() || t.category.contains(&unit.category))
    });
    if let Some(t) = template.filter(|t| !t.text.v.is_empty()) {
        let mobility = style.mobility_value.as_deref().zip(unit.mobility);
        let line = value_line(&t.text.v, values, mobility, &mut unknown);
        if unit.markings.contains(&Marking::Exploitation) {
            let _ = write!(
                f,
                r##"<rect x="16" y="81" width="68" height="17" rx="2" fill="#f2d21b"/>"##
            );
        }
        let _ = write!(
            f,
            r#"<text x="50" y="95" font-size="16" font-weight="bold" text-anchor="middle" fill="{ink}">{line}</text>"#
        );
    }
    CounterArt { fragment: f, unknown_values: unknown }
}

/// A standalone SVG of one counter side, `size_in` inches square.
pub fn counter_svg(
    game: &Game,
    unit: &Unit,
    face: Face,
    size_in: f64,
) -> (String, usize) {
    let art = counter_fragment(game, unit, face, 0.0);
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{s}in" height="{s}in" viewBox="0 0 100 100" font-family="{f}">{}<rect x="0" y="0" width="100" height="100" fill="none" stroke="#000000" stroke-opacity="0.35" stroke-width="0.8"/></svg>
"##,
        art.fragment,
        s = n(size_in),
        f = crate::fonts::FAMILY,
    );
    (svg, art.unknown_values)
}
