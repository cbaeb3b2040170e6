//! What a saved game holds, as a player would see it: every piece with its map, VASSAL
//! location name and what holds it (a stack, a deck, nothing), every deck, the turn, the
//! global properties, notes and players, and every entry that could not be read.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;

use crate::read::{Layout, MapInfo, ModuleInfo, Slot};
use crate::vassal::piece::Piece;
use crate::vassal::restore::Restore;
use crate::vassal::save::{SavedGame, Unread};
use crate::vassal::turn::LevelValue;

/// What holds a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Holder {
    /// A stack on a map (a lone counter on a hex is a stack of one).
    Stack,
    /// Nothing: it stands on a map by itself (pieces that do not stack).
    Single,
    /// A deck.
    Deck,
    /// Nothing, and it is on no map.
    Nowhere,
}

/// A piece of a saved game.
#[derive(Debug, Clone, Serialize)]
pub struct ListedPiece {
    /// Piece id in the save.
    pub id: String,
    /// Piece name.
    pub name: String,
    /// Its `UnitId` property: the counter id muster gave it, or that of the counter it
    /// belongs to (a chit carries its HQ's).
    pub unit_id: Option<String>,
    /// Its `Category` property (`combat`, `hq`, `marker`, `chit`, `card`, …).
    pub category: Option<String>,
    /// Side property.
    pub side: Option<String>,
    /// Map identifier, or none for pieces off every map.
    pub map: Option<String>,
    /// Map x.
    pub x: i64,
    /// Map y.
    pub y: i64,
    /// VASSAL's location name, where the module's grids tell it.
    pub location: Option<String>,
    /// What holds it.
    #[serde(rename = "in")]
    pub holder: Holder,
    /// The deck, when a deck holds it.
    pub deck: Option<String>,
    /// Its place in its stack or deck, from 0.
    pub index: usize,
    /// Shows its reduced side (Layer `Step` at level 2).
    pub reduced: bool,
    /// The text of its `Strength` label (the values a scenario started it with, as the
    /// players have changed them), when it has one and it is not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<String>,
    /// The values its counter prints, as muster's modules record them: `Full_<value>` for
    /// the front and `Reduced_<value>` for the back, by property name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub printed: BTreeMap<String, String>,
}

/// The property of the Text Label that shows the values a scenario starts a counter with.
pub const STRENGTH: &str = "Strength";

/// A deck of a saved game.
#[derive(Debug, Clone, Serialize)]
pub struct ListedDeck {
    /// Deck id in the save.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Map identifier.
    pub map: Option<String>,
    /// Map x.
    pub x: i64,
    /// Map y.
    pub y: i64,
    /// VASSAL's location name.
    pub location: Option<String>,
    /// Its contents face down.
    pub face_down: bool,
    /// When it shuffles.
    pub shuffle: String,
    /// Its pieces' ids, in deck order.
    pub pieces: Vec<String>,
}

/// A turn tracker's position.
#[derive(Debug, Clone, Serialize)]
pub struct ListedTurn {
    /// Tracker id (`TurnTracker0`).
    pub tracker: String,
    /// Tracker name, from the module.
    pub name: Option<String>,
    /// Each level's value, outermost first (empty without the module).
    pub levels: Vec<LevelValue>,
    /// The state as saved.
    pub state: String,
}

/// Something else a saved game records: a global property, notes, a player, a clock, the
/// boards of a map, ….
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Fact {
    /// What kind (`property`, `scenario-notes`, `player`, `boards`, …).
    pub kind: String,
    /// Its name (the property, player, map, clock, …).
    pub name: String,
    /// Its value, in words.
    pub value: String,
}

/// Everything muster read of a saved game.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Listing {
    /// Every piece.
    pub pieces: Vec<ListedPiece>,
    /// Every deck.
    pub decks: Vec<ListedDeck>,
    /// Every turn tracker.
    pub turns: Vec<ListedTurn>,
    /// Properties, notes, players, boards, clocks and the other components' state.
    pub facts: Vec<Fact>,
    /// Whether the game had started (`SETUP_STACK`): when not, VASSAL places every
    /// at-start stack and deck again as it loads the save.
    pub started: bool,
    /// Entries that could not be read, or only in part.
    pub unread: Vec<Unread>,
    /// Pieces and decks whose location muster cannot tell, as the module uses a class
    /// that is not VASSAL's own for their map or grid: what and where in the buildFile.
    pub unmodelled: Vec<Unread>,
}

