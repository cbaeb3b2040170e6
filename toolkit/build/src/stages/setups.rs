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
    let solved: Vec<Solved> = game
        .scenarios
        .par_iter()
        .map(|s| -> Result<Solved> {
            let solve = || -> Result<Solved> {
                let solution = muster_check::solve_with(&resolver, &s.id.v);
                let findings = muster_check::validate_solved(game, &s.id.v, &solution);
                let mut text = serde_json::to_string_pretty(&solution)?;
                text.push('\n');
                Ok((solution, findings, text))
            };
            let Some(reads) = &reads else { return solve() };
            // What is solved here is used as it is; only what the cache held is read back.
            let made = Mutex::new(None);
            let bytes =
                keep(&format!("setup {}", s.id.v), &[reads, s.id.v.as_bytes()], &|| {
                    let (solution, findings, text) =
                        solve().map_err(|e| e.to_string())?;
                    let bytes = kept(&text, &stored::store(&solution, &findings)?);
                    *lock(&made) = Some((solution, findings, text));
                    Ok(bytes)
                })
                .map_err(|e| Error::new(ErrorKind::Json, e))?;
            if let Some(made) = made.into_inner().unwrap_or_else(|e| e.into_inner()) {
                return Ok(made);
            }
            match read_kept(&bytes) {
                Some(((solution, findings), text)) => Ok((solution, findings, text)),
                None => solve(),
            }
        })
        .collect::<Result<_>>()?;
    game.scenarios.par_iter().zip(&solved).try_for_each(|(s, (_, _, text))| {
        let path = dir.join("setups").join(format!("{}.json", s.id.v));
        ctx.outputs.write(&path, text.as_bytes())
    })?;
    let mut findings = Vec::new();
    let mut solutions = Vec::new();
    for (solution, found, _) in solved {
        findings.push(found);
        solutions.push(solution);
    }
    let mut text = serde_json::to_string_pretty(&findings.concat())?;
    text.push('\n');
    ctx.outputs.write(&dir.join("validation.json"), text.as_bytes())?;
    Ok((solutions, findings, resolver))
}

/// A scenario solved and validated, with its setup's JSON as `setups/<scenario>.json`
/// holds it.
type Solved = (Solution, Vec<Finding>, String);

/// What the cache keeps of a scenario: the length of its setup's JSON, that JSON, then
/// its solution and findings as [`stored::store`] writes them.
fn kept(text: &str, whole: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(8 + text.len() + whole.len());
    bytes.extend((text.len() as u64).to_le_bytes());
    bytes.extend(text.as_bytes());
    bytes.extend(whole);
    bytes
}

/// The solution, findings and setup JSON that [`kept`] wrote, or none when `bytes` are not.
fn read_kept(bytes: &[u8]) -> Option<((Solution, Vec<Finding>), String)> {
    let (len, rest) = bytes.split_first_chunk::<8>()?;
    let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
    let (text, whole) = (rest.get(..len)?, rest.get(len..)?);
    Some((stored::restore(whole)?, String::from_utf8(text.to_vec()).ok()?))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_kept_of_a_scenario_reads_back_and_cut_short_reads_as_nothing() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sources");
        let loaded =
            muster_model::load(&root, &["gazala-1942".into()], &Default::default());
        let game = &loaded.games[0];
        let id = &game.scenarios[0].id.v;
        let solution = muster_check::solve(game, id);
        let findings = muster_check::validate_solved(game, id, &solution);
        let text = serde_json::to_string_pretty(&solution).unwrap();
        let bytes = kept(&text, &stored::store(&solution, &findings).unwrap());
        let ((back, found), read) = read_kept(&bytes).unwrap();
        assert_eq!(read, text);
        assert_eq!(format!("{back:?}{found:?}"), format!("{solution:?}{findings:?}"));
        for cut in [0, 7, 8 + text.len() / 2, bytes.len() - 1] {
            assert!(read_kept(&bytes[..cut]).is_none(), "cut at {cut}");
        }
    }
}
