//! Counter templates: an SVG drawn once (in Inkscape or any SVG editor) whose fields
//! muster fills from the manifest, as Inkscape's Countersheet extension does.
//!
//! A field is bound by an element id (`<text id="designation">`) or by a placeholder in
//! text or attribute values (`{attack}-{defense}`, `fill="{colour}"`). The element with
//! id `symbol` is the slot the unit-type symbol is drawn in, `background` is extended into
//! the bleed, and elements with an id `if-…` are drawn only when their condition holds.
//! Templates are parsed here once, at load, into a [`Template`]: a tree of the SVG
//! elements a renderer needs (editor-only elements and attributes such as Inkscape's and
//! Sodipodi's are left out), each with the place in the file it came from.

use crate::diag::{Diagnostic, suggest};
use crate::span::{FileId, Span};
use std::collections::HashSet;

/// Text fields a template may name, besides the game's counter values.
pub const TEXT_FIELDS: &[&str] = &[
    "designation",
    "formation",
    "name",
    "size",
    "size-left",
    "size-right",
    "type",
    "side",
    "nationality",
    "values",
    "id",
];

/// Colour fields, for attribute values (`fill="{colour}"`).
pub const COLOUR_FIELDS: &[&str] = &["colour", "ink"];

/// Element ids with a role: the unit-type symbol's slot and the background.
pub const SLOTS: &[&str] = &["symbol", "background"];

/// Conditions an element id `if-<condition>` names: the face (`back` is either kind of
/// back: `reduced`, a step loss, or `state`, a state such as Disordered), and the markings.
pub const CONDITIONS: &[&str] = &[
    "front",
    "back",
    "reduced",
    "state",
    "exploitation",
    "independent-bar",
    "camouflage",
];

/// Attributes muster reads on a text element and leaves out of the drawing: the width
/// text is fitted to (and the height of its lines when it breaks, and the baseline they
/// are centred on), the smallest size it may shrink to, how many lines it may use (1 to 3) and what happens when it does not
/// fit (`report` or `omit`).
pub const FIT_ATTRIBUTES: &[&str] = &[
    "data-muster-fit-width",
    "data-muster-fit-height",
    "data-muster-break-y",
    "data-muster-min-size",
    "data-muster-lines",
    "data-muster-overflow",
];

/// Largest template muster reads, in XML nodes.
const NODES_LIMIT: u32 = 200_000;

/// A parsed counter template (or SVG art): the root's view box and its content.
#[derive(Debug, Clone)]
pub struct Template {
    /// Where it came from: a path under the game's folder, or the name of a template
    /// shipped with muster.
    pub origin: String,
    /// A short tag unique among the templates of a game, which prefixes every id of the
    /// template when it is drawn so that two templates on one page never share an id.
    pub tag: String,
    /// The root's view box: x, y, width and height in template units.
    pub view_box: [f64; 4],
    /// The root's children.
    pub nodes: Vec<Node>,
}

/// A node of a template.
#[derive(Debug, Clone)]
pub enum Node {
    /// An element.
    Element(Element),
    /// Character data (inside text and style elements).
    Text(Text),
}

/// Character data and where it starts in the file.
#[derive(Debug, Clone)]
pub struct Text {
    /// The text, entities resolved.
    pub text: String,
    /// Where it starts.
    pub span: Span,
}

/// An SVG element of a template.
#[derive(Debug, Clone)]
pub struct Element {
    /// Its local name (`text`, `rect`, `g`).
    pub name: String,
    /// Its attributes as SVG reads them (`xlink:href` is written `href`), in file order.
    pub attrs: Vec<(String, String)>,
    /// Its children.
    pub children: Vec<Node>,
    /// Where its start tag is.
    pub span: Span,
}

impl Element {
    /// An attribute's value.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The element's id.
    pub fn id(&self) -> Option<&str> {
        self.attr("id")
    }

    /// A presentation property, from the `style` attribute first (it wins in SVG), then
    /// the attribute of that name.
    pub fn property(&self, name: &str) -> Option<String> {
        self.attr("style")
            .and_then(|s| style_property(s, name))
            .or_else(|| self.attr(name).map(str::to_string))
    }

    /// Every element below this one, depth first.
    pub fn descendants(&self) -> Vec<&Element> {
        let mut out = Vec::new();
        for n in &self.children {
            if let Node::Element(e) = n {
                out.push(e);
                out.extend(e.descendants());
            }
        }
        out
    }

