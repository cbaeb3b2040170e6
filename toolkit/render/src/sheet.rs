//! Print sheets: counters laid out on pages, fronts and mirrored backs that register when
//! printed duplex, with bleed, crop marks, registration marks and an optional fold layout.
//!
//! [`layout`] is pure geometry (inches from the page's top-left corner), so tests can
//! check that every back lands behind its front; [`page_svg`] draws a page and
//! [`pdf`] writes pages to a PDF with the fonts embedded.

use std::fmt::Write;

use muster_model::{Game, Unit};

use crate::counter::{Face, counter_fragment};
use crate::svg::{esc, n};

const PX: f64 = 96.0;

/// Which pages carry registration marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Registration {
    /// None.
    None,
    /// Front pages only.
    Fronts,
    /// Fronts and backs. Default.
    #[default]
    Both,
}

/// Sheet options. Lengths are in inches.
#[derive(Debug, Clone)]
pub struct SheetOptions {
    /// Counter side length (cut size). Default: 0.625 (5/8").
    pub counter_in: f64,
    /// Page width and height. Default: US Letter, 8.5 by 11.
    pub page_in: (f64, f64),
    /// Margin on every side of the page. Default: 0.5.
    pub margin_in: f64,
    /// Gap between neighbouring counters' bleed areas. Default: 0.
    pub spacing_in: f64,
    /// Art printed beyond the cut line on every side. Default: 0.0625 (1/16").
    pub bleed_in: f64,
    /// Crop marks at every cut line. Default: true.
    pub crop_marks: bool,
    /// Registration marks. Default: on fronts and backs.
    pub registration: Registration,
    /// Shift of back pages, to correct a printer's duplex misregistration. Default: none.
    pub back_offset_in: (f64, f64),
    /// Fronts and mirrored backs on one page, to be folded along the middle. Default: false.
    pub fold: bool,
}

impl Default for SheetOptions {
    fn default() -> Self {
        SheetOptions {
            counter_in: 0.625,
            page_in: (8.5, 11.0),
            margin_in: 0.5,
            spacing_in: 0.0,
            bleed_in: 0.0625,
            crop_marks: true,
            registration: Registration::Both,
            back_offset_in: (0.0, 0.0),
            fold: false,
        }
    }
}

/// Why counters cannot be laid out.
#[derive(Debug, Clone, PartialEq)]
pub enum LayoutError {
    /// Not one counter fits inside the margins.
    NothingFits,
    /// A length is negative, zero where it must not be, or not a number.
    BadLength(&'static str),
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::NothingFits => {
                write!(f, "no counter fits on the page inside the margins")
            }
            LayoutError::BadLength(what) => {
                write!(f, "the {what} is not a usable length")
            }
        }
    }
}

impl std::error::Error for LayoutError {}

/// What a page holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    /// Fronts.
    Fronts,
    /// Backs, mirrored left to right.
    Backs,
    /// Fronts on the left half, mirrored backs on the right, fold in the middle.
    Folded,
}

/// One counter side at a place on a page: the cut square's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    /// Index into the list of counters laid out.
    pub counter: usize,
    /// Which side.
    pub face: Face,
    /// Left edge of the cut square, inches from the page's left edge.
    pub x: f64,
    /// Top edge of the cut square, inches from the page's top edge.
    pub y: f64,
}

/// A laid-out page.
#[derive(Debug, Clone)]
pub struct Page {
    /// What the page holds.
    pub kind: PageKind,
    /// The counters on it.
    pub slots: Vec<Slot>,
}

