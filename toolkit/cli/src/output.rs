//! Writing outputs atomically: a temporary file beside the target, then a rename.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `bytes` to `path` so that readers see either the old file or the whole new one.
/// Leaves the file untouched when its content would not change.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<bool> {
    if fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
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
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("failed to write {}", path.display()))?;
    tmp.persist(path).with_context(|| format!("failed to write {}", path.display()))?;
    Ok(true)
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
