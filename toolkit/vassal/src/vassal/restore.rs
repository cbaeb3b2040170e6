//! The commands of a saved game besides its pieces: what every game component of VASSAL
//! 3.7 writes into `GameState.getRestoreCommand` (board pickers, turn trackers, global
//! properties, notes, players, clocks, extensions, …), each decoded as the component's own
//! `decode` reads it.

use super::encoder::{TAB, decode};
use super::turn::TurnState;

/// A board placed on a map: its name, whether it is turned around, and its column and row.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BoardAt {
    /// Board name.
    pub name: String,
    /// Shown upside down (`name/rev`).
    pub reversed: bool,
    /// Column.
    pub column: i64,
    /// Row.
    pub row: i64,
}

/// One event of the event log.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Event {
    /// Epoch milliseconds.
    pub time: i64,
    /// Who.
    pub user: String,
    /// What.
    pub action: String,
}

/// A decoded restore command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Restore {
    /// `begin_save`: the current game is cleared before the save is read.
    Begin,
    /// `end_save`: the game starts.
    End,
    /// An empty command: the version checks (which have no text) and other no-ops.
    Empty,
    /// `<map>BoardPicker\t…`: the boards of a map (`BoardPicker.SetBoards`).
    Boards {
        /// Map identifier.
        map: String,
        /// Its boards.
        boards: Vec<BoardAt>,
    },
    /// `SETUP_STACK\t`: the game is not new, so at-start stacks and decks are not placed
    /// again (`NewGameIndicator.MarkGameNotNew`).
    NotNew,
    /// `TURN<id>\t<state>`: a turn tracker.
    Turn(TurnState),
    /// `GlobalProperty\t;name;value;container`: a global property's value.
    Property {
        /// Property name.
        name: String,
        /// Its value.
        value: String,
        /// The map or zone that holds it; empty for the module's own.
        container: String,
    },
    /// `PLAYER\tid\tname\tside`: a player who has joined.
    Player {
        /// Player id.
        id: String,
        /// Player name.
        name: String,
        /// Side taken.
        side: String,
    },
    /// `PYREMOVE\tid`: a player who left.
    PlayerLeft {
        /// Player id.
        id: String,
    },
    /// `NOTES\t…`: the scenario notes.
    ScenarioNotes(String),
    /// `PNOTES\t…`: the public notes.
    PublicNotes(String),
    /// `PNOTE\towner\ttext`: one player's private notes.
    PrivateNote {
        /// Owner.
        owner: String,
        /// Text.
        text: String,
    },
    /// `SNOTE\tname\towner\thidden\ttext\tdate\thandle`: a secret note.
    SecretNote {
        /// Note name.
        name: String,
        /// Owner.
        owner: String,
        /// Still hidden.
        hidden: bool,
        /// Text.
        text: String,
        /// Date as written (`MM/dd/yyyy h:mm a`).
        date: String,
    },
    /// `EXT\tname\tversion`: an extension the game used.
    Extension {
        /// Name.
        name: String,
        /// Version.
        version: String,
    },
    /// `PLUGIN\tname\tversion`: a plugin the game used.
    Plugin {
        /// Name.
        name: String,
        /// Version.
        version: String,
    },
    /// `CLOCKCONTROL\tshowing\tonline`: the chess clocks' control.
    ClockControl {
        /// Clocks shown.
        showing: bool,
        /// Online game.
        online: bool,
    },
    /// `CLOCK\tside\tname\telapsed\tverified\tticking\trestore`: one chess clock.
    Clock {
        /// Side that owns it.
        side: String,
        /// Clock name.
        name: String,
        /// Milliseconds used.
        elapsed_ms: i64,
        /// Ticking when saved.
        ticking: bool,
    },
    /// `UNMASK\t…`: sides whose masked pieces opponents may unmask.
    Unmaskable(Vec<String>),
    /// `Events…`: the event log.
    Events(Vec<Event>),
    /// `SEMAIL\t…`: the internet dice server's second e-mail address.
    SecondaryEmail(String),
    /// `LOCKSPOTAB\ttab\tby\tpassword\tdate`: a locked tab of scenario options.
    OptionsLocked {
        /// Tab name.
        tab: String,
        /// Locked by.
        by: String,
    },
    /// `SGKC\tid\tapplied`: whether a startup global key command has run in this game.
    StartupCommand {
        /// Its id.
        id: String,
        /// Already applied.
        applied: bool,
    },
}

/// `TextConfigurer.restoreNewlines`: `|` separated lines joined by newlines.
fn lines(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    decode(s, '|').join("\n")
}

