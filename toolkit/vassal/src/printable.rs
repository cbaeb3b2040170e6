//! Text from saves and modules as a terminal may show it: a piece name, a note or a board
//! name can hold any character, and the control characters among them would end a line
//! (and so forge one, such as a clean summary), move the cursor, recolour the screen or
//! reorder what follows. They are written as Rust escapes instead.

use std::borrow::Cow;

/// Whether `c` changes how a terminal shows what follows it rather than showing itself:
/// the C0 controls (TAB, CR, LF, ESC, …), DEL, the C1 controls, the Unicode marks that
/// reorder text (bidi embeddings, overrides, isolates and marks) and the line and paragraph
/// separators.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every character [`is_unsafe`] written as an escape: `\t`, `\r`, `\n`, and
/// `\u{1b}` for the others (their code in hexadecimal). Other text, backslashes included,
/// is unchanged, so printing a printable text again changes nothing.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_reordering_marks_are_escaped_and_nothing_else() {
        assert_eq!(
            printable(
                "A\r\n0 violation(s)\u{1b}[2J\u{85}\u{9b}\u{202e}x\u{2066}\u{7f}\t\0"
            ),
            "A\\r\\n0 violation(s)\\u{1b}[2J\\u{85}\\u{9b}\\u{202e}x\\u{2066}\\u{7f}\\t\\u{0}"
        );
        for plain in ["21 Pz Div", "De Salles / I Corps; 1 2", "a\\nb", "Übung — 3é", ""]
        {
            assert!(matches!(printable(plain), Cow::Borrowed(_)), "{plain}");
        }
        let once = printable("a\nb\u{1b}");
        assert_eq!(printable(&once), once, "printing again changes nothing");
    }

    proptest::proptest! {
        #[test]
        fn nothing_unsafe_is_left(text in "\\PC*|[\\x00-\\x1f\\x7f-\\u{9f}\\u{202a}-\\u{202e}a\\\\]*") {
            let out = printable(&text);
            proptest::prop_assert!(!out.chars().any(is_unsafe), "{:?}", out);
        }
    }
}
