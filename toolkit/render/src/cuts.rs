//! Previews of the sheets of counter art a game cuts into faces: each sheet as it is, with
//! the outline of every face cut from it and the counter and side it becomes, so a
//! publisher sees at a glance whether the grid sits on the art.

use std::collections::BTreeMap;

use muster_model::Game;
use muster_model::art::{CutFace, FaceArt};

use crate::svg::{Svg, data_url};

/// The preview of one sheet of art.
#[derive(Debug, Clone)]
pub struct CutPreview {
    /// The sheet's path in the game's folder (`art/sheet.png`).
    pub sheet: String,
    /// The preview: the sheet with every cut outlined, one SVG unit a sheet pixel.
    pub svg: String,
    /// The sheet's width in pixels.
    pub width: u32,
    /// The sheet's height in pixels.
    pub height: u32,
    /// The faces cut from it: counter id and side (`front`, `back`).
    pub faces: Vec<(String, &'static str)>,
}

/// One preview a sheet of art that the game's counters are cut from, in the order of the
/// sheets' paths.
pub fn cut_previews(game: &Game) -> Vec<CutPreview> {
    let mut by_sheet: BTreeMap<&str, Vec<(&CutFace, &str, &'static str)>> =
        BTreeMap::new();
    for u in game.units.iter().chain(&game.markers) {
        for (face, side) in u.art.iter().zip(["front", "back"]) {
            if let Some(FaceArt::Cut(cut)) = face {
                by_sheet
                    .entry(cut.sheet.origin.as_str())
                    .or_default()
                    .push((cut, &u.id, side));
            }
        }
    }
    by_sheet
        .into_values()
        .map(|cuts| {
            let sheet = &cuts[0].0.sheet;
            let (w, h) = (sheet.width, sheet.height);
            let mut svg = Svg::new(f64::from(w) / 96.0, f64::from(h) / 96.0);
            svg.image(
                (0.0, 0.0, f64::from(w), f64::from(h)),
                "",
                &data_url(sheet.format.media_type(), &sheet.bytes),
            );
            let stroke = (f64::from(w.max(h)) / 400.0).max(1.0);
            let size = (f64::from(w.max(h)) / 45.0).max(8.0);
            for (cut, id, side) in &cuts {
                let corners = cut.corners();
                svg.polygon(
                    &corners,
                    &format!(r##"fill="none" stroke="#e00000" stroke-width="{stroke}""##),
                );
                let (x, y) = corners[3];
                svg.text(
                    (x + stroke * 2.0, y - stroke * 2.0),
                    size,
                    "start",
                    r##"font-weight="bold" fill="#e00000" stroke="#ffffff" stroke-width="0.6" paint-order="stroke""##,
                    &format!("{id} ({side})"),
                );
            }
            CutPreview {
                sheet: sheet.origin.clone(),
                svg: svg.finish(),
                width: w,
                height: h,
                faces: cuts.iter().map(|(_, id, side)| (id.to_string(), *side)).collect(),
            }
        })
        .collect()
}
