//! `scenarios/<id>.yaml`: a scenario's setups, reinforcements and off-map groups.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, de};

use super::{Assumed, Contradiction, Ref, Table};
use crate::Spanned;

/// A scenario, with every placement kept as printed.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Id (`full-campaign`); the file is `scenarios/<id>.yaml`.
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// Title as printed.
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub title: String,
    /// Rule section.
    pub section: String,
    /// First turn as printed. Default: not printed.
    #[serde(default)]
    pub first_turn: Option<Spanned<String>>,
    /// Last turn as printed. Default: not printed.
    #[serde(default)]
    pub last_turn: Option<Spanned<String>>,
    /// Maps in play as printed. Default: not printed.
    #[serde(default)]
    pub maps: Option<String>,
    /// The side that plays first. Default: not printed.
    #[serde(default)]
    pub first_player: Option<Ref>,
    /// The side that sets up first. Default: not printed.
    #[serde(default)]
    pub first_to_deploy: Option<Ref>,
    /// Special rules, as printed. Default: none.
    #[serde(default)]
    pub special_rules: Vec<Spanned<String>>,
    /// The setup is the same as another scenario's (`13.22 Setup. Identical to the
    /// previous scenario.`). Default: none.
    #[serde(default)]
    pub setup_from: Option<Ref>,
    /// At-start placements, in printed blocks. Default: none.
    #[serde(default)]
    pub setup: Vec<SetupBlock>,
    /// Reinforcements. Default: none.
    #[serde(default)]
    pub reinforcements: Vec<Reinforcement>,
    /// Off-map groups: emergency groups, special reserve, dead pools. Default: none.
    #[serde(default)]
    pub groups: Vec<Group>,
    /// Victory conditions, as printed. Default: none.
    #[serde(default)]
    pub victory: Vec<Spanned<String>>,
    /// Numbers the text states, for the errata checker to compare. Default: none.
    #[serde(default)]
    pub stated_counts: Vec<StatedCount>,
    /// Where the printed scenario stops short, what is missing. Default: complete.
    #[serde(default)]
    pub incomplete: Option<Spanned<String>>,
    /// Tables the scenario prints (victory levels by turn, victory point differentials).
    /// Default: none.
    #[serde(default)]
    pub tables: Vec<Table>,
    /// Printed statements about the scenario that contradict each other. Default: none.
    #[serde(default)]
    pub contradictions: Vec<Contradiction>,
    /// Remarks on the transcription (a sentence printed unfinished). Default: none.
    #[serde(default)]
    pub notes: Vec<Spanned<String>>,
    /// Values the units start this scenario with, printed apart from the setup lines (a
    /// table of starting strengths). Default: none (units start with their counters'
    /// printed values, or those their setup lines print).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub starting_values: Vec<StartingValues>,
}

/// A printed table of the values one side's units start a scenario with (`6.8 Scenario
/// Starting Strengths`: `A-AH 17`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartingValues {
    /// The side whose units the table lists.
    pub side: Ref,
    /// Rule section.
    pub section: String,
    /// The counter value the table gives (`strength`), an id of `game.yaml`'s `values`.
    pub value: Spanned<String>,
    /// A remark (which column of a printed table). Default: none.
    #[serde(default)]
    pub note: Option<String>,
    /// One row per unit, as printed.
    pub units: Vec<StartingValue>,
}

/// One row of a table of starting values.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartingValue {
    /// The unit, by the name the counter prints.
    pub unit: Spanned<String>,
    /// Its value, as printed.
    pub value: Spanned<String>,
}

/// A printed block of at-start placements for one side.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupBlock {
    /// The side.
    pub side: Ref,
    /// Rule section.
    pub section: String,
    /// A printed heading that the lines fall under (`XXI Italian Corps:`). Default: none.
    #[serde(default)]
    pub heading: Option<Spanned<String>>,
    /// The placements, in printed order. Default: none (a block printed as a table).
    #[serde(default)]
    pub placements: Vec<Placement>,
    /// The placements printed as a table (unit, size, command, type, strength, hex), read
    /// row by row after `placements`. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<SetupTable>,
}

/// A set-up printed as a table: one row per unit, its cells under named columns.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupTable {
    /// What each printed column holds, in printed order.
    pub columns: Vec<Spanned<SetupColumn>>,
    /// The rows, each a cell per column, as printed (`""` for an empty cell).
    pub rows: Vec<Vec<Spanned<String>>>,
    /// The table's footnote marks and what each means there (`"*": starts fatigued`): a
    /// mark printed at the end of a cell is read as that footnote, and the cell without it.
    /// Marks mean different things in different tables. Default: none.
    #[serde(default)]
    pub marks: std::collections::BTreeMap<String, String>,
    /// The counter values the `strength` column prints, in order, as ids of `game.yaml`'s
    /// `values` (`[strength]`). Default: all the game's values, printed as `4-1-7`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strength: Vec<Spanned<String>>,
}

/// What a column of a set-up table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SetupColumn {
    /// The unit, as the row prints it.
    Unit,
    /// Its size word (`Brig`, `Div`), checked against the counter's size.
    Size,
    /// Its type word (`Inf`, `Cav`), checked against the counter's type.
    Type,
    /// The command (formation) it belongs to: the row's units are looked for there first.
    Command,
    /// Its strength in this scenario (`5`), as printed.
    Strength,
    /// Where it sets up: a hex, a hex and its place, a place, or any location form.
    Hex,
    /// A remark kept as printed.
    Note,
}

