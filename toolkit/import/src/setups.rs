//! Scenarios from a module's predefined setups: every piece of the setup's save at its hex,
//! on its side, as an exact placement.

use std::collections::HashMap;

use muster_vassal::listing::listing;
use muster_vassal::read::{ModuleInfo, read_save};
use muster_vassal::zip_reader::Archive;

use crate::carried::Report;
use muster_vassal::vassal::piece::Piece;

use crate::counters::{Counter, shows_back, slug};
use crate::maps::{HexMap, board};
use muster_hex::Board;

/// One placement: counters of one side in one hex, on one face.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The hex label.
    pub location: String,
    /// Whether the counters start on their back.
    pub back: bool,
    /// Printed names, in stack order.
    pub units: Vec<String>,
}

/// A scenario read from a predefined setup.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Scenario id (from the save's file name).
    pub id: String,
    /// The setup's menu name.
    pub title: String,
    /// Placements by side id, sides in the order first seen.
    pub sides: Vec<(String, Vec<Placement>)>,
}

impl Scenario {
    /// How many times the side `side` places the counter printed `printed`.
    pub fn uses(&self, side: &str, printed: &str) -> u32 {
        let units = self.sides.iter().filter(|(s, _)| s == side).flat_map(|(_, p)| p);
        let n = units.flat_map(|p| &p.units).filter(|u| *u == printed).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }
}

/// The counter a save's piece is: by `UnitId`, by the palette slot's gpid, or by name.
fn find<'c>(
    counters: &'c [Counter],
    unit_id: Option<&str>,
    gpid: &str,
    name: &str,
) -> Option<&'c Counter> {
    unit_id
        .and_then(|u| counters.iter().find(|c| c.unit_id.as_deref() == Some(u)))
        .or_else(|| counters.iter().find(|c| !gpid.is_empty() && c.gpid == gpid))
        .or_else(|| counters.iter().find(|c| c.printed == name))
}

/// Reads every predefined setup of the module as a scenario.
pub fn scenarios(
    archive: &mut Archive,
    info: &ModuleInfo,
    counters: &[Counter],
    maps: &[HexMap],
    report: &mut Report,
) -> Vec<Scenario> {
    let mut out: Vec<Scenario> = Vec::new();
    let boards: Vec<(String, Board)> =
        maps.iter().filter_map(|m| Some((m.map.clone(), board(m).ok()?))).collect();
    for (title, file) in &info.setups {
        let path = format!("PredefinedSetup[{title}]");
        let read = archive
            .read(file)
            .map_err(|e| e.to_string())
            .and_then(|bytes| read_save(bytes).map_err(|e| e.to_string()));
        let (saved, _) = match read {
            Ok(s) => s,
            Err(e) => {
                report.add(
                    &path,
                    format!("save {file}"),
                    format!("cannot be read ({e})"),
                );
                continue;
            }
        };
        let pieces: HashMap<&str, &Piece> = saved
            .added
            .iter()
            .filter_map(|a| Some((a.id.as_str(), a.piece.as_ref()?)))
            .collect();
        let list = listing(&saved, Some(info));
        let mut id = slug(file.trim_end_matches(".vsav"));
        while out.iter().any(|s| s.id == id) {
            id.push_str("-2");
        }
        let mut scenario = Scenario { id, title: title.clone(), sides: Vec::new() };
        for p in &list.pieces {
            let saved_piece = pieces.get(p.id.as_str());
            let gpid = saved_piece
                .and_then(|s| s.position())
                .map(|s| s.gpid)
                .unwrap_or_default();
            let Some(counter) = find(counters, p.unit_id.as_deref(), &gpid, &p.name)
            else {
                report.add(
                    format!("{path}/{}", p.name),
                    "piece",
                    "matches no palette piece; it is left out of the scenario",
                );
                continue;
            };
            let hex =
                p.map.as_deref().and_then(|m| boards.iter().find(|(name, _)| name == m));
            let location = match (&p.location, hex) {
                (Some(l), Some((_, board))) if board.parse(l).is_ok() => l.clone(),
                _ => {
                    report.add(
                        format!("{path}/{}", p.name),
                        format!(
                            "piece at {}",
                            p.location.as_deref().filter(|l| !l.is_empty()).unwrap_or("no location")
                        ),
                        format!(
                            "is on no hex of the imported map (map {}); it is left out of the scenario",
                            p.map.as_deref().unwrap_or("none")
                        ),
                    );
                    continue;
                }
            };
            let back = p.reduced
                || saved_piece.is_some_and(|s| shows_back(s, counter.front_from_basic));
            let side =
                match scenario.sides.iter_mut().position(|(s, _)| *s == counter.side) {
                    Some(k) => k,
                    None => {
                        scenario.sides.push((counter.side.clone(), Vec::new()));
                        scenario.sides.len() - 1
                    }
                };
            let placements = &mut scenario.sides[side].1;
            match placements
                .iter_mut()
                .find(|pl| pl.location == location && pl.back == back)
            {
                Some(pl) => pl.units.push(counter.printed.clone()),
                None => placements.push(Placement {
                    location,
                    back,
                    units: vec![counter.printed.clone()],
                }),
            }
        }
        out.push(scenario);
    }
    out
}