/// Lays out `counters` (each with its number of sides, 1 or 2) on pages.
pub fn layout(sides: &[usize], o: &SheetOptions) -> Result<Vec<Page>, LayoutError> {
    let ok = |v: f64| v.is_finite() && v >= 0.0;
    for (v, what) in [
        (o.counter_in, "counter size"),
        (o.margin_in, "margin"),
        (o.spacing_in, "spacing"),
        (o.bleed_in, "bleed"),
        (o.page_in.0, "page width"),
        (o.page_in.1, "page height"),
    ] {
        if !ok(v) || v > 200.0 {
            return Err(LayoutError::BadLength(what));
        }
    }
    if o.counter_in < 0.1 {
        return Err(LayoutError::BadLength("counter size"));
    }
    let pitch = o.counter_in + 2.0 * o.bleed_in + o.spacing_in;
    let (pw, ph) = o.page_in;
    let area_w =
        if o.fold { pw / 2.0 - 2.0 * o.margin_in } else { pw - 2.0 * o.margin_in };
    let area_h = ph - 2.0 * o.margin_in;
    let fit = |area: f64| ((area + o.spacing_in) / pitch).floor().max(0.0) as usize;
    let (cols, rows) = (fit(area_w), fit(area_h));
    if cols == 0 || rows == 0 {
        return Err(LayoutError::NothingFits);
    }
    let per_page = cols * rows;
    // Centre the grid in its area.
    let grid_w = cols as f64 * pitch - o.spacing_in;
    let grid_h = rows as f64 * pitch - o.spacing_in;
    let left = o.margin_in + (area_w - grid_w) / 2.0 + o.bleed_in;
    let top = o.margin_in + (area_h - grid_h) / 2.0 + o.bleed_in;
    let mirror = |x: f64| pw - x - o.counter_in;
    let mut pages = Vec::new();
    for chunk in (0..sides.len()).collect::<Vec<_>>().chunks(per_page) {
        let mut fronts = Vec::new();
        let mut backs = Vec::new();
        for (k, &counter) in chunk.iter().enumerate() {
            let (c, r) = (k % cols, k / cols);
            let x = left + c as f64 * pitch;
            let y = top + r as f64 * pitch;
            fronts.push(Slot { counter, face: Face::Front, x, y });
            if sides[counter] > 1 {
                let (bx, by) = if o.fold {
                    (mirror(x), y)
                } else {
                    (mirror(x) + o.back_offset_in.0, y + o.back_offset_in.1)
                };
                backs.push(Slot { counter, face: Face::Back, x: bx, y: by });
            }
        }
        if o.fold {
            fronts.extend(backs);
            pages.push(Page { kind: PageKind::Folded, slots: fronts });
        } else {
            pages.push(Page { kind: PageKind::Fronts, slots: fronts });
            if !backs.is_empty() {
                pages.push(Page { kind: PageKind::Backs, slots: backs });
            }
        }
    }
    Ok(pages)
}

/// The counters of a game in sheet order: grouped by side (as `game.yaml` declares
/// them), then in manifest order (which is by formation); each counter `count` times.
pub fn sheet_order(game: &Game) -> Vec<&Unit> {
    let mut out = Vec::new();
    for side in &game.meta.sides {
        for u in game.units.iter().filter(|u| u.side == side.id.v) {
            for _ in 0..u.count.max(1) {
                out.push(u);
            }
        }
    }
    for m in &game.markers {
        for _ in 0..m.count.clamp(1, 50) {
            out.push(m);
        }
    }
    out
}

