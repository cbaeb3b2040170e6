//! The publisher's own art, read and checked at load: counter faces from image files,
//! sheets of counter art (a scan or export of a printed counter sheet) cut into faces by
//! a grid, and painted map images.
//!
//! Raster images (PNG, JPEG) are decoded here, so a file that does not decode is a
//! diagnostic at load and never a failure while drawing. SVG art is parsed as a
//! [`Template`] without fields. Cutting a face from a sheet is done on first use and
//! kept, so a build that draws nothing cuts nothing.

use std::fmt;
use std::sync::{Arc, OnceLock};

pub use crate::image_header::{
    ImageFormat, MAX_ART_PIXELS, MAX_ART_SIDE, header_size, size_fits, sniff, too_large,
};
use crate::template::Template;

/// A raster image as read from a file: its bytes and its decoded pixels.
#[derive(Clone)]
pub struct RasterArt {
    /// The path it was read from, relative to the game's folder (`art/map.png`).
    pub origin: String,
    /// Its format.
    pub format: ImageFormat,
    /// The file's bytes.
    pub bytes: Arc<Vec<u8>>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, 8-bit RGBA, row by row.
    pub rgba: Arc<Vec<u8>>,
}

impl fmt::Debug for RasterArt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RasterArt")
            .field("origin", &self.origin)
            .field("format", &self.format)
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

/// What a counter side shows instead of its drawing.
#[derive(Debug, Clone)]
pub enum FaceArt {
    /// A raster image over the whole face.
    Raster(Arc<RasterArt>),
    /// SVG art over the whole face.
    Svg(Arc<Template>),
    /// A face cut from a sheet of art.
    Cut(Arc<CutFace>),
}

/// A face cut from a sheet of art: a square (or rectangle) of the sheet, possibly turned.
pub struct CutFace {
    /// The sheet.
    pub sheet: Arc<RasterArt>,
    /// The face's top-left corner in sheet pixels.
    pub corner: (f64, f64),
    /// The face's width and height in sheet pixels.
    pub size: (f64, f64),
    /// How far the sheet's grid is turned clockwise, in degrees.
    pub rotation_deg: f64,
    png: OnceLock<Vec<u8>>,
}

impl fmt::Debug for CutFace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CutFace")
            .field("sheet", &self.sheet.origin)
            .field("corner", &self.corner)
            .field("size", &self.size)
            .field("rotation_deg", &self.rotation_deg)
            .finish_non_exhaustive()
    }
}

impl CutFace {
    /// A face of `sheet` with its top-left corner at `corner` (sheet pixels), `size`
    /// pixels across, on a grid turned `rotation_deg` clockwise about that corner.
    pub fn new(
        sheet: Arc<RasterArt>,
        corner: (f64, f64),
        size: (f64, f64),
        rotation_deg: f64,
    ) -> Self {
        CutFace { sheet, corner, size, rotation_deg, png: OnceLock::new() }
    }

    /// The four corners of the face on the sheet, clockwise from the top-left.
    pub fn corners(&self) -> [(f64, f64); 4] {
        let (s, c) = sin_cos_deg(self.rotation_deg);
        let (x0, y0) = self.corner;
        let at = |u: f64, v: f64| (x0 + u * c - v * s, y0 + u * s + v * c);
        let (w, h) = self.size;
        [at(0.0, 0.0), at(w, 0.0), at(w, h), at(0.0, h)]
    }

    /// The face as a PNG, cut on first use: each pixel sampled bilinearly from the sheet
    /// at the sheet's own resolution.
    pub fn png(&self) -> &[u8] {
        self.png.get_or_init(|| {
            let (w, h) = (
                (self.size.0.round() as u32).max(1),
                (self.size.1.round() as u32).max(1),
            );
            let (s, c) = sin_cos_deg(self.rotation_deg);
            let sheet = &self.sheet;
            let mut out = Vec::with_capacity(w as usize * h as usize * 4);
            for j in 0..h {
                for i in 0..w {
                    let (u, v) = (
                        (f64::from(i) + 0.5) * self.size.0 / f64::from(w),
                        (f64::from(j) + 0.5) * self.size.1 / f64::from(h),
                    );
                    let x = self.corner.0 + u * c - v * s - 0.5;
                    let y = self.corner.1 + u * s + v * c - 0.5;
                    out.extend_from_slice(&sample(sheet, x, y));
                }
            }
            encode_rgba(&out, w, h)
        })
    }
}

