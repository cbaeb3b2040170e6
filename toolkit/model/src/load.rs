//! Reading a game folder: discovery, file limits, parsing every document.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::de::DeserializeOwned;

use crate::diag::{Diagnostic, Sources};
use crate::finding::FindingKind;
use crate::game::Game;
use crate::input::{InputError, read_inside};
use crate::source::{
    CountersFile, GameFile, KnownErrata, MapFile, OobFile, RulesFile, ScenarioFile,
};
use crate::span::FileId;
use crate::span::Span;
use crate::validate::{self, Documents};

/// Options for [`load`].
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Largest YAML file accepted, in bytes. Default: 8 MiB.
    pub max_file_bytes: u64,
    /// Game folders (by name) not to load, such as those a build finds up to date.
    /// Default: none.
    pub skip: BTreeSet<String>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions { max_file_bytes: 8 * 1024 * 1024, skip: BTreeSet::new() }
    }
}

/// What loading produced: the games that loaded, and every diagnostic.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The files read, for rendering diagnostics.
    pub sources: Sources,
    /// Games that loaded without errors.
    pub games: Vec<Game>,
    /// Errors and warnings, in file order.
    pub diagnostics: Vec<Diagnostic>,
    /// For each game folder loaded (by name), where its own diagnostics are in
    /// `diagnostics`; the others concern the sources folder as a whole.
    pub of_game: BTreeMap<String, Range<usize>>,
}

impl Loaded {
    /// Were there errors that made input unusable (a game or file that did not load)?
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_fatal)
    }
}

