//! The game's counters as VASSAL pieces: prototypes by side, unit type and size, one palette
//! slot per counter with the properties the rules checker needs, and the pieces of decks.

use std::collections::BTreeMap;

use muster_model::{Game, Unit};
use muster_render::Face;
use muster_rules::Category;

use super::gpid::{counter_key, gpid};
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

/// Every prototype the pieces refer to: `Counter` (common commands), one per side, unit
/// type and size in use.
pub fn prototypes(game: &Game) -> Vec<Prototype> {
    let mut out = vec![Prototype {
        name: "Counter".into(),
        piece: Piece { traits: vec![Trait::delete(), empty_basic()] },
    }];
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

/// The piece of one counter: prototypes, then its own properties, then its sides.
pub fn unit_piece(game: &Game, unit: &Unit, gpid: u32) -> Piece {
    let mut traits = vec![Trait::prototype("Counter")];
    if game.meta.sides.iter().any(|s| s.id.v == unit.side) {
        traits.push(Trait::prototype(&format!("Side {}", unit.side)));
    }
    if let Some(t) = &unit.unit_type {
        traits.push(Trait::prototype(&format!("Type {t}")));
    }
    if let Some(s) = &unit.size {
        traits.push(Trait::prototype(&format!("Size {s}")));
    }
    traits.push(Trait::marker("UnitId", &unit.id));
    if unit.category == Category::Marker {
        traits.push(Trait::marker("Category", "marker"));
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
    let faces = muster_render::faces(unit);
    let position = Position { gpid: gpid.to_string(), ..Position::default() };
    if faces.len() > 1 {
        traits.push(Trait::sides(
            &image_name(unit, Face::Front),
            &image_name(unit, Face::Back),
            false,
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
    let mut traits = vec![Trait::prototype("Counter"), Trait::marker("Category", kind)];
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
pub fn slots(game: &Game) -> Vec<Slot> {
    let side_name = |id: &str| {
        game.meta
            .sides
            .iter()
            .find(|s| s.id.v == id)
            .map_or_else(|| "Neutral".to_string(), |s| s.name.clone())
    };
    let formation_name = |id: &Option<String>| {
        id.as_ref()
            .and_then(|f| game.formations.iter().find(|x| x.id == *f))
            .map_or_else(|| "Independent".to_string(), |f| f.printed.v.clone())
    };
    let mut out = Vec::new();
    let all: Vec<&Unit> = game.units.iter().chain(&game.markers).collect();
    for u in &all {
        let gpid = gpid(&counter_key(&u.id));
        let group = if u.category == Category::Marker {
            (
                "Markers".to_string(),
                if u.side.is_empty() { "All".into() } else { side_name(&u.side) },
            )
        } else {
            (side_name(&u.side), formation_name(&u.formation))
        };
        // Counters printed alike get their id in the palette, so each entry is distinct.
        let twins = all.iter().filter(|o| o.printed.v == u.printed.v).count();
        let name = if twins > 1 {
            format!("{} ({})", u.printed.v, u.id)
        } else {
            u.printed.v.clone()
        };
        out.push(Slot {
            id: u.id.clone(),
            name,
            gpid,
            piece: unit_piece(game, u, gpid),
            group,
        });
    }
    out
}

/// Prototype lookup for [`Piece::expand`].
pub fn lookup(prototypes: &[Prototype]) -> impl Fn(&str) -> Option<Piece> + '_ {
    let map: BTreeMap<&str, &Piece> =
        prototypes.iter().map(|p| (p.name.as_str(), &p.piece)).collect();
    move |name| map.get(name).map(|p| (*p).clone())
}
