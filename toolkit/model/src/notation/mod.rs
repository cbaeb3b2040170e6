//! Parsers for the printed notations of setups: unit lists, locations and unit names.
//!
//! Every parser keeps the printed text and the byte range of each part, so that a
//! problem found later can point at the exact characters of the YAML value. Nothing
//! here rejects a string: text that does not fit the notation becomes an explicit
//! "unparsed" node for the errata checker to report.

mod location;
mod name;
mod units;

pub use location::{HexRef, HexRun, LocationExpr, ZoneRelation, parse_location};
pub use name::{NameParts, Vocabulary, parse_name};
pub use units::{
    CountAfter, Marks, UnitItem, holds_joining_word, number_word, parse_units,
};
