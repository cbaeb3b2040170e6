//! What a build is asked to do: where the games are, where outputs go, which games, and
//! the resolutions and print-sheet layout.

use std::path::PathBuf;

use muster_render::sheet::SheetOptions;

/// The settings of a build. Callers set what they need and take the rest from
/// `..Settings::default()`.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Folder that holds one folder per game.
    ///
    /// Default: `sources`.
    pub sources: PathBuf,
    /// Folder under which `counters/`, `maps/`, `dist/` and the cache `.muster-cache/`
    /// are written.
    ///
    /// Default: `.` (the current folder).
    pub out: PathBuf,
    /// Ids of the games to build. A build of every game also removes the cache objects
    /// that no game uses any more.
    ///
    /// Default: empty, every game under `sources`.
    pub games: Vec<String>,
    /// Resolution of map images, in dots per inch.
    ///
    /// Default: 150.
    pub map_dpi: u32,
    /// Counter images and print sheets.
    ///
    /// Default: [`CounterOptions::default`].
    pub counters: CounterOptions,
    /// A game with a finding that needs attention (an error or a warning `errata.yaml`
    /// does not acknowledge), or any game when loading warned, keeps its previous outputs:
    /// its new ones are not committed.
    ///
    /// Default: false.
    pub strict: bool,
    /// The former state of the sources (the last release) whose changes each game lists as
    /// `dist/<game>/changes.md` and `changes.json` and on the module's "What's new" page.
    ///
    /// Default: none.
    pub since: Option<crate::since::State>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            sources: PathBuf::from("sources"),
            out: PathBuf::from("."),
            games: Vec::new(),
            map_dpi: 150,
            counters: CounterOptions::default(),
            strict: false,
            since: None,
        }
    }
}

impl Settings {
    /// The options that change what a game's build makes, as text for its cache key.
    pub(crate) fn key(&self) -> String {
        let since = self.since.as_ref().map(|s| s.identity.as_str()).unwrap_or("none");
        format!("map-dpi {} {:?} since {since}", self.map_dpi, self.counters)
    }
}

/// How counter images and print sheets are drawn.
#[derive(Debug, Clone)]
pub struct CounterOptions {
    /// Resolution of per-counter images, in dots per inch.
    ///
    /// Default: 300.
    pub dpi: u32,
    /// Resolution of the PNG print sheets, in dots per inch.
    ///
    /// Default: 150.
    pub sheet_dpi: u32,
    /// Counter size, page size, margins, bleed, marks and fold of the print sheets; the
    /// counter size there is also the size of every counter image.
    ///
    /// Default: [`SheetOptions::default`] (5/8-inch counters on US Letter).
    pub sheet: SheetOptions,
    /// The creation and modification date the print-sheet PDFs declare, in seconds since
    /// 1970 (UTC): what `SOURCE_DATE_EPOCH` says, for the CLI.
    ///
    /// Default: none, 1980-01-01 ([`muster_render::pdfx::FIXED_DATE`]).
    pub sheet_date: Option<u64>,
    /// Art added around every counter image beyond its cut line, in inches, for print
    /// shops that take one image a counter side (The Game Crafter asks 1/8 inch): each
    /// image is the cut size plus this on every side, rounded to whole pixels.
    ///
    /// Default: 0 (images of the cut size, outlined).
    pub image_bleed_in: f64,
}

impl Default for CounterOptions {
    fn default() -> Self {
        CounterOptions {
            dpi: 300,
            sheet_dpi: 150,
            sheet: SheetOptions::default(),
            sheet_date: None,
            image_bleed_in: 0.0,
        }
    }
}
