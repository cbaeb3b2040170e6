//! The `muster` command-line tool.
//!
//! Glue code: parses arguments, runs the pipeline stages of the library crates
//! (load → check → render → package) in order, writes outputs atomically and maps
//! results to exit codes (0 clean, 1 findings, 2 unusable input).

mod args;
mod bench;
mod build;
mod cache;
mod check;
mod clean;
mod commands;
mod output;
mod pieces;
mod progress;
mod report;
mod serve;
mod stages;
mod validate;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::run(&cli) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {err:#}");
            ExitCode::from(commands::Exit::Unusable as u8)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
