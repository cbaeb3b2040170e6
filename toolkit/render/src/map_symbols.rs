//! muster's own map drawings: the terrain symbols drawn in every hex of a terrain that
//! declares one, and the art of hexside features (hachured escarpments and cliffs, wavy
//! rivers, toothed fortification lines, crossed minefields). They let a map read in black
//! and white and without telling colours apart.
//!
//! A terrain symbol is drawn once in `<defs>` in units of a hex whose corners lie 87 units
//! from its centre, and placed in each hex with `<use>`. Symbols keep to the band from
//! 28 units above the centre to 60 below it and 50 either side (46 at its foot), which
//! stays inside flat-top and pointy-top hexes and leaves room for the hex number printed
//! near the top of the hex.

use std::f64::consts::TAU;
use std::fmt::Write;

use muster_model::source::{FeatureKind, TerrainSymbol};

use crate::svg::{Svg, n};

/// Ink of the land symbols: dark enough to read on every terrain fill.
const INK: &str = "#3b3328";
/// Ink of the wave lines: a dark blue that reads on sea fills.
const WATER_INK: &str = "#1d4e79";
/// Units from a hex's centre to its corners in symbol drawings.
const UNIT: f64 = 87.0;
/// Offset of the band's middle below the hex centre, in units.
const BAND_MID: f64 = 16.0;

/// The id of a symbol's drawing in the map's `<defs>`.
pub(crate) fn symbol_id(symbol: TerrainSymbol) -> String {
    format!("muster-terrain-{}", symbol.name())
}

/// Writes `<defs>` holding the drawings of `symbols` (nothing when there are none).
pub(crate) fn write_defs(
    svg: &mut Svg,
    symbols: impl IntoIterator<Item = TerrainSymbol>,
) {
    let mut symbols: Vec<TerrainSymbol> = symbols.into_iter().collect();
    symbols.sort();
    symbols.dedup();
    if symbols.is_empty() {
        return;
    }
    svg.open("defs", "");
    for s in symbols {
        let ink = if s == TerrainSymbol::Waves { WATER_INK } else { INK };
        svg.open(
            "g",
            &format!(
                r#"id="{}" fill="none" stroke="{ink}" stroke-width="4.5" stroke-linecap="round" stroke-linejoin="round""#,
                symbol_id(s)
            ),
        );
        draw_symbol(svg, s, ink);
        svg.close("g");
    }
    svg.close("defs");
}

/// Places a symbol in the hex centred at `centre` that measures `hex_px` across its flat
/// sides (its corners lie `hex_px / √3` from the centre).
pub(crate) fn place_in_hex(
    svg: &mut Svg,
    symbol: TerrainSymbol,
    centre: (f64, f64),
    hex_px: f64,
) {
    svg.use_at(&symbol_id(symbol), centre, hex_px / 3f64.sqrt() / UNIT);
}

