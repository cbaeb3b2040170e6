//! Rasterising SVG scenes to PNG, strip by strip.

use std::fmt;
use std::sync::Arc;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

/// Rows rendered and encoded at a time.
const STRIP: u32 = 256;
/// Largest image muster will make, in pixels on a side.
pub const MAX_SIDE: u32 = 60_000;

/// PNG compression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compression {
    /// Fast deflate: bigger files, for previews.
    Fast,
    /// Balanced deflate (zlib level 6). Default.
    #[default]
    Balanced,
}

/// Why a scene could not be rasterised.
#[derive(Debug)]
pub enum RasterError {
    /// The SVG did not parse (a bug in scene building, not a content problem).
    Svg(String),
    /// The image would be absurdly large.
    TooLarge(u32, u32),
    /// A glyph had no font: text would silently vanish.
    MissingFont(String),
    /// PNG encoding failed.
    Png(String),
}

impl fmt::Display for RasterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RasterError::Svg(e) => write!(f, "failed to parse the scene ({e})"),
            RasterError::TooLarge(w, h) => {
                write!(
                    f,
                    "an image of {w} by {h} pixels is larger than the limit of {MAX_SIDE} a side"
                )
            }
            RasterError::MissingFont(t) => {
                write!(f, "no shipped font draws the text `{t}`")
            }
            RasterError::Png(e) => write!(f, "failed to encode PNG ({e})"),
        }
    }
}

impl std::error::Error for RasterError {}

/// Options for parsing scenes: shipped fonts only, dpi left at 96 (scaling is done by the
/// transform).
fn options() -> usvg::Options<'static> {
    usvg::Options { fontdb: crate::fonts::database(), ..Default::default() }
}

/// Parses a scene once.
pub fn parse(svg: &str) -> Result<Arc<usvg::Tree>, RasterError> {
    usvg::Tree::from_str(svg, &options())
        .map(Arc::new)
        .map_err(|e| RasterError::Svg(e.to_string()))
}

/// Renders `svg` at `width` by `height` pixels (the scene is scaled to fit exactly) and
/// encodes it as an 8-bit RGB PNG. Rendering happens in strips of rows, so memory stays
/// proportional to the width, not the area.
pub fn render_png(
    svg: &str,
    width: u32,
    height: u32,
    compression: Compression,
) -> Result<Vec<u8>, RasterError> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(RasterError::TooLarge(width, height));
    }
    let tree = parse(svg)?;
    let size = tree.size();
    let sx = width as f32 / size.width();
    let sy = height as f32 / size.height();
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(match compression {
            Compression::Fast => png::Compression::Fast,
            Compression::Balanced => png::Compression::Balanced,
        });
        let mut writer =
            enc.write_header().map_err(|e| RasterError::Png(e.to_string()))?;
        let mut stream =
            writer.stream_writer().map_err(|e| RasterError::Png(e.to_string()))?;
        let mut rgb = vec![0u8; width as usize * 3];
        let mut y0 = 0;
        while y0 < height {
            let rows = STRIP.min(height - y0);
            let mut pixmap =
                Pixmap::new(width, rows).ok_or(RasterError::TooLarge(width, rows))?;
            pixmap.fill(resvg::tiny_skia::Color::WHITE);
            let t = Transform::from_row(sx, 0.0, 0.0, sy, 0.0, -(y0 as f32));
            resvg::render(&tree, t, &mut pixmap.as_mut());
            for row in pixmap.data().chunks_exact(width as usize * 4) {
                for (px, dst) in row.chunks_exact(4).zip(rgb.chunks_exact_mut(3)) {
                    // Opaque over white: premultiplied channels are the colour itself.
                    dst.copy_from_slice(&px[..3]);
                }
                std::io::Write::write_all(&mut stream, &rgb)
                    .map_err(|e| RasterError::Png(e.to_string()))?;
            }
            y0 += rows;
        }
        stream.finish().map_err(|e| RasterError::Png(e.to_string()))?;
    }
    Ok(out)
}

/// Renders a parsed scene to a full pixmap (for small images and tests).
pub fn render_pixmap(tree: &usvg::Tree, width: u32, height: u32) -> Option<Pixmap> {
    let size = tree.size();
    let mut pixmap = Pixmap::new(width, height)?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    let t =
        Transform::from_scale(width as f32 / size.width(), height as f32 / size.height());
    resvg::render(tree, t, &mut pixmap.as_mut());
    Some(pixmap)
}

/// Checks that every text node of a scene found a font, so no label silently vanishes.
pub fn check_fonts(tree: &usvg::Tree) -> Result<(), RasterError> {
    fn walk(g: &usvg::Group) -> Result<(), RasterError> {
        for node in g.children() {
            match node {
                usvg::Node::Group(g) => walk(g)?,
                usvg::Node::Text(t)
                    if t.flattened().children().is_empty()
                        && !t.chunks().iter().all(|c| c.text().trim().is_empty()) =>
                {
                    let text: String = t.chunks().iter().map(|c| c.text()).collect();
                    return Err(RasterError::MissingFont(text));
                }
                _ => {}
            }
        }
        Ok(())
    }
    walk(tree.root())
}
