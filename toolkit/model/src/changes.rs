//! What changed in a game between two states of its sources: counters added, removed,
//! renamed, their values, sides and formations; setup lines per scenario; rules; printed
//! tables; and map hexes whose terrain or features changed. The errata list a publisher
//! prints, and the "What's new" page of the module's help.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::{Game, ParsedPlacement, PlacementKind, Unit};

/// What changed in one game, part by part, each part in the order of the game's files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Changes {
    /// The game id.
    pub game: String,
    /// The game's title, as the newer sources print it.
    pub title: String,
    /// The module version before and after (`1.0.0`).
    pub versions: (String, String),
    /// Counters and markers.
    pub counters: Vec<Change>,
    /// Scenario setup lines.
    pub setups: Vec<Change>,
    /// Where each counter sets up, scenario by scenario, when the setups were solved
    /// (`muster_check::changes`); empty otherwise.
    #[serde(default)]
    pub placements: Vec<Change>,
    /// Stacking and other rules.
    pub rules: Vec<Change>,
    /// Printed tables.
    pub tables: Vec<Change>,
    /// Map hexes and sheets.
    pub maps: Vec<Change>,
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Change {
    /// What kind of change.
    pub kind: ChangeKind,
    /// What changed, as printed: a counter, `movement (front) of 1 Bde HQ`, a setup line's
    /// location, a rule section, a hex.
    pub subject: String,
    /// The scenario, for setup lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// What it was, when it was something.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// What it is, when it is something.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The counter's id, for placements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

/// The kinds of change.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// New in the newer sources.
    Added,
    /// Gone from the newer sources.
    Removed,
    /// The same thing under another printed name.
    Renamed,
    /// Another value.
    Changed,
}

impl Changes {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.parts().iter().all(|(_, p)| p.is_empty())
    }

    /// Every change, counted.
    pub fn len(&self) -> usize {
        self.parts().iter().map(|(_, p)| p.len()).sum()
    }

    /// The parts with their headings, in the order the report lists them.
    pub fn parts(&self) -> [(&'static str, &[Change]); 6] {
        [
            ("Counters", &self.counters),
            ("Setups", &self.setups),
            ("Placements", &self.placements),
            ("Rules", &self.rules),
            ("Tables", &self.tables),
            ("Maps", &self.maps),
        ]
    }
}

/// What changed from `old` to `new`, two states of one game.
pub fn between(old: &Game, new: &Game) -> Changes {
    Changes {
        game: new.id.clone(),
        title: new.meta.title.clone(),
        versions: (old.meta.module.version.v.clone(), new.meta.module.version.v.clone()),
        counters: counters(old, new),
        setups: setups(old, new),
        placements: Vec::new(),
        rules: rules(old, new),
        tables: tables(old, new),
        maps: maps(old, new),
    }
}

/// A change of `kind` to `subject`, with nothing more said.
pub fn change(kind: ChangeKind, subject: impl Into<String>) -> Change {
    Change {
        kind,
        subject: subject.into(),
        scenario: None,
        from: None,
        to: None,
        unit: None,
    }
}

fn changed(
    subject: impl Into<String>,
    from: Option<String>,
    to: Option<String>,
) -> Change {
    Change { from, to, ..change(ChangeKind::Changed, subject) }
}

/// Counters and markers: matched by id, a removed and an added counter of the same side,
/// formation and values taken as one renamed.
fn counters(old: &Game, new: &Game) -> Vec<Change> {
    let index = |g: &Game| -> BTreeMap<String, Unit> {
        g.units.iter().chain(&g.markers).map(|u| (u.id.clone(), u.clone())).collect()
    };
    let (before, after) = (index(old), index(new));
    let mut out = Vec::new();
    let mut added: Vec<&Unit> =
        after.values().filter(|u| !before.contains_key(&u.id)).collect();
    for (id, was) in &before {
        match after.get(id) {
            Some(is) => counter_values(was, is, &mut out),
            None => {
                let same = |u: &&Unit| {
                    u.side == was.side
                        && u.formation == was.formation
                        && u.front == was.front
                        && u.back == was.back
                };
                match added.iter().position(same) {
                    Some(k) => {
                        let is = added.remove(k);
                        out.push(Change {
                            from: Some(was.printed.v.clone()),
                            to: Some(is.printed.v.clone()),
                            ..change(ChangeKind::Renamed, is.printed.v.clone())
                        });
                    }
                    None => out.push(change(ChangeKind::Removed, was.printed.v.clone())),
                }
            }
        }
    }
    out.extend(added.into_iter().map(|u| change(ChangeKind::Added, u.printed.v.clone())));
    out
}

