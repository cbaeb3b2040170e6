//! The error of a build: what failed, with the file or game it failed on and its cause.

use std::fmt;

/// What kind of thing failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading, writing, renaming or removing a file or folder.
    Io,
    /// Drawing, laying out or encoding an image, a print sheet or a PDF.
    Render,
    /// Packaging a module or zipping an archive.
    Package,
    /// The sources cannot be used as asked (they do not load, or a folder is missing).
    Sources,
    /// Writing a report as JSON.
    Json,
    /// Watching the sources for changes.
    Watch,
}

/// Why a build (or another library call) could not finish.
///
/// The message says what failed (`failed to write maps/a/b.png`); [`std::error::Error::source`]
/// gives the cause when there is one, so a caller can print the whole chain.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl Error {
    /// An error of `kind` with a message and no cause.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, message: message.into(), source: None }
    }

    /// An error of `kind` with a message and its cause.
    pub fn with_source(
        kind: ErrorKind,
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error { kind, message: message.into(), source: Some(Box::new(source)) }
    }

    /// What kind of thing failed.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message and every cause, joined by `: `.
    pub fn chain(&self) -> String {
        let mut text = self.message.clone();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            text.push_str(": ");
            text.push_str(&c.to_string());
            cause = c.source();
        }
        text
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str(&self.chain())
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::with_source(ErrorKind::Json, "failed to write JSON", e)
    }
}

/// The result of a library call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Gives an I/O error the message of what was being done.
pub(crate) trait IoContext<T> {
    /// The error becomes an [`ErrorKind::Io`] error with the message `what()`.
    fn io(self, what: impl FnOnce() -> String) -> Result<T>;
}

impl<T> IoContext<T> for std::io::Result<T> {
    fn io(self, what: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|e| Error::with_source(ErrorKind::Io, what(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_names_every_cause() {
        let io = std::io::Error::other("disk full");
        let e = Error::with_source(ErrorKind::Io, "failed to write a.png", io);
        assert_eq!(e.to_string(), "failed to write a.png");
        assert_eq!(format!("{e:#}"), "failed to write a.png: disk full");
        assert_eq!(e.kind(), ErrorKind::Io);
    }
}
