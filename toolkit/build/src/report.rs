//! What a build did, per game and per stage: the value [`crate::Build::run`] returns.
//!
//! Each game's report serializes to the summary `muster build --format json` prints and
//! the cache keeps beside a game's stamp.

use std::collections::BTreeMap;

use muster_model::{FindingKind, Loaded, Severity};
use serde::{Deserialize, Serialize};

/// What a build of the selected games did.
#[derive(Debug)]
pub struct BuildReport {
    /// The games as loaded, with every diagnostic of loading them and the sources the
    /// diagnostics point into.
    pub loaded: Loaded,
    /// One report per game that loaded, in the order of the games.
    pub games: Vec<GameReport>,
    /// Seconds the whole build took, loading included.
    pub seconds: f64,
    /// Seconds of the parts of the build that serve every game at once: `load` (reading
    /// the sources and what the last build left, and drawing the counter sides) and
    /// `prune` (removing what the cache no longer needs).
    pub phase_seconds: BTreeMap<String, f64>,
}

impl BuildReport {
    /// Whether a game failed to load (its folder holds an error), so that nothing of it was
    /// built.
    pub fn has_errors(&self) -> bool {
        self.loaded.has_errors()
    }

    /// Whether anything needs attention: a warning of loading, or an error or warning
    /// finding of a game that `errata.yaml` does not acknowledge (what `--strict` fails on).
    pub fn needs_attention(&self) -> bool {
        self.loaded.diagnostics.iter().any(|d| d.needs_attention())
            || self.games.iter().any(|g| !g.attention.is_empty())
    }
}

/// What the build of one game made, reused and found, and how long each stage took.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GameReport {
    /// The game id.
    pub game: String,
    /// Whether the game's inputs and outputs were as its last build left them, so that
    /// nothing was done (the other figures are that build's).
    #[serde(default)]
    pub up_to_date: bool,
    /// Seconds the game took.
    pub seconds: f64,
    /// Seconds per stage (`counters`, `model`, `sheets`, `maps`, `setups`, `errata`,
    /// `module`), and `commit`: putting the outputs in place, sweeping away what the build
    /// no longer makes and stamping what it left.
    pub stage_seconds: BTreeMap<String, f64>,
    /// What the cache gave and what was made.
    #[serde(default)]
    pub cache: CacheReport,
    /// Units in the manifest.
    pub units: usize,
    /// Markers in the manifest.
    pub markers: usize,
    /// Formations in the order of battle.
    pub formations: usize,
    /// Map sheets.
    pub maps: usize,
    /// Scenarios.
    pub scenarios: usize,
    /// Printed placements over every scenario.
    pub placements: usize,
    /// Units whose type the rulebook does not print.
    pub units_of_unknown_type: usize,
    /// Hexes whose terrain the rules do not give, over every map.
    pub hexes_of_unknown_terrain: usize,
    /// Every map sheet drawn.
    pub map_images: Vec<MapImage>,
    /// Counter sides drawn.
    pub counter_sides: usize,
    /// Counter values drawn as `?` because the rulebook does not print them.
    pub unknown_counter_values: usize,
    /// Print sheet pages.
    pub sheet_pages: usize,
    /// What was written for the counters.
    pub counters: CounterImages,
    /// Setup findings that need attention.
    pub setup_findings: usize,
    /// What was written for the module.
    pub module: ModuleReport,
    /// Errata that need attention: errors and warnings not acknowledged in `errata.yaml`.
    pub errata: usize,
    /// Those errata, errors first, then by kind and place: what `muster build` lists.
    #[serde(default)]
    pub attention: Vec<Attention>,
    /// The files under the game's output folders that the build left in place although
    /// it no longer writes them, found there for the first time: muster never wrote them,
    /// or they changed since it did. (Empty for a game that was up to date.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<LeftAlone>,
}

/// A file among a game's outputs that muster leaves where it is, not being sure it is its
/// own: it never wrote it, or the file changed since it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftAlone {
    /// The file's path, as the output folder was given.
    pub path: String,
    /// `true` when muster wrote the file and it changed since (size or modification
    /// time); `false` when no build of muster's recorded it.
    pub changed: bool,
}

impl LeftAlone {
    /// Why the file stays, for a person.
    pub fn reason(&self) -> &'static str {
        if self.changed {
            "it changed since muster wrote it, so it may hold someone's work (remove it if not)"
        } else {
            "muster did not write it (muster removes only the files its builds recorded)"
        }
    }
}

