//! A game as a VASSAL 3.7 module: the map with one board per printed sheet (each with a
//! zoned hex grid named as printed), the table of holding boxes and decks, the palette,
//! prototypes, dice, turn track, predefined setups and the rules the checker needs.

mod boards;
pub mod charts;
pub mod dead_piles;
pub mod documentation;
mod files;
pub mod gpid;
pub mod keys;
pub mod live_rules;
mod pieces;
mod setups;
pub mod table;
pub mod turns;

use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

use muster_check::Solution;
use muster_model::{Game, Unit};
use muster_render::FaceArts;
pub use muster_render::Keep;

pub use boards::{BoardPlan, MAIN_MAP, TABLE_MAP};
pub use dead_piles::{DeadPile, DeadPiles};
pub use files::Drawn;
use files::Files;
pub use pieces::{Prototype, Slot, image_name};
pub use setups::{PlacedPiece, SetupFile};

use muster_rules::Turn;
use muster_rules::embedded::{FORMAT, RulesetDoc};

use crate::vassal::xml::Element;

/// The VASSAL version modules are written for: the oldest 3.7 release, so no 3.7.x warns.
pub const VASSAL_VERSION: &str = "3.7.0";

/// One rendered map sheet.
#[derive(Debug, Clone)]
pub struct SheetImage {
    /// The sheet (map) id.
    pub sheet: String,
    /// The PNG, or its origin when its drawer holds it ([`Drawn::Held`]).
    pub png: Drawn,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels per inch the sheet was rendered at.
    pub dpi: f64,
}

/// Settings for a module (its version comes from `game.yaml`'s `module.version`).
#[derive(Debug, Clone, Copy)]
pub struct ModuleOptions<'a> {
    /// Counter size in inches (drawn at the maps' resolution).
    pub counter_in: f64,
    /// The game's counter sides, drawn.
    pub arts: &'a FaceArts,
}

/// Why a module could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageError(pub String);

impl std::fmt::Display for PackageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PackageError {}

/// The files of a module and what its setups hold.
#[derive(Debug)]
pub struct Module {
    /// Archive path → bytes.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Archive path → origin of each image drawn with one ([`Drawn`]).
    pub origins: BTreeMap<String, String>,
    /// The archive paths of the images their drawer holds ([`Drawn::Held`]): files of the
    /// module whose bytes are not in `files`, each with its origin in `origins`.
    pub held: BTreeSet<String>,
    /// One entry per scenario.
    pub setups: Vec<SetupFile>,
    /// Palette slots.
    pub slots: usize,
    /// Prototypes defined.
    pub prototypes: usize,
    /// The browser table.
    pub web: crate::web::Web,
    /// The rules checked live in VASSAL, and what of them only approximately.
    pub live_rules: LiveRulesReport,
}

/// What the module checks live in VASSAL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LiveRulesReport {
    /// The checks, as `section (kind)`.
    pub checked: Vec<String>,
    /// What could not be stated exactly, and what is checked instead, in words.
    pub approximated: Vec<String>,
}

/// The module's path of its rules as the embedded checker reads them (the ruleset as JSON).
pub const RULESET: &str = "rules/ruleset.json";

/// The module's path of the embedded rules checker, compiled for WebAssembly.
pub const CHECKER: &str = "rules/checker.wasm";

/// Draws an SVG as a PNG of the given size and resolution. The caller chooses how
/// (directly, or through a cache).
pub type Draw<'a> = dyn Fn(&ToDraw) -> Result<Drawn, String> + Sync + 'a;

