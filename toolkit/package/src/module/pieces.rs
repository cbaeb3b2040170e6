//! The game's counters as VASSAL pieces: prototypes by side, unit type and size, one palette
//! slot per counter with the properties the rules checker needs, and the pieces of decks.
//!
//! This is the one place that builds a counter's trait chain. Outermost first, a counter is
//!
//! | traits | from | what they do |
//! | --- | --- | --- |
//! | `prototype;Counter` | [`COUNTER`] | the live rule checks (Trigger and Report Actions, the highlight Layer; [`super::live_rules`]), the Text Label `Strength` with Change strength (in games whose scenarios start counters with values of their own), Clone (Ctrl+C), Delete (Ctrl+D), Mark Moved (Ctrl+M, drawn while moved), Movement Trail (Ctrl+T) |
//! | `prototype;Side <side>` | one per side | markers `Side`, `SideName` |
//! | `prototype;Unit <side>` | one per side, units only, when the game has dead piles | Report Action on Eliminate, then Send to Location: Eliminate (Ctrl+E) to the side's dead pile |
//! | `prototype;Two-sided` | two-sided counters | Restrict Commands (no Step loss once reduced), Report Actions on Flip and Step loss |
//! | `prototype;Two-sided state` | counters whose back is a state | the same, the back's command and report named by the state (`Disordered`) |
//! | `prototype;Type <type>` | unit type | markers `Type`, `TypeName`, `Category` |
//! | `prototype;Size <size>` | unit size | marker `Size` |
//! | own markers | the counter | `UnitId`, printed values `Full_<value>` / `Reduced_<value>`, `Nationality`, `Formation`, `Steps`, `BackState` |
//! | `emb2;` Layer `Step` | two-sided counters | Flip (Ctrl+F), Step loss (Ctrl+L) |
//! | `piece;` | the counter | image and printed name; gpid in the state |
//!
//! VASSAL passes a key stroke from the outermost trait inwards, and a Report Action reports
//! after the traits inside it have acted, so a report is always outside what it reports.
//! Automation added later (Trigger Actions reacting to the map's move key, reports of rule
//! checks) belongs in the `Counter` prototype, outside everything else, with its named keys
//! in [`super::keys`].

use std::collections::{BTreeMap, HashMap};

use muster_model::{Game, Unit};
use muster_render::Face;
use muster_rules::Category;
use rayon::prelude::*;

use super::dead_piles::DeadPiles;
use super::gpid::{counter_key, gpid};
use super::keys;
use crate::vassal::piece::{Piece, Position, Trait};

/// A palette slot: the piece definition with its gpid and where it goes in the palette.
#[derive(Debug, Clone)]
pub struct Slot {
    /// The unit or marker id (`unit-…`, `chit-…`, `card-…` for generated pieces).
    pub id: String,
    /// The entry name in the palette.
    pub name: String,
    /// Palette gpid.
    pub gpid: u32,
    /// The piece, with prototype references.
    pub piece: Piece,
    /// Palette path: side, then formation (or "Markers").
    pub group: (String, String),
}

/// A prototype definition.
#[derive(Debug, Clone)]
pub struct Prototype {
    /// Its name.
    pub name: String,
    /// Its traits, ending in an empty BasicPiece.
    pub piece: Piece,
}

/// The image file name of one counter side inside the module.
pub fn image_name(unit: &Unit, face: Face) -> String {
    format!("{}-{}.png", unit.id, face.name())
}

fn empty_basic() -> Trait {
    Trait::basic("", "", &Position::default())
}

/// The prototype every counter and marker uses.
pub const COUNTER: &str = "Counter";
/// The prototype of generated pieces (chits and cards).
pub const CARD: &str = "Card";
/// The prototype of two-sided counters.
pub const TWO_SIDED: &str = "Two-sided";

/// The report of an Eliminate: where the counter was and what it is.
pub const ELIMINATED_REPORT: &str = "$oldLocation$: $oldPieceName$ eliminated";
/// The report of a Flip.
pub const FLIPPED_REPORT: &str = "$location$: $newPieceName$ flipped";

/// The prototype of counters whose back is a state (`Disordered`), not a step loss.
pub const STATE_SIDED: &str = "Two-sided state";

/// The report of turning a counter to a back that is a state.
pub const STATE_REPORT: &str = "$location$: $newPieceName$ is now $BackState$";
/// The report of a Step loss.
pub const STEP_LOSS_REPORT: &str = "$location$: $newPieceName$ takes a step loss";

fn two_sided(unit: &Unit) -> bool {
    muster_render::faces(unit).len() > 1
}

