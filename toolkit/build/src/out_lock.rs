//! One muster at a time per output folder: a build, a clean or a watch's rebuild holds an
//! advisory lock on a file in the cache folder for as long as it writes or removes there.
//! A second one stops at once, saying which folder is taken. The operating system lets go
//! of the lock when its process ends, however it ends (killed ones too).

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, IoContext, Result};
use crate::layout::cache_dir;

/// The name of the lock file in the cache folder.
pub const LOCK_FILE: &str = "lock";

/// The lock on an output folder, held until dropped.
#[derive(Debug)]
pub struct OutLock {
    /// The lock file, locked.
    _file: fs::File,
    path: PathBuf,
}

impl OutLock {
    /// Takes the lock of the output folder `out` (making its cache folder if need be), or
    /// fails at once when another process holds it.
    pub fn take(out: &Path) -> Result<Self> {
        let cache = cache_dir(out);
        fs::create_dir_all(&cache)
            .io(|| format!("failed to create {}", cache.display()))?;
        let path = lock_path(out);
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .io(|| format!("failed to open {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(OutLock { _file: file, path }),
            Err(fs::TryLockError::WouldBlock) => Err(Error::new(
                ErrorKind::Io,
                format!(
                    "the output folder {} is in use: another muster build, clean or watch is writing there (its lock is {}); wait for it to finish, or use another --out",
                    out.canonicalize().unwrap_or_else(|_| out.to_path_buf()).display(),
                    path.display()
                ),
            )),
            Err(fs::TryLockError::Error(e)) => Err(Error::with_source(
                ErrorKind::Io,
                format!("failed to lock {}", path.display()),
                e,
            )),
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The lock file of the output folder `out`.
pub fn lock_path(out: &Path) -> PathBuf {
    cache_dir(out).join(LOCK_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_of_one_folder_fails_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let first = OutLock::take(dir.path()).unwrap();
        assert_eq!(first.path(), lock_path(dir.path()));
        let err = OutLock::take(dir.path()).unwrap_err().to_string();
        assert!(err.contains("is in use"), "{err}");
        let named = dir.path().canonicalize().unwrap().display().to_string();
        assert!(err.contains(&named), "{err}");
        let other = tempfile::tempdir().unwrap();
        let _elsewhere = OutLock::take(other.path()).unwrap();
        drop(first);
        assert!(OutLock::take(dir.path()).is_ok());
    }
}
