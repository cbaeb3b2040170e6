//! How a build tells its caller what it is doing: a trait the caller implements (a
//! terminal's progress bars, an editor's status line), or [`NoProgress`].

use muster_model::Loaded;

/// Receives a build's progress. Every method has a default that does nothing. Games build
/// side by side and stages spread over threads, so calls come from several threads.
pub trait Progress: Sync {
    /// The games are loaded (before any is built); `loaded` holds every diagnostic. A game
    /// whose last build still stands is not loaded again (it is not in `loaded.games`), but
    /// its diagnostics, as that build found them, are there.
    fn loaded(&self, loaded: &Loaded) {
        let _ = loaded;
    }

    /// A stage of a game starts: `stage` is `maps`, `counters`, `sheets` or `module`, and
    /// `steps` how many steps it counts. The stage ends when the returned value is dropped.
    fn stage(&self, game: &str, stage: &str, steps: usize) -> Box<dyn Steps + '_> {
        let _ = (game, stage, steps);
        Box::new(NoProgress)
    }
}

/// The steps of one stage of one game.
pub trait Steps: Send + Sync {
    /// One step is done.
    fn step(&self) {}
}

/// Progress that goes nowhere.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

impl Steps for NoProgress {}
