//! Joining one-page PDFs into one document by copying their objects as they are: every
//! object a page reaches is written again under a new number, its streams byte for byte,
//! so nothing is decoded, drawn or compressed again.
//!
//! It reads PDFs written with a classic cross-reference table and direct stream lengths,
//! as [`crate::sheet::page_pdf`] writes them; anything else is an error, not a guess.
//!
//! The joined document is PDF/X-4 ([`crate::pdfx`]): its catalog holds the output intent
//! and the XMP metadata, its trailer the information dictionary.

use std::collections::BTreeMap;
use std::io::Write;

use crate::pdfx::{self, DocInfo};

pub(crate) mod die_lines;

/// A PDF value: what an object holds, references kept apart so they can be renumbered.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// `<< /Key value ... >>`, keys in their order.
    Dict(Vec<(Vec<u8>, Value)>),
    /// `[ ... ]`.
    Array(Vec<Value>),
    /// `N G R`.
    Ref(u32),
    /// Any other token as written: a number, name, string, `true`, `false` or `null`.
    Token(Vec<u8>),
}

/// One object of a page PDF: its value and, for a stream, its raw (still encoded) bytes.
#[derive(Debug)]
pub(crate) struct Object {
    pub value: Value,
    pub stream: Option<Vec<u8>>,
}

/// A page PDF read: its objects by number and the number of its page.
pub(crate) struct PagePdf {
    pub objects: BTreeMap<u32, Object>,
    pub page: u32,
}

