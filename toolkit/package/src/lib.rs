//! Packaging: VASSAL 3.7 modules (`.vmod`) with predefined setups (`.vsav`), written
//! reproducibly, and read back safely.
//!
//! The format layer (`vassal`) knows nothing of games: encoders, pieces, saved games and
//! the buildFile. `module` turns a loaded game, its rendered images and its solved setups
//! into the files of a module; `archive` zips them; `read` opens modules and saves again.

pub mod archive;
pub mod module;
pub mod read;
pub mod vassal;
pub mod web;

/// The embedded rules checker, `muster-checker` built for `wasm32-unknown-unknown`.
pub const CHECKER_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/checker.wasm"));
pub mod checker;
