//! The reporting commands' work that writes files: the errata of loaded games and the
//! JSON Schemas.

use std::path::Path;

use muster_check::Erratum;
use muster_model::Loaded;

use crate::error::{Error, ErrorKind, Result};
use crate::files::write_atomic;
use crate::output::Outputs;
use crate::stages::errata::write_errata;

/// Cross-checks every loaded game and writes its `dist/<game>/errata.md` and
/// `errata.json` under `out`; returns each game's errata, in game order.
pub fn errata(out: &Path, loaded: &Loaded) -> Result<Vec<Vec<Erratum>>> {
    loaded
        .games
        .iter()
        .map(|game| {
            let outputs = Outputs::default();
            let resolver = muster_check::Resolver::new(game);
            let found = write_errata(&outputs, out, &resolver, &[], &loaded.sources)?;
            outputs.commit()?;
            Ok(found)
        })
        .collect()
}

/// Writes the JSON Schema of every YAML file kind into `dir` (`game.schema.json`, ...).
pub fn write_schemas(dir: &Path) -> Result<()> {
    for (name, schema) in &muster_model::schemas() {
        let mut text = serde_json::to_string_pretty(schema)?;
        text.push('\n');
        write_atomic(&dir.join(name), text.as_bytes()).map_err(|e| {
            Error::with_source(ErrorKind::Io, format!("failed to write schema {name}"), e)
        })?;
    }
    Ok(())
}