/// The game folders under `root` (those holding a `game.yaml`), sorted by name.
pub fn discover_games(root: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = fs::read_dir(root)
        .map_err(|e| format!("failed to read sources folder {} ({e})", root.display()))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("game.yaml").is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Loads the games under `root`; `only` limits loading to those ids (all when empty).
/// A game id in `only` that has no folder is reported as an error with a suggestion.
pub fn load(root: &Path, only: &[String], options: &LoadOptions) -> Loaded {
    let mut loaded = Loaded::default();
    let dirs = match discover_games(root) {
        Ok(d) => d,
        Err(e) => {
            loaded.diagnostics.push(Diagnostic::error(Span::detached(), e));
            return loaded;
        }
    };
    let names: Vec<String> = dirs
        .iter()
        .filter_map(|d| d.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    // Folders that are not games are said to be skipped (hidden ones, such as a
    // `.muster-*.tmp` staging folder, are not looked at).
    for (dir, why) in not_games(root) {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if only.is_empty() || name.as_ref().is_some_and(|n| only.contains(n)) {
            loaded.diagnostics.push(
                Diagnostic::finding(
                    FindingKind::NotAGame,
                    Span::detached(),
                    format!("skipped {}: it is not a game ({why})", dir.display()),
                )
                .with_hint("a game folder holds game.yaml, oob.yaml and counters.yaml; `muster init <id>` writes one"),
            );
        }
    }
    let skipped: Vec<String> = not_games(root)
        .iter()
        .filter_map(|(d, _)| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for want in only {
        if !names.contains(want) && !skipped.contains(want) {
            loaded.diagnostics.push(
                Diagnostic::error(
                    Span::detached(),
                    format!("no game `{want}` under {}", root.display()),
                )
                .with_expected(format!("one of {}", names.join(", ")))
                .with_suggestion(crate::suggest(want, names.iter().map(String::as_str))),
            );
        }
    }
    for (dir, name) in dirs.iter().zip(&names) {
        if !only.is_empty() && !only.contains(name) || options.skip.contains(name) {
            continue;
        }
        let start = loaded.diagnostics.len();
        match load_game(dir, &mut loaded.sources, options) {
            Ok((game, warnings)) => {
                loaded.diagnostics.extend(warnings);
                loaded.games.push(game);
            }
            Err(errors) => loaded.diagnostics.extend(errors),
        }
        loaded.of_game.insert(name.clone(), start..loaded.diagnostics.len());
    }
    loaded
}

/// The folders under `root` that are not games (no `game.yaml`), with why; hidden folders
/// (starting with `.`) are not looked at.
fn not_games(root: &Path) -> Vec<(PathBuf, String)> {
    let Ok(entries) = fs::read_dir(root) else { return vec![] };
    let mut out: Vec<(PathBuf, String)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.join("game.yaml").is_file())
        .filter(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .map(|p| {
            let why = if p.join("game.yml").is_file() {
                "it has game.yml; muster reads game.yaml".to_string()
            } else {
                "it has no game.yaml".to_string()
            };
            (p, why)
        })
        .collect();
    out.sort();
    out
}

/// Loads one game folder. Returns the game and its warnings, or every error found.
pub fn load_game(
    dir: &Path,
    sources: &mut Sources,
    options: &LoadOptions,
) -> Result<(Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    // Every file is read first, in order, so that spans number them as before; the texts
    // are then parsed side by side (the manifest, the largest, beside the others), and
    // what failed is reported in file order.
    let mut reader = Reader { dir, sources, options };
    let game = reader.required(&dir.join("game.yaml"));
    let oob = reader.required(&dir.join("oob.yaml"));
    let counters = reader.required(&dir.join("counters.yaml"));
    let rules = reader.optional(&dir.join("rules.yaml"));
    let errata = reader.optional(&dir.join("errata.yaml"));
    let maps = reader.folder(&dir.join("maps"));
    let scenarios = reader.folder(&dir.join("scenarios"));
    let read: &Sources = sources;
    let (counters, (game, oob, rules, errata, maps, scenarios)) = rayon::join(
        || counters.parse::<CountersFile>(read),
        || {
            (
                game.parse::<GameFile>(read),
                oob.parse::<OobFile>(read),
                rules.parse::<RulesFile>(read),
                errata.parse::<KnownErrata>(read),
                parse_folder::<MapFile>(maps, read),
                parse_folder::<ScenarioFile>(scenarios, read),
            )
        },
    );
    let mut errors = Vec::new();
    let game = keep(game, &mut errors).flatten();
    let oob = keep(oob, &mut errors).flatten();
    let counters = keep(counters, &mut errors).flatten();
    let rules = keep(rules, &mut errors).map(Option::unwrap_or_default);
    let errata = keep(errata, &mut errors).map(Option::unwrap_or_default);
    let maps = kept_folder(maps, &mut errors);
    let scenarios = kept_folder(scenarios, &mut errors);
    let mut warnings = unknown_files(dir);
    let (Some(game), Some(oob), Some(counters), Some(rules), Some(errata)) =
        (game, oob, counters, rules, errata)
    else {
        return Err(errors);
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let counters_path = dir.join("counters.yaml");
    if counters.groups.iter().all(|g| g.counters.is_empty())
        && counters.markers.is_empty()
    {
        let at = sources.find(&counters_path).map_or(Span::detached(), Span::file_start);
        return Err(vec![
            Diagnostic::error(at, "failed to load the manifest (it lists no counters)")
                .with_expected("`groups` with `counters`, or `markers`"),
        ]);
    }
    let docs = Documents { game, oob, counters, rules, maps, scenarios, errata };
    let (mut game, w) = validate::build(dir, docs, sources)?;
    warnings.extend(w);
    // Templates, art and painted maps, once every reference of the YAML holds.
    let errors = crate::artwork::attach(&mut game, sources);
    if !errors.is_empty() {
        return Err(errors);
    }
    warnings.extend(crate::side_contrast::check(&game));
    if let Some(why) = &game.rules.stacking_unknown {
        warnings.push(
            Diagnostic::finding(
                FindingKind::UnknownRule,
                why.span,
                format!(
                    "the setups of {} are not checked against stacking rules: the text gives none ({})",
                    game.id, why.v
                ),
            )
            .with_subject(game.id.clone()),
        );
    } else if !game.scenarios.is_empty() && game.rules.stacking.is_empty() {
        let rules = dir.join("rules.yaml");
        let (at, why) = match sources.find(&rules) {
            Some(f) => (Span::file_start(f), "it states no `stacking` rule"),
            None => (Span::detached(), "the game has no rules.yaml"),
        };
        warnings.push(
            Diagnostic::finding(
                FindingKind::NoStackingRules,
                at,
                format!(
                    "the setups of {} are not checked against stacking rules ({why})",
                    game.id
                ),
            )
            .with_subject(game.id.clone())
            .with_hint(format!(
                "state the rulebook's stacking rules in {}, or record why the text gives none with `stacking_unknown` (see muster's book, docs/book/src/files/rules.md)",
                rules.display()
            )),
        );
    }
    for w in &mut warnings {
        if let (Some(kind), Some(subject)) = (w.kind, w.subject.as_mut()) {
            subject.known = game
                .known_errata
                .known
                .iter()
                .find(|k| k.kind.v == kind && k.subject.v == subject.name)
                .map(|k| k.note.clone().unwrap_or_default());
        }
    }
    Ok((game, warnings))
}

/// Reads a game's files into the table of sources, in order, for parsing after.
struct Reader<'a> {
    /// The game's folder, which every file read must be inside.
    dir: &'a Path,
    sources: &'a mut Sources,
    options: &'a LoadOptions,
}

/// A file read for parsing.
enum Text {
    /// Its text, in the table of sources.
    Read(FileId),
    /// An optional file that is not there: its document is the default.
    Absent,
    /// Why it could not be read.
    Failed(Diagnostic),
}

impl Text {
    /// The document the file holds, none when it is an absent optional file, or why it
    /// does not read as `T`.
    fn parse<T: DeserializeOwned>(
        self,
        sources: &Sources,
    ) -> Result<Option<T>, Diagnostic> {
        let file = match self {
            Text::Read(file) => file,
            Text::Absent => return Ok(None),
            Text::Failed(d) => return Err(d),
        };
        let text = sources.get(file).map_or("", |f| f.text.as_str());
        if is_empty_document(text) {
            return Err(Diagnostic::error(
                Span::file_start(file),
                "failed to load the file (it is empty)",
            )
            .with_hint(
                "write its content (an optional file such as rules.yaml or errata.yaml may be removed instead)",
            ));
        }
        crate::yaml::parse_yaml::<T>(file, text).map(Some)
    }
}

/// The documents of a folder's files, side by side, each with its path.
fn parse_folder<T: DeserializeOwned + Send>(
    texts: Vec<(PathBuf, Text)>,
    sources: &Sources,
) -> Vec<(PathBuf, Result<Option<T>, Diagnostic>)> {
    texts.into_par_iter().map(|(path, text)| (path, text.parse(sources))).collect()
}

/// What was parsed, or none with the failure added to `errors`.
fn keep<T>(parsed: Result<T, Diagnostic>, errors: &mut Vec<Diagnostic>) -> Option<T> {
    parsed.map_err(|d| errors.push(d)).ok()
}

/// A folder's documents that parsed, in order, each failure added to `errors`.
fn kept_folder<T>(
    parsed: Vec<(PathBuf, Result<Option<T>, Diagnostic>)>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(PathBuf, T)> {
    parsed
        .into_iter()
        .filter_map(|(path, p)| keep(p, errors).flatten().map(|v| (path, v)))
        .collect()
}

impl Reader<'_> {
    fn read(&mut self, path: &Path) -> Text {
        self.read_or(path, |e| Text::Failed(e.at(Span::detached(), path.display())))
    }

    /// Reads `path`, inside the game's folder and within the limit; `missing` says what an
    /// absent file is.
    fn read_or(&mut self, path: &Path, missing: impl FnOnce(InputError) -> Text) -> Text {
        match read_inside(self.dir, path, self.options.max_file_bytes) {
            Ok(bytes) => self.text(path, bytes),
            Err(e) if e.is_missing() => missing(e),
            Err(e) => Text::Failed(e.at(Span::detached(), path.display())),
        }
    }

    /// The file's bytes as its text in the table of sources, or where they are not UTF-8.
    fn text(&mut self, path: &Path, bytes: Vec<u8>) -> Text {
        match String::from_utf8(bytes) {
            Ok(text) => Text::Read(self.sources.add(path.to_path_buf(), text)),
            Err(e) => {
                let off = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let line = text[..off.min(text.len())].matches('\n').count() as u32 + 1;
                let file = self.sources.add(path.to_path_buf(), text);
                Text::Failed(Diagnostic::error(
                    Span { file, line, column: 1, offset: off as u32, len: 1 },
                    "failed to read the file (it is not valid UTF-8)",
                ))
            }
        }
    }

    fn required(&mut self, path: &Path) -> Text {
        self.read_or(path, |_| {
            Text::Failed(
                Diagnostic::error(
                    Span::detached(),
                    format!("failed to load the game (missing {})", path.display()),
                )
                .with_expected(
                    "game.yaml, oob.yaml and counters.yaml in every game folder",
                ),
            )
        })
    }

    fn optional(&mut self, path: &Path) -> Text {
        self.read_or(path, |_| Text::Absent)
    }

    fn folder(&mut self, dir: &Path) -> Vec<(PathBuf, Text)> {
        let Ok(entries) = fs::read_dir(dir) else { return vec![] };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
            .collect();
        paths.sort();
        paths
            .into_iter()
            .map(|p| {
                let t = self.read(&p);
                (p, t)
            })
            .collect()
    }
}

/// Does a YAML text hold no document: nothing but blank lines, comments and document
/// markers?
fn is_empty_document(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with('#') || l == "---" || l == "...")
}

fn unknown_files(dir: &Path) -> Vec<Diagnostic> {
    const KNOWN: [&str; 5] =
        ["game.yaml", "oob.yaml", "counters.yaml", "rules.yaml", "errata.yaml"];
    let Ok(entries) = fs::read_dir(dir) else { return vec![] };
    let mut out = Vec::new();
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
        .collect();
    names.sort();
    for n in names {
        if !KNOWN.contains(&n.as_str()) {
            out.push(
                Diagnostic::finding(
                    FindingKind::UnreadFile,
                    Span::detached(),
                    format!("{} is not a file muster reads", dir.join(&n).display()),
                )
                .with_expected(format!(
                    "{}, maps/*.yaml or scenarios/*.yaml",
                    KNOWN.join(", ")
                ))
                .with_suggestion(crate::suggest(&n, KNOWN)),
            );
        }
    }
    out
}
