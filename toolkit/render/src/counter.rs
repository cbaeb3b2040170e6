//! Counter art: one SVG per counter side, drawn from a template (the game's own, or the
//! one shipped with muster), or the publisher's own art for that side.
//!
//! A counter is drawn in a 100 by 100 box of counter units; `bleed` extends the
//! background beyond the cut line for print sheets. Values the rulebook does not print are
//! drawn as `?` and counted. A side's [`recipe`] is what it is drawn from, so that a drawing
//! can be kept and reused while its recipe stays the same.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use muster_model::art::FaceArt;
use muster_model::side_contrast::DEFAULT_COUNTER_RGB;
use muster_model::source::{FaceName, FieldStyle, Marking, Mobility};
use muster_model::template::{self, Template};
use muster_model::{Game, Unit};
use muster_rules::Category;

use crate::svg::{data_url, n};
use crate::template::{Fields, Margins, Misfit, Run, fill};

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

    pub(crate) fn index(self) -> usize {
        match self {
            Face::Front => 0,
            Face::Back => 1,
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

/// Counter art as an SVG fragment in counter units, with how many values are unknown and
/// which fields do not fit.
#[derive(Debug, Clone)]
pub struct CounterArt {
    /// SVG elements drawing the counter in the box (0,0)-(100,100), background extended by
    /// the bleed.
    pub fragment: String,
    /// Values drawn as `?`.
    pub unknown_values: usize,
    /// Fields whose text does not fit at the smallest size allowed.
    pub misfits: Vec<Misfit>,
    /// Where the template (or art) that drew it came from.
    pub template: String,
}

/// The templates shipped with muster: units and markers, designed at 5/8 inch.
fn shipped(marker: bool) -> &'static Template {
    static UNIT: OnceLock<Template> = OnceLock::new();
    static MARKER: OnceLock<Template> = OnceLock::new();
    let (cell, text, name, tag) = if marker {
        (
            &MARKER,
            include_str!("../templates/marker.svg"),
            "muster's marker template",
            "sm",
        )
    } else {
        (&UNIT, include_str!("../templates/unit.svg"), "muster's unit template", "su")
    };
    cell.get_or_init(|| {
        template::parse(muster_model::FileId(u32::MAX), text, name, tag).unwrap_or_else(
            |_| Template {
                origin: name.into(),
                tag: tag.into(),
                view_box: [0.0, 0.0, 45.0, 45.0],
                nodes: vec![],
            },
        )
    })
}

/// Which template draws a counter side: the index of the game's template (and of its entry
/// in `counter_style.templates`) whose rule takes the side, or, when none does, muster's
/// own marker template (`Err(true)`) or unit template (`Err(false)`).
fn template_choice(game: &Game, unit: &Unit, face: Face) -> Result<usize, bool> {
    let style = &game.meta.counter_style;
    style
        .templates
        .iter()
        .take(game.templates.len())
        .position(|def| {
            let side = def.side.as_ref().is_none_or(|s| s.v == unit.side);
            let category =
                def.category.is_empty() || def.category.contains(&unit.category);
            let types = def.types.is_empty()
                || unit
                    .unit_type
                    .as_ref()
                    .is_some_and(|u| def.types.iter().any(|x| x.v == *u));
            let on_face =
                def.face.is_none_or(|f| (f == FaceName::Back) == (face == Face::Back));
            side && category && types && on_face
        })
        .ok_or(unit.category == Category::Marker)
}

/// The template that draws a counter side, and the field styles that apply to it.
fn template_for<'a>(
    game: &'a Game,
    unit: &Unit,
    face: Face,
) -> (&'a Template, Vec<&'a FieldStyle>) {
    let style = &game.meta.counter_style;
    let mut styles: Vec<&FieldStyle> = style.fields.iter().collect();
    match template_choice(game, unit, face) {
        Ok(i) => {
            styles.extend(&style.templates[i].fields);
            (&game.templates[i], styles)
        }
        Err(marker) => (shipped(marker), styles),
    }
}

