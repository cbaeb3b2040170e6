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

/// Whether `path` already holds exactly `bytes`. The file is compared a piece at a time,
/// so a large file is never held whole and a difference ends the reading.
pub(crate) fn unchanged(path: &Path, bytes: &[u8]) -> bool {
    holds(path, bytes.len() as u64, bytes)
}

/// Whether the files `a` and `b` hold the same bytes, compared as [`unchanged`] compares;
/// `false` when either cannot be read.
pub(crate) fn same_bytes(a: &Path, b: &Path) -> bool {
    let Ok(b) = fs::File::open(b) else {
        return false;
    };
    b.metadata().is_ok_and(|m| holds(a, m.len(), b))
}

/// Whether `path` holds exactly the `len` bytes `other` reads, compared a piece at a time.
fn holds(path: &Path, len: u64, mut other: impl std::io::Read) -> bool {
    use std::io::Read;
    const PIECE: u64 = 1 << 20;
    let Ok(mut file) = fs::File::open(path) else {
        return false;
    };
    if !file.metadata().is_ok_and(|m| m.len() == len) {
        return false;
    }
    let room = PIECE.min(len) as usize;
    let (mut mine, mut theirs) = (vec![0; room], vec![0; room]);
    let mut left = len;
    while left > 0 {
        let n = PIECE.min(left) as usize;
        let (mine, theirs) = (&mut mine[..n], &mut theirs[..n]);
        if file.read_exact(mine).is_err()
            || other.read_exact(theirs).is_err()
            || mine != theirs
        {
            return false;
        }
        left -= n as u64;
    }
    // Nothing more on either side: a file grown since its size was read is not the same.
    file.read(&mut [0]).is_ok_and(|n| n == 0)
        && other.read(&mut [0]).is_ok_and(|n| n == 0)
}

/// A temporary file beside `path` holding `bytes`, readable by all (outputs are ordinary
/// files), not yet flushed to disk.
pub(crate) fn write_temporary(
    path: &Path,
    bytes: &[u8],
) -> Result<tempfile::NamedTempFile> {
    write_temporary_with(path, |file| {
        file.write_all(bytes).io(|| format!("failed to write {}", path.display()))
    })
}

/// A temporary file beside `path`, readable by all, that `fill` writes; not yet flushed to
/// disk.
pub(crate) fn write_temporary_with(
    path: &Path,
    fill: impl FnOnce(&mut fs::File) -> Result<()>,
) -> Result<tempfile::NamedTempFile> {
    let dir =
        path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).io(|| format!("failed to create {}", dir.display()))?;
    // Named after its target, so that a stray one can be told apart from another game's.
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!("{TEMPORARY_PREFIX}{name}."))
        .suffix(TEMPORARY_SUFFIX)
        .tempfile_in(dir)
        .io(|| format!("failed to create a temporary file in {}", dir.display()))?;
    fill(tmp.as_file_mut())?;
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

/// How the name of a temporary file muster writes beside an output starts.
const TEMPORARY_PREFIX: &str = ".muster-";
/// How it ends.
const TEMPORARY_SUFFIX: &str = ".tmp";

/// Whether `path` is a temporary file muster writes beside an output (`.muster-*.tmp`),
/// one a build that was killed may leave behind.
pub fn is_temporary(path: &Path) -> bool {
    path.file_name()
        .map(|n| n.to_string_lossy())
        .is_some_and(|n| n.starts_with(TEMPORARY_PREFIX) && n.ends_with(TEMPORARY_SUFFIX))
}

/// The temporary files among the outputs `roots` (files or folders): every one under a
/// folder, and beside a file those staged for that file.
pub fn temporaries(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in roots {
        if root.is_dir() {
            out.extend(files_under(root).into_iter().filter(|f| is_temporary(f)));
            continue;
        }
        let (Some(dir), Some(name)) = (root.parent(), root.file_name()) else {
            continue;
        };
        let staged = format!("{TEMPORARY_PREFIX}{}.", name.to_string_lossy());
        let Ok(entries) =
            fs::read_dir(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
        else {
            continue;
        };
        for e in entries.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with(&staged) && n.ends_with(TEMPORARY_SUFFIX) {
                out.push(dir.join(n));
            }
        }
    }
    out.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    out
}

/// Removes the temporary files among the outputs `roots` ([`temporaries`]); returns how
/// many went.
pub fn remove_temporaries(roots: &[PathBuf]) -> Result<usize> {
    let found = temporaries(roots);
    for f in &found {
        fs::remove_file(f).io(|| format!("failed to remove {}", f.display()))?;
    }
    Ok(found.len())
}

/// Every file under `dir` (following no symbolic links), sorted by the bytes of their
/// paths (the same order on every run, and far cheaper than comparing path components);
/// nothing when it is absent.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    walk_files(dir, false, |_| Some(())).into_iter().map(|(path, ())| path).collect()
}

/// [`files_under`] with the symbolic links under `dir` too (not followed), each told by
/// whether it is a link.
pub fn files_and_links_under(dir: &Path) -> Vec<(PathBuf, bool)> {
    walk_files(dir, true, |e| e.file_type().ok().map(|t| t.is_symlink()))
}

/// [`files_under`] with each file's size and modification time ([`Stated`]), read from
/// its folder as the folder is walked: one name looked up per file, not its whole path.
pub fn stated_files_under(dir: &Path) -> Vec<(PathBuf, Stated)> {
    walk_files(dir, false, |e| e.metadata().ok().map(|m| Stated::of(&m)))
}

