//! The YAML source documents of a game, exactly as a publisher writes them.
//!
//! Each file kind has one root type here; JSON Schemas are generated from these types.
//! Printed strings (unit lists, locations) stay as printed; [`crate::notation`] parses them.

mod art;
mod assumed;
pub mod bounds;
mod counters;
mod errata;
mod game;
mod map;
mod oob;
mod printed;
mod scenario;
mod sequence;
mod statements;

pub use art::{
    ArtSheet, ArtSheetBack, CounterTemplate, FaceFiles, FaceName, FieldStyle, FontWeight,
    MapImage, MapLayer, Overflow, ReferenceHex,
};
pub use assumed::Assumed;
pub use counters::{
    CounterDef, CounterEntry, CounterGroup, CountersFile, MarkerDef, Marking, Mobility,
};
pub use errata::{KnownErrata, KnownErratum};
pub use game::{
    Abbreviation, BesideSize, BoardDef, CounterStyle, DeckDef, Dice, GameFile,
    ImageChart, ModuleDef, NationalityDef, Notation, Play, PlayingCards, SheetPlacement,
    SideDef, SizeDef, TerrainDef, TerrainSymbol, TurnTrack, TypeCode, TypeDef, ValueDef,
    ValueTemplate,
};
pub use map::{
    Feature, FeatureKind, HexsideRef, MapFile, MapJoin, PhysicalSize, SheetEdge,
    TerrainHexes, TerrainLayer,
};
pub use oob::{FormationDef, OobFile};
pub use printed::Printed;
pub use scenario::{
    Comparison, Group, GroupKind, LocationField, Placement, Reinforcement, ScenarioFile,
    SetupBlock, SetupColumn, SetupTable, StartingValue, StartingValues, StatedCount,
    StructuredLocation, UnitsField,
};
pub use sequence::{Sequence, Step};
pub use statements::{Contradiction, Mention, Statement, Table};

/// The rules file: the game's stacking and placement rules in muster's rules language.
pub type RulesFile = muster_rules::Ruleset<crate::Spanned<String>>;

/// A reference to an id declared elsewhere, with where it was written.
pub type Ref = crate::Spanned<String>;
