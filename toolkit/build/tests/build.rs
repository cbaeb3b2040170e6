//! A build run through the library, without the command-line tool: outputs, the report,
//! progress, a no-op rebuild and a failed stage.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use muster_build::{
    Build, CounterOptions, ErrorKind, NoProgress, Progress, Settings, Steps,
};
use muster_model::Loaded;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn settings(dir: &Path) -> Settings {
    Settings {
        sources: dir.join("sources"),
        out: dir.join("out"),
        map_dpi: 30,
        counters: CounterOptions { dpi: 40, sheet_dpi: 20, ..CounterOptions::default() },
        ..Settings::default()
    }
}

/// [`settings`] at the smallest resolutions, for generated games of hundreds of counters.
fn tiny_settings(dir: &Path) -> Settings {
    Settings {
        map_dpi: 4,
        counters: CounterOptions { dpi: 8, sheet_dpi: 4, ..CounterOptions::default() },
        ..settings(dir)
    }
}

/// Counts what the build tells: games loaded, and steps per stage.
#[derive(Default)]
struct Counting {
    loaded: AtomicUsize,
    steps: Mutex<BTreeMap<String, (usize, usize)>>,
}

struct CountedStage<'a> {
    progress: &'a Counting,
    key: String,
}

impl Progress for Counting {
    fn loaded(&self, loaded: &Loaded) {
        self.loaded.fetch_add(loaded.games.len(), Ordering::Relaxed);
    }

    fn stage(&self, game: &str, stage: &str, steps: usize) -> Box<dyn Steps + '_> {
        let key = format!("{game} {stage}");
        self.steps.lock().unwrap().insert(key.clone(), (steps, 0));
        Box::new(CountedStage { progress: self, key })
    }
}

impl Steps for CountedStage<'_> {
    fn step(&self) {
        self.progress.steps.lock().unwrap().get_mut(&self.key).unwrap().1 += 1;
    }
}

#[test]
fn a_game_builds_through_the_library_and_rebuilds_from_its_stamp() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    let build = Build::new(settings(tmp.path())).unwrap();
    let progress = Counting::default();
    let report = build.run(&progress).unwrap();
    assert!(!report.has_errors());
    assert_eq!(progress.loaded.load(Ordering::Relaxed), 1);
    let game = &report.games[0];
    assert_eq!(game.game, "example-oasis");
    assert!(!game.up_to_date);
    assert_eq!((game.counter_sides, game.maps, game.scenarios), (11, 1, 1));
    for stage in
        ["model", "maps", "counters", "sheets", "setups", "errata", "module", "commit"]
    {
        assert!(game.stage_seconds.contains_key(stage), "{stage}");
    }
    let phases: Vec<&str> = report.phase_seconds.keys().map(String::as_str).collect();
    assert_eq!(phases, ["load", "prune"]);
    assert!(game.cache.made.iter().any(|m| m == "buildFile.xml in example-oasis.vmod"));
    // Every stage counted all its steps.
    let steps = progress.steps.lock().unwrap().clone();
    assert_eq!(steps["example-oasis counters"], (11, 11), "{steps:?}");
    assert_eq!(steps["example-oasis maps"], (1, 1), "{steps:?}");
    assert_eq!(steps["example-oasis module"], (1, 1), "{steps:?}");
    let out = tmp.path().join("out");
    for file in [
        "dist/example-oasis.vmod",
        "dist/example-oasis/game.json",
        "dist/example-oasis/validation.json",
        "dist/example-oasis/errata.json",
        "maps/example-oasis/oasis.png",
        "counters/example-oasis/sheets.pdf",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let module = std::fs::read(out.join("dist/example-oasis.vmod")).unwrap();
    assert_eq!(module.len(), game.module.bytes);

    // The same Build again: nothing to do, the same figures.
    let again = build.run(&NoProgress).unwrap();
    let same = &again.games[0];
    assert!(same.up_to_date);
    assert!(same.cache.made.is_empty());
    assert_eq!(same.counter_sides, game.counter_sides);
    assert_eq!(same.module, game.module);
}

