//! The size of a board image from its first bytes, for every format VASSAL reads boards
//! in: PNG, JPEG, GIF and SVG. Nothing is decoded past the header.

/// How many bytes of an image are read to find its size; a JPEG whose frame header lies
/// further on (behind a large EXIF block or thumbnail) is read whole.
pub const HEAD_BYTES: u64 = 64 * 1024;

/// The width and height an image file's header gives, or `None` when it is not a PNG,
/// JPEG, GIF or SVG, or its header does not read (`Some(None)`-like results are folded
/// into `None`: VASSAL cannot size such a board either).
pub fn image_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        png(bytes)
    } else if bytes.starts_with(&[0xff, 0xd8]) {
        jpeg(bytes)
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        gif(bytes)
    } else {
        svg(bytes)
    }
}

/// Whether the size of an image named `name` may lie past [`HEAD_BYTES`] (a JPEG).
pub fn may_need_more(head: &[u8]) -> bool {
    head.starts_with(&[0xff, 0xd8]) && jpeg(head).is_none()
}

fn be16(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?)))
}

fn png(b: &[u8]) -> Option<(u32, u32)> {
    if b.get(12..16)? != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(b.get(16..20)?.try_into().ok()?);
    let h = u32::from_be_bytes(b.get(20..24)?.try_into().ok()?);
    Some((w, h))
}

/// The first start-of-frame segment's size (SOF0 to SOF15 but DHT, JPG and DAC).
fn jpeg(b: &[u8]) -> Option<(u32, u32)> {
    let mut at = 2;
    loop {
        // Markers may be padded with any number of 0xff bytes.
        while *b.get(at)? == 0xff && *b.get(at + 1)? == 0xff {
            at += 1;
        }
        if *b.get(at)? != 0xff {
            return None;
        }
        let marker = *b.get(at + 1)?;
        at += 2;
        if marker == 0x01 || (0xd0..=0xd8).contains(&marker) {
            continue;
        }
        let len = usize::try_from(be16(b, at)?).ok()?;
        if (0xc0..=0xcf).contains(&marker) && ![0xc4, 0xc8, 0xcc].contains(&marker) {
            let h = be16(b, at + 3)?;
            let w = be16(b, at + 5)?;
            return Some((w, h));
        }
        if marker == 0xd9 || marker == 0xda || len < 2 {
            return None;
        }
        at += len;
    }
}

fn gif(b: &[u8]) -> Option<(u32, u32)> {
    let w = u16::from_le_bytes(b.get(6..8)?.try_into().ok()?);
    let h = u16::from_le_bytes(b.get(8..10)?.try_into().ok()?);
    Some((u32::from(w), u32::from(h)))
}

/// An SVG's size as VASSAL's `SVGImageUtils.getImageSize` reckons it: `width` and
/// `height` in user units (px, or pt, pc, mm, cm, in at 96 to the inch), a missing one
/// taken from the `viewBox` (or from the other side when there is no `viewBox`), a
/// percentage of the `viewBox`; rounded half up.
fn svg(b: &[u8]) -> Option<(u32, u32)> {
    // A head cut inside a character reads up to it.
    let text = match std::str::from_utf8(b) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&b[..e.valid_up_to()]).ok()?,
    };
    let start = text.find("<svg")?;
    let end = start + text[start..].find('>')?;
    let tag = &text[start..=end];
    let attr = |name: &str| -> Option<&str> {
        let mut rest = tag;
        loop {
            let at = rest.find(name)?;
            let before = rest[..at].chars().last();
            let after = rest[at + name.len()..].trim_start();
            rest = &rest[at + name.len()..];
            if before.is_some_and(char::is_whitespace)
                && let Some(v) = after.strip_prefix('=')
            {
                let v = v.trim_start();
                let q = v.chars().next()?;
                let v = &v[1..];
                return Some(&v[..v.find(q)?]);
            }
        }
    };
    let length = |name: &str| -> Option<(f32, bool)> {
        let v = attr(name)?.trim();
        let units: [(&str, f32); 7] = [
            ("px", 1.0),
            ("pt", 96.0 / 72.0),
            ("pc", 16.0),
            ("mm", 96.0 / 25.4),
            ("cm", 96.0 / 2.54),
            ("in", 96.0),
            ("%", 0.01),
        ];
        for (unit, k) in units {
            if let Some(n) = v.strip_suffix(unit) {
                return Some((n.trim().parse::<f32>().ok()? * k, unit == "%"));
            }
        }
        Some((v.parse().ok()?, false))
    };
    let view_box: Option<Vec<f32>> = attr("viewBox").map(|v| {
        v.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect()
    });
    let view = view_box.filter(|v| v.len() == 4 && v[2] > 0.0 && v[3] > 0.0);
    let (mut w, w_pct) = length("width").unwrap_or((-1.0, false));
    let (mut h, h_pct) = length("height").unwrap_or((-1.0, false));
    match &view {
        Some(v) => {
            w = if w < 0.0 {
                v[2]
            } else if w_pct {
                w * v[2]
            } else {
                w
            };
            h = if h < 0.0 {
                v[3]
            } else if h_pct {
                h * v[3]
            } else {
                h
            };
        }
        None if w < 0.0 && h < 0.0 => (w, h) = (0.0, 0.0),
        None if w < 0.0 => w = h,
        None if h < 0.0 => h = w,
        None => {}
    }
    let round = |v: f32| (v + 0.5).max(0.0) as u32;
    Some((round(w), round(h)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_format_is_sized_from_its_header() {
        let mut png_bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png_bytes.extend(640u32.to_be_bytes());
        png_bytes.extend(480u32.to_be_bytes());
        assert_eq!(image_size(&png_bytes), Some((640, 480)));
        // A JPEG: SOI, an APP0 segment, then a baseline frame header.
        let jpeg_bytes = [
            0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0x01, 0x2c, 0x03,
            0x20, 3,
        ];
        assert_eq!(image_size(&jpeg_bytes), Some((800, 300)));
        let gif_bytes = b"GIF89a\x20\x03\x58\x02";
        assert_eq!(image_size(gif_bytes), Some((800, 600)));
        let svg_bytes =
            br#"<?xml version="1.0"?><svg xmlns="x" width="2in" height="150">"#;
        assert_eq!(image_size(svg_bytes), Some((192, 150)));
        let view = br#"<svg viewBox="0 0 1000 700.4" height="50%">"#;
        assert_eq!(image_size(view), Some((1000, 350)));
        let square = br#"<svg  width="120">"#;
        assert_eq!(image_size(square), Some((120, 120)));
        assert_eq!(image_size(b"not an image"), None);
        // A JPEG cut before its frame header needs more bytes.
        assert!(may_need_more(&jpeg_bytes[..8]));
        assert!(!may_need_more(&jpeg_bytes));
    }
}