/// The changes of one counter found in both states.
fn counter_values(was: &Unit, is: &Unit, out: &mut Vec<Change>) {
    let name = &is.printed.v;
    if was.printed.v != is.printed.v {
        out.push(Change {
            from: Some(was.printed.v.clone()),
            to: Some(is.printed.v.clone()),
            ..change(ChangeKind::Renamed, name.clone())
        });
    }
    let mut field = |what: &str, from: String, to: String| {
        if from != to {
            out.push(changed(format!("{what} of {name}"), Some(from), Some(to)));
        }
    };
    field("side", was.side.clone(), is.side.clone());
    field("formation", opt(&was.formation), opt(&is.formation));
    field("count", was.count.to_string(), is.count.to_string());
    for (face, from, to) in
        [("front", &was.front, &is.front), ("back", &was.back, &is.back)]
    {
        let keys: BTreeSet<&String> = from.keys().chain(to.keys()).collect();
        for key in keys {
            let (a, b) = (from.get(key).cloned(), to.get(key).cloned());
            if a != b {
                out.push(changed(format!("{key} ({face}) of {name}"), a, b));
            }
        }
    }
}

fn opt(s: &Option<String>) -> String {
    s.clone().unwrap_or_else(|| "none".into())
}

/// A printed setup line's place: its kind, side, heading, turn, area or group, and
/// location as printed.
fn line_key(p: &ParsedPlacement) -> String {
    let kind = match p.kind {
        PlacementKind::Setup => "setup".to_string(),
        PlacementKind::Reinforcement => "reinforcement".to_string(),
        PlacementKind::Group(_) => "group".to_string(),
    };
    let mut parts = vec![kind, p.side.clone()];
    parts.extend(p.heading.clone());
    parts.extend(p.turn.clone().map(|t| format!("turn {t}")));
    parts.extend(p.area.as_ref().map(|a| a.v.clone()));
    parts.extend(p.group.clone());
    parts.extend(p.location_text.as_ref().map(|l| l.v.clone()));
    parts.join(" · ")
}

/// The units of a printed setup line, as printed.
fn line_units(p: &ParsedPlacement) -> String {
    p.units.printed.iter().map(|s| s.v.as_str()).collect::<Vec<_>>().join(", ")
}

