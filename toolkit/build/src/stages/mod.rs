//! The stages of one game's build after loading, each writing its outputs through the
//! game's staged [`Outputs`] and drawing through its view of the cache.
//!
//! In order: [`counters::render_sides`], then [`model::write_model`] and
//! [`counters::render_sheets`] beside [`maps::render_maps`] and [`setups::write_setups`]
//! (the check stage; maps and setups side by side), then [`errata::write_errata`] beside
//! [`module::write_module`] (the package stage).

pub mod changes;
pub mod counters;
pub mod errata;
pub mod maps;
pub mod model;
pub mod module;
pub mod release;
pub mod setups;

use std::path::Path;

use crate::cache::{GameCache, Picture};
use crate::error::Result;
use crate::output::Outputs;
use crate::progress::{Progress, Steps};

/// What the stages of one game's build share: where outputs go, the files written so far,
/// the cache and the progress display.
pub struct Context<'a> {
    /// The output folder.
    pub out: &'a Path,
    /// The files written.
    pub outputs: Outputs,
    /// The build cache, as this game's build sees it.
    pub cache: GameCache<'a>,
    /// Where progress goes.
    pub progress: &'a dyn Progress,
    /// The game being built.
    pub game: &'a str,
}

impl Context<'_> {
    /// The progress of a stage of this game, counting `steps`.
    pub fn stage(&self, stage: &str, steps: usize) -> Box<dyn Steps + '_> {
        self.progress.stage(self.game, stage, steps)
    }

    /// Writes to `path` the PNG of `svg` at `width` × `height` pixels recording `dpi`
    /// ([`GameCache::png`]). A file the last build wrote from the same cached PNG, and
    /// untouched since, is kept without reading the PNG or the file. Returns the key of
    /// the PNG (as hex), and its bytes when they were read or drawn.
    pub fn write_png(
        &self,
        path: &Path,
        label: &str,
        svg: &str,
        size: (u32, u32),
        dpi: u32,
    ) -> Result<(String, Option<Vec<u8>>)> {
        let digest = blake3::hash(svg.as_bytes());
        self.write_digested_png(
            path,
            label,
            digest.as_bytes(),
            &|| svg.to_string(),
            size,
            dpi,
        )
    }

    /// [`Context::write_png`] of the SVG whose BLAKE3 digest is `digest`; `svg` makes it,
    /// asked for only when the PNG is drawn.
    pub fn write_digested_png(
        &self,
        path: &Path,
        label: &str,
        digest: &[u8; 32],
        svg: &dyn Fn() -> String,
        (width, height): (u32, u32),
        dpi: u32,
    ) -> Result<(String, Option<Vec<u8>>)> {
        let key = self.cache.digested_png_key(label, digest, (width, height, dpi), svg);
        let hex = key.hex();
        if self.outputs.keep_object(path, &hex) {
            self.cache.reuse(&key);
            return Ok((hex, None));
        }
        let svg = svg();
        let picture = Picture { svg: &svg, width, height, dpi };
        let png = self.cache.png_of(&key, label, &picture)?;
        self.outputs.write_object(path, &hex, &png)?;
        Ok((hex, Some(png)))
    }
}

/// Pixels for a length in inches at a resolution.
pub fn pixels(inches: f64, dpi: u32) -> u32 {
    (inches * f64::from(dpi)).round() as u32
}
