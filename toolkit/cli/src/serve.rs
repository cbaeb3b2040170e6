//! `muster serve`: the browser tables under `dist/<game>/web/` on localhost, within the
//! limits of `server` (connections, time, request size) and only files that `files` finds
//! inside a game's `web/` folder.

use std::io::Write;
use std::net::TcpListener;
use std::path::Path;

use anyhow::{Context, Result};

use crate::exit::Exit;
use crate::out::outln;

mod files;
mod server;

/// Serves `<out>/dist/<game>/web/` on 127.0.0.1 until stopped.
pub fn run(out: &Path, game: Option<&str>, port: u16) -> Result<Exit> {
    let dist = out.join("dist");
    let games: Vec<String> = std::fs::read_dir(&dist)
        .with_context(|| {
            format!("no {} to serve: run `muster build` first", dist.display())
        })?
        .flatten()
        .filter(|e| e.path().join("web/index.html").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let mut sorted = games.clone();
    sorted.sort();
    let chosen = match game {
        Some(g) if sorted.iter().any(|x| x == g) => g.to_string(),
        Some(g) => anyhow::bail!(
            "no table for `{g}` in {}; built: {}{}",
            dist.display(),
            sorted.join(", "),
            muster_model::suggest(g, sorted.iter().map(String::as_str))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default()
        ),
        None => sorted
            .first()
            .cloned()
            .context("no game has a table: run `muster build` first")?,
    };
    let listener = TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("cannot listen on port {port}"))?;
    let addr = listener.local_addr()?;
    let home = format!("/{chosen}/web/index.html");
    outln!("serving the {chosen} table at http://{addr}{home} (Ctrl+C stops)")?;
    std::io::stdout().flush()?;
    server::serve(listener, server::Site { dist, home })
        .with_context(|| format!("cannot serve on {addr}"))?;
    Ok(Exit::Clean)
}