/// What a counter side drawn from a template is drawn from, as bytes: which template, the
/// fields it is filled with and the values it does not know. With the game's part
/// ([`style_recipe`]) and the bleed, a recipe decides the drawing: sides with the same
/// recipe are drawn alike. `None` for a side drawn from the publisher's own art.
pub fn recipe(game: &Game, unit: &Unit, face: Face) -> Option<Vec<u8>> {
    if unit.art.get(face.index()).and_then(Option::as_ref).is_some() {
        return None;
    }
    let (fields, unknown) = face_fields(game, unit, face);
    let mut feed = Feed(Vec::with_capacity(512));
    template_choice(game, unit, face).hash(&mut feed);
    fields.hash(&mut feed);
    unknown.hash(&mut feed);
    Some(feed.0)
}

/// The part of every [`recipe`] that a game's counters share: its templates and its
/// counter style, which choose the template and style each field.
pub fn style_recipe(game: &Game) -> Vec<u8> {
    format!("{:?}\n{:?}", game.templates, game.meta.counter_style).into_bytes()
}

/// A [`Hasher`] that keeps the bytes it is fed, in order.
struct Feed(Vec<u8>);

impl Hasher for Feed {
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    fn finish(&self) -> u64 {
        0
    }
}

fn nationality_colour<'a>(game: &'a Game, unit: &Unit) -> &'a str {
    unit.nationality
        .as_ref()
        .and_then(|n| game.meta.nationalities.iter().find(|x| x.id.v == *n))
        .and_then(|n| n.rgb.as_ref())
        .map_or(DEFAULT_COUNTER_RGB, |c| c.v.as_str())
}

/// The colour of the stripe a unit's side gives its counters, if any.
fn side_stripe<'a>(game: &'a Game, unit: &Unit) -> Option<&'a str> {
    game.meta
        .sides
        .iter()
        .find(|s| s.id.v == unit.side)
        .and_then(|s| s.stripe.as_ref())
        .map(|c| c.v.as_str())
}

/// How far down from the cut a nationality's stripe reaches, in counter units: within
/// the safe margin, so that it runs under no text.
const STRIPE_DEPTH: f64 = 6.0;

/// The stripe along the top edge, from the bleed down to [`STRIPE_DEPTH`].
fn stripe(f: &mut String, fields: &Fields, bleed: f64) {
    if let Some(c) = fields.colours.get("stripe") {
        let _ = write!(
            f,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{c}"/>"#,
            n(-bleed),
            n(-bleed),
            n(100.0 + 2.0 * bleed),
            n(bleed + STRIPE_DEPTH)
        );
    }
}

/// Is this a dark colour (so text on it should be white)?
fn dark(rgb: &str) -> bool {
    let v = |i: usize| {
        u32::from_str_radix(rgb.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255)
    };
    let (r, g, b) = (v(1), v(3), v(5));
    (r * 299 + g * 587 + b * 114) / 1000 < 110
}

/// The size a counter's echelon mark shows: its own, or for an HQ that prints none, the
/// size of the formation it heads.
fn echelon<'a>(game: &'a Game, unit: &'a Unit) -> Option<&'a String> {
    unit.size.as_ref().or_else(|| {
        (unit.category == Category::Hq)
            .then(|| unit.formation.as_ref().and_then(|id| game.formation(id)))
            .flatten()
            .and_then(|f| f.size.as_ref())
    })
}

