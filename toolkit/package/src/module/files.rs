//! A module's files as they are gathered: each one's bytes, and for a drawn image the
//! origin its drawer named, so that a copy of it elsewhere can be kept without reading it.

use std::collections::BTreeMap;

/// An image as a [`super::Draw`] callback returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    /// The PNG's bytes.
    pub png: Vec<u8>,
    /// What the drawer knows these bytes by (for example a cache key), if anything: two
    /// images with the same origin have the same bytes.
    pub origin: Option<String>,
}

impl Drawn {
    /// An image its drawer names no origin for.
    pub fn unnamed(png: Vec<u8>) -> Drawn {
        Drawn { png, origin: None }
    }
}

/// Archive path → bytes, and archive path → origin of the images drawn with one.
#[derive(Debug, Default)]
pub(super) struct Files {
    /// Archive path → bytes.
    pub(super) bytes: BTreeMap<String, Vec<u8>>,
    /// Archive path → origin.
    pub(super) origins: BTreeMap<String, String>,
}

impl Files {
    /// Adds a file that was not drawn (or replaces one, forgetting its origin).
    pub(super) fn insert(&mut self, path: String, bytes: Vec<u8>) {
        self.origins.remove(&path);
        self.bytes.insert(path, bytes);
    }

    /// Adds a drawn image, with its origin when it has one.
    pub(super) fn insert_drawn(&mut self, path: String, drawn: Drawn) {
        match drawn.origin {
            Some(origin) => self.origins.insert(path.clone(), origin),
            None => self.origins.remove(&path),
        };
        self.bytes.insert(path, drawn.png);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_replaced_without_origin_loses_the_old_one() {
        let mut files = Files::default();
        files.insert_drawn(
            "images/a.png".into(),
            Drawn { png: vec![1], origin: Some("k1".into()) },
        );
        assert_eq!(files.origins.get("images/a.png").map(String::as_str), Some("k1"));
        files.insert("images/a.png".into(), vec![2]);
        assert_eq!(files.bytes["images/a.png"], vec![2]);
        assert!(!files.origins.contains_key("images/a.png"));
        files.insert_drawn("images/a.png".into(), Drawn::unnamed(vec![3]));
        assert!(files.origins.is_empty());
    }
}
