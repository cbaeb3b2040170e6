//! `muster pieces`: what a module's predefined setups, or a saved game, hold.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use muster_model::FindingKind;
use muster_model::input::read_bounded;
use muster_package::archive::{Archive, MAX_TOTAL_BYTES};
use muster_package::listing::{ListedPiece, Listing, listing};
use muster_package::module::RULESET;
use muster_package::printable::printable;
use muster_package::read::{ModuleInfo, SaveMeta, read_module, read_save};
use muster_package::vassal::save::Unread;
use muster_rules::Category;
use muster_rules::embedded::{RulesetDoc, is_counter};
use serde_json::{Value, json};

use crate::args::Format;
use crate::exit::Exit;

/// Reads a module or saved game: a regular file (a FIFO or a device is refused by what it
/// is), refused when it holds more than muster unpacks.
pub fn read_limited(path: &Path) -> Result<Vec<u8>> {
    read_bounded(path, MAX_TOTAL_BYTES)
        .map_err(|e| anyhow::anyhow!("cannot read {} ({e})", path.display()))
}

fn open(path: &Path) -> Result<Archive> {
    Archive::open(read_limited(path)?)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// A module as `pieces` and `check` read it: its maps, grids, decks and turn trackers,
/// the archive, and its ruleset when it has one.
pub struct Module {
    /// What the buildFile says.
    pub info: ModuleInfo,
    /// The archive.
    pub archive: Archive,
    /// `rules/ruleset.json`, for modules muster built.
    pub ruleset: Option<RulesetDoc>,
    /// The bytes of `rules/ruleset.json`, read once.
    pub ruleset_bytes: Option<Vec<u8>>,
}

/// Opens a module; a ruleset that is there but cannot be read is an error.
pub fn module(path: &Path) -> Result<Module> {
    let mut archive = open(path)?;
    let info = read_module(&mut archive)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let ruleset_bytes = if archive.contains(RULESET) {
        Some(
            archive
                .read(RULESET)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
        )
    } else {
        None
    };
    let ruleset =
        ruleset_bytes.as_deref().map(serde_json::from_slice).transpose().map_err(
            |e| anyhow::anyhow!("{}: {RULESET} is not a ruleset ({e})", path.display()),
        )?;
    Ok(Module { info, archive, ruleset, ruleset_bytes })
}

/// The counter of the game a piece is: the one its `UnitId` names, unless its category
/// says it is something else (a chit, a card, a marker sharing a unit's properties).
pub fn counter(ruleset: Option<&RulesetDoc>, p: &ListedPiece) -> Option<String> {
    let id = p.unit_id.as_ref()?;
    let category = p.category.as_deref();
    let yes = match ruleset {
        Some(doc) => doc.units.iter().any(|u| u.id == *id && is_counter(u, category)),
        None => category.is_none_or(|c| Category::from_name(c).is_some()),
    };
    yes.then(|| id.clone())
}

/// An unread entry as JSON, an `unread-entry` finding.
pub fn unread_json(u: &Unread) -> Value {
    entry_json(FindingKind::UnreadEntry, u)
}

/// A location or name muster cannot tell as JSON, an `unmodelled-component` finding.
pub fn unmodelled_json(u: &Unread) -> Value {
    entry_json(FindingKind::UnmodelledComponent, u)
}

fn entry_json(kind: FindingKind, u: &Unread) -> Value {
    json!({"kind": kind, "severity": kind.severity(), "entry": u.entry, "id": u.id, "what": u.what})
}

/// An unread entry as a line of text, its control characters escaped ([`printable`]).
pub fn unread_line(file: &str, u: &Unread) -> String {
    entry_line(file, FindingKind::UnreadEntry, "not read", u)
}

/// A location or name muster cannot tell as a line of text, its control characters
/// escaped.
pub fn unmodelled_line(file: &str, u: &Unread) -> String {
    entry_line(file, FindingKind::UnmodelledComponent, "not modelled", u)
}

fn entry_line(file: &str, kind: FindingKind, verdict: &str, u: &Unread) -> String {
    let line = format!(
        "{file}: {} [{kind}] entry {} ({}) {verdict}: {}",
        kind.severity(),
        u.entry,
        u.id,
        u.what
    );
    printable(&line).into_owned()
}

/// Writes one line of text output. What it says of a save or module (names, notes, ids)
/// is the file's own text, so its control characters are escaped ([`printable`]): a name
/// cannot end the line and forge another.
pub fn put_line(out: &mut impl Write, line: &str) -> std::io::Result<()> {
    writeln!(out, "{}", printable(line))
}

/// The warning `other-module` when the save names a module other than `module_name`: its
/// pieces are read, and named, by the module given, which may place them otherwise.
pub fn other_module(meta: &SaveMeta, module_name: &str) -> Option<(FindingKind, String)> {
    let name = meta.module.as_ref().filter(|n| *n != module_name)?;
    let version =
        meta.module_version.as_ref().map(|v| format!(" {v}")).unwrap_or_default();
    Some((
        FindingKind::OtherModule,
        format!(
            "the game was saved with the module `{name}`{version}, not `{module_name}`"
        ),
    ))
}

struct Report {
    name: String,
    listing: Listing,
    meta: SaveMeta,
    /// Warnings about the save as a whole (`other-module`).
    warnings: Vec<(FindingKind, String)>,
}

/// Lists pieces; exit 2 when a file cannot be read, 1 when an entry could not be read.
pub fn run(file: &Path, module_path: Option<&Path>, format: Format) -> Result<Exit> {
    let mut reports: Vec<Report> = Vec::new();
    if file.extension().is_some_and(|e| e == "vmod") {
        let mut m = module(file)?;
        // A file several setups name is read once.
        let mut read: std::collections::BTreeMap<String, (Listing, SaveMeta)> =
            std::collections::BTreeMap::new();
        for (name, setup) in m.info.setups.clone() {
            if !m.archive.contains(&setup) {
                // VASSAL's menu offers it, and fails to open it.
                let what = format!(
                    "the module offers the setup `{name}` from the file `{setup}`, which it does not hold"
                );
                reports.push(Report {
                    name: format!("{name} ({setup})"),
                    listing: Listing::default(),
                    meta: SaveMeta::default(),
                    warnings: vec![(FindingKind::MissingSetupFile, what)],
                });
                continue;
            }
            if !read.contains_key(&setup) {
                let bytes = m
                    .archive
                    .read(&setup)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
                let (saved, meta) = read_save(bytes).map_err(|e| {
                    anyhow::anyhow!("{}: {}: {e}", file.display(), printable(&setup))
                })?;
                read.insert(setup.clone(), (listing(&saved, Some(&m.info)), meta));
            }
            let (listing, meta) = read[&setup].clone();
            // A module's own setups belong to it, whatever name they were saved under.
            reports.push(Report {
                name: format!("{name} ({setup})"),
                listing,
                meta,
                warnings: Vec::new(),
            });
        }
        return print(&reports, m.ruleset.as_ref(), format);
    }
    let m = module_path.map(module).transpose()?;
    let (saved, meta) = read_save(read_limited(file)?)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let warnings =
        m.as_ref().and_then(|m| other_module(&meta, &m.info.name)).into_iter().collect();
    reports.push(Report {
        name: file.display().to_string(),
        listing: listing(&saved, m.as_ref().map(|m| &m.info)),
        meta,
        warnings,
    });
    print(&reports, m.as_ref().and_then(|m| m.ruleset.as_ref()), format)
}

fn print(
    reports: &[Report],
    ruleset: Option<&RulesetDoc>,
    format: Format,
) -> Result<Exit> {
    let bad = reports.iter().any(|r| {
        !r.listing.unread.is_empty()
            || !r.listing.unmodelled.is_empty()
            || !r.warnings.is_empty()
    });
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        let json: Vec<Value> = reports
            .iter()
            .map(|r| {
                let pieces: Vec<Value> = r
                    .listing
                    .pieces
                    .iter()
                    .map(|p| {
                        let mut v = serde_json::to_value(p).unwrap_or_default();
                        v["unit"] = counter(ruleset, p).into();
                        v
                    })
                    .collect();
                json!({
                    "setup": r.name,
                    "saved_with": r.meta,
                    "started": r.listing.started,
                    "pieces": pieces,
                    "decks": r.listing.decks,
                    "turns": r.listing.turns,
                    "facts": r.listing.facts,
                    "unread": r.listing.unread.iter().map(unread_json).collect::<Vec<_>>(),
                    "unmodelled": r.listing.unmodelled.iter().map(unmodelled_json).collect::<Vec<_>>(),
                    "warnings": r.warnings.iter().map(|(k, w)| json!({"kind": k, "severity": k.severity(), "message": w})).collect::<Vec<_>>(),
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        for r in reports {
            let l = &r.listing;
            let turn = l.turn_text().map(|t| format!(", {t}")).unwrap_or_default();
            let head = format!(
                "{}: {} piece(s), {} deck(s){turn}",
                r.name,
                l.pieces.len(),
                l.decks.len()
            );
            put_line(&mut out, &head)?;
            for (kind, message) in &r.warnings {
                let line = format!("{}: {} [{kind}] {message}", r.name, kind.severity());
                put_line(&mut out, &line)?;
            }
            for p in &l.pieces {
                let mut notes = Vec::new();
                if let Some(d) = &p.deck {
                    notes.push(format!("in deck {d}"));
                }
                if let Some(c) = &p.category
                    && counter(ruleset, p).is_none()
                {
                    notes.push(format!("{c}, not a counter"));
                }
                if p.reduced {
                    notes.push("reduced".into());
                }
                if let Some(st) = &p.strength {
                    notes.push(format!("strength {st}"));
                }
                let line = format!(
                    "  {:<28} {:<14} {:<30} ({}, {}){}",
                    p.name,
                    p.map.as_deref().unwrap_or("-"),
                    p.location.as_deref().unwrap_or("-"),
                    p.x,
                    p.y,
                    if notes.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", notes.join(", "))
                    }
                );
                put_line(&mut out, &line)?;
            }
            for d in &l.decks {
                let line = format!(
                    "  deck {:<23} {:<14} {:<30} ({}, {}) {} piece(s){}",
                    d.name,
                    d.map.as_deref().unwrap_or("-"),
                    d.location.as_deref().unwrap_or("-"),
                    d.x,
                    d.y,
                    d.pieces.len(),
                    if d.face_down { ", face down" } else { "" }
                );
                put_line(&mut out, &line)?;
            }
            for f in &l.facts {
                let name = if f.name.is_empty() {
                    String::new()
                } else {
                    format!(" {}", f.name)
                };
                // Notes keep their lines apart, on one line of output.
                let line =
                    format!("  {}{name}: {}", f.kind, f.value.replace('\n', " / "));
                put_line(&mut out, &line)?;
            }
            for u in &l.unread {
                writeln!(out, "{}", unread_line(&r.name, u))?;
            }
            for u in &l.unmodelled {
                writeln!(out, "{}", unmodelled_line(&r.name, u))?;
            }
        }
    }
    Ok(if bad { Exit::Findings } else { Exit::Clean })
}
