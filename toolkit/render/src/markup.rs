//! Text put into XML and HTML, escaped once for every writer of markup in muster: the
//! characters XML reserves escaped, and the control characters XML cannot hold (all but
//! tab, line feed and carriage return) left out.

/// Escapes text for element content: `&`, `<` and `>`.
pub fn text(s: &str) -> String {
    escape(s, false)
}

/// Escapes text for element content and attribute values alike: also `"` and `'`.
pub fn attribute(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, quotes: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quotes => out.push_str("&quot;"),
            '\'' if quotes => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_characters_are_escaped_and_controls_left_out() {
        assert_eq!(
            text("Gaines' \"Mill\" <1862> & co\u{7}\n"),
            "Gaines' \"Mill\" &lt;1862&gt; &amp; co\n"
        );
        assert_eq!(attribute("a'b\"c"), "a&#39;b&quot;c");
    }
}
