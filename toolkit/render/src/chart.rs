//! Charts drawn from the data as printed, for a module's chart window: a printed table
//! (its columns and rows, the lines printed with it, where it stops short), the sequence of
//! play (numbered steps inside steps), and a card of lines such as a module's about
//! screen. Text is measured with the shipped fonts and wrapped; one user unit is one pixel.

use std::fmt::Write;

use muster_model::source::{Sequence, Step, Table};

use crate::metrics::{self, Weight};
use crate::svg::{esc, n};

fn weight(bold: bool) -> Weight {
    if bold { Weight::Bold } else { Weight::Regular }
}

fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    metrics::text_width(text, size, weight(bold))
}

fn wrap(text: &str, width: f64, size: f64, bold: bool) -> Vec<String> {
    metrics::wrap(text, width, size, weight(bold))
}

/// A drawn chart: SVG text and the pixel size to rasterise it at.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// The SVG document.
    pub svg: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

const WIDTH: f64 = 960.0;
const MARGIN: f64 = 24.0;
const PAD: f64 = 7.0;
const BODY: f64 = 15.0;
const CELL: f64 = 14.0;
const INK: &str = "#22201c";
const MUTED: &str = "#5f584c";
const RULE: &str = "#8a8272";

/// A page being laid out from the top: text lines and shapes, and the height used so far.
struct Page {
    width: f64,
    y: f64,
    body: String,
}

impl Page {
    fn new(width: f64) -> Page {
        Page { width, y: MARGIN, body: String::new() }
    }

    fn text(&mut self, x: f64, y: f64, size: f64, bold: bool, fill: &str, text: &str) {
        let _ = write!(
            self.body,
            r#"<text x="{}" y="{}" font-size="{}"{} fill="{fill}">{}</text>"#,
            n(x),
            n(y),
            n(size),
            if bold { r#" font-weight="bold""# } else { "" },
            esc(text)
        );
    }

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, attrs: &str) {
        let _ = write!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" {attrs}/>"#,
            n(x),
            n(y),
            n(w),
            n(h)
        );
    }

    /// A wrapped paragraph from `x` to the right margin; returns nothing, moves `y` down.
    fn paragraph(&mut self, x: f64, size: f64, bold: bool, fill: &str, text: &str) {
        let lines = wrap(text, self.width - MARGIN - x, size, bold);
        for line in lines {
            self.y += size * 1.3;
            self.text(x, self.y - size * 0.3, size, bold, fill, &line);
        }
    }

    fn title(&mut self, title: &str, section: Option<&str>) {
        let text = match section {
            Some(s) if !s.is_empty() => format!("{title} ({s})"),
            _ => title.to_string(),
        };
        self.paragraph(MARGIN, 22.0, true, INK, &text);
        self.y += 8.0;
    }

    /// A shaded box with a wrapped line: where a printed table stops short.
    fn banner(&mut self, text: &str) {
        let lines = wrap(text, self.width - 2.0 * MARGIN - 2.0 * PAD, BODY, false);
        let h = lines.len() as f64 * BODY * 1.3 + 2.0 * PAD;
        let top = self.y + 6.0;
        self.rect(
            MARGIN,
            top,
            self.width - 2.0 * MARGIN,
            h,
            r##"fill="#fff1c2" stroke="#b08a1e" stroke-width="1.5""##,
        );
        self.y = top + PAD;
        for line in lines {
            self.y += BODY * 1.3;
            self.text(MARGIN + PAD, self.y - BODY * 0.3, BODY, false, INK, &line);
        }
        self.y = top + h;
    }

    /// The lines printed with a chart, then the transcription remark.
    fn footer(&mut self, lines: &[String], note: Option<&str>) {
        if !lines.is_empty() {
            self.y += 8.0;
        }
        for line in lines {
            self.paragraph(MARGIN, BODY, false, INK, line);
        }
        if let Some(note) = note {
            self.y += 8.0;
            self.paragraph(MARGIN, 12.5, false, MUTED, &format!("Transcription: {note}"));
        }
    }

    fn finish(self) -> Drawn {
        let (w, h) = (self.width.ceil(), (self.y + MARGIN).ceil());
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{font}"><rect width="{w}" height="{h}" fill="#fbf8f0"/>{body}</svg>
"##,
            font = crate::fonts::FAMILY,
            body = self.body,
        );
        Drawn { svg, width: w as u32, height: h as u32 }
    }
}

