//! `oob.yaml`: the order of battle as a formation tree.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Assumed, Ref};
use crate::Spanned;

/// `oob.yaml`: every formation, nested as the rulebook nests them.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OobFile {
    /// Top-level formations (and groupings such as "Independent British Units").
    pub formations: Vec<FormationDef>,
    /// Where the printed order of battle stops short, what is missing. Default: complete.
    #[serde(default)]
    pub incomplete: Option<Spanned<String>>,
}

/// A formation (division, brigade, corps) or a printed grouping of independent units.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FormationDef {
    /// Id (`1-sa-inf-div`).
    #[schemars(with = "super::bounds::IdSchema")]
    pub id: Spanned<String>,
    /// The heading as printed (`1st South African Division`).
    #[serde(deserialize_with = "super::bounds::spanned_text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub printed: Spanned<String>,
    /// Other names the rulebook prints for this formation in lists and headings
    /// (`1 SA Inf Div`). Names, not corrections: a misprint stays a misprint. Default: none.
    #[serde(default)]
    pub also_printed: Vec<Spanned<String>>,
    /// Rule section of the heading. Default: none.
    #[serde(default)]
    pub section: Option<String>,
    /// The side. Default: the parent's.
    #[serde(default)]
    pub side: Option<Ref>,
    /// The nationality of its units. Default: the parent's.
    #[serde(default)]
    pub nationality: Option<Ref>,
    /// The formation's size (`division`). Default: not stated.
    #[serde(default)]
    pub size: Option<Ref>,
    /// The printed name of its HQ counter. Default: no HQ.
    #[serde(default)]
    pub hq: Option<Spanned<String>>,
    /// A printed grouping of units that belong to no formation. Default: false.
    #[serde(default)]
    pub independent: bool,
    /// Subordinate formations. Default: none.
    #[serde(default)]
    pub subordinates: Vec<FormationDef>,
    /// A remark on the transcription (misprints cite their section here). Default: none.
    #[serde(default)]
    pub note: Option<String>,
    /// Values of this entry the rulebook does not print, and why: a reason for the whole
    /// entry or a mapping from field names to reasons. Default: none (all as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<Assumed>,
}
