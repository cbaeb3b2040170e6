//! A unit size's echelon mark is free text in `game.yaml` (`III`, `●●`): the platoon and
//! detachment mark of APP-6, three dots, is drawn in the shipped font and fits its place.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use muster_model::{Game, LoadOptions, Sources, load_game};
use muster_render::{Face, counter_fragment, fonts, raster, standalone_svg};

/// APP-6's platoon and detachment mark.
const DETACHMENT: &str = "●●●";

/// Awakening the Bear, whose squads print `●●`, with its squads marked `mark` and its
/// first counter a squad.
fn bear(mark: &str) -> Game {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/games/awakening-the-bear-2012");
    let mut game =
        load_game(&dir, &mut Sources::new(), &LoadOptions::default()).ok().unwrap().0;
    let squad = game.meta.unit_sizes.iter_mut().find(|s| s.id.v == "squad").unwrap();
    squad.symbol = mark.to_string();
    game.units[0].size = Some("squad".into());
    game
}

#[test]
fn the_shipped_bold_font_draws_the_dot_of_size_marks() {
    let face = ttf_parser::Face::parse(fonts::BOLD, 0).unwrap();
    let glyph = face.glyph_index('●').unwrap();
    let advance = f64::from(face.glyph_hor_advance(glyph).unwrap())
        / f64::from(face.units_per_em());
    // The unit counter prints its size mark 6.5 units high on a counter 45 units wide,
    // centred above a symbol frame 20.7 units wide: three dots stay over the frame.
    assert!(3.0 * advance * 6.5 < 20.7, "{advance} em a dot");
}

#[test]
fn a_detachment_mark_of_three_dots_is_drawn_and_fits() {
    let game = bear(DETACHMENT);
    let unit = &game.units[0];
    let art = counter_fragment(&game, unit, Face::Front, 0.0);
    assert!(art.fragment.contains(&format!(">{DETACHMENT}</text>")), "{}", art.fragment);
    assert!(
        !art.misfits.iter().any(|m| m.field.starts_with("size")),
        "{:?}",
        art.misfits
    );
    let tree = raster::parse(&standalone_svg(&art, 0.625)).unwrap();
    raster::check_fonts(&tree).unwrap();
}
