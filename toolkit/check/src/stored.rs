//! A scenario's solution and what validating it found, written whole for a cache to keep
//! and read back as they were made: with the cells, spans, regions and resolutions that
//! the public JSON of a setup leaves out. And what solving reads of a game's counter
//! manifest, for the key under which they are kept.

use muster_model::notation::UnitItem;
use muster_model::{Game, Unit};

use crate::public_json::Whole;
use crate::solve::{Solution, counters_of};
use crate::validate::Finding;

/// A scenario's solution and the findings of validating it, as bytes [`restore`] reads
/// back equal.
pub fn store(solution: &Solution, findings: &[Finding]) -> Result<Vec<u8>, String> {
    let _whole = Whole::start();
    serde_json::to_vec(&(solution, findings)).map_err(|e| e.to_string())
}

/// The solution and findings [`store`] wrote, or none when `bytes` are not what it writes.
pub fn restore(bytes: &[u8]) -> Option<(Solution, Vec<Finding>)> {
    serde_json::from_slice(bytes).ok()
}

/// What solving and validating a game's scenarios read of it besides the text of its
/// files other than `counters.yaml`, as bytes for a key: the counters as the manifest
/// makes them, each marker's count, the formations, and the marks and words of the
/// game's notation (the manifest adds to them). The counters' printed values are left
/// out unless some placement prints a strength, which is the only way solving reads them.
pub fn manifest_reads(game: &Game) -> Result<Vec<u8>, String> {
    let strengths = prints_strengths(game);
    let counters = |list: &[Unit]| -> Vec<Unit> {
        list.iter()
            .map(|u| {
                let mut u = u.clone();
                if !strengths {
                    u.front.clear();
                    u.back.clear();
                }
                u
            })
            .collect()
    };
    let marker_counts: Vec<Option<u32>> =
        game.markers.iter().map(|m| counters_of(game, &m.id)).collect();
    let read = (
        strengths,
        counters(&game.units),
        counters(&game.markers),
        marker_counts,
        &game.formations,
    );
    let mut bytes = serde_json::to_vec(&read).map_err(|e| e.to_string())?;
    bytes.extend(format!("{:?}{:?}", game.marks, game.vocabulary).into_bytes());
    Ok(bytes)
}

/// Does some placement of some scenario of the game print a strength?
fn prints_strengths(game: &Game) -> bool {
    game.parsed
        .iter()
        .flat_map(|s| &s.placements)
        .flat_map(|p| &p.units.items)
        .any(prints_strength)
}

/// Does a printed item, or one inside it, print a strength?
fn prints_strength(item: &UnitItem) -> bool {
    item.strength.is_some() || item.children.iter().any(prints_strength)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::solve;
    use crate::validate::validate_solved;

    fn seeds() -> Vec<Game> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
        let loaded =
            muster_model::load(&root, &[], &muster_model::LoadOptions::default());
        assert!(loaded.games.len() >= 4, "the seed games load");
        loaded.games
    }

    #[test]
    fn every_seed_scenario_reads_back_whole_and_its_public_json_leaves_the_rest_out() {
        let mut spans = 0;
        let mut resolutions = 0;
        for game in seeds() {
            for s in &game.scenarios {
                let solution = solve(&game, &s.id.v);
                let findings = validate_solved(&game, &s.id.v, &solution);
                let bytes = store(&solution, &findings).unwrap();
                let (back, found) = restore(&bytes).expect("what store wrote reads back");
                assert_eq!(format!("{back:?}"), format!("{solution:?}"), "{}", s.id.v);
                assert_eq!(format!("{found:?}"), format!("{findings:?}"), "{}", s.id.v);
                // Written whole again, it is the same bytes: nothing was lost or changed.
                assert_eq!(store(&back, &found).unwrap(), bytes);
                // The public JSON is what it was: no cell, span, region or resolution.
                let public = serde_json::to_value(&back).unwrap();
                for field in ["resolutions", "regions"] {
                    assert!(public.get(field).is_none(), "{field} in {public}");
                }
                for u in public["units"].as_array().unwrap() {
                    assert!(u.get("cell").is_none(), "{u}");
                }
                for f in serde_json::to_value(&found).unwrap().as_array().unwrap() {
                    assert!(f["known"].is_boolean() && f.get("span").is_none(), "{f}");
                }
                spans += found.iter().filter(|f| !f.span.is_detached()).count();
                resolutions += back.resolutions.iter().map(Vec::len).sum::<usize>();
            }
        }
        assert!(spans > 0 && resolutions > 0, "the seeds have findings and resolutions");
    }

    #[test]
    fn the_manifest_s_printed_values_are_read_only_where_a_placement_prints_a_strength() {
        let mut valued = 0;
        for game in seeds() {
            let before = manifest_reads(&game).unwrap();
            let mut changed = game.clone();
            let Some(unit) = changed.units.iter_mut().find(|u| !u.front.is_empty())
            else {
                continue;
            };
            valued += 1;
            let value = unit.front.values_mut().next().unwrap();
            value.push('9');
            assert_eq!(
                manifest_reads(&changed).unwrap() != before,
                prints_strengths(&game),
                "{}",
                game.id
            );
            // What a counter is, as the rules see it, is always read.
            let mut other = game.clone();
            other.units[0].steps = Some(other.units[0].steps.unwrap_or(1) + 1);
            assert_ne!(manifest_reads(&other).unwrap(), before, "{}", game.id);
        }
        assert!(valued > 0, "a seed game prints values on its counters");
    }
}
