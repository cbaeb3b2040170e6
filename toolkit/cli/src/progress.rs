//! Progress bars for long stages: drawn on a terminal, hidden when stderr is not one
//! (CI, pipes) or with `--quiet`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether progress is shown.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    shown: bool,
}

impl Progress {
    /// Progress on stderr, unless `quiet` or stderr is not a terminal.
    pub fn new(quiet: bool) -> Self {
        Progress { shown: !quiet && std::io::stderr().is_terminal() }
    }

    /// A bar for one stage of a game's build, counting `len` steps; cleared when dropped.
    pub fn stage(&self, game: &str, stage: &str, len: usize) -> Stage {
        if !self.shown {
            return Stage(None);
        }
        let bar = ProgressBar::with_draw_target(
            Some(len as u64),
            ProgressDrawTarget::stderr_with_hz(10),
        );
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