/// Fills a value template (`{attack}-{defense}-{movement}`) as runs of text, counting the
/// values it draws as `?`.
fn value_runs(
    template: &str,
    values: &BTreeMap<String, String>,
    mobility: Option<(&str, Mobility)>,
    unknown: &mut usize,
) -> Vec<Run> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push(Run::plain(&rest[..open]));
        let Some(close) = rest[open..].find('}') else { break };
        let name = &rest[open + 1..open + close];
        let value = values.get(name).cloned().unwrap_or_else(|| {
            *unknown += 1;
            "?".into()
        });
        match mobility {
            Some((m, mob)) if m == name => {
                let (fill, stroke) = match mob {
                    Mobility::Mechanized => ("#f5cf00", "#000000"),
                    Mobility::Motorized => ("#000000", "none"),
                    Mobility::Foot => ("#ffffff", "#000000"),
                };
                out.push(Run { text: value, fill: Some(fill), stroke: Some(stroke) });
            }
            _ => out.push(Run::plain(value)),
        }
        rest = &rest[open + close + 1..];
    }
    out.push(Run::plain(rest));
    out.retain(|r| !r.text.is_empty());
    out
}

/// The fields one side of a counter fills a template with, and how many values each
/// draws as `?`.
fn face_fields(
    game: &Game,
    unit: &Unit,
    face: Face,
) -> (Fields, BTreeMap<String, usize>) {
    let mut f = Fields::default();
    let mut unknown = BTreeMap::new();
    let plain = |s: &str| vec![Run::plain(s)];
    let marker = unit.category == Category::Marker;
    let colour = if marker { "#d9d4c7" } else { nationality_colour(game, unit) };
    f.colours.insert("colour", colour.to_string());
    f.colours.insert("ink", if dark(colour) { "#ffffff" } else { "#000000" }.to_string());
    if let Some(c) = side_stripe(game, unit).filter(|_| !marker) {
        f.colours.insert("stripe", c.to_string());
    }
    f.conditions.insert(face.name());
    if face == Face::Back {
        f.conditions.insert(if unit.back_state.is_some() { "state" } else { "reduced" });
    }
    for (m, c) in [
        (Marking::Exploitation, "exploitation"),
        (Marking::IndependentBar, "independent-bar"),
        (Marking::Camouflage, "camouflage"),
    ] {
        if unit.markings.contains(&m) {
            f.conditions.insert(c);
        }
    }
    let name = match (marker, face) {
        (true, Face::Back) => unit.back_text.clone().unwrap_or_default(),
        _ => unit.printed.v.clone(),
    };
    f.text.insert("name".into(), plain(&name));
    f.text.insert("id".into(), plain(&unit.id));
    let designation = if unit.name.designation.is_empty() {
        name.clone()
    } else {
        unit.name.designation.clone()
    };
    f.text.insert("designation".into(), plain(&designation));
    let size = echelon(game, unit)
        .and_then(|s| game.meta.unit_sizes.iter().find(|d| d.id.v == *s));
    f.text.insert("size".into(), plain(size.map_or("", |d| d.symbol.as_str())));
    let type_def = unit
        .unit_type
        .as_ref()
        .and_then(|t| game.meta.unit_types.iter().find(|d| d.id.v == *t));
    f.text.insert("type".into(), plain(type_def.map_or("", |d| d.name.as_str())));
    f.symbol = match (&unit.unit_type, type_def) {
        (None, _) => "unknown".into(),
        (Some(_), Some(d)) => d.symbol.v.clone(),
        (Some(_), None) => "none".into(),
    };
    let side = game.meta.sides.iter().find(|s| s.id.v == unit.side);
    f.text.insert("side".into(), plain(side.map_or("", |s| s.name.as_str())));
    let nationality = unit
        .nationality
        .as_ref()
        .and_then(|n| game.meta.nationalities.iter().find(|x| x.id.v == *n));
    f.text
        .insert("nationality".into(), plain(nationality.map_or("", |n| n.name.as_str())));
    // The formation by the shortest name the rulebook prints for it.
    let formation = unit
        .formation
        .as_ref()
        .and_then(|id| game.formation(id))
        .filter(|x| !x.independent)
        .map(|x| {
            std::iter::once(&x.printed)
                .chain(&x.also_printed)
                .map(|p| p.v.as_str())
                .min_by_key(|p| p.chars().count())
                .unwrap_or_default()
                .to_string()
        })
        .unwrap_or_default();
    f.text.insert("formation".into(), plain(&formation));
    let values = match face {
        Face::Front => &unit.front,
        Face::Back => &unit.back,
    };
    for v in &game.meta.values {
        let (text, missing) = match values.get(&v.id.v) {
            Some(x) => (x.clone(), 0),
            None => ("?".to_string(), 1),
        };
        f.text.insert(v.id.v.clone(), plain(&text));
        unknown.insert(v.id.v.clone(), missing);
    }
    let style = &game.meta.counter_style;
    let (mut left, mut right) = (Vec::new(), Vec::new());
    if let Some(b) = &style.beside_size {
        let mut count = 0;
        left = value_runs(&format!("{{{}}}", b.left.v), values, None, &mut count);
        right = value_runs(&format!("{{{}}}", b.right.v), values, None, &mut count);
        let mut l = 0;
        let _ = value_runs(&format!("{{{}}}", b.left.v), values, None, &mut l);
        unknown.insert("size-left".into(), l);
        unknown.insert("size-right".into(), count - l);
    }
    f.text.insert("size-left".into(), left);
    f.text.insert("size-right".into(), right);
    let line = style.values.iter().find(|t| {
        (t.types.is_empty()
            || unit.unit_type.as_ref().is_some_and(|u| t.types.iter().any(|x| x.v == *u)))
            && (t.category.is_empty() || t.category.contains(&unit.category))
    });
    let mut count = 0;
    let runs = match line.filter(|t| !t.text.v.is_empty() && !marker) {
        Some(t) => {
            let mobility = style.mobility_value.as_deref().zip(unit.mobility);
            value_runs(&t.text.v, values, mobility, &mut count)
        }
        None => Vec::new(),
    };
    unknown.insert("values".into(), count);
    f.text.insert("values".into(), runs);
    (f, unknown)
}

