//! The module's Help menu: an about screen (title, publisher, version, the rulebook and
//! the sources the module was built from), a page on playing the module that lists every
//! component and command it has, and one entry per document under the game's `docs/`
//! (PDFs open in the player's viewer, HTML and text pages in VASSAL's help window).

use std::collections::BTreeMap;
use std::fmt::Write;

use muster_model::Game;
use muster_model::assets::DocumentKind;
use muster_render::chart::{CardLine, Drawn, card_svg};

use super::charts::Chart;
use super::dead_piles::DeadPiles;
use super::keys;
use super::live_rules::{CHECK_BUTTON, END_SETUP, LiveRules};
use crate::vassal::xml::Element;
use muster_render::markup::text as esc;

/// The page on playing the module, inside the archive.
pub const MODULE_HELP: &str = "help/module.html";
/// The title of that page in the Help menu.
pub const MODULE_HELP_TITLE: &str = "Playing this module";
/// The page on what changed since the last release, inside the archive.
pub const WHATS_NEW: &str = "help/whats-new.html";
/// The title of that page in the Help menu.
pub const WHATS_NEW_TITLE: &str = "What's new";

/// The lines of the about screen; `released` is the release's date (`2026-12-07`).
pub fn about_lines(game: &Game, released: &str) -> Vec<CardLine> {
    let mut lines = vec![
        ("Version".to_string(), game.meta.module.version.v.clone()),
        ("Released".to_string(), released.to_string()),
    ];
    if let Some(series) = &game.meta.series {
        lines.push(("Series".into(), series.clone()));
    }
    if let Some(publisher) = &game.meta.module.publisher {
        lines.push(("Publisher".into(), publisher.clone()));
    }
    lines.push(("Rules".into(), game.meta.rulebook.clone()));
    lines.push((
        "Built".into(),
        format!("by muster {} from sources/{}", env!("CARGO_PKG_VERSION"), game.id),
    ));
    lines.into_iter().map(|(label, value)| CardLine::Entry(label, value)).collect()
}

/// The about screen of the release of `released`, drawn.
pub fn about_image(game: &Game, released: &str) -> Drawn {
    card_svg(&game.meta.title, &about_lines(game, released), 640.0)
}

/// The about screen's image file, named by its content `about` ([`about_image`]).
pub fn about_file(about: &Drawn) -> String {
    super::files::named_by_content(
        "about",
        "png",
        &super::files::drawing(&about.svg, about.width, about.height),
    )
}

/// Where a shipped document goes in the archive.
pub fn document_entry(file: &str) -> String {
    format!("help/{file}")
}

/// The `Documentation` element: about screen (its image file `about`, see [`about_file`]),
/// the page on playing the module, the page on what is new when there is one, then every
/// shipped document.
pub fn element(game: &Game, about: &str, whats_new: bool) -> Element {
    let mut doc = Element::new(".module.Documentation")
        .child(
            Element::new(".module.documentation.AboutScreen")
                .attr("fileName", about)
                .attr("title", format!("About {}", game.meta.title)),
        )
        .child(help_file(MODULE_HELP, MODULE_HELP_TITLE));
    if whats_new {
        doc = doc.child(help_file(WHATS_NEW, WHATS_NEW_TITLE));
    }
    for d in &game.documents {
        let entry = document_entry(&d.file);
        doc = doc.child(match d.kind {
            DocumentKind::Pdf => Element::new(".module.documentation.BrowserPDFFile")
                .attr("pdfFile", &entry)
                .attr("title", &d.file),
            DocumentKind::Html | DocumentKind::Text => help_file(&entry, &d.file),
        });
    }
    doc
}

fn help_file(entry: &str, title: &str) -> Element {
    Element::new(".module.documentation.HelpFile")
        .attr("fileName", entry)
        .attr("fileType", "archive")
        .attr("title", title)
}

/// The shipped documents as archive entries.
pub fn document_files(game: &Game) -> BTreeMap<String, Vec<u8>> {
    game.documents.iter().map(|d| (document_entry(&d.file), d.bytes.clone())).collect()
}

