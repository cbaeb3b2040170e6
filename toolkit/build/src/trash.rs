//! The outputs a commit replaced, kept alive under the cache until a thread of their own
//! removes them.
//!
//! Renaming a file over a large one frees the old file's blocks and its pages in memory
//! before the rename returns: for the module of a game of 10,000 counters (182 MB) that
//! takes the kernel some 35 ms, which the build would wait for. A second name for the old
//! file, made in the trash folder just before the rename, keeps the rename from freeing
//! anything; the second name is removed beside the build's last steps, and the build
//! waits for that before it returns, so that nothing is left behind. A build killed
//! before then leaves the names in the trash folder, and the next build removes them.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use crate::files::files_under;
use crate::sync::lock;

/// Files at least this large are kept in the trash when replaced; a smaller one is freed
/// at once.
pub const LARGE: u64 = 1 << 20;

/// The trash folder of a cache, and the removals under way.
#[derive(Debug)]
pub struct Trash {
    dir: PathBuf,
    named: AtomicUsize,
    removals: Mutex<Vec<JoinHandle<()>>>,
}

impl Trash {
    /// The trash folder under the cache folder `cache`. What a killed build left there is
    /// removed on a thread of its own.
    pub fn new(cache: &Path) -> Self {
        let trash = Trash {
            dir: cache.join("trash"),
            named: AtomicUsize::new(0),
            removals: Mutex::new(Vec::new()),
        };
        let left = files_under(&trash.dir);
        if !left.is_empty() {
            trash.remove_later(left);
        }
        trash
    }

    /// Gives the file at `path`, about to be replaced, a second name in the trash, so that
    /// replacing it frees nothing; returns that name. None when there is no file at `path`
    /// or it cannot be linked (on a file system without hard links, or the trash on
    /// another one): replacing it then frees it at once, as it would without the trash.
    pub fn keep(&self, path: &Path) -> Option<PathBuf> {
        fs::create_dir_all(&self.dir).ok()?;
        let n = self.named.fetch_add(1, Ordering::Relaxed);
        let name = self.dir.join(format!("{}-{n}", std::process::id()));
        fs::hard_link(path, &name).ok()?;
        Some(name)
    }

    /// Removes `files` from the trash on a thread of its own. A file that cannot be
    /// removed stays, and the next build's trash removes it.
    pub fn remove_later(&self, files: Vec<PathBuf>) {
        if files.is_empty() {
            return;
        }
        let removal = std::thread::spawn(move || {
            for f in files {
                let _ = fs::remove_file(f);
            }
        });
        lock(&self.removals).push(removal);
    }

    /// Waits until every removal started has ended.
    pub fn wait(&self) {
        let removals = std::mem::take(&mut *lock(&self.removals));
        for removal in removals {
            let _ = removal.join();
        }
    }
}

impl Drop for Trash {
    fn drop(&mut self) {
        self.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_file_outlives_its_replacement_until_the_removal_and_leftovers_go() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join(".muster-cache");
        let out = dir.path().join("a.vmod");
        fs::write(&out, b"old module").unwrap();
        let trash = Trash::new(&cache);
        let kept = trash.keep(&out).expect("linked");
        assert!(kept.starts_with(cache.join("trash")));
        let new = dir.path().join("a.vmod.new");
        fs::write(&new, b"new module").unwrap();
        fs::rename(&new, &out).unwrap();
        assert_eq!(fs::read(&kept).unwrap(), b"old module", "the old file lives on");
        assert_eq!(fs::read(&out).unwrap(), b"new module");
        assert_eq!(trash.keep(&dir.path().join("absent")), None);
        trash.remove_later(vec![kept.clone()]);
        trash.wait();
        assert!(!kept.exists(), "removed once waited for");
        assert_eq!(fs::read(&out).unwrap(), b"new module");
        // What a killed build left goes with the next trash, which its drop waits for.
        fs::write(cache.join("trash").join("1-0"), b"left").unwrap();
        drop(Trash::new(&cache));
        assert!(files_under(&cache.join("trash")).is_empty());
    }
}
