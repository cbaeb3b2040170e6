//! `counters.yaml`: the counter manifest.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, de};

use super::{Assumed, Printed, Ref};
use crate::Spanned;

/// `counters.yaml`: every counter, grouped by formation in manifest order.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountersFile {
    /// Groups of counters. Default: none.
    #[serde(default)]
    pub groups: Vec<CounterGroup>,
    /// Markers (counters that are not units). Default: none.
    #[serde(default)]
    pub markers: Vec<MarkerDef>,
    /// Where the printed manifest stops short, what is missing. Default: complete.
    #[serde(default)]
    pub incomplete: Option<Spanned<String>>,
    /// Sheets of the publisher's counter art, cut into faces by a grid. Default: none.
    #[serde(default)]
    pub art_sheets: Vec<super::ArtSheet>,
}

/// Counters that share a formation, nationality and section.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterGroup {
    /// The formation they belong to (an id in `oob.yaml`). Default: none.
    #[serde(default)]
    pub formation: Option<Ref>,
    /// Rule section that lists them. Default: none.
    #[serde(default)]
    pub section: Option<String>,
    /// Their side. Default: the formation's.
    #[serde(default)]
    pub side: Option<Ref>,
    /// Their nationality. Default: the formation's.
    #[serde(default)]
    pub nationality: Option<Ref>,
    /// A remark on the transcription. Default: none.
    #[serde(default)]
    pub note: Option<String>,
    /// What the back of its counters shows, when it is a state rather than a step loss
    /// (`Disordered`, `Battle mode`). Default: a reduced side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_state: Option<Spanned<String>>,
    /// The counters: a printed name, or a mapping with details.
    pub counters: Vec<Spanned<CounterEntry>>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// One counter: its printed name alone, or a mapping with details.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CounterEntry {
    /// Only the printed name (`1 TS Inf Bn`).
    Name(#[schemars(with = "super::bounds::TextSchema")] String),
    /// The printed name with details.
    Full(Box<CounterDef>),
}

impl CounterEntry {
    /// The printed name.
    pub fn printed(&self) -> &str {
        match self {
            CounterEntry::Name(s) => s,
            CounterEntry::Full(d) => &d.printed.v,
        }
    }
}

impl<'de> Deserialize<'de> for CounterEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = CounterEntry;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a printed unit name, or a mapping with `printed` and details",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<CounterEntry, E> {
                if !super::bounds::is_text(v) {
                    return Err(E::custom(super::bounds::EMPTY_TEXT));
                }
                Ok(CounterEntry::Name(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<CounterEntry, E> {
                Err(E::custom(BARE_NUMBER))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<CounterEntry, E> {
                Err(E::custom(BARE_NUMBER))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<CounterEntry, E> {
                Err(E::custom(BARE_NUMBER))
            }
            fn visit_map<A: de::MapAccess<'de>>(
                self,
                m: A,
            ) -> Result<CounterEntry, A::Error> {
                CounterDef::deserialize(de::value::MapAccessDeserializer::new(m))
                    .map(|d| CounterEntry::Full(Box::new(d)))
            }
        }
        d.deserialize_any(V)
    }
}

const BARE_NUMBER: &str =
    "a bare number is not a printed unit name; quote it to keep it exactly as printed";

/// Special markings printed on a counter.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Marking {
    /// SCS yellow exploitation box or stripe (0.8.2).
    Exploitation,
    /// Dance of War white bar of independent units (3.5.2).
    IndependentBar,
    /// Gazala 1942 Matilda camouflage pattern (8.4).
    Camouflage,
}

/// How a unit moves, where the counter shows it (Dance of War 1.3.6 movement colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mobility {
    /// Mechanized (yellow movement factor).
    Mechanized,
    /// Motorized (black movement factor).
    Motorized,
    /// Foot (white movement factor).
    Foot,
}

/// A counter with details.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterDef {
    /// The printed name (`1 TS Inf Bn`).
    #[serde(deserialize_with = "super::bounds::spanned_text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub printed: Spanned<String>,
    /// Id for file names and references. Default: derived from formation and name.
    #[serde(default)]
    pub id: Option<Spanned<String>>,
    /// Unit type, when the printed name does not state it. Default: from the name.
    #[serde(default, rename = "type")]
    pub unit_type: Option<Ref>,
    /// Unit size, when the printed name does not state it. Default: from the name.
    #[serde(default)]
    pub size: Option<Ref>,
    /// Nationality. Default: the group's.
    #[serde(default)]
    pub nationality: Option<Ref>,
    /// Steps (1 to 6). Default: not printed (unknown).
    #[serde(default, deserialize_with = "super::bounds::opt_int::<_, u8, 1, 6>")]
    #[schemars(range(min = 1, max = 6))]
    pub steps: Option<u8>,
    /// How many identical counters there are (1 to 1000). Default: 1.
    #[serde(default, deserialize_with = "super::bounds::opt_int::<_, u32, 1, 1000>")]
    #[schemars(range(min = 1, max = 1000))]
    pub count: Option<u32>,
    /// Values on the front (full strength), by value id. Missing values are unknown.
    #[serde(default)]
    pub front: BTreeMap<String, Printed>,
    /// Values on the back (reduced side), by value id. Missing values are unknown.
    #[serde(default)]
    pub back: BTreeMap<String, Printed>,
    /// What its back shows, when it is a state rather than a step loss (`Disordered`,
    /// `Exhausted`, `Battle mode`): drawn without the reduced band, turned to by a command
    /// of that name in VASSAL, and chosen in a setup by that mark (`(Disordered)`).
    /// Default: the group's, else a reduced side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_state: Option<Spanned<String>>,
    /// The counter is printed on one side only. Default: false.
    #[serde(default)]
    pub single_sided: bool,
    /// Special markings. Default: none.
    #[serde(default)]
    pub markings: Vec<Marking>,
    /// How the unit moves, where the counter shows it. Default: not shown.
    #[serde(default)]
    pub mobility: Option<Mobility>,
    /// A remark (a misprint cites its section here). Default: none.
    #[serde(default)]
    pub note: Option<String>,
    /// The publisher's art for its sides, instead of drawing them. Default: drawn.
    #[serde(default)]
    pub art: Option<super::FaceFiles>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A marker counter.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerDef {
    /// The marker's name as printed.
    #[serde(deserialize_with = "super::bounds::spanned_text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub printed: Spanned<String>,
    /// Id. Default: derived from the name.
    #[serde(default)]
    pub id: Option<Spanned<String>>,
    /// Rule section that lists it.
    pub section: String,
    /// The side it belongs to. Default: both.
    #[serde(default)]
    pub side: Option<Ref>,
    /// How many there are (1 to 1000). Default: not printed.
    #[serde(default, deserialize_with = "super::bounds::opt_int::<_, u32, 1, 1000>")]
    #[schemars(range(min = 1, max = 1000))]
    pub count: Option<u32>,
    /// Text on its back, if it is two-sided. Default: single-sided.
    #[serde(default)]
    pub back: Option<String>,
    /// A remark. Default: none.
    #[serde(default)]
    pub note: Option<String>,
    /// The publisher's art for its sides, instead of drawing them. Default: drawn.
    #[serde(default)]
    pub art: Option<super::FaceFiles>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}