/// Draws one page as SVG, with what the options ask for around the counters.
pub fn page_svg(game: &Game, units: &[&Unit], page: &Page, o: &SheetOptions) -> String {
    let (pw, ph) = o.page_in;
    let mut s = String::with_capacity(1 << 18);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}in" height="{h}in" viewBox="0 0 {vw} {vh}" font-family="{f}">"#,
        w = n(pw),
        h = n(ph),
        vw = n(pw * PX),
        vh = n(ph * PX),
        f = crate::fonts::FAMILY
    );
    let b = o.bleed_in / o.counter_in * 100.0;
    for slot in &page.slots {
        let art = counter_fragment(game, units[slot.counter], slot.face, b);
        let _ = write!(
            s,
            r#"<svg x="{}" y="{}" width="{}" height="{}" viewBox="{} {} {} {}">{}</svg>"#,
            n((slot.x - o.bleed_in) * PX),
            n((slot.y - o.bleed_in) * PX),
            n((o.counter_in + 2.0 * o.bleed_in) * PX),
            n((o.counter_in + 2.0 * o.bleed_in) * PX),
            n(-b),
            n(-b),
            n(100.0 + 2.0 * b),
            n(100.0 + 2.0 * b),
            art.fragment
        );
    }
    let mark = r##"stroke="#000000" stroke-width="0.5" fill="none""##;
    if o.crop_marks {
        let mut xs: Vec<f64> =
            page.slots.iter().flat_map(|sl| [sl.x, sl.x + o.counter_in]).collect();
        let mut ys: Vec<f64> =
            page.slots.iter().flat_map(|sl| [sl.y, sl.y + o.counter_in]).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        ys.sort_by(f64::total_cmp);
        ys.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        let (top, bottom) =
            (ys.first().copied().unwrap_or(0.0), ys.last().copied().unwrap_or(0.0));
        let (left, right) =
            (xs.first().copied().unwrap_or(0.0), xs.last().copied().unwrap_or(0.0));
        let gap = o.bleed_in + 0.05;
        let len = 0.2;
        let mut line = |x1: f64, y1: f64, x2: f64, y2: f64| {
            let _ = write!(
                s,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {mark}/>"#,
                n(x1 * PX),
                n(y1 * PX),
                n(x2 * PX),
                n(y2 * PX)
            );
        };
        for &x in &xs {
            line(x, top - gap - len, x, top - gap);
            line(x, bottom + gap, x, bottom + gap + len);
        }
        for &y in &ys {
            line(left - gap - len, y, left - gap, y);
            line(right + gap, y, right + gap + len, y);
        }
    }
    let registration = match o.registration {
        Registration::None => false,
        Registration::Fronts => page.kind != PageKind::Backs,
        Registration::Both => true,
    };
    if registration {
        let (dx, dy) =
            if page.kind == PageKind::Backs { o.back_offset_in } else { (0.0, 0.0) };
        let m = o.margin_in / 2.0;
        for (x, y) in [(m, m), (pw - m, m), (m, ph - m), (pw - m, ph - m)] {
            let (x, y) = ((x + dx) * PX, (y + dy) * PX);
            let r = 0.08 * PX;
            let _ =
                write!(s, r#"<circle cx="{}" cy="{}" r="{}" {mark}/>"#, n(x), n(y), n(r));
            let _ = write!(
                s,
                r#"<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" {mark}/>"#,
                n(x - r * 1.5),
                n(y),
                n(x + r * 1.5)
            );
            let _ = write!(
                s,
                r#"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" {mark}/>"#,
                n(x),
                n(y - r * 1.5),
                n(y + r * 1.5)
            );
        }
    }
    if page.kind == PageKind::Folded {
        let _ = write!(
            s,
            r##"<line x1="{0}" y1="0" x2="{0}" y2="{1}" stroke="#000000" stroke-width="0.6" stroke-dasharray="6 4"/>"##,
            n(pw / 2.0 * PX),
            n(ph * PX)
        );
    }
    let label = match page.kind {
        PageKind::Fronts => "fronts",
        PageKind::Backs => "backs (mirrored for duplex, flip on the long edge)",
        PageKind::Folded => "fronts | backs: fold on the dashed line",
    };
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="7" fill="#555555">{} — {}</text>"##,
        n(0.25 * PX),
        n((ph - 0.15) * PX),
        esc(&game.meta.title),
        label
    );
    s.push_str("</svg>\n");
    s
}

