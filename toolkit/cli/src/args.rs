//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Build counters, maps, setups, errata and VASSAL modules from board wargame data.
#[derive(Debug, Parser)]
#[command(name = "muster", version, about)]
pub struct Cli {
    /// Options for every command.
    #[command(flatten)]
    pub global: Global,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options for every command.
#[derive(Debug, Args)]
pub struct Global {
    /// Folder that holds one folder per game.
    #[arg(long, global = true, default_value = "sources")]
    pub sources: PathBuf,
    /// Folder under which `counters/`, `maps/` and `dist/` are written.
    #[arg(long, global = true, default_value = ".")]
    pub out: PathBuf,
    /// Print no progress, only results and problems.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Worker threads for rendering. Default: one per core.
    #[arg(long, short = 'j', global = true)]
    pub jobs: Option<usize>,
}

/// Output format of reporting commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// For a person in a terminal.
    #[default]
    Text,
    /// For programs.
    Json,
}

/// Output format of the commands whose output is JSON in any case (`inspect`, `schema`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum JsonFormat {
    /// For programs (and for a person, through a JSON viewer).
    #[default]
    Json,
}

/// Which games a command works on.
#[derive(Debug, Args, Clone)]
pub struct Games {
    /// A game id (`gazala-scs`); repeat for several. Default: every game under --sources.
    #[arg(long = "game", short = 'g', value_parser = parse_game_id)]
    pub games: Vec<String>,
}

/// Reads a game id: the name of a game's folder, never a path.
pub fn parse_game_id(s: &str) -> Result<String, String> {
    muster_build::layout::game_id(s).map_err(|e| e.to_string())?;
    Ok(s.to_string())
}

/// Options for counter images and print sheets.
#[derive(Debug, Args, Clone)]
pub struct CounterArgs {
    /// Resolution of per-counter images, in dots per inch.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(10..=1200))]
    pub dpi: u32,
    /// Counter size: 1/2, 9/16, 5/8, 3/4, or inches as a decimal (1/4 to 4).
    #[arg(long, default_value = "5/8", value_parser = parse_counter_size)]
    pub counter_size: f64,
    /// Sheet size: letter, a4, legal, tabloid, or WIDTHxHEIGHT in inches (8.5x11; 2 to 60
    /// inches a side).
    #[arg(long, default_value = "letter", value_parser = parse_sheet)]
    pub sheet: (f64, f64),
    /// Page margin in inches (0 to 3).
    #[arg(long, default_value = "1/2", value_parser = parse_margin)]
    pub margin: f64,
    /// Gap between counters in inches (0 to 1).
    #[arg(long, default_value = "0", value_parser = parse_spacing)]
    pub spacing: f64,
    /// Art printed beyond each cut line, in inches (0 to 1/2).
    #[arg(long, default_value = "1/8", value_parser = parse_bleed)]
    pub bleed: f64,
    /// Margin inside each cut line that no text or symbol enters, in inches (0 to 1/4).
    #[arg(long, default_value = "1/16", value_parser = parse_safe_area)]
    pub safe_area: f64,
    /// Neighbouring counters share one cut line, with bleed only at the outer edge of the
    /// block (needs no spacing).
    #[arg(long)]
    pub shared_cuts: bool,
    /// Leave out crop marks.
    #[arg(long)]
    pub no_crop_marks: bool,
    /// Registration marks: none, fronts or both.
    #[arg(long, value_enum, default_value_t = RegistrationArg::Both)]
    pub registration: RegistrationArg,
    /// Shift back pages by X,Y inches to match a printer's duplex registration.
    #[arg(long, default_value = "0,0", value_parser = parse_offset)]
    pub back_offset: (f64, f64),
    /// Put fronts and mirrored backs on one page, to fold along the middle.
    #[arg(long)]
    pub fold: bool,
    /// Add a die line to the PDF sheets: every counter's cut path on the pages of fronts,
    /// stroked in the CutContour spot colour, overprinting, in a layer of its own.
    #[arg(long)]
    pub die_line: bool,
    /// Add bleed around every counter image, in inches (0 to 1/2; 1/8 when no value is
    /// given), for print shops that take one image a counter side.
    #[arg(long, value_name = "INCHES", num_args = 0..=1, default_missing_value = "1/8", value_parser = parse_bleed)]
    pub counter_bleed: Option<f64>,
    /// Resolution of the PNG print sheets and contact sheet, in dots per inch.
    #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u32).range(10..=1200))]
    pub sheet_dpi: u32,
}

/// Registration marks, as an option value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RegistrationArg {
    /// None.
    None,
    /// On front pages.
    Fronts,
    /// On fronts and backs.
    Both,
}

impl From<RegistrationArg> for muster_render::sheet::Registration {
    fn from(r: RegistrationArg) -> Self {
        match r {
            RegistrationArg::None => Self::None,
            RegistrationArg::Fronts => Self::Fronts,
            RegistrationArg::Both => Self::Both,
        }
    }
}

