//! A unit size's echelon mark is free text in `game.yaml` (`III`, `●●`): the platoon and
//! detachment mark of APP-6, three dots, is drawn in the shipped font and fits its place.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use muster_model::{Game, LoadOptions, Sources, load_game};
use muster_render::counter::SAFE_MARGIN;
use muster_render::{Face, Margins, counter_fragment, fonts, raster, standalone_svg};

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
    // centred above a symbol frame 13.2 units wide: three dots stay over the frame.
    assert!(3.0 * advance * 6.5 < 13.2, "{advance} em a dot");
}

#[test]
fn a_detachment_mark_of_three_dots_is_drawn_and_fits() {
    let game = bear(DETACHMENT);
    let unit = &game.units[0];
    let art = counter_fragment(
        &game,
        unit,
        Face::Front,
        Margins { bleed: 0.0, safe: SAFE_MARGIN },
    );
    assert!(art.fragment.contains(&format!(">{DETACHMENT}</text>")), "{}", art.fragment);
    assert!(
        !art.misfits.iter().any(|m| m.field.starts_with("size")),
        "{:?}",
        art.misfits
    );
    let tree = raster::parse(&standalone_svg(&art, 0.625)).unwrap();
    raster::check_fonts(&tree).unwrap();
}

/// The echelon mark drawn on a side: the text of the template's `size` field.
fn drawn_mark(fragment: &str) -> Option<&str> {
    let at = fragment.find(r#"id="su-size""#)?;
    let rest = &fragment[at..];
    let end = rest.find("</text>")?;
    Some(rest[..end].rsplit('>').next().unwrap_or(""))
}

#[test]
fn headquarters_carry_the_echelon_of_the_formation_they_head() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources/gazala-scs");
    let game =
        load_game(&dir, &mut Sources::new(), &LoadOptions::default()).ok().unwrap().0;
    let symbol = |size: &str| {
        game.meta.unit_sizes.iter().find(|d| d.id.v == size).map(|d| d.symbol.clone())
    };
    let (mut unsized_hqs, mut gained) = (0, 0);
    for hq in game.units.iter().filter(|u| u.category == muster_rules::Category::Hq) {
        let formation = hq.formation.as_ref().and_then(|f| game.formation(f));
        let expected = match &hq.size {
            Some(own) => symbol(own),
            None => {
                unsized_hqs += 1;
                formation.and_then(|f| f.size.as_deref()).and_then(symbol)
            }
        };
        let art = counter_fragment(
            &game,
            hq,
            Face::Front,
            Margins { bleed: 0.0, safe: SAFE_MARGIN },
        );
        // An HQ of no sized formation (an army's, in the independent units) shows none.
        let expected = expected.unwrap_or_default();
        gained += usize::from(hq.size.is_none() && !expected.is_empty());
        assert_eq!(drawn_mark(&art.fragment), Some(expected.as_str()), "`{}`", hq.id);
    }
    eprintln!(
        "{unsized_hqs} HQs print no size of their own; {gained} show their formation's"
    );
    assert!(unsized_hqs >= 28 && gained >= 20, "{unsized_hqs} {gained}");
}
