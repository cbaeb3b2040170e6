//! What a map draws for a hex's terrain and for each kind of feature, drawn by the same
//! functions on the map and in its legend's swatches, so that a swatch shows what the map
//! shows.
//!
//! Lengths are SVG user units (CSS pixels); `hex_px` is a hex's size across its flats.

use muster_hex::pixel::Layout;
use muster_hex::{Cell, Grid};
use muster_model::source::{FeatureKind, TerrainSymbol};

use crate::map_symbols;
use crate::svg::{Svg, n};

/// The colour of a kind of feature and its name in the legend.
pub(crate) fn feature_style(kind: FeatureKind) -> (&'static str, &'static str) {
    match kind {
        FeatureKind::Road => ("#6b4a2b", "Road"),
        FeatureKind::Track => ("#9b7b4b", "Track"),
        FeatureKind::Railway => ("#222222", "Railway"),
        FeatureKind::River => ("#3a7fc0", "River"),
        FeatureKind::Bridge => ("#2b2b2b", "Bridge"),
        FeatureKind::Escarpment => ("#7a5230", "Escarpment"),
        FeatureKind::Cliff => ("#4a3020", "Cliff"),
        FeatureKind::Fortification => ("#555555", "Fortification line"),
        FeatureKind::MinefieldHexside => ("#b02020", "Mined hexside"),
        FeatureKind::Minefield => ("#b02020", "Minefield"),
        FeatureKind::Entrenchment => ("#5a5a5a", "Entrenchment"),
        FeatureKind::AtDitch => ("#5a5a5a", "AT ditch"),
        FeatureKind::Place => ("#000000", "Named place"),
        FeatureKind::VictoryHex => ("#b8860b", "Victory hex"),
        FeatureKind::EntryArea => ("#1f5fa0", "Entry area"),
        FeatureKind::SupplySource => ("#1f7a3a", "Supply source"),
        FeatureKind::Box => ("#8b0000", "Box"),
        FeatureKind::MapEdge => ("#444444", "Map edge hexes"),
        FeatureKind::Coast => ("#2d6e9e", "Coast"),
        FeatureKind::Sea => ("#9cc3e0", "Sea"),
    }
}