/// Column widths for `cells` (header first) within `avail`: each column as wide as its
/// longest line when they all fit, else shared out above the width of its longest word.
fn column_widths(columns: usize, cells: &[Vec<(String, bool)>], avail: f64) -> Vec<f64> {
    let mut natural = vec![2.0 * PAD; columns];
    let mut least = vec![2.0 * PAD; columns];
    for row in cells {
        for (j, (text, bold)) in row.iter().enumerate().take(columns) {
            natural[j] = natural[j].max(text_width(text, CELL, *bold) + 2.0 * PAD);
            for word in text.split_whitespace() {
                least[j] = least[j].max(text_width(word, CELL, *bold) + 2.0 * PAD);
            }
        }
    }
    let total: f64 = natural.iter().sum();
    if total <= avail {
        return natural;
    }
    let floor: f64 = least.iter().sum();
    let spare = (avail - floor).max(0.0);
    let want: f64 = natural.iter().zip(&least).map(|(a, b)| a - b).sum();
    natural
        .iter()
        .zip(&least)
        .map(
            |(nat, min)| if want > 0.0 { min + spare * (nat - min) / want } else { *min },
        )
        .collect()
}

/// A printed table: its title and section, the text printed before it, its header and
/// rows (cells a row does not print are shaded), where it stops short, and the lines
/// printed with it.
pub fn table_svg(table: &Table, text: Option<&str>) -> Drawn {
    let columns = table
        .columns
        .len()
        .max(table.rows.iter().map(|r| r.len()).max().unwrap_or(0))
        .max(1);
    let mut cells: Vec<Vec<(String, bool)>> =
        vec![table.columns.iter().map(|c| (c.clone(), true)).collect()];
    cells.extend(
        table.rows.iter().map(|r| r.iter().map(|c| (c.clone(), false)).collect()),
    );
    let widths = column_widths(columns, &cells, WIDTH - 2.0 * MARGIN);
    let table_w: f64 = widths.iter().sum();
    let mut page = Page::new(WIDTH.max(table_w + 2.0 * MARGIN));
    page.title(&table.title, Some(&table.section));
    if let Some(text) = text {
        page.paragraph(MARGIN, BODY, false, INK, text);
        page.y += 8.0;
    }
    for (i, row) in cells.iter().enumerate() {
        let wrapped: Vec<Vec<String>> = (0..columns)
            .map(|j| match row.get(j) {
                Some((t, bold)) => wrap(t, widths[j] - 2.0 * PAD, CELL, *bold),
                None => Vec::new(),
            })
            .collect();
        let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let h = lines as f64 * CELL * 1.3 + 2.0 * PAD;
        let mut x = MARGIN;
        for (j, w) in widths.iter().enumerate() {
            let fill = match (i, row.get(j)) {
                (0, _) => "#3b372f",
                (_, None) => "#d9d4c8",
                _ if i % 2 == 0 => "#f1ebdd",
                _ => "#ffffff",
            };
            page.rect(
                x,
                page.y,
                *w,
                h,
                &format!(r#"fill="{fill}" stroke="{RULE}" stroke-width="1""#),
            );
            let colour = if i == 0 { "#ffffff" } else { INK };
            for (k, line) in wrapped[j].iter().enumerate() {
                let base = page.y + PAD + (k as f64 + 1.0) * CELL * 1.3 - CELL * 0.3;
                page.text(x + PAD, base, CELL, i == 0, colour, line);
            }
            x += w;
        }
        page.y += h;
    }
    if let Some(gap) = &table.incomplete {
        page.banner(&format!("Incomplete: {}", gap.v));
    }
    page.footer(&table.lines, table.note.as_deref());
    page.finish()
}

fn steps(page: &mut Page, list: &[Step], depth: usize) {
    for step in list {
        let x = MARGIN + depth as f64 * 28.0;
        let size = if depth == 0 { 16.0 } else { BODY };
        page.y += if depth == 0 { 8.0 } else { 3.0 };
        let mark_w = step
            .mark
            .as_deref()
            .map_or(0.0, |m| text_width(m, size, true) + 8.0)
            .max(if step.mark.is_some() { 30.0 } else { 0.0 });
        let top = page.y;
        if let Some(mark) = &step.mark {
            page.text(x, top + size, size, true, INK, mark);
        }
        page.paragraph(x + mark_w, size, depth == 0, INK, &step.text);
        if let Some(detail) = &step.detail {
            page.paragraph(x + mark_w, CELL, false, MUTED, detail);
        }
        steps(page, &step.steps, depth + 1);
    }
}

/// The sequence of play: its title and section, the text printed before it, every step
/// (marks in bold, nested steps indented), the lines printed after it and the
/// transcription remark.
pub fn sequence_svg(sequence: &Sequence) -> Drawn {
    let mut page = Page::new(WIDTH);
    page.title(&sequence.title, Some(&sequence.section));
    if let Some(text) = &sequence.text {
        page.paragraph(MARGIN, BODY, false, INK, text);
    }
    steps(&mut page, &sequence.steps, 0);
    page.footer(&sequence.lines, sequence.note.as_deref());
    page.finish()
}

/// One line of a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardLine {
    /// A line in muted type across the card.
    Note(String),
    /// A value beside its label; an empty label continues the label above.
    Entry(String, String),
}

