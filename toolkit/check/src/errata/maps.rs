//! Map data: the map errata the rules state, and the hex labels map features print.

use muster_model::notation::parse_location;
use muster_model::{Certainty, FindingKind};

use super::{Context, Erratum};

/// Map errata and bad labels in map features' printed locations.
pub(crate) fn check(cx: &Context) -> Vec<Erratum> {
    let game = cx.game;
    let mut out = Vec::new();
    for m in &game.maps {
        for f in m.features.iter().filter(|f| f.erratum) {
            let hexes: Vec<&str> = f.hexes.iter().map(|h| h.v.as_str()).collect();
            out.push(
                Erratum::new(
                    game,
                    FindingKind::MapErratum,
                    hexes.join(", "),
                    f.note.clone().unwrap_or_else(|| {
                        format!("map errata for {}", hexes.join(", "))
                    }),
                    &f.section,
                    f.hexes.first().map_or(m.id.span, |h| h.span),
                )
                .sure(Certainty::Certain, "the rules themselves state it"),
            );
        }
    }
    // Hexes that map features place by a printed location (`within 3 hexes of hex 134`).
    let Some(board) = &game.board else { return out };
    let is_label = |w: &str| board.parse(w).is_ok() || looks_like_label(w);
    for m in &game.maps {
        for f in &m.features {
            let Some(loc) = &f.location else { continue };
            for h in parse_location(&loc.v, &is_label).hexes() {
                if let Err(err) = board.parse(&h.label) {
                    out.push(
                        Erratum::new(
                            game,
                            FindingKind::BadHex,
                            &h.label,
                            format!(
                                "the map feature's location names `{}`: {err}",
                                h.label
                            ),
                            &f.section,
                            crate::resolve::locate(loc, h.range.clone()),
                        )
                        .sure(
                            Certainty::Certain,
                            "the label does not parse or lies off the map",
                        ),
                    );
                }
            }
        }
    }
    out
}

/// A word shaped like a hex label of some scheme (digits, perhaps with a map letter and a
/// point), so that a misprinted label is checked rather than skipped.
pub(crate) fn looks_like_label(w: &str) -> bool {
    let w = w.trim_start_matches(|c: char| c.is_ascii_uppercase());
    !w.is_empty()
        && w.chars().all(|c| c.is_ascii_digit() || c == '.')
        && w.chars().any(|c| c.is_ascii_digit())
}
