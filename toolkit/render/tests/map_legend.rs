//! Each legend swatch of every seed map is what the map draws for its terrain or feature:
//! the same elements with the same colours and styles, and, for terrain and what lies in a
//! hex, the same drawing scaled, measured in the SVG drawn.

#![allow(clippy::unwrap_used)]

#[path = "maps/svg_read.rs"]
#[allow(dead_code)]
mod svg_read;

use std::path::Path;

use muster_model::LoadOptions;
use muster_render::map::LegendPlace;
use muster_render::map_svg;
use svg_read::{Element, elements};

/// Attributes that hold x or y coordinates, lengths, or both as points.
const XS: [&str; 4] = ["x", "cx", "x1", "x2"];
const YS: [&str; 4] = ["y", "cy", "y1", "y2"];
const LENGTHS: [&str; 6] =
    ["r", "width", "height", "stroke-width", "font-size", "stroke-dasharray"];

/// Every number in `s`.
fn numbers(s: &str) -> Vec<f64> {
    s.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// An element reduced to its tag and attributes, its coordinates moved to the first
/// point of the drawing and divided, as its lengths are, by the drawing's width.
type Shape = Vec<(String, Vec<(String, String, Vec<f64>)>)>;

/// The coordinates of an element: each (value, is x).
fn coords(e: &Element) -> Vec<(f64, bool)> {
    let mut out = Vec::new();
    for (k, v) in &e.attrs {
        let nums = numbers(v);
        match k.as_str() {
            "points" => {
                out.extend(nums.iter().enumerate().map(|(i, v)| (*v, i % 2 == 0)))
            }
            "transform" => {
                out.extend(nums.iter().take(2).enumerate().map(|(i, v)| (*v, i == 0)))
            }
            k if XS.contains(&k) => out.extend(nums.first().map(|v| (*v, true))),
            k if YS.contains(&k) => out.extend(nums.first().map(|v| (*v, false))),
            _ => {}
        }
    }
    out
}

/// The drawing `elems` normalised: moved to its first point, scaled to its width.
fn shape(elems: &[&Element]) -> Shape {
    let all: Vec<(f64, bool)> = elems.iter().flat_map(|e| coords(e)).collect();
    let xs: Vec<f64> = all.iter().filter(|c| c.1).map(|c| c.0).collect();
    // As wide as its points reach across, or its circles and boxes.
    let across = |e: &&Element| 2.0 * e.num("r").max(0.0) + e.num("width").max(0.0);
    let width = (xs.iter().copied().fold(f64::MIN, f64::max)
        - xs.iter().copied().fold(f64::MAX, f64::min))
    .max(elems.iter().copied().map(|e| across(&e)).fold(0.0, f64::max));
    let origin = (xs[0], all.iter().find(|c| !c.1).map_or(0.0, |c| c.0));
    elems
        .iter()
        .map(|e| {
            let attrs = e
                .attrs
                .iter()
                .map(|(k, v)| {
                    let nums = numbers(v);
                    let scaled: Vec<f64> = match k.as_str() {
                        "points" => nums
                            .iter()
                            .enumerate()
                            .map(|(i, v)| {
                                (v - if i % 2 == 0 { origin.0 } else { origin.1 }) / width
                            })
                            .collect(),
                        "transform" => vec![
                            (nums[0] - origin.0) / width,
                            (nums[1] - origin.1) / width,
                            nums[2] / width,
                        ],
                        k if XS.contains(&k) => vec![(nums[0] - origin.0) / width],
                        k if YS.contains(&k) => vec![(nums[0] - origin.1) / width],
                        k if LENGTHS.contains(&k) => {
                            nums.iter().map(|v| v / width).collect()
                        }
                        _ => return (k.clone(), v.clone(), Vec::new()),
                    };
                    (k.clone(), String::new(), scaled)
                })
                .collect();
            (e.tag.clone(), attrs)
        })
        .collect()
}

/// Whether two normalised drawings are alike: the same elements and attributes, numbers
/// within what two decimals at the swatch's size allow.
fn alike(a: &Shape, b: &Shape) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|((ta, aa), (tb, ab))| {
            ta == tb
                && aa.len() == ab.len()
                && aa.iter().zip(ab).all(|((ka, sa, na), (kb, sb, nb))| {
                    ka == kb
                        && sa == sb
                        && na.len() == nb.len()
                        && na.iter().zip(nb).all(|(x, y)| {
                            (x - y).abs() <= 0.004 + 0.02 * x.abs().max(y.abs())
                        })
                })
        })
}

