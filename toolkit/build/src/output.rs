//! Staging a build's outputs: each file is written to a temporary name beside its target,
//! all are flushed to disk at once and renamed into place when every stage has succeeded.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Error, ErrorKind, IoContext, Result};
use crate::files::{
    Stated, files_under, persist, remove_empty_dirs_under, same_bytes,
    stated_files_under, unchanged, write_temporary, write_temporary_with,
};
use crate::last_archive::LastArchive;
use crate::report::LeftAlone;
use crate::sync::lock;
use crate::trash::{LARGE, Trash};
use crate::writeback::{EARLY, Streamed, Writeback};

/// Flushes the files `paths` to disk: on Linux with one `syncfs` per file system holding
/// them (one for a whole build, as a rule), elsewhere file by file.
fn flush(paths: &[&Path]) -> Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let mut devices = BTreeSet::new();
        for p in paths {
            let file =
                fs::File::open(p).io(|| format!("failed to open {}", p.display()))?;
            let device =
                file.metadata().io(|| format!("failed to read {}", p.display()))?.dev();
            if devices.insert(device) {
                rustix::fs::syncfs(&file)
                    .map_err(std::io::Error::from)
                    .io(|| format!("failed to flush {} to disk", p.display()))?;
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    for p in paths {
        fs::File::open(p)
            .and_then(|f| f.sync_all())
            .io(|| format!("failed to flush {} to disk", p.display()))?;
    }
    Ok(())
}

/// The files a build writes, staged and then committed together: each is written to a
/// temporary file beside its target, all are flushed to disk at once, then each takes its
/// real name. A build that fails before the commit leaves every previous output as it was
/// (the temporary files go when `Outputs` is dropped). Files whose bytes would not change
/// are left untouched. What the build did not write can then be swept away. The large files
/// are written back to disk as soon as they are staged ([`crate::writeback`]), so that the flush
/// before the commit has little left to write.
///
/// A file written from a cache object is remembered with that object's key. When the last
/// build wrote a file from the object this build wants there, and the file is as that
/// build left it ([`Outputs::with_last`]), it is kept without being read or compared.
#[derive(Debug, Default)]
pub struct Outputs {
    written: Mutex<HashSet<PathBuf>>,
    staged: Mutex<Vec<(PathBuf, tempfile::TempPath)>>,
    /// What the last build wrote from objects, among the files unchanged since.
    last: LastObjects,
    /// The files this build wrote or kept from an object, with its key. (Hashed: tens of
    /// thousands of paths are looked up and added, side by side, under one lock.)
    objects: Mutex<HashMap<PathBuf, String>>,
    /// The archives this build wrote, with their entries written from an object (entry
    /// name → key).
    archives: Mutex<HashMap<PathBuf, BTreeMap<String, String>>>,
    /// The files this build put in place.
    committed: Mutex<HashSet<PathBuf>>,
    /// The files the sweep left in place that this build did not write.
    foreign: Mutex<Vec<PathBuf>>,
    /// Those among them the last build's record did not list as left in place already.
    left_alone: Mutex<Vec<LeftAlone>>,
    /// The archives of the last build, opened, until a stage takes them.
    opened: Mutex<HashMap<PathBuf, LastArchive>>,
    /// Writes the large staged files back to disk while the build goes on.
    writeback: Writeback,
}

/// What a build wrote from cache objects, as its stamp records it: among the files still as
/// it left them, those written from one object and the archives holding entries written
/// from one, with the objects' keys.
#[derive(Debug, Default)]
pub struct LastObjects {
    /// Files written from one object, with its key.
    pub files: HashMap<PathBuf, String>,
    /// Archives, with their entries written from an object (entry name → key).
    pub archives: HashMap<PathBuf, BTreeMap<String, String>>,
    /// Every file found under the game's outputs as the build began, with its size and
    /// modification time.
    pub found: HashMap<PathBuf, (u64, u128)>,
    /// Those archives opened as stores of the objects they hold, for the stage that writes
    /// each again to take ([`Outputs::take_last_archive`]).
    pub opened: HashMap<PathBuf, LastArchive>,
    /// Every file the last build's record says muster wrote, with its size and
    /// modification time then: the only files a sweep may remove (while unchanged).
    pub recorded: HashMap<PathBuf, (u64, u128)>,
    /// The files the last build left in place without having written them.
    pub foreign: HashSet<PathBuf>,
}

impl Outputs {
    /// Outputs that know which files (and archive entries) the last build wrote from which
    /// cache object (by key), among the files still as it left them.
    pub fn with_last(mut last: LastObjects) -> Self {
        let opened = Mutex::new(std::mem::take(&mut last.opened));
        Outputs { last, opened, ..Outputs::default() }
    }

    /// The archive `path` as the last build left it, opened as a store of the objects it
    /// holds ([`LastObjects::opened`]); given once.
    pub fn take_last_archive(&self, path: &Path) -> Option<LastArchive> {
        lock(&self.opened).remove(path)
    }

    /// Stages a file and remembers it. A folder standing at `path` fails the stage here,
    /// before anything is put in place.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        lock(&self.written).insert(path.to_path_buf());
        if unchanged(path, bytes) {
            return Ok(());
        }
        // Looked at only for a file to be written: a folder never holds the same bytes.
        takes_a_file(path)?;
        let tmp = write_temporary(path, bytes)?;
        if bytes.len() as u64 >= EARLY {
            self.writeback.start(tmp.as_file());
        }
        lock(&self.staged).push((path.to_path_buf(), tmp.into_temp_path()));
        Ok(())
    }

    /// Stages a file that `fill` writes as it goes (so that it is never held whole), and
    /// remembers it; a file that holds the same bytes already is left as it is. The file
    /// is written back to disk as it is written.
    pub fn write_with(
        &self,
        path: &Path,
        fill: impl FnOnce(&mut Streamed) -> Result<()>,
    ) -> Result<()> {
        lock(&self.written).insert(path.to_path_buf());
        takes_a_file(path)?;
        let tmp = write_temporary_with(path, |file| {
            fill(&mut Streamed::new(file, &self.writeback))
        })?;
        if !same_bytes(tmp.path(), path) {
            self.writeback.start(tmp.as_file());
            lock(&self.staged).push((path.to_path_buf(), tmp.into_temp_path()));
        }
        Ok(())
    }

    /// Keeps `path` as it is when the last build wrote it from the object `key` and it has
    /// not changed since; returns whether it did.
    pub fn keep_object(&self, path: &Path, key: &str) -> bool {
        if self.last.files.get(path).is_none_or(|k| k != key) {
            return false;
        }
        lock(&self.written).insert(path.to_path_buf());
        lock(&self.objects).insert(path.to_path_buf(), key.to_string());
        true
    }

    /// Stages a file holding the bytes of the object `key`, and remembers it.
    pub fn write_object(&self, path: &Path, key: &str, bytes: &[u8]) -> Result<()> {
        self.write(path, bytes)?;
        lock(&self.objects).insert(path.to_path_buf(), key.to_string());
        Ok(())
    }

    /// The files written or kept from an object, with its key.
    pub fn objects(&self) -> HashMap<PathBuf, String> {
        lock(&self.objects).clone()
    }

    /// Stages the archive `path` and remembers which of its entries hold the bytes of which
    /// object (`entries`: entry name → key), for the next build to find them there
    /// ([`Outputs::take_last_archive`]).
    pub fn write_archive(
        &self,
        path: &Path,
        fill: impl FnOnce(&mut Streamed) -> Result<()>,
        entries: BTreeMap<String, String>,
    ) -> Result<()> {
        self.write_with(path, fill)?;
        lock(&self.archives).insert(path.to_path_buf(), entries);
        Ok(())
    }

    /// The archives written, with their entries written from an object.
    pub fn archives(&self) -> HashMap<PathBuf, BTreeMap<String, String>> {
        lock(&self.archives).clone()
    }

    /// The size and modification time `path` had as the build began, when the build has
    /// not put another file there since.
    pub fn found_untouched(&self, path: &Path) -> Option<(u64, u128)> {
        let found = self.last.found.get(path)?;
        (!lock(&self.committed).contains(path)).then_some(*found)
    }

    /// Flushes every staged file to disk, then renames each into place, in the order they
    /// were staged. Returns how many files changed.
    pub fn commit(&self) -> Result<usize> {
        self.commit_with(None)
    }

    /// [`Outputs::commit`], with each large file it replaces ([`crate::trash::LARGE`], as
    /// the build found it) first given a name in `trash`, so that the rename does not wait
    /// for the old file to be freed; the names go to `trash` to be removed later.
    pub fn commit_keeping(&self, trash: &Trash) -> Result<usize> {
        self.commit_with(Some(trash))
    }

    fn commit_with(&self, trash: Option<&Trash>) -> Result<usize> {
        let staged = std::mem::take(&mut *lock(&self.staged));
        // Every target is looked at before the first is renamed, so that a folder made at
        // one since it was staged leaves every output as it was.
        for (path, _) in &staged {
            takes_a_file(path)?;
        }
        let temporaries: Vec<&Path> = staged.iter().map(|(_, t)| t.as_ref()).collect();
        self.writeback
            .finish()
            .io(|| "failed to write the outputs to disk".to_string())?;
        flush(&temporaries)?;
        lock(&self.committed).extend(staged.iter().map(|(path, _)| path.clone()));
        let n = staged.len();
        let mut kept = Vec::new();
        let persisted = staged.into_iter().try_for_each(|(path, tmp)| {
            let large = self.last.found.get(&path).is_some_and(|(len, _)| *len >= LARGE);
            if let Some(trash) = trash.filter(|_| large) {
                kept.extend(trash.keep(&path));
            }
            persist(tmp, &path)
        });
        if let Some(trash) = trash {
            trash.remove_later(kept);
        }
        persisted.map(|()| n)
    }

    /// Removes every file under `roots` (files or folders) that was not written but that
    /// the last build's record says muster wrote, still as it left it, and any temporary
    /// file a killed build left there; then the folders that leaves empty. Every other
    /// file stays ([`Outputs::left_alone`]). Returns how many files went.
    pub fn sweep(&self, roots: &[PathBuf]) -> Result<usize> {
        let files = files_of(roots);
        let before = files.len();
        Ok(before - self.sweep_files(roots, files)?.len())
    }

    /// [`Outputs::sweep`] of the files found under `roots` already (`files`); returns the
    /// files that stay.
    pub fn sweep_files(
        &self,
        roots: &[PathBuf],
        files: Vec<PathBuf>,
    ) -> Result<Vec<PathBuf>> {
        let written = lock(&self.written);
        // The files that stay keep the order they were found in (a stamp lists them so).
        let (mut stay, mut go) = (Vec::with_capacity(files.len()), Vec::new());
        let (mut foreign, mut left) = (Vec::new(), Vec::new());
        for f in files {
            if written.contains(&f) {
                stay.push(f);
                continue;
            }
            match self.ownership(&f) {
                Ownership::Muster => go.push(f),
                ours => {
                    if !self.last.foreign.contains(&f) {
                        let changed = ours == Ownership::Changed;
                        left.push(LeftAlone { path: crate::layout::shown(&f), changed });
                    }
                    foreign.push(f.clone());
                    stay.push(f);
                }
            }
        }
        drop(written);
        lock(&self.foreign).extend(foreign);
        lock(&self.left_alone).extend(left);
        for f in &go {
            match fs::remove_file(f) {
                // Gone already: what the sweep wants.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                done => done.io(|| format!("failed to remove {}", f.display()))?,
            }
        }
        for root in roots {
            if root.is_dir() && go.iter().any(|f| f.starts_with(root)) {
                remove_empty_dirs_under(root);
            }
        }
        Ok(stay)
    }
}

