//! `errata.yaml`: errata a publisher acknowledges as known.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Spanned;

/// `errata.yaml`: known errata. Acknowledging marks a finding as known; it never removes it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KnownErrata {
    /// The acknowledged findings.
    #[serde(default)]
    pub known: Vec<KnownErratum>,
}

/// One acknowledged finding, matched by kind and the printed text at fault.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KnownErratum {
    /// The finding's kind (`unknown-unit`, `name-differs`, …).
    pub kind: Spanned<crate::FindingKind>,
    /// The printed text at fault, as the report shows it.
    pub subject: Spanned<String>,
    /// Why it is known (a published errata sheet, a designer's note). Default: none.
    #[serde(default)]
    pub note: Option<String>,
}