fn boolean(s: Option<&String>, default: bool) -> bool {
    s.map_or(default, |v| if v.is_empty() { default } else { v == "true" })
}

fn long(s: Option<&String>, what: &str) -> Result<i64, String> {
    match s.map(String::as_str) {
        None | Some("") => Ok(0),
        Some(v) => v.parse().map_err(|_| format!("{what} {v:?} is not a number")),
    }
}

/// Fields after a TAB-terminated prefix, TAB separated.
fn after(command: &str, prefix: &str) -> Option<Vec<String>> {
    command.strip_prefix(prefix).map(|rest| decode(rest, TAB))
}

fn field(t: &[String], i: usize) -> String {
    t.get(i).cloned().unwrap_or_default()
}

/// Decodes one restore command; the error says what was not understood.
pub fn decode_restore(command: &str) -> Result<Restore, String> {
    match command {
        "" => return Ok(Restore::Empty),
        "begin_save" => return Ok(Restore::Begin),
        "end_save" => return Ok(Restore::End),
        "SETUP_STACK\t" => return Ok(Restore::NotNew),
        _ => {}
    }
    if let Some(t) = after(command, "PLAYER\t") {
        return Ok(Restore::Player {
            id: field(&t, 0),
            name: field(&t, 1),
            side: field(&t, 2),
        });
    }
    if let Some(t) = after(command, "PYREMOVE\t") {
        return Ok(Restore::PlayerLeft { id: field(&t, 0) });
    }
    if let Some(rest) = command.strip_prefix("NOTES\t") {
        return Ok(Restore::ScenarioNotes(lines(rest)));
    }
    if let Some(rest) = command.strip_prefix("PNOTES\t") {
        return Ok(Restore::PublicNotes(lines(rest)));
    }
    if let Some(t) = after(command, "PNOTE\t") {
        return Ok(Restore::PrivateNote {
            owner: field(&t, 0),
            text: lines(&field(&t, 1)),
        });
    }
    if let Some(t) = after(command, "SNOTE\t") {
        return Ok(Restore::SecretNote {
            name: field(&t, 0),
            owner: field(&t, 1),
            hidden: field(&t, 2) == "true",
            text: lines(&field(&t, 3)),
            date: field(&t, 4),
        });
    }
    if let Some(t) = after(command, "EXT\t") {
        return Ok(Restore::Extension { name: field(&t, 0), version: field(&t, 1) });
    }
    if let Some(t) = after(command, "PLUGIN\t") {
        return Ok(Restore::Plugin { name: field(&t, 0), version: field(&t, 1) });
    }
    if let Some(t) = after(command, "CLOCKCONTROL\t") {
        return Ok(Restore::ClockControl {
            showing: boolean(t.first(), false),
            online: boolean(t.get(1), false),
        });
    }
    if let Some(t) = after(command, "CLOCK\t") {
        return Ok(Restore::Clock {
            side: field(&t, 0),
            name: field(&t, 1),
            elapsed_ms: long(t.get(2), "the clock's elapsed time")?,
            ticking: boolean(t.get(4), false),
        });
    }
    if let Some(t) = after(command, "UNMASK\t") {
        return Ok(Restore::Unmaskable(
            t.into_iter().filter(|s| !s.is_empty()).collect(),
        ));
    }
    if let Some(rest) = command.strip_prefix("SEMAIL\t") {
        return Ok(Restore::SecondaryEmail(rest.to_string()));
    }
    if let Some(t) = after(command, "SGKC\t") {
        return Ok(Restore::StartupCommand {
            id: field(&t, 0),
            applied: boolean(t.get(1), true),
        });
    }
    if let Some(t) = after(command, "LOCKSPOTAB\t") {
        return Ok(Restore::OptionsLocked { tab: field(&t, 0), by: field(&t, 1) });
    }
    if let Some(rest) = command.strip_prefix("Events") {
        return events(rest).map(Restore::Events);
    }
    if command.starts_with("GlobalProperty\t") {
        let t = decode(command, ';');
        if t.first().map(String::as_str) != Some("GlobalProperty\t") || t.len() < 2 {
            return Err("a global property without a name".into());
        }
        return Ok(Restore::Property {
            name: field(&t, 1),
            value: field(&t, 2),
            container: field(&t, 3),
        });
    }
    if command.starts_with("TURN")
        && let Some(turn) = TurnState::decode(command)
    {
        return Ok(Restore::Turn(turn));
    }
    let t = decode(command, TAB);
    if let Some(map) = t.first().and_then(|h| h.strip_suffix("BoardPicker")) {
        return boards(map, &t[1..]);
    }
    Err("not a command VASSAL 3.7 writes into a saved game".into())
}