impl Listing {
    /// The first tracker's position as `Day 26 May, Step Deck 1`, if it has one.
    pub fn turn_text(&self) -> Option<String> {
        let t = self.turns.first()?;
        (!t.levels.is_empty()).then(|| {
            t.levels
                .iter()
                .map(|l| format!("{} {}", l.level, l.value))
                .collect::<Vec<_>>()
                .join(", ")
        })
    }
}

fn fact(kind: &str, name: impl Into<String>, value: impl Into<String>) -> Fact {
    Fact { kind: kind.into(), name: name.into(), value: value.into() }
}

/// What holds a piece, and where that is.
struct Hold<'a> {
    holder: Holder,
    deck: Option<&'a str>,
    index: usize,
    map: Option<&'a str>,
    x: i64,
    y: i64,
}

/// Reads a saved game: every piece (with its location named by the module's grids when the
/// module is given), deck, turn and recorded fact, and every entry that could not be read,
/// including those that do not fit the module (a map, board or turn tracker it lacks).
pub fn listing(saved: &SavedGame, module: Option<&ModuleInfo>) -> Listing {
    let mut out = Listing { unread: saved.unread.clone(), ..Listing::default() };
    let mut reader = Reader::new(module);
    for r in &saved.restores {
        reader.restore(r.entry, &r.command, &mut out);
    }
    let mut holds: BTreeMap<&str, Hold> = BTreeMap::new();
    for (k, a) in saved.added.iter().enumerate() {
        if let Some(s) = &a.stack {
            let map = (s.map != "null").then_some(s.map.as_str());
            for (index, p) in s.pieces.iter().enumerate() {
                let hold = Hold {
                    holder: Holder::Stack,
                    deck: None,
                    index,
                    map,
                    x: s.x,
                    y: s.y,
                };
                holds.insert(p.as_str(), hold);
            }
        }
        if let Some(d) = &a.deck {
            for (index, p) in d.pieces.iter().enumerate() {
                let hold = Hold {
                    holder: Holder::Deck,
                    deck: Some(d.name.as_str()),
                    index,
                    map: d.map.as_deref(),
                    x: d.x,
                    y: d.y,
                };
                holds.insert(p.as_str(), hold);
            }
            reader.check_map(saved.added_entry(k), &a.id, d.map.as_deref());
            out.decks.push(ListedDeck {
                id: a.id.clone(),
                name: d.name.clone(),
                map: d.map.clone(),
                x: d.x,
                y: d.y,
                location: reader.place(
                    saved.added_entry(k),
                    &a.id,
                    d.map.as_deref(),
                    (d.x, d.y),
                ),
                face_down: d.face_down,
                shuffle: d.shuffle_option.clone(),
                pieces: d.pieces.clone(),
            });
        }
    }
    for (k, added) in saved.added.iter().enumerate() {
        let Some(piece) = &added.piece else { continue };
        let Some(pos) = piece.position() else { continue };
        let hold = holds.remove(added.id.as_str()).unwrap_or(Hold {
            holder: if pos.map.is_some() { Holder::Single } else { Holder::Nowhere },
            deck: None,
            index: 0,
            map: None,
            x: pos.x,
            y: pos.y,
        });
        let map = hold.map.map(str::to_string).or_else(|| match hold.holder {
            Holder::Single => pos.map.clone(),
            _ => None,
        });
        reader.check_map(saved.added_entry(k), &added.id, map.as_deref());
        reader.check_name(saved.added_entry(k), &added.id, piece);
        let reduced = piece.traits.iter().any(|t| {
            t.id() == "emb2"
                && t.fields().get(18).map(String::as_str) == Some("Step")
                && t.state == "2"
        });
        out.pieces.push(ListedPiece {
            id: added.id.clone(),
            name: piece.shown_name(),
            unit_id: piece.marker("UnitId"),
            category: piece.marker("Category"),
            side: piece.marker("Side"),
            location: reader.place(
                saved.added_entry(k),
                &added.id,
                map.as_deref(),
                (hold.x, hold.y),
            ),
            map,
            x: hold.x,
            y: hold.y,
            holder: hold.holder,
            deck: hold.deck.map(str::to_string),
            index: hold.index,
            reduced,
            strength: piece.label_text(STRENGTH).filter(|s| !s.is_empty()),
            printed: piece
                .markers_starting("Full_")
                .into_iter()
                .chain(piece.markers_starting("Reduced_"))
                .collect(),
        });
    }
    out.unread.extend(reader.unread);
    out.unmodelled = reader.unmodelled;
    out.unread.sort_by_key(|u| u.entry);
    out
}

