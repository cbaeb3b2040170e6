//! Rendering for muster: maps (and, later, counters) as SVG scenes rasterised with resvg.
//!
//! muster-render follows resvg's split: a scene is built as SVG text from the validated
//! game model ([`map::map_svg`]), parsed once into a `usvg::Tree` with the fonts shipped in
//! this crate ([`fonts`]), and rasterised ([`raster`]) in horizontal strips that are
//! encoded to PNG as they are drawn, so a 300 dpi map never needs a full-size pixmap.
//! Building a scene cannot fail on content; only parsing and encoding return errors.
//! The crate performs no file I/O: it returns bytes.

#![deny(missing_docs)]

pub mod chart;
pub mod counter;
pub mod cuts;
pub mod die_line;
mod edge_numbers;
pub mod face_arts;
pub mod fit;
pub mod fonts;
mod legend;
pub mod map;
mod map_joins;
pub mod map_labels;
mod map_marks;
pub mod map_print;
mod map_symbols;
pub mod markup;
pub mod metrics;
mod pdf_join;
pub mod pdfx;
pub mod png_bands;
pub mod raster;
pub mod safe_area;
pub mod sheet;
mod svg;
mod symbols;
pub mod template;

pub use counter::{
    CounterArt, Face, counter_fragment, counter_svg, faces, standalone_svg,
};
pub use face_arts::{FaceArts, Keep};
pub use map::{MapScene, map_svg};
pub use raster::{Compression, Encoding, RasterError, render_png};
pub use template::Margins;

/// What the unit tests read back from the SVG they draw.
#[cfg(test)]
mod test_svg {
    /// The number the first attribute `name` holds in an SVG `fragment`.
    pub fn attr(fragment: &str, name: &str) -> f64 {
        let value = fragment
            .split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("no {name} in {fragment}"));
        value.parse().unwrap_or_else(|e| panic!("{name}={value:?}: {e}"))
    }
}
