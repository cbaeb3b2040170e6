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

/// ` (rule 5.1, 0209)`: the rule section and the place a finding concerns, leaving out
/// whichever is empty, and nothing when both are.
pub fn context(rule: &str, location: &str) -> String {
    let parts: Vec<String> = [
        (!rule.trim().is_empty()).then(|| format!("rule {rule}")),
        (!location.trim().is_empty()).then(|| location.to_string()),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() { String::new() } else { format!(" ({})", parts.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::context;

    #[test]
    fn context_leaves_out_what_is_empty() {
        assert_eq!(context("5.1", "0209"), " (rule 5.1, 0209)");
        assert_eq!(context("15.5.2.4", ""), " (rule 15.5.2.4)");
        assert_eq!(context("", "A40.06"), " (A40.06)");
        assert_eq!(context("", " "), "");
    }
}