/// Every prototype the pieces refer to: `Counter` (the commands of every counter, after
/// the traits that check the rules live, [`super::live_rules`], and, with
/// `strength_label`, the Text Label `Strength` that shows the values a scenario starts a
/// counter with), `Card`,
/// `Two-sided`, and one per side, unit type and size in use; `Unit <side>` when the game
/// has dead piles.
pub fn prototypes(
    game: &Game,
    dead_piles: &DeadPiles,
    live_rules: &[Trait],
    strength_label: bool,
) -> Vec<Prototype> {
    let label = strength_label.then(|| {
        Trait::text_label(
            "Change strength",
            &keys::CHANGE_STRENGTH.encode(),
            muster_vassal::listing::STRENGTH,
        )
    });
    let mut out = vec![
        Prototype {
            name: COUNTER.into(),
            piece: Piece {
                traits: [
                    live_rules,
                    label.as_slice(),
                    &[
                        Trait::clone_command("Clone", &keys::CLONE.encode()),
                        Trait::delete(),
                        Trait::mark_moved(
                            "/images/moved.gif",
                            0,
                            0,
                            "Mark Moved",
                            &keys::MARK_MOVED.encode(),
                        ),
                        Trait::movement_trail("Movement Trail", &keys::TRAIL.encode()),
                        empty_basic(),
                    ],
                ]
                .concat(),
            },
        },
        Prototype {
            name: CARD.into(),
            piece: Piece { traits: vec![Trait::delete(), empty_basic()] },
        },
    ];
    if game.units.iter().any(|u| two_sided(u) && u.back_state.is_some()) {
        out.push(Prototype {
            name: STATE_SIDED.into(),
            piece: Piece {
                traits: vec![
                    Trait::hide_commands(
                        "On its back",
                        "{Step_Level == 2}",
                        &[keys::STEP_LOSS.encode()],
                    ),
                    Trait::report(&[keys::FLIP.encode()], FLIPPED_REPORT),
                    Trait::report(&[keys::STEP_LOSS.encode()], STATE_REPORT),
                    empty_basic(),
                ],
            },
        });
    }
    if game
        .units
        .iter()
        .chain(&game.markers)
        .any(|u| two_sided(u) && u.back_state.is_none())
    {
        out.push(Prototype {
            name: TWO_SIDED.into(),
            piece: Piece {
                traits: vec![
                    Trait::hide_commands(
                        "Reduced",
                        "{Step_Level == 2}",
                        &[keys::STEP_LOSS.encode()],
                    ),
                    Trait::report(&[keys::FLIP.encode()], FLIPPED_REPORT),
                    Trait::report(&[keys::STEP_LOSS.encode()], STEP_LOSS_REPORT),
                    empty_basic(),
                ],
            },
        });
    }
    for side in &game.meta.sides {
        out.push(Prototype {
            name: format!("Side {}", side.id.v),
            piece: Piece {
                traits: vec![
                    Trait::marker("Side", &side.id.v),
                    Trait::marker("SideName", &side.name),
                    empty_basic(),
                ],
            },
        });
        if let Some(pile) = dead_piles.of_side(&side.id.v) {
            out.push(Prototype {
                name: format!("Unit {}", side.id.v),
                piece: Piece {
                    traits: vec![
                        Trait::report(&[keys::ELIMINATE.encode()], ELIMINATED_REPORT),
                        Trait::send_to_zone(
                            "Eliminate",
                            &keys::ELIMINATE.encode(),
                            &pile.map,
                            &pile.location,
                        ),
                        empty_basic(),
                    ],
                },
            });
        }
    }
    for t in &game.meta.unit_types {
        if game.units.iter().any(|u| u.unit_type.as_deref() == Some(t.id.v.as_str())) {
            out.push(Prototype {
                name: format!("Type {}", t.id.v),
                piece: Piece {
                    traits: vec![
                        Trait::marker("Type", &t.id.v),
                        Trait::marker("TypeName", &t.name),
                        Trait::marker("Category", t.category.name()),
                        empty_basic(),
                    ],
                },
            });
        }
    }
    for s in &game.meta.unit_sizes {
        if game.units.iter().any(|u| u.size.as_deref() == Some(s.id.v.as_str())) {
            out.push(Prototype {
                name: format!("Size {}", s.id.v),
                piece: Piece {
                    traits: vec![Trait::marker("Size", &s.id.v), empty_basic()],
                },
            });
        }
    }
    out
}

