//! Turn trackers: their levels as a module's buildFile defines them, and the state a saved
//! game holds for each (`TURN<id>\t<state>`), read together into the turn the game is at.

use super::encoder::decode;

/// A turn tracker of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackerDef {
    /// The id VASSAL gives it (`TurnTracker0`, `TurnTracker1`, … in buildFile order), which
    /// its `TURN` command names.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its top levels.
    pub levels: Vec<LevelDef>,
}

/// One level of a turn tracker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelDef {
    /// The level's name (`Turn`, `Day`, `Step`).
    pub name: String,
    /// What it counts.
    pub kind: LevelKind,
    /// Its sub-levels.
    pub children: Vec<LevelDef>,
}

/// What a level counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelKind {
    /// A number from `start` by `incr` (`CounterTurnLevel`).
    Counter {
        /// The first value.
        start: i64,
        /// The step.
        incr: i64,
    },
    /// A list of names (`ListTurnLevel`).
    List {
        /// The names in order.
        items: Vec<String>,
    },
}

/// A turn tracker's state in a saved game, as written: the level the tracker advances and
/// one state per top level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnState {
    /// The tracker id (`TurnTracker0`).
    pub tracker: String,
    /// The state as saved.
    pub state: String,
}

/// A level's value in a saved game.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LevelValue {
    /// The level's name.
    pub level: String,
    /// Its value as VASSAL shows it (`26 May`, `13`).
    pub value: String,
    /// How many steps along the level it is, counting its first value as 1.
    pub number: i64,
}

fn int(token: Option<&String>, default: i64) -> Result<i64, String> {
    match token.map(String::as_str) {
        None | Some("") => Ok(default),
        Some(t) => t.parse().map_err(|_| format!("{t:?} is not a number")),
    }
}

impl LevelDef {
    /// Reads this level's state (`current;sub;…;child states`) into its value and those of
    /// its sub-levels, outermost first, as `CounterTurnLevel.setState` and
    /// `ListTurnLevel.setState` read it.
    fn read(&self, state: &str, out: &mut Vec<LevelValue>) -> Result<(), String> {
        let t = decode(state, ';');
        let (value, number, children_from) = match &self.kind {
            LevelKind::Counter { start, incr } => {
                let current = int(t.first(), *start)?;
                let step = if *incr == 0 { 1 } else { *incr };
                (current.to_string(), (current - start) / step + 1, 4)
            }
            LevelKind::List { items } => {
                let current = int(t.first(), 0)?;
                let name = usize::try_from(current)
                    .ok()
                    .and_then(|i| items.get(i))
                    .ok_or_else(|| {
                        format!(
                            "level {} is at item {} of a list of {}",
                            self.name,
                            current + 1,
                            items.len()
                        )
                    })?;
                (name.clone(), current + 1, 4)
            }
        };
        out.push(LevelValue { level: self.name.clone(), value, number });
        for (k, child) in self.children.iter().enumerate() {
            let s = t.get(children_from + k).map(String::as_str).unwrap_or_default();
            child.read(s, out)?;
        }
        Ok(())
    }
}

impl TurnState {
    /// Decodes `TURN<id>\t<state>`.
    pub fn decode(command: &str) -> Option<TurnState> {
        let rest = command.strip_prefix("TURN")?;
        let t = decode(rest, '\t');
        let tracker = t.first()?.clone();
        Some(TurnState { tracker, state: t.get(1).cloned().unwrap_or_default() })
    }

    /// The values of every level of `def`, outermost first, as `TurnTracker.setState` reads
    /// the state: the level being advanced, then one state per top level.
    pub fn read(&self, def: &TrackerDef) -> Result<Vec<LevelValue>, String> {
        let t = decode(&self.state, '|');
        int(t.first(), 0)?;
        let mut out = Vec::new();
        for (k, level) in def.levels.iter().enumerate() {
            let s = t.get(1 + k).map(String::as_str).unwrap_or_default();
            level.read(s, &mut out)?;
        }
        Ok(out)
    }
}

/// The deepest turn levels nest inside one another that muster reads: VASSAL's own
/// trackers nest two or three deep.
pub const MAX_LEVEL_DEPTH: usize = 32;

/// Reads the turn trackers of a buildFile: every `TurnTracker` in document order, with its
/// `CounterTurnLevel` and `ListTurnLevel` levels. Levels nested more than
/// [`MAX_LEVEL_DEPTH`] deep are an error that names the tracker and the line of the level.
pub fn trackers(root: roxmltree::Node) -> Result<Vec<TrackerDef>, String> {
    root.descendants()
        .filter(|n| n.is_element() && n.tag_name().name().ends_with("turn.TurnTracker"))
        .enumerate()
        .map(|(k, n)| {
            let name = n.attribute("name").unwrap_or_default().to_string();
            let levels = levels(n, 1).map_err(|deep| {
                let at = deep.document().text_pos_at(deep.range().start);
                format!(
                    "turn tracker `{}` nests its levels more than {MAX_LEVEL_DEPTH} deep (line {}, column {}); muster reads at most {MAX_LEVEL_DEPTH}",
                    crate::printable::printable(&name),
                    at.row,
                    at.col
                )
            })?;
            Ok(TrackerDef { id: format!("TurnTracker{k}"), name, levels })
        })
        .collect()
}

