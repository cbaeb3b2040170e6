//! [`LastArchive`]: the archive a game's last build wrote, as a store of the cache objects
//! it holds, so that a rebuild reads them from one open file instead of opening each object.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::Path;

use muster_package::archive::{Lying, Record, StoredEntry, lies_intact, stored_entries};

/// The entries of an archive the last build wrote from cache objects, found by the
/// object's key and read from the file one at a time. Each entry's local header and bytes
/// are checked (against the header muster writes and the CRC-32 the archive declares)
/// before they are given out, so a damaged archive gives nothing rather than wrong bytes.
#[derive(Debug)]
pub struct LastArchive {
    file: File,
    /// Object key → its entry's name, and where the entry lies in the file.
    by_key: HashMap<String, (String, StoredEntry)>,
}

impl LastArchive {
    /// The archive at `path`, whose entries `entries` (entry name → key) the last build
    /// wrote from objects; nothing when it cannot be read or holds none of them stored.
    /// Only its central directory is read.
    pub fn open(path: &Path, entries: &BTreeMap<String, String>) -> Option<LastArchive> {
        let file = File::open(path).ok()?;
        let stored = stored_entries(&file).ok()?;
        let by_key: HashMap<String, (String, StoredEntry)> = stored
            .into_iter()
            .filter_map(|(name, entry)| {
                Some((entries.get(&name)?.clone(), (name, entry)))
            })
            .collect();
        (!by_key.is_empty()).then_some(LastArchive { file, by_key })
    }

    /// The bytes of the object `key`, when an entry of the archive holds them intact.
    pub fn object(&self, key: &str) -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        self.read_object(key, &mut bytes).then_some(bytes)
    }

    /// This store without the objects whose entries are no longer intact (each one is
    /// read); nothing when none is left.
    pub fn without_damaged(mut self) -> Option<LastArchive> {
        let mut bytes = Vec::new();
        let damaged: Vec<String> = self
            .by_key
            .keys()
            .filter(|key| !self.read_object(key, &mut bytes))
            .cloned()
            .collect();
        for key in damaged {
            self.by_key.remove(&key);
        }
        (!self.by_key.is_empty()).then_some(self)
    }

    /// The size of the object `key`, when an entry of the archive holds it.
    pub fn size(&self, key: &str) -> Option<usize> {
        Some(self.by_key.get(key)?.1.range.len())
    }

    /// Where the object `key` lies in the archive, for a writer to copy its entry as it is
    /// (checking it first: [`lies_intact`]).
    pub fn lying(&self, key: &str) -> Option<Lying<'_>> {
        let (_, entry) = self.by_key.get(key)?;
        Some(Lying {
            file: &self.file,
            header: entry.header,
            crc: entry.crc,
            len: entry.range.len() as u64,
        })
    }

    /// Fills `bytes` (emptied first) with the object `key`; returns whether an entry of the
    /// archive held it intact (when not, `bytes` is left empty).
    pub fn read_object(&self, key: &str, bytes: &mut Vec<u8>) -> bool {
        bytes.clear();
        let Some((name, entry)) = self.by_key.get(key) else {
            return false;
        };
        let intact = Record::stored(name, entry.crc, entry.range.len() as u64)
            .is_ok_and(|record| lies_intact(&self.file, entry.header, &record, bytes));
        if intact {
            let head = bytes.len() - entry.range.len();
            bytes.drain(..head);
        } else {
            bytes.clear();
        }
        intact
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
        assert_eq!(
            (last.size("ka"), last.size("kx"), last.size("kg")),
            (Some(11), None, None)
        );
        let mut buffer = b"left over".to_vec();
        assert!(last.read_object("kb", &mut buffer));
        assert_eq!(buffer, b"second image");
        assert!(!last.read_object("kg", &mut buffer));
        assert!(buffer.is_empty());
        // A flipped byte in an entry's data fails its CRC: the object is not given out.
        let at = zip.windows(11).position(|w| w == b"first image").expect("stored as is");
        let mut damaged = zip.clone();
        damaged[at] ^= 1;
        std::fs::write(&path, &damaged).expect("writes");
        let last = LastArchive::open(&path, &entries).expect("opens");
        assert_eq!(last.object("ka"), None);
        let mut buffer = Vec::new();
        assert!(!last.read_object("ka", &mut buffer));
        assert!(buffer.is_empty(), "no damaged bytes are given out");
        assert_eq!(
            last.size("ka"),
            Some(11),
            "known until the damaged ones are left out"
        );
        let last = last.without_damaged().expect("one intact object");
        assert_eq!((last.size("ka"), last.size("kb")), (None, Some(12)));
        assert_eq!(last.object("kb").as_deref(), Some(&b"second image"[..]));
        // A flipped byte in an entry's local header (its name there) leaves it out too.
        let at = zip.windows(12).position(|w| w == b"images/b.png").expect("named");
        let mut damaged = zip.clone();
        damaged[at + 7] ^= 1;
        std::fs::write(&path, &damaged).expect("writes");
        let last = LastArchive::open(&path, &entries).expect("opens");
        assert_eq!(last.object("kb"), None);
        assert_eq!(last.object("ka").as_deref(), Some(&b"first image"[..]));
        assert!(
            last.lying("kb").is_some(),
            "where it lies is known; the writer checks it"
        );
        // No archive, or no entry from an object, gives no store.
        assert!(LastArchive::open(&dir.path().join("none.vmod"), &entries).is_none());
        assert!(LastArchive::open(&path, &BTreeMap::new()).is_none());
    }
}