/// Whose a file not written by this build is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ownership {
    /// muster's: a temporary file, or an output the last build recorded, unchanged since.
    Muster,
    /// An output the last build recorded, changed since (or no longer a file).
    Changed,
    /// Not muster's: no build recorded it.
    Other,
}

impl Outputs {
    /// Whose the file `path`, not written by this build, is.
    fn ownership(&self, path: &Path) -> Ownership {
        if crate::files::is_temporary(path) {
            return Ownership::Muster;
        }
        let Some(recorded) = self.last.recorded.get(path) else {
            return Ownership::Other;
        };
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.is_file() => {
                let now = Stated::of(&meta);
                if (now.len, now.mtime) == *recorded {
                    Ownership::Muster
                } else {
                    Ownership::Changed
                }
            }
            // Gone already: nothing to remove.
            Err(_) => Ownership::Muster,
            Ok(_) => Ownership::Changed,
        }
    }

    /// The files the sweeps left in place that this build did not write, in the order
    /// found.
    pub fn foreign(&self) -> Vec<PathBuf> {
        lock(&self.foreign).clone()
    }

    /// The files the sweeps left in place that the last build's record did not already
    /// list as left in place: what the user is to be told of.
    pub fn left_alone(&self) -> Vec<LeftAlone> {
        lock(&self.left_alone).clone()
    }
}

