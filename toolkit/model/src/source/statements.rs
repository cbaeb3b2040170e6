//! Printed tables, statements of the rulebook that contradict each other, and units the
//! rules name outside the setups.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Ref, UnitsField};
use crate::Spanned;

/// A table as printed: its header row, its rows and the lines printed under it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// The table's title as printed (`Command Limits Table`).
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub title: String,
    /// Rule section.
    pub section: String,
    /// The header row, as printed.
    pub columns: Vec<String>,
    /// The rows, each cell as printed, as many cells as `columns` (a table that stops
    /// short says so in `incomplete`).
    pub rows: Vec<Spanned<Vec<String>>>,
    /// Lines printed with the table (modifiers, footnotes), as printed. Default: none.
    #[serde(default)]
    pub lines: Vec<String>,
    /// Where the printed table stops short, what is missing. Default: complete.
    #[serde(default)]
    pub incomplete: Option<Spanned<String>>,
    /// A remark on the transcription. Default: none.
    #[serde(default)]
    pub note: Option<String>,
}

/// Printed statements that cannot all hold, kept side by side: the data follows one and
/// says so; the errata checker reports the others.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Contradiction {
    /// What the statements disagree on (`the last turn`).
    pub what: Spanned<String>,
    /// The statements, each with its section, as printed.
    pub statements: Vec<Statement>,
    /// Which one the data follows, and why.
    pub note: String,
}

/// One printed statement.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Statement {
    /// Rule section.
    pub section: String,
    /// The printed words.
    pub quote: String,
}

/// Units the rules name outside the setups (an example, a special rule), as printed, so that
/// the errata checker finds them in the manifest like any printed reference.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mention {
    /// Rule section.
    pub section: String,
    /// The side of the units named.
    pub side: Ref,
    /// The units as printed (`1 DUKE/I SA`).
    pub units: UnitsField,
    /// A remark. Default: none.
    #[serde(default)]
    pub note: Option<String>,
}