/// Reads the restore commands with the module's help, remembering what does not fit it.
/// Maps, their boards and their layouts are looked up by name, so that reading costs the
/// same for each piece however many maps and boards the module has.
struct Reader<'m> {
    module: Option<&'m ModuleInfo>,
    unread: Vec<Unread>,
    /// Locations muster cannot tell.
    unmodelled: Vec<Unread>,
    /// The module's maps by name (the first of a name).
    maps: HashMap<&'m str, &'m MapInfo>,
    /// The names of each map's boards, as they are asked for.
    board_names: HashMap<&'m str, HashSet<&'m str>>,
    /// Board arrangements the save states, which win over the module's default (the first
    /// one of a map).
    arrangements: HashMap<String, Vec<Slot>>,
    /// The boards the save shows turned round, by map (the first arrangement of a map).
    reversed: HashMap<String, Vec<String>>,
    /// Each map's boards as placed, as they are asked for (once every arrangement is read).
    layouts: HashMap<String, Option<Layout<'m>>>,
    /// The facts kept so far.
    facts: HashSet<Fact>,
}

impl<'m> Reader<'m> {
    fn new(module: Option<&'m ModuleInfo>) -> Reader<'m> {
        let mut maps = HashMap::new();
        for m in module.map_or(&[][..], |m| m.maps.as_slice()) {
            maps.entry(m.name.as_str()).or_insert(m);
        }
        Reader {
            module,
            unread: Vec::new(),
            unmodelled: Vec::new(),
            maps,
            board_names: HashMap::new(),
            arrangements: HashMap::new(),
            reversed: HashMap::new(),
            layouts: HashMap::new(),
            facts: HashSet::new(),
        }
    }

    fn map_of(&self, name: &str) -> Option<&'m MapInfo> {
        self.maps.get(name).copied()
    }

    fn problem(&mut self, entry: usize, id: &str, what: String) {
        self.unread.push(Unread { entry, id: id.to_string(), what });
    }

    /// A map the module does not have is a problem, when the module is known.
    fn check_map(&mut self, entry: usize, id: &str, map: Option<&str>) {
        if let Some(m) = map
            && self.module.is_some()
            && self.map_of(m).is_none()
        {
            self.problem(
                entry,
                id,
                format!("it stands on map `{m}`, which the module does not have"),
            );
        }
    }

    /// VASSAL's location name of a point of a map; none off every map, or where the
    /// module uses a class muster cannot model (said in `unmodelled`).
    fn place(
        &mut self,
        entry: usize,
        id: &str,
        map: Option<&str>,
        p: (i64, i64),
    ) -> Option<String> {
        let m = map?;
        if !self.layouts.contains_key(m) {
            let layout = self.map_of(m).map(|info| {
                let arrangement = self
                    .arrangements
                    .get(m)
                    .map_or(info.arrangement.as_slice(), Vec::as_slice);
                let reversed: Vec<&str> = match self.reversed.get(m) {
                    Some(r) => r.iter().map(String::as_str).collect(),
                    None => info.reversed.iter().map(String::as_str).collect(),
                };
                Layout::turned(info, arrangement, &reversed)
            });
            self.layouts.insert(m.to_string(), layout);
        }
        match self.layouts.get(m)?.as_ref()?.name(p.0, p.1) {
            Ok(name) => Some(name),
            Err(u) => {
                let what = format!("its location on map `{m}` is not told: {u}");
                self.unmodelled.push(Unread { entry, id: id.to_string(), what });
                None
            }
        }
    }

    /// A name that refers to what muster does not evaluate is said.
    fn check_name(&mut self, entry: usize, id: &str, piece: &Piece) {
        let gaps = piece.name_gaps();
        if !gaps.is_empty() {
            let what = format!(
                "its name refers to {}, which muster does not evaluate: VASSAL may show another name than `{}`",
                gaps.join(", "),
                piece.shown_name()
            );
            self.unmodelled.push(Unread { entry, id: id.to_string(), what });
        }
    }

    /// Whether map `info` has a board named `board`.
    fn has_board(&mut self, info: &'m MapInfo, board: &str) -> bool {
        self.board_names
            .entry(info.name.as_str())
            .or_insert_with(|| info.boards.iter().map(|b| b.name.as_str()).collect())
            .contains(board)
    }

