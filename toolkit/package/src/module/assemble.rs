//! A module's files, made in named steps: the counter images beside the rules, the decks,
//! the boards and the table, the Help menu and the charts, the setups, then the build file
//! beside the browser table.

use rayon::prelude::*;

use muster_check::Solution;
use muster_model::{Game, Unit};
use muster_rules::embedded::RulesetDoc;

use super::build_file::{self, Contents, Layout};
use super::files::Files;
use super::live_rules::{self, LiveRules};
use super::pieces::{self, Prototype, Slot, image_name};
use super::{
    BoardPlan, CHANGES, CHECKER, DeadPiles, Draw, Drawn, Keep, LiveRulesReport, Module,
    ModuleOptions, PackageError, RULESET, SetupFile, SheetImage, ToDraw, boards, charts,
    document_json, documentation, gpid, moduledata, ruleset_doc, setups, table,
};

/// The module's drawing: the caller's [`Draw`] at the maps' resolution.
struct Painter<'a> {
    draw: &'a Draw<'a>,
    /// The maps' resolution, which every image records.
    dpi: u32,
    /// A counter's side in pixels at that resolution.
    counter_px: u32,
}

impl Painter<'_> {
    /// Draws `image`, saying which image failed.
    fn drawn(&self, image: &ToDraw) -> Result<Drawn, PackageError> {
        (self.draw)(image)
            .map_err(|e| PackageError(format!("failed to draw {} ({e})", image.label)))
    }

    /// Draws the SVG `svg` at `width` × `height` pixels, keyed by its digest.
    fn render(
        &self,
        svg: &str,
        width: u32,
        height: u32,
        label: &str,
    ) -> Result<Drawn, PackageError> {
        self.drawn(&ToDraw {
            label,
            digest: *blake3::hash(svg.as_bytes()).as_bytes(),
            svg: &|| svg.to_string(),
            width,
            height,
            dpi: self.dpi,
        })
    }
}