/// Setup lines, scenario by scenario: a line is known by where it places ([`line_key`]).
fn setups(old: &Game, new: &Game) -> Vec<Change> {
    let index = |g: &Game| -> BTreeMap<String, Vec<(String, String)>> {
        g.parsed
            .iter()
            .map(|s| {
                (
                    s.id.clone(),
                    s.placements.iter().map(|p| (line_key(p), line_units(p))).collect(),
                )
            })
            .collect()
    };
    let (before, after) = (index(old), index(new));
    let mut out = Vec::new();
    let ids: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for id in ids {
        let in_scenario = |c: Change| Change { scenario: Some(id.clone()), ..c };
        let (was, is) = match (before.get(id), after.get(id)) {
            (Some(was), Some(is)) => (was, is),
            (Some(_), None) => {
                out.push(in_scenario(change(
                    ChangeKind::Removed,
                    format!("scenario {id}"),
                )));
                continue;
            }
            (None, _) => {
                out.push(in_scenario(change(
                    ChangeKind::Added,
                    format!("scenario {id}"),
                )));
                continue;
            }
        };
        let mut rest: Vec<&(String, String)> = is.iter().collect();
        let mut gone = Vec::new();
        for (key, units) in was {
            match rest.iter().position(|(k, _)| k == key) {
                Some(k) => {
                    let (_, now) = rest.remove(k);
                    if now != units {
                        out.push(in_scenario(changed(
                            key.clone(),
                            Some(units.clone()),
                            Some(now.clone()),
                        )));
                    }
                }
                None => gone.push((key, units)),
            }
        }
        // A line gone and one come with the same units: the units placed elsewhere.
        for (key, units) in gone {
            match rest.iter().position(|(_, u)| u == units) {
                Some(k) => {
                    let (now, _) = rest.remove(k);
                    out.push(in_scenario(changed(
                        format!("where {units} set up"),
                        Some(key.clone()),
                        Some(now.clone()),
                    )));
                }
                None => out.push(in_scenario(Change {
                    from: Some(units.clone()),
                    ..change(ChangeKind::Removed, key.clone())
                })),
            }
        }
        out.extend(rest.into_iter().map(|(key, units)| {
            in_scenario(Change {
                to: Some(units.clone()),
                ..change(ChangeKind::Added, key.clone())
            })
        }));
    }
    out
}

/// The JSON of a value.
fn json(value: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or_default()
}

/// Stacking rules by section, and every other part of the rules file by its key.
fn rules(old: &Game, new: &Game) -> Vec<Change> {
    let stacking = |g: &Game| -> BTreeMap<String, serde_json::Value> {
        g.rules.stacking.iter().map(|r| (r.section.clone(), json(r))).collect()
    };
    let mut out = keyed(&stacking(old), &stacking(new), |s| format!("stacking rule {s}"));
    let rest = |g: &Game| -> BTreeMap<String, serde_json::Value> {
        let serde_json::Value::Object(map) = json(&g.rules) else {
            return BTreeMap::new();
        };
        map.into_iter().filter(|(k, _)| k != "stacking").collect()
    };
    out.extend(keyed(&rest(old), &rest(new), |k| format!("rules: {k}")));
    out
}

/// Printed tables by title.
fn tables(old: &Game, new: &Game) -> Vec<Change> {
    let index = |g: &Game| -> BTreeMap<String, serde_json::Value> {
        g.meta.tables.iter().map(|t| (t.title.clone(), json(t))).collect()
    };
    keyed(&index(old), &index(new), |t| format!("table {t}"))
}

/// Entries known by a key: added, removed, or each value of one that changed, by its path
/// in the entry (`any_of[0].all_of[0].max`).
fn keyed(
    before: &BTreeMap<String, serde_json::Value>,
    after: &BTreeMap<String, serde_json::Value>,
    subject: impl Fn(&str) -> String,
) -> Vec<Change> {
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let mut out = Vec::new();
    for k in keys {
        match (before.get(k), after.get(k)) {
            (Some(a), Some(b)) => {
                let mut found = Vec::new();
                differences(a, b, String::new(), &mut found);
                out.extend(found.into_iter().map(|(path, from, to)| {
                    let at = if path.is_empty() {
                        subject(k)
                    } else {
                        format!("{}: {path}", subject(k))
                    };
                    changed(at, from, to)
                }));
            }
            (Some(_), None) => out.push(change(ChangeKind::Removed, subject(k))),
            (None, _) => out.push(change(ChangeKind::Added, subject(k))),
        }
    }
    out
}

/// Each place where `a` and `b` differ: its path, and the value on each side (`None` where
/// a side has nothing there).
fn differences(
    a: &serde_json::Value,
    b: &serde_json::Value,
    path: String,
    out: &mut Vec<(String, Option<String>, Option<String>)>,
) {
    use serde_json::Value;
    let shown = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let at = |step: String| {
        if path.is_empty() {
            step.trim_start_matches('.').to_string()
        } else {
            format!("{path}{step}")
        }
    };
    match (a, b) {
        _ if a == b => {}
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let step = at(format!(".{k}"));
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => differences(p, q, step, out),
                    (p, q) => out.push((step, p.map(shown), q.map(shown))),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                differences(p, q, at(format!("[{i}]")), out);
            }
        }
        _ => out.push((path, Some(shown(a)), Some(shown(b)))),
    }
}