#[test]
fn a_replaced_module_is_freed_beside_the_build_and_nothing_of_it_is_left() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    // Its map at 150 dpi makes the module over 1 MiB.
    let build = Build::new(Settings { map_dpi: 150, ..settings(tmp.path()) }).unwrap();
    build.run(&NoProgress).unwrap();
    let out = tmp.path().join("out");
    let module = std::fs::read(out.join("dist/example-oasis.vmod")).unwrap();
    assert!(module.len() as u64 >= muster_build::trash::LARGE, "{}", module.len());
    let counters = tmp.path().join("sources/example-oasis/counters.yaml");
    let text = std::fs::read_to_string(&counters).unwrap();
    let changed = text.replacen("movement: 8", "movement: 9", 1);
    assert_ne!(changed, text);
    std::fs::write(&counters, changed).unwrap();
    let rebuilt = build.run(&NoProgress).unwrap();
    assert!(!rebuilt.games[0].up_to_date);
    let new_module = std::fs::read(out.join("dist/example-oasis.vmod")).unwrap();
    assert_ne!(new_module, module);
    assert_eq!(new_module.len(), rebuilt.games[0].module.bytes);
    let trash = out.join(".muster-cache/trash");
    assert!(trash.is_dir(), "the old module was given a second name there");
    assert_eq!(std::fs::read_dir(&trash).unwrap().count(), 0, "which is gone");
}

#[test]
fn a_stage_that_cannot_write_fails_with_a_typed_error_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &root().join("sources/example-oasis"),
        &tmp.path().join("sources/example-oasis"),
    );
    // A folder stands where the map image goes.
    let png = tmp.path().join("out/maps/example-oasis/oasis.png");
    std::fs::create_dir_all(png.join("in-the-way")).unwrap();
    let build = Build::new(settings(tmp.path())).unwrap();
    let err = build.run(&NoProgress).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
    assert!(format!("{err:#}").contains("oasis.png"), "{err:#}");
    assert!(!tmp.path().join("out/dist/example-oasis.vmod").exists());
}

#[test]
fn a_game_that_does_not_load_is_reported_and_not_built() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/example-oasis");
    copy_tree(&root().join("sources/example-oasis"), &game);
    let path = game.join("oob.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}\nnot: [valid")).unwrap();
    let report = Build::new(settings(tmp.path())).unwrap().run(&NoProgress).unwrap();
    assert!(report.has_errors());
    assert!(report.games.is_empty());
    assert!(!tmp.path().join("out/dist").exists());
}

/// Height and width of a PNG, from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn a_game_of_more_than_1440_counters_has_its_contact_sheet_in_pages() {
    let dir = tempfile::tempdir().unwrap();
    let counters = 1500;
    muster_build::bench::monster::generate(&dir.path().join("sources"), counters)
        .unwrap();
    let settings = tiny_settings(dir.path());
    let report = Build::new(settings).unwrap().run(&NoProgress).unwrap();
    let game = &report.games[0];
    let pages: Vec<String> = game
        .counters
        .contact_sheets
        .iter()
        .map(|p| Path::new(p).file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(pages, ["contact.png", "contact-2.png"]);
    // 120 rows of twelve on the first page, the other 60 counters (5 rows) on the second,
    // each page under a title band of 0.4 inch, at 100 dpi.
    let sizes: Vec<(u32, u32)> = game
        .counters
        .contact_sheets
        .iter()
        .map(|p| png_size(&std::fs::read(p).unwrap()))
        .collect();
    assert_eq!(sizes, [(1920, 40 + 120 * 95), (1920, 40 + 5 * 95)]);
}

/// Collects every diagnostic the build tells, rendered, and how many games it loaded.
#[derive(Default)]
struct Told {
    games: AtomicUsize,
    rendered: Mutex<Vec<String>>,
}

impl Progress for Told {
    fn loaded(&self, loaded: &Loaded) {
        self.games.fetch_add(loaded.games.len(), Ordering::Relaxed);
        let mut told = self.rendered.lock().unwrap();
        told.extend(loaded.diagnostics.iter().map(|d| loaded.sources.render(d)));
    }
}

