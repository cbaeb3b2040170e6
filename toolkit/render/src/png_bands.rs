//! A PNG made of bands of rows encoded apart: each band's rows are filtered and deflated
//! on their own ([`encode_band`]), so that a band that did not change is not encoded again,
//! and the bands join into one image ([`join_bands`]) without deflating the whole.
//!
//! A band's first row is filtered without the row above it (it belongs to another band),
//! and its deflated data ends on a byte boundary with no final block; the join writes one
//! zlib stream of the bands' data in order, ends it, and combines their Adler-32 checksums.

use std::io::Write;

use crate::raster::{Compression, Encoding, RasterError, pixel_dims};

/// One band of an image's rows, filtered and deflated on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PngBand {
    /// The Adler-32 of the band's filtered rows.
    pub adler: u32,
    /// How many bytes the band's filtered rows hold.
    pub len: u64,
    /// The filtered rows, deflated and flushed to a byte boundary (no final block).
    pub deflated: Vec<u8>,
}

/// Bytes per pixel: 8-bit RGB.
const RGB: usize = 3;

impl PngBand {
    /// The band as bytes to keep: Adler-32, length, then the deflated rows.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12 + self.deflated.len());
        out.extend_from_slice(&self.adler.to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&self.deflated);
        out
    }

    /// A band from what [`PngBand::to_bytes`] wrote.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, RasterError> {
        let short = || RasterError::Png("a kept band of a PNG is cut short".into());
        let adler = bytes.get(..4).and_then(|b| b.try_into().ok()).ok_or_else(short)?;
        let len = bytes.get(4..12).and_then(|b| b.try_into().ok()).ok_or_else(short)?;
        Ok(PngBand {
            adler: u32::from_le_bytes(adler),
            len: u64::from_le_bytes(len),
            deflated: bytes[12..].to_vec(),
        })
    }
}

/// Filters and deflates the 8-bit RGB rows `rgb`, `width` pixels wide, as one band.
pub fn encode_band(
    rgb: &[u8],
    width: u32,
    compression: Compression,
) -> Result<PngBand, RasterError> {
    let stride = width as usize * RGB;
    if stride == 0 || !rgb.len().is_multiple_of(stride) {
        return Err(RasterError::Png(format!(
            "{} bytes are not rows of {width} RGB pixels",
            rgb.len()
        )));
    }
    let mut filtered = Vec::with_capacity(rgb.len() + rgb.len() / stride);
    let mut above: Option<&[u8]> = None;
    for row in rgb.chunks_exact(stride) {
        filter_row(row, above, &mut filtered);
        above = Some(row);
    }
    let level = match compression {
        Compression::Fast => flate2::Compression::fast(),
        Compression::Balanced => flate2::Compression::new(6),
    };
    let failed = |e: std::io::Error| RasterError::Png(e.to_string());
    let mut deflate =
        flate2::write::DeflateEncoder::new(Vec::with_capacity(filtered.len() / 4), level);
    deflate.write_all(&filtered).map_err(failed)?;
    // A sync flush: the data so far ends on a byte boundary, with no final block.
    deflate.flush().map_err(failed)?;
    let deflated = std::mem::take(deflate.get_mut());
    Ok(PngBand { adler: adler32(&filtered), len: filtered.len() as u64, deflated })
}

/// The PNG of `bands` one under the other: `width` by `height` 8-bit RGB pixels at the
/// encoding's resolution.
pub fn join_bands(
    bands: &[PngBand],
    width: u32,
    height: u32,
    encoding: Encoding,
) -> Result<Vec<u8>, RasterError> {
    let rows: u64 = bands.iter().map(|b| b.len).sum();
    if rows != u64::from(height) * (u64::from(width) * RGB as u64 + 1) {
        return Err(RasterError::Png(format!(
            "bands of {rows} filtered bytes are not {width} by {height} RGB pixels"
        )));
    }
    let mut zlib =
        Vec::with_capacity(bands.iter().map(|b| b.deflated.len()).sum::<usize>() + 8);
    // Deflate, a 32K window, no dictionary; the level is only a hint to readers.
    zlib.extend_from_slice(&[0x78, 0x9c]);
    let mut adler = 1;
    for b in bands {
        zlib.extend_from_slice(&b.deflated);
        adler = adler32_combine(adler, b.adler, b.len);
    }
    // The last block: empty, fixed codes, marked final.
    zlib.extend_from_slice(&[0x03, 0x00]);
    zlib.extend_from_slice(&adler.to_be_bytes());
    let failed = |e: png::EncodingError| RasterError::Png(e.to_string());
    let mut out = Vec::with_capacity(zlib.len() + 128);
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_pixel_dims(Some(pixel_dims(encoding.dpi)));
    let mut writer = enc.write_header().map_err(failed)?;
    writer.write_chunk(png::chunk::IDAT, &zlib).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}