/// Each hex's terrains and the features printed in it, by printed label.
fn hexes(g: &Game) -> BTreeMap<String, (String, String)> {
    let mut out: BTreeMap<String, (String, String)> = BTreeMap::new();
    if let Some(board) = &g.board {
        for (cell, terrains) in crate::hex_terrain::terrains(g, board) {
            if let Some(label) = board.label(cell) {
                out.entry(label).or_default().0 = terrains.join(" + ");
            }
        }
    }
    let mut features: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for map in &g.maps {
        for f in &map.features {
            let kind = serde_json::to_value(f.kind)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
            let what = match &f.name {
                Some(name) => format!("{kind} {name}"),
                None => kind,
            };
            for hex in &f.hexes {
                features.entry(hex.v.clone()).or_default().push(what.clone());
            }
        }
    }
    for (hex, mut list) in features {
        list.sort();
        list.dedup();
        out.entry(hex).or_default().1 = list.join(", ");
    }
    out
}

/// Map sheets added or removed, and each hex whose terrain or features changed.
fn maps(old: &Game, new: &Game) -> Vec<Change> {
    let sheets = |g: &Game| -> BTreeMap<String, String> {
        g.maps.iter().map(|m| (m.id.v.clone(), m.name.clone())).collect()
    };
    let (was, is) = (sheets(old), sheets(new));
    let mut out: Vec<Change> = was
        .keys()
        .filter(|id| !is.contains_key(*id))
        .map(|id| change(ChangeKind::Removed, format!("map {id}")))
        .chain(
            is.keys()
                .filter(|id| !was.contains_key(*id))
                .map(|id| change(ChangeKind::Added, format!("map {id}"))),
        )
        .collect();
    let (before, after) = (hexes(old), hexes(new));
    let labels: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let shown = |t: &(String, String)| {
        if t.1.is_empty() { t.0.clone() } else { format!("{}; {}", t.0, t.1) }
    };
    for label in labels {
        let (a, b) = (before.get(label), after.get(label));
        if a != b {
            out.push(changed(format!("hex {label}"), a.map(shown), b.map(shown)));
        }
    }
    out
}

/// The changes as a Markdown errata list: one section per part that changed.
pub fn markdown(c: &Changes) -> String {
    use std::fmt::Write;
    let (from, to) = &c.versions;
    let mut s = format!("# {}: changes from {from} to {to}\n\n", c.title);
    if c.is_empty() {
        s.push_str("Nothing changed.\n");
        return s;
    }
    let _ = writeln!(s, "{} change(s).", c.len());
    for (heading, part) in c.parts() {
        if part.is_empty() {
            continue;
        }
        let _ = write!(s, "\n## {heading}\n\n");
        for change in part {
            let _ = writeln!(s, "- {}", sentence(change));
        }
    }
    s
}

/// One change in words: `movement (front) of 1 Bde HQ: 8 → 9`.
pub fn sentence(c: &Change) -> String {
    let scenario = c.scenario.as_ref().map(|s| format!("{s}: ")).unwrap_or_default();
    let (from, to) = (c.from.as_deref(), c.to.as_deref());
    let what = match (c.kind, from, to) {
        (ChangeKind::Renamed, Some(a), Some(b)) => format!("{a} is now printed {b}"),
        (ChangeKind::Added, _, Some(b)) => format!("{} added: {b}", c.subject),
        (ChangeKind::Added, _, None) => format!("{} added", c.subject),
        (ChangeKind::Removed, Some(a), _) => format!("{} removed (was {a})", c.subject),
        (ChangeKind::Removed, None, _) => format!("{} removed", c.subject),
        (_, a, b) => {
            format!("{}: {} → {}", c.subject, a.unwrap_or("none"), b.unwrap_or("none"))
        }
    };
    format!("{scenario}{what}")
}
