//! Reading modules and saved games back: a module's maps, boards and grids (in
//! [`crate::module_read`], named here too), and a saved game with what it says of itself.

use crate::archive::Archive;
use crate::vassal::save::{SavedGame, deobfuscate, parse_stream};

pub use crate::module_read::{
    AtStartInfo, BoardInfo, Grid, Layout, MapInfo, MapKind, ModuleInfo, OFFBOARD,
    PileInfo, ReadError, Slot, Unmodelled, Zone, build_file_text, locate, read_module,
};

fn err(e: impl std::fmt::Display) -> ReadError {
    ReadError(e.to_string())
}

/// What a saved game says of itself: the module it was saved with (`moduledata`) and the
/// save's own metadata (`savedata`). Every field is optional, as VASSAL needs none of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SaveMeta {
    /// The module's name.
    pub module: Option<String>,
    /// The module's version.
    pub module_version: Option<String>,
    /// The VASSAL version that saved it.
    pub vassal_version: Option<String>,
    /// When, in epoch milliseconds.
    pub saved: Option<String>,
    /// The comment the player gave.
    pub description: Option<String>,
}

fn xml_fields(bytes: &[u8], names: &[&str]) -> Vec<Option<String>> {
    let text = String::from_utf8_lossy(bytes);
    let Ok(doc) = roxmltree::Document::parse(&text) else {
        return vec![None; names.len()];
    };
    names
        .iter()
        .map(|n| {
            doc.root_element()
                .children()
                .find(|c| c.tag_name().name() == *n && c.attribute("lang").is_none())
                .and_then(|c| c.text())
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
        })
        .collect()
}

/// Reads a saved game (`.vsav` bytes): its `savedGame` entry in any header form, and what
/// `savedata` and `moduledata` say of it.
pub fn read_save(bytes: Vec<u8>) -> Result<(SavedGame, SaveMeta), ReadError> {
    let mut archive = Archive::open(bytes).map_err(err)?;
    if !archive.contains("savedGame") {
        return Err(ReadError("the saved game has no savedGame entry".into()));
    }
    archive.check_streamed("savedGame").map_err(err)?;
    let raw = archive.read("savedGame").map_err(err)?;
    let saved = parse_stream(&deobfuscate(&raw).map_err(err)?).map_err(err)?;
    drop(raw);
    let mut meta = SaveMeta::default();
    if let Some(b) = read_if_there(&mut archive, "moduledata")? {
        let [name, version] =
            <[Option<String>; 2]>::try_from(xml_fields(&b, &["name", "version"]))
                .unwrap_or_default();
        meta.module = name;
        meta.module_version = version;
    }
    if let Some(b) = read_if_there(&mut archive, "savedata")? {
        let f = xml_fields(&b, &["VassalVersion", "dateSaved", "description"]);
        let [v, saved, description] =
            <[Option<String>; 3]>::try_from(f).unwrap_or_default();
        meta.vassal_version = v;
        meta.saved = saved;
        meta.description = description;
    }
    Ok((saved, meta))
}

/// The entry `name` when the archive has it; a damaged one is an error.
fn read_if_there(
    archive: &mut Archive,
    name: &str,
) -> Result<Option<Vec<u8>>, ReadError> {
    if !archive.contains(name) {
        return Ok(None);
    }
    archive.read(name).map(Some).map_err(err)
}
