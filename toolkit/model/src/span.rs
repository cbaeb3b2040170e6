//! Source positions that ride on every loaded value to the diagnostic a person reads.

use std::cell::Cell as StdCell;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Index of a loaded file in a [`crate::Sources`] table.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    Serialize,
    Deserialize,
)]
pub struct FileId(pub u32);

/// A place in a source file: file, 1-based line and column, and byte range.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    Serialize,
    Deserialize,
)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// 1-based line; 0 for a value that came from no file.
    pub line: u32,
    /// 1-based column in characters.
    pub column: u32,
    /// Byte offset of the start.
    pub offset: u32,
    /// Length in bytes (0 when unknown).
    pub len: u32,
}

impl Span {
    /// A span for values muster made itself, which point at no file.
    pub const fn detached() -> Span {
        Span { file: FileId(u32::MAX), line: 0, column: 0, offset: 0, len: 0 }
    }

    /// Is this a detached span?
    pub fn is_detached(&self) -> bool {
        self.line == 0
    }

    /// A span covering the whole of a file's first line, for file-level problems.
    pub fn file_start(file: FileId) -> Span {
        Span { file, line: 1, column: 1, offset: 0, len: 0 }
    }

    /// The span of `len` bytes starting `delta` bytes (and characters) after this one,
    /// on the same line. Used to point inside a printed string.
    pub fn within(&self, delta: usize, len: usize) -> Span {
        if self.is_detached() {
            return *self;
        }
        Span {
            file: self.file,
            line: self.line,
            column: self.column + delta as u32,
            offset: self.offset + delta as u32,
            len: len as u32,
        }
    }
}

thread_local! {
    static CURRENT_FILE: StdCell<FileId> = const { StdCell::new(FileId(u32::MAX)) };
}

/// Runs `f` with `file` as the file that [`Spanned`] values being deserialized belong to.
pub(crate) fn with_current_file<T>(file: FileId, f: impl FnOnce() -> T) -> T {
    let before = CURRENT_FILE.with(|c| c.replace(file));
    let out = f();
    CURRENT_FILE.with(|c| c.set(before));
    out
}

/// A value with the place it was read from.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Spanned<T> {
    /// The value.
    pub v: T,
    /// Where it was read.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// A value with a span.
    pub fn new(v: T, span: Span) -> Self {
        Spanned { v, span }
    }

    /// A value that came from no file.
    pub fn detached(v: T) -> Self {
        Spanned { v, span: Span::detached() }
    }

    /// Applies `f` to the value, keeping the span.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Spanned<U> {
        Spanned { v: f(self.v), span: self.span }
    }

    /// A reference to the value with the same span.
    pub fn as_ref(&self) -> Spanned<&T> {
        Spanned { v: &self.v, span: self.span }
    }
}

impl<T: fmt::Debug> fmt::Debug for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}@{}:{}", self.v, self.span.line, self.span.column)
    }
}

impl<T: fmt::Display> fmt::Display for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.fmt(f)
    }
}

impl<T> std::ops::Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.v
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = serde_saphyr::Spanned::<T>::deserialize(d)?;
        let loc = s.referenced;
        let span = loc.span();
        let file = CURRENT_FILE.with(|c| c.get());
        Ok(Spanned {
            v: s.value,
            span: Span {
                file,
                line: loc.line() as u32,
                column: loc.column() as u32,
                offset: span.byte_offset().unwrap_or(span.offset()) as u32,
                len: span.byte_len().unwrap_or(span.len()) as u32,
            },
        })
    }
}

impl<T: Serialize> Serialize for Spanned<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.v.serialize(s)
    }
}

impl<T: JsonSchema> JsonSchema for Spanned<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(g)
    }
    fn inline_schema() -> bool {
        T::inline_schema()
    }
}

impl Spanned<String> {
    /// The span of the bytes `range` of the text: where in the file they are printed (a
    /// quoted scalar starts one byte after its span). A text over several lines, or a range
    /// past its end, gives the whole text's span.
    pub fn span_of(&self, range: std::ops::Range<usize>) -> Span {
        let quoted = self.span.len as usize >= self.v.len() + 2;
        let delta = range.start + usize::from(quoted);
        if self.v.contains('\n')
            || range.end > self.v.len()
            || !self.v.is_char_boundary(range.start)
        {
            return self.span;
        }
        let chars = self.v[..range.start].chars().count() + usize::from(quoted);
        let mut s = self.span.within(delta, range.end - range.start);
        s.column = self.span.column + chars as u32;
        s
    }
}
