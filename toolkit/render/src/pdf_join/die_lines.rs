//! Die lines (`die_line`) added to the pages of a document as it is joined: each page with
//! a die line draws its own content between `q` and `Q`, then the die line, which names
//! the colour space, graphics state and layer the page's resources gain; the catalog lists
//! the layer.

use std::collections::BTreeMap;
use std::io::Write;

use super::{PagePdf, Value, lookup};

/// The spot colour's name, the name of the layer, and the name every page resource of the
/// die line goes by.
pub const SPOT: &str = "CutContour";

/// The objects a document with a die line holds once, by the numbers given them, as PDF
/// text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Resources {
    /// The `Separation` colour space.
    pub colour_space: u32,
    /// Its tint transform: from white to magenta in RGB, as the output intent's colour
    /// space is RGB.
    pub tint: u32,
    /// The graphics state that overprints.
    pub overprint: u32,
    /// The optional content group.
    pub layer: u32,
}

impl Resources {
    /// Each object's number and text, in order.
    pub fn objects(&self) -> [(u32, String); 4] {
        [
            (
                self.colour_space,
                format!("[/Separation/{SPOT}/DeviceRGB {} 0 R]", self.tint),
            ),
            (
                self.tint,
                "<</FunctionType 2/Domain[0 1]/C0[1 1 1]/C1[1 0 1]/N 1>>".to_string(),
            ),
            (self.overprint, "<</Type/ExtGState/OP true/op true/OPM 1>>".to_string()),
            (self.layer, format!("<</Type/OCG/Name({SPOT})>>")),
        ]
    }

    /// The catalog's optional content properties: the one layer, on, listed in the
    /// default configuration (PDF/X-4 wants it named and every group ordered).
    pub fn catalog_entry(&self) -> String {
        let l = self.layer;
        format!(
            "/OCProperties<</OCGs[{l} 0 R]/D<</Name(Default)/Order[{l} 0 R]/ON[{l} 0 R]>>>>"
        )
    }

    /// The page resources the die line's content names: category and reference.
    pub fn page_entries(&self) -> [(&'static [u8], u32); 3] {
        [
            (b"ColorSpace", self.colour_space),
            (b"ExtGState", self.overprint),
            (b"Properties", self.layer),
        ]
    }
}

/// What the die lines add to a document: the objects it holds once and each page's two
/// content streams, by number.
#[derive(Debug, Default)]
pub(crate) struct Added {
    resources: Option<Resources>,
    streams: Vec<(u32, Vec<u8>)>,
}

impl Added {
    /// The catalog's entry for the layer (nothing without a die line).
    pub fn catalog_entry(&self) -> String {
        self.resources.map(|r| r.catalog_entry()).unwrap_or_default()
    }

    /// Writes the added objects to `out`, noting where each starts in `offsets`.
    pub fn write(
        &self,
        out: &mut Vec<u8>,
        offsets: &mut BTreeMap<u32, usize>,
    ) -> Result<(), String> {
        let objects = self.resources.map(|r| r.objects()).into_iter().flatten();
        for (n, text) in objects {
            offsets.insert(n, out.len());
            write!(out, "{n} 0 obj\n{text}\nendobj\n").map_err(|e| e.to_string())?;
        }
        for (n, bytes) in &self.streams {
            offsets.insert(*n, out.len());
            write!(out, "{n} 0 obj\n<</Length {}>>\nstream\n", bytes.len())
                .map_err(|e| e.to_string())?;
            out.extend_from_slice(bytes);
            out.extend_from_slice(b"\nendstream\nendobj\n");
        }
        Ok(())
    }
}

/// Adds `die_lines[i]` (page content; none when empty or missing) to page `pages[i]`,
/// numbering the new objects from `next` on.
pub(crate) fn add(
    pages: &mut [PagePdf],
    die_lines: &[String],
    next: &mut u32,
) -> Result<Added, String> {
    if die_lines.iter().all(String::is_empty) {
        return Ok(Added::default());
    }
    let r = Resources {
        colour_space: *next,
        tint: *next + 1,
        overprint: *next + 2,
        layer: *next + 3,
    };
    *next += 4;
    let mut streams = Vec::new();
    for (pdf, die) in pages.iter_mut().zip(die_lines).filter(|(_, d)| !d.is_empty()) {
        let (before, after) = (*next, *next + 1);
        *next += 2;
        streams.push((before, b"q\n".to_vec()));
        streams.push((after, format!("Q\n{die}").into_bytes()));
        let page = pdf
            .objects
            .get_mut(&pdf.page)
            .map(|o| &mut o.value)
            .ok_or("the page is missing")?;
        let mut contents = vec![reference(before)];
        match lookup(page, b"Contents").cloned() {
            Some(Value::Array(items)) => contents.extend(items),
            Some(v) => contents.push(v),
            None => {}
        }
        contents.push(reference(after));
        *entry(page, b"Contents")? = Value::Array(contents);
        for (category, n) in r.page_entries() {
            add_resource(pdf, category, n)?;
        }
    }
    Ok(Added { resources: Some(r), streams })
}

/// A reference to object `n` as it is written (its number is already the joined one).
fn reference(n: u32) -> Value {
    Value::Token(format!("{n} 0 R").into_bytes())
}

/// The value of `key` in the dictionary `v`, an empty dictionary put there when there is
/// none.
fn entry<'v>(v: &'v mut Value, key: &[u8]) -> Result<&'v mut Value, String> {
    let Value::Dict(entries) = v else {
        return Err(format!("no dictionary to hold /{}", String::from_utf8_lossy(key)));
    };
    let at = match entries.iter().position(|(k, _)| k == key) {
        Some(at) => at,
        None => {
            entries.push((key.to_vec(), Value::Dict(Vec::new())));
            entries.len() - 1
        }
    };
    Ok(&mut entries[at].1)
}