/// One printed setup line: a location and the units set up there.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// The location, as printed (`w/i 3 of A55.15`) or structured. Default: the line
    /// prints no location.
    #[serde(default)]
    pub location: Option<LocationField>,
    /// The units, as printed or as a list. Default: the line prints no units.
    #[serde(default)]
    pub units: Option<UnitsField>,
    /// A remark. Default: none.
    #[serde(default)]
    pub note: Option<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A location: the printed text, or a structured form for publishers who prefer it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum LocationField {
    /// As printed (`w/i 3 of A55.15`, `Hex 2403`, `Radius 1 hex from 25.23`).
    Printed(Spanned<String>),
    /// Structured.
    Structured(StructuredLocation),
}

/// A structured location.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructuredLocation {
    /// Set up in or within `within` hexes of any of these printed hex labels.
    pub hexes: Vec<Spanned<String>>,
    /// Distance, inclusive. Default: 0 (in the hex).
    #[serde(default)]
    pub within: u32,
}

/// Units: the printed list, or one printed unit per entry.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum UnitsField {
    /// As printed (`3 SA Inf Bde (Inf Bns: 1 LtH, 1 Rand, 1 RDLI), 1 x SU`).
    Printed(Spanned<String>),
    /// One printed unit per entry.
    List(Vec<Spanned<String>>),
}

macro_rules! string_or {
    ($ty:ident, $printed:ident, $other:ty) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                // A printed string keeps its span only when read through `Spanned`, so
                // the string case is read twice: once to learn the shape, once spanned.
                let v = crate::Spanned::<Shape<$other>>::deserialize(d)?;
                Ok(match v.v {
                    Shape::Text(t) => $ty::$printed(crate::Spanned::new(t, v.span)),
                    Shape::Other(o) => o.into(),
                })
            }
        }
    };
}

const BARE_NUMBER: &str = "a bare number is not printed text; quote it to keep it exactly as printed (\"0101\")";

enum Shape<T> {
    Text(String),
    Other(T),
}

impl<'de> Deserialize<'de> for Shape<StructuredLocation> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Shape<StructuredLocation>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a printed location, or a mapping with `hexes` and `within`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Shape::Text(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Err(E::custom(BARE_NUMBER))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Err(E::custom(BARE_NUMBER))
            }
            fn visit_map<A: de::MapAccess<'de>>(
                self,
                m: A,
            ) -> Result<Self::Value, A::Error> {
                StructuredLocation::deserialize(de::value::MapAccessDeserializer::new(m))
                    .map(Shape::Other)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Shape<Vec<Spanned<String>>> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Shape<Vec<Spanned<String>>>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a printed unit list, or a list of printed units")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Shape::Text(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Err(E::custom(BARE_NUMBER))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Err(E::custom(BARE_NUMBER))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(
                self,
                s: A,
            ) -> Result<Self::Value, A::Error> {
                Vec::<Spanned<String>>::deserialize(
                    de::value::SeqAccessDeserializer::new(s),
                )
                .map(Shape::Other)
            }
        }
        d.deserialize_any(V)
    }
}

impl From<StructuredLocation> for LocationField {
    fn from(s: StructuredLocation) -> Self {
        LocationField::Structured(s)
    }
}

impl From<Vec<Spanned<String>>> for UnitsField {
    fn from(v: Vec<Spanned<String>>) -> Self {
        UnitsField::List(v)
    }
}

string_or!(LocationField, Printed, StructuredLocation);
string_or!(UnitsField, Printed, Vec<Spanned<String>>);

/// Units that arrive later.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reinforcement {
    /// The side.
    pub side: Ref,
    /// Rule section.
    pub section: String,
    /// The turn as printed (`5`, `28 May`, `2 ALLIED`).
    pub turn: Spanned<String>,
    /// The entry area as printed (`D`, `B or C`). Default: not printed separately.
    #[serde(default)]
    pub area: Option<Spanned<String>>,
    /// The units, as printed or as a list.
    pub units: UnitsField,
    /// A remark printed with the arrival (`arrives by the Saxon movement segment`).
    /// Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// What an off-map group is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum GroupKind {
    /// Emergency reinforcements, released at a cost.
    Emergency,
    /// A special reserve (SCS 15.5.3.3).
    SpecialReserve,
    /// Dead units available for reconstitution.
    DeadForReconstitution,
    /// Replacement points.
    Replacements,
    /// Units withdrawn from play.
    Withdrawal,
    /// Air units in their box.
    AirBox,
}

/// Units held off the map.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// The side.
    pub side: Ref,
    /// Rule section.
    pub section: String,
    /// What the group is for.
    pub kind: GroupKind,
    /// Its printed name (`Emergency Reinforcement Group 2`).
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub name: String,
    /// The units, as printed or as a list.
    pub units: UnitsField,
    /// A remark. Default: none.
    #[serde(default)]
    pub note: Option<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// A number the rulebook states, for the errata checker to compare with the lists.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatedCount {
    /// What is counted: `victory-hexes` (the victory hexes of the maps that cite the
    /// section), `formation:<id>` (counters of a formation listed in the section),
    /// `placed:<printed name>` (counters of that name set up at start), `type:<id>`
    /// (counters of a unit type set up at start) or `setup:<side>` (counters a side sets up
    /// at start); the errata checker reports a count of any other form as not checked.
    pub what: String,
    /// The number stated.
    pub count: u32,
    /// How the lists must compare with it. Default: `exactly`.
    #[serde(default)]
    pub compare: Comparison,
    /// Rule section.
    pub section: String,
    /// The printed words.
    pub quote: Spanned<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}

/// How a stated number binds the lists.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Comparison {
    /// The lists give exactly this many.
    #[default]
    Exactly,
    /// The lists must give at least this many (`exits 35 or more units`).
    AtLeast,
}
