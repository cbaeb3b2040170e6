//! The exit codes of the commands: 0 clean, 1 findings, 2 unusable input.

/// Exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Everything is clean.
    Clean = 0,
    /// The command ran and found problems in the data.
    Findings = 1,
    /// The input could not be used.
    Unusable = 2,
}
