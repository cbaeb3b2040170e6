//! Every counter side drawn once ([`FaceArts`]) is what drawing it alone gives, and the
//! text-fit check reads the same findings from it.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use muster_model::{Game, LoadOptions};
use muster_render::counter::check;
use muster_render::{FaceArts, counter_fragment, faces};

fn seed_games() -> Vec<Game> {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
    let loaded = muster_model::load(&sources, &[], &LoadOptions::default());
    assert!(!loaded.has_errors());
    assert!(loaded.games.len() >= 4);
    loaded.games
}

#[test]
fn each_side_drawn_once_is_the_side_drawn_alone() {
    for game in seed_games() {
        let arts = FaceArts::draw(&game);
        let mut sides = 0;
        for unit in game.units.iter().chain(&game.markers) {
            for face in faces(unit) {
                let kept = arts.get(&game, unit, face);
                let alone = counter_fragment(&game, unit, face, 0.0);
                assert_eq!(kept.fragment, alone.fragment, "{} {}", game.id, unit.id);
                assert_eq!(kept.unknown_values, alone.unknown_values);
                assert_eq!(kept.misfits, alone.misfits);
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
fn a_side_whose_id_two_counters_share_is_drawn_for_the_counter_asked_about() {
    let mut game = seed_games().into_iter().find(|g| !g.markers.is_empty()).unwrap();
    // A marker given the id of a unit: each is drawn as itself.
    let unit = game.units[0].clone();
    game.markers[0].id = unit.id.clone();
    let marker = game.markers[0].clone();
    let arts = FaceArts::draw(&game);
    for face in faces(&marker) {
        assert_eq!(
            arts.get(&game, &marker, face).fragment,
            counter_fragment(&game, &marker, face, 0.0).fragment
        );
    }
    for face in faces(&unit) {
        assert_eq!(
            arts.get(&game, &unit, face).fragment,
            counter_fragment(&game, &unit, face, 0.0).fragment
        );
    }
    assert_ne!(
        counter_fragment(&game, &unit, faces(&unit)[0], 0.0).fragment,
        counter_fragment(&game, &marker, faces(&marker)[0], 0.0).fragment
    );
}
