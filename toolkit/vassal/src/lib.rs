//! The VASSAL 3.7 formats, independent of any game: VASSAL's sequence encoding, pieces as
//! trait chains, saved games in every header VASSAL has written with every restore command
//! VASSAL 3.7 writes, the buildFile's XML, zip archives written reproducibly and read
//! defensively, and reading modules and saved games back to pieces, decks and turns with
//! their location names.

pub mod archive;
pub mod component;
mod entry_rules;
#[cfg(test)]
mod growth;
pub mod hostile;
pub mod listing;
pub mod migrate;
pub mod module_read;
pub mod palette;
pub mod printable;
pub mod read;
pub mod vassal;
pub mod zip_reader;
pub mod zip_records;
