//! Packaging: a game as a VASSAL 3.7 module (`.vmod`) with predefined setups (`.vsav`),
//! the embedded rules checker, and the browser table.
//!
//! The formats themselves live in `muster-vassal` (re-exported here as `archive`,
//! `hostile`, `listing`, `printable`, `read` and `vassal`), which knows nothing of games.
//! `module` turns a loaded game, its rendered images and its solved setups into the files
//! of a module, and `module::web` into the browser table beside it; `checker` runs a
//! module's own WebAssembly checker in the box of `sandbox`.

pub mod checker;
pub mod module;
pub mod sandbox;

pub use muster_vassal::{
    archive, hostile, listing, migrate, palette, printable, read, vassal,
};

/// The embedded rules checker, `muster-checker` built for `wasm32-unknown-unknown`.
pub const CHECKER_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/checker.wasm"));
