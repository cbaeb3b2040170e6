//! Files on disk: atomic writes (a temporary file beside the target, then a rename) and
//! sorted listings.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{IoContext, Result};

/// Writes `bytes` to `path` so that readers see either the old file or the whole new one,
/// flushed to disk before it takes the real name. Leaves the file untouched when its
/// content would not change; returns whether it was written.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<bool> {
    if unchanged(path, bytes) {
        return Ok(false);
    }
    let tmp = write_temporary(path, bytes)?;
    tmp.as_file().sync_all().io(|| format!("failed to write {}", path.display()))?;
    persist(tmp.into_temp_path(), path)?;
    Ok(true)
}

/// Writes `bytes` to `path` through a temporary file and a rename, without waiting for the
/// disk: for files that can be made again, such as cache entries.
pub(crate) fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    persist(write_temporary(path, bytes)?.into_temp_path(), path)
}

/// Whether `path` already holds exactly `bytes`.
pub(crate) fn unchanged(path: &Path, bytes: &[u8]) -> bool {
    fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64)
        && fs::read(path).is_ok_and(|old| old == bytes)
}

/// A temporary file beside `path` holding `bytes`, readable by all (outputs are ordinary
/// files), not yet flushed to disk.
pub(crate) fn write_temporary(
    path: &Path,
    bytes: &[u8],
) -> Result<tempfile::NamedTempFile> {
    let dir =
        path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).io(|| format!("failed to create {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".muster-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .io(|| format!("failed to create a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes).io(|| format!("failed to write {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(0o644))
            .io(|| format!("failed to write {}", path.display()))?;
    }
    Ok(tmp)
}

/// Gives a temporary file its real name.
pub(crate) fn persist(tmp: tempfile::TempPath, path: &Path) -> Result<()> {
    tmp.persist(path)
        .map_err(|e| e.error)
        .io(|| format!("failed to write {}", path.display()))
}

/// Every file under `dir` (following no symbolic links), sorted; nothing when it is absent.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                Ok(t) if t.is_file() => out.push(e.path()),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replaces_and_skips_identical_content() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b.json");
        assert!(write_atomic(&p, b"one").unwrap());
        assert!(!write_atomic(&p, b"one").unwrap());
        assert!(write_atomic(&p, b"two").unwrap());
        assert_eq!(fs::read(&p).unwrap(), b"two");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o644);
        }
        let leftovers: Vec<_> = fs::read_dir(p.parent().unwrap()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary files are left behind");
    }
}