#[test]
fn a_game_whose_build_stands_is_not_loaded_again_and_its_findings_are_told_again() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("sources/example-oasis");
    copy_tree(&root().join("sources/example-oasis"), &game);
    // A file muster does not read (a warning at no place) and a designation too long for
    // its counter (a warning at its line).
    std::fs::write(game.join("extra.yml"), "x: 1\n").unwrap();
    let path = game.join("counters.yaml");
    let text = std::fs::read_to_string(&path).unwrap().replacen(
        "      - {printed: 1 Bde HQ, front: {movement: 8}}\n",
        "      - {printed: 1 Bde HQ, front: {movement: 8}}\n      - {printed: 3/1 Extraordinarily Long Reconnaissance Bn, front: {movement: 9}}\n",
        1,
    );
    std::fs::write(&path, text).unwrap();
    let build = Build::new(settings(tmp.path())).unwrap();
    let first = Told::default();
    let report = build.run(&first).unwrap();
    assert!(!report.games[0].up_to_date);
    assert_eq!(first.games.load(Ordering::Relaxed), 1);
    let told = first.rendered.lock().unwrap().clone();
    assert!(told.iter().any(|d| d.contains("extra.yml")), "{told:#?}");
    assert!(
        told.iter()
            .any(|d| d.contains("counters.yaml:6:") && d.contains("Extraordinarily")),
        "{told:#?}"
    );

    let again = Told::default();
    let report = build.run(&again).unwrap();
    assert!(report.games[0].up_to_date);
    assert_eq!(report.games[0].game, "example-oasis");
    assert_eq!(again.games.load(Ordering::Relaxed), 0, "the game is not loaded again");
    assert_eq!(*again.rendered.lock().unwrap(), told);

    // Changed, it is loaded and built again.
    std::fs::remove_file(game.join("extra.yml")).unwrap();
    let changed = Told::default();
    let report = build.run(&changed).unwrap();
    assert!(!report.games[0].up_to_date);
    assert_eq!(changed.games.load(Ordering::Relaxed), 1);
    let now = changed.rendered.lock().unwrap().clone();
    assert_eq!(now.len(), told.len() - 1, "{now:#?}");
}

/// A generated monster game of 200 counters in a temporary folder, with its shape, the
/// [`tiny_settings`] that build it there, and a build with them.
fn monster_of_200()
-> (tempfile::TempDir, muster_build::bench::monster::Shape, Settings, Build) {
    let dir = tempfile::tempdir().unwrap();
    let shape =
        muster_build::bench::monster::generate(&dir.path().join("sources"), 200).unwrap();
    let settings = tiny_settings(dir.path());
    let build = Build::new(settings.clone()).unwrap();
    (dir, shape, settings, build)
}

/// Adds one to the first movement value in a counter manifest.
fn change_first_movement(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let at = text.find("movement: ").unwrap() + "movement: ".len();
    let digits = text[at..].chars().take_while(char::is_ascii_digit).count();
    let value: u32 = text[at..at + digits].parse().unwrap();
    let changed = format!("{}{}{}", &text[..at], value + 1, &text[at + digits..]);
    std::fs::write(path, changed).unwrap();
}

