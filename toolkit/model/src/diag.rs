//! One diagnostic type for every problem muster reports about user data.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::finding::{FindingKind, Severity};
use crate::span::{FileId, Span};

/// How many characters of a long source line a diagnostic shows around its column.
const WINDOW: usize = 100;

/// A problem in user data, with where it is and what might fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How bad it is: the kind's severity for a finding, [`Severity::Error`] for
    /// unusable input.
    pub severity: Severity,
    /// What kind of finding it is; none for errors that make the input unusable.
    pub kind: Option<FindingKind>,
    /// Where it is.
    pub span: Span,
    /// What is wrong, lowercase, no trailing period.
    pub message: String,
    /// What was expected, if that can be said.
    pub expected: Option<String>,
    /// Suggestions, such as "did you mean `3/18 Gar`?".
    pub hints: Vec<String>,
    /// What the finding is about, as `errata.yaml` names it to acknowledge it, and whether
    /// it does; none when it cannot be acknowledged.
    pub subject: Option<Box<Subject>>,
}

/// What a finding made while loading is about, for `errata.yaml` to acknowledge it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    /// As `errata.yaml` names it: the printed turn of an `unknown-turn`, the game of a
    /// `no-stacking-rules`.
    pub name: String,
    /// The note of the `errata.yaml` entry that acknowledges it, if one does.
    pub known: Option<String>,
}

impl Diagnostic {
    /// An error at a span.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            kind: None,
            span,
            message: message.into(),
            expected: None,
            hints: vec![],
            subject: None,
        }
    }

    /// A finding of `kind` at a span, with the kind's severity.
    pub fn finding(kind: FindingKind, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: kind.severity(),
            kind: Some(kind),
            ..Diagnostic::error(span, message)
        }
    }

    /// Names what the finding is about, for `errata.yaml` to acknowledge it.
    pub fn with_subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(Box::new(Subject { name: subject.into(), known: None }));
        self
    }

    /// The note of the `errata.yaml` entry that acknowledges it, if one does.
    pub fn known(&self) -> Option<&str> {
        self.subject.as_ref()?.known.as_deref()
    }

    /// Does it need attention: a warning or error that `errata.yaml` does not acknowledge?
    pub fn needs_attention(&self) -> bool {
        self.severity.needs_attention() && self.known().is_none()
    }

    /// Does it make the input unusable (an error that is no finding)?
    pub fn is_fatal(&self) -> bool {
        self.severity == Severity::Error && self.kind.is_none()
    }

    /// Adds what was expected.
    pub fn with_expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    /// Adds a "did you mean" hint when a suggestion exists.
    pub fn with_suggestion(self, suggestion: Option<String>) -> Self {
        match suggestion {
            Some(s) => self.with_hint(format!("did you mean `{s}`?")),
            None => self,
        }
    }
}

/// Results that carry every diagnostic found, not only the first.
pub type SourceResult<T> = Result<T, Vec<Diagnostic>>;

/// A loaded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path as given (relative to the working directory or absolute).
    pub path: PathBuf,
    /// The text.
    pub text: String,
}

