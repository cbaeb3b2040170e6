//! Writing outputs atomically: a temporary file beside the target, then a rename.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` so that readers see either the old file or the whole new one,
/// flushed to disk before it takes the real name. Leaves the file untouched when its
/// content would not change.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<bool> {
    if fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64)
        && fs::read(path).is_ok_and(|old| old == bytes)
    {
        return Ok(false);
    }
    write_new(path, bytes, true)?;
    Ok(true)
}

/// Writes `bytes` to `path` through a temporary file and a rename, without waiting for the
/// disk: for files that can be made again, such as cache entries.
pub fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    write_new(path, bytes, false)
}

fn write_new(path: &Path, bytes: &[u8], sync: bool) -> Result<()> {
    let dir =
        path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir)
        .with_context(|| format!("failed to create {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".muster-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| {
            format!("failed to create a temporary file in {}", dir.display())
        })?;
    tmp.write_all(bytes)
        .with_context(|| format!("failed to write {}", path.display()))?;
    // Temporary files are private; outputs are ordinary readable files.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(0o644))
            .with_context(|| format!("failed to write {}", path.display()))?;
    }
    if sync {
        tmp.as_file()
            .sync_all()
            .with_context(|| format!("failed to write {}", path.display()))?;
    }
    tmp.persist(path).with_context(|| format!("failed to write {}", path.display()))?;
    Ok(())
}

/// The files a build writes, so that what it did not write can be swept away.
#[derive(Debug, Default)]
pub struct Outputs {
    written: std::sync::Mutex<std::collections::BTreeSet<std::path::PathBuf>>,
}

impl Outputs {
    /// Writes a file atomically (see [`write_atomic`]) and remembers it.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        write_atomic(path, bytes)?;
        self.written
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(path.to_path_buf());
        Ok(())
    }

    /// Removes every file under `roots` (files or folders) that was not written, and the
    /// folders left empty. Returns how many files went.
    pub fn sweep(&self, roots: &[std::path::PathBuf]) -> Result<usize> {
        let written =
            self.written.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut removed = 0;
        for root in roots {
            let files = if root.is_dir() {
                crate::cache::files_under(root)
            } else if root.is_file() {
                vec![root.clone()]
            } else {
                continue;
            };
            for f in files {
                if !written.contains(&f) {
                    fs::remove_file(&f)
                        .with_context(|| format!("failed to remove {}", f.display()))?;
                    removed += 1;
                }
            }
            if root.is_dir() {
                remove_empty_dirs(root);
            }
        }
        Ok(removed)
    }
}

/// Removes the empty folders under `dir` (not `dir` itself).
fn remove_empty_dirs(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            remove_empty_dirs(&e.path());
            let _ = fs::remove_dir(e.path());
        }
    }
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

    #[test]
    fn sweep_removes_what_was_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("dist");
        fs::create_dir_all(root.join("old/deep")).unwrap();
        fs::write(root.join("old/deep/stale.png"), b"x").unwrap();
        fs::write(root.join(".muster-1.tmp"), b"x").unwrap();
        let outputs = Outputs::default();
        outputs.write(&root.join("kept.json"), b"{}").unwrap();
        assert_eq!(outputs.sweep(std::slice::from_ref(&root)).unwrap(), 2);
        assert!(root.join("kept.json").is_file());
        assert!(!root.join("old").exists());
    }
}