    /// The text of every character node below this one.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for n in &self.children {
            match n {
                Node::Text(t) => out.push_str(&t.text),
                Node::Element(e) => out.push_str(&e.text()),
            }
        }
        out
    }
}

impl Template {
    /// Every element of the template, depth first.
    pub fn elements(&self) -> Vec<&Element> {
        let mut out = Vec::new();
        for n in &self.nodes {
            if let Node::Element(e) = n {
                out.push(e);
                out.extend(e.descendants());
            }
        }
        out
    }

    /// The element with an id.
    pub fn by_id(&self, id: &str) -> Option<&Element> {
        self.elements().into_iter().find(|e| e.id() == Some(id))
    }
}

/// The value of one property in a CSS declaration list (`font-size:4px;fill:#000`).
pub fn style_property(style: &str, name: &str) -> Option<String> {
    style.split(';').find_map(|decl| {
        let (k, v) = decl.split_once(':')?;
        (k.trim() == name).then(|| v.trim().to_string())
    })
}

/// The placeholders of a text (`{attack}-{defense}` → `attack` at 0, `defense` at 9): a
/// name of lowercase letters, digits and dashes between braces. Other braces (CSS rules)
/// are not placeholders.
pub fn placeholders(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find('{').map(|i| from + i) {
        let rest = &text[open + 1..];
        let len = rest
            .bytes()
            .take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
            .count();
        if len > 0 && rest.as_bytes().get(len) == Some(&b'}') {
            out.push((open, &rest[..len]));
            from = open + len + 2;
        } else {
            from = open + 1;
        }
    }
    out
}

/// Where in a file a byte offset is.
fn span_at(doc: &roxmltree::Document, file: FileId, offset: usize, len: usize) -> Span {
    let pos = doc.text_pos_at(offset);
    Span { file, line: pos.row, column: pos.col, offset: offset as u32, len: len as u32 }
}

/// Parses an SVG file into a template. `origin` and `tag` are recorded on it; every
/// problem names its line and column in the file.
pub fn parse(
    file: FileId,
    text: &str,
    origin: &str,
    tag: &str,
) -> Result<Template, Vec<Diagnostic>> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: NODES_LIMIT,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = match roxmltree::Document::parse_with_options(text, options) {
        Ok(d) => d,
        Err(e) => {
            let pos = e.pos();
            let span = Span { file, line: pos.row, column: pos.col, offset: 0, len: 1 };
            return Err(vec![Diagnostic::error(
                span,
                format!("failed to read {origin} as SVG ({e})"),
            )]);
        }
    };
    let root = doc.root_element();
    let root_span = span_at(&doc, file, root.range().start, 1);
    if root.tag_name().name() != "svg" || root.tag_name().namespace() != Some(SVG_NS) {
        return Err(vec![
            Diagnostic::error(root_span, format!("{origin} is not an SVG document"))
                .with_expected("an `<svg xmlns=\"http://www.w3.org/2000/svg\">` root"),
        ]);
    }
    let number = |name: &str| root.attribute(name).and_then(|v| length(v).ok());
    let view_box = match root.attribute("viewBox") {
        Some(v) => {
            let parts: Vec<f64> = v
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|p| !p.is_empty())
                .filter_map(|p| p.parse().ok())
                .collect();
            match parts[..] {
                [x, y, w, h] if w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite() => {
                    [x, y, w, h]
                }
                _ => {
                    return Err(vec![
                        Diagnostic::error(
                            root_span,
                            format!("the viewBox of {origin} is not four numbers"),
                        )
                        .with_expected("`viewBox=\"0 0 45 45\"`: x, y, width and height"),
                    ]);
                }
            }
        }
        None => {
            match (number("width"), number("height")) {
                (Some(w), Some(h)) if w > 0.0 && h > 0.0 => [0.0, 0.0, w, h],
                _ => {
                    return Err(vec![
                    Diagnostic::error(
                        root_span,
                        format!("{origin} gives neither a viewBox nor its width and height"),
                    )
                    .with_expected("a `viewBox` on the root `<svg>`"),
                ]);
                }
            }
        }
    };
    let unresolved = unresolved_references(&doc, file, origin);
    if !unresolved.is_empty() {
        return Err(unresolved);
    }
    let nodes = root.children().filter_map(|n| convert(&doc, file, n, false)).collect();
    Ok(Template { origin: origin.to_string(), tag: tag.to_string(), view_box, nodes })
}

