//! VASSAL's `SequenceEncoder`: the escaping that every piece definition, trait and saved
//! game is written with. Each nesting level escapes only its own delimiter with one
//! backslash; a token that starts with a backslash, or is wrapped in single quotes, is
//! quoted.

/// The TAB that separates the traits of a piece.
pub const TAB: char = '\t';
/// The ESC that separates the commands of a saved game.
pub const ESC: char = '\u{1b}';

/// Encodes `tokens` with delimiter `d` exactly as VASSAL's `SequenceEncoder.append` does.
pub fn encode<S: AsRef<str>>(tokens: &[S], d: char) -> String {
    let len: usize = tokens.iter().map(|t| t.as_ref().len() + 3).sum();
    let mut out = String::with_capacity(len);
    for (i, t) in tokens.iter().enumerate() {
        if i > 0 {
            out.push(d);
        }
        push_token(&mut out, t.as_ref(), d);
    }
    out
}

/// Appends one token to `out` as [`encode`] writes it: its delimiters escaped, and quoted
/// when it starts with a backslash or is wrapped in single quotes.
pub(crate) fn push_token(out: &mut String, t: &str, d: char) {
    if t.is_empty() {
        return;
    }
    let quote =
        t.starts_with('\\') || (t.len() > 1 && t.starts_with('\'') && t.ends_with('\''));
    if quote {
        out.push('\'');
    }
    push_escaped(out, t, d);
    if quote {
        out.push('\'');
    }
}

/// Appends `t` to `out` with a backslash before each delimiter `d`, as every level of the
/// encoding escapes its own delimiter.
pub(crate) fn push_escaped(out: &mut String, t: &str, d: char) {
    let mut rest = t;
    while let Some(at) = rest.find(d) {
        out.push_str(&rest[..at]);
        out.push('\\');
        out.push(d);
        rest = &rest[at + d.len_utf8()..];
    }
    out.push_str(rest);
}

/// Decodes a `SequenceEncoder` value as VASSAL's `Decoder` does: a delimiter preceded by a
/// backslash is kept (the backslash dropped); `"a,"` gives `"a"` and `""`. One pass over
/// the text, as the pieces of a large module are read again at every build.
pub fn decode(s: &str, d: char) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut token = String::new();
    // The character before this one, when it belongs to the same token (as written, not
    // as decoded: an escaped delimiter is the character before the next one).
    let mut before = None;
    for c in s.chars() {
        if c == d && before != Some('\\') {
            tokens.push(unquote(std::mem::take(&mut token)));
            before = None;
            continue;
        }
        if c == d {
            token.pop();
        }
        token.push(c);
        before = Some(c);
    }
    tokens.push(unquote(token));
    tokens
}

fn unquote(t: String) -> String {
    if t.chars().count() > 1 && t.starts_with('\'') && t.ends_with('\'') {
        t[1..t.len() - 1].to_string()
    } else {
        t
    }
}

/// Whether a token can go through the encoder and come back unchanged. VASSAL cannot carry
/// a token that ends with a backslash when anything follows it.
pub fn safe_token(s: &str) -> bool {
    !s.ends_with('\\')
}

/// Nests a list of items as VASSAL's decorator chains do: `[a, b, c]` becomes
/// `enc(a, enc(b, c))` with TAB, outermost first.
pub fn chain<S: AsRef<str>>(items: &[S]) -> String {
    // Built from the innermost item out: each level is its item, a TAB, and the levels
    // inside it encoded as one token.
    let Some((last, outer)) = items.split_last() else { return String::new() };
    let mut inner = last.as_ref().to_string();
    for item in outer.iter().rev() {
        let mut level = String::with_capacity(item.as_ref().len() + inner.len() + 8);
        push_token(&mut level, item.as_ref(), TAB);
        level.push(TAB);
        push_token(&mut level, &inner, TAB);
        inner = level;
    }
    inner
}

