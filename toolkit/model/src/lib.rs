//! The game data model of muster: YAML sources, spans, diagnostics and loading.
//!
//! muster-model owns the first stage of the pipeline, [`load`]: it reads a game folder
//! (`sources/<game>/`), deserializes every YAML file into the source types of
//! [`source`] with a span on each value that later checks may complain about, checks
//! every cross-file reference, parses the printed setup notation ([`notation`]) and
//! returns a validated [`Game`]. Problems come back as [`Diagnostic`]s that name file,
//! line and column; all of them are reported, not only the first. A game that fails to
//! load yields no `Game`, so no later stage can produce partial output from it.
//!
//! The model crate reads files but never writes any; only the CLI touches output paths.

#![deny(missing_docs)]

pub mod art;
mod artwork;
pub mod assets;
mod assumptions;
pub mod calendar;
pub mod changes;
mod diag;
mod finding;
mod game;
pub mod hex_terrain;
mod image_header;
pub mod input;
mod load;
pub mod notation;
mod paths;
mod rules_shape;
mod setup_table;
pub mod side_contrast;
pub mod source;
mod span;
mod starting_values;
pub mod symbols;
pub mod template;
mod turn_track;
mod validate;
mod yaml;

pub use assumptions::Assumption;
pub use diag::{Diagnostic, SourceFile, SourceResult, Sources, Subject, suggest};
pub use finding::{Certainty, FindingKind, Severity};
pub use game::{
    Formation, Game, MapArt, ParsedPlacement, ParsedScenario, ParsedUnits, PlacementKind,
    StartValue, Unit,
};
pub use load::{LoadOptions, Loaded, discover_games, load, load_game};
pub use span::{FileId, Span, Spanned};
pub use validate::template_values;
pub use yaml::parse_yaml;

/// The file kinds of a game folder and the JSON Schema of each, by schema file name.
pub fn schemas() -> Vec<(&'static str, schemars::Schema)> {
    vec![
        ("game.schema.json", schemars::schema_for!(source::GameFile)),
        ("oob.schema.json", schemars::schema_for!(source::OobFile)),
        ("counters.schema.json", schemars::schema_for!(source::CountersFile)),
        ("map.schema.json", schemars::schema_for!(source::MapFile)),
        ("scenario.schema.json", schemars::schema_for!(source::ScenarioFile)),
        ("rules.schema.json", schemars::schema_for!(source::RulesFile)),
        ("errata.schema.json", schemars::schema_for!(source::KnownErrata)),
    ]
}