/// An error for each reference of the SVG that does not resolve inside it: an `href` or
/// `url(…)` naming an id no element has, and one that names another file. An image must
/// be held (a `data:` URL): drawing one linked by a path would read a file from outside the
/// game's sources (by a path that depends on where muster runs), and the cache would not
/// see it change. What does not resolve would be left out of the drawing unsaid.
fn unresolved_references(
    doc: &roxmltree::Document,
    file: FileId,
    origin: &str,
) -> Vec<Diagnostic> {
    let ids: HashSet<&str> =
        doc.descendants().filter_map(|n| n.attribute("id")).collect();
    let mut found = Vec::new();
    let mut check = |target: &str, at: Span, image: bool| {
        let target = target.trim();
        let is_data = target.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("data:"));
        let problem = match target.strip_prefix('#') {
            Some(id) if ids.contains(id) => return,
            Some(id) => Diagnostic::error(
                at,
                format!("{origin} refers to `#{id}`, which no element of it has as its id"),
            )
            .with_expected("the id of an element of the file")
            .with_suggestion(suggest(id, ids.iter().copied()).map(|s| format!("#{s}"))),
            None if is_data && image => match held_image_size(target) {
                Some((w, h)) if !crate::image_header::size_fits(w, h) => Diagnostic::error(
                    at,
                    format!("{origin} holds an image of {}", crate::image_header::too_large(w, h)),
                )
                .with_expected("the image at a smaller size"),
                _ => return,
            },
            None if image => Diagnostic::error(
                at,
                format!("{origin} links to the image `{target}` instead of holding it"),
            )
            .with_expected("the image embedded in the SVG, as a `data:` URL")
            .with_hint(
                "most editors embed linked images on request (Inkscape: Extensions, Images, Embed Images)",
            ),
            None => Diagnostic::error(
                at,
                format!("{origin} refers to `{target}`, outside the file"),
            )
            .with_expected("`#id`: the id of an element of the file"),
        };
        found.push(problem);
    };
    for node in doc.descendants() {
        let image = node.tag_name().namespace() == Some(SVG_NS)
            && matches!(node.tag_name().name(), "image" | "feImage");
        // A hyperlink's target is no part of the drawing.
        let link = node.has_tag_name((SVG_NS, "a"));
        for a in node.attributes() {
            let r = a.range_value();
            if a.name() == "href" && matches!(a.namespace(), None | Some(XLINK_NS)) {
                if !link {
                    check(a.value(), span_at(doc, file, r.start, r.len()), image);
                }
            } else if a.namespace().is_none() {
                for (start, target) in urls(a.value()) {
                    check(
                        target,
                        span_at(doc, file, r.start + start, target.len()),
                        false,
                    );
                }
            }
        }
        // A style sheet's `url(…)`.
        if node.is_text()
            && node.parent().is_some_and(|p| p.has_tag_name((SVG_NS, "style")))
        {
            let start = node.range().start;
            for (at, target) in urls(node.text().unwrap_or_default()) {
                check(target, span_at(doc, file, start + at, target.len()), false);
            }
        }
    }
    found
}

/// The size of the PNG or JPEG a `data:` URL holds in base64, from its header.
fn held_image_size(url: &str) -> Option<(u32, u32)> {
    use base64::Engine;
    let (head, payload) = url.split_once(',')?;
    if !head.to_ascii_lowercase().ends_with(";base64") {
        return None;
    }
    let payload: String = payload.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD.decode(payload).ok()?;
    crate::image_header::header_size(&bytes)
}