/// The page on what changed since the last release (HTML that VASSAL's help window
/// shows): one list per part that changed, a change a line.
pub fn whats_new_page(changes: &muster_model::changes::Changes) -> String {
    let (from, to) = &changes.versions;
    let mut s = format!(
        "<html><head><title>{WHATS_NEW_TITLE}</title></head><body><h1>What's new in {}</h1>\
         <p>Changes from version {} to {}.</p>",
        esc(&changes.title),
        esc(from),
        esc(to)
    );
    if changes.is_empty() {
        s.push_str("<p>Nothing changed.</p>");
    }
    for (heading, part) in changes.parts() {
        if part.is_empty() {
            continue;
        }
        let _ = write!(s, "<h2>{heading}</h2><ul>");
        for change in part {
            let _ =
                write!(s, "<li>{}</li>", esc(&muster_model::changes::sentence(change)));
        }
        s.push_str("</ul>");
    }
    s.push_str("</body></html>\n");
    s
}

/// What a module holds, for the page on playing it.
pub struct Contents<'a> {
    /// The charts of the chart window.
    pub charts: &'a [Chart],
    /// The dead piles.
    pub dead_piles: &'a DeadPiles,
    /// Whether the game has a main map (a printed grid).
    pub main_map: bool,
    /// Whether the module has a map of holding boxes.
    pub holding_boxes: bool,
    /// Whether the main map has a line-of-sight thread.
    pub line_of_sight: bool,
    /// Whether any counter has two sides.
    pub two_sided: bool,
    /// Whether counters carry the `Strength` label (a scenario starts some with
    /// strengths of their own).
    pub strength_label: bool,
    /// The rules checked live on the main map, if any.
    pub live_rules: Option<&'a LiveRules>,
    /// The release's date (`2026-12-07`).
    pub released: &'a str,
}

/// The page on playing the module (HTML that VASSAL's help window shows).
pub fn module_page(game: &Game, c: &Contents) -> String {
    let key = |k: keys::Key| format!("Ctrl+{}", char::from_u32(k.code).unwrap_or('?'));
    let mut s = format!(
        "<html><head><title>{t}</title></head><body><h1>{t}</h1><p>Version {v} of {d}, built \
         by muster from the data of <i>{r}</i>, transcribed as printed.</p>",
        t = esc(&game.meta.title),
        v = esc(&game.meta.module.version.v),
        d = esc(c.released),
        r = esc(&game.meta.rulebook),
    );
    s.push_str("<h2>Maps</h2><ul>");
    if c.main_map {
        let _ = write!(
            s,
            "<li><b>Main Map</b>: every hex named as printed; rest the mouse on a hex to see its \
             name and the counters in it. Toolbar: overview map, zoom, hide pieces, save the map as \
             an image{}, and mark every counter not moved. Alt+click flares a hex for the other \
             players.</li>",
            if c.line_of_sight { ", line of sight (drag from hex to hex)" } else { "" }
        );
    }
    if c.holding_boxes {
        s.push_str(
            "<li><b>Holding Boxes</b>: reinforcements by turn and entry area, groups and counters \
             the printed setup does not place; decks and chit cups.</li>",
        );
    }
    if c.dead_piles.any() {
        let names: Vec<String> =
            c.dead_piles.piles.iter().map(|p| esc(&p.location)).collect();
        let _ = write!(s, "<li><b>Dead Pile</b>: {}.</li>", names.join(", "));
    }
    s.push_str("</ul><h2>Counter commands</h2><table border=\"1\" cellpadding=\"4\">");
    s.push_str("<tr><th>Command</th><th>Key</th><th>What it does</th></tr>");
    let mut row = |name: &str, k: String, what: &str| {
        let _ = write!(s, "<tr><td>{name}</td><td>{k}</td><td>{what}</td></tr>");
    };
    // Backs that are a state (`Disordered`): the command that shows it bears its name.
    let states: std::collections::BTreeSet<&str> =
        game.units.iter().filter_map(|u| u.back_state.as_deref()).collect();
    if c.two_sided || !states.is_empty() {
        row(
            "Flip",
            key(keys::FLIP),
            "turns a two-sided counter over; reported in the chat",
        );
    }
    if c.two_sided {
        row(
            "Step loss",
            key(keys::STEP_LOSS),
            "shows the reduced side; reported in the chat; not offered once reduced",
        );
    }
    for state in states {
        row(
            &esc(state),
            key(keys::STEP_LOSS),
            "shows the side of a counter whose back is this state; reported in the chat; not offered on that side",
        );
    }
    if c.dead_piles.any() {
        row(
            "Eliminate",
            key(keys::ELIMINATE),
            "sends the unit to its side's dead pile; reported in the chat",
        );
    }
    if c.strength_label {
        row(
            "Change strength",
            "menu".into(),
            "asks for the strength shown under the counter, which the setup fills in where the scenario starts the counter with a strength of its own",
        );
    }
    row("Clone", key(keys::CLONE), "puts a copy of the counter beside it");
    row("Delete", key(keys::DELETE), "removes the counter");
    row(
        "Mark Moved",
        key(keys::MARK_MOVED),
        "marks or unmarks the counter as moved (moves mark it)",
    );
    row("Movement Trail", key(keys::TRAIL), "shows or hides the path it moved along");
    s.push_str("</table>");
    if !c.charts.is_empty() {
        s.push_str("<h2>Charts</h2><p>The Charts button opens:</p><ul>");
        for chart in c.charts {
            let _ = write!(s, "<li>{}</li>", esc(&chart.label()));
        }
        s.push_str("</ul>");
    }
    if let Some(live) = c.live_rules {
        rules_section(&mut s, live);
    }
    if let Some(track) = &game.meta.play.turns {
        let end = match (&track.last_day, track.count) {
            (Some(day), _) => {
                format!("ends on {} ({})", esc(&day.v), esc(&track.section))
            }
            (None, Some(n)) => format!("ends at turn {n} ({})", esc(&track.section)),
            (None, None) => format!(
                "counts on from turn 1, as the rulebook does not print its length ({})",
                esc(&track.section)
            ),
        };
        let _ = write!(s, "<h2>Turns</h2><p>The turn tracker {end}.</p>");
    }
    if !game.meta.notes.is_empty() {
        s.push_str("<h2>Notes on the data</h2><ul>");
        for n in &game.meta.notes {
            let _ = write!(s, "<li>{}</li>", esc(&n.v));
        }
        s.push_str("</ul>");
    }
    s.push_str("</body></html>\n");
    s
}

