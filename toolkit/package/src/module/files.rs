//! A module's files as they are gathered: each one's bytes, and for a drawn image the
//! origin its drawer named, so that a copy of it elsewhere can be kept without reading it.

use std::collections::{BTreeMap, BTreeSet};

/// An image's file name from `stem` and `digest` (hex), what its content is known by:
/// `stem-0123456789abcdef.ext`. VASSAL keeps the tiles it slices from a large image while
/// they are newer than the image's zip entry, and muster dates every entry alike (for
/// builds that are byte-identical): an image that changes must change its name, so that
/// VASSAL slices it again, and no other.
pub fn named_by_digest(stem: &str, ext: &str, digest: &str) -> String {
    format!("{stem}-{}.{ext}", digest.get(..16).unwrap_or(digest))
}

/// [`named_by_digest`] of what draws the image alike every time (its SVG and pixel size,
/// or its bytes).
pub fn named_by_content(stem: &str, ext: &str, content: &[u8]) -> String {
    named_by_digest(stem, ext, &blake3::hash(content).to_hex())
}

/// What draws an image alike every time: its SVG at a pixel size.
pub fn drawing(svg: &str, width: u32, height: u32) -> Vec<u8> {
    format!("{svg}\n{width}x{height}").into_bytes()
}

/// An image as a [`super::Draw`] callback returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drawn {
    /// The PNG's bytes, with what the drawer knows them by (for example a cache key), if
    /// anything: two images with the same origin have the same bytes.
    Bytes {
        /// The PNG's bytes.
        png: Vec<u8>,
        /// What the drawer knows these bytes by, if anything.
        origin: Option<String>,
    },
    /// An image the drawer holds already under `origin` and gives when the module's
    /// archive is written ([`super::Module::held`]): its bytes are not read before.
    Held {
        /// What the drawer knows the bytes by.
        origin: String,
    },
}

impl Drawn {
    /// An image its drawer names no origin for.
    pub fn unnamed(png: Vec<u8>) -> Drawn {
        Drawn::Bytes { png, origin: None }
    }

    /// An image's bytes, known to its drawer as `origin`.
    pub fn named(png: Vec<u8>, origin: String) -> Drawn {
        Drawn::Bytes { png, origin: Some(origin) }
    }
}

/// Archive path → bytes, archive path → origin of the images drawn with one, and the
/// images whose bytes their drawer holds.
#[derive(Debug, Default)]
pub(super) struct Files {
    /// Archive path → bytes.
    pub(super) bytes: BTreeMap<String, Vec<u8>>,
    /// Archive path → origin.
    pub(super) origins: BTreeMap<String, String>,
    /// The archive paths of the images their drawer holds ([`Drawn::Held`]).
    pub(super) held: BTreeSet<String>,
}

impl Files {
    /// Adds a file that was not drawn (or replaces one, forgetting its origin).
    pub(super) fn insert(&mut self, path: String, bytes: Vec<u8>) {
        self.origins.remove(&path);
        self.held.remove(&path);
        self.bytes.insert(path, bytes);
    }

    /// Adds a drawn image, with its origin when it has one.
    pub(super) fn insert_drawn(&mut self, path: String, drawn: Drawn) {
        match drawn {
            Drawn::Bytes { png, origin } => {
                match origin {
                    Some(origin) => self.origins.insert(path.clone(), origin),
                    None => self.origins.remove(&path),
                };
                self.held.remove(&path);
                self.bytes.insert(path, png);
            }
            Drawn::Held { origin } => {
                self.bytes.remove(&path);
                self.origins.insert(path.clone(), origin);
                self.held.insert(path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_replaced_without_origin_loses_the_old_one() {
        let mut files = Files::default();
        files.insert_drawn("images/a.png".into(), Drawn::named(vec![1], "k1".into()));
        assert_eq!(files.origins.get("images/a.png").map(String::as_str), Some("k1"));
        files.insert("images/a.png".into(), vec![2]);
        assert_eq!(files.bytes["images/a.png"], vec![2]);
        assert!(!files.origins.contains_key("images/a.png"));
        files.insert_drawn("images/a.png".into(), Drawn::unnamed(vec![3]));
        assert!(files.origins.is_empty());
    }

    #[test]
    fn a_held_image_has_an_origin_and_no_bytes_until_replaced() {
        let mut files = Files::default();
        files.insert("images/a.png".into(), vec![1]);
        files.insert_drawn("images/a.png".into(), Drawn::Held { origin: "k1".into() });
        assert!(files.bytes.is_empty());
        assert_eq!(files.origins.get("images/a.png").map(String::as_str), Some("k1"));
        assert!(files.held.contains("images/a.png"));
        files.insert_drawn("images/a.png".into(), Drawn::named(vec![2], "k2".into()));
        assert!(files.held.is_empty());
        assert_eq!(files.bytes["images/a.png"], vec![2]);
        assert_eq!(files.origins.get("images/a.png").map(String::as_str), Some("k2"));
        files.insert_drawn("images/a.png".into(), Drawn::Held { origin: "k3".into() });
        files.insert("images/a.png".into(), vec![3]);
        assert!(files.held.is_empty() && files.origins.is_empty());
    }
}