/// A card: a title in large type, then its lines, each wrapped; `width` in pixels.
pub fn card_svg(title: &str, lines: &[CardLine], width: f64) -> Drawn {
    let mut page = Page::new(width);
    page.paragraph(MARGIN, 30.0, true, INK, title);
    page.y += 10.0;
    let label_w = lines
        .iter()
        .filter_map(|l| match l {
            CardLine::Entry(label, _) => Some(text_width(label, BODY, true)),
            CardLine::Note(_) => None,
        })
        .fold(0.0, f64::max)
        .min(width / 3.0);
    for line in lines {
        page.y += 4.0;
        let top = page.y;
        match line {
            CardLine::Note(text) => page.paragraph(MARGIN, BODY, false, MUTED, text),
            CardLine::Entry(label, value) => {
                page.text(MARGIN, top + BODY, BODY, true, INK, label);
                page.paragraph(MARGIN + label_w + 14.0, BODY, false, INK, value);
            }
        }
    }
    page.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml<T: serde::de::DeserializeOwned>(text: &str) -> T {
        muster_model::parse_yaml(muster_model::FileId(0), text).unwrap()
    }

    fn table(rows: &str, incomplete: bool) -> Table {
        let gap = if incomplete { "incomplete: it stops at Trail\n" } else { "" };
        yaml(&format!(
            "title: Terrain Costs\nsection: '2.1'\ncolumns: [Terrain, Movement Efffect, Note]\nrows: {rows}\nlines: [A line printed under it.]\n{gap}"
        ))
    }

    #[test]
    fn a_cards_continued_entry_stands_under_the_value_above_in_ink() {
        let lines = [
            CardLine::Note("Changes".into()),
            CardLine::Entry("Counters".into(), "first".into()),
            CardLine::Entry(String::new(), "second".into()),
        ];
        let d = card_svg("Errata", &lines, 600.0);
        // The x and fill of the text element that holds `text`.
        let attrs = |text: &str| {
            let end = d.svg.find(&format!(">{text}</text>")).unwrap();
            let start = d.svg[..end].rfind("<text").unwrap();
            let tag = &d.svg[start..end];
            let attr = |name: &str| {
                let from = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                tag[from..].split('"').next().unwrap().to_string()
            };
            (attr("x"), attr("fill"))
        };
        assert_eq!(attrs("second"), attrs("first"));
        assert_ne!(attrs("Changes").0, attrs("first").0, "a note starts at the margin");
    }

    #[test]
    fn a_table_shows_every_printed_cell_and_where_it_stops_short() {
        let t = table(
            "[[Clear, None, ''], [Road, 'Tanks, Tank Destroyers and Motorized Infantry may move 2 extra hexes if they contain road.', Axis can use to trace supply if not mined by Allies.], [Trail]]",
            true,
        );
        let d = table_svg(&t, Some("The table printed above lists costs."));
        for text in [
            "Terrain Costs (2.1)",
            "Movement Efffect",
            "Trail",
            "Incomplete: it stops at Trail",
            "A line printed under it.",
        ] {
            assert!(d.svg.contains(&esc(text)), "{text}");
        }
        // The long cell wraps, so no line of the drawing is wider than the page.
        assert!(d.width as f64 <= WIDTH + 1.0);
        assert!(
            d.svg.contains("#d9d4c8"),
            "the cells the Trail row does not print are shaded"
        );
        assert!(
            resvg::usvg::Tree::from_str(&d.svg, &resvg::usvg::Options::default()).is_ok()
        );
        // The same table gives the same bytes.
        assert_eq!(d, table_svg(&t, Some("The table printed above lists costs.")));
        let complete = table_svg(&table("[[Clear, None, '']]", false), None);
        assert!(!complete.svg.contains("Incomplete") && complete.height < d.height);
    }

    #[test]
    fn a_sequence_shows_its_steps_in_order_nested() {
        let s: Sequence = yaml(
            "section: 1.0 D
steps:
  - {mark: '1.', text: Pre-Turn}
  - mark: '2.'
    text: Axis Player Turn
    steps:
      - {mark: 'a.', text: Remove any Axis Attack Supply Markers}
      - {mark: 'b.', text: Reinforcement Supply Roll, detail: A paragraph.}
note: one to a line
",
        );
        let d = sequence_svg(&s);
        let at = |t: &str| d.svg.find(&esc(t)).unwrap_or_else(|| panic!("{t}"));
        assert!(at("Sequence of Play (1.0 D)") < at("Pre-Turn"));
        assert!(at("Pre-Turn") < at("Axis Player Turn"));
        assert!(
            at("Axis Player Turn") < at("Remove any Axis")
                && at("Remove any Axis") < at("A paragraph.")
        );
        assert!(d.svg.contains("Transcription: one to a line"));
    }
}