/// The table of loaded files that spans point into.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        self.files.push(SourceFile { path, text });
        FileId((self.files.len() - 1) as u32)
    }

    /// A file by id.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// Every file with its id, in the order they were added.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }

    /// The id of the file loaded from `path`, if it was.
    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.files.iter().rposition(|f| f.path == path).map(|i| FileId(i as u32))
    }

    /// The path of a file, or `<muster>` for detached spans.
    pub fn path(&self, id: FileId) -> &Path {
        self.get(id).map_or(Path::new("<muster>"), |f| f.path.as_path())
    }

    /// Renders a diagnostic for a terminal or a log: `path:line:col: severity: message`,
    /// then the source line with a caret, then what was expected and the hints.
    pub fn render(&self, d: &Diagnostic) -> String {
        let known = if d.known().is_some() { " (known)" } else { "" };
        let sev = match d.kind {
            Some(kind) => format!("{}[{kind}]{known}", d.severity),
            None => d.severity.to_string(),
        };
        let mut out = String::new();
        if d.span.is_detached() {
            let _ = writeln!(out, "{sev}: {}", d.message);
        } else {
            let path = self.path(d.span.file).display();
            let _ = writeln!(
                out,
                "{path}:{}:{}: {sev}: {}",
                d.span.line, d.span.column, d.message
            );
            if let Some(line) = self
                .get(d.span.file)
                .and_then(|f| f.text.lines().nth(d.span.line.saturating_sub(1) as usize))
            {
                let n = d.span.line.to_string();
                let pad = " ".repeat(n.len());
                let col = d.span.column.saturating_sub(1) as usize;
                let width = line
                    .get(d.span.offset_in_line(line, col)..)
                    .map(|rest| {
                        let len = d.span.len as usize;
                        rest.char_indices().take_while(|(i, _)| *i < len).count().max(1)
                    })
                    .unwrap_or(1);
                // Long lines (minified or hostile files) are shown as a window around
                // the column, so one diagnostic never prints megabytes.
                let chars = line.chars().count();
                let (shown, caret) = if chars > WINDOW * 2 {
                    let start =
                        col.saturating_sub(WINDOW / 2).min(chars.saturating_sub(WINDOW));
                    let piece: String = line.chars().skip(start).take(WINDOW).collect();
                    let before = if start > 0 { "…" } else { "" };
                    let after = if start + WINDOW < chars { "…" } else { "" };
                    (
                        format!("{before}{piece}{after}"),
                        col - start + before.chars().count(),
                    )
                } else {
                    (line.to_string(), col)
                };
                let width = width.min(WINDOW);
                let _ = writeln!(out, "{pad} |");
                let _ = writeln!(out, "{n} | {shown}");
                let _ =
                    writeln!(out, "{pad} | {}{}", " ".repeat(caret), "^".repeat(width));
            }
        }
        if let Some(e) = &d.expected {
            let _ = writeln!(out, "  = expected: {e}");
        }
        for h in &d.hints {
            let _ = writeln!(out, "  = help: {h}");
        }
        out
    }

    /// A diagnostic as JSON: file, line, column, severity, kind, message, expected, hints.
    pub fn to_json(&self, d: &Diagnostic) -> serde_json::Value {
        serde_json::json!({
            "file": if d.span.is_detached() { None } else { Some(self.path(d.span.file).display().to_string()) },
            "line": d.span.line,
            "column": d.span.column,
            "severity": d.severity,
            "kind": d.kind,
            "message": d.message,
            "expected": d.expected,
            "hints": d.hints,
            "subject": d.subject.as_ref().map(|s| &s.name),
            "known": d.known(),
        })
    }
}

impl Span {
    /// Byte index in `line` of character column `col` (0-based).
    fn offset_in_line(&self, line: &str, col: usize) -> usize {
        line.char_indices().nth(col).map_or(line.len(), |(i, _)| i)
    }
}

/// The closest candidate to `word` by normalised Levenshtein similarity, if close enough.
pub fn suggest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::normalized_levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score >= 0.5)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, c)| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_shown_as_a_window_around_the_column() {
        let mut s = Sources::new();
        let line = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let f = s.add("g.yaml".into(), line);
        let d = Diagnostic::error(
            Span { file: f, line: 1, column: 5001, offset: 5000, len: 1 },
            "here",
        );
        let text = s.render(&d);
        assert!(text.len() < 600, "{} bytes", text.len());
        let lines: Vec<&str> = text.lines().collect();
        let code = lines[2].trim_start_matches("1 | ");
        let caret = lines[3].trim_start_matches("  | ");
        assert!(code.starts_with('…') && code.ends_with('…'));
        // The caret still stands under the X.
        let at = caret.chars().position(|c| c == '^').unwrap();
        assert_eq!(code.chars().nth(at), Some('X'));
    }

    #[test]
    fn render_points_at_the_column() {
        let mut s = Sources::new();
        let f = s.add("g.yaml".into(), "a: 1\nsides: [x, yy]\n".into());
        let d = Diagnostic::error(
            Span { file: f, line: 2, column: 12, offset: 16, len: 2 },
            "unknown side `yy`",
        )
        .with_hint("did you mean `y`?");
        let text = s.render(&d);
        assert!(text.starts_with("g.yaml:2:12: error: unknown side `yy`\n"), "{text}");
        assert!(text.contains("  |            ^^\n"), "{text}");
        assert!(text.contains("help: did you mean `y`?"));
    }

    #[test]
    fn suggestions_need_some_similarity() {
        assert_eq!(suggest("strenght", ["strength", "steps"]), Some("strength".into()));
        assert_eq!(suggest("zzz", ["strength", "steps"]), None);
    }
}