/// Draws one symbol in symbol units, stroked in the group's ink.
fn draw_symbol(svg: &mut Svg, symbol: TerrainSymbol, ink: &str) {
    let filled = format!(r#"fill="{ink}" stroke="none""#);
    let filled_stroked = format!(r#"fill="{ink}""#);
    match symbol {
        TerrainSymbol::Palms => palms(svg, &filled_stroked),
        TerrainSymbol::Town => {
            // Blocks of buildings with streets between them.
            for (x, y, w, h) in [
                (-42.0, -4.0, 26.0, 20.0),
                (-10.0, -12.0, 22.0, 28.0),
                (18.0, 0.0, 24.0, 16.0),
                (-36.0, 24.0, 22.0, 24.0),
                (-6.0, 24.0, 28.0, 18.0),
                (28.0, 24.0, 16.0, 26.0),
            ] {
                svg.rect(x, y, w, h, &filled);
            }
        }
        TerrainSymbol::Rough => {
            // Scattered rocks.
            for (x, y, r) in [
                (-36.0, 0.0, 5.0),
                (-12.0, -12.0, 4.0),
                (14.0, -2.0, 6.0),
                (38.0, 8.0, 4.0),
                (-26.0, 26.0, 4.0),
                (0.0, 18.0, 5.0),
                (26.0, 30.0, 5.0),
                (-40.0, 46.0, 4.0),
                (-10.0, 46.0, 6.0),
                (14.0, 54.0, 4.0),
                (40.0, 50.0, 5.0),
            ] {
                svg.circle((x, y), r, &filled);
            }
        }
        TerrainSymbol::Hills => {
            // Two hills of nested contour arcs.
            for d in [
                "M-50 56A34 70 0 0 1 18 56",
                "M-38 56A22 46 0 0 1 6 56",
                "M-26 56A10 22 0 0 1 -6 56",
                "M22 56A14 32 0 0 1 50 56",
                "M30 56A6 16 0 0 1 42 56",
            ] {
                svg.path(d, "");
            }
        }
        TerrainSymbol::Marsh => marsh(svg),
        TerrainSymbol::Sand => sand(svg, &filled),
        TerrainSymbol::Waves => waves(svg),
        TerrainSymbol::Woods => {
            // Tree crowns on short trunks.
            for (x, y, r) in [
                (-28.0, 8.0, 15.0),
                (18.0, -2.0, 13.0),
                (-4.0, 36.0, 14.0),
                (32.0, 38.0, 12.0),
            ] {
                svg.circle((x, y), r, "");
                svg.line((x, y + r), (x, y + r + 9.0), "");
            }
        }
        TerrainSymbol::Mountain => {
            // A peak and a lower one behind it, each shaded on its right face.
            svg.path("M-46 56L-10 -22L26 56Z", "");
            svg.path("M-10 -22L26 56L4 56Z", &filled);
            svg.path("M12 30L30 6L50 56L20 56", "");
            svg.path("M30 6L50 56L38 56Z", &filled);
        }
        TerrainSymbol::Depression => depression(svg),
    }
}

/// Two palms: a curved trunk and four leaves each, on a line of ground, the leaves in
/// `leaves` (the fill and stroke of the group's ink).
fn palms(svg: &mut Svg, leaves: &str) {
    svg.path("M-22 58Q-14 30 -10 2M28 58Q32 40 30 22", r#"stroke-width="7""#);
    svg.path("M-36 60L42 60", "");
    let mut d = String::new();
    for ((bx, by), (cx, cy), (tx, ty)) in [
        ((-10.0, 2.0), (-24.0, -12.0), (-40.0, 0.0)),
        ((-10.0, 2.0), (4.0, -12.0), (20.0, -2.0)),
        ((-10.0, 2.0), (-16.0, -20.0), (-28.0, -24.0)),
        ((-10.0, 2.0), (-2.0, -20.0), (10.0, -22.0)),
        ((30.0, 22.0), (20.0, 12.0), (10.0, 20.0)),
        ((30.0, 22.0), (40.0, 12.0), (50.0, 20.0)),
        ((30.0, 22.0), (26.0, 8.0), (18.0, 6.0)),
        ((30.0, 22.0), (36.0, 8.0), (44.0, 6.0)),
    ] {
        // A leaf: the frond's curve out to its tip and a flatter curve back.
        let (mx, my) = ((bx + tx) / 2.0, (by + ty) / 2.0);
        let (lx, ly) = ((cx + mx) / 2.0, (cy + my) / 2.0 + 3.0);
        let _ = write!(d, "M{bx} {by}Q{cx} {cy} {tx} {ty}Q{lx} {ly} {bx} {by}Z");
    }
    svg.path(&d, leaves);
}

/// Tufts of grass standing on water lines, and loose water dashes.
fn marsh(svg: &mut Svg) {
    let mut d = String::new();
    for (x, y) in [(-28.0, 4.0), (20.0, 0.0), (-4.0, 30.0), (-32.0, 54.0), (28.0, 50.0)] {
        let _ = write!(
            d,
            "M{} {y}L{} {y}M{} {}L{} {}M{x} {}L{x} {}M{} {}L{} {}",
            x - 13.0,
            x + 13.0,
            x - 6.0,
            y - 3.0,
            x - 10.0,
            y - 14.0,
            y - 3.0,
            y - 17.0,
            x + 6.0,
            y - 3.0,
            x + 10.0,
            y - 14.0,
        );
    }
    d.push_str("M-46 28L-34 28M20 26L36 26M-8 58L6 58");
    svg.path(&d, "");
}

/// Even stipple: dots on a sunflower spiral filling the band, in `dots` (filled with
/// the group's ink).
fn sand(svg: &mut Svg, dots: &str) {
    const DOTS: usize = 36;
    for i in 0..DOTS {
        let r = 44.0 * ((i as f64 + 0.5) / DOTS as f64).sqrt();
        let a = i as f64 * 2.399_963_229_728_653;
        svg.circle((r * a.cos(), BAND_MID + r * a.sin()), 2.8, dots);
    }
}

/// Three rows of waves.
fn waves(svg: &mut Svg) {
    for y in [-4.0_f64, 22.0, 48.0] {
        let mut d = format!("M-44 {y}Q-38.5 {} -33 {y}", y - 12.0);
        let mut x = -33.0;
        while x < 44.0 {
            x += 11.0;
            let _ = write!(d, "T{x} {y}");
        }
        svg.path(&d, "");
    }
}

/// A closed ring with ticks pointing inward, as a depression contour.
fn depression(svg: &mut Svg) {
    let (rx, ry) = (42.0, 30.0);
    svg.path(
        &format!(
            "M{} {BAND_MID}A{rx} {ry} 0 1 1 {} {BAND_MID}A{rx} {ry} 0 1 1 {} {BAND_MID}Z",
            -rx, rx, -rx
        ),
        "",
    );
    const TICKS: usize = 14;
    for k in 0..TICKS {
        let a = k as f64 * TAU / TICKS as f64;
        let (c, s) = (a.cos(), a.sin());
        svg.line(
            (rx * c, BAND_MID + ry * s),
            (0.7 * rx * c, BAND_MID + 0.7 * ry * s),
            "",
        );
    }
}

/// Draws a hexside feature on the side from `a` to `b` of the hex centred at `inner`, in
/// `colour`, for hexes `hex_px` across their flat sides. Escarpments and cliffs
/// carry hachures across the line (the data does not say which side is downhill), rivers
/// wave (`river_px` wide where the data sets a width), fortification lines carry teeth on
/// the side away from the hex the side is named from, and mined hexsides carry crosses.
pub(crate) fn hexside(
    svg: &mut Svg,
    kind: FeatureKind,
    colour: &str,
    (a, b): ((f64, f64), (f64, f64)),
    inner: (f64, f64),
    hex_px: f64,
    river_px: Option<f64>,
) {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    if len <= 0.0 || !len.is_finite() {
        return;
    }
    let t = ((b.0 - a.0) / len, (b.1 - a.1) / len);
    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    // The normal pointing away from the hex the side is named from.
    let mut nrm = (-t.1, t.0);
    if nrm.0 * (mid.0 - inner.0) + nrm.1 * (mid.1 - inner.1) < 0.0 {
        nrm = (-nrm.0, -nrm.1);
    }
    let at = |f: f64| (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f);
    let off = |p: (f64, f64), along: f64, across: f64| {
        (p.0 + t.0 * along + nrm.0 * across, p.1 + t.1 * along + nrm.1 * across)
    };
    let stroke = |w: f64| {
        format!(
            r#"stroke="{colour}" stroke-width="{}" stroke-linecap="round""#,
            n(hex_px * w)
        )
    };
    // Evenly spaced points along the side, none at its ends.
    let stations =
        |count: usize| (0..count).map(move |i| (i as f64 + 0.5) / count as f64);
    match kind {
        FeatureKind::Escarpment | FeatureKind::Cliff => {
            let cliff = kind == FeatureKind::Cliff;
            let (line_w, ticks, reach, tick_w) =
                if cliff { (0.08, 9, 0.17, 0.045) } else { (0.06, 5, 0.13, 0.03) };
            svg.line(a, b, &stroke(line_w));
            for f in stations(ticks) {
                let p = at(f);
                svg.line(
                    off(p, 0.0, -reach * hex_px),
                    off(p, 0.0, reach * hex_px),
                    &stroke(tick_w),
                );
            }
        }
        FeatureKind::River => {
            // Four half waves from corner to corner, so rivers join at the corners.
            const HALVES: usize = 4;
            let amp = 0.1 * hex_px;
            let mut d = format!("M{} {}", n(a.0), n(a.1));
            for i in 0..HALVES {
                let side = if i % 2 == 0 { 1.0 } else { -1.0 };
                let c = off(at((i as f64 + 0.5) / HALVES as f64), 0.0, side * amp);
                let e = at((i as f64 + 1.0) / HALVES as f64);
                let _ = write!(d, "Q{} {} {} {}", n(c.0), n(c.1), n(e.0), n(e.1));
            }
            svg.path(
                &d,
                &format!(
                    r#"fill="none" {} stroke-linejoin="round""#,
                    stroke(river_px.map_or(0.08, |w| w / hex_px))
                ),
            );
        }
        FeatureKind::Fortification => {
            svg.line(a, b, &stroke(0.05));
            let half = 0.07 * len;
            for f in stations(4) {
                let p = at(f);
                let pts =
                    [off(p, -half, 0.0), off(p, 0.0, 0.13 * hex_px), off(p, half, 0.0)];
                svg.polygon(&pts, &format!(r#"fill="{colour}" stroke="none""#));
            }
        }
        FeatureKind::MinefieldHexside => {
            svg.line(a, b, &stroke(0.035));
            let s = 0.06 * hex_px;
            for f in stations(3) {
                let p = at(f);
                svg.line(off(p, -s, -s), off(p, s, s), &stroke(0.035));
                svg.line(off(p, -s, s), off(p, s, -s), &stroke(0.035));
            }
        }
        _ => svg.line(a, b, &stroke(0.09)),
    }
}

/// Draws a bridge centred at `centre` carrying a way in the direction `along`, in
/// `colour`, for hexes `hex_px` across: a deck between two parallel lines, each with its
/// ends turned outward, as maps print bridges.
pub(crate) fn bridge(
    svg: &mut Svg,
    colour: &str,
    centre: (f64, f64),
    along: (f64, f64),
    hex_px: f64,
) {
    let len = (along.0 * along.0 + along.1 * along.1).sqrt();
    if len <= 0.0 || !len.is_finite() {
        return;
    }
    let t = (along.0 / len, along.1 / len);
    let nrm = (-t.1, t.0);
    let (half, gap, flare) = (0.17 * hex_px, 0.075 * hex_px, 0.06 * hex_px);
    let at = |along: f64, across: f64| {
        (centre.0 + t.0 * along + nrm.0 * across, centre.1 + t.1 * along + nrm.1 * across)
    };
    let deck = [at(-half, -gap), at(half, -gap), at(half, gap), at(-half, gap)];
    svg.polygon(&deck, r##"fill="#fbf8f0" stroke="none""##);
    for side in [-1.0, 1.0] {
        let pts = [
            at(-half - flare, side * (gap + flare)),
            at(-half, side * gap),
            at(half, side * gap),
            at(half + flare, side * (gap + flare)),
        ];
        svg.polyline(
            &pts,
            &format!(
                r#"stroke="{colour}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round""#,
                n(hex_px * 0.04)
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The box a drawing covers, strokes included, in its own units.
    fn stroke_box(body: &str) -> (f32, f32, f32, f32) {
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="-200 -200 400 400">{body}</svg>"#
        );
        let tree = crate::raster::parse(&svg).unwrap();
        let b = tree.root().abs_stroke_bounding_box();
        // The canvas starts at (-200, -200) of the drawing.
        (b.left() - 200.0, b.top() - 200.0, b.right() - 200.0, b.bottom() - 200.0)
    }

    #[test]
    fn every_symbol_keeps_to_its_band_below_the_hex_number() {
        for s in TerrainSymbol::ALL {
            let mut svg = Svg { out: String::new() };
            write_defs(&mut svg, [s]);
            svg.use_at(&symbol_id(s), (0.0, 0.0), 1.0);
            let (l, t, r, b) = stroke_box(&svg.out);
            // Half the 4.5 stroke may stand out of the band.
            assert!(l >= -52.5 && r <= 52.5, "{s:?}: {l}..{r} across");
            assert!(t >= -30.5 && b <= 62.5, "{s:?}: {t}..{b} down");
            assert!(
                r - l > 60.0 && b - t > 40.0,
                "{s:?} fills its band: {l} {t} {r} {b}"
            );
        }
    }

    #[test]
    fn symbols_are_defined_once_each_in_a_fixed_order() {
        let mut a = Svg { out: String::new() };
        write_defs(
            &mut a,
            [TerrainSymbol::Waves, TerrainSymbol::Palms, TerrainSymbol::Waves],
        );
        let mut b = Svg { out: String::new() };
        write_defs(&mut b, [TerrainSymbol::Palms, TerrainSymbol::Waves]);
        assert_eq!(a.out, b.out);
        assert_eq!(a.out.matches("id=\"muster-terrain-waves\"").count(), 1);
        assert!(a.out.find("palms").unwrap() < a.out.find("waves").unwrap());
        let mut none = Svg { out: String::new() };
        write_defs(&mut none, []);
        assert!(none.out.is_empty());
    }

    /// The y of every point written in `polygon`, `line` and `path` elements.
    fn ys(svg: &str) -> Vec<f64> {
        let mut out = Vec::new();
        for part in svg.split("y1=\"").skip(1).chain(svg.split("y2=\"").skip(1)) {
            out.push(part.split('"').next().unwrap().parse().unwrap());
        }
        for part in svg.split("points=\"").skip(1) {
            for pt in part.split('"').next().unwrap().split(' ') {
                out.push(pt.split(',').nth(1).unwrap().parse().unwrap());
            }
        }
        out
    }

    /// A side from (0, 0) to (100, 0) of a hex centred below it, 100 across.
    fn side(kind: FeatureKind) -> String {
        let mut svg = Svg { out: String::new() };
        hexside(
            &mut svg,
            kind,
            "#000000",
            ((0.0, 0.0), (100.0, 0.0)),
            (50.0, 50.0),
            100.0,
            None,
        );
        svg.out
    }

    #[test]
    fn escarpments_and_cliffs_are_hachured_on_both_sides_cliffs_more_densely() {
        let count = |s: &str| s.matches("<line").count() - 1;
        let (esc, cliff) = (side(FeatureKind::Escarpment), side(FeatureKind::Cliff));
        assert_eq!(count(&esc), 5);
        assert_eq!(count(&cliff), 9);
        for s in [&esc, &cliff] {
            let ys = ys(s);
            assert!(ys.iter().any(|y| *y < -10.0) && ys.iter().any(|y| *y > 10.0), "{s}");
        }
    }

    #[test]
    fn fortification_teeth_point_away_from_the_named_hex() {
        let s = side(FeatureKind::Fortification);
        assert_eq!(s.matches("<polygon").count(), 4);
        let ys = ys(&s);
        assert!(ys.iter().all(|y| *y <= 0.0) && ys.iter().any(|y| *y < -10.0), "{s}");
    }

    #[test]
    fn rivers_wave_from_corner_to_corner_and_mined_sides_carry_crosses() {
        let river = side(FeatureKind::River);
        assert!(
            river.starts_with("<path d=\"M0.00 0.00Q")
                && river.contains(" 100.00 0.00\"")
        );
        assert_eq!(river.matches('Q').count(), 4);
        assert!(
            river.contains("Q12.50 -10.00") && river.contains("Q37.50 10.00"),
            "{river}"
        );
        assert!(river.contains(r#"stroke-width="8.00""#), "{river}");
        let mut wide = Svg { out: String::new() };
        let ends = ((0.0, 0.0), (100.0, 0.0));
        hexside(
            &mut wide,
            FeatureKind::River,
            "#3a7fc0",
            ends,
            (50.0, 50.0),
            100.0,
            Some(15.0),
        );
        assert!(wide.out.contains(r#"stroke-width="15.00""#), "{}", wide.out);
        let mined = side(FeatureKind::MinefieldHexside);
        assert_eq!(mined.matches("<line").count(), 1 + 2 * 3);
    }

    #[test]
    fn a_bridge_is_two_lines_along_the_way_with_ends_turned_outward() {
        let mut svg = Svg { out: String::new() };
        bridge(&mut svg, "#000000", (50.0, 50.0), (0.0, 2.0), 100.0);
        assert_eq!(svg.out.matches("<polygon").count(), 1, "the deck");
        let lines: Vec<Vec<(f64, f64)>> = svg
            .out
            .split("points=\"")
            .skip(2)
            .map(|p| {
                let pts = p.split('"').next().unwrap().split(' ');
                pts.map(|xy| {
                    let (x, y) = xy.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
            })
            .collect();
        assert_eq!(lines.len(), 2, "{}", svg.out);
        for (line, side) in lines.iter().zip([1.0, -1.0]) {
            // Along the way (down the page), either side of it...
            assert_eq!(line[1].0, line[2].0);
            assert!(line[1].1 < 40.0 && line[2].1 > 60.0, "{line:?}");
            assert!((line[1].0 - 50.0) * side > 5.0, "{line:?}");
            // ...its ends turned away from the way.
            assert!(
                (line[0].0 - line[1].0) * side > 0.0
                    && (line[3].0 - line[2].0) * side > 0.0
            );
        }
        let mut none = Svg { out: String::new() };
        bridge(&mut none, "#000000", (0.0, 0.0), (0.0, 0.0), 100.0);
        assert!(none.out.is_empty());
    }

    #[test]
    fn a_side_of_no_length_draws_nothing() {
        let mut svg = Svg { out: String::new() };
        hexside(
            &mut svg,
            FeatureKind::Cliff,
            "#000000",
            ((5.0, 5.0), (5.0, 5.0)),
            (0.0, 0.0),
            10.0,
            None,
        );
        assert!(svg.out.is_empty());
    }
}
