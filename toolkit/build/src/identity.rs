//! muster's identity: its version and the hash of the running executable, the first part
//! of every cache key, so a different muster never reuses what another one made.
//!
//! Hashing the executable means reading some tens of megabytes; the hash is remembered in
//! the cache folder under the executable's path, size and modification time, so a build
//! (a no-op rebuild above all) reads it only when the executable changed.

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{IoContext, Result};

/// The file in the cache folder that remembers the executable's hash.
const REMEMBERED: &str = "identity.json";

/// The executable an identity was worked out from, and its hash.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Remembered {
    path: String,
    len: u64,
    modified_ns: u128,
    hash: String,
}

/// muster's identity. `cache` is the cache folder: when it exists, the executable's hash
/// is taken from it if the executable is unchanged, and kept there otherwise.
pub fn identity(cache: &Path) -> Result<blake3::Hash> {
    let exe = std::env::current_exe()
        .io(|| "failed to find the muster executable".to_string())?;
    let meta = fs::metadata(&exe).io(|| format!("failed to read {}", exe.display()))?;
    let modified_ns = crate::files::Stated::of(&meta).mtime;
    let path = exe.display().to_string();
    let file = cache.join(REMEMBERED);
    let remembered = fs::read(&file)
        .ok()
        .and_then(|text| serde_json::from_slice::<Remembered>(&text).ok())
        .filter(|r| r.path == path && r.len == meta.len() && r.modified_ns == modified_ns)
        .and_then(|r| blake3::Hash::from_hex(&r.hash).ok());
    let exe_hash = match remembered {
        Some(hash) => hash,
        None => {
            let bytes =
                fs::read(&exe).io(|| format!("failed to read {}", exe.display()))?;
            let hash = blake3::hash(&bytes);
            if cache.is_dir() {
                let r = Remembered {
                    path,
                    len: meta.len(),
                    modified_ns,
                    hash: hash.to_hex().to_string(),
                };
                // Only a speed-up: a cache folder that cannot be written is no error here.
                if let Ok(text) = serde_json::to_vec(&r) {
                    let _ = crate::files::write_atomic(&file, &text);
                }
            }
            hash
        }
    };
    let mut h = blake3::Hasher::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(exe_hash.as_bytes());
    Ok(h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_remembered_and_a_changed_executable_is_hashed_again() {
        let dir = tempfile::tempdir().unwrap();
        let first = identity(dir.path()).unwrap();
        let file = dir.path().join(REMEMBERED);
        let mut r: Remembered =
            serde_json::from_slice(&fs::read(&file).unwrap()).unwrap();
        assert_eq!(identity(dir.path()).unwrap(), first, "the same executable");
        // What is remembered is used while the executable looks the same...
        let planted = blake3::hash(b"another executable").to_hex().to_string();
        let real = std::mem::replace(&mut r.hash, planted);
        fs::write(&file, serde_json::to_vec(&r).unwrap()).unwrap();
        assert_ne!(identity(dir.path()).unwrap(), first);
        // ...and not once its size or time differ: it is worked out and kept again.
        r.len += 1;
        fs::write(&file, serde_json::to_vec(&r).unwrap()).unwrap();
        assert_eq!(identity(dir.path()).unwrap(), first);
        let kept: Remembered = serde_json::from_slice(&fs::read(&file).unwrap()).unwrap();
        assert_eq!(kept.hash, real);
    }

    #[test]
    fn no_cache_folder_is_made_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-cache");
        identity(&missing).unwrap();
        assert!(!missing.exists());
    }
}