fn events(s: &str) -> Result<Vec<Event>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    decode(s, '|')
        .iter()
        .map(|e| {
            let t = decode(e, ',');
            Ok(Event {
                time: long(t.first(), "an event's time")?,
                user: field(&t, 1),
                action: field(&t, 2),
            })
        })
        .collect()
}

fn boards(map: &str, t: &[String]) -> Result<Restore, String> {
    let mut boards = Vec::new();
    for chunk in t.chunks(3) {
        let name = decode(&chunk[0], '/');
        let number = |i: usize| long(chunk.get(i), "a board position");
        boards.push(BoardAt {
            name: field(&name, 0),
            reversed: name.get(1).map(String::as_str) == Some("rev"),
            column: number(1)?,
            row: number(2)?,
        });
    }
    Ok(Restore::Boards { map: map.to_string(), boards })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_what_each_component_writes() {
        let cases: Vec<(&str, Restore)> = vec![
            ("begin_save", Restore::Begin),
            ("", Restore::Empty),
            ("SETUP_STACK\t", Restore::NotNew),
            (
                "Main MapBoardPicker\tMap A\t0\t0\tMap B/rev\t0\t1",
                Restore::Boards {
                    map: "Main Map".into(),
                    boards: vec![
                        BoardAt {
                            name: "Map A".into(),
                            reversed: false,
                            column: 0,
                            row: 0,
                        },
                        BoardAt {
                            name: "Map B".into(),
                            reversed: true,
                            column: 0,
                            row: 1,
                        },
                    ],
                },
            ),
            (
                "GlobalProperty\t;Victory points;3\\;2;",
                Restore::Property {
                    name: "Victory points".into(),
                    value: "3;2".into(),
                    container: String::new(),
                },
            ),
            (
                "PLAYER\t123\tAnn\tAxis",
                Restore::Player {
                    id: "123".into(),
                    name: "Ann".into(),
                    side: "Axis".into(),
                },
            ),
            (
                "NOTES\tline one|line two",
                Restore::ScenarioNotes("line one\nline two".into()),
            ),
            ("PNOTES\t", Restore::PublicNotes(String::new())),
            (
                "PNOTE\t123\tmine",
                Restore::PrivateNote { owner: "123".into(), text: "mine".into() },
            ),
            (
                "SNOTE\tplan\t123\ttrue\tattack|at dawn\t05/26/1942 6:00 AM\th",
                Restore::SecretNote {
                    name: "plan".into(),
                    owner: "123".into(),
                    hidden: true,
                    text: "attack\nat dawn".into(),
                    date: "05/26/1942 6:00 AM".into(),
                },
            ),
            (
                "CLOCKCONTROL\tfalse\tfalse",
                Restore::ClockControl { showing: false, online: false },
            ),
            (
                "CLOCK\tAxis\tAxis clock\t61000\t61000\tfalse\ttrue",
                Restore::Clock {
                    side: "Axis".into(),
                    name: "Axis clock".into(),
                    elapsed_ms: 61000,
                    ticking: false,
                },
            ),
            (
                "UNMASK\tAxis\tAllied",
                Restore::Unmaskable(vec!["Axis".into(), "Allied".into()]),
            ),
            (
                "Events12,Ann,moved|13,Bob,rolled",
                Restore::Events(vec![
                    Event { time: 12, user: "Ann".into(), action: "moved".into() },
                    Event { time: 13, user: "Bob".into(), action: "rolled".into() },
                ]),
            ),
            (
                "SGKC\tStartupGlobalKeyCommand0\ttrue",
                Restore::StartupCommand {
                    id: "StartupGlobalKeyCommand0".into(),
                    applied: true,
                },
            ),
            (
                "EXT\tMore counters\t1.2",
                Restore::Extension {
                    name: "More counters".into(),
                    version: "1.2".into(),
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(decode_restore(text).as_ref(), Ok(&want), "{text:?}");
        }
        let Ok(Restore::Turn(t)) = decode_restore("TURNTurnTracker0\t0|0;0;0;true")
        else {
            panic!("a turn tracker")
        };
        assert_eq!(
            (t.tracker.as_str(), t.state.as_str()),
            ("TurnTracker0", "0|0;0;0;true")
        );
    }

    #[test]
    fn what_it_does_not_understand_it_says() {
        for bad in [
            "LOG\t+/1/x",
            "M/1/Main Map/1/2/null/null/0/0/null/me",
            "Events12x,a,b",
            "GlobalProperty\t",
            "CLOCK\ta\tb\tsoon",
        ] {
            assert!(decode_restore(bad).is_err(), "{bad:?}");
        }
    }
}
