//! Text measurement with the shipped fonts: how wide a line of text is drawn and how tall
//! its box is, so that text can be fitted to a counter and kept clear of marks.
//!
//! Widths are the sum of glyph advances without kerning, which is never narrower than
//! what resvg draws (kerning only tightens Liberation Sans), so text measured to fit
//! does fit.

use std::sync::OnceLock;

use ttf_parser::Face;

/// The weight of a run of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Weight {
    /// Liberation Sans Regular.
    #[default]
    Regular,
    /// Liberation Sans Bold.
    Bold,
}

impl Weight {
    /// The weight an SVG `font-weight` value selects (`bold`, `bolder`, or 600 and above).
    pub fn from_css(value: &str) -> Weight {
        let v = value.trim();
        let heavy = v.eq_ignore_ascii_case("bold")
            || v.eq_ignore_ascii_case("bolder")
            || v.parse::<u32>().is_ok_and(|w| w >= 600);
        if heavy { Weight::Bold } else { Weight::Regular }
    }
}

fn face(weight: Weight) -> Option<&'static Face<'static>> {
    static FACES: OnceLock<(Option<Face<'static>>, Option<Face<'static>>)> =
        OnceLock::new();
    let (regular, bold) = FACES.get_or_init(|| {
        (
            Face::parse(crate::fonts::REGULAR, 0).ok(),
            Face::parse(crate::fonts::BOLD, 0).ok(),
        )
    });
    match weight {
        Weight::Regular => regular.as_ref(),
        Weight::Bold => bold.as_ref(),
    }
}

/// Width of `text` drawn at `size` (user units per em) in the given weight.
pub fn text_width(text: &str, size: f64, weight: Weight) -> f64 {
    let Some(face) = face(weight) else { return 0.0 };
    let upem = f64::from(face.units_per_em());
    let fallback = face.glyph_index('?');
    let units: f64 = text
        .chars()
        .filter_map(|c| face.glyph_index(c).or(fallback))
        .map(|g| f64::from(face.glyph_hor_advance(g).unwrap_or(0)))
        .sum();
    units / upem * size
}

/// Breaks `text` into lines no wider than `width` at `size`, at spaces; a word wider than
/// the line stands on a line of its own. Empty text is one empty line.
pub fn wrap(text: &str, width: f64, size: f64, weight: Weight) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate =
            if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if !line.is_empty() && text_width(&candidate, size, weight) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Ascent above the baseline and descent below it, for text at `size` (both positive).
pub fn line_extent(size: f64, weight: Weight) -> (f64, f64) {
    let Some(face) = face(weight) else { return (size, 0.0) };
    let upem = f64::from(face.units_per_em());
    (f64::from(face.ascender()) / upem * size, -f64::from(face.descender()) / upem * size)
}

/// How far the ink of `text` at `size` rises above the baseline and falls below it (both
/// positive, zero for text without ink): its glyphs' outlines, not the font's line box.
pub fn ink_extent(text: &str, size: f64, weight: Weight) -> (f64, f64) {
    let Some(face) = face(weight) else { return line_extent(size, weight) };
    let upem = f64::from(face.units_per_em());
    let fallback = face.glyph_index('?');
    let (up, down) = text
        .chars()
        .filter_map(|c| face.glyph_index(c).or(fallback))
        .filter_map(|g| face.glyph_bounding_box(g))
        .fold((0i32, 0i32), |(up, down), b| {
            (up.max(i32::from(b.y_max)), down.max(-i32::from(b.y_min)))
        });
    (f64::from(up) / upem * size, f64::from(down) / upem * size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_scale_with_size_and_bold_is_wider() {
        let a = text_width("Gazala 1942", 10.0, Weight::Regular);
        assert!(a > 40.0 && a < 70.0, "{a}");
        assert!(
            (text_width("Gazala 1942", 20.0, Weight::Regular) - 2.0 * a).abs() < 1e-9
        );
        assert!(
            text_width("Gazala", 10.0, Weight::Bold)
                > text_width("Gazala", 10.0, Weight::Regular)
        );
        // Digits are as wide as each other, half an em.
        assert!((text_width("0", 10.0, Weight::Bold) - 5.56).abs() < 0.01);
        let (up, down) = line_extent(10.0, Weight::Regular);
        assert!((up - 9.05).abs() < 0.01 && (down - 2.12).abs() < 0.01, "{up} {down}");
    }

    #[test]
    fn ink_is_the_glyphs_own_height() {
        // Digits stand on the baseline and rise to about 0.7 em; parentheses go below.
        let (up, down) = ink_extent("4-4-10", 10.0, Weight::Bold);
        assert!((6.5..7.5).contains(&up) && down < 0.3, "{up} {down}");
        let (_, below) = ink_extent("(3) 4", 10.0, Weight::Bold);
        assert!(below > 1.5, "{below}");
        assert_eq!(ink_extent(" ", 10.0, Weight::Regular), (0.0, 0.0));
    }

    #[test]
    fn weights_read_as_css_says() {
        assert_eq!(Weight::from_css("bold"), Weight::Bold);
        assert_eq!(Weight::from_css(" 700"), Weight::Bold);
        assert_eq!(Weight::from_css("normal"), Weight::Regular);
        assert_eq!(Weight::from_css("400"), Weight::Regular);
    }

    #[test]
    fn text_wraps_at_spaces_within_the_width() {
        let text = "Units may enter enemy Minefields only with a CD of 1-7.";
        let lines = wrap(text, 120.0, 14.0, Weight::Regular);
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| text_width(l, 14.0, Weight::Regular) <= 120.0));
        assert_eq!(lines.join(" "), text);
        // A word wider than the line stands alone; empty text is one empty line.
        assert_eq!(wrap("Minefields x", 10.0, 14.0, Weight::Bold), ["Minefields", "x"]);
        assert_eq!(wrap("", 100.0, 14.0, Weight::Regular), [""]);
    }
}
