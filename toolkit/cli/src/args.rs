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

/// Which games a command works on.
#[derive(Debug, Args, Clone)]
pub struct Games {
    /// A game id (`gazala-scs`); repeat for several. Default: every game under --sources.
    #[arg(long = "game", short = 'g')]
    pub games: Vec<String>,
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
        /// Output format of the report.
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
    },
    /// Cross-check manifest, order of battle, setups and reinforcements.
    Errata {
        /// Games to check.
        #[command(flatten)]
        games: Games,
        /// Output format of the report.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
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
    /// Measure muster against the raw cost of rendering and encoding the same images.
    Bench {
        /// Map resolutions to measure, in dots per inch.
        #[arg(long = "map-dpi", default_values_t = [150u32, 300])]
        map_dpi: Vec<u32>,
        /// Where to write the figures.
        #[arg(long, default_value = "dist/bench.json")]
        output: PathBuf,
    },
    /// Print or write the JSON Schemas of the YAML files.
    Schema {
        /// Write every schema into this folder instead of printing them.
        #[arg(long)]
        write: Option<PathBuf>,
    },
    /// Print a loaded game as JSON: units, formations, scenarios with parsed placements, maps.
    Inspect {
        /// The game.
        #[arg(long, short = 'g')]
        game: String,
    },
}
