//! Printing diagnostics and findings for a person or a program.

use std::io::{self, Write};

use muster_model::{Diagnostic, Severity, Sources};

/// Prints errors and warnings to standard error (information is counted, not printed).
pub fn print_diagnostics(sources: &Sources, diags: &[Diagnostic]) {
    let mut err = io::stderr().lock();
    for d in diags.iter().filter(|d| d.severity != Severity::Info) {
        let _ = write!(err, "{}", sources.render(d));
    }
}

/// Counts of errors and warnings.
pub fn counts(diags: &[Diagnostic]) -> (usize, usize) {
    let e = diags.iter().filter(|d| d.severity == Severity::Error).count();
    let w = diags.iter().filter(|d| d.severity == Severity::Warning).count();
    (e, w)
}

/// `path:line:column: ` for a span, or nothing for a detached one.
pub fn place(sources: &Sources, span: muster_model::Span) -> String {
    if span.is_detached() {
        String::new()
    } else {
        format!("{}:{}:{}: ", sources.path(span.file).display(), span.line, span.column)
    }
}
