//! Diagnostics kept in a game's stamp, so that a game whose last build still stands is
//! not loaded again and its findings are told all the same, at the same places.

use std::fs;
use std::path::PathBuf;

use muster_model::{Diagnostic, FindingKind, Severity, Sources, Span};
use serde::{Deserialize, Serialize};

/// A diagnostic as kept in a stamp: where it is by file path instead of by loaded file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredDiagnostic {
    /// The file, none for a diagnostic that points at no file.
    file: Option<PathBuf>,
    line: u32,
    column: u32,
    offset: u32,
    len: u32,
    severity: Severity,
    kind: Option<FindingKind>,
    message: String,
    expected: Option<String>,
    hints: Vec<String>,
    #[serde(default)]
    subject: Option<String>,
    #[serde(default)]
    known: Option<String>,
}

impl StoredDiagnostic {
    /// `d`, whose span points into `sources`, as kept.
    pub fn keep(d: &Diagnostic, sources: &Sources) -> Self {
        StoredDiagnostic {
            file: (!d.span.is_detached())
                .then(|| sources.path(d.span.file).to_path_buf()),
            line: d.span.line,
            column: d.span.column,
            offset: d.span.offset,
            len: d.span.len,
            severity: d.severity,
            kind: d.kind,
            message: d.message.clone(),
            expected: d.expected.clone(),
            hints: d.hints.clone(),
            subject: d.subject.as_ref().map(|s| s.name.clone()),
            known: d.known().map(str::to_string),
        }
    }

    /// The diagnostic again, its file read into `sources` when it is not there yet. A file
    /// that can no longer be read (removed since) leaves the diagnostic pointing at no
    /// file, with its place at the start of the message, so that nothing is lost.
    pub fn restore(&self, sources: &mut Sources) -> Diagnostic {
        let mut message = self.message.clone();
        let span = match &self.file {
            None => Span::detached(),
            Some(path) => {
                let file = match sources.find(path) {
                    Some(id) => Some(id),
                    None => fs::read_to_string(path)
                        .ok()
                        .map(|text| sources.add(path.clone(), text)),
                };
                match file {
                    Some(file) => Span {
                        file,
                        line: self.line,
                        column: self.column,
                        offset: self.offset,
                        len: self.len,
                    },
                    None => {
                        message = format!(
                            "{}:{}:{}: {message}",
                            path.display(),
                            self.line,
                            self.column
                        );
                        Span::detached()
                    }
                }
            }
        };
        Diagnostic {
            severity: self.severity,
            kind: self.kind,
            span,
            message,
            expected: self.expected.clone(),
            hints: self.hints.clone(),
            subject: self.subject.clone().map(|name| {
                Box::new(muster_model::Subject { name, known: self.known.clone() })
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_diagnostic_renders_as_the_original() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("counters.yaml");
        let text = "groups:\n  - formation: x\n";
        fs::write(&path, text).unwrap();
        let mut sources = Sources::new();
        let file = sources.add(path.clone(), text.into());
        let d = Diagnostic::finding(
            FindingKind::TextOverflow,
            Span { file, line: 2, column: 16, offset: 23, len: 1 },
            "`x` does not fit",
        )
        .with_expected("text at most 10 units wide")
        .with_hint("shorten it");
        let kept = StoredDiagnostic::keep(&d, &sources);
        let json = serde_json::to_string(&kept).unwrap();
        let back: StoredDiagnostic = serde_json::from_str(&json).unwrap();
        let mut fresh = Sources::new();
        let restored = back.restore(&mut fresh);
        assert_eq!(fresh.render(&restored), sources.render(&d));
        let detached = Diagnostic::error(Span::detached(), "skipped x");
        let restored = StoredDiagnostic::keep(&detached, &sources).restore(&mut fresh);
        assert_eq!(restored, detached);
        // A file gone since: the diagnostic is still told, with its place in its message.
        fs::remove_file(&path).unwrap();
        let gone = back.restore(&mut Sources::new());
        assert!(gone.span.is_detached());
        assert_eq!(gone.message, format!("{}:2:16: `x` does not fit", path.display()));
    }
}
