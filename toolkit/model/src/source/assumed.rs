//! The assumption marker: values the rulebook does not print, marked where they are
//! written, with why they were chosen.
//!
//! Any value-bearing entry may carry `assumed:`. A string marks the whole entry (every
//! value it gives beyond its printed name is muster's choice); a mapping marks some of its
//! fields by name, a dotted path for nested ones:
//!
//! ```yaml
//! - {id: kampfgruppe, name: Kampfgruppe, symbol: KG, printed: [KG], assumed: "0.8.4 lists no KG size"}
//! board:
//!   grid: {orientation: flat-top, stagger: odd}
//!   assumed: {grid.stagger: "which columns are staggered is not printed"}
//! ```

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, de};

use crate::Spanned;

/// Values of an entry that the rulebook does not print, each with the reason it was
/// chosen.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Assumed {
    /// The whole entry is an assumption: why.
    Whole(Spanned<String>),
    /// These fields (by name, dotted for nested fields such as `grid.stagger` or
    /// `front.movement`) are assumptions: why, for each.
    Fields(BTreeMap<String, Spanned<String>>),
}

impl Assumed {
    /// The reason for one field: its own, or the whole entry's.
    pub fn reason(&self, field: &str) -> Option<&Spanned<String>> {
        match self {
            Assumed::Whole(why) => Some(why),
            Assumed::Fields(m) => m.get(field),
        }
    }

    /// Every (field, reason); the field is `None` when the whole entry is assumed.
    pub fn entries(&self) -> Vec<(Option<&str>, &Spanned<String>)> {
        match self {
            Assumed::Whole(why) => vec![(None, why)],
            Assumed::Fields(m) => m.iter().map(|(k, v)| (Some(k.as_str()), v)).collect(),
        }
    }
}

enum Shape {
    Text(String),
    Fields(BTreeMap<String, Spanned<String>>),
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Shape;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "why the entry is assumed, or a mapping from field names to why each is assumed",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Shape, E> {
                Ok(Shape::Text(v.to_string()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, m: A) -> Result<Shape, A::Error> {
                BTreeMap::<String, Spanned<String>>::deserialize(
                    de::value::MapAccessDeserializer::new(m),
                )
                .map(Shape::Fields)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Assumed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // The string case keeps its span only when read through `Spanned`.
        let v = Spanned::<Shape>::deserialize(d)?;
        Ok(match v.v {
            Shape::Text(t) => Assumed::Whole(Spanned::new(t, v.span)),
            Shape::Fields(m) => Assumed::Fields(m),
        })
    }
}