/// The piece of one counter: prototypes, then its own properties, then its sides (the
/// chain in the [module documentation](self)).
pub fn unit_piece(game: &Game, unit: &Unit, gpid: u32, dead_piles: &DeadPiles) -> Piece {
    let mut traits = vec![Trait::prototype(COUNTER)];
    if game.meta.sides.iter().any(|s| s.id.v == unit.side) {
        traits.push(Trait::prototype(&format!("Side {}", unit.side)));
        if unit.category != Category::Marker && dead_piles.of_side(&unit.side).is_some() {
            traits.push(Trait::prototype(&format!("Unit {}", unit.side)));
        }
    }
    if two_sided(unit) {
        traits.push(Trait::prototype(match unit.back_state {
            Some(_) => STATE_SIDED,
            None => TWO_SIDED,
        }));
    }
    if let Some(t) = &unit.unit_type {
        traits.push(Trait::prototype(&format!("Type {t}")));
    }
    if let Some(s) = &unit.size {
        traits.push(Trait::prototype(&format!("Size {s}")));
    }
    traits.push(Trait::marker("UnitId", &unit.id));
    // Every counter carries its category: a marker's, and a unit's of no type (counted as a
    // combat unit), which no type prototype gives it.
    if unit.category == Category::Marker || unit.unit_type.is_none() {
        traits.push(Trait::marker("Category", unit.category.name()));
    }
    let props = vec![
        ("Nationality", unit.nationality.clone().unwrap_or_default()),
        ("Formation", unit.formation.clone().unwrap_or_default()),
        ("Steps", unit.steps.map(|s| s.to_string()).unwrap_or_default()),
    ];
    for v in &game.meta.values {
        if let Some(full) = unit.front.get(&v.id.v) {
            traits.push(Trait::marker(&format!("Full_{}", v.id.v), full));
        }
        if let Some(reduced) = unit.back.get(&v.id.v) {
            traits.push(Trait::marker(&format!("Reduced_{}", v.id.v), reduced));
        }
    }
    for (k, v) in props {
        traits.push(Trait::marker(k, &v));
    }
    if let Some(state) = &unit.back_state {
        traits.push(Trait::marker("BackState", state));
    }
    let faces = muster_render::faces(unit);
    let position = Position { gpid: gpid.to_string(), ..Position::default() };
    if faces.len() > 1 {
        traits.push(Trait::sides_named(
            &image_name(unit, Face::Front),
            &image_name(unit, Face::Back),
            false,
            unit.back_state.as_deref().unwrap_or("Step loss"),
        ));
        traits.push(Trait::basic("", &unit.printed.v, &position));
    } else {
        traits.push(Trait::basic(
            &image_name(unit, Face::Front),
            &unit.printed.v,
            &position,
        ));
    }
    Piece { traits }
}

/// A generated piece with one image (chits and cards).
pub fn simple_piece(
    kind: &str,
    props: &[(&str, &str)],
    image: &str,
    name: &str,
    gpid: u32,
) -> Piece {
    let mut traits = vec![Trait::prototype(CARD), Trait::marker("Category", kind)];
    for (k, v) in props {
        traits.push(Trait::marker(k, v));
    }
    traits.push(Trait::basic(
        image,
        name,
        &Position { gpid: gpid.to_string(), ..Position::default() },
    ));
    Piece { traits }
}

/// Palette slots for every counter and marker, in manifest order, each with the gpid its
/// id gives ([`super::gpid`]).
pub fn slots(game: &Game, dead_piles: &DeadPiles) -> Vec<Slot> {
    let side_name = |id: &str| {
        game.meta
            .sides
            .iter()
            .find(|s| s.id.v == id)
            .map_or_else(|| "Neutral".to_string(), |s| s.name.clone())
    };
    let formations: HashMap<&str, &str> = game
        .formations
        .iter()
        .map(|f| (f.id.as_str(), f.printed.v.as_str()))
        .rev()
        .collect();
    let formation_name = |id: &Option<String>| {
        id.as_deref()
            .and_then(|f| formations.get(f))
            .map_or_else(|| "Independent".to_string(), |f| (*f).to_string())
    };
    let all: Vec<&Unit> = game.units.iter().chain(&game.markers).collect();
    let mut printed: HashMap<&str, usize> = HashMap::new();
    for u in &all {
        *printed.entry(u.printed.v.as_str()).or_default() += 1;
    }
    // Each counter's piece is made on its own, side by side, and the slots come in order.
    all.par_iter()
        .map(|u| {
            let gpid = gpid(&counter_key(&u.id));
            let group = if u.category == Category::Marker {
                (
                    "Markers".to_string(),
                    if u.side.is_empty() { "All".into() } else { side_name(&u.side) },
                )
            } else {
                (side_name(&u.side), formation_name(&u.formation))
            };
            // Counters printed alike get their id in the palette, so each entry is
            // distinct.
            let twins = printed.get(u.printed.v.as_str()).copied().unwrap_or(0);
            let name = if twins > 1 {
                format!("{} ({})", u.printed.v, u.id)
            } else {
                u.printed.v.clone()
            };
            Slot {
                id: u.id.clone(),
                name,
                gpid,
                piece: unit_piece(game, u, gpid, dead_piles),
                group,
            }
        })
        .collect()
}

/// Prototype lookup for [`Piece::expand`].
pub fn lookup(prototypes: &[Prototype]) -> impl Fn(&str) -> Option<Piece> + Sync + '_ {
    let map: BTreeMap<&str, &Piece> =
        prototypes.iter().map(|p| (p.name.as_str(), &p.piece)).collect();
    move |name| map.get(name).map(|p| (*p).clone())
}