#[test]
fn a_changed_counter_archives_again_only_the_setups_that_place_it_and_the_module_is_as_a_clean_build_makes_it()
 {
    let (dir, shape, settings, build) = monster_of_200();
    let first = build.run(&NoProgress).unwrap();
    assert!(!first.has_errors());
    let saves = |made: &[String]| -> Vec<String> {
        let mut saves: Vec<String> = made
            .iter()
            .filter_map(|m| m.strip_suffix(" of monster"))
            .filter(|m| m.ends_with(".vsav"))
            .map(String::from)
            .collect();
        saves.sort();
        saves
    };
    assert_eq!(saves(&first.games[0].cache.made).len(), shape.scenarios);

    change_first_movement(&dir.path().join("sources/monster/counters.yaml"));
    let again = build.run(&NoProgress).unwrap();
    let made = &again.games[0].cache.made;
    // The changed counter is the one whose image was drawn again.
    let changed: Vec<&str> = made
        .iter()
        .filter_map(|m| m.strip_prefix("counter ")?.strip_suffix("-front.png"))
        .collect();
    assert_eq!(changed.len(), 1, "{made:?}");
    let module: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("out/dist/monster/module.json")).unwrap(),
    )
    .unwrap();
    let mut placing: Vec<String> = module
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| {
            s["pieces"].as_array().unwrap().iter().any(|p| p["unit"] == changed[0])
        })
        .map(|s| s["file"].as_str().unwrap().to_string())
        .collect();
    placing.sort();
    assert!(!placing.is_empty() && placing.len() < shape.scenarios, "{placing:?}");
    assert_eq!(saves(made), placing);

    // A clean build of the changed game makes the same module and model, byte for byte.
    let clean = Settings { out: dir.path().join("clean"), ..settings };
    let report = Build::new(clean).unwrap().run(&NoProgress).unwrap();
    assert!(!report.has_errors());
    // So with game.json: of its runs of counters, only the changed one was printed again.
    let printed = made.iter().filter(|m| m.starts_with("game.json counters")).count();
    assert_eq!(printed, 1, "{made:?}");
    for file in ["monster.vmod", "monster/module.json", "monster/game.json"] {
        let kept = std::fs::read(dir.path().join("out/dist").join(file)).unwrap();
        let fresh = std::fs::read(dir.path().join("clean/dist").join(file)).unwrap();
        assert!(kept == fresh, "{file} differs from a clean build's");
    }
}

