//! What every archive muster reads or writes must hold to: at most [`MAX_ENTRIES`] entries,
//! names that stay inside the folder they are unpacked to, and the error that says why
//! not. The zip reader, the records and the writer all stand on this module.

/// The most entries muster reads from one archive: five times those of the module of a
/// game of 10,000 two-sided counters (an image per side, some 20,000 entries).
pub const MAX_ENTRIES: usize = 100_000;

/// Why an archive could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveError(pub String);

impl std::fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArchiveError {}

/// Checks that an entry name stays inside the folder it is unpacked to: relative, no `..`,
/// no backslashes or drive letters, no empty or NUL-containing parts.
pub fn check_name(name: &str) -> Result<(), ArchiveError> {
    let bad = name.is_empty()
        || name.starts_with('/')
        || name.contains('\\')
        || name.contains('\0')
        || name.split('/').next().is_some_and(|p| p.contains(':'))
        || name.split('/').any(|p| p == ".." || p == ".");
    if bad {
        return Err(ArchiveError(format!(
            "the archive entry {name:?} would escape the folder it is unpacked to"
        )));
    }
    Ok(())
}
