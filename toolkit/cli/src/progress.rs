//! Progress bars for long stages: drawn on a terminal, hidden when stderr is not one
//! (CI, pipes) or with `--quiet`.

use std::io::IsTerminal;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use muster_build::{Progress, Steps};
use muster_model::Loaded;

use crate::args::Format;
use crate::report::print_diagnostics;

/// The progress display of a build: bars of games building side by side, one line each,
/// and the diagnostics of loading as soon as the games are loaded.
#[derive(Debug, Clone)]
pub struct Bars {
    bars: Option<MultiProgress>,
    format: Format,
}

impl Bars {
    /// Progress on stderr, unless `quiet` or stderr is not a terminal; diagnostics are
    /// printed for text reports and, for JSON reports, when a game does not load.
    pub fn new(quiet: bool, format: Format) -> Self {
        let shown = !quiet && format == Format::Text && std::io::stderr().is_terminal();
        Bars {
            bars: shown.then(|| {
                MultiProgress::with_draw_target(ProgressDrawTarget::stderr_with_hz(10))
            }),
            format,
        }
    }
}

impl Progress for Bars {
    fn loaded(&self, loaded: &Loaded) {
        if self.format == Format::Text || loaded.has_errors() {
            print_diagnostics(&loaded.sources, &loaded.diagnostics);
        }
    }

    fn stage(&self, game: &str, stage: &str, steps: usize) -> Box<dyn Steps + '_> {
        let Some(bars) = &self.bars else { return Box::new(Bar(None)) };
        let bar = bars.add(ProgressBar::new(steps as u64));
        let style = ProgressStyle::with_template(
            "{prefix:>18.bold} {msg:<9} [{bar:32}] {pos}/{len} {elapsed}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(game.to_string());
        bar.set_message(stage.to_string());
        Box::new(Bar(Some(bar)))
    }
}

/// One stage's bar; cleared when dropped.
#[derive(Debug)]
struct Bar(Option<ProgressBar>);

impl Steps for Bar {
    fn step(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_progress_draws_nothing() {
        let p = Bars::new(true, Format::Text);
        assert!(p.bars.is_none());
        let stage = p.stage("game", "counters", 3);
        stage.step();
    }
}