/// Replaces the first `from` in a file by `to`.
fn replace_first(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_changed_counter_value_reuses_every_solved_setup_and_what_solving_reads_solves_again()
{
    let (dir, shape, settings, build) = monster_of_200();
    let solved = |report: &muster_build::BuildReport| -> usize {
        let made = &report.games[0].cache.made;
        made.iter()
            .filter(|m| m.starts_with("setup s") && m.ends_with(" of monster"))
            .count()
    };
    // Each step's outputs are byte for byte those of a clean build of the changed game,
    // but for the release record, which keeps the release the first build made.
    let clean_build = |name: &str| {
        let clean = Settings { out: dir.path().join(name), ..settings.clone() };
        let report = Build::new(clean).unwrap().run(&NoProgress).unwrap();
        assert!(!report.has_errors());
        let out = dir.path().join("out/dist");
        for file in walk(&dir.path().join(name).join("dist")) {
            if file.ends_with("release.json") {
                continue;
            }
            let kept =
                out.join(file.strip_prefix(dir.path().join(name).join("dist")).unwrap());
            assert!(
                std::fs::read(&kept).unwrap() == std::fs::read(&file).unwrap(),
                "{} differs from a clean build's",
                kept.display()
            );
        }
    };
    let first = build.run(&NoProgress).unwrap();
    assert!(!first.has_errors());
    assert_eq!(solved(&first), shape.scenarios);

    // A counter's movement is not read by solving: every setup is as it was solved.
    let counters = dir.path().join("sources/monster/counters.yaml");
    change_first_movement(&counters);
    let again = build.run(&NoProgress).unwrap();
    assert_eq!(solved(&again), 0, "{:?}", again.games[0].cache.made);
    clean_build("clean-1");

    // Its steps are what the rules see of it: every scenario is solved again.
    replace_first(&counters, "steps: 2", "steps: 1");
    let again = build.run(&NoProgress).unwrap();
    assert_eq!(solved(&again), shape.scenarios);
    clean_build("clean-2");

    // So is a scenario's text, down to its spans: a line more moves every finding after it.
    let scenario = dir.path().join("sources/monster/scenarios/s01.yaml");
    replace_first(&scenario, "setup:\n", "# a remark\nsetup:\n");
    let again = build.run(&NoProgress).unwrap();
    assert_eq!(solved(&again), shape.scenarios);
    clean_build("clean-3");
}

#[test]
fn game_json_printed_side_by_side_is_byte_for_byte_what_serde_json_prints() {
    let loaded = muster_model::load(&root().join("sources"), &[], &Default::default());
    assert!(loaded.games.len() >= 4, "the seed games load");
    for game in &loaded.games {
        let whole =
            serde_json::to_vec_pretty(&muster_build::stages::model::game_json(game))
                .unwrap();
        let fast = muster_build::stages::model::game_json_pretty(game).unwrap();
        assert!(!game.units.is_empty() && !game.scenarios.is_empty(), "{}", game.id);
        assert!(fast == whole, "game.json of {} differs", game.id);
        // Printed in kept runs, the same: made once, then given back from the store.
        let store = std::sync::Mutex::new(std::collections::HashMap::new());
        let keep = |label: &str,
                    parts: &[&[u8]],
                    make: &dyn Fn() -> Result<Vec<u8>, String>|
         -> Result<Vec<u8>, String> {
            let key = (label.to_string(), parts.concat());
            if let Some(kept) = store.lock().unwrap().get(&key) {
                return Ok(Vec::clone(kept));
            }
            let made = make()?;
            store.lock().unwrap().insert(key, made.clone());
            Ok(made)
        };
        for round in ["made", "kept"] {
            let kept =
                muster_build::stages::model::game_json_kept(game, Some(&keep)).unwrap();
            assert!(kept == whole, "game.json of {} {round} in runs differs", game.id);
        }
        let runs = game.units.len().div_ceil(muster_build::stages::model::RUN)
            + game.markers.len().div_ceil(muster_build::stages::model::RUN)
            + game.scenarios.len();
        assert_eq!(
            store.lock().unwrap().len(),
            runs,
            "one kept run per {} counters, one per scenario",
            muster_build::stages::model::RUN
        );
    }
}

#[test]
fn errata_given_the_setups_stage_validation_are_the_errata_found_from_scratch() {
    let loaded = muster_model::load(&root().join("sources"), &[], &Default::default());
    assert!(loaded.games.len() >= 4, "the seed games load");
    let mut setup_errata = 0;
    for game in &loaded.games {
        let solved: Vec<_> = game
            .scenarios
            .iter()
            .map(|s| {
                let solution = muster_check::solve(game, &s.id.v);
                let findings = muster_check::validate_solved(game, &s.id.v, &solution);
                (solution, findings)
            })
            .collect();
        let checked: Vec<(&muster_check::Solution, &[muster_check::Finding])> =
            solved.iter().map(|(s, f)| (s, f.as_slice())).collect();
        let resolver = muster_check::Resolver::new(game);
        let given = muster_check::errata_of_checked(&resolver, &checked);
        let scratch = muster_check::errata(game);
        let json = |e: &[muster_check::Erratum]| serde_json::to_string(e).unwrap();
        assert_eq!(json(&given), json(&scratch), "{}", game.id);
        setup_errata += given.iter().filter(|e| e.scenario.is_some()).count();
    }
    assert!(setup_errata > 0, "the seed games have setup errata to compare");
}

#[test]
fn an_image_written_from_the_cache_and_untouched_is_kept_unread_and_one_changed_by_hand_is_written_again()
 {
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("sources");
    copy_tree(&root().join("sources/example-oasis"), &sources.join("example-oasis"));
    let build = Build::new(settings(dir.path())).unwrap();
    assert!(!build.run(&NoProgress).unwrap().has_errors());
    let counters = dir.path().join("out/counters/example-oasis");
    let mut images: Vec<PathBuf> = std::fs::read_dir(&counters)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with("-back.png"))
        .collect();
    images.sort();
    assert!(images.len() >= 2);
    let (tampered, untouched) = (&images[0], &images[1]);
    let right = std::fs::read(tampered).unwrap();
    let mtime = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let untouched_at = mtime(untouched);
    let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
    // The stamp names the object each image came from.
    let stamp: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("out/.muster-cache/games/example-oasis.json"))
            .unwrap(),
    )
    .unwrap();
    let key = stamp["from_objects"]
        [format!("counters/example-oasis/{}", name(untouched))]
    .as_str()
    .unwrap()
    .to_string();
    assert_eq!(key.len(), 64, "{key}");
    // The untouched image's object goes: keeping the image must not need it.
    std::fs::remove_file(
        dir.path().join("out/.muster-cache/objects").join(&key[..2]).join(&key[2..]),
    )
    .unwrap();
    std::fs::write(tampered, b"not the image").unwrap();
    // The browser table's copies of the module's images are kept by key as well.
    let web = dir.path().join("out/dist/example-oasis/web/images");
    let mut copies: Vec<PathBuf> =
        std::fs::read_dir(&web).unwrap().map(|e| e.unwrap().path()).collect();
    copies.sort();
    assert!(copies.len() >= 2);
    let (web_tampered, web_untouched) = (&copies[0], &copies[1]);
    let web_right = std::fs::read(web_tampered).unwrap();
    let web_untouched_at = mtime(web_untouched);
    assert!(
        stamp["from_objects"]
            [format!("dist/example-oasis/web/images/{}", name(web_untouched))]
        .as_str()
        .is_some_and(|k| k.len() == 64),
        "the stamp names the object of the table's copy"
    );
    std::fs::write(web_tampered, b"not the image").unwrap();
    // A change elsewhere, so the game is built again rather than found up to date.
    change_first_movement(&sources.join("example-oasis/counters.yaml"));
    let again = build.run(&NoProgress).unwrap();
    assert!(!again.has_errors());
    let made = &again.games[0].cache.made;
    assert!(!made.contains(&format!("counter {}", name(untouched))), "{made:?}");
    assert_eq!(
        std::fs::read(tampered).unwrap(),
        right,
        "the file changed by hand is written again"
    );
    assert_eq!(mtime(untouched), untouched_at, "the untouched file is kept as it was");
    assert_eq!(std::fs::read(web_tampered).unwrap(), web_right, "the table's copy too");
    assert_eq!(mtime(web_untouched), web_untouched_at, "the table's copy is kept");
    // A clean build makes the same images.
    let clean = Settings { out: dir.path().join("clean"), ..settings(dir.path()) };
    assert!(!Build::new(clean).unwrap().run(&NoProgress).unwrap().has_errors());
    for image in &images {
        let fresh = dir
            .path()
            .join("clean/counters/example-oasis")
            .join(image.file_name().unwrap());
        assert!(
            std::fs::read(image).unwrap() == std::fs::read(fresh).unwrap(),
            "{}",
            image.display()
        );
    }
}

