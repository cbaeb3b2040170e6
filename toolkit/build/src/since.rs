//! A former state of a game's sources, to tell what changed since: a folder holding game
//! folders, or a git revision of the repository that holds the sources, written out to a
//! temporary folder with `git archive`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Result};

/// A state of the sources on disk, and what it is known by.
#[derive(Debug, Clone)]
pub struct State {
    /// What it was given as (`v1.0.0`, `../old`).
    pub label: String,
    /// The folder holding its game folders.
    pub dir: PathBuf,
    /// What its content is known by: the git tree's id, or a digest of the folder's
    /// files, so that a build's key changes when it does.
    pub identity: String,
    /// The temporary folder a revision was written to, removed when the last clone drops.
    _written: Option<Arc<tempfile::TempDir>>,
}

fn sources_error(message: String) -> Error {
    Error::new(ErrorKind::Sources, message)
}

/// The state `spec` names: a folder when one is there, else a revision of the git
/// repository holding `sources`, its `sources` folder written out with `git archive`.
pub fn resolve(sources: &Path, spec: &str) -> Result<State> {
    let path = Path::new(spec);
    if path.is_dir() {
        return Ok(State {
            label: spec.to_string(),
            dir: path.to_path_buf(),
            identity: folder_digest(path),
            _written: None,
        });
    }
    let git = |args: &[&str]| -> Result<std::process::Output> {
        Command::new("git")
            .arg("-C")
            .arg(sources)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                sources_error(format!(
                    "{spec:?} is no folder, and git could not be run ({e})"
                ))
            })
    };
    let prefix = git(&["rev-parse", "--show-prefix"])?;
    if !prefix.status.success() {
        return Err(sources_error(format!(
            "{spec:?} is no folder, and {} is in no git repository to read it as a revision of",
            sources.display()
        )));
    }
    let prefix =
        String::from_utf8_lossy(&prefix.stdout).trim().trim_end_matches('/').to_string();
    let tree = format!("{spec}:{prefix}");
    let kind = git(&["cat-file", "-t", &tree])?;
    let id = git(&["rev-parse", "--verify", "--quiet", &tree])?;
    if !kind.status.success()
        || kind.stdout.trim_ascii() != b"tree"
        || !id.status.success()
    {
        return Err(sources_error(format!(
            "{spec:?} is no folder, nor a git revision that holds {} (try a tag, a commit or \
             a branch: `muster diff v1.0.0`)",
            sources.display()
        )));
    }
    // From the repository's top: in a folder below it, git archive keeps only that folder's
    // paths, which the tree's own paths are not.
    let top = git(&["rev-parse", "--show-toplevel"])?;
    let top = String::from_utf8_lossy(&top.stdout).trim().to_string();
    let written = tempfile::tempdir()
        .map_err(|e| sources_error(format!("failed to make a temporary folder ({e})")))?;
    write_out(&top, &tree, written.path()).map_err(|e| {
        sources_error(format!(
            "failed to write out {} as of {spec:?} ({e})",
            sources.display()
        ))
    })?;
    Ok(State {
        label: spec.to_string(),
        dir: written.path().to_path_buf(),
        identity: String::from_utf8_lossy(&id.stdout).trim().to_string(),
        _written: Some(Arc::new(written)),
    })
}

/// Writes the git tree `tree` of the repository at `top` into the folder `to`.
fn write_out(top: &str, tree: &str, to: &Path) -> std::io::Result<()> {
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["archive", "--format=tar", tree])
        .stdout(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()?;
    let tar = archive.stdout.take().ok_or(std::io::ErrorKind::BrokenPipe)?;
    let unpacked = Command::new("tar").arg("-x").arg("-C").arg(to).stdin(tar).status()?;
    let archived = archive.wait()?;
    if archived.success() && unpacked.success() {
        Ok(())
    } else {
        Err(std::io::Error::other("git archive or tar failed"))
    }
}

/// A digest of every file under `dir`: its path and bytes, in order.
fn folder_digest(dir: &Path) -> String {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                Ok(t) if t.is_file() => files.push(e.path()),
                _ => {}
            }
        }
    }
    files.sort();
    let mut hasher = blake3::Hasher::new();
    for f in files {
        hasher.update(f.strip_prefix(dir).unwrap_or(&f).as_os_str().as_encoded_bytes());
        hasher.update(b"\0");
        if let Ok(bytes) = std::fs::read(&f) {
            hasher.update(blake3::hash(&bytes).as_bytes());
        }
    }
    hasher.finalize().to_hex().to_string()
}