/// Each `url(…)` of a value: where its target starts in the value, and the target
/// without quotes.
fn urls(value: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = value[from..].find("url(") {
        let open = from + k + 4;
        let Some(len) = value[open..].find(')') else { break };
        let inner = &value[open..open + len];
        let lead = inner.len() - inner.trim_start().len();
        let target = inner.trim().trim_matches(|c| c == '\'' || c == '"');
        let quote = usize::from(inner.trim_start().starts_with(['\'', '"']));
        out.push((open + lead + quote, target));
        from = open + len + 1;
    }
    out
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Elements that never reach a drawing.
const LEFT_OUT: &[&str] = &["script", "foreignObject", "metadata"];
/// Elements whose character data is drawn or read.
const WITH_TEXT: &[&str] = &["text", "tspan", "textPath", "style", "title"];

fn convert(
    doc: &roxmltree::Document,
    file: FileId,
    node: roxmltree::Node,
    in_text: bool,
) -> Option<Node> {
    if node.is_text() {
        let text = node.text()?;
        if !in_text {
            return None;
        }
        return Some(Node::Text(Text {
            text: text.to_string(),
            span: span_at(doc, file, node.range().start, text.len()),
        }));
    }
    if !node.is_element() || node.tag_name().namespace() != Some(SVG_NS) {
        return None;
    }
    let name = node.tag_name().name();
    if LEFT_OUT.contains(&name) {
        return None;
    }
    let attrs = node
        .attributes()
        .filter_map(|a| match a.namespace() {
            None => Some((a.name().to_string(), a.value().to_string())),
            Some(XLINK_NS) if a.name() == "href" => {
                Some(("href".to_string(), a.value().to_string()))
            }
            Some(XML_NS) if a.name() == "space" => {
                Some(("xml:space".to_string(), a.value().to_string()))
            }
            _ => None,
        })
        .collect();
    let in_text = in_text || WITH_TEXT.contains(&name);
    Some(Node::Element(Element {
        name: name.to_string(),
        attrs,
        children: node
            .children()
            .filter_map(|c| convert(doc, file, c, in_text))
            .collect(),
        span: span_at(doc, file, node.range().start, name.len() + 1),
    }))
}

/// A length in user units: a number with an optional `px`, `pt`, `mm`, `cm` or `in`
/// (CSS units, 96 user units to the inch).
pub fn length(v: &str) -> Result<f64, String> {
    let v = v.trim();
    let (num, scale) = [
        ("px", 1.0),
        ("pt", 96.0 / 72.0),
        ("mm", 96.0 / 25.4),
        ("cm", 96.0 / 2.54),
        ("in", 96.0),
    ]
    .iter()
    .find_map(|(u, k)| v.strip_suffix(u).map(|n| (n, *k)))
    .unwrap_or((v, 1.0));
    match num.trim().parse::<f64>() {
        Ok(n) if n.is_finite() => Ok(n * scale),
        _ => Err(format!("`{v}` is not a length")),
    }
}

/// The first number of a coordinate list (`x="10 12 14"` → 10).
pub fn first_number(v: &str) -> Option<f64> {
    v.split(|c: char| c == ',' || c.is_whitespace())
        .find(|p| !p.is_empty())
        .and_then(|p| length(p).ok())
}

/// Checks a template's bindings: every placeholder names a field (`values` are the
/// game's counter value ids), every `if-` id a condition, and the `symbol` slot has a
/// box. Returns every problem, each at its line and column in the template.
pub fn check(t: &Template, values: &[&str]) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let known: Vec<&str> = TEXT_FIELDS
        .iter()
        .chain(COLOUR_FIELDS)
        .copied()
        .chain(values.iter().copied())
        .collect();
    let check_text = |text: &str, span: Span, errors: &mut Vec<Diagnostic>| {
        for (at, name) in placeholders(text) {
            if !known.contains(&name) {
                let span = Span {
                    column: span.column + text[..at].chars().count() as u32,
                    offset: span.offset + at as u32,
                    len: name.len() as u32 + 2,
                    ..span
                };
                errors.push(
                    Diagnostic::error(
                        span,
                        format!("`{{{name}}}` in {} names no field", t.origin),
                    )
                    .with_expected(format!(
                        "one of {} or a counter value ({})",
                        TEXT_FIELDS
                            .iter()
                            .chain(COLOUR_FIELDS)
                            .copied()
                            .collect::<Vec<_>>()
                            .join(", "),
                        if values.is_empty() {
                            "none declared".to_string()
                        } else {
                            values.join(", ")
                        }
                    ))
                    .with_suggestion(suggest(name, known.iter().copied())),
                );
            }
        }
    };
    for e in t.elements() {
        if e.name != "style" {
            for (k, v) in &e.attrs {
                if k != "id" {
                    check_text(v, e.span, &mut errors);
                }
            }
            for n in &e.children {
                if let Node::Text(tx) = n {
                    check_text(&tx.text, tx.span, &mut errors);
                }
            }
        }
        if let Some(cond) = e.id().and_then(|id| id.strip_prefix("if-"))
            && !CONDITIONS.contains(&cond)
        {
            errors.push(
                Diagnostic::error(
                    e.span,
                    format!("`if-{cond}` in {} names no condition", t.origin),
                )
                .with_expected(format!(
                    "one of {}",
                    CONDITIONS
                        .iter()
                        .map(|c| format!("if-{c}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .with_suggestion(
                    suggest(cond, CONDITIONS.iter().copied()).map(|c| format!("if-{c}")),
                ),
            );
        }
        if e.id() == Some("symbol") {
            let missing: Vec<&str> = ["x", "y", "width", "height"]
                .into_iter()
                .filter(|a| e.attr(a).and_then(first_number).is_none())
                .collect();
            if !missing.is_empty() {
                errors.push(
                    Diagnostic::error(
                        e.span,
                        format!(
                            "the `symbol` slot of {} has no box to draw in",
                            t.origin
                        ),
                    )
                    .with_expected(format!(
                        "a rectangle with numeric {}",
                        missing.join(", ")
                    )),
                );
            }
        }
        for a in FIT_ATTRIBUTES {
            let Some(v) = e.attr(a) else { continue };
            let ok = match *a {
                "data-muster-overflow" => v == "report" || v == "omit",
                "data-muster-lines" => matches!(v, "1" | "2" | "3"),
                "data-muster-break-y" => length(v).is_ok(),
                _ => length(v).is_ok_and(|n| n > 0.0),
            };
            if !ok {
                errors.push(
                    Diagnostic::error(
                        e.span,
                        format!("`{a}=\"{v}\"` in {} is not usable", t.origin),
                    )
                    .with_expected(match *a {
                        "data-muster-overflow" => "`report` or `omit`",
                        "data-muster-lines" => "1, 2 or 3",
                        "data-muster-break-y" => "a length in template units",
                        _ => "a positive length in template units",
                    }),
                );
            }
        }
    }
    errors
}

/// The fields a template draws: those bound by id and those named by placeholders.
pub fn fields(t: &Template) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in t.elements() {
        if let Some(id) = e.id()
            && (TEXT_FIELDS.contains(&id) || SLOTS.contains(&id))
        {
            out.push(id.to_string());
        }
        if e.name != "style" {
            for n in &e.children {
                if let Node::Text(tx) = n {
                    out.extend(
                        placeholders(&tx.text).into_iter().map(|(_, p)| p.to_string()),
                    );
                }
            }
            for (k, v) in &e.attrs {
                if k != "id" {
                    out.extend(placeholders(v).into_iter().map(|(_, p)| p.to_string()));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_that_does_not_resolve_in_the_svg_is_an_error_where_it_is() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
<defs><linearGradient id="shade"/><rect id="background" width="1" height="1"/></defs>
<image href="data:image/png;base64,AAAA" width="1" height="1"/>
<image xlink:href="/etc/scan.png" width="1" height="1"/>
<filter id="f"><feImage href="../x.png"/></filter>
<use href="#background"/><use xlink:href="#backgruond"/><use href="other.svg#a"/>
<rect fill="url(#shade)" stroke="url( '#shadow' )" width="1" height="1"/>
<style>.a { fill: url("#nothing") }</style>
<a href="https://example.com"><rect width="1" height="1"/></a>
</svg>"##;
        let found = parse(FileId(0), svg, "art/a.svg", "front").unwrap_err();
        let at: Vec<(u32, u32, &str)> = found
            .iter()
            .map(|d| (d.span.line, d.span.column, d.message.as_str()))
            .collect();
        let want = [
            (4, 20, "art/a.svg links to the image `/etc/scan.png` instead of holding it"),
            (5, 31, "art/a.svg links to the image `../x.png` instead of holding it"),
            (
                6,
                43,
                "art/a.svg refers to `#backgruond`, which no element of it has as its id",
            ),
            (6, 68, "art/a.svg refers to `other.svg#a`, outside the file"),
            (
                7,
                40,
                "art/a.svg refers to `#shadow`, which no element of it has as its id",
            ),
            (
                8,
                24,
                "art/a.svg refers to `#nothing`, which no element of it has as its id",
            ),
        ];
        assert_eq!(at, want);
        assert_eq!(found[2].hints, ["did you mean `#background`?"]);
    }

    #[test]
    fn an_image_too_large_to_draw_is_an_error_where_it_is_held() {
        // A 2 by 2 PNG, and a header that says 20,000 by 20,000.
        let small = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==";
        let large = "iVBORw0KGgoAAAANSUhEUgAATiAAAE4gCAIAAABsEtFuAAAAC0lEQVR4nGNgQAUAABAAATm9j2UAAAAASUVORK5CYII=";
        let svg = |png: &str| {
            format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
<image href="data:image/png;base64,{png}" width="10" height="10"/></svg>"##
            )
        };
        assert!(parse(FileId(0), &svg(small), "art/a.svg", "front").is_ok());
        let found = parse(FileId(0), &svg(large), "art/a.svg", "front").unwrap_err();
        assert_eq!((found[0].span.line, found[0].span.column), (2, 14));
        assert_eq!(
            found[0].message,
            "art/a.svg holds an image of 20000 by 20000 pixels (400 million); art must be 1 to 20000 pixels a side and 100 million in all"
        );
    }

    const INKSCAPE: &str = r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="0.625in" height="0.625in" viewBox="0 0 45 45" inkscape:version="1.3">
  <sodipodi:namedview id="namedview1" pagecolor="#ffffff"/>
  <rect id="background" x="0" y="0" width="45" height="45" style="fill:{colour}"/>
  <text id="designation" x="22.5" y="30" style="font-size:7px;font-weight:bold" inkscape:label="Name"><tspan sodipodi:role="line" x="22.5" y="30">1/1</tspan></text>
  <text x="22.5" y="43">{attack}-{defence}</text>
  <g id="if-bak"><use xlink:href="#background"/></g>
  <rect id="symbol" x="12" y="8"/>
</svg>"##;

    #[test]
    fn inkscape_files_keep_what_draws_and_lose_the_editor_s_own() {
        let t = parse(FileId(0), INKSCAPE, "art/unit.svg", "t0").unwrap();
        assert_eq!(t.view_box, [0.0, 0.0, 45.0, 45.0]);
        let names: Vec<&str> = t.elements().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["rect", "text", "tspan", "text", "g", "use", "rect"]);
        let d = t.by_id("designation").unwrap();
        assert!(d.attrs.iter().all(|(k, _)| !k.contains("label")));
        assert_eq!(d.property("font-size").as_deref(), Some("7px"));
        assert_eq!(d.text(), "1/1");
        assert_eq!(d.span.line, 7);
        let u = t.by_id("if-bak").unwrap().descendants()[0];
        assert_eq!(u.attr("href"), Some("#background"));
    }

    #[test]
    fn every_bad_binding_is_reported_at_its_place() {
        let t = parse(FileId(0), INKSCAPE, "art/unit.svg", "t0").unwrap();
        let errors = check(&t, &["attack", "defense"]);
        let messages: Vec<String> = errors
            .iter()
            .map(|d| format!("{}:{} {}", d.span.line, d.span.column, d.message))
            .collect();
        assert_eq!(errors.len(), 3, "{messages:?}");
        assert!(messages[0].starts_with("8:34 `{defence}`"), "{messages:?}");
        assert!(errors[0].hints.iter().any(|h| h.contains("`defense`")));
        assert!(
            messages[1].contains("`if-bak`") && errors[1].hints[0].contains("if-back")
        );
        assert!(
            messages[2].contains("no box")
                && errors[2].expected.as_deref().unwrap().contains("width, height")
        );
        assert_eq!(
            fields(&t),
            ["attack", "background", "colour", "defence", "designation", "symbol"]
        );
    }

    #[test]
    fn broken_files_name_their_line() {
        let e = parse(
            FileId(0),
            "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<g>\n</svg>",
            "a.svg",
            "t",
        )
        .unwrap_err();
        assert_eq!(e[0].span.line, 3, "{:?}", e[0]);
        let e = parse(FileId(0), "<html/>", "a.svg", "t").unwrap_err();
        assert!(e[0].message.contains("not an SVG"));
        let e = parse(
            FileId(0),
            r#"<svg xmlns="http://www.w3.org/2000/svg"/>"#,
            "a.svg",
            "t",
        )
        .unwrap_err();
        assert!(e[0].message.contains("neither a viewBox"));
    }

    #[test]
    fn placeholders_are_names_in_braces_and_css_is_not() {
        assert_eq!(placeholders("{attack}-{defense}"), [(0, "attack"), (9, "defense")]);
        assert!(placeholders(".a{fill:red} { } {}").is_empty());
        assert_eq!(placeholders("{{x}}"), [(1, "x")]);
        assert_eq!(length("8pt").unwrap(), 96.0 / 9.0);
        assert_eq!(first_number("10 12,14"), Some(10.0));
    }
}