/// Appends `row` filtered as PNG scanline: its filter type, then the filtered bytes. Of
/// the filters, the one whose bytes (read as signed) sum to the least in magnitude is
/// chosen; without the row `above`, only those that do not read it (none and sub).
fn filter_row(row: &[u8], above: Option<&[u8]>, out: &mut Vec<u8>) {
    let kinds: &[u8] = if above.is_some() { &[0, 1, 2, 3, 4] } else { &[0, 1] };
    let up = above.unwrap_or(row);
    let mut best = (u64::MAX, 0u8, Vec::new());
    let mut line = vec![0u8; row.len()];
    for &kind in kinds {
        filter_as(kind, row, up, &mut line);
        let sum: u64 = line.iter().map(|&v| u64::from((v as i8).unsigned_abs())).sum();
        if sum < best.0 {
            best.0 = sum;
            best.1 = kind;
            std::mem::swap(&mut best.2, &mut line);
            line.resize(row.len(), 0);
        }
    }
    out.push(best.1);
    out.extend_from_slice(&best.2);
}

/// Writes `row` filtered by the PNG filter `kind` (0 none, 1 sub, 2 up, 3 average, 4 Paeth)
/// into `line`, `up` being the row above (read only by up, average and Paeth).
fn filter_as(kind: u8, row: &[u8], up: &[u8], line: &mut [u8]) {
    let first = RGB.min(row.len());
    match kind {
        0 => line.copy_from_slice(row),
        1 => {
            line[..first].copy_from_slice(&row[..first]);
            for i in first..row.len() {
                line[i] = row[i].wrapping_sub(row[i - RGB]);
            }
        }
        2 => {
            for ((l, &x), &b) in line.iter_mut().zip(row).zip(up) {
                *l = x.wrapping_sub(b);
            }
        }
        3 => {
            for i in 0..first {
                line[i] = row[i].wrapping_sub(up[i] / 2);
            }
            for i in first..row.len() {
                let mean = (u16::from(row[i - RGB]) + u16::from(up[i])) / 2;
                line[i] = row[i].wrapping_sub(mean as u8);
            }
        }
        _ => {
            // Left and upper left are zero in the first pixel: Paeth predicts the byte above.
            for i in 0..first {
                line[i] = row[i].wrapping_sub(up[i]);
            }
            for i in first..row.len() {
                line[i] = row[i].wrapping_sub(paeth(row[i - RGB], up[i], up[i - RGB]));
            }
        }
    }
}

/// The Paeth predictor of PNG: of left, above and upper left, the nearest to
/// left + above - upper left (ties to left, then above).
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (ia, ib, ic) = (i16::from(a), i16::from(b), i16::from(c));
    // The distances of left + above - upper left to left, above and upper left.
    let pa = (ib - ic).abs();
    let pb = (ia - ic).abs();
    let pc = (ia + ib - 2 * ic).abs();
    let nearer_b = if pb <= pc { b } else { c };
    if pa <= pb && pa <= pc { a } else { nearer_b }
}

/// The largest prime below 2^16: Adler-32's modulus.
const ADLER_BASE: u32 = 65521;

/// The Adler-32 checksum of `bytes`.
fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 bytes at most between reductions keep the sums within 32 bits.
    for chunk in bytes.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= ADLER_BASE;
        b %= ADLER_BASE;
    }
    (b << 16) | a
}

