//! Legibility of the print sheets, measured in the PDF by a real PDF reader (poppler's
//! `pdftotext -bbox` for word boxes, `pdftohtml -xml` for which words are bold): at 5/8
//! inch no printed word is smaller than 6 points, and every counter value is at least
//! 8 points and bold.
//!
//! `.ci/run` installs poppler-utils and sets `MUSTER_REQUIRE_PDF_READER`, which turns a
//! missing reader into a failure.

use std::path::Path;
use std::process::Command;

use muster_render::counter::faces;
use muster_render::sheet::{self, SheetOptions};

use crate::modules::{GAMES, built};
use crate::util::seeds;

/// A word the reader found: its text and box, in points from the page's top-left corner.
#[derive(Debug, Clone)]
struct Word {
    text: String,
    page: usize,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

/// Whether poppler's tools are here (and, when required, fails if they are not).
pub fn reader() -> bool {
    let found = Command::new("pdftotext").arg("-v").output().is_ok();
    assert!(
        found || std::env::var_os("MUSTER_REQUIRE_PDF_READER").is_none(),
        "MUSTER_REQUIRE_PDF_READER is set but pdftotext (poppler-utils) is not installed"
    );
    if !found {
        eprintln!("no pdftotext: .ci/run installs poppler-utils");
    }
    found
}

fn attr(tag: &str, name: &str) -> Option<f64> {
    let at = tag.find(&format!("{name}=\""))? + name.len() + 2;
    tag[at..].split('"').next()?.parse().ok()
}

/// Every word of a PDF with its box, as `pdftotext -bbox` reads it.
fn words(pdf: &Path) -> Vec<Word> {
    let out = Command::new("pdftotext").arg("-bbox").arg(pdf).arg("-").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut page = 0;
    let mut all = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("<page ") {
            page += 1;
        }
        let Some(rest) = line.strip_prefix("<word ") else { continue };
        let (tag, body) = rest.split_once('>').unwrap();
        let word = body.trim_end_matches("</word>");
        all.push(Word {
            text: word.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"),
            page,
            x0: attr(tag, "xMin").unwrap(),
            y0: attr(tag, "yMin").unwrap(),
            x1: attr(tag, "xMax").unwrap(),
            y1: attr(tag, "yMax").unwrap(),
        });
    }
    all
}

/// Boxes of the bold text runs of a PDF, as `pdftohtml -xml` reads them: page, left,
/// top, right, bottom in points.
fn bold_runs(pdf: &Path) -> Vec<(usize, f64, f64, f64, f64)> {
    let out = Command::new("pdftohtml")
        .args(["-xml", "-i", "-stdout", "-zoom", "1", "-q"])
        .arg(pdf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut page = 0;
    let mut runs = Vec::new();
    for line in text.lines() {
        if line.starts_with("<page ") {
            page += 1;
        }
        if line.starts_with("<text ") && line.contains("<b>") {
            let (l, t) = (attr(line, "left").unwrap(), attr(line, "top").unwrap());
            let (w, h) = (attr(line, "width").unwrap(), attr(line, "height").unwrap());
            runs.push((page, l, t, l + w, t + h));
        }
    }
    runs
}

/// The height of a word box per point of font size, measured on a PDF muster writes
/// with text of a known size: the reader's boxes run from the font's ascent to its
/// descent as the embedded font states them.
fn box_per_point(dir: &Path) -> f64 {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="3in" height="1in" viewBox="0 0 288 96" font-family="Liberation Sans"><text x="10" y="60" font-size="13.3333">Calibration 10pt</text></svg>"#;
    let info = sheet::DocInfo::new("calibration", None);
    let pdf = muster_render::sheet::pdf(&[svg.to_string()], (3.0, 1.0), &info).unwrap();
    let path = dir.join("calibration.pdf");
    std::fs::write(&path, pdf).unwrap();
    let w = words(&path);
    assert_eq!(w.len(), 2, "{w:?}");
    (w[0].y1 - w[0].y0) / 10.0
}

#[test]
fn every_word_on_the_seed_sheets_is_6_points_and_every_value_8_points_bold() {
    if !reader() {
        return;
    }
    let per_point = box_per_point(built());
    let loaded = seeds();
    let o = SheetOptions::default();
    let mut values_checked = 0;
    let mut words_checked = 0;
    let mut small = Vec::new();
    for game in GAMES {
        let pdf = built().join(format!("counters/{game}/sheets.pdf"));
        let g = loaded.games.iter().find(|g| g.id == game).unwrap();
        let order = sheet::sheet_order(g);
        let sides: Vec<usize> = order.iter().map(|u| faces(u).len()).collect();
        let pages = sheet::layout(&sides, &o).unwrap();
        let words = words(&pdf);
        let bold = bold_runs(&pdf);
        assert!(!words.is_empty(), "{game}: no words read");
        for w in &words {
            let size = (w.y1 - w.y0) / per_point;
            words_checked += 1;
            if size < 6.0 - 0.05 {
                small.push(format!(
                    "{game} page {}: `{}` at {size:.2} pt",
                    w.page, w.text
                ));
            }
        }
        // Values: the words in the bottom quarter of a unit counter on a front page (the
        // values' line, inside the safe area).
        for (p, page) in pages.iter().enumerate() {
            for slot in page.slots.iter().filter(|s| s.face == muster_render::Face::Front)
            {
                let unit = order[slot.counter];
                if unit.category == muster_rules::Category::Marker
                    || !unit.art.iter().all(Option::is_none)
                {
                    continue;
                }
                let (x0, x1) = (slot.x * 72.0, (slot.x + o.counter_in) * 72.0);
                let band = (slot.y + o.counter_in * 0.75) * 72.0;
                let bottom = (slot.y + o.counter_in) * 72.0;
                for w in words.iter().filter(|w| {
                    let (cx, cy) = ((w.x0 + w.x1) / 2.0, (w.y0 + w.y1) / 2.0);
                    w.page == p + 1
                        && cx > x0
                        && cx < x1
                        && cy > band
                        && cy < bottom + 2.0
                }) {
                    let size = (w.y1 - w.y0) / per_point;
                    assert!(
                        size >= 8.0 - 0.05,
                        "{game}: the value `{}` of `{}` is {size:.2} pt",
                        w.text,
                        unit.printed.v
                    );
                    let (cx, cy) = ((w.x0 + w.x1) / 2.0, (w.y0 + w.y1) / 2.0);
                    assert!(
                        bold.iter().any(|&(bp, l, t, r, b)| bp == p + 1
                            && cx >= l - 1.0
                            && cx <= r + 1.0
                            && cy >= t - 1.0
                            && cy <= b + 1.0),
                        "{game}: the value `{}` of `{}` is not bold",
                        w.text,
                        unit.printed.v
                    );
                    values_checked += 1;
                }
            }
        }
    }
    assert!(small.is_empty(), "{} words under 6 pt:\n{}", small.len(), small.join("\n"));
    assert!(
        words_checked > 3000 && values_checked > 300,
        "{words_checked} words, {values_checked} values"
    );
}

/// `pdfinfo`'s page count of a PDF, failing on anything it says on its error stream.
fn page_count(pdf: &Path) -> usize {
    let out = Command::new("pdfinfo").arg(pdf).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "{}: {stderr}",
        pdf.display()
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("Pages:")).unwrap();
    line["Pages:".len()..].trim().parse().unwrap()
}

