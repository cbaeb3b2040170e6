//! The rules checker: a small language for stacking rules and the code that applies it.
//!
//! muster-rules states every seed game's stacking rule as data ([`StackingRule`]) and
//! checks a position (units on hexes, [`Position`]) against it, returning [`Finding`]s
//! that name the rule section, the hex and the units. It performs no I/O, never panics
//! on user data and uses no floating point, so it gives the same answers natively and
//! when compiled for `wasm32-unknown-unknown`.
//!
//! Rule types are generic over the way they refer to game vocabulary (`S`): the loader
//! reads them with source spans and hands the checker plain strings.
//!
//! # Example
//! ```
//! use muster_rules::{check_stacking, Category, PlacedUnit, Position, Ruleset};
//! let ruleset: Ruleset<String> = serde_json::from_str(r#"{
//!   "stacking": [{ "section": "4.3", "ignore": [{ "category": ["supply"] }],
//!                  "any_of": [{ "all_of": [{ "count": {}, "max": 3 }] }] }]
//! }"#).unwrap();
//! let unit = |id: &str| PlacedUnit {
//!     id: id.into(), name: id.into(), side: "axis".into(), category: Category::Combat,
//!     unit_type: "infantry".into(), size: "battalion".into(), steps: 2,
//!     formation: None, location: "A10.10".into(), values: Default::default(),
//!     terrain: vec![],
//! };
//! let position = Position { units: ["a", "b", "c", "d"].map(unit).to_vec() };
//! let findings = check_stacking(&ruleset, &position);
//! assert_eq!(findings.len(), 1);
//! assert_eq!(findings[0].rule, "4.3");
//! ```

#![deny(missing_docs)]

pub mod embedded;
mod language;
mod placement;
mod stacking;
mod turn;

pub use language::{
    Alternative, Category, Filter, Free, Limit, OpposingUnits, Points, PointsFor,
    Ruleset, StackingRule,
};
pub use placement::{
    Allowed, Difference, Stand, Standing, Start, check_placement, compare_setup,
    setup_message,
};
pub use stacking::{
    Breach, Finding, PlacedUnit, Position, RuleKind, check_stacking, counts_as_opposing,
    opposing_message, stacking_holds, stacking_message,
};
pub use turn::{Turn, is_condition, turn_number};
