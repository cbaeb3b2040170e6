//! What a module changes in a game saved with another release of it: each counter of the
//! game whose printed values the module gives otherwise, and each the release sets up
//! elsewhere (from the list of changes a module built with `--since` carries).

use std::collections::BTreeMap;

use anyhow::Result;
use muster_package::listing::{ListedPiece, Listing, listing};
use muster_package::read::read_save;
use muster_rules::embedded::RulesetDoc;

use muster_model::changes::Changes;
use muster_package::module::CHANGES;

use crate::pieces::Module;

/// A counter of the game whose values the module prints otherwise.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Changed {
    /// The piece's name.
    pub name: String,
    /// Its counter id.
    pub unit: String,
    /// Where it stands: the location, else the map, else `off the map`.
    pub at: String,
    /// Each value that differs (`Full_movement`), as the game has it and as the module
    /// prints it (`None` where one has no such value).
    pub values: BTreeMap<String, (Option<String>, Option<String>)>,
}

/// A counter of the game that the module's release sets up elsewhere than the release
/// before it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Moved {
    /// The piece's name.
    pub name: String,
    /// Its counter id.
    pub unit: String,
    /// The scenario whose setup moved it.
    pub scenario: String,
    /// Where the release before set it up.
    pub from: String,
    /// Where this release sets it up.
    pub to: String,
    /// Where it stands in the game: the location, else the map, else `off the map`.
    pub at: String,
}

/// What the module's release lists as changed in its setups, for the counters of the game.
#[derive(Debug, Default, serde::Serialize)]
pub struct Setups {
    /// The releases the list compares (`1.0.0`, `1.0.1`).
    pub versions: (String, String),
    /// The counters of the game the release sets up elsewhere.
    pub moved: Vec<Moved>,
}

/// What the module changes in the game: its counters whose values differ, and how many
/// counters could not be compared (the module's setups do not hold them).
#[derive(Debug, Default)]
pub struct Update {
    /// The counters whose values differ.
    pub changed: Vec<Changed>,
    /// Counters of the game compared with the module's.
    pub compared: usize,
    /// Counters of the game the module's setups do not hold, so not compared.
    pub not_compared: usize,
    /// What the release lists as changed in its setups, when the module carries the list.
    pub setups: Option<Setups>,
}

/// Compares the counters of the game `listed` with those of the module `m`'s setups,
/// which carry the values the module prints, and with where its release says it moved
/// counters in `scenario`'s setup (every scenario's, without one).
pub fn of(
    listed: &Listing,
    m: &mut Module,
    doc: &RulesetDoc,
    scenario: Option<&str>,
) -> Result<Update> {
    let mut printed: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let setups: std::collections::BTreeSet<String> =
        m.info.setups.iter().map(|(_, file)| file.clone()).collect();
    for file in setups {
        let bytes = m.archive.read(&file).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
        let (saved, _) = read_save(bytes).map_err(|e| anyhow::anyhow!("{file}: {e}"))?;
        for p in listing(&saved, Some(&m.info)).pieces {
            if let Some(id) = crate::pieces::counter(Some(doc), &p) {
                printed.entry(id).or_insert(p.printed);
            }
        }
    }
    let mut update =
        Update { setups: moved_setups(listed, m, doc, scenario)?, ..Update::default() };
    for p in &listed.pieces {
        let Some(id) = crate::pieces::counter(Some(doc), p) else { continue };
        let Some(now) = printed.get(&id) else {
            update.not_compared += 1;
            continue;
        };
        update.compared += 1;
        let keys: std::collections::BTreeSet<&String> =
            p.printed.keys().chain(now.keys()).collect();
        let values: BTreeMap<String, (Option<String>, Option<String>)> = keys
            .into_iter()
            .filter(|k| p.printed.get(*k) != now.get(*k))
            .map(|k| (k.clone(), (p.printed.get(k).cloned(), now.get(k).cloned())))
            .collect();
        if !values.is_empty() {
            update.changed.push(Changed {
                name: p.name.clone(),
                unit: id,
                at: at(p),
                values,
            });
        }
    }
    Ok(update)
}

/// The counters of the game whose setup place the module's list of changes
/// ([`CHANGES`]) says its release moved, in `scenario` or every scenario; nothing when the
/// module carries no list.
fn moved_setups(
    listed: &Listing,
    m: &mut Module,
    doc: &RulesetDoc,
    scenario: Option<&str>,
) -> Result<Option<Setups>> {
    if !m.archive.contains(CHANGES) {
        return Ok(None);
    }
    let bytes = m.archive.read(CHANGES).map_err(|e| anyhow::anyhow!("{CHANGES}: {e}"))?;
    let changes: Changes = serde_json::from_slice(&bytes)
        .map_err(|e| anyhow::anyhow!("{CHANGES} cannot be read: {e}"))?;
    let mut moved = Vec::new();
    for c in &changes.placements {
        let (Some(unit), Some(id)) = (&c.unit, &c.scenario) else { continue };
        if scenario.is_some_and(|s| s != id) {
            continue;
        }
        let piece = listed
            .pieces
            .iter()
            .find(|p| crate::pieces::counter(Some(doc), p).as_ref() == Some(unit));
        let Some(piece) = piece else { continue };
        moved.push(Moved {
            name: piece.name.clone(),
            unit: unit.clone(),
            scenario: id.clone(),
            from: c.from.clone().unwrap_or_default(),
            to: c.to.clone().unwrap_or_default(),
            at: at(piece),
        });
    }
    Ok(Some(Setups { versions: changes.versions, moved }))
}

/// A moved setup place in words: `meeting: 1.0.1 sets up 1 Bde HQ at 09.03 (1.0.0 at
/// 09.02); in this game it stands at 09.02`.
pub fn moved_sentence(m: &Moved, versions: &(String, String)) -> String {
    format!(
        "{}: {} sets up {} at {} ({} at {}); in this game it stands at {}",
        m.scenario, versions.1, m.name, m.to, versions.0, m.from, m.at
    )
}

/// Where a piece stands, in words.
fn at(p: &ListedPiece) -> String {
    p.location.clone().or_else(|| p.map.clone()).unwrap_or_else(|| "off the map".into())
}

/// A changed counter in words: `1 Bde HQ at 09.02: movement (front) 8 → 9`.
pub fn sentence(c: &Changed) -> String {
    let values: Vec<String> = c
        .values
        .iter()
        .map(|(k, (was, is))| {
            let name = match k.split_once('_') {
                Some(("Full", v)) => format!("{v} (front)"),
                Some(("Reduced", v)) => format!("{v} (back)"),
                _ => k.clone(),
            };
            format!(
                "{name} {} → {}",
                was.as_deref().unwrap_or("none"),
                is.as_deref().unwrap_or("none")
            )
        })
        .collect();
    format!("{} at {}: {}", c.name, c.at, values.join(", "))
}