#[test]
fn a_map_image_kept_unread_goes_into_the_module_from_the_last_module_or_its_file() {
    let dir = tempfile::tempdir().unwrap();
    muster_build::bench::monster::generate(&dir.path().join("sources"), 60).unwrap();
    let settings = tiny_settings(dir.path());
    let build = Build::new(settings.clone()).unwrap();
    let first = build.run(&NoProgress).unwrap();
    assert!(!first.has_errors());
    let maps_drawn = |report: &muster_build::BuildReport| -> usize {
        report.games[0].cache.made.iter().filter(|m| m.starts_with("map ")).count()
    };
    assert!(maps_drawn(&first) > 0, "{:?}", first.games[0].cache.made);
    let vmod = dir.path().join("out/dist/monster.vmod");
    let clean = |name: &str| -> Vec<u8> {
        let clean = Settings { out: dir.path().join(name), ..settings.clone() };
        assert!(!Build::new(clean).unwrap().run(&NoProgress).unwrap().has_errors());
        std::fs::read(dir.path().join(name).join("dist/monster.vmod")).unwrap()
    };
    let counters = dir.path().join("sources/monster/counters.yaml");
    // With the module gone, the unchanged map images are kept unread and read from their
    // files for the new module; with it there, they come from it. Neither draws a map.
    for (round, remove) in [(1, true), (2, false)] {
        if remove {
            std::fs::remove_file(&vmod).unwrap();
        }
        std::fs::remove_dir_all(dir.path().join("out/.muster-cache/objects")).unwrap();
        change_first_movement(&counters);
        let again = build.run(&NoProgress).unwrap();
        assert!(!again.has_errors());
        assert_eq!(maps_drawn(&again), 0, "{:?}", again.games[0].cache.made);
        let module = std::fs::read(&vmod).unwrap();
        assert!(
            module == clean(&format!("clean-{round}")),
            "round {round}: as a clean build"
        );
    }
}