/// The Adler-32 of two byte runs one after the other, from the first's checksum, the
/// second's and the second's length.
fn adler32_combine(first: u32, second: u32, second_len: u64) -> u32 {
    let base = u64::from(ADLER_BASE);
    let rem = second_len % base;
    let a1 = u64::from(first & 0xffff);
    let b1 = u64::from(first >> 16);
    let a2 = u64::from(second & 0xffff);
    let b2 = u64::from(second >> 16);
    let a = (a1 + a2 + base - 1) % base;
    let b = (rem * a1 + b1 + b2 + base - rem) % base;
    ((b << 16) | a) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic bytes with runs and noise, like a drawn page.
    fn pixels(width: u32, rows: u32, seed: u32) -> Vec<u8> {
        let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        (0..width * rows * 3)
            .map(|i| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                if (i / 90) % 3 == 0 { (state >> 24) as u8 } else { (i / 300) as u8 }
            })
            .collect()
    }

    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>, Option<png::PixelDimensions>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().expect("reads the header");
        let mut buf = vec![0; reader.output_buffer_size().expect("fits")];
        let info = reader.next_frame(&mut buf).expect("decodes");
        assert_eq!(info.color_type, png::ColorType::Rgb);
        let dims = reader.info().pixel_dims;
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf, dims)
    }

    #[test]
    fn bands_encoded_apart_decode_to_the_whole_image() {
        let width = 37;
        let bands: Vec<Vec<u8>> = [5, 1, 12, 7]
            .iter()
            .enumerate()
            .map(|(i, &h)| pixels(width, h, i as u32))
            .collect();
        for compression in [Compression::Balanced, Compression::Fast] {
            let encoded: Vec<PngBand> = bands
                .iter()
                .map(|b| encode_band(b, width, compression).expect("encodes"))
                .collect();
            let kept: Vec<PngBand> = encoded
                .iter()
                .map(|b| PngBand::from_bytes(&b.to_bytes()).expect("reads"))
                .collect();
            assert_eq!(kept, encoded);
            let png = join_bands(&kept, width, 25, Encoding { compression, dpi: 100 })
                .expect("joins");
            let (w, h, rgb, dims) = decode(&png);
            assert_eq!((w, h), (width, 25));
            assert_eq!(rgb, bands.concat());
            let dims = dims.expect("states its resolution");
            assert_eq!((dims.xppu, dims.yppu), (3937, 3937), "100 dpi");
        }
        // A changed band changes only its own encoding.
        let mut changed = bands.clone();
        changed[2][40] ^= 0x55;
        let again = encode_band(&changed[2], width, Compression::Balanced).unwrap();
        assert_ne!(again, encode_band(&bands[2], width, Compression::Balanced).unwrap());
        // Rows that do not add up to the image are refused.
        let one = [encode_band(&bands[0], width, Compression::Balanced).unwrap()];
        assert!(join_bands(&one, width, 6, Encoding::at(100)).is_err());
        assert!(encode_band(&[0; 10], width, Compression::Balanced).is_err());
        assert!(PngBand::from_bytes(&[1, 2, 3]).is_err());
    }

    /// The zlib stream of a PNG's image data chunks, inflated by flate2, which checks its
    /// Adler-32.
    fn inflated(png: &[u8]) -> Vec<u8> {
        use std::io::Read;
        let mut idat = Vec::new();
        let mut at = 8;
        while at + 12 <= png.len() {
            let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
            if &png[at + 4..at + 8] == b"IDAT" {
                idat.extend_from_slice(&png[at + 8..at + 8 + len]);
            }
            at += 12 + len;
        }
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(idat.as_slice())
            .read_to_end(&mut out)
            .expect("a whole zlib stream whose checksum holds");
        out
    }

    #[test]
    fn the_joined_stream_is_one_zlib_stream_with_its_checksum() {
        let width = 19;
        let bands: Vec<Vec<u8>> =
            [3, 8, 2].iter().map(|&h| pixels(width, h, h)).collect();
        let encoded: Vec<PngBand> = bands
            .iter()
            .map(|b| encode_band(b, width, Compression::Balanced).unwrap())
            .collect();
        let png = join_bands(&encoded, width, 13, Encoding::at(100)).unwrap();
        let rows = inflated(&png);
        assert_eq!(rows.len() as u64, encoded.iter().map(|b| b.len).sum::<u64>());
        // A wrong checksum is caught by the same reading.
        let mut wrong = encoded.clone();
        wrong[1].adler ^= 1;
        let png = join_bands(&wrong, width, 13, Encoding::at(100)).unwrap();
        let caught = std::panic::catch_unwind(|| inflated(&png));
        assert!(caught.is_err(), "a wrong Adler-32 passes unseen");
    }

    #[test]
    fn checksums_combine_as_over_the_whole() {
        let whole = pixels(101, 53, 9);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        for cut in [0, 1, 5551, 5552, 5553, 9000, whole.len()] {
            let (a, b) = whole.split_at(cut);
            assert_eq!(
                adler32_combine(adler32(a), adler32(b), b.len() as u64),
                adler32(&whole)
            );
        }
    }

    #[test]
    fn every_filter_is_chosen_and_undone_by_a_decoder() {
        // Shapes of many kinds: each filter wins on some row, and the png crate decodes
        // them all.
        let (width, height) = (24u32, 120u32);
        let mut state = 7u32;
        let rgb: Vec<u8> = (0..height)
            .flat_map(|y| (0..width * 3).map(move |i| (i, y)))
            .map(|(i, y)| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let x = i / 3;
                let noise = (state >> 27) as u8;
                match (y / 8) % 6 {
                    0 => 200,
                    // Mostly black, some specks: the bytes as they are cost least.
                    5 => {
                        if noise < 3 {
                            100
                        } else {
                            0
                        }
                    }
                    1 => (x * 9) as u8 ^ noise,
                    2 => (y * 11) as u8 ^ noise,
                    3 => ((x * 5 + y * 7) as u8).wrapping_add(noise),
                    _ => {
                        if (x + y) % 7 < 3 {
                            30 + noise
                        } else {
                            220 - noise
                        }
                    }
                }
            })
            .collect();
        let stride = width as usize * 3;
        let mut filtered = Vec::new();
        let mut above = None;
        for row in rgb.chunks_exact(stride) {
            filter_row(row, above, &mut filtered);
            above = Some(row);
        }
        let kinds: std::collections::BTreeSet<u8> =
            filtered.chunks_exact(stride + 1).map(|line| line[0]).collect();
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
        let band = encode_band(&rgb, width, Compression::Balanced).unwrap();
        let png = join_bands(&[band], width, height, Encoding::at(72)).unwrap();
        assert_eq!(decode(&png).2, rgb);
    }
}
