//! The build stages after loading, each writing its outputs atomically.

use std::path::Path;

use anyhow::{Context, Result};
use muster_model::Game;
use muster_render::{Compression, map_svg, render_png};
use serde::Serialize;

use crate::output::write_atomic;

/// What was written for one map sheet.
#[derive(Debug, Serialize)]
pub struct MapImage {
    /// Map id.
    pub map: String,
    /// PNG path.
    pub png: String,
    /// Pixel width.
    pub width: u32,
    /// Pixel height.
    pub height: u32,
    /// Sheet size in inches.
    pub width_in: f64,
    /// Sheet size in inches.
    pub height_in: f64,
    /// Whether the sheet size is printed in the rulebook.
    pub printed_size: bool,
    /// Hexes whose terrain the rules do not give.
    pub unknown_terrain: usize,
    /// PNG size in bytes.
    pub bytes: usize,
}

/// Pixels for a length in inches at a resolution.
pub fn pixels(inches: f64, dpi: u32) -> u32 {
    (inches * f64::from(dpi)).round() as u32
}

/// Renders every map sheet of a game to `maps/<game>/<map>.svg` and `.png`.
pub fn render_maps(game: &Game, out: &Path, dpi: u32) -> Result<Vec<MapImage>> {
    let dir = out.join("maps").join(&game.id);
    let mut images = Vec::new();
    for index in 0..game.maps.len() {
        let Some(scene) = map_svg(game, index) else { continue };
        let (w, h) = (pixels(scene.width_in, dpi), pixels(scene.height_in, dpi));
        let png =
            render_png(&scene.svg, w, h, Compression::Balanced).with_context(|| {
                format!("failed to render map {} of {}", scene.id, game.id)
            })?;
        write_atomic(&dir.join(format!("{}.svg", scene.id)), scene.svg.as_bytes())?;
        let png_path = dir.join(format!("{}.png", scene.id));
        write_atomic(&png_path, &png)?;
        images.push(MapImage {
            map: scene.id.clone(),
            png: png_path.display().to_string(),
            width: w,
            height: h,
            width_in: scene.width_in,
            height_in: scene.height_in,
            printed_size: scene.printed_size,
            unknown_terrain: scene.unknown_terrain,
            bytes: png.len(),
        });
    }
    Ok(images)
}