/// Builds every file of a game's module from its rendered sheets and solved scenarios,
/// drawing counter images with `draw` and archiving each setup's saved game through
/// `keep`.
pub fn build(
    game: &Game,
    sheets: &[SheetImage],
    solutions: &[Solution],
    options: &ModuleOptions,
    draw: &Draw,
    keep: &Keep,
) -> Result<Module, PackageError> {
    let dpi = sheets.first().map_or(150.0, |s| s.dpi);
    let painter = Painter {
        draw,
        dpi: dpi.round() as u32,
        counter_px: ((options.counter_in * dpi).round() as u32).max(16),
    };
    let mut files = Files::default();
    let (doc, live) =
        counter_images_beside_rules(game, solutions, options, &painter, &mut files)?;
    let live_traits = if sheets.is_empty() { Vec::new() } else { live.traits() };
    if !live_traits.is_empty() {
        let px = painter.counter_px;
        let png = painter.render(
            &LiveRules::highlight_svg(px),
            px,
            px,
            "the rule highlight",
        )?;
        files.insert_drawn(format!("images/{}", live_rules::HIGHLIGHT_IMAGE), png);
    }

    let dead_piles = DeadPiles::plan(game, painter.counter_px);
    let strength_label =
        solutions.iter().flat_map(|s| &s.units).any(|u| !u.values.is_empty());
    let prototypes = pieces::prototypes(game, &dead_piles, &live_traits, strength_label);
    let mut slots = pieces::slots(game, &dead_piles);
    let decks = game
        .meta
        .play
        .decks
        .iter()
        .map(|deck| {
            let contents =
                deck_contents(game, deck, &slots, &dead_piles, &painter, &mut files)?;
            Ok((deck.name.clone(), contents))
        })
        .collect::<Result<Vec<_>, PackageError>>()?;
    let (plan, table) =
        boards_and_table(game, sheets, solutions, &decks, &painter, &mut files)?;
    let line_of_sight = game.meta.module.line_of_sight && !plan.boards.is_empty();
    let live_in_help = (!live_traits.is_empty()).then_some(&live);
    let (charts, about) = help_and_charts(
        game,
        &Help {
            plan: &plan,
            dead_piles: &dead_piles,
            prototypes: &prototypes,
            line_of_sight,
            released: options.released,
            whats_new: options.whats_new,
        },
        live_in_help,
        &painter,
        &mut files,
    )?;

    // Each scenario's save is written on its own (side by side), and added in order; the
    // ruleset is written beside them.
    let checks_setups = !live_traits.is_empty() && live.setup.is_some();
    let surroundings =
        setups::Surroundings { plan: &plan, table: &table, dead_piles: &dead_piles };
    let (saves, ruleset) = rayon::join(
        || {
            setup_saves(
                game,
                solutions,
                &prototypes,
                &slots,
                &surroundings,
                checks_setups.then_some(&doc),
                keep,
            )
        },
        || document_json(&doc),
    );
    files.insert(RULESET.into(), ruleset?);
    let mut setup_files = Vec::new();
    for (name, bytes, file) in saves? {
        files.insert(name, bytes);
        setup_files.push(file);
    }

    let deck_slots: Vec<Slot> =
        decks.iter().flat_map(|(_, c)| c.iter().cloned()).collect();
    gpid::check_unique(
        slots.iter().chain(&deck_slots).map(|s| (s.gpid, s.name.as_str())),
    )?;
    let max_gpid = slots.iter().chain(&deck_slots).map(|s| s.gpid).max().unwrap_or(0);
    let contents = Contents {
        layout: Layout {
            plan: &plan,
            table: &table,
            dead_piles: &dead_piles,
            line_of_sight,
            live_rules: !live_traits.is_empty(),
            live_properties: if live_traits.is_empty() {
                Vec::new()
            } else {
                live.global_properties()
            },
        },
        charts: &charts,
        prototypes: &prototypes,
        slots: &slots,
        decks: &decks,
        setups: &setup_files,
        next_gpid: max_gpid + 1,
        about: &about,
        whats_new: options.whats_new.is_some(),
    };
    // The build file and the browser table's files are written side by side.
    let (build_file, web) = rayon::join(
        || build_file::write(game, &contents, keep),
        || {
            let web = super::web::files(game, &plan, &table, &slots, &setup_files);
            // The ruleset document, read by now, goes on this side too.
            drop(doc);
            web
        },
    );
    let web =
        web.map_err(|e| PackageError(format!("failed to write the table's data ({e})")))?;
    files.insert("buildFile.xml".into(), build_file?.into_bytes());
    files.insert("moduledata".into(), moduledata(game).into_bytes());
    files.insert(CHECKER.into(), crate::CHECKER_WASM.to_vec());
    insert_changes(&mut files, options.whats_new)?;
    let live_rules = live_report(&live, !live_traits.is_empty());
    drop(contents);
    slots.extend(deck_slots);
    Ok(Module {
        files: files.bytes,
        origins: files.origins,
        held: files.held,
        setups: setup_files,
        slots: slots.len(),
        prototypes: prototypes.len(),
        web,
        live_rules,
    })
}

/// The counter images at the maps' resolution, drawn beside the rules (for the embedded
/// checker, and compiled for VASSAL's own automation).
fn counter_images_beside_rules(
    game: &Game,
    solutions: &[Solution],
    options: &ModuleOptions,
    painter: &Painter,
    files: &mut Files,
) -> Result<(RulesetDoc, LiveRules), PackageError> {
    let faces: Vec<(&Unit, muster_render::Face)> = game
        .units
        .iter()
        .chain(&game.markers)
        .flat_map(|u| muster_render::faces(u).into_iter().map(move |f| (u, f)))
        .collect();
    let (images, (doc, live)) = rayon::join(
        || {
            faces
                .par_iter()
                .map(|(u, face)| {
                    // Keyed by the digest the counter images worked out already.
                    let (arts, size) = (options.arts, options.counter_in);
                    let name = image_name(u, *face);
                    let png = painter.drawn(&ToDraw {
                        label: &format!("counter {name}"),
                        digest: arts.standalone_digest(game, u, *face, size),
                        svg: &|| {
                            muster_render::standalone_svg(&arts.get(game, u, *face), size)
                        },
                        width: painter.counter_px,
                        height: painter.counter_px,
                        dpi: painter.dpi,
                    })?;
                    Ok((format!("images/{name}"), png))
                })
                .collect::<Result<Vec<_>, PackageError>>()
        },
        || {
            let doc = ruleset_doc(game, solutions);
            let live = LiveRules::compile(&doc);
            (doc, live)
        },
    );
    for (path, drawn) in images? {
        files.insert_drawn(path, drawn);
    }
    Ok((doc, live))
}

