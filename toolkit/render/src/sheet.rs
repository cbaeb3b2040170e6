//! Print sheets: counters laid out on pages, fronts and mirrored backs that register when
//! printed duplex, with bleed, crop marks, registration marks and an optional fold layout.
//!
//! [`layout`] is pure geometry (inches from the page's top-left corner), so tests can
//! check that every back lands behind its front; [`page_svg`] draws a page and
//! [`pdf`] writes pages to a PDF/X-4 document with the fonts embedded, each page's trim
//! and bleed given by [`print_boxes`].

use std::fmt::Write;

use muster_model::{Game, Unit};

use crate::counter::Face;
use crate::face_arts::FaceArts;
pub use crate::pdfx::DocInfo;
use crate::svg::{esc, n};
use crate::template::Margins;

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
    /// Art printed beyond the cut line on every side. Default: 0.125 (1/8", what print
    /// shops ask for).
    pub bleed_in: f64,
    /// Margin inside each cut line that no text or symbol of a counter enters (the safe
    /// area), so that a cutter's drift trims none. Default: 0.0625 (1/16").
    pub safe_in: f64,
    /// Neighbouring counters share one cut line (no gap, no double cuts); bleed is printed
    /// only at the outer edge of each page's block of counters. Default: false (every
    /// counter has its own cut lines and bleed on every side).
    pub shared_cuts: bool,
    /// Crop marks at every cut line. Default: true.
    pub crop_marks: bool,
    /// Registration marks. Default: on fronts and backs.
    pub registration: Registration,
    /// Shift of back pages, to correct a printer's duplex misregistration. Default: none.
    pub back_offset_in: (f64, f64),
    /// Fronts and mirrored backs on one page, to be folded along the middle. Default: false.
    pub fold: bool,
    /// A die line over the PDF's pages of fronts: every cut path stroked in the
    /// `CutContour` spot colour ([`crate::die_line`]). Default: false.
    pub die_line: bool,
}