/// The page's section on the rules VASSAL checks as counters move.
fn rules_section(s: &mut String, live: &LiveRules) {
    s.push_str(
        "<h2>Rules checks</h2><p>When a counter ends a move on the Main Map (dragged, or \
         dropped from the palette or a dead pile), its hex is checked against these rules of \
         the game's ruleset, the same the rules checker inside this module \
         (<tt>rules/checker.wasm</tt>, run by <tt>muster check</tt>) reads:</p><ul>",
    );
    for c in live.stacking.iter().chain(&live.hex) {
        let what = match c.kind {
            "stacking" => "stacking, for the moved counter's side",
            "opposing-units" => "opposing units may not share a hex",
            _ => "no unit may enter a hex of prohibited terrain",
        };
        if c.section.is_empty() {
            let _ = write!(s, "<li>{what}</li>");
        } else {
            let _ = write!(s, "<li>rule {} ({what})</li>", esc(&c.section));
        }
    }
    if live.setup.is_some() {
        let _ = write!(
            s,
            "<li>while a scenario is being set up, each counter its predefined setup places \
             on a hex stays within the hexes its printed setup line allows; the \
             <b>{END_SETUP}</b> button ends these checks</li>"
        );
    }
    s.push_str("</ul>");
    let _ = write!(
        s,
        "<p>A broken rule is reported in the chat in the checker's words, naming the hex and \
         the rule section, and the counters of the offending hex are framed in red until it \
         is legal again. A check never blocks a move. The <b>{CHECK_BUTTON}</b> button of the \
         Main Map checks every hex and lists each broken rule once. Turn the checks after \
         each move (and the frames) off in Preferences, tab <i>Rules</i>.</p>"
    );
    if !live.approximations.is_empty() {
        s.push_str("<p>Checked only approximately:</p><ul>");
        for a in &live.approximations {
            let _ = write!(s, "<li>{}</li>", esc(a));
        }
        s.push_str("</ul>");
    }
    s.push_str(
        "<p>Moving a whole stack reports the hex once per counter moved; a hex holding two \
         stacks (counters not dropped on its centre) may be listed twice by the button.</p>",
    );
}
