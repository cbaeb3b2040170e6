//! A small XML element tree for `buildFile.xml`, written with VASSAL's conventions:
//! attributes escaped (TAB and newlines as character references), text escaped, two-space
//! indentation, elements with text kept on one line.

/// The `VASSAL.build.` package prefix every buildFile tag starts with.
pub const BUILD: &str = "VASSAL.build.";

/// One element of the buildFile.
#[derive(Debug, Clone, Default)]
pub struct Element {
    tag: String,
    attrs: Vec<(String, String)>,
    text: Option<String>,
    children: Vec<Element>,
    /// Elements written already, put in as they are instead of this element.
    verbatim: Option<String>,
}

impl Element {
    /// An element with a fully qualified tag; a tag starting with `.` gets the
    /// `VASSAL.build` prefix (`.module.Map` → `VASSAL.build.module.Map`).
    pub fn new(tag: &str) -> Element {
        let tag = match tag.strip_prefix('.') {
            Some(rest) => format!("{BUILD}{rest}"),
            None => tag.to_string(),
        };
        Element { tag, ..Element::default() }
    }

    /// Adds an attribute.
    pub fn attr(mut self, name: &str, value: impl ToString) -> Element {
        self.attrs.push((name.to_string(), value.to_string()));
        self
    }

    /// Sets the element's text.
    pub fn text(mut self, text: impl Into<String>) -> Element {
        self.text = Some(text.into());
        self
    }

    /// Adds a child.
    pub fn child(mut self, child: Element) -> Element {
        self.children.push(child);
        self
    }

    /// Adds children.
    pub fn children(mut self, children: impl IntoIterator<Item = Element>) -> Element {
        self.children.extend(children);
        self
    }

    /// Elements written already by [`Element::written`] at the depth this one stands at,
    /// put in the document as they are.
    pub fn verbatim(written: String) -> Element {
        Element { verbatim: Some(written), ..Element::default() }
    }

    /// This element as the document writes it `depth` levels down (two spaces a level).
    pub fn written(&self, depth: usize) -> String {
        let mut out = String::new();
        self.write(&mut out, depth);
        out
    }

    /// The document: XML declaration and this element as the root.
    pub fn document(&self) -> String {
        let mut out = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n",
        );
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        if let Some(written) = &self.verbatim {
            out.push_str(written);
            return;
        }
        let pad = "  ".repeat(depth);
        out.push_str(&pad);
        out.push('<');
        out.push_str(&self.tag);
        for (k, v) in &self.attrs {
            out.push(' ');
            out.push_str(k);
            out.push_str("=\"");
            out.push_str(&escape(v, true));
            out.push('"');
        }
        match (&self.text, self.children.is_empty()) {
            (None, true) => out.push_str("/>\n"),
            (Some(t), true) => {
                out.push('>');
                out.push_str(&escape(t, false));
                out.push_str("</");
                out.push_str(&self.tag);
                out.push_str(">\n");
            }
            (text, false) => {
                out.push_str(">\n");
                if let Some(t) = text {
                    out.push_str(&pad);
                    out.push_str(&escape(t, false));
                    out.push('\n');
                }
                for c in &self.children {
                    c.write(out, depth + 1);
                }
                out.push_str(&pad);
                out.push_str("</");
                out.push_str(&self.tag);
                out.push_str(">\n");
            }
        }
    }
}

/// Escapes text for XML; in attributes also quotes, TABs and line breaks.
pub fn escape(s: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            // Characters XML 1.0 cannot hold are dropped rather than written.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_parses_back() {
        let doc = Element::new(".GameModule")
            .attr("name", "A & B \"q\"\tx")
            .child(
                Element::new(".widget.PieceSlot").attr("gpid", 3).text("+/null/a\tb<c>"),
            )
            .document();
        let parsed = roxmltree::Document::parse(&doc).expect("well-formed");
        let root = parsed.root_element();
        assert_eq!(root.tag_name().name(), "VASSAL.build.GameModule");
        assert_eq!(root.attribute("name"), Some("A & B \"q\"\tx"));
        let slot = root.first_element_child().expect("child");
        assert_eq!(slot.text(), Some("+/null/a\tb<c>"));
    }

    #[test]
    fn elements_written_ahead_read_as_the_same_document() {
        let slot = |i: u32| {
            Element::new(".widget.PieceSlot")
                .attr("gpid", i)
                .text(format!("+/null/{i}\t<x>"))
        };
        let panel = || Element::new(".widget.PanelWidget").attr("entryName", "a & b");
        let whole = Element::new(".GameModule")
            .child(panel().children((1..4).map(slot)))
            .child(Element::new(".module.Chatter"))
            .document();
        let ahead: String = (1..4).map(|i| slot(i).written(2)).collect();
        let joined = Element::new(".GameModule")
            .child(panel().child(Element::verbatim(ahead)))
            .child(Element::new(".module.Chatter"))
            .document();
        assert_eq!(joined, whole);
        assert!(
            whole.contains("\n    <VASSAL.build.widget.PieceSlot gpid=\"2\">"),
            "{whole}"
        );
    }
}