#[test]
fn a_rebuild_copies_the_module_s_images_from_the_last_module_and_draws_a_damaged_one_again()
 {
    let dir = tempfile::tempdir().unwrap();
    muster_build::bench::monster::generate(&dir.path().join("sources"), 120).unwrap();
    let settings = tiny_settings(dir.path());
    let build = Build::new(settings.clone()).unwrap();
    assert!(!build.run(&NoProgress).unwrap().has_errors());
    let module_images = |made: &[String]| -> Vec<String> {
        made.iter().filter(|m| m.starts_with("module counter ")).cloned().collect()
    };
    let vmod = dir.path().join("out/dist/monster.vmod");
    let clean_build = |name: &str| -> Vec<u8> {
        let clean = Settings { out: dir.path().join(name), ..settings.clone() };
        assert!(!Build::new(clean).unwrap().run(&NoProgress).unwrap().has_errors());
        std::fs::read(dir.path().join(name).join("dist/monster.vmod")).unwrap()
    };

    // With every cache object gone, the images of the unchanged counters still come from
    // the module the last build wrote: only the changed counter's image is drawn again.
    std::fs::remove_dir_all(dir.path().join("out/.muster-cache/objects")).unwrap();
    change_first_movement(&dir.path().join("sources/monster/counters.yaml"));
    let again = build.run(&NoProgress).unwrap();
    assert!(!again.has_errors());
    let drawn = module_images(&again.games[0].cache.made);
    assert_eq!(drawn.len(), 1, "{drawn:?}");
    assert!(std::fs::read(&vmod).unwrap() == clean_build("clean-1"), "as a clean build");

    // An image damaged inside the module, its size and time kept, fails its CRC-32: it is
    // drawn again rather than copied.
    let bytes = std::fs::read(&vmod).unwrap();
    let stored =
        muster_package::archive::stored_entries(std::io::Cursor::new(&bytes)).unwrap();
    let (name, entry) = stored
        .iter()
        .filter(|(n, _)| n.starts_with("images/") && !drawn[0].ends_with(n.as_str()))
        .find(|(n, _)| n.ends_with("-back.png"))
        .unwrap();
    let mut damaged = bytes;
    damaged[(entry.range.start + entry.range.end) / 2] ^= 0x55;
    let modified = std::fs::metadata(&vmod).unwrap().modified().unwrap();
    std::fs::write(&vmod, &damaged).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&vmod)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    std::fs::remove_dir_all(dir.path().join("out/.muster-cache/objects")).unwrap();
    change_first_movement(&dir.path().join("sources/monster/counters.yaml"));
    let third = build.run(&NoProgress).unwrap();
    assert!(!third.has_errors());
    let drawn = module_images(&third.games[0].cache.made);
    let image = name.trim_start_matches("images/");
    assert!(drawn.contains(&format!("module counter {image}")), "{image}: {drawn:?}");
    assert_eq!(drawn.len(), 2, "{drawn:?}");
    assert!(std::fs::read(&vmod).unwrap() == clean_build("clean-2"), "as a clean build");
    // What is written beside the module after it was packaged again is as a clean build's.
    let beside = |out: &str| -> Vec<(PathBuf, Vec<u8>)> {
        let root = dir.path().join(out).join("dist/monster");
        let mut files: Vec<(PathBuf, Vec<u8>)> = walk(&root.join("web"))
            .into_iter()
            .chain([root.join("module.json")])
            .map(|p| {
                (p.strip_prefix(&root).unwrap().to_path_buf(), std::fs::read(&p).unwrap())
            })
            .collect();
        files.sort();
        files
    };
    let (kept, fresh) = (beside("out"), beside("clean-2"));
    assert!(kept.len() > 100, "{}", kept.len());
    assert!(
        kept == fresh,
        "the browser table and module.json differ from a clean build's"
    );

    // A browser-table image deleted since is copied again from the last module, undrawn.
    let web_image = dir.path().join("out/dist/monster/web").join(name);
    let before = std::fs::read(&web_image).unwrap();
    std::fs::remove_file(&web_image).unwrap();
    std::fs::remove_dir_all(dir.path().join("out/.muster-cache/objects")).unwrap();
    let fourth = build.run(&NoProgress).unwrap();
    assert!(!fourth.has_errors());
    assert_eq!(module_images(&fourth.games[0].cache.made), Vec::<String>::new());
    assert!(std::fs::read(&web_image).unwrap() == before, "{}", web_image.display());
    assert!(std::fs::read(&vmod).unwrap() == clean_build("clean-3"), "as a clean build");
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
