//! [`LastArchive`]: the archive a game's last build wrote, as a store of the cache objects
//! it holds, so that a rebuild copies them from one file instead of reading each object.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::Path;

use muster_package::archive::Archive;

/// The entries of an archive the last build wrote from cache objects, found by the
/// object's key. Each entry's bytes are checked against the CRC-32 the archive declares
/// before they are given out, so a damaged archive gives nothing rather than wrong bytes.
#[derive(Debug)]
pub struct LastArchive {
    bytes: Vec<u8>,
    by_key: HashMap<String, (Range<usize>, u32)>,
}

impl LastArchive {
    /// The archive at `path`, whose entries `entries` (entry name → key) the last build
    /// wrote from objects; nothing when it cannot be read or holds none of them stored.
    pub fn open(path: &Path, entries: &BTreeMap<String, String>) -> Option<LastArchive> {
        let bytes = std::fs::read(path).ok()?;
        let (bytes, stored) = Archive::open(bytes).ok()?.into_stored_entries().ok()?;
        let by_key: HashMap<String, (Range<usize>, u32)> = stored
            .into_iter()
            .filter_map(|(name, entry)| {
                Some((entries.get(&name)?.clone(), (entry.range, entry.crc)))
            })
            .collect();
        (!by_key.is_empty()).then_some(LastArchive { bytes, by_key })
    }

    /// The bytes of the object `key`, when an entry of the archive holds them intact.
    pub fn object(&self, key: &str) -> Option<Vec<u8>> {
        let (range, crc) = self.by_key.get(key)?;
        let bytes = self.bytes.get(range.clone())?;
        (crc32fast::hash(bytes) == *crc).then(|| bytes.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_come_from_intact_stored_entries_only() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let path = dir.path().join("game.vmod");
        let mut files = BTreeMap::new();
        files.insert("buildFile.xml".to_string(), b"<module/>".to_vec());
        files.insert("images/a.png".to_string(), b"first image".to_vec());
        files.insert("images/b.png".to_string(), b"second image".to_vec());
        let zip = muster_package::archive::write_zip(&files).expect("zips");
        std::fs::write(&path, &zip).expect("writes");
        let entries: BTreeMap<String, String> = [
            ("images/a.png", "ka"),
            ("images/b.png", "kb"),
            ("buildFile.xml", "kx"),
            ("images/gone.png", "kg"),
        ]
        .into_iter()
        .map(|(n, k)| (n.to_string(), k.to_string()))
        .collect();
        let last = LastArchive::open(&path, &entries).expect("opens");
        assert_eq!(last.object("ka").as_deref(), Some(&b"first image"[..]));
        assert_eq!(last.object("kb").as_deref(), Some(&b"second image"[..]));
        // A deflated entry, one not in the archive and an unknown key give nothing.
        assert_eq!(last.object("kx"), None);
        assert_eq!(last.object("kg"), None);
        assert_eq!(last.object("other"), None);
        // A flipped byte in an entry's data fails its CRC: the object is not given out.
        let at = zip.windows(11).position(|w| w == b"first image").expect("stored as is");
        let mut damaged = zip.clone();
        damaged[at] ^= 1;
        std::fs::write(&path, &damaged).expect("writes");
        let last = LastArchive::open(&path, &entries).expect("opens");
        assert_eq!(last.object("ka"), None);
        assert_eq!(last.object("kb").as_deref(), Some(&b"second image"[..]));
        // No archive, or no entry from an object, gives no store.
        assert!(LastArchive::open(&dir.path().join("none.vmod"), &entries).is_none());
        assert!(LastArchive::open(&path, &BTreeMap::new()).is_none());
    }
}
