//! The check stage: printed setups resolved to units and hexes, validated and solved.
//!
//! muster-check reads a validated [`muster_model::Game`] and, for each scenario, resolves
//! every printed unit reference to a counter of the manifest ([`resolve`]) and every
//! printed location to a set of hexes or a relation to other units ([`region`]). It then
//! checks fixed placements against the game's stacking rules with `muster-rules`, proves
//! that each "within", "radius" and "stacked with" group can be placed or says precisely
//! why not ([`validate`]), and turns the setup into one concrete, legal, deterministic
//! position ([`solve()`]). It performs no I/O.

#![deny(missing_docs)]

mod areas;
pub mod errata;
mod public_json;
pub mod region;
pub mod resolve;
mod setup_changes;
pub mod solve;
pub mod start_values;
pub mod stored;
pub(crate) mod unit_messages;
pub mod validate;
pub(crate) mod words;

pub use errata::{Erratum, errata, errata_of_checked};
pub use region::rule_terrain;
pub use resolve::{Resolution, Resolved, Resolver};
pub use setup_changes::changes;
pub use solve::{
    Duplicate, NOT_PLACED, Solution, SolvedUnit, ruleset, solve, solve_with,
};
pub use validate::{
    Finding, acknowledged, allowed_hexes, allowed_in, check_position, validate_scenario,
    validate_solved,
};
pub use words::normalise;