/// The first page of each of `pages` (one-page PDFs), in order, as one PDF that says
/// `info` about itself; page `i` with the die line `die_lines[i]` draws over it (page
/// content from `die_line::content`; none when empty or missing).
pub fn join(
    pages: &[Vec<u8>],
    info: &DocInfo,
    die_lines: &[String],
) -> Result<Vec<u8>, String> {
    let mut read: Vec<PagePdf> = pages
        .iter()
        .enumerate()
        .map(|(i, p)| read(p).map_err(|e| format!("page {} ({e})", i + 1)))
        .collect::<Result<_, _>>()?;
    // 1 is the page tree, 2 the catalog; each page's objects follow in the order they
    // are reached from the page.
    let mut next = 3u32;
    let mut plans = Vec::new();
    for pdf in &read {
        let mut order = Vec::new();
        let mut numbers = BTreeMap::new();
        reach(pdf, pdf.page, &mut order, &mut numbers, &mut next)?;
        plans.push((order, numbers));
    }
    // The metadata, the output profile and the information dictionary follow the pages,
    // then what the die lines add.
    let (metadata, icc, info_n) = (next, next + 1, next + 2);
    next += 3;
    let die = die_lines::add(&mut read, die_lines, &mut next)?;
    // The document's id: a hash of what it is made of, so the same pages give the same
    // bytes.
    let mut hasher = blake3::Hasher::new();
    for page in pages {
        hasher.update(&(page.len() as u64).to_le_bytes());
        hasher.update(page);
    }
    hasher.update(info.title.as_bytes());
    hasher.update(&info.date.to_le_bytes());
    let id = hasher.finalize().to_hex();
    let id = &id.as_str()[..32];
    let mut out: Vec<u8> = b"%PDF-1.6\n%\x80\x80\x80\x80\n".to_vec();
    let mut offsets: BTreeMap<u32, usize> = BTreeMap::new();
    let kids: Vec<String> = plans
        .iter()
        .zip(&read)
        .map(|((_, n), pdf)| format!("{} 0 R", n[&pdf.page]))
        .collect();
    offsets.insert(1, out.len());
    write!(
        out,
        "1 0 obj\n<</Type/Pages/Count {}/Kids[{}]>>\nendobj\n",
        kids.len(),
        kids.join(" ")
    )
    .map_err(|e| e.to_string())?;
    offsets.insert(2, out.len());
    write!(
        out,
        "2 0 obj\n<</Type/Catalog/Pages 1 0 R/Metadata {metadata} 0 R/OutputIntents[{}]{}>>\nendobj\n",
        pdfx::output_intent(icc),
        die.catalog_entry()
    )
    .map_err(|e| e.to_string())?;
    for (pdf, (order, numbers)) in read.iter().zip(&plans) {
        for old in order {
            let object = &pdf.objects[old];
            let new = numbers[old];
            offsets.insert(new, out.len());
            writeln!(out, "{new} 0 obj").map_err(|e| e.to_string())?;
            let mut value = object.value.clone();
            if *old == pdf.page {
                set_parent(&mut value);
            }
            write_value(&mut out, &value, numbers)?;
            if let Some(stream) = &object.stream {
                out.extend_from_slice(b"\nstream\n");
                out.extend_from_slice(stream);
                out.extend_from_slice(b"\nendstream");
            }
            out.extend_from_slice(b"\nendobj\n");
        }
    }
    let xmp = pdfx::xmp(info, id);
    offsets.insert(metadata, out.len());
    write!(
        out,
        "{metadata} 0 obj\n<</Type/Metadata/Subtype/XML/Length {}>>\nstream\n{xmp}\nendstream\nendobj\n",
        xmp.len()
    )
    .map_err(|e| e.to_string())?;
    offsets.insert(icc, out.len());
    write!(out, "{icc} 0 obj\n{}\nstream\n", pdfx::icc_dict())
        .map_err(|e| e.to_string())?;
    out.extend_from_slice(pdfx::SRGB_ICC);
    out.extend_from_slice(b"\nendstream\nendobj\n");
    offsets.insert(info_n, out.len());
    write!(out, "{info_n} 0 obj\n{}\nendobj\n", pdfx::info_dict(info))
        .map_err(|e| e.to_string())?;
    die.write(&mut out, &mut offsets)?;
    let xref = out.len();
    let size = next;
    write!(out, "xref\n0 {size}\n0000000000 65535 f\r\n").map_err(|e| e.to_string())?;
    for n in 1..size {
        let at = offsets.get(&n).ok_or_else(|| format!("object {n} was not written"))?;
        write!(out, "{at:010} 00000 n\r\n").map_err(|e| e.to_string())?;
    }
    write!(
        out,
        "trailer\n<</Size {size}/Root 2 0 R/Info {info_n} 0 R/ID[<{id}><{id}>]>>\nstartxref\n{xref}\n%%EOF\n"
    )
    .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Numbers, depth first, every object `n` reaches (a page's parent aside).
fn reach(
    pdf: &PagePdf,
    n: u32,
    order: &mut Vec<u32>,
    numbers: &mut BTreeMap<u32, u32>,
    next: &mut u32,
) -> Result<(), String> {
    if numbers.contains_key(&n) {
        return Ok(());
    }
    let object = pdf.objects.get(&n).ok_or_else(|| format!("object {n} is missing"))?;
    numbers.insert(n, *next);
    *next += 1;
    order.push(n);
    let mut refs = Vec::new();
    let skip_parent = n == pdf.page;
    refs_of(&object.value, skip_parent, &mut refs);
    for r in refs {
        reach(pdf, r, order, numbers, next)?;
    }
    Ok(())
}

/// The references in `v`, in order; `skip_parent` leaves out a dictionary's `/Parent`.
fn refs_of(v: &Value, skip_parent: bool, out: &mut Vec<u32>) {
    match v {
        Value::Ref(n) => out.push(*n),
        Value::Array(items) => items.iter().for_each(|i| refs_of(i, false, out)),
        Value::Dict(entries) => {
            for (k, v) in entries {
                if !(skip_parent && k == b"Parent") {
                    refs_of(v, false, out);
                }
            }
        }
        Value::Token(_) => {}
    }
}

/// Points a page's `/Parent` at the joined page tree (object 1).
fn set_parent(page: &mut Value) {
    if let Value::Dict(entries) = page {
        entries.retain(|(k, _)| k != b"Parent");
        // Written as it stands: the page tree's number is not one of the page's own.
        entries.push((b"Parent".to_vec(), Value::Token(b"1 0 R".to_vec())));
    }
}

/// Writes `v` with its references renumbered by `numbers`.
fn write_value(
    out: &mut Vec<u8>,
    v: &Value,
    numbers: &BTreeMap<u32, u32>,
) -> Result<(), String> {
    match v {
        Value::Ref(n) => {
            let new =
                numbers.get(n).ok_or_else(|| format!("object {n} is not copied"))?;
            write!(out, "{new} 0 R").map_err(|e| e.to_string())?;
        }
        Value::Token(t) => out.extend_from_slice(t),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                write_value(out, item, numbers)?;
            }
            out.push(b']');
        }
        Value::Dict(entries) => {
            out.extend_from_slice(b"<<");
            for (k, v) in entries {
                out.push(b'/');
                out.extend_from_slice(k);
                out.push(b' ');
                write_value(out, v, numbers)?;
            }
            out.extend_from_slice(b">>");
        }
    }
    Ok(())
}

