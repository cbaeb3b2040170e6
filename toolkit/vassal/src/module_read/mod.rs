//! Reading a module's buildFile as VASSAL does: its maps of every kind (`Map`,
//! `PrivateMap`, `PlayerHand`, at any folder depth), their boards sized from their images
//! (PNG, JPEG, GIF, SVG), their grids of every kind, their decks at any folder depth, and
//! how VASSAL names a point of a map (`Map.locationName`).

pub(crate) mod buildfile;
pub mod grid_xml;
pub mod grids;
pub mod image_size;
pub mod layout;
pub mod module_info;
pub mod regular;

pub use buildfile::{build_file_text, read_module};
pub use grids::Zone;
pub use grids::{Grid, Named, Unmodelled};
pub use layout::{Layout, OFFBOARD, locate};
pub use module_info::{
    AtStartInfo, BoardInfo, MapInfo, MapKind, ModuleInfo, PileInfo, ReadError, Slot,
};