/// The tags and the attributes other than geometry of a drawing.
fn styles(elems: &[&Element]) -> Vec<(String, Vec<(String, String)>)> {
    elems
        .iter()
        .map(|e| {
            let attrs = e
                .attrs
                .iter()
                .filter(|(k, _)| {
                    !(XS.contains(&k.as_str())
                        || YS.contains(&k.as_str())
                        || LENGTHS.contains(&k.as_str())
                        || ["points", "d", "transform"].contains(&k.as_str()))
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            (e.tag.clone(), attrs)
        })
        .collect()
}

#[test]
fn every_swatch_draws_what_the_map_draws() {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
    let loaded = muster_model::load(&sources, &[], &LoadOptions::default());
    assert!(!loaded.has_errors());
    let (mut terrain, mut in_hex, mut styled) = (0, 0, 0);
    for mut game in loaded.games {
        game.map_art.clear();
        for (i, map) in game.maps.iter().enumerate() {
            let what = format!("{} map {}", game.id, map.id.v);
            let scene = map_svg(&game, i).unwrap();
            let all = elements(&scene.svg);
            // The legend on the sheet, or on a sheet of its own.
            let legend_svg = match &scene.legend {
                Some(LegendPlace::Apart(svg, _, _)) => svg.as_str(),
                _ => scene.svg.as_str(),
            };
            let legend = elements(legend_svg);
            let swatches: Vec<usize> = legend
                .iter()
                .filter_map(|e| e.groups.iter().find(|(c, _)| c == "swatch").map(|g| g.1))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert!(!swatches.is_empty(), "{what}: a legend with swatches");
            for g in swatches {
                let swatch: Vec<&Element> =
                    legend.iter().filter(|e| e.groups.iter().any(|x| x.1 == g)).collect();
                let first = swatch[0];
                if first.tag == "polygon" && first.get("stroke") == "#7d7566" {
                    // Terrain: its hex on the map, and the symbol after it.
                    let n = swatch.len();
                    let at = all
                        .iter()
                        .position(|e| {
                            e.tag == "polygon"
                                && e.in_group("legend").is_none()
                                && e.get("fill") == first.get("fill")
                                && e.get("stroke") == "#7d7566"
                        })
                        .unwrap_or_else(|| {
                            panic!("{what}: no hex of {}", first.get("fill"))
                        });
                    let on_map: Vec<&Element> = all[at..at + n].iter().collect();
                    assert!(
                        alike(&shape(&swatch), &shape(&on_map)),
                        "{what}: {swatch:?} is {on_map:?}"
                    );
                    terrain += 1;
                    continue;
                }
                let kind = group_attr(legend_svg, g);
                let drawn: Vec<&Element> = all
                    .iter()
                    .filter(|e| {
                        e.in_group("feature").is_some()
                            && feature_kind(&scene.svg, e) == kind
                    })
                    .collect();
                assert!(!drawn.is_empty(), "{what}: the map draws {kind}");
                let n = swatch.len();
                let sameness = styles(&swatch);
                assert!(
                    drawn.windows(n).any(|w| styles(w) == sameness),
                    "{what}: the {kind} swatch is styled as the map: {swatch:?}"
                );
                styled += 1;
                if [
                    "minefield",
                    "victory-hex",
                    "place",
                    "entry-area",
                    "supply-source",
                    "box",
                    "map-edge",
                    "sea",
                    "coast",
                    "entrenchment",
                    "at-ditch",
                    "bridge",
                ]
                .contains(&kind.as_str())
                {
                    assert!(
                        drawn.windows(n).any(|w| alike(&shape(w), &shape(&swatch))),
                        "{what}: the {kind} swatch is the map's drawing scaled: {:?} {:?}",
                        shape(&swatch),
                        shape(&drawn[..n])
                    );
                    in_hex += 1;
                }
            }
        }
    }
    assert!(terrain >= 8 && in_hex >= 10 && styled >= 20, "{terrain} {in_hex} {styled}");
}

/// The `data-kind` of the innermost `feature` group around `e`.
fn feature_kind(svg: &str, e: &Element) -> String {
    group_attr(svg, e.in_group("feature").unwrap())
}

/// The `data-kind` of the tag at `index` (counted as [`elements`] counts tags).
fn group_attr(svg: &str, index: usize) -> String {
    let tag = svg.split('<').nth(index).unwrap();
    tag.split("data-kind=\"")
        .nth(1)
        .map_or(String::new(), |t| t.split('"').next().unwrap().to_string())
}
