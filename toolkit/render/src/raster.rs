//! Rasterising SVG scenes to PNG, strip by strip.

use std::fmt;
use std::io::Write;
use std::sync::Arc;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

/// Pixels rendered and encoded at a time: a strip of rows about this large (16 MiB of
/// pixmap). Each strip walks the whole scene, so fewer, taller strips draw faster; the
/// bound keeps a 300 dpi map's memory to a few strips.
const STRIP_PIXELS: u64 = 4 << 20;

/// Rows per strip for an image `width` pixels wide: at least 64.
pub fn strip_rows(width: u32) -> u32 {
    (STRIP_PIXELS / u64::from(width.max(1))).clamp(64, u64::from(MAX_SIDE)) as u32
}
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
/// transform), and only the images a scene holds (`data:` URLs): an image it links to is
/// never read from the disk, so that a drawing follows from its SVG alone.
fn options() -> usvg::Options<'static> {
    usvg::Options {
        fontdb: crate::fonts::database(),
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..Default::default()
    }
}

/// Parses a scene once.
pub fn parse(svg: &str) -> Result<Arc<usvg::Tree>, RasterError> {
    usvg::Tree::from_str(svg, &options())
        .map(Arc::new)
        .map_err(|e| RasterError::Svg(e.to_string()))
}

/// How a PNG is written: its compression and the resolution it records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoding {
    /// Deflate setting.
    pub compression: Compression,
    /// Dots per inch, written to the `pHYs` chunk so that image editors and print
    /// dialogs open the image at its real size.
    pub dpi: u32,
}

impl Encoding {
    /// Balanced compression at `dpi`: muster's setting for every image it writes.
    pub fn at(dpi: u32) -> Encoding {
        Encoding { compression: Compression::Balanced, dpi }
    }
}

/// Renders `svg` at `width` by `height` pixels (the scene is scaled to fit exactly) and
/// encodes it as an 8-bit RGB PNG. Rendering happens in strips of rows ([`strip_rows`]),
/// each encoded as it is drawn, so memory stays bounded whatever the area.
pub fn render_png(
    svg: &str,
    width: u32,
    height: u32,
    encoding: Encoding,
) -> Result<Vec<u8>, RasterError> {
    check_size(width, height)?;
    let tree = parse(svg)?;
    encode_with(width, height, encoding, |out| draw_rows(&tree, width, height, out))
}

/// Renders `svg` at `width` by `height` pixels as raw 8-bit RGB rows, top to bottom.
pub fn render_rgb(svg: &str, width: u32, height: u32) -> Result<Vec<u8>, RasterError> {
    check_size(width, height)?;
    let tree = parse(svg)?;
    let mut out = Vec::with_capacity(width as usize * height as usize * 3);
    draw_rows(&tree, width, height, &mut out)?;
    Ok(out)
}

/// Encodes raw 8-bit RGB rows (`width` × `height` pixels) as a PNG.
pub fn encode_png(
    rgb: &[u8],
    width: u32,
    height: u32,
    encoding: Encoding,
) -> Result<Vec<u8>, RasterError> {
    check_size(width, height)?;
    if rgb.len() != width as usize * height as usize * 3 {
        return Err(RasterError::Png(format!(
            "{} bytes are not {width} by {height} RGB pixels",
            rgb.len()
        )));
    }
    encode_with(width, height, encoding, |out| {
        out.write_all(rgb).map_err(|e| RasterError::Png(e.to_string()))
    })
}

/// A resolution in dots per inch as PNG stores it: pixels per metre, rounded.
pub fn pixel_dims(dpi: u32) -> png::PixelDimensions {
    let ppm = (f64::from(dpi) / 0.0254).round() as u32;
    png::PixelDimensions { xppu: ppm, yppu: ppm, unit: png::Unit::Meter }
}

fn check_size(width: u32, height: u32) -> Result<(), RasterError> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(RasterError::TooLarge(width, height));
    }
    Ok(())
}

/// A PNG whose rows `rows` writes into the encoder's stream.
fn encode_with(
    width: u32,
    height: u32,
    encoding: Encoding,
    rows: impl FnOnce(&mut (dyn Write + Send)) -> Result<(), RasterError>,
) -> Result<Vec<u8>, RasterError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(match encoding.compression {
            Compression::Fast => png::Compression::Fast,
            Compression::Balanced => png::Compression::Balanced,
        });
        enc.set_pixel_dims(Some(pixel_dims(encoding.dpi)));
        let mut writer =
            enc.write_header().map_err(|e| RasterError::Png(e.to_string()))?;
        let mut stream =
            writer.stream_writer().map_err(|e| RasterError::Png(e.to_string()))?;
        rows(&mut stream)?;
        stream.finish().map_err(|e| RasterError::Png(e.to_string()))?;
    }
    Ok(out)
}