/// The levels under `node`, which stands `depth` levels down; the error is the first
/// level deeper than [`MAX_LEVEL_DEPTH`].
fn levels<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    depth: usize,
) -> Result<Vec<LevelDef>, roxmltree::Node<'a, 'i>> {
    let mut out = Vec::new();
    for n in node.children().filter(roxmltree::Node::is_element) {
        let tag = n.tag_name().name();
        let num = |k: &str, d: i64| {
            n.attribute(k).and_then(|v| v.trim().parse().ok()).unwrap_or(d)
        };
        let kind = if tag.ends_with("CounterTurnLevel") {
            LevelKind::Counter { start: num("start", 1), incr: num("incr", 1) }
        } else if tag.ends_with("ListTurnLevel") {
            let list = n.attribute("list").unwrap_or_default();
            let items = if list.is_empty() { Vec::new() } else { decode(list, ',') };
            LevelKind::List { items }
        } else {
            continue;
        };
        if depth > MAX_LEVEL_DEPTH {
            return Err(n);
        }
        out.push(LevelDef {
            name: n.attribute("name").unwrap_or_default().to_string(),
            kind,
            children: levels(n, depth + 1)?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILD: &str = r#"<VASSAL.build.GameModule>
      <VASSAL.build.module.turn.TurnTracker name="Turn">
        <VASSAL.build.module.turn.CounterTurnLevel name="Turn" start="1" incr="1">
          <VASSAL.build.module.turn.ListTurnLevel name="Step" list="Deck 1,Deck 2"/>
        </VASSAL.build.module.turn.CounterTurnLevel>
      </VASSAL.build.module.turn.TurnTracker>
      <VASSAL.build.module.turn.TurnTracker name="Days">
        <VASSAL.build.module.turn.ListTurnLevel name="Day" list="23 May,24 May,25 May"/>
      </VASSAL.build.module.turn.TurnTracker>
    </VASSAL.build.GameModule>"#;

    #[test]
    fn reads_trackers_and_their_states() {
        let doc = roxmltree::Document::parse(BUILD).expect("xml");
        let defs = trackers(doc.root_element()).expect("trackers");
        assert_eq!(defs.len(), 2);
        assert_eq!(defs[1].id, "TurnTracker1");
        // As VASSAL 3.7.26 saved a new game of Gazala Line 1942: turn 1, Deck 1.
        let s =
            TurnState::decode("TURNTurnTracker0\t0|1;0;false;-1;0\\;0\\;0\\;true,true")
                .expect("a turn command");
        assert_eq!(s.tracker, "TurnTracker0");
        let v = s.read(&defs[0]).expect("reads");
        assert_eq!(
            v.iter()
                .map(|l| (l.level.as_str(), l.value.as_str(), l.number))
                .collect::<Vec<_>>(),
            [("Turn", "1", 1), ("Step", "Deck 1", 1)]
        );
        let later = TurnState {
            tracker: "TurnTracker0".into(),
            state: "1|7;0;false;-1;1\\;0\\;0\\;true,true".into(),
        };
        assert_eq!(later.read(&defs[0]).expect("reads")[1].value, "Deck 2");
        // As VASSAL saved Gazala 1942: the first day.
        let day =
            TurnState::decode("TURNTurnTracker1\t0|2;0;0;true,true,true").expect("turn");
        assert_eq!(day.read(&defs[1]).expect("reads")[0].value, "25 May");
        assert_eq!(day.read(&defs[1]).expect("reads")[0].number, 3);
    }

    #[test]
    fn levels_nested_too_deep_are_an_error_not_a_stack_overflow() {
        let read = |depth: usize| {
            let xml = crate::hostile::deep_turn_levels(depth);
            let doc = roxmltree::Document::parse(&xml).expect("xml");
            trackers(doc.root_element())
        };
        let deepest = read(MAX_LEVEL_DEPTH).expect("as deep as muster reads");
        let mut level = &deepest[0].levels[0];
        for _ in 1..MAX_LEVEL_DEPTH {
            level = &level.children[0];
        }
        assert!(level.children.is_empty());
        for depth in [MAX_LEVEL_DEPTH + 1, 20_000] {
            let e = read(depth).expect_err("too deep");
            assert_eq!(
                e,
                "turn tracker `Turn` nests its levels more than 32 deep (line 1, column 2360); muster reads at most 32"
            );
        }
    }

    #[test]
    fn states_that_do_not_fit_the_tracker_are_errors() {
        let doc = roxmltree::Document::parse(BUILD).expect("xml");
        let defs = trackers(doc.root_element()).expect("trackers");
        let past = TurnState { tracker: "TurnTracker1".into(), state: "0|9;0;0".into() };
        assert!(
            past.read(&defs[1])
                .expect_err("past the list")
                .contains("item 10 of a list of 3")
        );
        let junk = TurnState { tracker: "TurnTracker0".into(), state: "x|1".into() };
        assert!(junk.read(&defs[0]).is_err());
        assert!(TurnState::decode("PLAYER\ta").is_none());
    }
}