/// Reads a one-page PDF: every object its cross-reference table lists, and its page.
fn read(pdf: &[u8]) -> Result<PagePdf, String> {
    let start = find_last(pdf, b"startxref").ok_or("no startxref")?;
    let mut p = Parser { s: pdf, at: start + b"startxref".len() };
    let xref: usize = p.integer()?.try_into().map_err(|_| "bad startxref")?;
    let mut p = Parser { s: pdf, at: xref };
    p.keyword(b"xref")?;
    let mut offsets = Vec::new();
    loop {
        p.skip_space();
        if p.rest().starts_with(b"trailer") {
            break;
        }
        let first = p.integer()?;
        let count = p.integer()?;
        for k in 0..count {
            let offset = p.integer()?;
            let _generation = p.integer()?;
            p.skip_space();
            let kind = *p.s.get(p.at).ok_or("cut-short cross-reference table")?;
            p.at += 1;
            if kind == b'n' {
                let n = u32::try_from(first + k).map_err(|_| "bad object number")?;
                offsets.push((n, usize::try_from(offset).map_err(|_| "bad offset")?));
            }
        }
    }
    p.keyword(b"trailer")?;
    let trailer = p.value()?;
    let root =
        lookup(&trailer, b"Root").and_then(as_ref).ok_or("the trailer has no /Root")?;
    let mut objects = BTreeMap::new();
    for (n, offset) in offsets {
        let mut p = Parser { s: pdf, at: offset };
        let number = p.integer()?;
        let _generation = p.integer()?;
        p.keyword(b"obj")?;
        if u32::try_from(number).ok() != Some(n) {
            return Err(format!("object {n} is not at its offset"));
        }
        let value = p.value()?;
        p.skip_space();
        let stream = if p.rest().starts_with(b"stream") {
            p.at += b"stream".len();
            if p.rest().starts_with(b"\r\n") {
                p.at += 2;
            } else if p.rest().starts_with(b"\n") {
                p.at += 1;
            }
            let length = match lookup(&value, b"Length") {
                Some(Value::Token(t)) => std::str::from_utf8(t)
                    .ok()
                    .and_then(|t| t.parse::<usize>().ok())
                    .ok_or(format!("object {n} has a bad /Length"))?,
                _ => return Err(format!("object {n} has no direct /Length")),
            };
            let bytes = pdf
                .get(p.at..p.at + length)
                .ok_or(format!("object {n}'s stream is cut short"))?;
            Some(bytes.to_vec())
        } else {
            None
        };
        objects.insert(n, Object { value, stream });
    }
    let pages = objects
        .get(&root)
        .and_then(|c| lookup(&c.value, b"Pages"))
        .and_then(as_ref)
        .ok_or("the catalog has no /Pages")?;
    let page = objects
        .get(&pages)
        .and_then(|p| lookup(&p.value, b"Kids"))
        .and_then(|k| match k {
            Value::Array(items) => items.first().and_then(as_ref),
            _ => None,
        })
        .ok_or("the page tree has no first page")?;
    Ok(PagePdf { objects, page })
}