/// A finding that needs attention, as the build lists it: where, what kind, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attention {
    /// The kind of finding.
    pub kind: FindingKind,
    /// Its kind's severity: error or warning.
    pub severity: Severity,
    /// The file it is printed in, if it comes from one.
    pub file: Option<String>,
    /// 1-based line; 0 when it comes from no file.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The scenario, for setup findings.
    pub scenario: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl Attention {
    /// The errata of a game that need attention, errors first, then by kind and place.
    pub fn of(
        errata: &[muster_check::Erratum],
        sources: &muster_model::Sources,
    ) -> Vec<Self> {
        let mut out: Vec<Attention> = errata
            .iter()
            .filter(|e| e.needs_attention())
            .map(|e| Attention {
                kind: e.kind,
                severity: e.severity(),
                file: (!e.span.is_detached())
                    .then(|| sources.path(e.span.file).display().to_string()),
                line: e.span.line,
                column: e.span.column,
                scenario: e.scenario.clone(),
                message: e.message.clone(),
            })
            .collect();
        out.sort_by(|a, b| {
            (std::cmp::Reverse(a.severity), a.kind, &a.file, a.line, a.column).cmp(&(
                std::cmp::Reverse(b.severity),
                b.kind,
                &b.file,
                b.line,
                b.column,
            ))
        });
        out
    }
}

/// What the cache did during one game's build.
#[derive(Debug, Default, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct CacheReport {
    /// Results taken from the cache.
    pub reused: usize,
    /// Results made in this build, by label (`counter 1-sa-inf-bde-full`, `module`, ...).
    pub made: Vec<String>,
}

/// What was written for one map sheet.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MapImage {
    /// Map id.
    pub map: String,
    /// PNG path.
    pub png: String,
    /// Pixel width.
    pub width: u32,
    /// Pixel height.
    pub height: u32,
    /// Sheet width in inches.
    pub width_in: f64,
    /// Sheet height in inches.
    pub height_in: f64,
    /// Whether the sheet size is printed in the rulebook.
    pub printed_size: bool,
    /// Hexes whose terrain the rules do not give.
    pub unknown_terrain: usize,
    /// For a sheet drawn over a painted map: how far, in the image's pixels, the grid fitted
    /// to the reference hexes passes from each of them (in the map file's order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid_fit_px: Option<Vec<f64>>,
    /// The legend's own image, when the printed sheet has no free place for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legend_apart: Option<String>,
    /// PNG size in bytes.
    pub bytes: usize,
    /// The PNG itself, for the module, when it was read or drawn: not when the image the
    /// last build wrote was kept unread (not reported).
    #[serde(skip)]
    pub data: Option<Vec<u8>>,
    /// The key of the PNG's cache object (not reported).
    #[serde(skip)]
    pub key: String,
    /// What draws the PNG alike every time, in hex: a digest of its SVG, pixel size and
    /// resolution, whichever muster draws it (not reported).
    #[serde(skip)]
    pub drawing: String,
    /// Resolution it was drawn at (not reported).
    #[serde(skip)]
    pub dpi: u32,
}

/// What was written for a game's counters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CounterImages {
    /// Counter sides rendered (one PNG each).
    pub sides: usize,
    /// Values drawn as `?` because the rulebook does not print them.
    pub unknown_values: usize,
    /// PDF print sheets written.
    pub pdf: String,
    /// Pages in the PDF.
    pub pages: usize,
    /// PNG sheet pages written.
    pub png_pages: usize,
    /// The contact sheet's pages: `contact.png`, then `contact-2.png`… for a game of
    /// more than 1,440 counters.
    pub contact_sheets: Vec<String>,
    /// For each sheet of counter art, its preview with every cut outlined.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_previews: Vec<String>,
}

/// What was written for a game's module.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModuleReport {
    /// The `.vmod` path.
    pub path: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// Palette slots and deck pieces.
    pub pieces: usize,
    /// Prototypes defined.
    pub prototypes: usize,
    /// Predefined setups.
    pub setups: Vec<SetupReport>,
    /// The rules the module checks live in VASSAL.
    #[serde(default)]
    pub live_rules: LiveRulesReport,
    /// The release the module is, as recorded beside it (`dist/<game>/release.json`).
    #[serde(default)]
    pub release: Release,
    /// The release recorded before, when this module holds something else under its
    /// version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_under: Option<Release>,
}

/// The release a module is: what `dist/<game>/release.json` records.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Release {
    /// The module's version (`1.0.0`).
    pub version: String,
    /// The day the version was first built (`2026-12-07`, UTC).
    pub date: String,
    /// What the module held then ([`muster_package::archive::Zipped::content`]).
    pub content: String,
}

/// The rules a module checks live in VASSAL, as counters move.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveRulesReport {
    /// The checks, as `section (kind)`.
    pub checked: Vec<String>,
    /// What VASSAL checks only approximately, and how, in words.
    pub approximated: Vec<String>,
}

/// One predefined setup of a module.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetupReport {
    /// The scenario id.
    pub scenario: String,
    /// The setup's file in the module.
    pub file: String,
    /// Counters it places.
    pub pieces: usize,
}
