//! The safe area, measured on the drawing: every side of every counter of every game
//! under `sources/` and `tests/games/` is drawn at 5/8 inch, read back by usvg with the
//! shipped fonts, and the ink of every glyph (the outlines usvg lays the text out into)
//! and of every unit symbol keeps the safe margin from the cut. Text that does not fit
//! even at its smallest size is the fit check's to report (`text-overflow`): it is left
//! out of the measure and listed, and the corpus, built with `--strict`, has none.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use muster_model::{Game, LoadOptions, Sources, load_game};
use muster_render::counter::SAFE_MARGIN;
use muster_render::{Margins, counter_fragment, faces, raster, standalone_svg};
use resvg::usvg::{Group, Node, Rect};

/// How far ink may reach into the margin, in counter units (a thousandth of a point at
/// 5/8 inch): rounding, not layout.
const TOLERANCE: f64 = 0.003;

/// Every game: the seeds under `sources/` and the corpus under `tests/games/`.
fn games() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in ["sources", "tests/games"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.join("game.yaml").is_file())
            .collect();
        found.sort();
        out.extend(found);
    }
    out
}

fn load(dir: &Path) -> Game {
    match load_game(dir, &mut Sources::new(), &LoadOptions::default()) {
        Ok((game, _)) => game,
        Err(_) => panic!("{} loads", dir.display()),
    }
}

/// The ink boxes of a tree's text and symbols, in its canvas units, with what each is.
fn inked(group: &Group, out: &mut Vec<(String, Rect)>) {
    for node in group.children() {
        match node {
            Node::Text(t) => {
                let text: String = t.chunks().iter().map(|c| c.text()).collect();
                // The outlines' box is in the text's own coordinates.
                let outlines = t.flattened().stroke_bounding_box();
                if let Some(b) = outlines.transform(t.abs_transform()) {
                    out.push((format!("text `{text}`"), b));
                }
            }
            Node::Group(g) if g.id().ends_with("-symbol") => {
                out.push(("symbol".into(), g.abs_stroke_bounding_box()));
            }
            Node::Group(g) => inked(g, out),
            _ => {}
        }
    }
}

#[test]
fn no_glyph_or_symbol_of_any_game_enters_the_safe_margin() {
    let margins = Margins { bleed: 0.0, safe: SAFE_MARGIN };
    let (mut sides, mut measured, mut misfit_sides, mut corpus_overflows) = (0, 0, 0, 0);
    let mut overflows = Vec::new();
    let mut closest = f64::INFINITY;
    let mut bad = Vec::new();
    for dir in games() {
        let game = load(&dir);
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        for unit in game.units.iter().chain(&game.markers) {
            for face in faces(unit) {
                let art = counter_fragment(&game, unit, face, margins);
                sides += 1;
                // Text drawn past its field is the fit check's `text-overflow`; the rest of
                // its side is measured.
                let overflowing: Vec<String> = art
                    .misfits
                    .iter()
                    .filter(|m| !m.omitted)
                    .map(|m| m.text.replace(' ', ""))
                    .collect();
                if !overflowing.is_empty() {
                    misfit_sides += 1;
                    overflows.push(format!(
                        "{name} `{}` {}: {overflowing:?}",
                        unit.id,
                        face.name()
                    ));
                    corpus_overflows +=
                        usize::from(dir.ends_with(Path::new("tests/games").join(&name)));
                }
                let tree = raster::parse(&standalone_svg(&art, 0.625)).unwrap();
                // Canvas units per counter unit (the counter is 100 across).
                let k = f64::from(tree.size().width()) / 100.0;
                let mut boxes = Vec::new();
                inked(tree.root(), &mut boxes);
                for (what, b) in boxes {
                    if overflowing
                        .iter()
                        .any(|t| what.replace(' ', "") == format!("text`{t}`"))
                    {
                        continue;
                    }
                    measured += 1;
                    let gap = [
                        f64::from(b.left()),
                        f64::from(b.top()),
                        100.0 * k - f64::from(b.right()),
                        100.0 * k - f64::from(b.bottom()),
                    ]
                    .into_iter()
                    .fold(f64::INFINITY, f64::min)
                        / k;
                    closest = closest.min(gap);
                    if gap < SAFE_MARGIN - TOLERANCE {
                        bad.push(format!(
                            "{name} `{}` {}: {what} is {gap:.3} units from the cut ({b:?})",
                            unit.id,
                            face.name()
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "{sides} sides, {measured} glyph runs and symbols measured, closest {closest:.3} \
         units to the cut, {misfit_sides} sides with text reported as not fitting"
    );
    assert!(sides > 1000 && measured > 3 * sides, "{sides} sides, {measured} measured");
    assert!(bad.is_empty(), "{} inside the safe margin:\n{}", bad.len(), bad.join("\n"));
    eprintln!("text reported as drawn past its field:\n{}", overflows.join("\n"));
    assert_eq!(corpus_overflows, 0, "the corpus builds with --strict: its text fits");
    assert!(misfit_sides < 10, "{misfit_sides} sides overflow");
}
