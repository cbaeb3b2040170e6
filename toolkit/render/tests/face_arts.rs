//! Every counter side drawn once ([`FaceArts`]) is what drawing it alone gives, with and
//! without bleed, whether drawn now or kept from an earlier draw; and the text-fit check
//! reads the same findings from it.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use muster_model::{Game, LoadOptions};
use muster_render::counter::SAFE_MARGIN;
use muster_render::face_arts::RUN;
use muster_render::fit::check;
use muster_render::{FaceArts, Keep, Margins, counter_fragment, faces, standalone_svg};

fn seed_games() -> Vec<Game> {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
    let loaded = muster_model::load(&sources, &[], &LoadOptions::default());
    assert!(!loaded.has_errors());
    assert!(loaded.games.len() >= 4);
    loaded.games
}

/// A bleed like the print sheets' (1/8 inch and the underlap, at 5/8 inch).
const BLEED: f64 = 21.6;
/// The sheets' margins: the bleed above and muster's safe margin.
const M: Margins = Margins { bleed: BLEED, safe: SAFE_MARGIN };
/// No bleed, muster's safe margin.
const PLAIN: Margins = Margins { bleed: 0.0, safe: SAFE_MARGIN };

/// The counters' size, in inches.
const SIZE: f64 = 0.625;

#[test]
fn each_side_drawn_once_is_the_side_drawn_alone() {
    for game in seed_games() {
        let arts = FaceArts::draw(&game, M);
        let mut sides = 0;
        for unit in game.units.iter().chain(&game.markers) {
            for face in faces(unit) {
                let kept = arts.get(&game, unit, face);
                let alone = counter_fragment(&game, unit, face, PLAIN);
                assert_eq!(kept.fragment, alone.fragment, "{} {}", game.id, unit.id);
                assert_eq!(kept.unknown_values, alone.unknown_values);
                assert_eq!(kept.misfits, alone.misfits);
                assert_eq!(
                    arts.bled(&game, unit, face, BLEED),
                    counter_fragment(&game, unit, face, M).fragment
                );
                // Asked for another bleed, the side is drawn with it.
                assert_eq!(arts.bled(&game, unit, face, 0.0), alone.fragment);
                sides += 1;
            }
        }
        assert!(sides > 0, "{}", game.id);
        // The check finds the same from the kept sides as from sides drawn when asked.
        assert_eq!(
            check(&game, &arts),
            check(&game, &FaceArts::default()),
            "{}",
            game.id
        );
    }
}

#[test]
fn the_digest_of_each_side_alone_is_of_its_svg_at_the_size_asked_for() {
    let digest = |svg: String| *blake3::hash(svg.as_bytes()).as_bytes();
    for game in seed_games() {
        let arts = FaceArts::draw(&game, M);
        for unit in game.units.iter().chain(&game.markers).take(40) {
            for face in faces(unit) {
                let alone = |size: f64| {
                    digest(standalone_svg(
                        &counter_fragment(&game, unit, face, PLAIN),
                        size,
                    ))
                };
                // The first size asked is kept; asked again, and for another size after
                // it, each answer is the digest of the SVG at that size.
                for size in [0.5, 0.5, 0.75, 0.5] {
                    assert_eq!(
                        arts.standalone_digest(&game, unit, face, size),
                        alone(size),
                        "{} {} at {size} in",
                        game.id,
                        unit.id
                    );
                }
                assert_ne!(alone(0.5), alone(0.75));
            }
        }
    }
}

#[test]
fn a_side_whose_id_two_counters_share_is_drawn_for_the_counter_asked_about() {
    let mut game = seed_games().into_iter().find(|g| !g.markers.is_empty()).unwrap();
    // A marker given the id of a unit: each is drawn as itself.
    let unit = game.units[0].clone();
    game.markers[0].id = unit.id.clone();
    let marker = game.markers[0].clone();
    let arts = FaceArts::draw(&game, M);
    for face in faces(&marker) {
        assert_eq!(
            arts.get(&game, &marker, face).fragment,
            counter_fragment(&game, &marker, face, PLAIN).fragment
        );
    }
    for face in faces(&unit) {
        assert_eq!(
            arts.get(&game, &unit, face).fragment,
            counter_fragment(&game, &unit, face, PLAIN).fragment
        );
    }
    assert_ne!(
        counter_fragment(&game, &unit, faces(&unit)[0], PLAIN).fragment,
        counter_fragment(&game, &marker, faces(&marker)[0], PLAIN).fragment
    );
}

/// A [`Keep`] hook keeping what it makes in memory, counting what it made.
#[derive(Default)]
struct Kept {
    kept: Mutex<HashMap<Vec<u8>, Vec<u8>>>,
    made: Mutex<Vec<String>>,
}