/// The value of object `o`.
fn value(pdf: &PagePdf, o: u32) -> Option<&Value> {
    pdf.objects.get(&o).map(|o| &o.value)
}

/// Names object `n` as [`SPOT`] in the `category` of the page's resources, following
/// references to the resources and to the category's dictionary.
fn add_resource(pdf: &mut PagePdf, category: &[u8], n: u32) -> Result<(), String> {
    let page = pdf.page;
    let referenced = |v: Option<&Value>| match v {
        Some(Value::Ref(r)) => Some(*r),
        _ => None,
    };
    // The object whose dictionary the resources are, when they are an object of their own.
    let own = referenced(value(pdf, page).and_then(|p| lookup(p, b"Resources")));
    let resources = match own {
        Some(o) => value(pdf, o),
        None => value(pdf, page).and_then(|p| lookup(p, b"Resources")),
    };
    let holder = match referenced(resources.and_then(|r| lookup(r, category))) {
        // The category's dictionary is an object of its own.
        Some(o) => pdf.objects.get_mut(&o).map(|o| &mut o.value),
        None => {
            let object = pdf.objects.get_mut(&own.unwrap_or(page)).map(|o| &mut o.value);
            match (object, own) {
                (Some(v), Some(_)) => Some(entry(v, category)?),
                (Some(v), None) => Some(entry(entry(v, b"Resources")?, category)?),
                (None, _) => None,
            }
        }
    };
    match holder {
        Some(Value::Dict(entries)) => {
            entries.push((SPOT.as_bytes().to_vec(), reference(n)));
            Ok(())
        }
        _ => Err(format!(
            "the page's /{} is not a dictionary",
            String::from_utf8_lossy(category)
        )),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::die_line::content;
    use crate::sheet::{DocInfo, PrintBoxes, join_pdf, page_pdf};

    #[test]
    fn the_die_line_goes_on_its_page_only_with_its_resources_once() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="2in" height="2in" viewBox="0 0 192 192"><rect width="96" height="96" fill="#336699" opacity="0.5"/></svg>"##;
        let page = page_pdf(svg, (2.0, 2.0), &PrintBoxes::whole((2.0, 2.0))).unwrap();
        let info = DocInfo::new("die", None);
        let die = content(&[((0.5, 0.5), (1.5, 0.5))], 2.0);
        let pdf = join_pdf(&[page.clone(), page.clone()], &info, &[die, String::new()])
            .unwrap();
        let text = String::from_utf8_lossy(&pdf);
        for once in [
            "[/Separation/CutContour/DeviceRGB",
            "/FunctionType 2/Domain[0 1]/C0[1 1 1]/C1[1 0 1]/N 1",
            "/Type/ExtGState/OP true/op true/OPM 1",
            "/Type/OCG/Name(CutContour)",
            "/OCProperties<</OCGs[",
            "Q\n/OC /CutContour BDC\n",
            "36.000 108.000 m 108.000 108.000 l",
        ] {
            assert_eq!(text.matches(once).count(), 1, "{once}");
        }
        // Three uses in the content, and a name in each of the page's three resource
        // categories.
        assert_eq!(text.matches("/CutContour ").count(), 6);
        // The same pages without a die line are joined as before.
        let plain = join_pdf(&[page.clone(), page.clone()], &info, &[]).unwrap();
        assert!(!String::from_utf8_lossy(&plain).contains("CutContour"));
        assert_eq!(
            plain,
            join_pdf(&[page.clone(), page], &info, &[String::new()]).unwrap()
        );
    }
}
