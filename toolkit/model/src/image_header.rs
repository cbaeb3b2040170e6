//! What a raster image's first bytes tell without decoding it: whether it is a PNG or a
//! JPEG, and how large it is; and how large art may be.

/// Largest art image, in pixels on a side.
pub const MAX_ART_SIDE: u32 = 20_000;

/// Largest art image, in pixels in all: a sheet of counters scanned at 600 dpi, or a
/// 34 by 22 inch map painted at 300 dpi, is about 70 million. Its pixels are held (four
/// bytes each) and drawn from, so a larger image would take gigabytes.
pub const MAX_ART_PIXELS: u64 = 100_000_000;

/// The size a PNG or JPEG file's header gives, read without making its pixels; `None`
/// for another format or a header that does not read.
pub fn header_size(bytes: &[u8]) -> Option<(u32, u32)> {
    match sniff(bytes)? {
        ImageFormat::Png => {
            let reader =
                png::Decoder::new(std::io::Cursor::new(bytes)).read_info().ok()?;
            Some(reader.info().size())
        }
        ImageFormat::Jpeg => {
            use zune_jpeg::zune_core::bytestream::ZCursor;
            let mut decoder = zune_jpeg::JpegDecoder::new(ZCursor::new(bytes));
            decoder.decode_headers().ok()?;
            let info = decoder.info()?;
            Some((u32::from(info.width), u32::from(info.height)))
        }
    }
}

/// Whether an image of `w` by `h` pixels may be art: 1 to [`MAX_ART_SIDE`] pixels a side
/// and at most [`MAX_ART_PIXELS`] in all.
pub fn size_fits(w: u32, h: u32) -> bool {
    (1..=MAX_ART_SIDE).contains(&w)
        && (1..=MAX_ART_SIDE).contains(&h)
        && u64::from(w) * u64::from(h) <= MAX_ART_PIXELS
}

/// The format of a raster image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
}

impl ImageFormat {
    /// The media type, for a `data:` URL.
    pub fn media_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
        }
    }
}

/// What is wrong with an image of `w` by `h` pixels that may not be art, after "it is" or
/// "an image of".
pub fn too_large(w: u32, h: u32) -> String {
    format!(
        "{w} by {h} pixels ({} million); art must be 1 to {MAX_ART_SIDE} pixels a side and {} million in all",
        u64::from(w) * u64::from(h) / 1_000_000,
        MAX_ART_PIXELS / 1_000_000
    )
}

/// The format of a file from its first bytes: PNG, JPEG, or `None` (SVG or unknown).
pub fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(ImageFormat::Png)
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some(ImageFormat::Jpeg)
    } else {
        None
    }
}
