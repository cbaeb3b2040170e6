//! `buildFile.xml`: the module's components in the order VASSAL lists them, each section
//! written by its own function.

use rayon::prelude::*;

use muster_model::Game;

use super::boards::{self, BoardPlan};
use super::pieces::{Prototype, Slot};
use super::{
    Keep, PackageError, SetupFile, VASSAL_VERSION, charts, dead_piles::DeadPiles,
    documentation, live_rules, setups, table, turns,
};
use crate::vassal::xml::Element;

/// A palette panel: its name and slots.
type Panel<'a> = (&'a str, Vec<&'a Slot>);

/// A palette slot (`PieceSlot`) of `w` × `h` pixels holding the slot's piece.
pub(super) fn slot_element(s: &Slot, w: u32, h: u32) -> Element {
    Element::new(".widget.PieceSlot")
        .attr("entryName", &s.name)
        .attr("gpid", s.gpid)
        .attr("height", h)
        .attr("width", w)
        .text(s.piece.add_command("null"))
}

/// Where everything goes on the module's maps.
pub(super) struct Layout<'a> {
    pub(super) plan: &'a BoardPlan,
    pub(super) table: &'a table::Table,
    pub(super) dead_piles: &'a DeadPiles,
    pub(super) line_of_sight: bool,
    /// Whether the counters check the rules live (the main map's move key, its Check rules
    /// button and the preference).
    pub(super) live_rules: bool,
    /// The global properties the live checks use.
    pub(super) live_properties: Vec<Element>,
}

/// What the build file lists besides the maps.
pub(super) struct Contents<'a> {
    /// Where everything goes on the maps.
    pub(super) layout: Layout<'a>,
    /// The chart window's charts.
    pub(super) charts: &'a [charts::Chart],
    /// The prototypes the pieces are expanded from.
    pub(super) prototypes: &'a [Prototype],
    /// The palette's counters.
    pub(super) slots: &'a [Slot],
    /// Each deck's name and contents.
    pub(super) decks: &'a [(String, Vec<Slot>)],
    /// The predefined setups.
    pub(super) setups: &'a [SetupFile],
    /// The id the next piece slot made in VASSAL's editor gets.
    pub(super) next_gpid: u32,
    /// The about screen's image file.
    pub(super) about: &'a str,
    /// Whether the help has a page on what is new.
    pub(super) whats_new: bool,
}

/// The build file of `game`, its palette's panels written through `keep`.
pub(super) fn write(
    game: &Game,
    contents: &Contents,
    keep: &Keep,
) -> Result<String, PackageError> {
    let layout = &contents.layout;
    let root = header(game, contents, layout.live_rules)
        .children(boards::maps(
            layout.plan,
            layout.table,
            contents.decks,
            layout.dead_piles,
            layout.line_of_sight,
            layout.live_rules,
        ))
        .child(Element::new(".module.Chatter"))
        .child(Element::new(".module.KeyNamer"))
        .child(prototypes(contents.prototypes))
        .child(palette(contents.slots, layout.plan.counter_px, keep)?)
        .children(game.meta.dice.as_ref().map(dice_button))
        .children(game.meta.play.turns.as_ref().map(turns::tracker))
        .children(charts::element(contents.charts))
        .child(scenarios_menu(contents.setups))
        .child(
            Element::new(".module.properties.GlobalProperties")
                .children(layout.live_properties.clone()),
        )
        .child(Element::new(".module.properties.GlobalTranslatableMessages"))
        .child(Element::new("VASSAL.i18n.Language"));
    Ok(root.document())
}

/// The module element with its encoder, help, player roster and global options.
fn header(game: &Game, contents: &Contents, live_rules: bool) -> Element {
    let mut roster = Element::new(".module.PlayerRoster")
        .attr("buttonKeyStroke", "")
        .attr("buttonText", "Retire")
        .attr("buttonToolTip", "Switch sides, become observer, or release faction");
    for s in &game.meta.sides {
        roster = roster.child(Element::new("entry").text(s.name.clone()));
    }
    roster = roster.child(Element::new("entry").text("Solitaire"));
    Element::new(".GameModule")
        .attr("ModuleOther1", "")
        .attr("ModuleOther2", "")
        .attr("VassalVersion", VASSAL_VERSION)
        .attr("description", format!("{} (from {})", game.meta.title, game.meta.rulebook))
        .attr("name", &game.meta.title)
        .attr("nextPieceSlotId", contents.next_gpid)
        .attr("version", &game.meta.module.version.v)
        .child(Element::new(".module.BasicCommandEncoder"))
        .child(documentation::element(game, contents.about, contents.whats_new))
        .child(roster)
        .child(
            Element::new(".module.GlobalOptions")
                .attr("autoReport", "Always")
                .attr("chatterHTMLSupport", "Never")
                .attr("nonOwnerUnmaskable", "Never")
                .attr("playerIdFormat", "$PlayerName$")
                .attr("promptString", "Opponents can unmask pieces")
                .attr("sendToLocationMoveTrails", "Never")
                // Hex labels such as `0806` stay strings in expressions, leading zero kept.
                .attr("storeLeadingZeroIntegersAsStrings", "true")
                .children(live_rules.then(live_rules::LiveRules::preference)),
        )
}

/// The prototypes container.
fn prototypes(prototypes: &[Prototype]) -> Element {
    let mut protos = Element::new(".module.PrototypesContainer");
    for p in prototypes {
        protos = protos.child(
            Element::new(".module.PrototypeDefinition")
                .attr("description", "")
                .attr("name", &p.name)
                .text(p.piece.add_command("null")),
        );
    }
    protos
}

/// The palette: a tab per side (then markers), a panel per formation, counters of
/// `counter_px` pixels (64 when there are none).
fn palette(
    slots: &[Slot],
    counter_px: u32,
    keep: &Keep,
) -> Result<Element, PackageError> {
    let size = slots.first().map_or(64, |_| counter_px);
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
    let mut tabs = Element::new(".widget.TabWidget").attr("entryName", "Counters");
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
    Ok(Element::new(".module.PieceWindow")
        .attr("name", "Counters")
        .attr("text", "Counters")
        .attr("tooltip", "Counters by side and formation")
        .attr("hidden", "false")
        .attr("scale", "1.0")
        .child(tabs))
}

/// The button that rolls the game's dice.
fn dice_button(d: &muster_model::source::Dice) -> Element {
    let name = format!("{}d{}", d.count, d.sides);
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
        .attr("reportFormat", "** $name$ = $result$ *** &lt;$PlayerName$&gt;")
}

/// The Scenarios menu: each predefined setup, then the empty board.
fn scenarios_menu(setups: &[SetupFile]) -> Element {
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
    menu.child(
        Element::new(".module.PredefinedSetup")
            .attr("isMenu", "false")
            .attr("name", "Empty board")
            .attr("useFile", "false"),
    )
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
