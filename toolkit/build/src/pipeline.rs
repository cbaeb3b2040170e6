//! [`Build`]: the stages of every selected game, in order, skipping games whose inputs and
//! outputs are as the last build left them and drawing only what the cache does not hold.

use std::time::Instant;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Mutex;

use muster_check::{Finding, Solution};
use muster_model::{Diagnostic, Game, LoadOptions, Loaded};
use muster_render::FaceArts;
use rayon::prelude::*;

use crate::cache::{Cache, GameCache, Key, Standing};
use crate::error::{Error, ErrorKind, Result};
use crate::layout::{cache_dir, game_outputs};
use crate::output::{LastObjects, Outputs, files_of};
use crate::progress::Progress;
use crate::report::{Attention, BuildReport, GameReport};
use crate::settings::Settings;
use crate::stages::{self, Context};
use crate::stored::StoredDiagnostic;
use crate::sync::lock;

/// A build: its settings and muster's identity, which keys the cache. One `Build` can run
/// any number of times (a watch rebuilds with the same one).
#[derive(Debug)]
pub struct Build {
    settings: Settings,
    identity: blake3::Hash,
}

impl Build {
    /// A build with these settings. Fails when a game selected is not a game id
    /// ([`crate::layout::game_id`]) and when muster's own executable cannot be read (its
    /// bytes are part of every cache key).
    pub fn new(settings: Settings) -> Result<Self> {
        for id in &settings.games {
            crate::layout::game_id(id)?;
        }
        let identity = crate::identity::identity(&cache_dir(&settings.out))?;
        Ok(Build { settings, identity })
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Loads the selected games and runs every stage of each (load → check → render →
    /// package), games side by side, telling `progress` as it goes. Games that fail to
    /// load are not built and their diagnostics are in the report; a stage that fails
    /// stops the build with an error and leaves that game's previous outputs as they were.
    pub fn run(&self, progress: &dyn Progress) -> Result<BuildReport> {
        self.run_games(&self.settings.games, progress)
    }

    /// [`Build::run`] for the games `games` (every game when empty) instead of those of the
    /// settings.
    pub fn run_games(
        &self,
        games: &[String],
        progress: &dyn Progress,
    ) -> Result<BuildReport> {
        let cache = self.cache(false);
        self.run_with(&cache, games, progress)
    }

    /// The cache under the output folder; `record` keeps what it draws for the benchmark.
    pub(crate) fn cache(&self, record: bool) -> Cache {
        Cache::with_identity(cache_dir(&self.settings.out), self.identity, record)
    }

    /// [`Build::run_games`] through `cache`.
    pub(crate) fn run_with(
        &self,
        cache: &Cache,
        games: &[String],
        progress: &dyn Progress,
    ) -> Result<BuildReport> {
        let started = Instant::now();
        let out = &self.settings.out;
        crate::layout::usable_out(out)?;
        // Held to the end of the build: one muster at a time writes into `out`.
        let _lock = crate::out_lock::OutLock::take(out)?;
        // Games whose last build still stands are not loaded again: their reports and
        // diagnostics come from their stamps.
        let checked = self.standing(cache, games);
        let standing: BTreeMap<&str, &Standing> = checked
            .iter()
            .filter_map(|(name, _, s)| Some((name.as_str(), s.as_ref()?)))
            .collect();
        let keys: BTreeMap<&str, Key> = checked
            .iter()
            .filter_map(|(name, key, _)| Some((name.as_str(), (*key)?)))
            .collect();
        let options = LoadOptions {
            skip: standing.keys().map(|n| n.to_string()).collect(),
            ..LoadOptions::default()
        };
        // Loading the games goes beside reading what the last build of each game to
        // build left: the files it wrote from cache objects, still as it left them.
        let (mut loaded, last) = rayon::join(
            || muster_model::load(&self.settings.sources, games, &options),
            || {
                keys.par_iter()
                    .filter(|(name, _)| !standing.contains_key(*name))
                    .map(|(name, key)| {
                        let owned = game_outputs(&self.settings.out, name);
                        (name.to_string(), (*key, cache.last_objects(name, &owned)))
                    })
                    .collect::<HashMap<String, (Key, LastObjects)>>()
            },
        );
        let last = Mutex::new(last);
        // The counters' text is fitted to their templates before anything is drawn, so
        // what does not fit is reported with the rest of the game's findings.
        // So is a map legend that has to cover hexes.
        // Every counter side is drawn once here, for the check and for all that shows it.
        // Each game's counter sides are drawn in runs kept in its view of the cache.
        let margins = muster_render::sheet::art_margins(&self.settings.counters.sheet);
        let views: Vec<GameCache> =
            loaded.games.iter().map(|_| GameCache::new(cache)).collect();
        let drawn = loaded
            .games
            .par_iter()
            .zip(&views)
            .map(|(g, view)| -> Result<_> {
                let keep = view.keeper(ErrorKind::Render, &g.id);
                let size = self.settings.counters.sheet.counter_in;
                let arts =
                    FaceArts::draw_kept(g, margins, size, &*keep).map_err(|e| {
                        Error::new(
                            ErrorKind::Render,
                            format!("failed to draw the counters of {} ({e})", g.id),
                        )
                    })?;
                let mut found = muster_render::fit::check(g, &arts);
                found.extend(muster_render::map::check(g));
                Ok((found, arts))
            })
            .collect::<Result<Vec<_>>>()?;
        let (misfits, arts): (Vec<Vec<Diagnostic>>, Vec<FaceArts>) =
            drawn.into_iter().unzip();
        // Each game's diagnostics together, games in order, after those of the sources
        // folder as a whole; a standing game's as its stamp kept them.
        let mut of_game: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        let mut whole = Vec::new();
        for (i, d) in std::mem::take(&mut loaded.diagnostics).into_iter().enumerate() {
            match loaded.of_game.iter().find(|(_, r)| r.contains(&i)) {
                Some((name, _)) => of_game.entry(name.clone()).or_default().push(d),
                None => whole.push(d),
            }
        }
        for (game, found) in loaded.games.iter().zip(misfits) {
            of_game.entry(folder_name(game)).or_default().extend(found);
        }
        for (name, s) in &standing {
            let kept = of_game.entry(name.to_string()).or_default();
            kept.extend(s.diagnostics.iter().map(|d| d.restore(&mut loaded.sources)));
        }
        loaded.of_game.clear();
        loaded.diagnostics = whole;
        for (name, found) in of_game {
            let start = loaded.diagnostics.len();
            loaded.diagnostics.extend(found);
            loaded.of_game.insert(name, start..loaded.diagnostics.len());
        }
        let mut phase_seconds = BTreeMap::new();
        phase_seconds.insert("load".to_string(), started.elapsed().as_secs_f64());
        progress.loaded(&loaded);
        // Games build side by side; their reports come in order.
        let built: Vec<Result<GameReport>> = loaded
            .games
            .par_iter()
            .zip(&arts)
            .zip(views)
            .map(|((game, arts), view)| {
                let known = if folder_name(game) == game.id {
                    lock(&last).remove(&game.id)
                } else {
                    None
                };
                self.build_or_skip(game, arts, known, &loaded, view, progress)
            })
            .collect();
        // The counters' drawings are freed beside the rest of the build's end.
        rayon::spawn(move || drop(arts));
        let mut reports = built.into_iter().collect::<Result<Vec<_>>>()?;
        for (name, s) in &standing {
            let mut report = s.report.clone();
            remove_temporaries_beside(&game_outputs(&self.settings.out, name))?;
            report.up_to_date = true;
            report.cache = Default::default();
            report.seconds = 0.0;
            report.left.clear();
            reports.push(report);
        }
        reports.sort_by(|a, b| a.game.cmp(&b.game));
        if games.is_empty() && !loaded.has_errors() {
            let pruning = Instant::now();
            cache.prune()?;
            phase_seconds.insert("prune".to_string(), pruning.elapsed().as_secs_f64());
        }
        // What the commits replaced was freed beside the build's last steps.
        cache.trash().wait();
        Ok(BuildReport {
            loaded,
            games: reports,
            seconds: started.elapsed().as_secs_f64(),
            phase_seconds,
        })
    }

    /// The selected game folders (by name) with their keys and, for those whose last build
    /// still stands (inputs and outputs as it left them), what its stamp says. A game whose
    /// id is not its folder's name is always loaded, and checked once loaded.
    fn standing(
        &self,
        cache: &Cache,
        games: &[String],
    ) -> Vec<(String, Option<Key>, Option<Standing>)> {
        let Ok(dirs) = muster_model::discover_games(&self.settings.sources) else {
            return Vec::new();
        };
        dirs.par_iter()
            .filter_map(|dir| {
                let name = dir.file_name()?.to_string_lossy().into_owned();
                if !games.is_empty() && !games.contains(&name) {
                    return None;
                }
                let key = cache.game_key(dir, &name, &self.settings.key()).ok();
                let owned = game_outputs(&self.settings.out, &name);
                let standing =
                    key.as_ref().and_then(|k| cache.up_to_date(&name, k, &owned));
                Some((name, key, standing))
            })
            .collect()
    }

    /// Builds one game, or reports it up to date when its inputs and outputs are as its
    /// last build left them. `known` is the game's key when [`Build::standing`] worked it
    /// out and found the game's last build no longer stands, so it is not looked at again,
    /// with the outputs that build wrote from cache objects ([`Cache::last_objects`]);
    /// `view` is the game's view of the cache, which drew `arts`.
    fn build_or_skip(
        &self,
        game: &Game,
        arts: &FaceArts,
        known: Option<(Key, LastObjects)>,
        loaded: &Loaded,
        view: GameCache,
        progress: &dyn Progress,
    ) -> Result<GameReport> {
        let cache = view.whole();
        let t = Instant::now();
        let out = &self.settings.out;
        crate::layout::unlinked_outputs(out, &game.id)?;
        let owned = game_outputs(out, &game.id);
        let (key, last) = match known {
            Some(known) => known,
            None => {
                let k = cache.game_key(&game.dir, &game.id, &self.settings.key())?;
                if let Some(standing) = cache.up_to_date(&game.id, &k, &owned) {
                    remove_temporaries_beside(&owned)?;
                    let mut report = standing.report;
                    report.up_to_date = true;
                    report.left.clear();
                    report.cache = Default::default();
                    report.seconds = t.elapsed().as_secs_f64();
                    return Ok(report);
                }
                (k, cache.last_objects(&game.id, &owned))
            }
        };
        let ctx = Context {
            out,
            outputs: Outputs::with_last(last),
            cache: view,
            progress,
            game: &game.id,
        };
        let mut report = self.build_game(&ctx, game, arts, loaded)?;
        let warned = loaded.diagnostics.iter().any(|d| d.needs_attention());
        if self.settings.strict && (warned || !report.attention.is_empty()) {
            // A strict build with findings fails: the staged outputs go when `ctx` drops.
            report.seconds = t.elapsed().as_secs_f64();
            report.cache = ctx.cache.report();
            return Ok(report);
        }
        let committing = Instant::now();
        ctx.outputs.commit_keeping(cache.trash())?;
        // One walk of the game's folders: the sweep removes what the build did not write
        // there (temporary files too), and the stamp records what stays.
        let left = ctx.outputs.sweep_files(&owned, files_of(&owned))?;
        remove_temporaries_beside(&owned)?;
        report.left = ctx.outputs.left_alone();
        report.seconds = t.elapsed().as_secs_f64();
        let diagnostics = loaded
            .of_game
            .get(&folder_name(game))
            .map(|r| {
                loaded.diagnostics[r.clone()]
                    .iter()
                    .map(|d| StoredDiagnostic::keep(d, &loaded.sources))
                    .collect()
            })
            .unwrap_or_default();
        cache.stamp(
            &ctx.cache,
            &game.id,
            &key,
            &left,
            &ctx.outputs,
            &report,
            diagnostics,
        )?;
        report.stage_seconds.insert("commit".into(), committing.elapsed().as_secs_f64());
        report.seconds = t.elapsed().as_secs_f64();
        report.up_to_date = false;
        report.cache = ctx.cache.report();
        // What the outputs recorded is freed beside the rest of the build's end.
        let outputs = ctx.outputs;
        rayon::spawn(move || drop(outputs));
        Ok(report)
    }

    /// Every stage of one game: counters, then model and sheets beside maps and setups
    /// (side by side) followed by errata beside module; `arts` are its counter sides, drawn.
    fn build_game(
        &self,
        ctx: &Context,
        game: &Game,
        arts: &FaceArts,
        loaded: &Loaded,
    ) -> Result<GameReport> {
        let settings = &self.settings;
        let mut report = GameReport { game: game.id.clone(), ..GameReport::default() };
        let whats_new = match &settings.since {
            Some(since) => {
                let t = Instant::now();
                let date = settings.counters.sheet_date;
                let changes = stages::changes::write_changes(ctx, game, since, date)?;
                report.stage_seconds.insert("changes".into(), t.elapsed().as_secs_f64());
                changes
            }
            None => None,
        };
        let t = Instant::now();
        let sides = stages::counters::render_sides(ctx, game, arts, &settings.counters)?;
        report.stage_seconds.insert("counters".into(), t.elapsed().as_secs_f64());
        // The model and the print sheets go side by side with the stages after them,
        // which do not read them. (The counter sides come first: the module draws the
        // same images, which are then in the cache.)
        let (counters, rest) = rayon::join(
            || -> Result<_> {
                let t = Instant::now();
                stages::model::write_model(ctx, game)?;
                let model = t.elapsed().as_secs_f64();
                let t = Instant::now();
                let sheets = stages::counters::render_sheets(
                    ctx,
                    game,
                    arts,
                    &settings.counters,
                    sides,
                )?;
                Ok((sheets, model, t.elapsed().as_secs_f64()))
            },
            || -> Result<_> {
                let mut seconds = Vec::new();
                // The maps are drawn beside the check: only the module reads them.
                let (maps, setups) = rayon::join(
                    || -> Result<_> {
                        let t = Instant::now();
                        let maps = stages::maps::render_maps(
                            ctx,
                            game,
                            settings.map_dpi,
                            &settings.counters,
                        )?;
                        Ok((maps, t.elapsed().as_secs_f64()))
                    },
                    || -> Result<_> {
                        let t = Instant::now();
                        let setups =
                            stages::setups::write_setups(ctx, game, &loaded.sources)?;
                        Ok((setups, t.elapsed().as_secs_f64()))
                    },
                );
                let (maps, maps_seconds) = maps?;
                let ((solutions, findings, resolver), setups_seconds) = setups?;
                seconds.push(("maps", maps_seconds));
                let checked: Vec<(&Solution, &[Finding])> = solutions
                    .iter()
                    .zip(&findings)
                    .map(|(s, f)| (s, f.as_slice()))
                    .collect();
                seconds.push(("setups", setups_seconds));
                // The errata report and the module go side by side: neither reads the
                // other.
                let (errata, module) = rayon::join(
                    || -> Result<_> {
                        let t = Instant::now();
                        let errata = stages::errata::write_errata(
                            &ctx.outputs,
                            ctx.out,
                            &resolver,
                            &checked,
                            &loaded.sources,
                        )?;
                        Ok((errata, t.elapsed().as_secs_f64()))
                    },
                    || -> Result<_> {
                        let t = Instant::now();
                        let module = stages::module::write_module(
                            ctx,
                            game,
                            arts,
                            &maps,
                            &solutions,
                            &settings.counters,
                            whats_new.as_ref(),
                        )?;
                        Ok((module, t.elapsed().as_secs_f64()))
                    },
                );
                let (errata, errata_seconds) = errata?;
                let (module, module_seconds) = module?;
                seconds.push(("errata", errata_seconds));
                seconds.push(("module", module_seconds));
                Ok((findings, errata, module, maps, seconds))
            },
        );
        let (counters, model_seconds, sheet_seconds) = counters?;
        report.stage_seconds.insert("model".into(), model_seconds);
        let (findings, errata, module, maps, seconds) = rest?;
        report.stage_seconds.insert("sheets".into(), sheet_seconds);
        for (stage, s) in seconds {
            report.stage_seconds.insert(stage.into(), s);
        }
        Ok(GameReport {
            units: game.units.len(),
            markers: game.markers.len(),
            formations: game.formations.len(),
            maps: game.maps.len(),
            scenarios: game.scenarios.len(),
            placements: game.parsed.iter().map(|p| p.placements.len()).sum(),
            units_of_unknown_type: game
                .units
                .iter()
                .filter(|u| u.unit_type.is_none())
                .count(),
            hexes_of_unknown_terrain: maps.iter().map(|m| m.unknown_terrain).sum(),
            counter_sides: counters.sides,
            unknown_counter_values: counters.unknown_values,
            sheet_pages: counters.pages,
            setup_findings: findings
                .iter()
                .flatten()
                .filter(|f| f.needs_attention())
                .count(),
            errata: errata.iter().filter(|e| e.needs_attention()).count(),
            attention: Attention::of(&errata, &loaded.sources)
                .into_iter()
                .chain(stages::release::finding(game, &module, &loaded.sources))
                .collect(),
            map_images: maps,
            counters,
            module,
            ..report
        })
    }
}

/// The name of the folder a game was loaded from.
fn folder_name(game: &Game) -> String {
    game.dir
        .file_name()
        .map_or_else(|| game.id.clone(), |n| n.to_string_lossy().into_owned())
}

/// Removes what a killed build left beside the files among a game's outputs `owned` (its
/// module). Its folders need no look: a standing game's folder holding a temporary file
/// would not have matched its stamp, and a built game's folders are swept.
fn remove_temporaries_beside(owned: &[PathBuf]) -> Result<usize> {
    let files: Vec<PathBuf> = owned.iter().filter(|p| !p.is_dir()).cloned().collect();
    crate::files::remove_temporaries(&files)
}