    /// Reads one restore command into `out`. A component VASSAL lists twice writes its
    /// state twice; the same fact is kept once.
    fn restore(&mut self, entry: usize, command: &Restore, out: &mut Listing) {
        let before = out.facts.len();
        self.read_restore(entry, command, out);
        if out.facts.len() > before && !self.facts.insert(out.facts[before].clone()) {
            out.facts.truncate(before);
        }
    }

    fn read_restore(&mut self, entry: usize, command: &Restore, out: &mut Listing) {
        let f = &mut out.facts;
        match command {
            Restore::Begin | Restore::End | Restore::Empty => {}
            Restore::NotNew => out.started = true,
            Restore::Boards { map, boards } => {
                let id = format!("{map}BoardPicker");
                if self.module.is_some() {
                    match self.map_of(map) {
                        None => self.problem(
                            entry,
                            &id,
                            format!("the boards of map `{map}`, which the module does not have"),
                        ),
                        Some(info) => {
                            for b in boards {
                                if !self.has_board(info, &b.name) {
                                    let what = format!(
                                        "board `{}` is not a board of map `{map}`",
                                        b.name
                                    );
                                    self.problem(entry, &id, what);
                                }
                            }
                        }
                    }
                }
                let slots = boards
                    .iter()
                    .map(|b| {
                        let n = |v: i64| u32::try_from(v).unwrap_or(0);
                        (b.name.clone(), n(b.column), n(b.row))
                    })
                    .collect();
                if !self.arrangements.contains_key(map) {
                    let turned =
                        boards.iter().filter(|b| b.reversed).map(|b| b.name.clone());
                    self.reversed.insert(map.clone(), turned.collect());
                }
                self.arrangements.entry(map.clone()).or_insert(slots);
                let list: Vec<String> = boards
                    .iter()
                    .map(|b| {
                        let rev = if b.reversed { " (reversed)" } else { "" };
                        format!("{}{rev} at column {}, row {}", b.name, b.column, b.row)
                    })
                    .collect();
                f.push(fact("boards", map.clone(), list.join("; ")));
            }
            Restore::Turn(t) => {
                let id = format!("TURN{}", t.tracker);
                let def = self
                    .module
                    .and_then(|m| m.trackers.iter().find(|d| d.id == t.tracker));
                let levels = match def {
                    Some(d) => t.read(d).unwrap_or_else(|e| {
                        self.problem(entry, &id, format!("turn tracker {}: {e}", d.name));
                        Vec::new()
                    }),
                    None if self.module.is_some() => {
                        let what =
                            format!("turn tracker {} is not in the module", t.tracker);
                        self.problem(entry, &id, what);
                        Vec::new()
                    }
                    None => Vec::new(),
                };
                out.turns.push(ListedTurn {
                    tracker: t.tracker.clone(),
                    name: def.map(|d| d.name.clone()),
                    levels,
                    state: t.state.clone(),
                });
            }
            Restore::Property { name, value, container } => {
                // The module's own properties are held by `Module`; a map's or zone's by it.
                let name = if container.is_empty() || container == "Module" {
                    name.clone()
                } else {
                    format!("{name} ({container})")
                };
                f.push(fact("property", name, value.clone()));
            }
            Restore::Player { id, name, side } => {
                f.push(fact("player", name.clone(), format!("{side} (player {id})")));
            }
            Restore::PlayerLeft { id } => f.push(fact("player-left", id.clone(), "")),
            Restore::ScenarioNotes(t) => f.push(fact("scenario-notes", "", t.clone())),
            Restore::PublicNotes(t) => f.push(fact("public-notes", "", t.clone())),
            Restore::PrivateNote { owner, text } => {
                f.push(fact("private-notes", owner.clone(), text.clone()));
            }
            Restore::SecretNote { name, owner, hidden, text, date } => {
                let value = if *hidden {
                    format!("hidden, by {owner}, {date}")
                } else {
                    format!("by {owner}, {date}: {text}")
                };
                f.push(fact("secret-note", name.clone(), value));
            }
            Restore::Extension { name, version } => {
                f.push(fact("extension", name.clone(), version.clone()));
            }
            Restore::Plugin { name, version } => {
                f.push(fact("plugin", name.clone(), version.clone()));
            }
            Restore::ClockControl { showing, online } => {
                let shown = if *showing { "shown" } else { "hidden" };
                let online = if *online { "online" } else { "offline" };
                f.push(fact("clocks", "", format!("{shown}, {online}")));
            }
            Restore::Clock { side, name, elapsed_ms, ticking } => {
                let running = if *ticking { ", running" } else { "" };
                let side =
                    if side.is_empty() { String::new() } else { format!("{side}: ") };
                let value = format!("{side}{} s used{running}", elapsed_ms / 1000);
                f.push(fact("clock", name.clone(), value));
            }
            Restore::Unmaskable(sides) => {
                f.push(fact("unmaskable-by", "", sides.join(", ")));
            }
            Restore::Events(events) => {
                f.push(fact("events", "", format!("{} event(s)", events.len())));
            }
            Restore::SecondaryEmail(e) => f.push(fact("dice-email", "", e.clone())),
            Restore::OptionsLocked { tab, by } => {
                f.push(fact("options-locked", tab.clone(), by.clone()));
            }
            Restore::StartupCommand { id, applied } => {
                let value = if *applied { "applied" } else { "not applied" };
                f.push(fact("startup-command", id.clone(), value));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{BoardInfo, PileInfo};
    use crate::vassal::save::{command_stream, parse_stream};
    use crate::vassal::turn::{LevelDef, LevelKind, TrackerDef};

    fn module() -> ModuleInfo {
        ModuleInfo {
            name: "M".into(),
            maps: vec![MapInfo {
                name: "Table".into(),
                boards: vec![BoardInfo::new("T", 100, 100)],
                arrangement: vec![("T".into(), 0, 0)],
                edge: (0, 0),
                piles: vec![PileInfo {
                    name: "Cup".into(),
                    board: Some("T".into()),
                    x: 50,
                    y: 50,
                }],
                ..MapInfo::default()
            }],
            setups: Vec::new(),
            trackers: vec![TrackerDef {
                id: "TurnTracker0".into(),
                name: "Turn".into(),
                levels: vec![LevelDef {
                    name: "Day".into(),
                    kind: LevelKind::List { items: vec!["1 May".into(), "2 May".into()] },
                    children: Vec::new(),
                }],
            }],
        }
    }

    const CHIT: &str =
        "mark;Category\tmark;UnitId\\\tpiece;;;c.png;A chit/chit\tu1\\\tTable;50;50;7;0";

    #[test]
    fn every_piece_with_its_holder_and_every_fact() {
        let adds = [
            "+/1/mark;UnitId\tpiece;;;a.png;A/u1\tTable;10;10;1;0".to_string(),
            "+/2/mark;UnitId\tpiece;;;b.png;B/u2\tTable;10;10;2;0".to_string(),
            "+/3/stack/Table;10;10;1;2;@@1".to_string(),
            format!("+/4/{CHIT}"),
            "+/5/deck;true;;;;Never;Always;;;;;;;Cup/Table;50;50;false;4".to_string(),
            "+/6/piece;;;d.png;Loose/Table;90;90;3;0".to_string(),
            "+/7/piece;;;e.png;Gone/null;0;0;4;0".to_string(),
        ];
        let restores = [
            "TableBoardPicker\tT\t0\t0".to_string(),
            "SETUP_STACK\t".to_string(),
            "TURNTurnTracker0\t0|1;0;0;true,true".to_string(),
            "GlobalProperty\t;Score;3;".to_string(),
            "NOTES\tSet up|then play".to_string(),
        ];
        let saved = parse_stream(&command_stream(&adds, &restores)).expect("parses");
        let l = listing(&saved, Some(&module()));
        assert!(l.unread.is_empty(), "{:?}", l.unread);
        let row = |id: &str| l.pieces.iter().find(|p| p.id == id).expect("listed");
        assert_eq!((row("2").holder, row("2").index), (Holder::Stack, 1));
        assert_eq!(
            row("2").location.as_deref(),
            Some("offboard"),
            "a board without a grid names no point"
        );
        let chit = row("4");
        assert_eq!((chit.holder, chit.deck.as_deref()), (Holder::Deck, Some("Cup")));
        assert_eq!(
            chit.location.as_deref(),
            Some("Cup"),
            "VASSAL names the deck's point"
        );
        assert_eq!(
            (chit.unit_id.as_deref(), chit.category.as_deref()),
            (Some("u1"), Some("chit"))
        );
        assert_eq!(row("6").holder, Holder::Single);
        assert_eq!((row("7").holder, row("7").map.as_deref()), (Holder::Nowhere, None));
        assert_eq!(l.decks.len(), 1);
        assert_eq!(l.decks[0].pieces, ["4"]);
        assert!(l.started);
        assert_eq!(l.turn_text().as_deref(), Some("Day 2 May"));
        assert!(l.facts.contains(&fact("property", "Score", "3")));
        assert!(l.facts.contains(&fact("scenario-notes", "", "Set up\nthen play")));
    }

    #[test]
    fn many_facts_are_kept_once_each_in_time_linear_in_their_number() {
        let read = |text: &String| {
            let saved = parse_stream(text).expect("parses");
            let l = listing(&saved, None);
            assert_eq!(l.facts.len(), text.matches("PNOTES").count());
        };
        let ratio = crate::growth::ratio(500, crate::hostile::many_facts, read);
        assert!(
            ratio < crate::growth::BOUND,
            "4 times the notes took {ratio:.1} times as long"
        );
        // The same fact twice is kept once.
        let twice = command_stream(&[], &["PNOTES\tx".into(), "PNOTES\tx".into()]);
        let l = listing(&parse_stream(&twice).expect("parses"), None);
        assert_eq!(l.facts, [fact("public-notes", "", "x")]);
    }

    #[test]
    fn many_pieces_on_many_boards_are_placed_in_time_linear_in_their_number() {
        use crate::hostile::{board_module, pieces_on_boards};
        let input = |n: usize| {
            let files = [("buildFile.xml".to_string(), board_module(n * 8).into_bytes())];
            let zip = crate::archive::write_zip(&files.into()).expect("zips");
            (zip, pieces_on_boards(n, n * 8))
        };
        let read = |(zip, text): &(Vec<u8>, String)| {
            let mut archive = crate::archive::Archive::open(zip.clone()).expect("opens");
            let module = crate::read::read_module(&mut archive).expect("reads");
            let l = listing(&parse_stream(text).expect("parses"), Some(&module));
            assert!(l.unread.is_empty(), "{:?}", &l.unread[..1]);
            let last = l.pieces.last().expect("pieces");
            let board = l.pieces.len() * 8 - 8;
            assert_eq!(last.location.as_deref(), Some(format!("Z{board}").as_str()));
        };
        let ratio = crate::growth::ratio(25, input, read);
        assert!(
            ratio < crate::growth::BOUND,
            "4 times the pieces and boards took {ratio:.1} times as long"
        );
    }

    #[test]
    fn what_does_not_fit_is_said() {
        let adds = [
            "+/1/mark;UnitId\tpiece;;;a.png;A/u1\tElsewhere;10;10;1;0".to_string(),
            "+/2/myClass;x\tpiece;;;b.png;B/s\tTable;10;10;2;0".to_string(),
            "+/3/stack/Table;10;10;2;9;@@1".to_string(),
            "+/4/deck;broken/null;0;0;false".to_string(),
        ];
        let restores = [
            "TURNTurnTracker0\t0|5;0;0".to_string(),
            "TURNTurnTracker7\t0|0".to_string(),
            "OtherBoardPicker\tX\t0\t0".to_string(),
            "TableBoardPicker\tNo such board\t0\t0".to_string(),
            "CUSTOM\tsomething".to_string(),
        ];
        let saved = parse_stream(&command_stream(&adds, &restores)).expect("parses");
        let l = listing(&saved, Some(&module()));
        let said: Vec<String> = l.unread.iter().map(ToString::to_string).collect();
        for want in [
            "(1): it stands on map `Elsewhere`",
            "(2): trait `myClass;` is not one VASSAL 3.7 defines",
            "(3): stack 3 lists piece 9, which no entry before it adds",
            "(4): deck 4: its type names no deck",
            "(TURNTurnTracker0): turn tracker Turn: level Day is at item 6 of a list of 2",
            "(TURNTurnTracker7): turn tracker TurnTracker7 is not in the module",
            "(OtherBoardPicker): the boards of map `Other`",
            "(TableBoardPicker): board `No such board` is not a board of map `Table`",
            "(CUSTOM): not a command VASSAL 3.7 writes",
        ] {
            assert!(said.iter().any(|s| s.contains(want)), "{want}\n{said:#?}");
        }
        assert_eq!(said.len(), 9, "{said:#?}");
        // Entries are numbered in stream order.
        let entries: Vec<usize> = l.unread.iter().map(|u| u.entry).collect();
        assert!(
            entries.windows(2).all(|w| w[0] <= w[1]) && entries[0] > 0,
            "{entries:?}"
        );
        // Without the module, only what the save itself does not say is reported.
        assert_eq!(listing(&saved, None).unread.len(), 4);
    }
}