/// An image for a [`Draw`] callback: an SVG at `width` × `height` pixels recording `dpi`,
/// known by the digest of its bytes and made only when it has to be drawn.
pub struct ToDraw<'a> {
    /// What the image is, for messages.
    pub label: &'a str,
    /// The BLAKE3 digest of the SVG's bytes.
    pub digest: [u8; 32],
    /// Makes the SVG.
    pub svg: &'a (dyn Fn() -> String + Sync),
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The resolution the PNG records.
    pub dpi: u32,
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
    let counter_px = ((options.counter_in * dpi).round() as u32).max(16);
    let mut files = Files::default();
    let dpi_px = dpi.round() as u32;
    let drawn = |image: &ToDraw| {
        draw(image)
            .map_err(|e| PackageError(format!("failed to draw {} ({e})", image.label)))
    };
    let render = |svg: &str, width: u32, height: u32, label: &str| {
        drawn(&ToDraw {
            label,
            digest: *blake3::hash(svg.as_bytes()).as_bytes(),
            svg: &|| svg.to_string(),
            width,
            height,
            dpi: dpi_px,
        })
    };

    // Counter images at the map's resolution.
    let font = muster_render::fonts::FAMILY;
    let faces: Vec<(&Unit, muster_render::Face)> = game
        .units
        .iter()
        .chain(&game.markers)
        .flat_map(|u| muster_render::faces(u).into_iter().map(move |f| (u, f)))
        .collect();
    // The rules, for the embedded checker and compiled for VASSAL's own automation (on the
    // main map's hexes: a game without a board has none to check), beside the images.
    let (images, (doc, live)) = rayon::join(
        || {
            faces
                .par_iter()
                .map(|(u, face)| {
                    // Keyed by the digest the counter images worked out already.
                    let (arts, size) = (options.arts, options.counter_in);
                    let name = image_name(u, *face);
                    let png = drawn(&ToDraw {
                        label: &format!("counter {name}"),
                        digest: arts.standalone_digest(game, u, *face, size),
                        svg: &|| {
                            muster_render::standalone_svg(&arts.get(game, u, *face), size)
                        },
                        width: counter_px,
                        height: counter_px,
                        dpi: dpi_px,
                    })?;
                    Ok((format!("images/{name}"), png))
                })
                .collect::<Result<Vec<_>, PackageError>>()
        },
        || {
            let doc = ruleset_doc(game, solutions);
            let live = live_rules::LiveRules::compile(&doc);
            (doc, live)
        },
    );
    for (path, drawn) in images? {
        files.insert_drawn(path, drawn);
    }
    let live_traits = if sheets.is_empty() { Vec::new() } else { live.traits() };
    if !live_traits.is_empty() {
        let svg = live_rules::LiveRules::highlight_svg(counter_px);
        let png = render(&svg, counter_px, counter_px, "the rule highlight")?;
        files.insert_drawn(format!("images/{}", live_rules::HIGHLIGHT_IMAGE), png);
    }

    // Pieces and decks.
    let dead_piles = DeadPiles::plan(game, counter_px);
    let prototypes = pieces::prototypes(game, &dead_piles, &live_traits);
    let mut slots = pieces::slots(game, &dead_piles);
    let mut decks = Vec::new();
    for deck in &game.meta.play.decks {
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
                    s.piece = pieces::unit_piece(game, marker, g, &dead_piles);
                    contents.push(s);
                }
            }
        }
        for u in game.units.iter().filter(|u| deck.one_per_unit_of.contains(&u.category))
        {
            let id = format!("chit-{}", u.id);
            let colour = u
                .nationality
                .as_ref()
                .and_then(|n| game.meta.nationalities.iter().find(|x| x.id.v == *n))
                .and_then(|n| n.rgb.as_ref())
                .map_or("#555555", |c| c.v.as_str());
            let image = format!("{id}.png");
            let png = render(
                &table::chit_svg(&u.printed.v, colour, counter_px, font),
                counter_px,
                counter_px,
                "a chit",
            )?;
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
                let png =
                    render(&table::card_svg(&label, colour, h, font), w, h, "a card")?;
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
        decks.push((deck.name.clone(), contents));
    }

    // Boards: the printed sheets and the table.
    let holding = setups::holding_labels(game, solutions);
    let deck_names: Vec<String> = decks.iter().map(|(n, _)| n.clone()).collect();
    let table = table::layout(&holding, &deck_names, counter_px);
    let plan = boards::plan(game, sheets, &table, counter_px)?;
    for s in sheets {
        files.insert_drawn(
            format!("images/{}", boards::sheet_image(game, &s.sheet)),
            s.png.clone(),
        );
    }
    if plan.has_table() {
        let png = render(
            &table::svg(&table, &format!("{}: holding boxes", game.meta.title), font),
            table.width,
            table.height,
            "the table",
        )?;
        files.insert_drawn(format!("images/{}", boards::TABLE_IMAGE), png);
    }

    if dead_piles.any() {
        let board = &dead_piles.board;
        let png = render(
            &dead_piles.svg(game, font),
            board.width,
            board.height,
            "the dead piles",
        )?;
        files.insert_drawn(format!("images/{}", dead_piles::DEAD_PILE_IMAGE), png);
    }

    // The Help menu and the chart window.
    let about = documentation::about_image(game);
    files.insert_drawn(
        format!("images/{}", documentation::ABOUT_IMAGE),
        render(&about.svg, about.width, about.height, "the about screen")?,
    );
    let charts = charts::charts(game);
    for c in &charts {
        let path = format!("images/{}", c.file);
        match &c.source {
            charts::Source::Drawn(d) => files.insert_drawn(
                path,
                render(&d.svg, d.width, d.height, &format!("chart {}", c.name))?,
            ),
            charts::Source::Image(bytes) => files.insert(path, bytes.clone()),
        }
    }
    for (path, bytes) in documentation::document_files(game) {
        files.insert(path, bytes);
    }
    let line_of_sight = game.meta.module.line_of_sight && !plan.boards.is_empty();
    let contents = documentation::Contents {
        charts: &charts,
        dead_piles: &dead_piles,
        main_map: !plan.boards.is_empty(),
        holding_boxes: plan.has_table(),
        line_of_sight,
        two_sided: prototypes.iter().any(|p| p.name == pieces::TWO_SIDED),
        live_rules: (!live_traits.is_empty()).then_some(&live),
    };
    files.insert(
        documentation::MODULE_HELP.into(),
        documentation::module_page(game, &contents).into_bytes(),
    );

    // Setups.
    let lookup = pieces::lookup(&prototypes);
    let slot_pieces = setups::SlotPieces::new(&slots, &prototypes, &lookup);
    // Each scenario's save is written on its own (side by side), and added in order; the
    // ruleset is written beside them.
    let (saves, ruleset) = rayon::join(
        || {
            solutions
                .par_iter()
                .map(|solution| {
                    // The setup lines the live checks read, when they check them.
                    let lines = doc
                        .scenarios
                        .get(&solution.scenario)
                        .filter(|_| !live_traits.is_empty() && live.setup.is_some());
                    setups::save(
                        game,
                        solution,
                        &slot_pieces,
                        &setups::Surroundings {
                            plan: &plan,
                            table: &table,
                            dead_piles: &dead_piles,
                        },
                        lines,
                        keep,
                    )
                })
                .collect::<Result<Vec<_>, PackageError>>()
        },
        || document_json(&doc),
    );
    let saves = saves?;
    files.insert(RULESET.into(), ruleset?);
    let mut setup_files = Vec::new();
    for (name, bytes, file) in saves {
        files.insert(name, bytes);
        setup_files.push(file);
    }

    let deck_slots: Vec<Slot> =
        decks.iter().flat_map(|(_, c)| c.iter().cloned()).collect();
    gpid::check_unique(
        slots.iter().chain(&deck_slots).map(|s| (s.gpid, s.name.as_str())),
    )?;
    let max_gpid = slots.iter().chain(&deck_slots).map(|s| s.gpid).max().unwrap_or(0);
    // The build file and the browser table's files are written side by side.
    let (build_file, web) = rayon::join(
        || {
            build_file(
                game,
                &Layout {
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
                &charts,
                &prototypes,
                &slots,
                &decks,
                &setup_files,
                max_gpid + 1,
                keep,
            )
        },
        || {
            let web = crate::web::files(game, &plan, &table, &slots, &setup_files);
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
    slots.extend(deck_slots);
    let live_rules = if live_traits.is_empty() {
        LiveRulesReport::default()
    } else {
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
    };
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

/// `moduledata`: name, version and the VASSAL version, with a fixed save date.
pub fn moduledata(game: &Game) -> String {
    Element::new("data")
        .attr("version", "1")
        .child(Element::new("version").text(game.meta.module.version.v.clone()))
        .child(Element::new("extra1"))
        .child(Element::new("extra2"))
        .child(Element::new("VassalVersion").text(VASSAL_VERSION))
        .child(Element::new("dateSaved").text("0"))
        .child(
            Element::new("description")
                .text(format!("{} (from {})", game.meta.title, game.meta.rulebook)),
        )
        .child(Element::new("name").text(game.meta.title.clone()))
        .document()
}

/// The names of the turn track's turns, when it has one a day (`23 May`, …); empty for a
/// numbered track. The module's turn tracker and the ruleset both read them.
pub fn turn_names(game: &Game) -> Vec<String> {
    game.meta.play.turns.as_ref().and_then(turns::day_names).unwrap_or_default()
}

/// The game's ruleset document: its stacking and placement rules, the facts about each
/// counter and hex they read, and for each scenario where every counter may stand and
/// where its setup starts it (from the scenario's solution, as the module's setup does),
/// for the embedded checker.
pub fn ruleset_doc(game: &Game, solutions: &[Solution]) -> RulesetDoc {
    let units = game
        .units
        .iter()
        .chain(&game.markers)
        .map(muster_check::solve::unit_facts)
        .collect();
    let hexes = game
        .board
        .as_ref()
        .map(|b| b.cells().filter_map(|c| b.label(c)).collect())
        .unwrap_or_default();
    let names = turn_names(game);
    // Scenario by scenario, side by side.
    let scenarios = solutions
        .par_iter()
        .map(|solution| {
            let id = &solution.scenario;
            let mut allowed = muster_check::allowed_in(game, id, solution);
            for (unit, starts) in setups::starts(game, solution, &names) {
                allowed.entry(unit).or_default().starts = starts;
            }
            (id.clone(), allowed)
        })
        .collect();
    let first_turns = game
        .scenarios
        .iter()
        .filter_map(|s| {
            Some((s.id.v.clone(), Turn::new(s.first_turn.as_deref()?, &names)))
        })
        .collect();
    RulesetDoc {
        format: FORMAT.into(),
        game: game.id.clone(),
        title: game.meta.title.clone(),
        rules: muster_check::ruleset(game),
        units,
        hexes,
        scenarios,
        dead_piles: dead_piles::piles(game),
        turn_names: names,
        first_turns,
        prohibited: muster_check::region::prohibited_hexes(game),
    }
}

/// `rules/ruleset.json`: [`ruleset_doc`] as JSON.
pub fn ruleset_json(
    game: &Game,
    solutions: &[Solution],
) -> Result<Vec<u8>, PackageError> {
    document_json(&ruleset_doc(game, solutions))
}

fn document_json(doc: &RulesetDoc) -> Result<Vec<u8>, PackageError> {
    let mut bytes = serde_json::to_vec(doc).map_err(|e| PackageError(e.to_string()))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A palette panel: its name and slots.
type Panel<'a> = (&'a str, Vec<&'a Slot>);

fn slot_element(s: &Slot, w: u32, h: u32) -> Element {
    Element::new(".widget.PieceSlot")
        .attr("entryName", &s.name)
        .attr("gpid", s.gpid)
        .attr("height", h)
        .attr("width", w)
        .text(s.piece.add_command("null"))
}

/// Where everything goes on the module's maps.
struct Layout<'a> {
    plan: &'a BoardPlan,
    table: &'a table::Table,
    dead_piles: &'a DeadPiles,
    line_of_sight: bool,
    /// Whether the counters check the rules live (the main map's move key, its Check rules
    /// button and the preference).
    live_rules: bool,
    /// The global properties the live checks use.
    live_properties: Vec<Element>,
}

#[allow(clippy::too_many_arguments)]
fn build_file(
    game: &Game,
    layout: &Layout,
    charts: &[charts::Chart],
    prototypes: &[Prototype],
    slots: &[Slot],
    decks: &[(String, Vec<Slot>)],
    setups: &[SetupFile],
    next_gpid: u32,
    keep: &Keep,
) -> Result<String, PackageError> {
    let mut root = Element::new(".GameModule")
        .attr("ModuleOther1", "")
        .attr("ModuleOther2", "")
        .attr("VassalVersion", VASSAL_VERSION)
        .attr("description", format!("{} (from {})", game.meta.title, game.meta.rulebook))
        .attr("name", &game.meta.title)
        .attr("nextPieceSlotId", next_gpid)
        .attr("version", &game.meta.module.version.v)
        .child(Element::new(".module.BasicCommandEncoder"))
        .child(documentation::element(game));
    let mut roster = Element::new(".module.PlayerRoster")
        .attr("buttonKeyStroke", "")
        .attr("buttonText", "Retire")
        .attr("buttonToolTip", "Switch sides, become observer, or release faction");
    for s in &game.meta.sides {
        roster = roster.child(Element::new("entry").text(s.name.clone()));
    }
    roster = roster.child(Element::new("entry").text("Solitaire"));
    root = root.child(roster).child(
        Element::new(".module.GlobalOptions")
            .attr("autoReport", "Always")
            .attr("chatterHTMLSupport", "Never")
            .attr("nonOwnerUnmaskable", "Never")
            .attr("playerIdFormat", "$PlayerName$")
            .attr("promptString", "Opponents can unmask pieces")
            .attr("sendToLocationMoveTrails", "Never")
            // Hex labels such as `0806` stay strings in expressions, leading zero kept.
            .attr("storeLeadingZeroIntegersAsStrings", "true")
            .children(layout.live_rules.then(live_rules::LiveRules::preference)),
    );
    root = root.children(boards::maps(
        layout.plan,
        layout.table,
        decks,
        layout.dead_piles,
        layout.line_of_sight,
        layout.live_rules,
    ));
    root = root
        .child(Element::new(".module.Chatter"))
        .child(Element::new(".module.KeyNamer"));

    let mut protos = Element::new(".module.PrototypesContainer");
    for p in prototypes {
        protos = protos.child(
            Element::new(".module.PrototypeDefinition")
                .attr("description", "")
                .attr("name", &p.name)
                .text(p.piece.add_command("null")),
        );
    }
    root = root.child(protos);

    // Palette: a tab per side (then markers), a panel per formation.
    let size = slots.first().map_or(64, |_| layout.plan.counter_px);
    let mut tabs = Element::new(".widget.TabWidget").attr("entryName", "Counters");
    let mut groups: Vec<(&str, Vec<Panel>)> = Vec::new();
    for s in slots {
        let (tab, panel) = (&s.group.0, &s.group.1);
        let t = match groups.iter().position(|(n, _)| n == tab) {
            Some(i) => i,
            None => {
                groups.push((tab, Vec::new()));
                groups.len() - 1
            }
        };
        let panels = &mut groups[t].1;
        match panels.iter_mut().find(|(n, _)| n == panel) {
            Some((_, v)) => v.push(s),
            None => panels.push((panel, vec![s])),
        }
    }
    // Each panel's counters are written side by side, through `keep`.
    let written: Vec<Vec<Element>> = groups
        .par_iter()
        .map(|(_, panels)| {
            panels
                .par_iter()
                .map(|(panel, members)| panel_slots(panel, members, size, keep))
                .collect()
        })
        .collect::<Result<_, _>>()?;
    for ((tab, panels), written) in groups.into_iter().zip(written) {
        let mut list = Element::new(".widget.ListWidget")
            .attr("entryName", tab)
            .attr("divider", 150);
        for ((panel, _), slots) in panels.into_iter().zip(written) {
            list = list.child(
                Element::new(".widget.PanelWidget")
                    .attr("entryName", panel)
                    .attr("fixed", "false")
                    .attr("nColumns", 8)
                    .attr("vert", "false")
                    .child(slots),
            );
        }
        tabs = tabs.child(list);
    }
    root = root.child(
        Element::new(".module.PieceWindow")
            .attr("name", "Counters")
            .attr("text", "Counters")
            .attr("tooltip", "Counters by side and formation")
            .attr("hidden", "false")
            .attr("scale", "1.0")
            .child(tabs),
    );

    if let Some(d) = &game.meta.dice {
        let name = format!("{}d{}", d.count, d.sides);
        root = root.child(
            Element::new(".module.DiceButton")
                .attr("name", &name)
                .attr("text", &name)
                .attr("tooltip", format!("Roll {name} ({})", d.section))
                .attr("nDice", d.count)
                .attr("nSides", d.sides)
                .attr("plus", 0)
                .attr("addToTotal", 0)
                .attr("reportTotal", d.count > 1)
                .attr("sortDice", "false")
                .attr("lockDice", "true")
                .attr("lockSides", "true")
                .attr("lockPlus", "true")
                .attr("lockAdd", "true")
                .attr("prompt", "false")
                .attr("reportFormat", "** $name$ = $result$ *** &lt;$PlayerName$&gt;"),
        );
    }
    if let Some(track) = &game.meta.play.turns {
        root = root.child(turns::tracker(track));
    }
    if let Some(window) = charts::element(charts) {
        root = root.child(window);
    }

    let mut menu = Element::new(".module.PredefinedSetup")
        .attr("isMenu", "true")
        .attr("name", "Scenarios")
        .attr("useFile", "false");
    for s in setups {
        menu = menu.child(
            Element::new(".module.PredefinedSetup")
                .attr("file", &s.file)
                .attr("isMenu", "false")
                .attr("name", &s.title)
                .attr("useFile", "true"),
        );
    }
    menu = menu.child(
        Element::new(".module.PredefinedSetup")
            .attr("isMenu", "false")
            .attr("name", "Empty board")
            .attr("useFile", "false"),
    );
    root = root.child(menu);
    root = root
        .child(
            Element::new(".module.properties.GlobalProperties")
                .children(layout.live_properties.clone()),
        )
        .child(Element::new(".module.properties.GlobalTranslatableMessages"))
        .child(Element::new("VASSAL.i18n.Language"));
    Ok(root.document())
}

/// How deep the palette's counters stand in the build file: module, piece window, tabs,
/// list, panel, slot.
const SLOT_DEPTH: usize = 5;

/// The counters of the palette panel `panel`, `members`, as the build file writes them
/// ([`slot_element`] at [`SLOT_DEPTH`]), through `keep` under what each is made from: its
/// name, id, size and piece. A changed counter writes only its own panel again.
fn panel_slots(
    panel: &str,
    members: &[&Slot],
    size: u32,
    keep: &Keep,
) -> Result<Element, PackageError> {
    let mut made_of = Vec::new();
    setups::field(&mut made_of, &size.to_le_bytes());
    for s in members {
        setups::field(&mut made_of, s.name.as_bytes());
        setups::field(&mut made_of, &s.gpid.to_le_bytes());
        setups::piece_bytes(&mut made_of, &s.piece);
    }
    let bytes = keep(&format!("buildFile.xml panel {panel}"), &[&made_of], &|| {
        Ok(members
            .iter()
            .map(|s| slot_element(s, size, size).written(SLOT_DEPTH))
            .collect::<String>()
            .into_bytes())
    })
    .map_err(PackageError)?;
    let written = String::from_utf8(bytes).map_err(|e| {
        PackageError(format!("the kept counters of panel {panel} are not text ({e})"))
    })?;
    Ok(Element::verbatim(written))
}
