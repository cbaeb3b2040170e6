//! Roads, tracks and railways run from hex to neighbouring hex: a printed path whose
//! hexes, in order, step between hexes that are not neighbours says that the map's
//! stagger or numbering is wrong, or that a hex was left out.

use muster_hex::Board;

use crate::diag::Diagnostic;
use crate::finding::FindingKind;
use crate::source::{FeatureKind, MapFile};

/// How many of a path's gaps a finding names.
const SHOWN: usize = 3;

/// A `path-gap` warning for each road, track or railway of `m` with a step between hexes
/// that are not neighbours on `board`, at the first such step.
pub(crate) fn check(m: &MapFile, board: &Board, warnings: &mut Vec<Diagnostic>) {
    for f in &m.features {
        let kind = match f.kind {
            FeatureKind::Road => "road",
            FeatureKind::Track => "track",
            FeatureKind::Railway => "railway",
            _ => continue,
        };
        let cells: Vec<_> = f
            .hexes
            .iter()
            .filter_map(|h| board.parse(&h.v).ok().map(|c| (c, h)))
            .collect();
        let gaps: Vec<_> = cells
            .windows(2)
            .filter(|w| board.distance(w[0].0, w[1].0) != 1)
            .map(|w| (w[0].1, w[1].1))
            .collect();
        let Some(&(first, _)) = gaps.first() else { continue };
        let shown: Vec<String> =
            gaps.iter().take(SHOWN).map(|(a, b)| format!("{} to {}", a.v, b.v)).collect();
        let more = gaps.len().saturating_sub(SHOWN);
        let name = f.name.as_ref().map(|n| format!(" `{n}`")).unwrap_or_default();
        warnings.push(
            Diagnostic::finding(
                FindingKind::PathGap,
                first.span,
                format!(
                    "{} of the {} steps of the {kind}{name} join hexes that are not neighbours ({}{})",
                    gaps.len(),
                    cells.len() - 1,
                    shown.join(", "),
                    if more > 0 { format!(", and {more} more") } else { String::new() },
                ),
            )
            .with_subject(format!("{kind} from {}", first.v))
            .with_expected("each hex of the path a neighbour of the one before it")
            .with_hint(
                "a wrong `stagger`, `orientation` or numbering in game.yaml's board or the map's `numbering` gives such gaps on every path; a hex left out gives one; a path printed in pieces is one feature per piece",
            ),
        );
    }
}
