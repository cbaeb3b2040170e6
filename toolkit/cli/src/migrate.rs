//! `muster migrate`: a saved game carried to another release of its module.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use anyhow::Result;
use muster_model::FindingKind;
use muster_package::archive::{Archive, write_zip};
use muster_package::migrate::{Left, Migrated, migrate};
use muster_package::palette::Palette;
use muster_package::read::read_save;
use muster_package::vassal::save::{KEY, command_stream, obfuscate};
use serde_json::json;

use crate::args::Format;
use crate::exit::Exit;
use crate::pieces::{module as open_module, put_line, read_limited};

/// Writes `save` carried to `module` as `out`; exit 1 when something could not be carried
/// as it was, 2 when a file cannot be read or written.
pub fn run(save: &Path, module: &Path, out: &Path, format: Format) -> Result<Exit> {
    let fail =
        |e: &dyn std::fmt::Display, p: &Path| anyhow::anyhow!("{}: {e}", p.display());
    if same_file(save, out) {
        anyhow::bail!(
            "{}: --out names the saved game itself; give another file, so that the game as it was is kept",
            out.display()
        );
    }
    let bytes = read_limited(save)?;
    let mut old = Archive::open(bytes.clone()).map_err(|e| fail(&e, save))?;
    let (game, _) = read_save(bytes).map_err(|e| fail(&e, save))?;
    let mut m = open_module(module)?;
    let palette = Palette::of_module(&mut m.archive).map_err(|e| fail(&e, module))?;
    let migrated = migrate(&game, &palette);
    let stream = command_stream(&migrated.adds, &game.component_restores());
    let mut files = BTreeMap::from([("savedGame".to_string(), obfuscate(&stream, KEY))]);
    // The module's own description of itself, and the save's of itself.
    for (entry, from) in [("moduledata", &mut m.archive), ("savedata", &mut old)] {
        if from.contains(entry) {
            files
                .insert(entry.to_string(), from.read(entry).map_err(|e| fail(&e, save))?);
        }
    }
    let zip = write_zip(&files).map_err(|e| fail(&e, out))?;
    muster_build::files::write_atomic(out, &zip).map_err(|e| fail(&e, out))?;
    report(save, module, out, &migrated, format)?;
    Ok(if migrated.left.is_empty() { Exit::Clean } else { Exit::Findings })
}

/// Whether two paths name one file (the second may not exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The kind of finding and the sentence for what was not carried as it was.
fn finding(left: &Left) -> (FindingKind, String) {
    match left {
        Left::NotInModule { piece, name, gpid } => (
            FindingKind::PieceNotInModule,
            format!(
                "piece {piece} `{name}`: the module has no palette slot {gpid}, so it stays as it was saved (VASSAL's Refresh Counters leaves it so too)"
            ),
        ),
        Left::Reset { piece, name, trait_id } => (
            FindingKind::StateReset,
            format!(
                "piece {piece} `{name}`: its `{trait_id}` trait is defined otherwise in the module and has no layer or label name to match by, so it starts as the module defines it"
            ),
        ),
        Left::Unread { entry, id } => (
            FindingKind::UnreadEntry,
            format!(
                "entry {entry} ({id}) of the saved game was not read, so it is not in the new save"
            ),
        ),
    }
}

fn report(
    save: &Path,
    module: &Path,
    out: &Path,
    migrated: &Migrated,
    format: Format,
) -> Result<()> {
    let findings: Vec<(FindingKind, String)> =
        migrated.left.iter().map(finding).collect();
    let mut stdout = std::io::stdout().lock();
    if format == Format::Json {
        let json = json!({
            "save": save.display().to_string(),
            "module": module.display().to_string(),
            "out": out.display().to_string(),
            "refreshed": migrated.refreshed,
            "findings": findings.iter().map(|(k, m)| json!({"kind": k, "severity": k.severity(), "message": m})).collect::<Vec<_>>(),
        });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(());
    }
    let head = format!(
        "{} -> {}: {} piece(s) made anew from {}, {} not carried as they were",
        save.display(),
        out.display(),
        migrated.refreshed,
        module.display(),
        findings.len()
    );
    put_line(&mut stdout, &head)?;
    for (kind, message) in &findings {
        put_line(
            &mut stdout,
            &format!("{}: {} [{kind}] {message}", save.display(), kind.severity()),
        )?;
    }
    Ok(())
}
