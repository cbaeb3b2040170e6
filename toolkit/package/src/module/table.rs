//! The table beside the map: holding boxes for reinforcements, groups and unplaced counters,
//! and the places where decks and chit cups stand, drawn as one board image.

use muster_render::markup::text as esc;
use std::fmt::Write;

/// A labelled rectangle on the table board, in pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// Its label, which is also its VASSAL location name.
    pub name: String,
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

impl Area {
    /// The centre, where a stack or deck is put.
    pub fn centre(&self) -> (i64, i64) {
        (i64::from(self.x + self.w / 2), i64::from(self.y + self.h / 2 + self.h / 10))
    }

    /// The zone path `x1,y1;x2,y2;…` VASSAL reads.
    pub fn path(&self) -> String {
        let (x0, y0, x1, y1) = (self.x, self.y, self.x + self.w, self.y + self.h);
        format!("{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}")
    }
}

/// The table board: its size, boxes and deck places.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Holding boxes.
    pub boxes: Vec<Area>,
    /// Deck places.
    pub decks: Vec<Area>,
}

const COLUMNS: u32 = 4;

/// Lays out boxes (in the order given) then decks, four to a row, each sized for a stack of
/// counters `counter_px` wide.
pub fn layout(boxes: &[String], decks: &[String], counter_px: u32) -> Table {
    let w = (counter_px * 3).max(240);
    let h = (counter_px * 2).max(150);
    let gap = 20;
    let place = |i: usize, name: &str| {
        let i = u32::try_from(i).unwrap_or(0);
        Area {
            name: name.to_string(),
            x: gap + (i % COLUMNS) * (w + gap),
            y: 60 + (i / COLUMNS) * (h + gap),
            w,
            h,
        }
    };
    let all: Vec<Area> =
        boxes.iter().chain(decks).enumerate().map(|(i, n)| place(i, n)).collect();
    let count = u32::try_from(all.len()).unwrap_or(0);
    let rows = count.div_ceil(COLUMNS).max(1);
    let (boxes, decks) = all.split_at(boxes.len());
    Table {
        width: gap + count.clamp(1, COLUMNS) * (w + gap),
        height: 60 + rows * (h + gap),
        boxes: boxes.to_vec(),
        decks: decks.to_vec(),
    }
}

/// The table board as SVG, one pixel per user unit.
pub fn svg(table: &Table, title: &str, font: &str) -> String {
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{font}"><rect width="{w}" height="{h}" fill="#efe9da"/><text x="20" y="38" font-size="24" font-weight="bold" fill="#2b2b2b">{}</text>"##,
        esc(title),
        w = table.width,
        h = table.height,
    );
    for (area, fill) in table
        .boxes
        .iter()
        .map(|a| (a, "#fbf8f0"))
        .chain(table.decks.iter().map(|a| (a, "#dfe8f2")))
    {
        let _ = write!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="#5a5244" stroke-width="2" rx="6"/><text x="{}" y="{}" font-size="14" font-weight="bold" fill="#2b2b2b">{}</text>"##,
            area.x,
            area.y,
            area.w,
            area.h,
            area.x + 8,
            area.y + 20,
            esc(&area.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A chit: a rounded square in the side's colour with its name.
pub fn chit_svg(name: &str, colour: &str, px: u32, font: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let mut lines = Vec::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + w.len() > 9 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{px}" height="{px}" viewBox="0 0 100 100" font-family="{font}"><rect x="2" y="2" width="96" height="96" rx="12" fill="{colour}" stroke="#000000" stroke-width="2"/>"##
    );
    let top = 54.0 - 8.0 * (lines.len() as f64 - 1.0);
    for (i, l) in lines.iter().enumerate() {
        let _ = write!(
            s,
            r##"<text x="50" y="{:.1}" font-size="17" font-weight="bold" text-anchor="middle" fill="#ffffff" stroke="#000000" stroke-width="0.6">{}</text>"##,
            top + 17.0 * i as f64,
            esc(l)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The 52 cards (rank and suit) plus `jokers` jokers, as (id, label, colour).
pub fn cards(jokers: u8) -> Vec<(String, String, &'static str)> {
    let ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    let suits = [
        ("s", "♠", "#111111"),
        ("h", "♥", "#c0102a"),
        ("d", "♦", "#c0102a"),
        ("c", "♣", "#111111"),
    ];
    let mut out = Vec::new();
    for (sid, sym, colour) in suits {
        for r in ranks {
            out.push((
                format!("card-{}{sid}", r.to_lowercase()),
                format!("{r}{sym}"),
                colour,
            ));
        }
    }
    for j in 1..=jokers {
        out.push((format!("card-joker-{j}"), "Joker".to_string(), "#6a1b9a"));
    }
    out
}

/// A playing card face.
pub fn card_svg(label: &str, colour: &str, px: u32, font: &str) -> String {
    let size = if label.chars().count() > 3 { 22 } else { 34 };
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{px}" viewBox="0 0 70 100" font-family="{font}"><rect x="1" y="1" width="68" height="98" rx="7" fill="#ffffff" stroke="#333333" stroke-width="2"/><text x="35" y="60" font-size="{size}" font-weight="bold" text-anchor="middle" fill="{colour}">{}</text></svg>
"##,
        esc(label),
        w = px * 7 / 10,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_do_not_overlap_and_fit() {
        let boxes: Vec<String> = (0..9).map(|i| format!("Box {i}")).collect();
        let t = layout(&boxes, &["Cup".into()], 94);
        let all: Vec<&Area> = t.boxes.iter().chain(&t.decks).collect();
        assert_eq!(all.len(), 10);
        for (i, a) in all.iter().enumerate() {
            assert!(a.x + a.w <= t.width && a.y + a.h <= t.height);
            for b in &all[i + 1..] {
                let apart = a.x + a.w <= b.x
                    || b.x + b.w <= a.x
                    || a.y + a.h <= b.y
                    || b.y + b.h <= a.y;
                assert!(apart, "{a:?} {b:?}");
            }
        }
        assert_eq!(cards(1).len(), 53);
    }
}
