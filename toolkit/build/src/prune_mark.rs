//! The mark a prune of the cache leaves ([`crate::cache::Cache::prune`]): the objects it
//! kept, so that the next prune knows which objects can be there without reading the
//! objects' folders.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// What a prune kept, as its mark records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// A hash of the names, to tell two marks apart without comparing them.
    pub hash: String,
    /// The names (hex keys) of the objects kept, in order, each once.
    pub names: Vec<String>,
}

impl Mark {
    /// The mark of keeping the objects `kept`.
    pub fn of(kept: &BTreeSet<String>) -> Mark {
        let names: Vec<String> = kept.iter().cloned().collect();
        Mark { hash: hash(&names), names }
    }

    /// The mark as its file holds it: the hash on the first line, then a name a line.
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(65 * (self.names.len() + 1));
        text.push_str(&self.hash);
        for name in &self.names {
            text.push('\n');
            text.push_str(name);
        }
        text
    }

    /// The hash on the first line of the mark in the file `path` (read alone), when there
    /// is one: the mark names the same objects as one with the same hash, if it is a mark.
    pub fn read_hash(path: &Path) -> Option<String> {
        use std::io::Read;
        let mut first = Vec::with_capacity(65);
        fs::File::open(path).ok()?.take(65).read_to_end(&mut first).ok()?;
        let line = first.split(|&b| b == b'\n').next()?;
        String::from_utf8(line.to_vec()).ok()
    }

    /// The mark in the file `path`; none when there is none, or what it holds is not a
    /// mark: a name that is not an object's (64 hex digits), or names that do not give
    /// its hash.
    pub fn read(path: &Path) -> Option<Mark> {
        let text = fs::read_to_string(path).ok()?;
        let mut lines = text.split('\n');
        let hash_line = lines.next()?.to_string();
        let names: Vec<String> = lines.map(str::to_string).collect();
        if !names.iter().all(|n| is_object_name(n)) || hash(&names) != hash_line {
            return None;
        }
        Some(Mark { hash: hash_line, names })
    }
}

/// Whether `name` names an object: a key as 64 lower-case hex digits.
pub fn is_object_name(name: &str) -> bool {
    name.len() == 64
        && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The hash of names in order, each ended by a line break.
fn hash(names: &[String]) -> String {
    let mut hasher = blake3::Hasher::new();
    for name in names {
        hasher.update(name.as_bytes()).update(b"\n");
    }
    hasher.finalize().to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_reads_back_as_written_and_nothing_else_reads_as_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pruned");
        let kept: BTreeSet<String> =
            ["ab".repeat(32), "0f".repeat(32)].into_iter().collect();
        let mark = Mark::of(&kept);
        assert_eq!(mark.names, ["0f".repeat(32), "ab".repeat(32)]);
        fs::write(&path, mark.to_text()).unwrap();
        assert_eq!(Mark::read(&path), Some(mark.clone()));
        assert_eq!(Mark::read_hash(&path), Some(mark.hash.clone()));
        let empty = Mark::of(&BTreeSet::new());
        fs::write(&path, empty.to_text()).unwrap();
        assert_eq!(Mark::read(&path), Some(empty.clone()));
        assert_ne!(empty.hash, mark.hash);

        // A name changed, a name that could reach outside the objects' folder, a hash
        // alone, nothing at all.
        let changed = mark.to_text().replace(&"ab".repeat(32), &"ac".repeat(32));
        let escaping =
            format!("{}\n../../../etc/passwd", hash(&["../../../etc/passwd".into()]));
        for text in [changed, escaping, mark.hash.clone(), String::new()] {
            fs::write(&path, &text).unwrap();
            assert_eq!(Mark::read(&path), None, "{text}");
        }
        fs::remove_file(&path).unwrap();
        assert_eq!(Mark::read(&path), None);
        assert_eq!(Mark::read_hash(&path), None);
        assert!(is_object_name(&"09".repeat(32)));
        assert!(!is_object_name(&"AB".repeat(32)) && !is_object_name("ab"));
    }
}