/// The contents of one deck: its markers (each as often as the manifest counts it, at most
/// 50), a chit for each unit of the categories it holds one of, and its playing cards.
fn deck_contents(
    game: &Game,
    deck: &muster_model::source::DeckDef,
    slots: &[Slot],
    dead_piles: &DeadPiles,
    painter: &Painter,
    files: &mut Files,
) -> Result<Vec<Slot>, PackageError> {
    let font = muster_render::fonts::FAMILY;
    let counter_px = painter.counter_px;
    let mut contents: Vec<Slot> = Vec::new();
    for m in &deck.markers {
        if let Some(slot) = slots.iter().find(|s| s.id == m.v) {
            let marker = game
                .markers
                .iter()
                .find(|u| u.id == m.v)
                .ok_or_else(|| PackageError(format!("no marker {}", m.v)))?;
            for copy in 1..=marker.count.clamp(1, 50) {
                let g = gpid::gpid(&gpid::deck_key(&deck.name, &m.v, copy));
                let mut s = slot.clone();
                s.gpid = g;
                s.piece = pieces::unit_piece(game, marker, g, dead_piles);
                contents.push(s);
            }
        }
    }
    for u in game.units.iter().filter(|u| deck.one_per_unit_of.contains(&u.category)) {
        let id = format!("chit-{}", u.id);
        let colour = u
            .nationality
            .as_ref()
            .and_then(|n| game.meta.nationalities.iter().find(|x| x.id.v == *n))
            .and_then(|n| n.rgb.as_ref())
            .map_or("#555555", |c| c.v.as_str());
        let image = format!("{id}.png");
        let svg = table::chit_svg(&u.printed.v, colour, counter_px, font);
        let png = painter.render(&svg, counter_px, counter_px, "a chit")?;
        files.insert_drawn(format!("images/{image}"), png);
        let name = format!("{} chit", u.printed.v);
        let g = gpid::gpid(&gpid::generated_key(&id));
        contents.push(Slot {
            id: id.clone(),
            name: name.clone(),
            gpid: g,
            piece: pieces::simple_piece(
                "chit",
                &[("Side", &u.side), ("UnitId", &u.id)],
                &image,
                &name,
                g,
            ),
            group: ("Chits".into(), deck.name.clone()),
        });
    }
    if let Some(pc) = &deck.playing_cards {
        for (id, label, colour) in table::cards(pc.jokers) {
            let image = format!("{id}.png");
            let (w, h) = (counter_px * 7 / 10 * 2, counter_px * 2);
            let png = painter.render(
                &table::card_svg(&label, colour, h, font),
                w,
                h,
                "a card",
            )?;
            files.insert_drawn(format!("images/{image}"), png);
            let g = gpid::gpid(&gpid::generated_key(&id));
            contents.push(Slot {
                id: id.clone(),
                name: label.clone(),
                gpid: g,
                piece: pieces::simple_piece("card", &[], &image, &label, g),
                group: ("Cards".into(), deck.name.clone()),
            });
        }
    }
    Ok(contents)
}

/// The boards: the printed sheets, and the table of holding boxes and decks drawn when the
/// plan has one.
fn boards_and_table(
    game: &Game,
    sheets: &[SheetImage],
    solutions: &[Solution],
    decks: &[(String, Vec<Slot>)],
    painter: &Painter,
    files: &mut Files,
) -> Result<(BoardPlan, table::Table), PackageError> {
    let holding = setups::holding_labels(game, solutions);
    let deck_names: Vec<String> = decks.iter().map(|(n, _)| n.clone()).collect();
    let table = table::layout(&holding, &deck_names, painter.counter_px);
    let mut plan = boards::plan(game, sheets, &table, painter.counter_px)?;
    for s in sheets {
        files.insert_drawn(
            format!("images/{}", boards::sheet_image(game, &s.sheet, &s.digest)),
            s.png.clone(),
        );
    }
    if plan.has_table() {
        let font = muster_render::fonts::FAMILY;
        let svg =
            table::svg(&table, &format!("{}: holding boxes", game.meta.title), font);
        let png = painter.render(&svg, table.width, table.height, "the table")?;
        let drawing = super::files::drawing(&svg, table.width, table.height);
        let name = plan.table_image(&blake3::hash(&drawing).to_hex()).unwrap_or_default();
        files.insert_drawn(format!("images/{name}"), png);
    }
    Ok((plan, table))
}

