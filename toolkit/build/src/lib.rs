//! The muster build pipeline as a library: games loaded, checked, rendered and packaged,
//! through a content-addressed cache, with every output written atomically.
//!
//! muster-build owns the orchestration of the pipeline that the stage crates implement.
//! [`Build::new`] takes [`Settings`] (where the games are, where outputs go, which games,
//! resolutions and print sheets) and [`Build::run`] runs the stages for the selected games,
//! side by side, telling a [`Progress`] the caller implements what it is doing and
//! returning a [`BuildReport`]: per game, per stage, what was made, what the cache gave,
//! what was found and how long it took. It never touches a terminal and never exits the
//! process; problems come back as an [`Error`] or as diagnostics in the report.
//!
//! # Stages
//!
//! For each game, in order:
//!
//! 1. **load**: [`muster_model::load`] reads and cross-checks the game's YAML; a game with
//!    an error is not built. Every counter side is drawn once
//!    ([`muster_render::FaceArts`]) and its text fitted. Then
//!    [`stages::model::write_model`] writes `game.json`.
//! 2. **render**: [`stages::maps::render_maps`] draws every map sheet,
//!    [`stages::counters::render_sides`] every counter side and
//!    [`stages::counters::render_sheets`] the print sheets and the contact sheet, beside
//!    the stages below.
//! 3. **check**: [`stages::setups::write_setups`] solves and validates every scenario
//!    ([`muster_check::solve()`]) and [`stages::errata::write_errata`] cross-checks the data
//!    ([`muster_check::errata()`]).
//! 4. **package**: [`stages::module::write_module`] writes the VASSAL module and the browser
//!    table ([`muster_package::module::build`]).
//!
//! Each stage writes through [`output::Outputs`], which stages files beside their targets
//! and renames them into place only when every stage of the game has succeeded; images,
//! PDFs and archives go through [`cache::Cache`], and a game whose inputs and outputs are
//! as its last build left them is skipped.
//!
//! # Example
//! ```no_run
//! use muster_build::{Build, NoProgress, Settings};
//! let build = Build::new(Settings { games: vec!["example-oasis".into()], ..Settings::default() })?;
//! let report = build.run(&NoProgress)?;
//! for game in &report.games {
//!     println!("{}: {} counter sides, {} made", game.game, game.counter_sides, game.cache.made.len());
//! }
//! # Ok::<(), muster_build::Error>(())
//! ```

#![deny(missing_docs)]

pub mod bench;
pub mod cache;
pub mod clean;
mod error;
pub mod files;
pub mod identity;
pub mod init;
pub mod last_archive;
pub mod layout;
pub mod out_lock;
pub mod output;
mod pipeline;
mod progress;
pub mod prune_mark;
pub mod report;
pub mod reports;
mod settings;
pub mod since;
pub mod stages;
pub mod stored;
mod sync;
pub mod trash;
pub mod validate;
pub mod watch;
pub mod writeback;

pub use error::{Error, ErrorKind, Result};
pub use pipeline::Build;
pub use progress::{NoProgress, Progress, Steps};
pub use report::{Attention, BuildReport, GameReport, LeftAlone};
pub use settings::{CounterOptions, Settings};
