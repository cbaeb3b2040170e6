//! The sequence of play as the rulebook prints it: numbered or lettered steps, each with
//! the steps inside it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The sequence of play, as printed.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sequence {
    /// Its title as printed. Default: `Sequence of Play`.
    #[serde(default = "default_title")]
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub title: String,
    /// Rule section.
    pub section: String,
    /// The text printed before the steps. Default: none.
    #[serde(default)]
    pub text: Option<String>,
    /// The steps, in printed order.
    pub steps: Vec<Step>,
    /// Lines printed after the steps (notes), as printed. Default: none.
    #[serde(default)]
    pub lines: Vec<String>,
    /// A remark on the transcription (how the printed layout was set out). Default: none.
    #[serde(default)]
    pub note: Option<String>,
}

/// One step of the sequence of play.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The number or letter printed before it (`1.`, `a)`, `3.21`). Default: none.
    #[serde(default)]
    pub mark: Option<String>,
    /// Its heading or text, as printed.
    #[serde(deserialize_with = "super::bounds::text")]
    #[schemars(with = "super::bounds::TextSchema")]
    pub text: String,
    /// A paragraph printed under the heading. Default: none.
    #[serde(default)]
    pub detail: Option<String>,
    /// The steps inside it. Default: none.
    #[serde(default)]
    pub steps: Vec<Step>,
}

fn default_title() -> String {
    "Sequence of Play".to_string()
}
