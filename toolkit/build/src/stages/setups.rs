//! The check stage: every scenario solved and validated.

use muster_check::{Finding, Resolver, Solution};
use muster_model::Game;
use rayon::prelude::*;

use super::Context;
use crate::error::Result;

/// Solves every scenario and writes `dist/<game>/setups/<scenario>.json` (every counter on
/// its hex or in its holding box) and `dist/<game>/validation.json`. Returns the solutions
/// and, for each, what validating it found, with the resolver they were solved with.
pub fn write_setups<'g>(
    ctx: &Context,
    game: &'g Game,
) -> Result<(Vec<Solution>, Vec<Vec<Finding>>, Resolver<'g>)> {
    let dir = ctx.out.join("dist").join(&game.id);
    let resolver = Resolver::new(game);
    let solved: Vec<(Solution, Vec<Finding>)> = game
        .scenarios
        .par_iter()
        .map(|s| {
            let solution = muster_check::solve_with(&resolver, &s.id.v);
            let findings = muster_check::validate_solved(game, &s.id.v, &solution);
            (solution, findings)
        })
        .collect();
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
