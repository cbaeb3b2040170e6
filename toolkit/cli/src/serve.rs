//! `muster serve`: the browser tables under `dist/<game>/web/` on localhost.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::commands::Exit;
use crate::out::outln;

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("wasm") => "application/wasm",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// The file under `dist` a request path names, if it is inside a game's `web/` folder.
pub fn resolve(dist: &Path, path: &str) -> Option<PathBuf> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let ok = |p: &&str| {
        *p != ".."
            && *p != "."
            && !p.contains('\\')
            && !p.contains('%')
            && !p.contains(':')
    };
    if parts.len() < 3 || parts[1] != "web" || !parts.iter().all(ok) {
        return None;
    }
    let file = parts.iter().fold(dist.to_path_buf(), |acc, p| acc.join(p));
    file.is_file().then_some(file)
}

fn respond(mut stream: TcpStream, dist: &Path, home: &str) -> std::io::Result<()> {
    let mut line = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let mut words = line.split_whitespace();
    let (method, target) =
        (words.next().unwrap_or_default(), words.next().unwrap_or("/"));
    if method != "GET" && method != "HEAD" {
        return stream.write_all(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    }
    if target == "/" {
        let head = format!(
            "HTTP/1.1 302 Found\r\nLocation: {home}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        return stream.write_all(head.as_bytes());
    }
    let Some(file) = resolve(dist, target) else {
        return stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found");
    };
    let body = std::fs::read(&file)?;
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        content_type(&file),
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if method == "GET" {
        stream.write_all(&body)?;
    }
    Ok(())
}

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
    for stream in listener.incoming().flatten() {
        let dist = dist.clone();
        let home = home.clone();
        std::thread::spawn(move || {
            let _ = respond(stream, &dist, &home);
        });
    }
    Ok(Exit::Clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_inside_a_web_folder_are_served() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let web = tmp.path().join("g/web");
        std::fs::create_dir_all(&web).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(web.join("index.html"), "x").unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(tmp.path().join("g/errata.md"), "x")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(resolve(tmp.path(), "/g/web/index.html?x=1").is_some());
        for bad in [
            "/g/errata.md",
            "/g/web/../errata.md",
            "/g/web/%2e%2e/errata.md",
            "/g/web/",
            "/",
        ] {
            assert!(resolve(tmp.path(), bad).is_none(), "{bad}");
        }
    }
}