/// The sheet's colour at a point between pixel centres, bilinearly; edges are repeated.
fn sample(sheet: &RasterArt, x: f64, y: f64) -> [u8; 4] {
    let (w, h) = (i64::from(sheet.width), i64::from(sheet.height));
    let (fx, fy) = (x.floor(), y.floor());
    let (ax, ay) = (x - fx, y - fy);
    let px = |xx: i64, yy: i64| -> [f64; 4] {
        let (xx, yy) = (xx.clamp(0, w - 1), yy.clamp(0, h - 1));
        let i = ((yy * w + xx) * 4) as usize;
        let p = &sheet.rgba[i..i + 4];
        [f64::from(p[0]), f64::from(p[1]), f64::from(p[2]), f64::from(p[3])]
    };
    let (x0, y0) = (fx as i64, fy as i64);
    let (p00, p10, p01, p11) =
        (px(x0, y0), px(x0 + 1, y0), px(x0, y0 + 1), px(x0 + 1, y0 + 1));
    let mut out = [0u8; 4];
    for k in 0..4 {
        let top = p00[k] * (1.0 - ax) + p10[k] * ax;
        let bottom = p01[k] * (1.0 - ax) + p11[k] * ax;
        out[k] = (top * (1.0 - ay) + bottom * ay).round().clamp(0.0, 255.0) as u8;
    }
    out
}

/// Encodes RGBA pixels as a PNG (never fails on a buffer of the right size).
fn encode_rgba(rgba: &[u8], w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let written = enc.write_header().and_then(|mut wr| wr.write_image_data(rgba));
    match written {
        Ok(()) => out,
        // Only a buffer of the wrong size fails, and `png` builds the right one.
        Err(_) => Vec::new(),
    }
}

/// Sine and cosine of an angle in degrees, from a series rather than the platform's
/// maths library, so that the same angle cuts the same pixels on every machine. Exact
/// for multiples of 90°.
pub fn sin_cos_deg(deg: f64) -> (f64, f64) {
    let turns = (deg / 90.0).round();
    let rest = (deg - turns * 90.0).to_radians();
    // |rest| ≤ π/4: the series to the 17th power is exact to the last bit or two.
    let x2 = rest * rest;
    let mut sin = 0.0;
    let mut cos = 0.0;
    let (mut ts, mut tc) = (rest, 1.0);
    for k in 0..9 {
        sin += ts;
        cos += tc;
        let k = f64::from(k);
        ts *= -x2 / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
        tc *= -x2 / ((2.0 * k + 1.0) * (2.0 * k + 2.0));
    }
    match (turns as i64).rem_euclid(4) {
        0 => (sin, cos),
        1 => (cos, -sin),
        2 => (-sin, -cos),
        _ => (-cos, sin),
    }
}

/// Why an image could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageError {
    /// Neither PNG, JPEG nor SVG.
    UnknownFormat,
    /// The file did not decode.
    Decode(String),
    /// Zero or more than [`MAX_ART_SIDE`] pixels on a side, or more than
    /// [`MAX_ART_PIXELS`] in all.
    Size(u32, u32),
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::UnknownFormat => write!(f, "it is neither PNG, JPEG nor SVG"),
            ImageError::Decode(e) => write!(f, "{e}"),
            ImageError::Size(w, h) => write!(f, "it is {}", too_large(*w, *h)),
        }
    }
}

/// Decodes a PNG or JPEG file read from `origin`.
pub fn decode(origin: &str, bytes: Vec<u8>) -> Result<RasterArt, ImageError> {
    let format = sniff(&bytes).ok_or(ImageError::UnknownFormat)?;
    let (width, height, rgba) = match format {
        ImageFormat::Png => decode_png(&bytes)?,
        ImageFormat::Jpeg => decode_jpeg(&bytes)?,
    };
    if !size_fits(width, height) {
        return Err(ImageError::Size(width, height));
    }
    Ok(RasterArt {
        origin: origin.to_string(),
        format,
        bytes: Arc::new(bytes),
        width,
        height,
        rgba: Arc::new(rgba),
    })
}

fn decode_png(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), ImageError> {
    let bad =
        |e: png::DecodingError| ImageError::Decode(format!("not a usable PNG ({e})"));
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(
        png::Transformations::EXPAND | png::Transformations::STRIP_16,
    );
    let mut reader = decoder.read_info().map_err(bad)?;
    let (w, h) = reader.info().size();
    if !size_fits(w, h) {
        return Err(ImageError::Size(w, h));
    }
    let size = reader.output_buffer_size().ok_or(ImageError::Size(w, h))?;
    let mut buf = vec![0; size];
    let frame = reader.next_frame(&mut buf).map_err(bad)?;
    buf.truncate(frame.buffer_size());
    let rgba = match frame.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => {
            buf.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect()
        }
        png::ColorType::GrayscaleAlpha => {
            buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect()
        }
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => {
            return Err(ImageError::Decode("an indexed PNG that did not expand".into()));
        }
    };
    Ok((w, h, rgba))
}

