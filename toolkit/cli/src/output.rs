//! Writing outputs atomically: a temporary file beside the target, then a rename.

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` so that readers see either the old file or the whole new one,
/// flushed to disk before it takes the real name. Leaves the file untouched when its
/// content would not change.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<bool> {
    if unchanged(path, bytes) {
        return Ok(false);
    }
    let tmp = write_temporary(path, bytes)?;
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("failed to write {}", path.display()))?;
    persist(tmp.into_temp_path(), path)?;
    Ok(true)
}

/// Writes `bytes` to `path` through a temporary file and a rename, without waiting for the
/// disk: for files that can be made again, such as cache entries.
pub fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    persist(write_temporary(path, bytes)?.into_temp_path(), path)
}

/// Whether `path` already holds exactly `bytes`.
fn unchanged(path: &Path, bytes: &[u8]) -> bool {
    fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64)
        && fs::read(path).is_ok_and(|old| old == bytes)
}

/// A temporary file beside `path` holding `bytes`, readable by all (outputs are ordinary
/// files), not yet flushed to disk.
fn write_temporary(path: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile> {
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
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(0o644))
            .with_context(|| format!("failed to write {}", path.display()))?;
    }
    Ok(tmp)
}

/// Gives a temporary file its real name.
fn persist(tmp: tempfile::TempPath, path: &Path) -> Result<()> {
    tmp.persist(path).with_context(|| format!("failed to write {}", path.display()))
}

/// Flushes the files `paths` to disk: on Linux with one `syncfs` per file system holding
/// them (one for a whole build, as a rule), elsewhere file by file.
fn flush(paths: &[&Path]) -> Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let mut devices = BTreeSet::new();
        for p in paths {
            let file = fs::File::open(p)
                .with_context(|| format!("failed to open {}", p.display()))?;
            let device = file
                .metadata()
                .with_context(|| format!("failed to read {}", p.display()))?
                .dev();
            if devices.insert(device) {
                rustix::fs::syncfs(&file).with_context(|| {
                    format!("failed to flush {} to disk", p.display())
                })?;
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    for p in paths {
        fs::File::open(p)
            .and_then(|f| f.sync_all())
            .with_context(|| format!("failed to flush {} to disk", p.display()))?;
    }
    Ok(())
}

/// The files a build writes, staged and then committed together: each is written to a
/// temporary file beside its target, all are flushed to disk at once, then each takes its
/// real name. A build that fails before the commit leaves every previous output as it was
/// (the temporary files go when `Outputs` is dropped). Files whose bytes would not change
/// are left untouched. What the build did not write can then be swept away.
#[derive(Debug, Default)]
pub struct Outputs {
    written: Mutex<BTreeSet<PathBuf>>,
    staged: Mutex<Vec<(PathBuf, tempfile::TempPath)>>,
}

impl Outputs {
    /// Stages a file and remembers it.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        lock(&self.written).insert(path.to_path_buf());
        if unchanged(path, bytes) {
            return Ok(());
        }
        let tmp = write_temporary(path, bytes)?.into_temp_path();
        lock(&self.staged).push((path.to_path_buf(), tmp));
        Ok(())
    }

    /// Flushes every staged file to disk, then renames each into place, in the order they
    /// were staged. Returns how many files changed.
    pub fn commit(&self) -> Result<usize> {
        let staged = std::mem::take(&mut *lock(&self.staged));
        let temporaries: Vec<&Path> = staged.iter().map(|(_, t)| t.as_ref()).collect();
        flush(&temporaries)?;
        let n = staged.len();
        for (path, tmp) in staged {
            persist(tmp, &path)?;
        }
        Ok(n)
    }

    /// Removes every file under `roots` (files or folders) that was not written, and the
    /// folders left empty. Returns how many files went.
    pub fn sweep(&self, roots: &[PathBuf]) -> Result<usize> {
        let written = lock(&self.written);
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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
    fn staged_files_vanish_when_the_build_fails_before_the_commit() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("a.png");
        fs::write(&old, b"old").unwrap();
        {
            let outputs = Outputs::default();
            outputs.write(&old, b"new").unwrap();
            outputs.write(&dir.path().join("b.png"), b"new").unwrap();
        }
        assert_eq!(fs::read(&old).unwrap(), b"old");
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary files and no new file");
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
        assert!(!root.join("kept.json").exists(), "staged, not yet in place");
        assert_eq!(outputs.commit().unwrap(), 1);
        assert_eq!(outputs.sweep(std::slice::from_ref(&root)).unwrap(), 2);
        assert_eq!(fs::read(root.join("kept.json")).unwrap(), b"{}");
        assert!(root.join("kept.json").is_file());
        assert!(!root.join("old").exists());
    }
}