/// The value of `key` in a dictionary.
pub(crate) fn lookup<'v>(dict: &'v Value, key: &[u8]) -> Option<&'v Value> {
    match dict {
        Value::Dict(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

/// The object number a reference names.
fn as_ref(v: &Value) -> Option<u32> {
    match v {
        Value::Ref(n) => Some(*n),
        _ => None,
    }
}

/// Where `needle` last occurs in `haystack`.
fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// A cursor over PDF syntax.
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

/// Whether `b` ends a token.
fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || b"()<>[]{}/%".contains(&b) || b == 0
}

impl Parser<'_> {
    /// What is left from the cursor on (nothing past the end).
    fn rest(&self) -> &[u8] {
        self.s.get(self.at..).unwrap_or(&[])
    }

    fn skip_space(&mut self) {
        while let Some(&b) = self.s.get(self.at) {
            if b.is_ascii_whitespace() || b == 0 {
                self.at += 1;
            } else if b == b'%' {
                while self.s.get(self.at).is_some_and(|&b| b != b'\n' && b != b'\r') {
                    self.at += 1;
                }
            } else {
                break;
            }
        }
    }

    fn keyword(&mut self, word: &[u8]) -> Result<(), String> {
        self.skip_space();
        if self.rest().starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(format!(
                "expected `{}` at byte {}",
                String::from_utf8_lossy(word),
                self.at
            ))
        }
    }

    /// A bare token (number, keyword) at the cursor.
    fn word(&mut self) -> &[u8] {
        self.skip_space();
        self.at = self.at.min(self.s.len());
        let start = self.at;
        while self.s.get(self.at).is_some_and(|&b| !is_delimiter(b)) {
            self.at += 1;
        }
        &self.s[start..self.at]
    }

    fn integer(&mut self) -> Result<i64, String> {
        let at = self.at;
        let w = self.word();
        std::str::from_utf8(w)
            .ok()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| format!("expected a number at byte {at}"))
    }

    fn value(&mut self) -> Result<Value, String> {
        self.skip_space();
        let at = self.at;
        if self.rest().starts_with(b"<<") {
            self.at += 2;
            let mut entries = Vec::new();
            loop {
                self.skip_space();
                if self.rest().starts_with(b">>") {
                    self.at += 2;
                    return Ok(Value::Dict(entries));
                }
                let Value::Token(name) = self.value()? else {
                    return Err(format!(
                        "a dictionary key is not a name at byte {}",
                        self.at
                    ));
                };
                let key =
                    name.strip_prefix(b"/").ok_or("a dictionary key is not a name")?;
                let key = key.to_vec();
                entries.push((key, self.value()?));
            }
        }
        match self.rest().first() {
            None => Err("the file ends inside an object".into()),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    if self.s.get(self.at) == Some(&b']') {
                        self.at += 1;
                        return Ok(Value::Array(items));
                    }
                    items.push(self.value()?);
                }
            }
            Some(b'(') => {
                let mut depth = 0usize;
                while let Some(&b) = self.s.get(self.at) {
                    self.at += 1;
                    match b {
                        b'\\' => self.at += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                return Ok(Value::Token(self.s[at..self.at].to_vec()));
                            }
                        }
                        _ => {}
                    }
                }
                Err(format!("a string at byte {at} does not end"))
            }
            Some(b'<') => {
                let end = self
                    .rest()
                    .iter()
                    .position(|&b| b == b'>')
                    .ok_or(format!("a hex string at byte {at} does not end"))?;
                self.at += end + 1;
                Ok(Value::Token(self.s[at..self.at].to_vec()))
            }
            Some(b'/') => {
                self.at += 1;
                while self.s.get(self.at).is_some_and(|&b| !is_delimiter(b)) {
                    self.at += 1;
                }
                Ok(Value::Token(self.s[at..self.at].to_vec()))
            }
            Some(_) => {
                let word = self.word().to_vec();
                if word.is_empty() {
                    return Err(format!("unexpected byte at {at}"));
                }
                // `N G R` is a reference.
                if word.iter().all(u8::is_ascii_digit) {
                    let back = self.at;
                    let generation = self.word().to_vec();
                    let r = self.word().to_vec();
                    if !generation.is_empty()
                        && generation.iter().all(u8::is_ascii_digit)
                        && r == b"R"
                    {
                        let n = std::str::from_utf8(&word)
                            .ok()
                            .and_then(|w| w.parse().ok())
                            .ok_or(format!("bad reference at byte {at}"))?;
                        return Ok(Value::Ref(n));
                    }
                    self.at = back;
                }
                Ok(Value::Token(word))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_with_references_renumbered() {
        let text =
            b"<</Type/Page/Kids[3 0 R 4 0 R]/S(a (b) \\) c)/H<0aff>/N -1.5/B true>>";
        let v = Parser { s: text, at: 0 }.value().unwrap();
        let numbers = BTreeMap::from([(3, 10), (4, 11)]);
        let mut out = Vec::new();
        write_value(&mut out, &v, &numbers).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "<</Type /Page/Kids [10 0 R 11 0 R]/S (a (b) \\) c)/H <0aff>/N -1.5/B true>>"
        );
    }

    #[test]
    fn a_file_that_is_not_a_pdf_is_an_error() {
        let info = DocInfo::new("x", None);
        assert!(join(&[b"not a pdf".to_vec()], &info, &[]).is_err());
        let cut = b"%PDF-1.7\n1 0 obj\n<</Length 99>>\nstream\nab\nxref\n0 2\n0000000000 65535 f\r\n0000000009 00000 n\r\ntrailer\n<</Root 1 0 R>>\nstartxref\n41\n%%EOF";
        assert!(join(&[cut.to_vec()], &info, &[]).is_err());
    }
}