impl Kept {
    fn keep(
        &self,
        label: &str,
        parts: &[&[u8]],
        make: &dyn Fn() -> Result<Vec<u8>, String>,
    ) -> Result<Vec<u8>, String> {
        let mut key = label.as_bytes().to_vec();
        for p in parts {
            key.extend_from_slice(&(p.len() as u64).to_le_bytes());
            key.extend_from_slice(p);
        }
        if let Some(bytes) = self.kept.lock().unwrap().get(&key) {
            return Ok(bytes.clone());
        }
        let bytes = make()?;
        self.made.lock().unwrap().push(label.to_string());
        self.kept.lock().unwrap().insert(key, bytes.clone());
        Ok(bytes)
    }

    fn made(&self) -> Vec<String> {
        std::mem::take(&mut *self.made.lock().unwrap())
    }
}

/// The digest of every side of `game`'s SVG at `size` inches, as `arts` gives it.
fn digests(game: &Game, arts: &FaceArts, size: f64) -> Vec<[u8; 32]> {
    game.units
        .iter()
        .chain(&game.markers)
        .flat_map(|u| faces(u).into_iter().map(move |f| (u, f)))
        .map(|(u, f)| arts.standalone_digest(game, u, f, size))
        .collect()
}

/// Every side of `game` as `arts` holds it, with and without bleed.
fn all_sides(game: &Game, arts: &FaceArts) -> Vec<(String, String, usize)> {
    game.units
        .iter()
        .chain(&game.markers)
        .flat_map(|u| faces(u).into_iter().map(move |f| (u, f)))
        .map(|(u, f)| {
            let art = arts.get(game, u, f);
            (
                art.fragment.clone(),
                arts.bled(game, u, f, BLEED).into_owned(),
                art.unknown_values,
            )
        })
        .collect()
}

#[test]
fn kept_sides_are_the_sides_drawn_now_and_a_change_draws_its_run_only() {
    let mut game = seed_games().into_iter().max_by_key(|g| g.units.len()).unwrap();
    let runs = (game.units.len() + game.markers.len()).div_ceil(RUN);
    assert!(runs > 2, "{} has {} counters", game.id, game.units.len());
    let kept = Kept::default();
    let keep: &Keep = &|label, parts, make| kept.keep(label, parts, make);
    let drawn = FaceArts::draw(&game, M);
    let first = FaceArts::draw_kept(&game, M, SIZE, keep).unwrap();
    assert_eq!(kept.made().len(), runs);
    assert!(all_sides(&game, &first) == all_sides(&game, &drawn));
    assert_eq!(check(&game, &first), check(&game, &drawn));
    // Nothing changed: every run is kept, with the digests of the sides' SVGs.
    let again = FaceArts::draw_kept(&game, M, SIZE, keep).unwrap();
    assert!(kept.made().is_empty());
    assert!(all_sides(&game, &again) == all_sides(&game, &drawn));
    assert!(digests(&game, &again, SIZE) == digests(&game, &drawn, SIZE));
    // Kept at one size, a side's digest at another is of its SVG at that size.
    let other = FaceArts::draw_kept(&game, M, SIZE, keep).unwrap();
    assert!(digests(&game, &other, 0.5) == digests(&game, &drawn, 0.5));
    assert!(digests(&game, &other, 0.5) != digests(&game, &drawn, SIZE));
    // A counter of the second run changes what it prints: that run only is drawn again,
    // and what is kept of the others is what drawing them now gives.
    let unit = &mut game.units[RUN + 1];
    unit.name.designation = format!("{} bis", unit.printed.v);
    let changed = FaceArts::draw_kept(&game, M, SIZE, keep).unwrap();
    assert_eq!(kept.made(), ["counter sides run 2"]);
    assert!(all_sides(&game, &changed) == all_sides(&game, &FaceArts::draw(&game, M)));
    assert!(all_sides(&game, &changed) != all_sides(&game, &drawn));
    // Another bleed draws every run again.
    FaceArts::draw_kept(&game, Margins { bleed: BLEED / 2.0, ..M }, SIZE, keep).unwrap();
    assert_eq!(kept.made().len(), runs);
}

#[test]
fn a_keep_that_fails_fails_the_draw_and_kept_bytes_that_cannot_be_read_are_drawn_again() {
    let game = seed_games().into_iter().next().unwrap();
    let failing: &Keep = &|_, _, _| Err("disk full".into());
    assert_eq!(FaceArts::draw_kept(&game, M, SIZE, failing).unwrap_err(), "disk full");
    let damaged: &Keep = &|_, _, _| Ok(b"not sides".to_vec());
    let arts = FaceArts::draw_kept(&game, M, SIZE, damaged).unwrap();
    assert!(all_sides(&game, &arts) == all_sides(&game, &FaceArts::draw(&game, M)));
}
