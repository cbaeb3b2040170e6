//! A small SVG writer: numbers with fixed precision and escaped text, so that the same
//! scene always gives the same bytes.

use std::fmt::Write;

/// Formats a coordinate with two decimals, without a trailing `-0.00`: what
/// `format!("{v:.2}")` prints (the exact value rounded half to even), worked out from the
/// hundredths as an integer where that cannot differ.
pub(crate) fn n(v: f64) -> String {
    match hundredths(v) {
        Some(0) => "0.00".into(),
        Some(h) => {
            let (sign, a) = if h < 0 { ("-", h.unsigned_abs()) } else { ("", h as u64) };
            let mut s = String::with_capacity(24);
            let _ = write!(s, "{sign}{}.{:02}", a / 100, a % 100);
            s
        }
        None => {
            let s = format!("{v:.2}");
            if s == "-0.00" { "0.00".into() } else { s }
        }
    }
}

/// `v` in hundredths, rounded as `{:.2}` rounds it, when that is sure from `v × 100`
/// computed in floating point: the product is within half a unit in its last place of the
/// exact one, so only a fraction that close to one half could round the other way.
fn hundredths(v: f64) -> Option<i64> {
    let x = v * 100.0;
    if !x.is_finite() || x.abs() >= 1e15 {
        return None;
    }
    let fraction = (x - x.trunc()).abs();
    // Well above the product's rounding error (2⁻⁵³ of it).
    let margin = x.abs() * 1e-15 + 1e-300;
    if (fraction - 0.5).abs() <= margin {
        return None;
    }
    Some(x.round() as i64)
}

/// Escapes text for XML content and attributes (SVG, XMP): [`crate::markup::attribute`].
pub(crate) fn esc(s: &str) -> String {
    crate::markup::attribute(s)
}

/// Bytes as a `data:` URL of the given media type (base64).
pub(crate) fn data_url(media_type: &str, bytes: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:{media_type};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// An SVG document being written.
pub(crate) struct Svg {
    pub out: String,
}

impl Svg {
    /// Starts a document of `w` by `h` inches; user units are CSS pixels (96 per inch).
    pub fn new(w_in: f64, h_in: f64) -> Svg {
        let mut out = String::with_capacity(1 << 20);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}in" height="{h}in" viewBox="0 0 {vw} {vh}" font-family="{f}">"#,
            w = n(w_in),
            h = n(h_in),
            vw = n(w_in * 96.0),
            vh = n(h_in * 96.0),
            f = crate::fonts::FAMILY,
        );
        Svg { out }
    }

    pub fn polygon(&mut self, pts: &[(f64, f64)], attrs: &str) {
        self.out.push_str("<polygon points=\"");
        for (i, (x, y)) in pts.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            let _ = write!(self.out, "{},{}", n(*x), n(*y));
        }
        let _ = write!(self.out, "\" {attrs}/>");
    }

    pub fn polyline(&mut self, pts: &[(f64, f64)], attrs: &str) {
        self.out.push_str("<polyline fill=\"none\" points=\"");
        for (i, (x, y)) in pts.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            let _ = write!(self.out, "{},{}", n(*x), n(*y));
        }
        let _ = write!(self.out, "\" {attrs}/>");
    }

    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), attrs: &str) {
        let _ = write!(
            self.out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {attrs}/>"#,
            n(a.0),
            n(a.1),
            n(b.0),
            n(b.1)
        );
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, attrs: &str) {
        let _ = write!(
            self.out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" {attrs}/>"#,
            n(x),
            n(y),
            n(w),
            n(h)
        );
    }

    /// An image filling `(x, y, width, height)`, stretched to it, with `attrs` (an `id`,
    /// say) written before its `href`.
    pub fn image(&mut self, (x, y, w, h): (f64, f64, f64, f64), attrs: &str, href: &str) {
        let attrs = if attrs.is_empty() { String::new() } else { format!("{attrs} ") };
        let _ = write!(
            self.out,
            r#"<image x="{}" y="{}" width="{}" height="{}" preserveAspectRatio="none" {attrs}href="{href}"/>"#,
            n(x),
            n(y),
            n(w),
            n(h)
        );
    }

    pub fn circle(&mut self, c: (f64, f64), r: f64, attrs: &str) {
        let _ = write!(
            self.out,
            r#"<circle cx="{}" cy="{}" r="{}" {attrs}/>"#,
            n(c.0),
            n(c.1),
            n(r)
        );
    }

    pub fn text(
        &mut self,
        at: (f64, f64),
        size: f64,
        anchor: &str,
        attrs: &str,
        text: &str,
    ) {
        let _ = write!(
            self.out,
            r#"<text x="{}" y="{}" font-size="{}" text-anchor="{anchor}" {attrs}>{}</text>"#,
            n(at.0),
            n(at.1),
            n(size),
            esc(text)
        );
    }

    /// A path with the given outline data (`M0 0 L10 0`).
    pub fn path(&mut self, d: &str, attrs: &str) {
        let _ = write!(self.out, r#"<path d="{d}" {attrs}/>"#);
    }

    /// Opens a group (`<g attrs>`); [`Svg::close`] ends it.
    pub fn open(&mut self, tag: &str, attrs: &str) {
        let _ = write!(self.out, "<{tag} {attrs}>");
    }

    /// Closes what [`Svg::open`] opened.
    pub fn close(&mut self, tag: &str) {
        let _ = write!(self.out, "</{tag}>");
    }

    /// A copy of the element with id `id`, moved to `at` and scaled by `scale`.
    pub fn use_at(&mut self, id: &str, at: (f64, f64), scale: f64) {
        let _ = write!(
            self.out,
            r##"<use href="#{id}" transform="translate({} {}) scale({scale:.4})"/>"##,
            n(at.0),
            n(at.1),
        );
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::n;

    /// What `n` must print: `format!` with two decimals, `-0.00` as `0.00`.
    fn reference(v: f64) -> String {
        let s = format!("{v:.2}");
        if s == "-0.00" { "0.00".into() } else { s }
    }

    #[test]
    fn coordinates_print_as_format_prints_them_with_two_decimals() {
        // Exact ties (eighths), near ties that are not ties in binary, signs, zero, large
        // and odd values.
        let mut values = vec![
            0.0,
            -0.0,
            0.125,
            0.375,
            -0.625,
            2.675,
            1.005,
            1.015,
            -1.005,
            0.004999,
            -0.004,
            -0.005,
            -0.006,
            99.995,
            1e13 + 0.125,
            1e15,
            -1e16,
            3.0e-320,
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        // Every thousandth and eighth over a span, and a deterministic spread of others.
        values.extend((-20_000..20_000).map(|k| f64::from(k) / 1000.0));
        values.extend((-4000..4000).map(|k| f64::from(k) / 8.0 + 0.005));
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let scale = 10f64.powi((x % 12) as i32 - 3);
            values.push((x >> 11) as f64 / (1u64 << 53) as f64 * scale - scale / 2.0);
        }
        for v in values {
            assert_eq!(n(v), reference(v), "{v:?}");
        }
    }
}