/// A file's size in bytes and modification time in nanoseconds since 1970 (0 when the
/// system does not tell it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stated {
    /// Size in bytes.
    pub len: u64,
    /// Modification time in nanoseconds since 1970.
    pub mtime: u128,
}

impl Stated {
    /// The size and modification time in `meta`.
    pub fn of(meta: &fs::Metadata) -> Self {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        Stated { len: meta.len(), mtime }
    }
}

/// The files under `dir` (no symbolic links followed), sorted by the bytes of their paths,
/// each with what `look` reads from its folder entry; a file `look` gives nothing for
/// (gone meanwhile) is left out. With `links`, the symbolic links are listed as files.
fn walk_files<T>(
    dir: &Path,
    links: bool,
    look: impl Fn(&fs::DirEntry) -> Option<T>,
) -> Vec<(PathBuf, T)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                Ok(t) if t.is_file() || (links && t.is_symlink()) => {
                    if let Some(found) = look(&e) {
                        out.push((e.path(), found));
                    }
                }
                _ => {}
            }
        }
    }
    out.sort_unstable_by(|a, b| a.0.as_os_str().cmp(b.0.as_os_str()));
    out
}

/// Removes the empty folders under `dir` (not `dir` itself).
pub(crate) fn remove_empty_dirs_under(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            remove_empty_dirs_under(&e.path());
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
    fn files_stated_as_their_folders_are_read_are_the_files_with_their_sizes_and_times() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("b/c")).unwrap();
        fs::write(d.join("a.png"), b"12345").unwrap();
        fs::write(d.join("b/c/d.json"), b"{}").unwrap();
        fs::write(d.join("b/e"), b"").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(d.join("a.png"), d.join("b/link")).unwrap();
        let stated = stated_files_under(d);
        let paths: Vec<PathBuf> = stated.iter().map(|(p, _)| p.clone()).collect();
        assert_eq!(paths, files_under(d), "the same files, in the same order");
        assert_eq!(paths, [d.join("a.png"), d.join("b/c/d.json"), d.join("b/e")]);
        for (path, found) in &stated {
            assert_eq!(*found, Stated::of(&fs::metadata(path).unwrap()), "{path:?}");
        }
        assert_eq!(stated[0].1.len, 5);
        assert!(stated[0].1.mtime > 0);
        assert!(stated_files_under(&d.join("none")).is_empty());
    }

    #[test]
    fn files_compare_piece_by_piece_to_the_last_byte() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.bin");
        let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i % 253) as u8).collect();
        fs::write(&p, &bytes).unwrap();
        assert!(unchanged(&p, &bytes));
        for at in [0, 1 << 20, bytes.len() - 1] {
            let mut other = bytes.clone();
            other[at] ^= 1;
            assert!(!unchanged(&p, &other), "a difference at byte {at}");
        }
        assert!(!unchanged(&p, &bytes[1..]), "a shorter file");
        assert!(!unchanged(&dir.path().join("none"), b""), "no file");
        fs::write(&p, b"").unwrap();
        assert!(unchanged(&p, b""), "an empty file");
    }

    #[test]
    fn two_files_compare_piece_by_piece_to_the_last_byte() {
        let dir = tempfile::tempdir().unwrap();
        let (p, q) = (dir.path().join("p.bin"), dir.path().join("q.bin"));
        let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        fs::write(&p, &bytes).unwrap();
        fs::write(&q, &bytes).unwrap();
        assert!(same_bytes(&p, &q));
        for at in [0, 1 << 20, bytes.len() - 1] {
            let mut other = bytes.clone();
            other[at] ^= 1;
            fs::write(&q, &other).unwrap();
            assert!(!same_bytes(&p, &q), "a difference at byte {at}");
        }
        fs::write(&q, &bytes[1..]).unwrap();
        assert!(!same_bytes(&p, &q), "a shorter file");
        assert!(!same_bytes(&p, &dir.path().join("none")), "no file");
        fs::write(&p, b"").unwrap();
        fs::write(&q, b"").unwrap();
        assert!(same_bytes(&p, &q), "two empty files");
    }

    #[test]
    fn temporaries_are_found_in_folders_and_beside_the_file_they_were_staged_for() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::create_dir_all(d.join("dist/g/web")).unwrap();
        let staged = write_temporary(&d.join("dist/g.vmod"), b"x").unwrap();
        let name = staged.path().file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(".muster-g.vmod.") && name.ends_with(".tmp"), "{name}");
        let stray = staged.into_temp_path().keep().unwrap();
        fs::write(d.join("dist/g/web/.muster-a.png.x1.tmp"), b"x").unwrap();
        fs::write(d.join("dist/g/web/mine.tmp"), b"x").unwrap();
        fs::write(d.join("dist/.muster-h.vmod.x2.tmp"), b"x").unwrap();
        let roots = [d.join("dist/g"), d.join("dist/g.vmod")];
        assert_eq!(
            temporaries(&roots),
            vec![stray.clone(), d.join("dist/g/web/.muster-a.png.x1.tmp")]
        );
        assert_eq!(remove_temporaries(&roots).unwrap(), 2);
        assert!(d.join("dist/g/web/mine.tmp").is_file());
        assert!(d.join("dist/.muster-h.vmod.x2.tmp").is_file(), "another game's");
    }
}