#[test]
fn pages_joined_from_their_own_pdfs_read_as_the_same_pages_drawn_in_one_document() {
    if !reader() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = |text: &str, bold: &str| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="4in" height="2in" viewBox="0 0 384 192" font-family="Liberation Sans"><rect x="10" y="10" width="50" height="50" fill="firebrick"/><text x="20" y="100" font-size="16">{text}</text><text x="20" y="150" font-size="20" font-weight="bold">{bold}</text></svg>"#
        )
    };
    let svgs = vec![
        page("First page", "Infantry 4-4-6"),
        page("Second", "HQ 1-2"),
        page("Third", "6"),
    ];
    let whole = dir.path().join("whole.pdf");
    let info = sheet::DocInfo::new("pages", None);
    std::fs::write(&whole, sheet::pdf(&svgs, (4.0, 2.0), &info).unwrap()).unwrap();
    let boxes = sheet::PrintBoxes::whole((4.0, 2.0));
    let pages: Vec<Vec<u8>> =
        svgs.iter().map(|s| sheet::page_pdf(s, (4.0, 2.0), &boxes).unwrap()).collect();
    let joined_bytes = sheet::join_pdf(&pages, &info, &[]).unwrap();
    assert_eq!(
        joined_bytes,
        sheet::join_pdf(&pages, &info, &[]).unwrap(),
        "the same pages, the same bytes"
    );
    let joined = dir.path().join("joined.pdf");
    std::fs::write(&joined, &joined_bytes).unwrap();
    assert_eq!(page_count(&joined), 3);
    assert_eq!(page_count(&whole), 3);
    let key =
        |w: &Word| (w.page, w.text.clone(), (w.x0 * 10.0).round(), (w.y0 * 10.0).round());
    let read: Vec<_> = words(&joined).iter().map(key).collect();
    let expected: Vec<_> = words(&whole).iter().map(key).collect();
    assert_eq!(read.len(), 9, "{read:?}");
    assert_eq!(read, expected);
    assert_eq!(bold_runs(&joined).len(), bold_runs(&whole).len());
    // Each page's objects are copied, not drawn again: its streams are in the joined file,
    // which adds only the document's own parts (its output profile and metadata).
    let document = muster_render::pdfx::SRGB_ICC.len() + 4096;
    assert!(joined_bytes.len() < pages.iter().map(Vec::len).sum::<usize>() + document);
    for page in &pages {
        let from = page.windows(7).position(|w| w == b"stream\n").unwrap() + 7;
        let to =
            from + page[from..].windows(10).position(|w| w == b"\nendstream").unwrap();
        let body = &page[from..to];
        assert!(
            joined_bytes.windows(body.len()).any(|w| w == body),
            "a page's stream is not copied"
        );
    }
}
