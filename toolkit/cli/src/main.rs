//! The `muster` command-line tool.
//!
//! Glue code: parses arguments, runs the build library (`muster-build`) and the other
//! library crates, shows progress, prints reports and maps results to exit codes
//! (0 clean, 1 findings, 2 unusable input). Only this crate knows the terminal.

mod args;
mod bench;
mod build;
mod check;
mod commands;
mod diff;
mod exit;
mod import;
mod migrate;
mod out;
mod pieces;
mod progress;
mod report;
mod serve;
mod update;

use std::process::ExitCode;

use clap::Parser;

/// The allocator: a build makes and frees millions of small strings and vectors from
/// several threads at once, which mimalloc serves with far less time in the allocator
/// than the system's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::run(&cli) {
        Ok(code) => ExitCode::from(code as u8),
        // The reader has gone: nothing more to say, and nothing went wrong for it.
        Err(err) if out::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let _ = out::errln!("error: {err:#}");
            ExitCode::from(exit::Exit::Unusable as u8)
        }
    }
}