/// What the Help menu tells of the module's maps and pieces.
/// The list of what the release changed since the last one ([`CHANGES`]), when the build
/// was told the last release.
fn insert_changes(
    files: &mut Files,
    changes: Option<&muster_model::changes::Changes>,
) -> Result<(), PackageError> {
    if let Some(changes) = changes {
        let json = serde_json::to_vec_pretty(changes)
            .map_err(|e| PackageError(format!("failed to write {CHANGES} ({e})")))?;
        files.insert(CHANGES.into(), json);
    }
    Ok(())
}

struct Help<'a> {
    plan: &'a BoardPlan,
    dead_piles: &'a DeadPiles,
    prototypes: &'a [Prototype],
    line_of_sight: bool,
    /// The release's date.
    released: &'a str,
    /// What changed since the last release, if the build was told it.
    whats_new: Option<&'a muster_model::changes::Changes>,
}

/// The dead piles' board, the Help menu (about screen, documents, the module's page) and
/// the chart window's images; returns the charts and the about screen's file.
fn help_and_charts(
    game: &Game,
    help: &Help,
    live_rules: Option<&LiveRules>,
    painter: &Painter,
    files: &mut Files,
) -> Result<(Vec<charts::Chart>, String), PackageError> {
    if help.dead_piles.any() {
        let board = &help.dead_piles.board;
        let png = painter.render(
            &help.dead_piles.svg,
            board.width,
            board.height,
            "the dead piles",
        )?;
        files.insert_drawn(format!("images/{}", help.dead_piles.image), png);
    }
    let about = documentation::about_image(game, help.released);
    let about_file = documentation::about_file(&about);
    files.insert_drawn(
        format!("images/{about_file}"),
        painter.render(&about.svg, about.width, about.height, "the about screen")?,
    );
    let charts = charts::charts(game);
    for c in &charts {
        let path = format!("images/{}", c.file);
        match &c.source {
            charts::Source::Drawn(d) => files.insert_drawn(
                path,
                painter.render(
                    &d.svg,
                    d.width,
                    d.height,
                    &format!("chart {}", c.name),
                )?,
            ),
            charts::Source::Image(bytes) => files.insert(path, bytes.clone()),
        }
    }
    for (path, bytes) in documentation::document_files(game) {
        files.insert(path, bytes);
    }
    let contents = documentation::Contents {
        charts: &charts,
        dead_piles: help.dead_piles,
        main_map: !help.plan.boards.is_empty(),
        holding_boxes: help.plan.has_table(),
        line_of_sight: help.line_of_sight,
        two_sided: help.prototypes.iter().any(|p| p.name == pieces::TWO_SIDED),
        strength_label: help.prototypes.iter().any(|p| {
            p.name == pieces::COUNTER && p.piece.traits.iter().any(|t| t.id() == "label")
        }),
        live_rules,
        released: help.released,
    };
    files.insert(
        documentation::MODULE_HELP.into(),
        documentation::module_page(game, &contents).into_bytes(),
    );
    if let Some(changes) = help.whats_new {
        files.insert(
            documentation::WHATS_NEW.into(),
            documentation::whats_new_page(changes).into_bytes(),
        );
    }
    Ok((charts, about_file))
}

/// Each scenario's saved game, side by side: its archive path, bytes and what it holds.
/// `doc` is given when the live checks read the setup lines.
fn setup_saves(
    game: &Game,
    solutions: &[Solution],
    prototypes: &[Prototype],
    slots: &[Slot],
    surroundings: &setups::Surroundings,
    doc: Option<&RulesetDoc>,
    keep: &Keep,
) -> Result<Vec<(String, Vec<u8>, SetupFile)>, PackageError> {
    let lookup = pieces::lookup(prototypes);
    let slot_pieces = setups::SlotPieces::new(slots, prototypes, &lookup);
    solutions
        .par_iter()
        .map(|solution| {
            // The setup lines the live checks read, when they check them.
            let lines = doc.and_then(|d| d.scenarios.get(&solution.scenario));
            setups::save(game, solution, &slot_pieces, surroundings, lines, keep)
        })
        .collect()
}

/// The rules checked live in VASSAL, as `section (kind)`, and what of them only
/// approximately; nothing when the counters carry no live checks.
fn live_report(live: &LiveRules, checked: bool) -> LiveRulesReport {
    if !checked {
        return LiveRulesReport::default();
    }
    LiveRulesReport {
        checked: live
            .checks()
            .map(|c| {
                if c.section.is_empty() {
                    c.kind.to_string()
                } else {
                    format!("{} ({})", c.section, c.kind)
                }
            })
            .collect(),
        approximated: live.approximations.clone(),
    }
}
