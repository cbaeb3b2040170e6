//! Watching the sources for changes: which games' files changed, gathered until the files
//! have been quiet for a moment, and the rebuild of those games after each change.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::path::{Component, Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use notify::{RecursiveMode, Watcher as _};

use crate::error::{Error, ErrorKind, Result};
use crate::pipeline::Build;
use crate::progress::Progress;
use crate::report::BuildReport;

/// What the watcher hears.
enum Event {
    /// Files changed.
    Changed(Vec<PathBuf>),
    /// The file system watch failed.
    Failed(notify::Error),
    /// The caller asked the watch to end.
    Stop,
}

/// Ends a watch from another thread (a Ctrl-C handler): the watch finishes the build it is
/// running, if any, and returns.
#[derive(Debug, Clone)]
pub struct Stopper(Sender<Event>);

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Changed(paths) => write!(f, "Changed({paths:?})"),
            Event::Failed(e) => write!(f, "Failed({e})"),
            Event::Stop => f.write_str("Stop"),
        }
    }
}

impl Stopper {
    /// Ends the watch.
    pub fn stop(&self) {
        let _ = self.0.send(Event::Stop);
    }
}

/// A watch of every file under a sources folder.
pub struct Watcher {
    sources: PathBuf,
    events: Receiver<Event>,
    sender: Sender<Event>,
    _watch: notify::RecommendedWatcher,
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").field("sources", &self.sources).finish_non_exhaustive()
    }
}

impl Watcher {
    /// Starts watching every file under `sources` (which must exist).
    pub fn new(sources: &Path) -> Result<Self> {
        let sources = sources.canonicalize().map_err(|e| {
            Error::with_source(
                ErrorKind::Sources,
                format!("failed to watch {}", sources.display()),
                e,
            )
        })?;
        let (sender, events) = mpsc::channel();
        let tx = sender.clone();
        let mut watch =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let _ = tx.send(match event {
                    // Reading a file (as a build does) changes nothing, and neither does
                    // a new access time.
                    Ok(e) if !changes_content(&e.kind) => return,
                    Ok(e) => Event::Changed(e.paths),
                    Err(e) => Event::Failed(e),
                });
            })
            .map_err(|e| watch_error(&sources, e))?;
        watch
            .watch(&sources, RecursiveMode::Recursive)
            .map_err(|e| watch_error(&sources, e))?;
        Ok(Watcher { sources, events, sender, _watch: watch })
    }

    /// A handle that ends the watch from another thread.
    pub fn stopper(&self) -> Stopper {
        Stopper(self.sender.clone())
    }

    /// Waits for files to change, then gathers changes until none has come for `quiet`;
    /// returns the ids of the games whose files changed, or nothing once stopped.
    pub fn next_change(&self, quiet: Duration) -> Result<Option<BTreeSet<String>>> {
        let mut games = BTreeSet::new();
        let first = self.events.recv().unwrap_or(Event::Stop);
        let mut event = Some(first);
        while let Some(e) = event.take() {
            match e {
                Event::Stop => return Ok(None),
                Event::Failed(err) => return Err(watch_error(&self.sources, err)),
                Event::Changed(paths) => {
                    games.extend(paths.iter().filter_map(|p| game_of(&self.sources, p)))
                }
            }
            event = match self.events.recv_timeout(quiet) {
                Ok(e) => Some(e),
                Err(RecvTimeoutError::Timeout) if games.is_empty() => {
                    // Only files outside any game changed: wait for the next change.
                    self.events.recv().ok().or(Some(Event::Stop))
                }
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(Event::Stop),
            };
        }
        Ok(Some(games))
    }
}

/// Whether an event can change what a build reads: not an access, not a change of a
/// file's times or permissions.
fn changes_content(kind: &notify::EventKind) -> bool {
    use notify::EventKind;
    use notify::event::ModifyKind;
    !matches!(kind, EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_)))
}

fn watch_error(sources: &Path, e: notify::Error) -> Error {
    Error::with_source(
        ErrorKind::Watch,
        format!("failed to watch {}", sources.display()),
        e,
    )
}

/// The game a changed path belongs to: the folder directly under `sources` that holds it,
/// unless its name starts with a dot (temporary and hidden folders).
fn game_of(sources: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(sources).ok()?;
    let first = rel.components().next()?;
    let Component::Normal(name) = first else { return None };
    let name = name.to_str()?;
    (!name.starts_with('.') && rel.components().count() > 1).then(|| name.to_string())
}

/// After each change `watcher` sees, rebuilds the games whose files changed (of those
/// `build`'s settings select) and hands the result to `after`, until the watch is stopped
/// or `after` breaks. A game that no longer loads is reported in its result like any
/// other, and a build that fails is handed over as its error; the watch goes on.
pub fn watch(
    build: &Build,
    watcher: &Watcher,
    progress: &dyn Progress,
    quiet: Duration,
    mut after: impl FnMut(Result<BuildReport>) -> ControlFlow<()>,
) -> Result<()> {
    let selected = &build.settings().games;
    while let Some(changed) = watcher.next_change(quiet)? {
        let games: Vec<String> = changed
            .into_iter()
            .filter(|g| selected.is_empty() || selected.contains(g))
            .collect();
        if !games.is_empty() && after(build.run_games(&games, progress)).is_break() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_paths_name_their_game() {
        let s = Path::new("/x/sources");
        assert_eq!(
            game_of(s, Path::new("/x/sources/oasis/counters.yaml")).as_deref(),
            Some("oasis")
        );
        assert_eq!(
            game_of(s, Path::new("/x/sources/oasis/maps/a.yaml")).as_deref(),
            Some("oasis")
        );
        assert_eq!(game_of(s, Path::new("/x/sources/notes.txt")), None);
        assert_eq!(game_of(s, Path::new("/x/sources/.muster-1.tmp/game.yaml")), None);
        assert_eq!(game_of(s, Path::new("/x/elsewhere/oasis/game.yaml")), None);
    }

    #[test]
    fn a_change_under_a_game_is_heard_and_a_stop_ends_the_watch() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("g1")).unwrap();
        let watcher = Watcher::new(tmp.path()).unwrap();
        std::fs::write(tmp.path().join("g1/game.yaml"), "id: g1\n").unwrap();
        let games = watcher.next_change(Duration::from_millis(100)).unwrap().unwrap();
        assert_eq!(games.into_iter().collect::<Vec<_>>(), vec!["g1".to_string()]);
        watcher.stopper().stop();
        assert_eq!(watcher.next_change(Duration::from_millis(100)).unwrap(), None);
    }
}