/// Writes pages to a PDF: vector art, fonts subset and embedded, no timestamps (the same
/// pages give the same bytes).
pub fn pdf(pages: &[String], page_in: (f64, f64)) -> Result<Vec<u8>, String> {
    use krilla::Document;
    use krilla::geom::Size;
    use krilla::page::PageSettings;
    use krilla_svg::{SurfaceExt, SvgSettings};

    let (w, h) = ((page_in.0 * 72.0) as f32, (page_in.1 * 72.0) as f32);
    let size = Size::from_wh(w, h).ok_or("bad page size")?;
    let mut doc = Document::new();
    for svg in pages {
        let tree = crate::raster::parse(svg).map_err(|e| e.to_string())?;
        let mut page = doc.start_page_with(PageSettings::new(size));
        let mut surface = page.surface();
        surface.draw_svg(
            &tree,
            size,
            SvgSettings { embed_text: true, ..Default::default() },
        );
        surface.finish();
        page.finish();
    }
    doc.finish().map_err(|e| format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_back_lands_behind_its_front() {
        for (offset, fold) in
            [((0.0, 0.0), false), ((0.03, -0.02), false), ((0.0, 0.0), true)]
        {
            let o = SheetOptions { back_offset_in: offset, fold, ..Default::default() };
            let sides: Vec<usize> =
                (0..300).map(|i| if i % 7 == 0 { 1 } else { 2 }).collect();
            let pages = layout(&sides, &o).unwrap();
            let mut backs = 0;
            for (i, page) in pages.iter().enumerate() {
                let fronts: Vec<&Slot> =
                    page.slots.iter().filter(|s| s.face == Face::Front).collect();
                let back_page = if fold {
                    page
                } else {
                    match pages.get(i + 1) {
                        Some(p) if p.kind == PageKind::Backs => p,
                        _ => continue,
                    }
                };
                if !fold && page.kind != PageKind::Fronts {
                    continue;
                }
                for f in fronts {
                    let Some(b) = back_page
                        .slots
                        .iter()
                        .find(|s| s.face == Face::Back && s.counter == f.counter)
                    else {
                        assert_eq!(sides[f.counter], 1);
                        continue;
                    };
                    backs += 1;
                    // Flipping the sheet over its vertical axis maps x to page width - x.
                    let (pw, _) = o.page_in;
                    let (dx, dy) = if fold { (0.0, 0.0) } else { offset };
                    let flipped_left = pw - (b.x - dx) - o.counter_in;
                    assert!((flipped_left - f.x).abs() < 1e-9, "counter {}", f.counter);
                    assert!((b.y - dy - f.y).abs() < 1e-9);
                    if fold {
                        assert!(f.x + o.counter_in <= pw / 2.0 && b.x >= pw / 2.0);
                    }
                }
            }
            assert_eq!(backs, sides.iter().filter(|s| **s == 2).count());
        }
    }

    #[test]
    fn counters_stay_inside_the_margins_with_their_bleed() {
        let o = SheetOptions {
            page_in: (8.27, 11.69),
            counter_in: 0.75,
            spacing_in: 0.1,
            ..Default::default()
        };
        let pages = layout(&[2; 100], &o).unwrap();
        for p in &pages {
            for s in &p.slots {
                assert!(s.x - o.bleed_in >= o.margin_in - 1e-9);
                assert!(
                    s.x + o.counter_in + o.bleed_in <= o.page_in.0 - o.margin_in + 1e-9
                );
                assert!(s.y - o.bleed_in >= o.margin_in - 1e-9);
                assert!(
                    s.y + o.counter_in + o.bleed_in <= o.page_in.1 - o.margin_in + 1e-9
                );
            }
        }
    }

    #[test]
    fn absurd_sizes_are_refused() {
        let o = SheetOptions { counter_in: 20.0, ..Default::default() };
        assert_eq!(layout(&[2], &o).unwrap_err(), LayoutError::NothingFits);
        let o = SheetOptions { bleed_in: f64::NAN, ..Default::default() };
        assert!(layout(&[2], &o).is_err());
    }
}
