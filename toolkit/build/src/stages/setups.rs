//! The check stage: every scenario solved and validated.

use std::sync::Mutex;

use muster_check::{Finding, Resolver, Solution, stored};
use muster_model::{Game, Sources};
use rayon::prelude::*;

use super::Context;
use crate::error::{Error, ErrorKind, Result};
use crate::sync::lock;

/// Solves every scenario and writes `dist/<game>/setups/<scenario>.json` (every counter on
/// its hex or in its holding box) and `dist/<game>/validation.json`. Returns the solutions
/// and, for each, what validating it found, with the resolver they were solved with.
///
/// A scenario's solution and findings are kept in the cache under what solving reads
/// (`reads`), so a change that solving does not read (a counter's printed values, its
/// art) reuses them as they were made.
pub fn write_setups<'g>(
    ctx: &Context,
    game: &'g Game,
    sources: &Sources,
) -> Result<(Vec<Solution>, Vec<Vec<Finding>>, Resolver<'g>)> {
    let dir = ctx.out.join("dist").join(&game.id);
    let resolver = Resolver::new(game);
    let reads = reads(game, sources);
    let keep = ctx.cache.keeper(ErrorKind::Json, &game.id);
    let solved: Vec<(Solution, Vec<Finding>)> = game
        .scenarios
        .par_iter()
        .map(|s| -> Result<_> {
            let solve = || {
                let solution = muster_check::solve_with(&resolver, &s.id.v);
                let findings = muster_check::validate_solved(game, &s.id.v, &solution);
                (solution, findings)
            };
            let Some(reads) = &reads else { return Ok(solve()) };
            // What is solved here is used as it is; only what the cache held is read back.
            let made = Mutex::new(None);
            let bytes =
                keep(&format!("setup {}", s.id.v), &[reads, s.id.v.as_bytes()], &|| {
                    let (solution, findings) = solve();
                    let bytes = stored::store(&solution, &findings)?;
                    *lock(&made) = Some((solution, findings));
                    Ok(bytes)
                })
                .map_err(|e| Error::new(ErrorKind::Json, e))?;
            if let Some(made) = made.into_inner().unwrap_or_else(|e| e.into_inner()) {
                return Ok(made);
            }
            Ok(stored::restore(&bytes).unwrap_or_else(solve))
        })
        .collect::<Result<_>>()?;
    let mut findings = Vec::new();
    let mut solutions = Vec::new();
    for (s, (solution, found)) in game.scenarios.iter().zip(solved) {
        let mut text = serde_json::to_string_pretty(&solution)?;
        text.push('\n');
        ctx.outputs.write(
            &dir.join("setups").join(format!("{}.json", s.id.v)),
            text.as_bytes(),
        )?;
        findings.push(found);
        solutions.push(solution);
    }
    let mut text = serde_json::to_string_pretty(&findings.concat())?;
    text.push('\n');
    ctx.outputs.write(&dir.join("validation.json"), text.as_bytes())?;
    Ok((solutions, findings, resolver))
}

/// What solving a game's scenarios reads, hashed: the text of each of the game's files
/// but its counter manifest, each file's place in the table of `sources` (which the spans
/// of findings carry), and what [`stored::manifest_reads`] takes of the manifest. None
/// when that cannot be written, and the scenarios are then solved anew.
fn reads(game: &Game, sources: &Sources) -> Option<Vec<u8>> {
    let manifest = game.dir.join("counters.yaml");
    let mut h = blake3::Hasher::new();
    for (id, file) in sources.files().filter(|(_, f)| f.path.starts_with(&game.dir)) {
        let path = file.path.to_string_lossy();
        h.update(&id.0.to_le_bytes());
        h.update(&(path.len() as u64).to_le_bytes());
        h.update(path.as_bytes());
        let text = if file.path == manifest { "" } else { file.text.as_str() };
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    let manifest = stored::manifest_reads(game).ok()?;
    h.update(&(manifest.len() as u64).to_le_bytes());
    h.update(&manifest);
    Some(h.finalize().as_bytes().to_vec())
}
