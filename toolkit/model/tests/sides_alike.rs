//! Sides told apart without colour: no game under `sources/` or `tests/games/` loads with
//! a `sides-alike` warning, and every one would without its stripes or its lightened and
//! darkened colours, so the check is what keeps them apart.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use muster_model::{FindingKind, Game, LoadOptions, Sources, load_game};

/// Every game: the seeds under `sources/` and the corpus under `tests/games/`.
fn games() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out: Vec<PathBuf> = ["sources", "tests/games"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("game.yaml").is_file())
        .collect();
    out.sort();
    out
}

fn load(dir: &Path) -> (Game, Vec<muster_model::Diagnostic>) {
    match load_game(dir, &mut Sources::new(), &LoadOptions::default()) {
        Ok(loaded) => loaded,
        Err(_) => panic!("{} loads", dir.display()),
    }
}

#[test]
fn every_game_tells_its_sides_apart_without_colour() {
    let games = games();
    assert!(games.len() >= 10, "{games:?}");
    for dir in games {
        let (mut game, warnings) = load(&dir);
        let alike: Vec<String> = warnings
            .iter()
            .filter(|w| w.kind == Some(FindingKind::SidesAlike))
            .map(|w| w.message.clone())
            .collect();
        assert!(alike.is_empty(), "{}: {alike:#?}", dir.display());
        // Without any stripe, and with each side in one nationality's colour, they would
        // not be: the check sees what is drawn.
        let one = game.meta.nationalities.first().and_then(|f| f.rgb.clone());
        for n in &mut game.meta.nationalities {
            n.rgb.clone_from(&one);
        }
        for s in &mut game.meta.sides {
            s.stripe = None;
        }
        assert!(
            !muster_model::side_contrast::check(&game).is_empty(),
            "{}: sides of one colour are alike",
            dir.display()
        );
    }
}
