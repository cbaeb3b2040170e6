//! Sides told apart without colour: the counters of opposing sides must differ in
//! lightness (CIE L*, what a greyscale print or a colour-blind player still sees) by
//! [`MIN_LIGHTNESS_GAP`], or one side must carry a stripe the other does not.

use std::collections::BTreeMap;

use crate::{Diagnostic, FindingKind, Game, Span};

/// The colour muster draws the counters of a nationality that gives none, and of units
/// with no nationality.
pub const DEFAULT_COUNTER_RGB: &str = "#c8c2b4";

/// The least difference in CIE L* that tells two sides' counters apart.
pub const MIN_LIGHTNESS_GAP: f64 = 20.0;

/// CIE L* (0 black to 100 white, D65) of an sRGB colour written `#rrggbb`, or `None`
/// when it is not one.
pub fn lightness(rgb: &str) -> Option<f64> {
    let hex = rgb.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii())?;
    let channel = |i: usize| -> Option<f64> {
        let v = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).ok()?) / 255.0;
        Some(if v <= 0.04045 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) })
    };
    let y = 0.2126 * channel(0)? + 0.7152 * channel(2)? + 0.0722 * channel(4)?;
    let e = (6.0_f64 / 29.0).powi(3);
    let f =
        if y > e { y.cbrt() } else { y / (3.0 * (6.0_f64 / 29.0).powi(2)) + 4.0 / 29.0 };
    Some(116.0 * f - 16.0)
}

/// How the counters of one nationality (or of a side's units without one) look.
struct Look {
    side: String,
    who: String,
    rgb: String,
    lightness: f64,
    stripe: Option<f64>,
    span: Span,
}

impl Look {
    /// Whether `self` and `other` are told apart without colour.
    fn apart(&self, other: &Look) -> bool {
        let gap = |a: f64, b: f64| (a - b).abs() >= MIN_LIGHTNESS_GAP;
        match (self.stripe, other.stripe) {
            (Some(a), Some(b)) => gap(self.lightness, other.lightness) || gap(a, b),
            (None, None) => gap(self.lightness, other.lightness),
            _ => true,
        }
    }
}

/// The looks of the counters each side fields, by side and nationality.
fn looks(game: &Game) -> BTreeMap<(usize, Option<String>), Look> {
    let sides = &game.meta.sides;
    let mut out = BTreeMap::new();
    for unit in &game.units {
        let nation = unit
            .nationality
            .as_ref()
            .and_then(|n| game.meta.nationalities.iter().find(|x| x.id.v == *n));
        // A nationality is drawn for the side it fights for; a counter listed under
        // another side is the `unexpected-side` finding's.
        let side = nation.map_or(unit.side.as_str(), |n| n.side.v.as_str());
        let Some(s) = sides.iter().position(|x| x.id.v == side) else { continue };
        let key = (s, nation.map(|n| n.id.v.clone()));
        if out.contains_key(&key) {
            continue;
        }
        let (who, rgb, span) = match nation {
            Some(n) => (
                n.name.clone(),
                n.rgb.as_ref().map_or(DEFAULT_COUNTER_RGB, |c| c.v.as_str()),
                n.rgb.as_ref().map_or(n.id.span, |c| c.span),
            ),
            None => (
                "units without a nationality".to_string(),
                DEFAULT_COUNTER_RGB,
                sides[s].id.span,
            ),
        };
        let stripe = sides[s].stripe.as_ref().and_then(|c| lightness(&c.v));
        let Some(l) = lightness(rgb) else { continue };
        out.insert(
            key,
            Look {
                side: sides[s].name.clone(),
                who,
                rgb: rgb.to_string(),
                lightness: l,
                stripe,
                span,
            },
        );
    }
    out
}

/// A `sides-alike` warning for every two nationalities of opposing sides whose counters
/// are told apart by colour only (no stripe of one side sets them apart), at the first
/// one's `rgb`.
pub fn check(game: &Game) -> Vec<Diagnostic> {
    let looks: Vec<Look> = looks(game).into_values().collect();
    let mut out = Vec::new();
    for (i, a) in looks.iter().enumerate() {
        for b in looks[i + 1..].iter().filter(|b| b.side != a.side) {
            if a.apart(b) {
                continue;
            }
            let say = |l: &Look| {
                format!("{} ({}, {}, L* {:.1})", l.side, l.who, l.rgb, l.lightness)
            };
            out.push(
                Diagnostic::finding(
                    FindingKind::SidesAlike,
                    a.span,
                    format!(
                        "the counters of {} and {} differ by {:.1} in lightness: only their colour tells the sides apart",
                        say(a),
                        say(b),
                        (a.lightness - b.lightness).abs()
                    ),
                )
                .with_subject(format!("{} / {}", a.who, b.who))
                .with_expected(format!(
                    "counter colours at least {MIN_LIGHTNESS_GAP} apart in CIE L*, or a `stripe` on one of the sides"
                ))
                .with_hint(format!(
                    "give {} or {} a darker or lighter `rgb` within its printed colour, or the side {} or {} a `stripe: \"#1a1a1a\"` in game.yaml (see muster's book, docs/book/src/files/game.md)",
                    a.who, b.who, a.side, b.side
                )),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lightness_is_cie_l_star_of_srgb() {
        let l = |c: &str| lightness(c).unwrap();
        assert!(l("#000000").abs() < 1e-9);
        assert!((l("#ffffff") - 100.0).abs() < 1e-6);
        // Published values: mid grey, and the primaries.
        assert!((l("#808080") - 53.585).abs() < 0.01, "{}", l("#808080"));
        assert!((l("#ff0000") - 53.24).abs() < 0.01, "{}", l("#ff0000"));
        assert!((l("#00ff00") - 87.73).abs() < 0.01, "{}", l("#00ff00"));
        assert!((l("#0000ff") - 32.30).abs() < 0.01, "{}", l("#0000ff"));
        // The linear part near black: #010101 is 0.2742.
        assert!((l("#010101") - 0.2742).abs() < 0.001, "{}", l("#010101"));
        assert_eq!(lightness("#12345"), None);
        assert_eq!(lightness("red"), None);
        assert_eq!(lightness("#gg0000"), None);
    }

    fn look(side: &str, rgb: &str, stripe: Option<&str>) -> Look {
        Look {
            side: side.into(),
            who: side.into(),
            rgb: rgb.into(),
            lightness: lightness(rgb).unwrap(),
            stripe: stripe.and_then(lightness),
            span: Span::detached(),
        }
    }

    #[test]
    fn sides_are_apart_by_lightness_or_by_the_stripe_of_one() {
        let red = look("a", "#c05050", None);
        let blue = look("b", "#5070c0", None);
        assert!(!red.apart(&blue), "red and blue of one lightness");
        assert!(look("a", "#000000", None).apart(&look("b", "#ffffff", None)));
        let striped = look("b", "#5070c0", Some("#1a1a1a"));
        assert!(red.apart(&striped) && striped.apart(&red));
        let also = look("a", "#c05050", Some("#1a1a1a"));
        assert!(!also.apart(&striped), "the same stripe on both");
        assert!(also.apart(&look("b", "#5070c0", Some("#ffffff"))));
    }
}
