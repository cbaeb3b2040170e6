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
///
/// It gives what decoding the chain once per level would (each level's first token, then
/// the level's other tokens joined by TABs as the next level), but in one pass over the
/// text: the text is cut at its TABs once, and each level only touches the TABs still
/// escaped (each loses a backslash) and the tokens whose quotes come off, so a piece of
/// many traits, or of traits nested deep, costs no more than its length.
pub fn unchain(s: &str) -> Vec<String> {
    Unchain::new(s).items()
}

/// The state of [`unchain`] between two levels: the text cut at its TABs into chunks (TAB
/// `t` stands between chunk `t` and chunk `t + 1`), each chunk a byte range of the text
/// that loses its last byte when its TAB is unescaped and its end bytes when a token is
/// unquoted.
///
/// Each level costs the TABs it unescapes (each loses a backslash of the text) and the
/// tokens it unquotes (each loses two quotes), so all levels together cost the length of
/// the text.
struct Unchain<'a> {
    text: &'a str,
    chunks: Vec<(usize, usize)>,
    /// For each TAB, whether the next level splits at it (else it unescapes it).
    splits: Vec<bool>,
    /// The TABs the next level unescapes: their chunk ends with a backslash.
    escaped: Vec<usize>,
    /// A chunk of each token the next level may unquote.
    touched: Vec<usize>,
    /// The first chunk of the level.
    from: usize,
}

impl<'a> Unchain<'a> {
    fn new(text: &'a str) -> Unchain<'a> {
        let mut chunks = Vec::new();
        let mut start = 0;
        for (at, _) in text.match_indices(TAB) {
            chunks.push((start, at));
            start = at + TAB.len_utf8();
        }
        chunks.push((start, text.len()));
        let mut u = Unchain {
            text,
            chunks,
            splits: Vec::new(),
            escaped: Vec::new(),
            touched: vec![0],
            from: 0,
        };
        for t in 0..u.chunks.len() - 1 {
            let escaped = u.ends_with(t, b'\\');
            u.splits.push(!escaped);
            if escaped {
                u.escaped.push(t);
            } else {
                // The first level unquotes every token.
                u.touched.push(t + 1);
            }
        }
        u
    }

    fn chunk(&self, c: usize) -> &'a [u8] {
        let (a, b) = self.chunks[c];
        &self.text.as_bytes()[a..b]
    }

    fn ends_with(&self, c: usize, byte: u8) -> bool {
        self.chunk(c).last() == Some(&byte)
    }

    /// The TAB that ends the token holding chunk `c`, if one does.
    fn end_of(&self, c: usize) -> Option<usize> {
        (c..self.splits.len()).find(|&t| self.splits[t])
    }

    /// The chunks of the token holding chunk `c`, first and last.
    fn token(&self, c: usize) -> (usize, usize) {
        let first =
            (self.from..c).rev().find(|&t| self.splits[t]).map_or(self.from, |t| t + 1);
        (first, self.end_of(c).unwrap_or(self.chunks.len() - 1))
    }

    /// Decodes every level, keeping the first token of each.
    fn items(mut self) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let end = self.end_of(self.from);
            self.level(end);
            let last = end.unwrap_or(self.chunks.len() - 1);
            let mut item = String::new();
            for c in self.from..=last {
                if c > self.from {
                    item.push(TAB);
                }
                let (a, b) = self.chunks[c];
                item.push_str(&self.text[a..b]);
            }
            out.push(item);
            let Some(end) = end else { return out };
            self.from = end + 1;
            let from = self.from;
            self.escaped.retain(|&t| t >= from);
            self.touched.retain(|&c| c >= from);
        }
    }

    /// One level's decoding: escaped TABs lose a backslash, and each token wrapped in
    /// quotes loses them. What changes is remembered for the next level. `end` is the TAB
    /// after the level's first token, which the level consumes.
    fn level(&mut self, end: Option<usize>) {
        let mut unescaped = Vec::new();
        let mut escaped = std::mem::take(&mut self.escaped);
        escaped.retain(|&t| {
            self.chunks[t].1 -= 1;
            let still = self.ends_with(t, b'\\');
            if !still {
                unescaped.push(t);
            }
            still
        });
        self.escaped = escaped;
        let mut touched = std::mem::take(&mut self.touched);
        touched.sort_unstable();
        let mut tokens: Vec<(usize, usize)> =
            touched.iter().map(|&c| self.token(c)).collect();
        tokens.dedup();
        touched.clear();
        self.touched = touched;
        for (first, last) in tokens {
            if !self.unquote(first, last) {
                continue;
            }
            self.touched.push(first);
            // A backslash bared at the token's end escapes the TAB after it, which the next
            // level then unescapes, joining the two tokens.
            if Some(last) != end
                && last < self.splits.len()
                && self.ends_with(last, b'\\')
            {
                self.splits[last] = false;
                self.escaped.push(last);
            }
        }
        for t in unescaped {
            self.splits[t] = true;
            self.touched.extend([t, t + 1]);
        }
    }

    /// Takes the quotes off the token of chunks `first..=last` if it is wrapped in them.
    fn unquote(&mut self, first: usize, last: usize) -> bool {
        let (head, tail) = (self.chunk(first), self.chunk(last));
        let wrapped = head.first() == Some(&b'\'')
            && tail.last() == Some(&b'\'')
            && (first != last || head.len() > 1);
        if wrapped {
            self.chunks[first].0 += 1;
            self.chunks[last].1 -= 1;
        }
        wrapped
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

    /// The chain decoded level by level, as VASSAL nests it: each level's first token,
    /// then its other tokens joined by TABs as the next level. The reference the one-pass
    /// [`unchain`] is held to.
    fn reference_unchain(s: &str) -> Vec<String> {
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

    #[test]
    fn unchains_every_short_text_as_the_reference_does() {
        // Every text of up to 7 characters of the four that matter (and one that does not).
        let alphabet = ['a', '\'', '\\', TAB];
        let mut texts = vec![String::new()];
        for _ in 0..7 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| {
                    t.chars().count() == texts.last().map_or(0, |l| l.chars().count())
                })
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        assert_eq!(texts.len(), (0..=7).map(|n| 4usize.pow(n)).sum::<usize>());
        for t in &texts {
            assert_eq!(unchain(t), reference_unchain(t), "{t:?}");
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
        fn unchains_as_the_reference_does(s in "[a'\\\\\t]{0,40}") {
            prop_assert_eq!(unchain(&s), reference_unchain(&s), "{:?}", s);
        }

        #[test]
        fn unchains_nested_chains_as_the_reference_does(
            items in proptest::collection::vec("[a'\\\\\t]{0,6}", 1..8),
        ) {
            let c = chain(&items);
            prop_assert_eq!(unchain(&c), reference_unchain(&c), "{:?}", c);
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