/// The transform that draws a view box in the 100 by 100 counter box, and its scale.
fn to_counter_box(view_box: [f64; 4]) -> (String, f64) {
    let [x, y, w, h] = view_box;
    let k = 100.0 / w.max(h);
    let (dx, dy) = ((100.0 - w * k) / 2.0 - x * k, (100.0 - h * k) / 2.0 - y * k);
    (format!(r#"matrix({k:.6} 0 0 {k:.6} {} {})"#, n(dx), n(dy)), k)
}

/// The safe margin counters are drawn with unless told otherwise, in counter units: 1/16
/// inch on a 5/8-inch counter.
pub const SAFE_MARGIN: f64 = 10.0;

/// Margins in counter units as a template of scale `k` (counter units per template unit)
/// takes them.
fn scaled(m: Margins, k: f64) -> Margins {
    Margins { bleed: m.bleed / k, safe: m.safe / k }
}

/// Draws one side of a unit or marker, with the background extended by `margins.bleed`
/// and text and symbols kept `margins.safe` in from the cut (counter units).
pub fn counter_fragment(
    game: &Game,
    unit: &Unit,
    face: Face,
    margins: Margins,
) -> CounterArt {
    let mut f = String::with_capacity(2048);
    let (fields, unknown) = face_fields(game, unit, face);
    let (lo, span) = (-margins.bleed, 100.0 + 2.0 * margins.bleed);
    if let Some(art) = unit.art.get(face.index()).and_then(Option::as_ref) {
        // The publisher's own art, over the counter's colour (which fills the bleed).
        let _ = write!(
            f,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
            n(lo),
            n(lo),
            n(span),
            n(span),
            fields.colours.get("colour").map_or("#ffffff", String::as_str)
        );
        let image = |f: &mut String, url: String| {
            let _ = write!(
                f,
                r#"<image x="0" y="0" width="100" height="100" preserveAspectRatio="none" href="{url}"/>"#
            );
        };
        let origin = match art {
            FaceArt::Raster(r) => {
                image(&mut f, data_url(r.format.media_type(), &r.bytes));
                r.origin.clone()
            }
            FaceArt::Cut(c) => {
                image(&mut f, data_url("image/png", c.png()));
                c.sheet.origin.clone()
            }
            FaceArt::Svg(t) => {
                let (transform, k) = to_counter_box(t.view_box);
                let filled = fill(t, &fields, &[], scaled(margins, k));
                let _ = write!(f, r#"<g transform="{transform}">{}</g>"#, filled.svg);
                stripe(&mut f, &fields, margins.bleed);
                return CounterArt {
                    fragment: f,
                    unknown_values: counted(&unknown, &filled.drawn),
                    misfits: filled.misfits,
                    template: t.origin.clone(),
                };
            }
        };
        stripe(&mut f, &fields, margins.bleed);
        return CounterArt {
            fragment: f,
            unknown_values: 0,
            misfits: vec![],
            template: origin,
        };
    }
    let (t, styles) = template_for(game, unit, face);
    let (transform, k) = to_counter_box(t.view_box);
    let filled = fill(t, &fields, &styles, scaled(margins, k));
    let _ = write!(f, r#"<g transform="{transform}">{}</g>"#, filled.svg);
    stripe(&mut f, &fields, margins.bleed);
    CounterArt {
        fragment: f,
        unknown_values: counted(&unknown, &filled.drawn),
        misfits: filled.misfits,
        template: t.origin.clone(),
    }
}

/// Values drawn as `?` by the fields a template drew.
fn counted(
    unknown: &BTreeMap<String, usize>,
    drawn: &std::collections::BTreeSet<String>,
) -> usize {
    drawn.iter().filter_map(|d| unknown.get(d)).sum()
}

/// A standalone SVG of one counter side, `size_in` inches square.
pub fn counter_svg(
    game: &Game,
    unit: &Unit,
    face: Face,
    size_in: f64,
) -> (String, usize) {
    let art =
        counter_fragment(game, unit, face, Margins { bleed: 0.0, safe: SAFE_MARGIN });
    (standalone_svg(&art, size_in), art.unknown_values)
}

/// A standalone SVG, `size_in` inches square, of a counter side drawn without bleed.
pub fn standalone_svg(art: &CounterArt, size_in: f64) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{s}in" height="{s}in" viewBox="0 0 100 100" font-family="{f}">{}<rect x="0" y="0" width="100" height="100" fill="none" stroke="#000000" stroke-opacity="0.35" stroke-width="0.8"/></svg>
"##,
        art.fragment,
        s = n(size_in),
        f = crate::fonts::FAMILY,
    )
}

/// A standalone SVG of a counter side for an image-based print shop: the cut square,
/// `size_in` inches across, with `bleed` counter units (100 across the cut square) of the
/// side's art around it, as `fragment` ([`counter_fragment`] with that bleed) draws it, and
/// no outline on the cut line.
pub fn bled_svg(fragment: &str, size_in: f64, bleed: f64) -> String {
    let span = 100.0 + 2.0 * bleed;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{s}in" height="{s}in" viewBox="{lo} {lo} {span} {span}" font-family="{f}">{fragment}</svg>
"##,
        s = n(size_in * span / 100.0),
        lo = n(-bleed),
        span = n(span),
        f = crate::fonts::FAMILY,
    )
}

/// The template that drew each counter side, for tests and `inspect`.
pub fn template_origin(game: &Game, unit: &Unit, face: Face) -> String {
    if let Some(a) = unit.art.get(face.index()).and_then(Option::as_ref) {
        return match a {
            FaceArt::Raster(r) => r.origin.clone(),
            FaceArt::Cut(c) => c.sheet.origin.clone(),
            FaceArt::Svg(t) => t.origin.clone(),
        };
    }
    template_for(game, unit, face).0.origin.clone()
}
