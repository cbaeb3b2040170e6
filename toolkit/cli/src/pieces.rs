//! `muster pieces`: what a module's predefined setups, or a saved game, hold.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use muster_package::archive::{Archive, MAX_TOTAL_BYTES};
use muster_package::read::{
    ListedPiece, ModuleInfo, list_pieces, read_module, read_save,
};

use crate::args::Format;
use crate::commands::Exit;

/// Reads a module or saved game, refusing files larger than muster unpacks.
pub fn read_limited(path: &Path) -> Result<Vec<u8>> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if size > MAX_TOTAL_BYTES {
        anyhow::bail!(
            "{} is {size} bytes, more than the {MAX_TOTAL_BYTES} muster reads",
            path.display()
        );
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

fn open(path: &Path) -> Result<Archive> {
    Archive::open(read_limited(path)?)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

fn module_info(path: &Path) -> Result<(ModuleInfo, Archive)> {
    let mut archive = open(path)?;
    let info = read_module(&mut archive)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok((info, archive))
}

/// Lists pieces; exit 2 when a file cannot be read, 1 when a piece does not decode.
pub fn run(file: &Path, module: Option<&Path>, format: Format) -> Result<Exit> {
    let mut reports: Vec<(String, Vec<ListedPiece>, Vec<String>)> = Vec::new();
    let is_module = file.extension().is_some_and(|e| e == "vmod");
    if is_module {
        let (info, mut archive) = module_info(file)?;
        for (name, setup) in info.setups.clone() {
            let bytes = archive
                .read(&setup)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let saved = read_save(bytes)
                .map_err(|e| anyhow::anyhow!("{}: {setup}: {e}", file.display()))?;
            let errors = saved.errors.iter().map(ToString::to_string).collect();
            reports.push((
                format!("{name} ({setup})"),
                list_pieces(&saved, Some(&info)),
                errors,
            ));
        }
    } else {
        let info = module.map(module_info).transpose()?.map(|(i, _)| i);
        let bytes = read_limited(file)?;
        let saved =
            read_save(bytes).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let errors = saved.errors.iter().map(ToString::to_string).collect();
        reports.push((
            file.display().to_string(),
            list_pieces(&saved, info.as_ref()),
            errors,
        ));
    }
    let bad = reports.iter().any(|(_, _, e)| !e.is_empty());
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        let json: Vec<serde_json::Value> = reports
            .iter()
            .map(|(name, pieces, errors)| serde_json::json!({"setup": name, "pieces": pieces, "errors": errors}))
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        for (name, pieces, errors) in &reports {
            writeln!(out, "{name}: {} piece(s)", pieces.len())?;
            for p in pieces {
                writeln!(
                    out,
                    "  {:<28} {:<14} {:<30} ({}, {}){}",
                    p.name,
                    p.map.as_deref().unwrap_or("-"),
                    p.location.as_deref().unwrap_or("-"),
                    p.x,
                    p.y,
                    if p.reduced { " reduced" } else { "" }
                )?;
            }
            for e in errors {
                writeln!(out, "  cannot decode: {e}")?;
            }
        }
    }
    Ok(if bad { Exit::Findings } else { Exit::Clean })
}