impl Default for SheetOptions {
    fn default() -> Self {
        SheetOptions {
            counter_in: 0.625,
            page_in: (8.5, 11.0),
            margin_in: 0.5,
            spacing_in: 0.0,
            bleed_in: 0.125,
            safe_in: 0.0625,
            shared_cuts: false,
            crop_marks: true,
            registration: Registration::Both,
            back_offset_in: (0.0, 0.0),
            fold: false,
            die_line: false,
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
    /// Shared cut lines were asked for with a gap between counters.
    SpacingWithSharedCuts,
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
            LayoutError::SpacingWithSharedCuts => write!(
                f,
                "counters that share cut lines cannot have spacing between them"
            ),
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
        (o.safe_in, "safe area"),
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
    if o.shared_cuts && o.spacing_in > 0.0 {
        return Err(LayoutError::SpacingWithSharedCuts);
    }
    // Counters with their own cut lines sit a bleed apart from each other on both sides;
    // counters that share cut lines abut, with one bleed around the whole block.
    let (pitch, outer) = if o.shared_cuts {
        (o.counter_in, 2.0 * o.bleed_in)
    } else {
        (o.counter_in + 2.0 * o.bleed_in + o.spacing_in, -o.spacing_in)
    };
    let (pw, ph) = o.page_in;
    let area_w =
        if o.fold { pw / 2.0 - 2.0 * o.margin_in } else { pw - 2.0 * o.margin_in };
    let area_h = ph - 2.0 * o.margin_in;
    let fit = |area: f64| ((area - outer) / pitch + 1e-9).floor().max(0.0) as usize;
    let (cols, rows) = (fit(area_w), fit(area_h));
    if cols == 0 || rows == 0 {
        return Err(LayoutError::NothingFits);
    }
    let per_page = cols * rows;
    // Centre the grid in its area.
    let grid_w = cols as f64 * pitch + outer;
    let grid_h = rows as f64 * pitch + outer;
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

/// A rectangle on a page, in inches from the page's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x0: f64,
    /// Top edge.
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Bottom edge.
    pub y1: f64,
}

impl Rect {
    /// Whether the two rectangles share any area (touching edges do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// The rectangle grown by `d` on every side.
    pub fn grown(&self, d: f64) -> Rect {
        Rect { x0: self.x0 - d, y0: self.y0 - d, x1: self.x1 + d, y1: self.y1 + d }
    }

    fn width(&self) -> f64 {
        self.x1 - self.x0
    }

    fn height(&self) -> f64 {
        self.y1 - self.y0
    }
}

/// How far a counter's art reaches under a neighbour drawn after it, so that the
/// neighbour's antialiased edge lies over art rather than over the white page: without
/// it, two counters that meet on a fraction of a pixel leave a faint light seam.
const UNDERLAP_IN: f64 = 0.01;
/// Width of crop and registration mark lines, in inches (half a CSS pixel).
const MARK_WIDTH_IN: f64 = 0.5 / PX;
/// Radius of a registration mark's circle; its cross reaches one and a half radii.
const REGISTRATION_R_IN: f64 = 0.08;
/// Length of a crop mark, and its distance beyond the bleed.
const CROP_LEN_IN: f64 = 0.2;
const CROP_GAP_IN: f64 = 0.05;
/// Size of the page footer in points.
pub const FOOTER_PT: f64 = 7.0;
/// Closest the footer comes to a mark, a counter or the edge of the paper.
const FOOTER_CLEARANCE_IN: f64 = 0.04;
const PRINTABLE_EDGE_IN: f64 = 0.1;

/// The page footer: its text, where its baseline starts, and the box its glyphs fill.
#[derive(Debug, Clone, PartialEq)]
pub struct Footer {
    /// The text.
    pub text: String,
    /// Start of the baseline, inches.
    pub at: (f64, f64),
    /// Size in inches.
    pub size_in: f64,
    /// The box from ascent to descent over the text's width.
    pub bbox: Rect,
}

/// Everything on a page besides the art of the counters, placed: each counter's art
/// area, the marks and the footer. [`page_svg`] draws exactly this.
#[derive(Debug, Clone)]
pub struct PageGeometry {
    /// For each slot, where its art is drawn: the cut square with bleed on the sides
    /// where it meets no neighbour (every side unless cut lines are shared), reaching
    /// a hundredth of an inch under neighbours drawn after it.
    pub art: Vec<Rect>,
    /// For each slot, the area its art fills once every later counter is drawn over it.
    pub visible: Vec<Rect>,
    /// Crop mark lines, each from one end to the other.
    pub crop_marks: Vec<((f64, f64), (f64, f64))>,
    /// Centres of the registration marks.
    pub registration: Vec<(f64, f64)>,
    /// The dashed fold line's x, on folded pages.
    pub fold: Option<f64>,
    /// The footer, when there is room for it clear of every mark and counter.
    pub footer: Option<Footer>,
}

impl PageGeometry {
    /// The boxes the marks cover, their line width included: crop marks, registration
    /// marks and the fold line.
    pub fn mark_boxes(&self, o: &SheetOptions) -> Vec<Rect> {
        let half = MARK_WIDTH_IN / 2.0;
        let mut out: Vec<Rect> = self
            .crop_marks
            .iter()
            .map(|&((x0, y0), (x1, y1))| {
                Rect { x0: x0.min(x1), y0: y0.min(y1), x1: x0.max(x1), y1: y0.max(y1) }
                    .grown(half)
            })
            .collect();
        let reach = REGISTRATION_R_IN * 1.5 + half;
        out.extend(self.registration.iter().map(|&(x, y)| Rect {
            x0: x - reach,
            y0: y - reach,
            x1: x + reach,
            y1: y + reach,
        }));
        if let Some(x) = self.fold {
            out.push(Rect { x0: x - 0.005, y0: 0.0, x1: x + 0.005, y1: o.page_in.1 });
        }
        out
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// Places everything on a page around its counters; `footer` is the footer's text.
pub fn page_geometry(page: &Page, o: &SheetOptions, footer: &str) -> PageGeometry {
    let (pw, ph) = o.page_in;
    let c = o.counter_in;
    let b = o.bleed_in;
    let cut = |s: &Slot| Rect { x0: s.x, y0: s.y, x1: s.x + c, y1: s.y + c };
    // With shared cut lines a counter meets the neighbour whose cut square touches its
    // own; otherwise it meets the neighbour whose bleed touches its bleed.
    let reach = if o.shared_cuts { 0.0 } else { b };
    let meets = |a: &Slot, n: &Slot| -> [bool; 4] {
        let same_row = close(a.y, n.y);
        let same_col = close(a.x, n.x);
        [
            same_row && close(n.x + c + reach, a.x - reach),
            same_col && close(n.y + c + reach, a.y - reach),
            same_row && close(a.x + c + reach, n.x - reach),
            same_col && close(a.y + c + reach, n.y - reach),
        ]
    };
    let mut art = Vec::with_capacity(page.slots.len());
    let mut visible = Vec::with_capacity(page.slots.len());
    for (i, s) in page.slots.iter().enumerate() {
        // Per side (left, top, right, bottom): does a neighbour meet it, and is that
        // neighbour drawn later?
        let mut neighbour = [false; 4];
        let mut later = [false; 4];
        for (j, other) in page.slots.iter().enumerate() {
            if j == i {
                continue;
            }
            for (side, m) in meets(s, other).into_iter().enumerate() {
                if m {
                    neighbour[side] = true;
                    later[side] |= j > i;
                }
            }
        }
        let bleed = |side: usize| if o.shared_cuts && neighbour[side] { 0.0 } else { b };
        let r = cut(s);
        let shown = Rect {
            x0: r.x0 - bleed(0),
            y0: r.y0 - bleed(1),
            x1: r.x1 + bleed(2),
            y1: r.y1 + bleed(3),
        };
        let under = |side: usize| if later[side] { UNDERLAP_IN } else { 0.0 };
        art.push(Rect {
            x0: shown.x0 - under(0),
            y0: shown.y0 - under(1),
            x1: shown.x1 + under(2),
            y1: shown.y1 + under(3),
        });
        visible.push(shown);
    }

    let mut crop_marks = Vec::new();
    if o.crop_marks && !page.slots.is_empty() {
        let mut xs: Vec<f64> =
            page.slots.iter().flat_map(|sl| [sl.x, sl.x + c]).collect();
        let mut ys: Vec<f64> =
            page.slots.iter().flat_map(|sl| [sl.y, sl.y + c]).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| close(*a, *b));
        ys.sort_by(f64::total_cmp);
        ys.dedup_by(|a, b| close(*a, *b));
        let (top, bottom) =
            (ys.first().copied().unwrap_or(0.0), ys.last().copied().unwrap_or(0.0));
        let (left, right) =
            (xs.first().copied().unwrap_or(0.0), xs.last().copied().unwrap_or(0.0));
        let gap = b + CROP_GAP_IN;
        for &x in &xs {
            crop_marks.push(((x, top - gap - CROP_LEN_IN), (x, top - gap)));
            crop_marks.push(((x, bottom + gap), (x, bottom + gap + CROP_LEN_IN)));
        }
        for &y in &ys {
            crop_marks.push(((left - gap - CROP_LEN_IN, y), (left - gap, y)));
            crop_marks.push(((right + gap, y), (right + gap + CROP_LEN_IN, y)));
        }
    }
    let with_registration = match o.registration {
        Registration::None => false,
        Registration::Fronts => page.kind != PageKind::Backs,
        Registration::Both => true,
    };
    let mut registration = Vec::new();
    if with_registration {
        let (dx, dy) =
            if page.kind == PageKind::Backs { o.back_offset_in } else { (0.0, 0.0) };
        let m = o.margin_in / 2.0;
        for (x, y) in [(m, m), (pw - m, m), (m, ph - m), (pw - m, ph - m)] {
            registration.push((x + dx, y + dy));
        }
    }
    let fold = (page.kind == PageKind::Folded).then_some(pw / 2.0);
    let mut geometry =
        PageGeometry { art, visible, crop_marks, registration, fold, footer: None };
    geometry.footer = place_footer(&geometry, o, footer);
    geometry
}

/// The first place for the footer, along the bottom edge and then the top edge, that is
/// clear of every mark and counter and inside the printable area of the paper.
fn place_footer(g: &PageGeometry, o: &SheetOptions, text: &str) -> Option<Footer> {
    use crate::metrics::{Weight, line_extent, text_width};
    let (pw, ph) = o.page_in;
    let size = FOOTER_PT / 72.0;
    let w = text_width(text, size, Weight::Regular);
    let (up, down) = line_extent(size, Weight::Regular);
    let m = o.margin_in / 2.0;
    let keep_out: Vec<Rect> = g
        .mark_boxes(o)
        .into_iter()
        .chain(g.art.iter().copied())
        .map(|r| r.grown(FOOTER_CLEARANCE_IN))
        .collect();
    let mark_reach = REGISTRATION_R_IN * 1.5 + FOOTER_CLEARANCE_IN;
    let mut xs = vec![pw / 2.0 - w / 2.0];
    if o.fold {
        xs.extend([pw / 4.0 - w / 2.0, 3.0 * pw / 4.0 - w / 2.0]);
    }
    xs.extend([m + mark_reach, pw - m - mark_reach - w]);
    let baselines = [
        ph - m + (up - down) / 2.0,
        ph - PRINTABLE_EDGE_IN - down,
        m + (up - down) / 2.0,
        PRINTABLE_EDGE_IN + up,
    ];
    let inside = |r: &Rect| {
        r.x0 >= PRINTABLE_EDGE_IN
            && r.y0 >= PRINTABLE_EDGE_IN
            && r.x1 <= pw - PRINTABLE_EDGE_IN
            && r.y1 <= ph - PRINTABLE_EDGE_IN
    };
    baselines.iter().flat_map(|&y| xs.iter().map(move |&x| (x, y))).find_map(|(x, y)| {
        let bbox = Rect { x0: x, y0: y - up, x1: x + w, y1: y + down };
        (inside(&bbox) && !keep_out.iter().any(|k| k.overlaps(&bbox))).then(|| Footer {
            text: text.to_string(),
            at: (x, y),
            size_in: size,
            bbox,
        })
    })
}

/// The footer text of a page.
pub fn footer_text(game: &Game, kind: PageKind) -> String {
    let label = match kind {
        PageKind::Fronts => "fronts",
        PageKind::Backs => "backs (mirrored for duplex, flip on the long edge)",
        PageKind::Folded => "fronts | backs: fold on the dashed line",
    };
    format!("{} — {label}", game.meta.title)
}

/// How far a counter's art is drawn beyond its cut square on a page, in counter units
/// (100 across the cut square): the bleed and the underlap beneath a neighbour.
pub fn art_bleed(o: &SheetOptions) -> f64 {
    (o.bleed_in + UNDERLAP_IN) * (100.0 / o.counter_in)
}

/// The margins a counter's art is drawn with on a page, in counter units: the bleed of
/// [`art_bleed`] and the safe area.
pub fn art_margins(o: &SheetOptions) -> Margins {
    Margins { bleed: art_bleed(o), safe: o.safe_in * (100.0 / o.counter_in) }
}

/// Draws one page as SVG, with what the options ask for around the counters, each counter
/// side as `arts` holds it drawn with [`art_bleed`].
pub fn page_svg(
    game: &Game,
    units: &[&Unit],
    page: &Page,
    o: &SheetOptions,
    arts: &FaceArts,
) -> String {
    let (pw, ph) = o.page_in;
    let g = page_geometry(page, o, &footer_text(game, page.kind));
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
    // Counter units per inch: a counter is 100 units across its cut square.
    let unit = 100.0 / o.counter_in;
    // The background reaches as far as any art area does.
    let b = art_bleed(o);
    for (slot, area) in page.slots.iter().zip(&g.art) {
        let art = arts.bled(game, units[slot.counter], slot.face, b);
        // The viewport shows the counter's art over `area` only: a nested SVG clips to
        // its viewport.
        let _ = write!(
            s,
            r#"<svg x="{}" y="{}" width="{}" height="{}" viewBox="{} {} {} {}">{}</svg>"#,
            n(area.x0 * PX),
            n(area.y0 * PX),
            n(area.width() * PX),
            n(area.height() * PX),
            n((area.x0 - slot.x) * unit),
            n((area.y0 - slot.y) * unit),
            n(area.width() * unit),
            n(area.height() * unit),
            art
        );
    }
    let mark = r##"stroke="#000000" stroke-width="0.5" fill="none""##;
    for ((x1, y1), (x2, y2)) in &g.crop_marks {
        let _ = write!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {mark}/>"#,
            n(x1 * PX),
            n(y1 * PX),
            n(x2 * PX),
            n(y2 * PX)
        );
    }
    for (x, y) in &g.registration {
        let (x, y) = (x * PX, y * PX);
        let r = REGISTRATION_R_IN * PX;
        let _ = write!(s, r#"<circle cx="{}" cy="{}" r="{}" {mark}/>"#, n(x), n(y), n(r));
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
    if let Some(x) = g.fold {
        let _ = write!(
            s,
            r##"<line x1="{0}" y1="0" x2="{0}" y2="{1}" stroke="#000000" stroke-width="0.6" stroke-dasharray="6 4"/>"##,
            n(x * PX),
            n(ph * PX)
        );
    }
    if let Some(f) = &g.footer {
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="{}" fill="#555555">{}</text>"##,
            n(f.at.0 * PX),
            n(f.at.1 * PX),
            n(f.size_in * PX),
            esc(&f.text)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The boxes a print shop reads on a page, in inches from its top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintBoxes {
    /// Where the sheet is trimmed (PDF's TrimBox): around every cut line on the page.
    pub trim: Rect,
    /// How far the art runs past the trim (BleedBox): the trim grown by the bleed, inside
    /// the page. Crop and registration marks lie outside it.
    pub bleed: Rect,
}

impl PrintBoxes {
    /// Trim and bleed both the whole page `page_in` (width, height).
    pub fn whole(page_in: (f64, f64)) -> Self {
        let page = Rect { x0: 0.0, y0: 0.0, x1: page_in.0, y1: page_in.1 };
        PrintBoxes { trim: page, bleed: page }
    }
}

/// The trim and bleed of a page: the trim around the cut squares of its counters, the
/// bleed that grown by the bleed width, both kept inside the page; the whole page when
/// it holds no counter.
pub fn print_boxes(page: &Page, o: &SheetOptions) -> PrintBoxes {
    let (pw, ph) = o.page_in;
    if page.slots.is_empty() {
        return PrintBoxes::whole(o.page_in);
    }
    let mut trim = Rect { x0: f64::MAX, y0: f64::MAX, x1: f64::MIN, y1: f64::MIN };
    for s in &page.slots {
        trim.x0 = trim.x0.min(s.x);
        trim.y0 = trim.y0.min(s.y);
        trim.x1 = trim.x1.max(s.x + o.counter_in);
        trim.y1 = trim.y1.max(s.y + o.counter_in);
    }
    let inside = |r: Rect| Rect {
        x0: r.x0.clamp(0.0, pw),
        y0: r.y0.clamp(0.0, ph),
        x1: r.x1.clamp(0.0, pw),
        y1: r.y1.clamp(0.0, ph),
    };
    PrintBoxes { trim: inside(trim), bleed: inside(trim.grown(o.bleed_in)) }
}

/// Writes pages to a PDF/X-4 document: vector art, fonts subset and embedded, trim and
/// bleed the whole page, the date `info` gives (the same pages give the same bytes). The
/// same as [`join_pdf`] of each page's [`page_pdf`].
pub fn pdf(
    pages: &[String],
    page_in: (f64, f64),
    info: &DocInfo,
) -> Result<Vec<u8>, String> {
    use rayon::prelude::*;

    let boxes = PrintBoxes::whole(page_in);
    let pages = pages
        .par_iter()
        .map(|svg| page_pdf(svg, page_in, &boxes))
        .collect::<Result<Vec<_>, String>>()?;
    join_pdf(&pages, info, &[])
}

/// One page as a PDF of its own (vector art, its fonts subset and embedded, its TrimBox
/// and BleedBox from `boxes`), to be joined with the others by [`join_pdf`]: a changed
/// counter draws only its own page again.
pub fn page_pdf(
    svg: &str,
    page_in: (f64, f64),
    boxes: &PrintBoxes,
) -> Result<Vec<u8>, String> {
    use krilla::configure::{ConfigurationBuilder, PdfVersion};
    use krilla::geom::{Rect as PdfRect, Size};
    use krilla::page::PageSettings;
    use krilla::{Document, SerializeSettings};
    use krilla_svg::{SurfaceExt, SvgSettings};

    let (w, h) = ((page_in.0 * 72.0) as f32, (page_in.1 * 72.0) as f32);
    let size = Size::from_wh(w, h).ok_or("bad page size")?;
    // Points from the top-left corner, as krilla takes them.
    let pt = |r: &Rect| {
        PdfRect::from_ltrb(
            (r.x0 * 72.0) as f32,
            (r.y0 * 72.0) as f32,
            (r.x1 * 72.0) as f32,
            (r.y1 * 72.0) as f32,
        )
        .ok_or("bad trim or bleed box")
    };
    let settings = PageSettings::new(size)
        .with_trim_box(Some(pt(&boxes.trim)?))
        .with_bleed_box(Some(pt(&boxes.bleed)?));
    let tree = crate::raster::parse(svg).map_err(|e| e.to_string())?;
    // PDF/X-4 is a profile of PDF 1.6.
    let configuration = ConfigurationBuilder::new()
        .with_version(PdfVersion::Pdf16)
        .finish()
        .map_err(|e| format!("{e:?}"))?;
    let mut doc =
        Document::new_with(SerializeSettings { configuration, ..Default::default() });
    let mut page = doc.start_page_with(settings);
    let mut surface = page.surface();
    surface.draw_svg(&tree, size, SvgSettings { embed_text: true, ..Default::default() });
    surface.finish();
    page.finish();
    doc.finish().map_err(|e| format!("{e:?}"))
}

/// The first page of each of `pages` (PDFs [`page_pdf`] wrote), in order, as one PDF/X-4
/// document that says `info` about itself, page `i` with the die line `die_lines[i]`
/// over it ([`crate::die_line::content`]; none when empty or missing). The pages'
/// objects (content, fonts, images) are copied byte for byte, not drawn, decoded or
/// compressed again.
pub fn join_pdf(
    pages: &[Vec<u8>],
    info: &DocInfo,
    die_lines: &[String],
) -> Result<Vec<u8>, String> {
    crate::pdf_join::join(pages, info, die_lines)
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

    /// A spread of option sets: the defaults, small and large counters and margins, A4
    /// and tabloid, spacing, no bleed, shared cut lines, a back offset, folded pages.
    fn option_sets() -> Vec<SheetOptions> {
        let mut out = Vec::new();
        for page_in in [(8.5, 11.0), (8.27, 11.69), (11.0, 17.0)] {
            for counter_in in [0.5, 0.625, 0.75, 1.0] {
                for margin_in in [0.25, 0.5, 0.75] {
                    for (spacing_in, bleed_in, shared_cuts) in [
                        (0.0, 0.0625, false),
                        (0.0, 0.125, false),
                        (0.1, 0.0625, false),
                        (0.0, 0.0, false),
                        (0.0, 0.0625, true),
                        (0.0, 0.125, true),
                    ] {
                        for (back_offset_in, fold) in [
                            ((0.0, 0.0), false),
                            ((0.04, -0.03), false),
                            ((0.0, 0.0), true),
                        ] {
                            out.push(SheetOptions {
                                page_in,
                                counter_in,
                                margin_in,
                                spacing_in,
                                bleed_in,
                                shared_cuts,
                                back_offset_in,
                                fold,
                                ..Default::default()
                            });
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_footer_never_touches_a_mark_or_a_counter() {
        let text = "Gazala 1942 — backs (mirrored for duplex, flip on the long edge)";
        let mut placed = 0;
        let mut pages_seen = 0;
        for o in option_sets() {
            let Ok(pages) = layout(&[2; 40], &o) else { continue };
            for page in &pages {
                pages_seen += 1;
                let g = page_geometry(page, &o, text);
                let Some(f) = &g.footer else { continue };
                placed += 1;
                for m in g.mark_boxes(&o).iter().chain(&g.art) {
                    assert!(
                        !m.overlaps(&f.bbox),
                        "{o:?}: footer {:?} over {m:?}",
                        f.bbox
                    );
                }
                assert!(f.bbox.x0 >= 0.1 && f.bbox.x1 <= o.page_in.0 - 0.1);
                assert!(f.bbox.y0 >= 0.1 && f.bbox.y1 <= o.page_in.1 - 0.1);
            }
        }
        // With the default margins there is always room for it.
        assert!(placed * 10 > pages_seen * 9, "{placed} footers on {pages_seen} pages");
        let o = SheetOptions::default();
        let pages = layout(&[2; 40], &o).unwrap();
        for page in &pages {
            assert!(page_geometry(page, &o, text).footer.is_some());
        }
    }

    #[test]
    fn marks_stay_outside_the_bleed_box_and_the_art_inside_it() {
        for o in option_sets() {
            let Ok(pages) = layout(&[2; 40], &o) else { continue };
            for page in &pages {
                let g = page_geometry(page, &o, "x");
                let b = print_boxes(page, &o);
                let (t, bl) = (b.trim, b.bleed);
                assert!(bl.x0 >= 0.0 && bl.y0 >= 0.0);
                assert!(bl.x1 <= o.page_in.0 && bl.y1 <= o.page_in.1);
                for (a, r) in [(bl.x0, t.x0), (bl.y0, t.y0), (t.x1, bl.x1), (t.y1, bl.y1)]
                {
                    assert!((r - a - o.bleed_in).abs() < 1e-9, "{o:?}: {b:?}");
                }
                for m in g.mark_boxes(&o) {
                    // The fold line crosses a folded page's trim on purpose.
                    if g.fold.is_some_and(|x| m.x0 < x && x < m.x1) {
                        continue;
                    }
                    assert!(!m.overlaps(&bl), "{o:?}: mark {m:?} in the bleed {bl:?}");
                }
                if let Some(f) = &g.footer {
                    assert!(!f.bbox.overlaps(&bl), "{o:?}: footer in the bleed {bl:?}");
                }
                for v in &g.visible {
                    assert!(
                        v.x0 >= bl.x0 - 1e-9
                            && v.y0 >= bl.y0 - 1e-9
                            && v.x1 <= bl.x1 + 1e-9
                            && v.y1 <= bl.y1 + 1e-9,
                        "{o:?}: art {v:?} past the bleed {bl:?}"
                    );
                }
            }
        }
        // The default bleed is the 1/8 inch print shops ask for.
        assert_eq!(SheetOptions::default().bleed_in, 0.125);
    }

    #[test]
    fn shared_cut_lines_are_single_and_bleed_only_at_the_outer_edge() {
        let o = SheetOptions { shared_cuts: true, ..Default::default() };
        let pages = layout(&[2; 200], &o).unwrap();
        let page = &pages[0];
        // Neighbours abut: one cut line between them.
        let (a, b) = (page.slots[0], page.slots[1]);
        assert!((b.x - (a.x + o.counter_in)).abs() < 1e-9);
        let g = page_geometry(page, &o, "x");
        let xs: std::collections::BTreeSet<i64> =
            g.crop_marks.iter().map(|((x, _), _)| (x * 1e6).round() as i64).collect();
        let cols = page.slots.iter().filter(|s| (s.y - a.y).abs() < 1e-9).count();
        // Vertical crop marks stand at cols + 1 distinct cut lines, not 2 × cols.
        let vertical: std::collections::BTreeSet<i64> = g
            .crop_marks
            .iter()
            .filter(|((x1, _), (x2, _))| (x1 - x2).abs() < 1e-12)
            .map(|((x, _), _)| (x * 1e6).round() as i64)
            .collect();
        assert_eq!(vertical.len(), cols + 1, "{xs:?}");
        // What shows of each counter is its cut square, plus the bleed on outer sides.
        let (left, right) = (
            page.slots.iter().map(|s| s.x).fold(f64::MAX, f64::min),
            page.slots.iter().map(|s| s.x).fold(f64::MIN, f64::max) + o.counter_in,
        );
        for (s, v) in page.slots.iter().zip(&g.visible) {
            let outer_left = (s.x - left).abs() < 1e-9;
            let outer_right = (s.x + o.counter_in - right).abs() < 1e-9;
            let want_x0 = if outer_left { s.x - o.bleed_in } else { s.x };
            let want_x1 = if outer_right {
                s.x + o.counter_in + o.bleed_in
            } else {
                s.x + o.counter_in
            };
            assert!((v.x0 - want_x0).abs() < 1e-9 && (v.x1 - want_x1).abs() < 1e-9);
        }
        // Every counter stays inside the margins with its bleed.
        for v in &g.visible {
            assert!(
                v.x0 >= o.margin_in - 1e-9 && v.x1 <= o.page_in.0 - o.margin_in + 1e-9
            );
            assert!(
                v.y0 >= o.margin_in - 1e-9 && v.y1 <= o.page_in.1 - o.margin_in + 1e-9
            );
        }
        let spaced = SheetOptions { spacing_in: 0.1, ..o };
        assert_eq!(
            layout(&[2], &spaced).unwrap_err(),
            LayoutError::SpacingWithSharedCuts
        );
    }

    #[test]
    fn art_reaches_under_later_neighbours_only() {
        for o in [
            SheetOptions::default(),
            SheetOptions { shared_cuts: true, ..Default::default() },
        ] {
            let pages = layout(&[2; 30], &o).unwrap();
            for page in &pages[..2] {
                let g = page_geometry(page, &o, "x");
                for (i, (art, shown)) in g.art.iter().zip(&g.visible).enumerate() {
                    // The art covers what shows, and more only where a later slot covers it.
                    assert!(art.x0 <= shown.x0 && art.x1 >= shown.x1);
                    assert!(art.y0 <= shown.y0 && art.y1 >= shown.y1);
                    let extra = [
                        Rect { x1: shown.x0, ..*art },
                        Rect { x0: shown.x1, ..*art },
                        Rect { y1: shown.y0, ..*art },
                        Rect { y0: shown.y1, ..*art },
                    ];
                    for e in
                        extra.iter().filter(|e| e.width() > 1e-9 && e.height() > 1e-9)
                    {
                        assert!(
                            g.visible[i + 1..].iter().any(|v| v.overlaps(e)),
                            "slot {i}: art beyond what shows is not covered"
                        );
                        assert!(!g.visible[..i].iter().any(|v| v.overlaps(e)));
                    }
                }
                // What shows of a counter never covers another counter's cut square.
                for (i, a) in g.visible.iter().enumerate() {
                    for (j, s) in page.slots.iter().enumerate().filter(|(j, _)| *j != i) {
                        let cut = Rect {
                            x0: s.x,
                            y0: s.y,
                            x1: s.x + o.counter_in,
                            y1: s.y + o.counter_in,
                        };
                        assert!(!a.grown(-1e-9).overlaps(&cut), "{i} over {j}");
                    }
                }
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