/// The name of a kind of feature as the map files write it (`victory-hex`).
pub(crate) fn kind_name(kind: FeatureKind) -> String {
    let debug = format!("{kind:?}");
    let mut out = String::new();
    for (i, ch) in debug.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

/// Whether a kind of feature lies on hexsides rather than in hexes.
pub(crate) fn on_hexsides(kind: FeatureKind) -> bool {
    matches!(
        kind,
        FeatureKind::Escarpment
            | FeatureKind::Cliff
            | FeatureKind::Fortification
            | FeatureKind::MinefieldHexside
            | FeatureKind::River
    )
}

/// The stroke of the hex grid's outlines.
pub(crate) fn grid_stroke(hex_px: f64) -> String {
    format!(r##"stroke="#7d7566" stroke-width="{}""##, n(hex_px * 0.012))
}

/// Draws a hex of one terrain with `corners` around `centre`: its `fill` outlined with
/// `stroke` (nothing when both are none), then its `symbol`.
pub(crate) fn terrain_hex(
    svg: &mut Svg,
    (corners, centre): (&[(f64, f64); 6], (f64, f64)),
    hex_px: f64,
    (fill, stroke): (&str, &str),
    symbol: Option<TerrainSymbol>,
) {
    if fill != "none" || !stroke.is_empty() {
        svg.polygon(corners, &format!(r#"fill="{fill}" {stroke}"#));
    }
    if let Some(symbol) = symbol {
        map_symbols::place_in_hex(svg, symbol, centre, hex_px);
    }
}

/// Draws a road, track or railway through `pts`.
pub(crate) fn way(svg: &mut Svg, kind: FeatureKind, pts: &[(f64, f64)], hex_px: f64) {
    let (colour, _) = feature_style(kind);
    let dash = if kind == FeatureKind::Track {
        format!(r#" stroke-dasharray="{} {}""#, n(hex_px * 0.12), n(hex_px * 0.08))
    } else {
        String::new()
    };
    svg.polyline(
        pts,
        &format!(
            r#"stroke="{colour}" stroke-width="{}" stroke-linejoin="round" stroke-linecap="round"{dash}"#,
            n(hex_px * 0.06)
        ),
    );
}

/// Draws a feature of `kind` in the hex with `corners` around `centre`; a victory hex
/// carries `value`.
pub(crate) fn in_hex(
    svg: &mut Svg,
    kind: FeatureKind,
    (corners, centre): (&[(f64, f64); 6], (f64, f64)),
    hex_px: f64,
    value: &str,
) {
    let (colour, _) = feature_style(kind);
    let w = n(hex_px * 0.06);
    let outline = |svg: &mut Svg, fill: &str| {
        svg.polygon(
            corners,
            &format!(r#"fill="{fill}" stroke="{colour}" stroke-width="{w}""#),
        );
    };
    match kind {
        FeatureKind::Minefield => {
            // Inward spikes from every edge midpoint.
            for i in 0..6 {
                let (a, b) = (corners[i], corners[(i + 1) % 6]);
                let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                let tip =
                    (mid.0 + (centre.0 - mid.0) * 0.3, mid.1 + (centre.1 - mid.1) * 0.3);
                svg.line(mid, tip, &format!(r#"stroke="{colour}" stroke-width="{w}""#));
            }
            outline(svg, "none");
        }
        FeatureKind::Bridge => {
            map_symbols::bridge(svg, colour, centre, (1.0, 0.0), hex_px)
        }
        FeatureKind::VictoryHex => {
            svg.circle(
                centre,
                hex_px * 0.22,
                &format!(r##"fill="#fff3c4" stroke="{colour}" stroke-width="{w}""##),
            );
            svg.text(
                (centre.0, centre.1 + hex_px * 0.06),
                hex_px * 0.16,
                "middle",
                r##"font-weight="bold" fill="#5a4200""##,
                value,
            );
        }
        FeatureKind::Sea => outline(svg, "#9cc3e0"),
        _ => outline(svg, "none"),
    }
}

/// What a legend's swatch shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Swatch {
    /// A hex of terrain: its fill and symbol.
    Terrain {
        /// Fill colour.
        fill: String,
        /// The symbol drawn in it.
        symbol: Option<TerrainSymbol>,
    },
    /// A kind of feature, drawn as the map draws it.
    Feature(FeatureKind),
}

/// Draws a swatch as a hex of `grid` centred at `centre`, `hex_px` across its flats: the
/// terrain's hex, or the feature drawn in it, on its lowest side, or across it.
pub(crate) fn swatch(
    svg: &mut Svg,
    grid: Grid,
    what: &Swatch,
    centre: (f64, f64),
    hex_px: f64,
) {
    let layout = Layout { grid, hex_size: hex_px, origin: (0.0, 0.0) };
    let cell = Cell::new(0, 0);
    let (cx, cy) = layout.centre(cell);
    let corners =
        layout.corners(cell).map(|p| (p.0 - cx + centre.0, p.1 - cy + centre.1));
    match what {
        Swatch::Terrain { fill, symbol } => terrain_hex(
            svg,
            (&corners, centre),
            hex_px,
            (fill, &grid_stroke(hex_px)),
            *symbol,
        ),
        Swatch::Feature(kind) if on_hexsides(*kind) => {
            let lowest = (0..6)
                .max_by(|a, b| {
                    let y = |k: usize| corners[k].1 + corners[(k + 1) % 6].1;
                    y(*a).total_cmp(&y(*b)).then(b.cmp(a))
                })
                .unwrap_or(0);
            let (colour, _) = feature_style(*kind);
            let side = (corners[lowest], corners[(lowest + 1) % 6]);
            map_symbols::hexside(svg, *kind, colour, side, centre, hex_px, None);
        }
        Swatch::Feature(
            kind @ (FeatureKind::Road | FeatureKind::Track | FeatureKind::Railway),
        ) => {
            let half = hex_px / 2.0;
            way(
                svg,
                *kind,
                &[(centre.0 - half, centre.1), (centre.0 + half, centre.1)],
                hex_px,
            );
        }
        Swatch::Feature(kind) => in_hex(svg, *kind, (&corners, centre), hex_px, "VP"),
    }
}
