//! A reader of the map scenes' SVG: each element in document order, with its attributes,
//! the classes of the groups it lies in, and its text.

use std::collections::BTreeMap;

/// One element of a scene.
#[derive(Debug, Clone)]
pub struct Element {
    /// Its place in the document.
    pub index: usize,
    /// Its tag (`polygon`, `text`...).
    pub tag: String,
    /// Its attributes.
    pub attrs: BTreeMap<String, String>,
    /// The classes of the groups around it, outermost first, with their group's index.
    pub groups: Vec<(String, usize)>,
    /// Its text, entities undone (for `text`).
    pub text: String,
}

impl Element {
    /// An attribute read as a number.
    pub fn num(&self, key: &str) -> f64 {
        self.attrs.get(key).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
    }

    /// An attribute, or "".
    pub fn get(&self, key: &str) -> &str {
        self.attrs.get(key).map_or("", String::as_str)
    }

    /// The points of a `polygon` or `polyline`.
    pub fn points(&self) -> Vec<(f64, f64)> {
        self.get("points")
            .split_whitespace()
            .filter_map(|p| {
                let (x, y) = p.split_once(',')?;
                Some((x.parse().ok()?, y.parse().ok()?))
            })
            .collect()
    }

    /// Whether it lies in a group of class `class`; that group's index if so.
    pub fn in_group(&self, class: &str) -> Option<usize> {
        self.groups.iter().find(|(c, _)| c == class).map(|(_, i)| *i)
    }
}

/// Undoes the entities the SVG writer writes.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Every element of `svg` outside `<defs>`, in document order.
pub fn elements(svg: &str) -> Vec<Element> {
    let mut out = Vec::new();
    let mut groups: Vec<(String, usize)> = Vec::new();
    let mut defs = 0;
    let mut rest = svg;
    let mut index = 0;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let end = tag_end(rest);
        let tag_text = &rest[..end];
        rest = &rest[end + 1..];
        index += 1;
        if let Some(closing) = tag_text.strip_prefix('/') {
            match closing.trim() {
                "g" => {
                    groups.pop();
                }
                "defs" => defs -= 1,
                _ => {}
            }
            continue;
        }
        let self_closing = tag_text.ends_with('/');
        let body = tag_text.trim_end_matches('/');
        let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
        let attrs = attributes(&body[name.len()..]);
        match name.as_str() {
            "g" if !self_closing => {
                groups.push((attrs.get("class").cloned().unwrap_or_default(), index));
                continue;
            }
            "defs" if !self_closing => {
                defs += 1;
                continue;
            }
            _ => {}
        }
        let text = if name == "text" {
            let close = rest.find("</text>").unwrap_or(0);
            let t = unescape(&rest[..close]);
            rest = &rest[close..];
            t
        } else {
            String::new()
        };
        if defs == 0 {
            out.push(Element { index, tag: name, attrs, groups: groups.clone(), text });
        }
    }
    out
}

/// Where a tag's `>` is, outside quoted attribute values.
fn tag_end(s: &str) -> usize {
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '>' if !quoted => return i,
            _ => {}
        }
    }
    s.len() - 1
}

/// The `key="value"` pairs of a tag.
fn attributes(s: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = s;
    while let Some(eq) = rest.find("=\"") {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 2..];
        let close = after.find('"').unwrap_or(after.len());
        out.insert(key, unescape(&after[..close]));
        rest = &after[(close + 1).min(after.len())..];
    }
    out
}