/// Splits a decorator chain back into its items, outermost first.
pub fn unchain(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s.to_string();
    loop {
        let mut parts = decode(&rest, TAB);
        if parts.len() < 2 {
            out.append(&mut parts);
            return out;
        }
        let inner = parts.split_off(1).join(&TAB.to_string());
        out.push(parts.remove(0));
        rest = inner;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn matches_vassal_examples() {
        assert_eq!(encode(&[",hahahahah"], ','), "\\,hahahahah");
        assert_eq!(decode("\\,hahahahah", ','), vec![",hahahahah"]);
        assert_eq!(decode("stuff,'", ','), vec!["stuff", "'"]);
        assert_eq!(decode("'12345'", ','), vec!["12345"]);
        assert_eq!(decode("a,", ','), vec!["a", ""]);
        assert_eq!(encode(&["Delete", "68,130", ""], ';'), "Delete;68,130;");
        assert_eq!(encode(&["De Salles / I Corps"], '/'), "De Salles \\/ I Corps");
    }

    #[test]
    fn chains_nest_one_backslash_per_level() {
        let c = chain(&["a;1", "b;2", "c;3"]);
        assert_eq!(c, "a;1\tb;2\\\tc;3");
        assert_eq!(unchain(&c), vec!["a;1", "b;2", "c;3"]);
    }

    /// `SequenceEncoder.append` written out step by step, as VASSAL's source reads: the
    /// reference the single-pass [`encode`] and [`chain`] are held to.
    fn reference_encode(tokens: &[&str], d: char) -> String {
        let mut out = String::new();
        for (i, t) in tokens.iter().enumerate() {
            if i > 0 {
                out.push(d);
            }
            if t.is_empty() {
                continue;
            }
            let escaped = t.replace(d, &format!("\\{d}"));
            if t.starts_with('\\')
                || (t.len() > 1 && t.starts_with('\'') && t.ends_with('\''))
            {
                out.push_str(&format!("'{escaped}'"));
            } else {
                out.push_str(&escaped);
            }
        }
        out
    }

    /// VASSAL's `Decoder` written out step by step: the reference [`decode`] is held to.
    fn reference_decode(s: &str, d: char) -> Vec<String> {
        let chars: Vec<char> = s.chars().collect();
        let mut tokens = Vec::new();
        let mut start = 0;
        loop {
            let mut token = String::new();
            let mut i = start;
            let mut ended = false;
            while i < chars.len() {
                let c = chars[i];
                if c == d {
                    if i > 0 && chars[i - 1] == '\\' && i > start {
                        token.pop();
                        token.push(d);
                    } else {
                        ended = true;
                        break;
                    }
                } else {
                    token.push(c);
                }
                i += 1;
            }
            tokens.push(unquote(token));
            if !ended {
                return tokens;
            }
            start = i + 1;
        }
    }

    fn reference_chain(items: &[String]) -> String {
        match items {
            [] => String::new(),
            [only] => only.clone(),
            [first, rest @ ..] => reference_encode(&[first, &reference_chain(rest)], TAB),
        }
    }

    proptest! {
        #[test]
        fn round_trips_tokens_without_trailing_backslash(
            tokens in proptest::collection::vec("[a-z;,/\\t'\\\\ ]{0,8}", 1..6)
        ) {
            prop_assume!(tokens.iter().all(|t| safe_token(t)));
            for d in [';', ',', '/', TAB] {
                prop_assert_eq!(decode(&encode(&tokens, d), d), tokens.clone());
            }
        }

        #[test]
        fn decodes_as_the_reference_does(s in "[a;,/\\t'\\\\é ]{0,16}") {
            for d in [';', ',', '/', TAB] {
                prop_assert_eq!(decode(&s, d), reference_decode(&s, d), "{:?}", s);
            }
        }

        #[test]
        fn encodes_as_the_reference_does(
            tokens in proptest::collection::vec("[a-z;,/\t'\\\\ ]{0,8}", 0..6)
        ) {
            let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
            for d in [';', ',', '/', TAB, ESC] {
                prop_assert_eq!(encode(&tokens, d), reference_encode(&refs, d));
            }
            prop_assert_eq!(chain(&tokens), reference_chain(&tokens));
        }

        #[test]
        fn chains_round_trip(
            items in proptest::collection::vec("[a-z;,\\t ]{1,8}", 1..6),
            last in "[a-z;, ]{1,8}",
        ) {
            // The innermost item is never escaped, so it cannot hold a TAB (nor can VASSAL's).
            let mut items = items;
            items.push(last);
            prop_assert_eq!(unchain(&chain(&items)), items);
        }
    }
}
