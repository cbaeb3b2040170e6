//! Reading one input file: a regular file, opened once, its type checked on the open
//! handle, and read no further than its limit, so that a device, a FIFO or a file that
//! grows is refused by what it is and by the bytes it gives, never read without end.
//!
//! Files of a game are read through [`read_inside`], which follows symbolic links only
//! when they lead to a file inside the game's folder: what a game ships, and what its
//! build's key covers ([`resolve_inside`]), comes from that folder alone.

use std::fmt;
use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::span::Span;

/// Why an input file was not read.
#[derive(Debug)]
pub enum InputError {
    /// There is no file at the path.
    Missing(io::Error),
    /// Opening or reading failed.
    Io(io::Error),
    /// The path names something other than a regular file: what it is (`a FIFO`).
    NotRegular(&'static str),
    /// The file holds more bytes than the limit, which is given.
    TooLarge(u64),
    /// The path is, or passes through, a symbolic link leading outside the folder the
    /// file must be in; where it leads.
    Outside(PathBuf),
}

impl InputError {
    /// What a reader of the error may do about it, when there is something to say.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            InputError::NotRegular(_) => Some(
                "name a regular file (a symbolic link to one inside the game's folder is read too)",
            ),
            InputError::Outside(_) => Some(
                "copy the file into the game's folder; a symbolic link may lead only to a file inside it",
            ),
            _ => None,
        }
    }

    /// The error at `span`: `failed to read <what> (<why>)`, with the hint when there is
    /// one.
    pub fn at(&self, span: Span, what: impl fmt::Display) -> Diagnostic {
        let d = Diagnostic::error(span, format!("failed to read {what} ({self})"));
        match self.hint() {
            Some(hint) => d.with_hint(hint),
            None => d,
        }
    }

    /// Whether the error says there is no file at the path.
    pub fn is_missing(&self) -> bool {
        matches!(self, InputError::Missing(_))
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Missing(e) | InputError::Io(e) => write!(f, "{e}"),
            InputError::NotRegular(what) => write!(f, "it is {what}, not a regular file"),
            InputError::TooLarge(limit) => {
                write!(f, "it holds more than the limit of {limit} bytes")
            }
            InputError::Outside(to) => write!(
                f,
                "it is a symbolic link leading outside the game's folder, to {}",
                to.display()
            ),
        }
    }
}

impl std::error::Error for InputError {}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::NotFound {
            InputError::Missing(e)
        } else {
            InputError::Io(e)
        }
    }
}

/// What a file of type `t` is, in words, when it is not a regular file.
fn kind_of(t: fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
    }
    if t.is_dir() {
        Some("a directory")
    } else if t.is_file() {
        None
    } else {
        Some("something other")
    }
}

/// Opens `path` for reading without waiting: a FIFO opens at once instead of blocking
/// until a writer comes, and is then refused by its type.
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        let flags = OFlags::NONBLOCK | OFlags::NOCTTY;
        options.custom_flags(flags.bits() as i32);
    }
    options.open(path)
}

/// Opens `path`, following symbolic links, and checks on the open handle that it is a
/// regular file; returns it with what the handle says of it.
pub fn open_regular(path: &Path) -> Result<(File, Metadata), InputError> {
    let file = match open_nonblocking(path) {
        Ok(f) => f,
        // A socket cannot be opened at all: say what it is rather than how opening failed.
        Err(e) => {
            let what = fs::metadata(path).ok().and_then(|m| kind_of(m.file_type()));
            return Err(what.map_or_else(|| e.into(), InputError::NotRegular));
        }
    };
    let meta = file.metadata()?;
    match kind_of(meta.file_type()) {
        Some(what) => Err(InputError::NotRegular(what)),
        None => Ok((file, meta)),
    }
}

/// The bytes of the regular file at `path` (symbolic links followed), refused when it
/// holds more than `limit` bytes: at most `limit + 1` bytes are ever read, whatever size
/// the file claims.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let (file, meta) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge(limit));
    }
    Ok(bytes)
}

/// Where `path` leads once every symbolic link on it is followed, when that is inside the
/// folder `root`; [`InputError::Outside`] when it is not.
pub fn resolve_inside(root: &Path, path: &Path) -> Result<PathBuf, InputError> {
    let root = fs::canonicalize(root)?;
    let real = fs::canonicalize(path)?;
    if real.starts_with(&root) { Ok(real) } else { Err(InputError::Outside(real)) }
}

/// [`read_bounded`] for a file that must be inside the folder `root`: `path` is read when
/// every symbolic link on it leads to a place inside `root` ([`resolve_inside`]).
pub fn read_inside(root: &Path, path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let real = resolve_inside(root, path)?;
    read_bounded(&real, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_up_to_its_limit_and_refused_past_it() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("a.yaml");
        fs::write(&p, b"12345").unwrap();
        assert_eq!(read_bounded(&p, 5).unwrap(), b"12345");
        let e = read_bounded(&p, 4).unwrap_err();
        assert!(matches!(e, InputError::TooLarge(4)), "{e}");
        assert_eq!(e.to_string(), "it holds more than the limit of 4 bytes");
        assert!(read_bounded(&tmp.path().join("none"), 5).unwrap_err().is_missing());
    }

    #[test]
    fn a_directory_is_refused_by_what_it_is() {
        let tmp = tempfile::tempdir().unwrap();
        let e = read_bounded(tmp.path(), 5).unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_that_never_ends_is_refused_without_reading_it() {
        let e = read_bounded(Path::new("/dev/zero"), 5).unwrap_err();
        assert_eq!(e.to_string(), "it is a character device, not a regular file");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once_with_no_writer() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("pipe.yaml");
        rustix::fs::mkfifoat(rustix::fs::CWD, &p, rustix::fs::Mode::RUSR).unwrap();
        let e = read_bounded(&p, 5).unwrap_err();
        assert_eq!(e.to_string(), "it is a FIFO, not a regular file");
        assert!(e.hint().is_some());
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_inside_their_folder_and_refused_out_of_it() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let game = tmp.path().join("game");
        fs::create_dir_all(game.join("shared")).unwrap();
        fs::write(game.join("shared/a.yaml"), b"inside").unwrap();
        fs::write(tmp.path().join("secret.txt"), b"outside").unwrap();
        symlink("shared/a.yaml", game.join("a.yaml")).unwrap();
        symlink("../secret.txt", game.join("secret.txt")).unwrap();
        symlink(tmp.path(), game.join("up")).unwrap();
        assert_eq!(read_inside(&game, &game.join("a.yaml"), 99).unwrap(), b"inside");
        for through in ["secret.txt", "up/secret.txt"] {
            let e = read_inside(&game, &game.join(through), 99).unwrap_err();
            let real = fs::canonicalize(tmp.path().join("secret.txt")).unwrap();
            assert!(matches!(&e, InputError::Outside(to) if *to == real), "{e}");
            assert!(e.to_string().contains("leading outside the game's folder"), "{e}");
        }
    }
}