/// Draws a scene scaled to `width` × `height` strip by strip, writing RGB rows to `out`.
/// The next strip is drawn while the current one is written (encoded), on another thread
/// when one is free.
fn draw_rows(
    tree: &usvg::Tree,
    width: u32,
    height: u32,
    out: &mut (dyn Write + Send),
) -> Result<(), RasterError> {
    let sx = width as f32 / tree.size().width();
    let sy = height as f32 / tree.size().height();
    let strip = strip_rows(width);
    let draw = |y0: u32| -> Result<Vec<u8>, RasterError> {
        let rows = strip.min(height - y0);
        let mut pixmap =
            Pixmap::new(width, rows).ok_or(RasterError::TooLarge(width, rows))?;
        pixmap.fill(resvg::tiny_skia::Color::WHITE);
        let t = Transform::from_row(sx, 0.0, 0.0, sy, 0.0, -(y0 as f32));
        resvg::render(tree, t, &mut pixmap.as_mut());
        // Opaque over white: premultiplied channels are the colour itself.
        Ok(pixmap.data().chunks_exact(4).flat_map(|px| [px[0], px[1], px[2]]).collect())
    };
    let mut y0 = 0;
    let mut current = draw(0)?;
    loop {
        let next_y = y0 + strip;
        let (next, written) = rayon::join(
            || (next_y < height).then(|| draw(next_y)),
            || out.write_all(&current).map_err(|e| RasterError::Png(e.to_string())),
        );
        written?;
        match next {
            Some(strip) => current = strip?,
            None => return Ok(()),
        }
        y0 = next_y;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A scene with shapes crossing every strip boundary.
    fn scene(w: u32, h: u32) -> String {
        let mut s = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"##
        );
        for i in 0..20 {
            s.push_str(&format!(
                r##"<circle cx="{}" cy="{}" r="{}" fill="#{:02x}4080"/>"##,
                (i * 37) % w,
                (i * 211) % h,
                10 + i * 7,
                i * 12
            ));
        }
        s.push_str("</svg>");
        s
    }

    fn decode(png: &[u8]) -> Vec<u8> {
        let mut reader =
            png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        buf
    }

    #[test]
    fn an_image_is_drawn_only_when_the_scene_holds_it() {
        const RED: &str = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==";
        let page = |href: &str| {
            format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4" viewBox="0 0 4 4"><rect width="4" height="4" fill="#ffffff"/><image href="{href}" width="4" height="4"/></svg>"##
            )
        };
        let red =
            render_rgb(&page(&format!("data:image/png;base64,{RED}")), 4, 4).unwrap();
        assert_eq!(&red[..3], [255, 0, 0]);
        // A PNG that is there on the disk, linked by its path: not read.
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../sources/example-oasis/art/2-1-arm-bn-front.png");
        assert!(file.is_file());
        let linked = render_rgb(&page(&file.display().to_string()), 4, 4).unwrap();
        assert!(linked.iter().all(|&c| c == 255), "a linked image was drawn");
    }

    #[test]
    fn strips_draw_what_one_pixmap_draws() {
        // Wide enough that a strip is shorter than the image.
        let (w, h) = (8_000, 1_200);
        assert!(strip_rows(w) < h);
        let svg = scene(w, h);
        let strips = render_rgb(&svg, w, h).unwrap();
        let tree = parse(&svg).unwrap();
        let whole = render_pixmap(&tree, w, h).unwrap();
        let rgb: Vec<u8> =
            whole.data().chunks_exact(4).flat_map(|p| p[..3].to_vec()).collect();
        assert_eq!(strips.len(), rgb.len());
        let worst = strips.iter().zip(&rgb).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
        let differ = strips.iter().zip(&rgb).filter(|(a, b)| a != b).count();
        // Edges that cross a strip are antialiased a little differently (tiny-skia clips
        // paths to the pixmap); nothing else changes.
        assert!(differ * 1000 < rgb.len(), "{differ} channels differ");
        assert!(worst < 64, "a channel differs by {worst}");
        let fast = Encoding { compression: Compression::Fast, dpi: 150 };
        let png = render_png(&svg, w, h, fast).unwrap();
        assert!(decode(&png) == strips, "render_png draws what render_rgb draws");
        assert_eq!(decode(&encode_png(&rgb, w, h, Encoding::at(150)).unwrap()), rgb);
    }

    #[test]
    fn pngs_record_their_resolution() {
        for dpi in [72, 150, 300, 1200] {
            let png = encode_png(&[255; 12], 2, 2, Encoding::at(dpi)).unwrap();
            let reader =
                png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
            let dims = reader.info().pixel_dims.expect("a pHYs chunk");
            assert_eq!(dims.unit, png::Unit::Meter);
            assert_eq!(dims.xppu, dims.yppu);
            // Read back as an image editor does, the resolution is the one asked for.
            assert_eq!((f64::from(dims.xppu) * 0.0254).round() as u32, dpi);
        }
    }

    #[test]
    fn encode_refuses_pixels_of_the_wrong_size() {
        assert!(matches!(
            encode_png(&[0; 5], 1, 2, Encoding::at(72)),
            Err(RasterError::Png(_))
        ));
        assert!(matches!(render_rgb("<svg/>", 0, 5), Err(RasterError::TooLarge(0, 5))));
    }
}