fn decode_jpeg(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), ImageError> {
    use zune_jpeg::zune_core::bytestream::ZCursor;
    use zune_jpeg::zune_core::colorspace::ColorSpace;
    use zune_jpeg::zune_core::options::DecoderOptions;
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGBA)
        .set_max_width(MAX_ART_SIDE as usize)
        .set_max_height(MAX_ART_SIDE as usize);
    let mut decoder =
        zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    let bad = |e: zune_jpeg::errors::DecodeErrors| {
        ImageError::Decode(format!("not a usable JPEG ({e:?})"))
    };
    decoder.decode_headers().map_err(bad)?;
    let info = decoder
        .info()
        .ok_or_else(|| ImageError::Decode("a JPEG without a frame".into()))?;
    let (w, h) = (u32::from(info.width), u32::from(info.height));
    // Refused before its pixels are made.
    if !size_fits(w, h) {
        return Err(ImageError::Size(w, h));
    }
    let rgba = decoder.decode().map_err(bad)?;
    if rgba.len() != w as usize * h as usize * 4 {
        return Err(ImageError::Decode("a JPEG whose pixels are not RGBA".into()));
    }
    Ok((w, h, rgba))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(w: u32, h: u32) -> Arc<RasterArt> {
        // Each pixel's red is its column, green its row.
        let rgba: Vec<u8> = (0..h)
            .flat_map(|y| (0..w).flat_map(move |x| [x as u8, y as u8, 7, 255]))
            .collect();
        let png = encode_rgba(&rgba, w, h);
        Arc::new(decode("sheet.png", png).unwrap())
    }

    fn pixels(png: &[u8]) -> (u32, u32, Vec<u8>) {
        decode_png(png).unwrap()
    }

    #[test]
    fn an_unturned_cell_is_an_exact_crop() {
        let s = sheet(40, 30);
        let face = CutFace::new(s, (10.0, 5.0), (8.0, 6.0), 0.0);
        let (w, h, px) = pixels(face.png());
        assert_eq!((w, h), (8, 6));
        assert_eq!(&px[..4], &[10, 5, 7, 255]);
        let last = ((5 * 8 + 7) * 4) as usize;
        assert_eq!(&px[last..last + 4], &[17, 10, 7, 255]);
    }

    #[test]
    fn a_quarter_turn_samples_down_the_sheet() {
        let s = sheet(40, 40);
        // Turned 90° clockwise about (20, 10): the face's x runs down the sheet.
        let face = CutFace::new(s, (20.0, 10.0), (4.0, 4.0), 90.0);
        let (_, _, px) = pixels(face.png());
        // The face's first pixel centre (0.5, 0.5) lies at (19.5, 10.5) on the sheet.
        assert_eq!(&px[..2], &[19, 10]);
        // Its last pixel of the first row lies 3 pixels further down.
        assert_eq!(&px[12..14], &[19, 13]);
    }

    #[test]
    fn sines_are_exact_at_right_angles_and_close_between() {
        assert_eq!(sin_cos_deg(0.0), (0.0, 1.0));
        assert_eq!(sin_cos_deg(90.0), (1.0, -0.0));
        assert_eq!(sin_cos_deg(-90.0), (-1.0, 0.0));
        for d in [-179.5, -33.0, 0.4, 30.0, 45.0, 60.0, 135.0, 359.0] {
            let (s, c) = sin_cos_deg(d);
            #[allow(clippy::disallowed_methods)]
            let (rs, rc) = (f64::to_radians(d).sin(), f64::to_radians(d).cos());
            assert!((s - rs).abs() < 1e-14 && (c - rc).abs() < 1e-14, "{d}");
        }
    }

    #[test]
    fn files_that_are_not_images_say_why() {
        assert_eq!(
            decode("x", b"GIF89a".to_vec()).unwrap_err(),
            ImageError::UnknownFormat
        );
        let mut png = encode_rgba(&[0; 16], 2, 2);
        png.truncate(png.len() - 20);
        assert!(matches!(decode("x", png), Err(ImageError::Decode(_))));
    }

    /// A PNG of 2 by 2 pixels whose header says it is `w` by `h`.
    fn claiming(w: u32, h: u32) -> Vec<u8> {
        fn crc(bytes: &[u8]) -> u32 {
            let mut c = !0u32;
            for &b in bytes {
                c ^= u32::from(b);
                for _ in 0..8 {
                    c = if c & 1 == 1 { (c >> 1) ^ 0xedb8_8320 } else { c >> 1 };
                }
            }
            !c
        }
        let mut png = encode_rgba(&[0; 16], 2, 2);
        // The header chunk: length, `IHDR`, width, height, ..., its CRC at 29..33.
        png[16..20].copy_from_slice(&w.to_be_bytes());
        png[20..24].copy_from_slice(&h.to_be_bytes());
        let sum = crc(&png[12..29]);
        png[29..33].copy_from_slice(&sum.to_be_bytes());
        png
    }

    #[test]
    fn art_too_large_to_hold_is_refused_before_its_pixels_are_made() {
        // 12,000 by 9,000 is within the sides but 108 million pixels: 432 MB held.
        let err = decode("x", claiming(12_000, 9_000)).unwrap_err();
        assert_eq!(err, ImageError::Size(12_000, 9_000));
        assert_eq!(
            err.to_string(),
            "it is 12000 by 9000 pixels (108 million); art must be 1 to 20000 pixels a side and 100 million in all"
        );
        assert_eq!(
            decode("x", claiming(30_000, 10)).unwrap_err(),
            ImageError::Size(30_000, 10)
        );
        // Within both, the header is read on: the pixels it claims are not there.
        assert!(matches!(
            decode("x", claiming(10_000, 9_000)),
            Err(ImageError::Decode(_))
        ));
    }
}