/// Reads `5/8`, `0.625` or `1` as inches.
pub fn parse_inches(s: &str) -> Result<f64, String> {
    let v = match s.split_once('/') {
        Some((a, b)) => {
            let (a, b): (f64, f64) = (
                a.trim().parse().map_err(|_| bad(s))?,
                b.trim().parse().map_err(|_| bad(s))?,
            );
            if b == 0.0 {
                return Err(bad(s));
            }
            a / b
        }
        None => s.trim().parse().map_err(|_| bad(s))?,
    };
    if v.is_finite() { Ok(v) } else { Err(bad(s)) }
}

/// `v`, read from `s`, when it lies in `lo..=hi`; otherwise a message that says what is
/// allowed.
fn within(
    s: &str,
    v: f64,
    lo: f64,
    hi: f64,
    what: &str,
    unit: &str,
) -> Result<f64, String> {
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        let size = if v < lo { "small" } else { "large" };
        Err(format!(
            "`{s}` is too {size} for {what}: it takes {} to {} {unit}",
            fmt(lo),
            fmt(hi)
        ))
    }
}

/// A length in inches as the options write it (`0.625`, `4`).
fn fmt(v: f64) -> String {
    let t = format!("{v:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Reads a counter's size: inches from 1/4 to 4.
pub fn parse_counter_size(s: &str) -> Result<f64, String> {
    within(s, parse_inches(s)?, 0.25, 4.0, "a counter", "inches")
}

/// Reads a page margin: inches from 0 to 3.
pub fn parse_margin(s: &str) -> Result<f64, String> {
    within(s, parse_inches(s)?, 0.0, 3.0, "a margin", "inches")
}

/// Reads the gap between counters: inches from 0 to 1.
pub fn parse_spacing(s: &str) -> Result<f64, String> {
    within(s, parse_inches(s)?, 0.0, 1.0, "the gap between counters", "inches")
}

/// Reads the bleed: inches from 0 to 1/2.
pub fn parse_bleed(s: &str) -> Result<f64, String> {
    within(s, parse_inches(s)?, 0.0, 0.5, "the bleed", "inches")
}

/// Reads the safe area's margin: inches from 0 to 1/4.
pub fn parse_safe_area(s: &str) -> Result<f64, String> {
    within(s, parse_inches(s)?, 0.0, 0.25, "the safe area", "inches")
}

fn bad(s: &str) -> String {
    format!("`{s}` is not a length in inches (write 5/8 or 0.625)")
}

/// Reads `letter`, `a4` or `8.5x11`.
pub fn parse_sheet(s: &str) -> Result<(f64, f64), String> {
    match s.to_ascii_lowercase().as_str() {
        "letter" => Ok((8.5, 11.0)),
        "a4" => Ok((8.27, 11.69)),
        "legal" => Ok((8.5, 14.0)),
        "tabloid" => Ok((11.0, 17.0)),
        other => {
            let (w, h) = other.split_once('x').ok_or_else(|| {
                format!("`{s}` is not a sheet size (letter, a4, or 8.5x11)")
            })?;
            let side = |v: &str| {
                within(v, parse_inches(v)?, 2.0, 60.0, "a sheet side", "inches a side")
            };
            Ok((side(w)?, side(h)?))
        }
    }
}

/// Reads `X,Y` inches (either may be negative).
pub fn parse_offset(s: &str) -> Result<(f64, f64), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}` is not an offset (write 0.02,-0.01)"))?;
    let num = |v: &str| -> Result<f64, String> {
        let v = v.trim();
        let (neg, v) = v.strip_prefix('-').map_or((false, v), |r| (true, r));
        parse_inches(v).map(|x| if neg { -x } else { x })
    };
    let (x, y) = (num(x)?, num(y)?);
    if x.abs() > 1.0 || y.abs() > 1.0 {
        return Err(format!(
            "`{s}`: a back offset over an inch is not a printer's misregistration"
        ));
    }
    Ok((x, y))
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build everything for each game.
    Build {
        /// Games to build.
        #[command(flatten)]
        games: Games,
        /// Resolution of map images, in dots per inch.
        #[arg(long, default_value_t = 150, value_parser = clap::value_parser!(u32).range(10..=1200))]
        map_dpi: u32,
        /// Counter images and print sheets.
        #[command(flatten)]
        counters: CounterArgs,
        /// Output format of the report.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// After the build, watch --sources and rebuild the games whose files change,
        /// until Ctrl+C.
        #[arg(long)]
        watch: bool,
        /// Exit 1 on any error or warning finding (loading included) that `errata.yaml`
        /// does not acknowledge, so that a CI can gate on it.
        #[arg(long, conflicts_with = "watch")]
        strict: bool,
        /// The last release's sources (a folder of game folders, or a git revision such as
        /// `v1.0.0`): each game lists what changed since as `dist/<game>/changes.md`,
        /// `changes.json` and `changes.pdf`, and on its module's "What's new" help page.
        #[arg(long, value_name = "OLD")]
        since: Option<String>,
    },
    /// Write a new game folder under --sources that builds as it is: one map, a few
    /// counters of each side, a scenario and a stacking rule.
    Init {
        /// The game id, which names its folder (`my-game`).
        id: String,
    },
    /// Remove the build outputs of each game (`counters/`, `maps/`, `dist/`) and the build
    /// cache (`.muster-cache/`) from the output folder.
    Clean {
        /// Games whose outputs to remove. Default: every game, and the whole cache.
        #[command(flatten)]
        games: Games,
        /// Output format of the report of what was removed.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Load each game and check its scenarios' printed setups.
    Validate {
        /// Games to validate.
        #[command(flatten)]
        games: Games,
        /// Only this scenario.
        #[arg(long)]
        scenario: Option<String>,
        /// Output format of the report.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Exit 1 on any error or warning finding (loading included) that `errata.yaml`
        /// does not acknowledge, so that a CI can gate on it.
        #[arg(long)]
        strict: bool,
    },
    /// Cross-check manifest, order of battle, setups and reinforcements.
    Errata {
        /// Games to check.
        #[command(flatten)]
        games: Games,
        /// Output format of the report.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Exit 1 on any error or warning finding (loading included) that `errata.yaml`
        /// does not acknowledge, so that a CI can gate on it.
        #[arg(long)]
        strict: bool,
    },
    /// Check a VASSAL saved game against a module's rules.
    Check {
        /// The saved game (`.vsav`).
        save: PathBuf,
        /// The module (`.vmod`).
        #[arg(long)]
        module: PathBuf,
        /// The scenario the position belongs to.
        #[arg(long)]
        scenario: Option<String>,
        /// Output format of the report.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// List what changed in each game between two states of its sources: counters,
    /// setup lines, rules, tables and map hexes. Exit 0 when nothing did, 1 when
    /// something did, 2 when a state cannot be read.
    Diff {
        /// The older state: a folder holding game folders, or a git revision (`v1.0.0`) of
        /// the repository that holds --sources.
        old: String,
        /// The newer state, likewise. Default: --sources as it is.
        new: Option<String>,
        /// Games to compare.
        #[command(flatten)]
        games: Games,
        /// Output format: Markdown text, or JSON.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Write a new game folder under --sources from an existing VASSAL module: counters
    /// with its art, its hex map, formations, scenarios from its predefined setups and its
    /// charts; list every component it could not carry.
    Import {
        /// The module (`.vmod`).
        module: PathBuf,
        /// The game id, which names the new folder (`my-game`).
        #[arg(long, short = 'g')]
        game: String,
        /// Output format of the report.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// List the pieces of a module's predefined setups, or of a saved game, with their map
    /// and location name.
    Pieces {
        /// A module (`.vmod`) or a saved game (`.vsav`).
        file: PathBuf,
        /// The module whose grids name a saved game's locations.
        #[arg(long)]
        module: Option<PathBuf>,
        /// Output format of the report.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Carry a saved game to another release of its module, as VASSAL's Refresh Counters
    /// does: every piece made anew from the module's palette, keeping where it is, its
    /// stack and its state.
    Migrate {
        /// The saved game (`.vsav`).
        save: PathBuf,
        /// The module of the new release (`.vmod`).
        #[arg(long)]
        module: PathBuf,
        /// Where to write the carried game (never over the saved game itself).
        #[arg(long)]
        out: PathBuf,
        /// Output format of the report.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Serve the browser tables of built games on localhost.
    Serve {
        /// The game whose table `/` opens (default: the first built).
        #[arg(long, short = 'g', value_parser = parse_game_id)]
        game: Option<String>,
        /// Port to listen on (0 picks a free one).
        #[arg(long, default_value_t = 8000)]
        port: u16,
    },
    /// Time a cold build of every game, the raw cost of the same images and archives, a
    /// rebuild with no change, a rebuild after changing one counter, and validation.
    Bench {
        /// Resolution of map images, in dots per inch.
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(10..=1200))]
        map_dpi: u32,
        /// Counter images and print sheets, as for `build`.
        #[command(flatten)]
        counters: CounterArgs,
        /// Where to write the figures.
        #[arg(long, default_value = "dist/bench.json")]
        output: PathBuf,
        /// Instead of the games under --sources, a generated monster game of N counters
        /// (10,000: 12 map sheets, 20 scenarios) and of N/4, and how each figure grows.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(4..=200_000))]
        scale: Option<u32>,
        /// Output format of the figures printed (JSON: what is written to --output).
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Print or write the JSON Schemas of the YAML files.
    Schema {
        /// Write every schema into this folder instead of printing them.
        #[arg(long)]
        write: Option<PathBuf>,
        /// Output format: JSON, the only one.
        #[arg(long, value_enum, default_value_t)]
        format: JsonFormat,
    },
    /// Print a loaded game as JSON: units, formations, scenarios with parsed placements, maps.
    Inspect {
        /// The game.
        #[arg(long, short = 'g', value_parser = parse_game_id)]
        game: String,
        /// Output format: JSON, the only one.
        #[arg(long, value_enum, default_value_t)]
        format: JsonFormat,
    },
}