/// Fails when a folder stands at `path`, where an output file is to go.
fn takes_a_file(path: &Path) -> Result<()> {
    if path.is_dir() {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "failed to write {}: a folder stands at its path (move or remove it)",
                path.display()
            ),
        ));
    }
    Ok(())
}

/// Every file under the outputs `roots` (files or folders), each folder walked side by
/// side.
pub fn files_of(roots: &[PathBuf]) -> Vec<PathBuf> {
    each_root(roots, files_under, |file| Some(file.to_path_buf()))
}

/// [`files_of`] with each file's size and modification time.
pub fn stated_files_of(roots: &[PathBuf]) -> Vec<(PathBuf, Stated)> {
    each_root(roots, stated_files_under, |file| {
        let meta = fs::metadata(file).ok()?;
        Some((file.to_path_buf(), Stated::of(&meta)))
    })
}

/// What `under` finds in each of `roots` that is a folder, and what `file` makes of each
/// that is a file, roots side by side, in their order.
fn each_root<T: Send>(
    roots: &[PathBuf],
    under: impl Fn(&Path) -> Vec<T> + Sync,
    file: impl Fn(&Path) -> Option<T> + Sync,
) -> Vec<T> {
    use rayon::prelude::*;
    roots
        .par_iter()
        .map(|root| {
            // A root that is a symbolic link is not followed: what it leads to is not
            // muster's to list or sweep.
            match fs::symlink_metadata(root) {
                Ok(meta) if meta.is_dir() => under(root),
                Ok(meta) if meta.is_file() => file(root).into_iter().collect(),
                _ => Vec::new(),
            }
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_at_an_output_fails_before_anything_is_put_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.png"), dir.path().join("b.png"));
        fs::write(&a, b"old").unwrap();
        // At staging: the stage fails.
        fs::create_dir(&b).unwrap();
        let outputs = Outputs::default();
        let err = outputs.write(&b, b"new").unwrap_err().to_string();
        assert!(err.contains("a folder stands at its path"), "{err}");
        fs::remove_dir(&b).unwrap();
        // Made after staging: the commit fails before its first rename.
        outputs.write(&a, b"new").unwrap();
        outputs.write(&b, b"new").unwrap();
        fs::create_dir(&b).unwrap();
        assert!(outputs.commit().is_err());
        assert_eq!(fs::read(&a).unwrap(), b"old");
    }

    #[test]
    fn a_file_written_as_it_goes_is_staged_only_when_its_bytes_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.vmod");
        fs::write(&path, b"same").unwrap();
        let fill = |bytes: &'static [u8]| {
            move |f: &mut Streamed| {
                use std::io::Write;
                f.write_all(bytes).io(|| "writes".to_string())
            }
        };
        let outputs = Outputs::default();
        outputs.write_with(&path, fill(b"same")).unwrap();
        assert_eq!(outputs.commit().unwrap(), 0, "the same bytes are left as they are");
        outputs.write_with(&path, fill(b"other")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"same", "staged, not yet in place");
        assert_eq!(outputs.commit().unwrap(), 1);
        assert_eq!(fs::read(&path).unwrap(), b"other");
        // A fill that fails leaves no temporary file behind.
        let failing = |_: &mut Streamed| Err(Error::new(ErrorKind::Package, "no"));
        assert!(outputs.write_with(&path, failing).is_err());
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the archive");
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

    /// What the last build recorded of `files`: their size and modification time now.
    fn recorded(files: &[PathBuf]) -> LastObjects {
        let recorded = files
            .iter()
            .map(|f| {
                let s = Stated::of(&fs::metadata(f).unwrap());
                (f.clone(), (s.len, s.mtime))
            })
            .collect();
        LastObjects { recorded, ..LastObjects::default() }
    }

    #[test]
    fn sweep_removes_only_what_the_last_build_wrote_unchanged_and_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("dist");
        fs::create_dir_all(root.join("old/deep")).unwrap();
        let (stale, edited, mine) = (
            root.join("old/deep/stale.png"),
            root.join("edited.png"),
            root.join("mine.txt"),
        );
        fs::write(&stale, b"x").unwrap();
        fs::write(&edited, b"x").unwrap();
        fs::write(root.join(".muster-1.tmp"), b"x").unwrap();
        let outputs = Outputs::with_last(recorded(&[stale.clone(), edited.clone()]));
        fs::write(&edited, b"edited").unwrap();
        fs::write(&mine, b"mine").unwrap();
        outputs.write(&root.join("kept.json"), b"{}").unwrap();
        assert!(!root.join("kept.json").exists(), "staged, not yet in place");
        assert_eq!(outputs.commit().unwrap(), 1);
        assert_eq!(outputs.sweep(std::slice::from_ref(&root)).unwrap(), 2);
        assert_eq!(fs::read(root.join("kept.json")).unwrap(), b"{}");
        assert!(!root.join("old").exists());
        assert_eq!(fs::read(&edited).unwrap(), b"edited");
        assert_eq!(fs::read(&mine).unwrap(), b"mine");
        let left = outputs.left_alone();
        let shown = |p: &Path| p.display().to_string();
        assert_eq!(
            left,
            vec![
                LeftAlone { path: shown(&edited), changed: true },
                LeftAlone { path: shown(&mine), changed: false },
            ]
        );
        assert_eq!(outputs.foreign(), vec![edited, mine]);
    }

    #[cfg(unix)]
    #[test]
    fn sweep_follows_no_link_where_an_output_folder_is() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("mine");
        fs::create_dir_all(&elsewhere).unwrap();
        fs::write(elsewhere.join("a.png"), b"mine").unwrap();
        let root = dir.path().join("dist/g");
        fs::create_dir_all(root.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &root).unwrap();
        // Even a record naming the file through the link does not reach it.
        let through = root.join("a.png");
        let outputs = Outputs::with_last(recorded(std::slice::from_ref(&through)));
        assert!(files_of(std::slice::from_ref(&root)).is_empty());
        assert_eq!(outputs.sweep(std::slice::from_ref(&root)).unwrap(), 0);
        assert_eq!(fs::read(elsewhere.join("a.png")).unwrap(), b"mine");
    }
}
