//! Progress bars for long stages: drawn on a terminal, hidden when stderr is not one
//! (CI, pipes) or with `--quiet`.

use std::io::IsTerminal;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The progress display: bars of games building side by side, one line each.
#[derive(Debug, Clone)]
pub struct Progress {
    bars: Option<MultiProgress>,
}

impl Progress {
    /// Progress on stderr, unless `quiet` or stderr is not a terminal.
    pub fn new(quiet: bool) -> Self {
        let shown = !quiet && std::io::stderr().is_terminal();
        Progress {
            bars: shown.then(|| {
                MultiProgress::with_draw_target(ProgressDrawTarget::stderr_with_hz(10))
            }),
        }
    }

    /// A bar for one stage of a game's build, counting `len` steps; cleared when dropped.
    pub fn stage(&self, game: &str, stage: &str, len: usize) -> Stage {
        let Some(bars) = &self.bars else { return Stage(None) };
        let bar = bars.add(ProgressBar::new(len as u64));
        let style = ProgressStyle::with_template(
            "{prefix:>18.bold} {msg:<9} [{bar:32}] {pos}/{len} {elapsed}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(game.to_string());
        bar.set_message(stage.to_string());
        Stage(Some(bar))
    }
}

/// One stage's bar.
#[derive(Debug)]
pub struct Stage(Option<ProgressBar>);

impl Stage {
    /// Counts one step done.
    pub fn inc(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }
}

impl Drop for Stage {
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
        let p = Progress::new(true);
        let stage = p.stage("game", "counters", 3);
        stage.inc();
        assert!(stage.0.is_none());
    }
}
