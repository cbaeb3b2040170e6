//! End-to-end tests: the `muster` binary on the seed games and on the bad-input corpus.

#![allow(clippy::unwrap_used)]

mod art;
mod bad_input;
mod book;
mod cli;
mod code_shape;
mod corpus;
mod counters;
mod diff;
mod engine_saves;
mod errata;
mod findings;
mod hardening;
mod hostile_archives;
mod hostile_saves;
mod import;
mod incremental;
mod init;
mod inputs;
mod legibility;
mod live_rules;
mod maps;
mod migrate;
mod mistakes;
mod module_reader;
mod modules;
mod msrv;
mod pipes;
mod play;
mod print;
mod printed_names;
mod refresh;
mod releases;
mod rules;
mod saves;
mod schemas;
mod seeds;
mod serve;
mod setup_forms;
mod table;
mod turns;
mod user_files;
mod util;
mod vassal;
mod watch;
