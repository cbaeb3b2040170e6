//! YAML parsing with limits, spans and diagnostics.

use serde::de::DeserializeOwned;

use crate::diag::Diagnostic;
use crate::span::{FileId, Span, with_current_file};

/// Parses a YAML document of one file into `T`, turning every failure into a diagnostic
/// at the right line and column.
///
/// A document that does not read as `T` is read once more for its syntax alone: a
/// syntax error wins, so that a broken line is reported as such rather than as a "missing
/// field" further up. (A document that reads as `T` has been parsed to its end, so it has
/// none.) Aliases, nesting depth and document size are bounded by the parser's budget.
pub fn parse_yaml<T: DeserializeOwned>(
    file: FileId,
    text: &str,
) -> Result<T, Diagnostic> {
    let options = || {
        let mut o = serde_saphyr::Options::default();
        o.with_snippet = false;
        o.strict_booleans = true;
        o
    };
    with_current_file(file, || serde_saphyr::from_str_with_options::<T>(text, options()))
        .map_err(|e| {
            let syntax = serde_saphyr::from_str_with_options::<serde::de::IgnoredAny>(
                text,
                options(),
            )
            .err();
            to_diagnostic(file, syntax.as_ref().unwrap_or(&e))
        })
}

fn to_diagnostic(file: FileId, e: &serde_saphyr::Error) -> Diagnostic {
    let span = e.location().map_or(Span::file_start(file), |l| Span {
        file,
        line: l.line().max(1) as u32,
        column: l.column().max(1) as u32,
        offset: l.span().byte_offset().unwrap_or(0) as u32,
        len: 0,
    });
    let full = e.without_snippet().to_string();
    let message = strip_location(&full);
    let message = if message.starts_with("budget breached: Depth")
        || message == "recursion limit exceeded"
    {
        "the document nests more deeply than muster reads (too many levels of lists or mappings)"
            .to_string()
    } else if message.starts_with("budget breached") {
        "the document is too large once its aliases are expanded (more nodes than muster's limit)"
            .to_string()
    } else {
        message
    };
    let message = match message.strip_prefix("duplicate mapping key: ") {
        Some(rest) => {
            let key = rest.split(',').next().unwrap_or(rest).trim();
            format!("duplicate key `{key}`")
        }
        None => message,
    };
    let mut d = Diagnostic::error(span, message.clone());
    // serde lists the fields it expected: turn that into a suggestion.
    if let Some((unknown, expected)) = unknown_and_expected(&message) {
        let candidates: Vec<&str> = expected.iter().map(String::as_str).collect();
        d = d
            .with_expected(format!("one of {}", expected.join(", ")))
            .with_suggestion(crate::diag::suggest(&unknown, candidates));
        d.message = match message.split_once(',') {
            Some((head, _)) => head.to_string(),
            None => message,
        };
    }
    d
}

/// `unknown field `x` at line 3, column 5` → `unknown field `x``.
fn strip_location(msg: &str) -> String {
    let mut m = msg.trim().to_string();
    if let Some(i) = m.rfind(" at line ") {
        m.truncate(i);
    }
    m
}

/// Reads serde's "unknown field `x`, expected one of `a`, `b`" (and variants).
fn unknown_and_expected(msg: &str) -> Option<(String, Vec<String>)> {
    let kind = ["unknown field `", "unknown variant `"]
        .into_iter()
        .find(|k| msg.starts_with(k))?;
    let rest = &msg[kind.len()..];
    let (name, rest) = rest.split_once('`')?;
    let list = rest
        .split_once("expected one of ")
        .map(|(_, l)| l)
        .or_else(|| rest.split_once("expected ").map(|(_, l)| l))?;
    let expected = list
        .split(',')
        .map(|s| s.trim().trim_matches('`').trim().to_string())
        .filter(|s| !s.is_empty() && !s.starts_with("or "))
        .collect();
    Some((name.to_string(), expected))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        name: String,
        strength: Option<u8>,
    }

    #[test]
    fn unknown_key_suggests_the_field() {
        let d = parse_yaml::<Doc>(FileId(0), "name: a\nstrenght: 3\n").unwrap_err();
        assert_eq!((d.span.line, d.span.column), (2, 1));
        assert_eq!(d.message, "unknown field `strenght`");
        assert_eq!(d.hints, ["did you mean `strength`?"]);
    }

    #[test]
    fn syntax_error_wins_over_missing_field() {
        let d = parse_yaml::<Doc>(FileId(0), "strength: 3\n  name: [a\n").unwrap_err();
        assert_eq!(d.span.line, 2, "{d:?}");
        assert!(!d.message.contains("missing field"), "{d:?}");
    }

    #[test]
    fn a_document_that_reads_has_no_syntax_error_after_what_was_read() {
        for broken in [
            "name: a\nstrength: 3\n  x: [\n",
            "name: a\nstrength: 3\n---\nname: b\n",
            "name: a\nstrength: 3\n]\n",
            "name: a\nname: b\n",
        ] {
            let whole = parse_yaml::<serde::de::IgnoredAny>(FileId(0), broken).err();
            let read = parse_yaml::<Doc>(FileId(0), broken).err();
            assert!(read.is_some(), "{broken:?} reads as a document");
            if let Some(syntax) = whole {
                assert_eq!(
                    read,
                    Some(syntax),
                    "{broken:?}: the syntax error is reported"
                );
            }
        }
    }

    #[test]
    fn wrong_type_names_the_place() {
        let d = parse_yaml::<Doc>(FileId(0), "name: a\nstrength: four\n").unwrap_err();
        assert_eq!((d.span.line, d.span.column), (2, 11));
    }

    #[test]
    fn alias_bombs_are_refused() {
        let mut s = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 0..12 {
            s.push_str(&format!("b{i}: &b{i} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n", p = if i == 0 { "a".to_string() } else { format!("b{}", i - 1) }));
        }
        s.push_str("name: x\n");
        assert!(parse_yaml::<serde::de::IgnoredAny>(FileId(0), &s).is_err());
    }
}
