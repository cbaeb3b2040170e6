//! Cross-file checks and the construction of a [`Game`] from its documents.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use muster_hex::{Board, Direction, Sheet};
use muster_rules::Category;
use rayon::prelude::*;

use crate::diag::{Diagnostic, Sources, suggest};
use crate::finding::FindingKind;
use crate::game::{
    Formation, Game, ParsedPlacement, ParsedScenario, ParsedUnits, PlacementKind, Unit,
};
use crate::notation::{self, LocationExpr, Marks, Vocabulary};
use crate::source::{
    CounterDef, CounterEntry, CounterGroup, CountersFile, FeatureKind, FormationDef,
    GameFile, KnownErrata, LocationField, MapFile, OobFile, RulesFile, ScenarioFile,
    Table, UnitsField,
};
use crate::span::{Span, Spanned};

/// A vocabulary of declared ids of one kind, with where each was declared.
#[derive(Default)]
struct Ids {
    kind: &'static str,
    seen: BTreeMap<String, Span>,
}

impl Ids {
    fn new(kind: &'static str) -> Self {
        Ids { kind, seen: BTreeMap::new() }
    }

    fn declare(&mut self, id: &Spanned<String>, errors: &mut Vec<Diagnostic>) {
        if !is_slug(&id.v) {
            errors.push(
                Diagnostic::error(id.span, format!("{} id `{}` is not a valid id", self.kind, id.v))
                    .with_expected("lowercase letters, digits and dashes, starting with a letter or digit")
                    .with_hint(format!("write `{}`", slug(&id.v))),
            );
        }
        if let Some(first) = self.seen.get(&id.v) {
            errors.push(
                Diagnostic::error(
                    id.span,
                    format!("duplicate {} id `{}`", self.kind, id.v),
                )
                .with_hint(format!("first declared at line {}", first.line)),
            );
        } else {
            self.seen.insert(id.v.clone(), id.span);
        }
    }

    fn contains(&self, id: &str) -> bool {
        self.seen.contains_key(id)
    }

    fn check(&self, r: &Spanned<String>, errors: &mut Vec<Diagnostic>) {
        if !self.contains(&r.v) {
            errors.push(self.unknown(r));
        }
    }

    fn unknown(&self, r: &Spanned<String>) -> Diagnostic {
        let names: Vec<&str> = self.seen.keys().map(String::as_str).collect();
        let expected = if names.is_empty() {
            format!("a declared {} (none are declared)", self.kind)
        } else if names.len() <= 12 {
            format!("one of {}", names.join(", "))
        } else {
            format!("a declared {} id", self.kind)
        };
        Diagnostic::error(r.span, format!("unknown {} `{}`", self.kind, r.v))
            .with_expected(expected)
            .with_suggestion(suggest(&r.v, names))
    }
}

/// The value ids a template names (`{attack}-{defense}` → `attack`, `defense`).
pub fn template_values(t: &str) -> Vec<&str> {
    t.split('{').skip(1).filter_map(|p| p.split_once('}').map(|(v, _)| v)).collect()
}

/// Is `s` a valid id ([`crate::source::bounds::ID`])?
pub(crate) fn is_slug(s: &str) -> bool {
    crate::source::bounds::is_id(s)
}

/// Turns printed text into an id: `I/19 Inf Bn` → `i-19-inf-bn`.
pub(crate) fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let c = match c {
            'ä' | 'Ä' => 'a',
            'ö' | 'Ö' => 'o',
            'ü' | 'Ü' => 'u',
            _ => c,
        };
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() { "x".into() } else { out }
}

fn check_rgb(rgb: &Option<Spanned<String>>, errors: &mut Vec<Diagnostic>) {
    if let Some(c) = rgb
        && !crate::source::bounds::is_rgb(&c.v)
    {
        errors.push(
            Diagnostic::error(c.span, format!("colour `{}` is not a hex colour", c.v))
                .with_expected("`#rrggbb`, as in `#8b4513`"),
        );
    }
}

/// The words a bare number counts (`SU` in `4 SU`, `supply units` in `two supply units`):
/// the abbreviations whose printed meaning names a counter or marker of the manifest (`SU`,
/// "Supply Units", the marker "Supply Unit"), with that meaning, plural and singular.
fn counted_words(
    g: &crate::source::GameFile,
    counters: &crate::source::CountersFile,
) -> Vec<String> {
    let names: Vec<String> = counters
        .groups
        .iter()
        .flat_map(|gr| gr.counters.iter().map(|c| c.v.printed().to_lowercase()))
        .chain(counters.markers.iter().map(|m| m.printed.v.to_lowercase()))
        .collect();
    let mut out = Vec::new();
    for a in &g.abbreviations {
        let meaning = a.meaning.to_lowercase();
        let singular = meaning.trim_end_matches('s');
        if names.iter().any(|n| *n == meaning || n == singular) {
            out.push(a.abbr.clone());
            out.push(a.meaning.clone());
            out.push(a.meaning.trim_end_matches('s').to_string());
        }
    }
    out
}

/// The file stem of a path, for checking that a document's id matches its file name.
fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The parsed documents of one game folder, as loading hands them to [`build`].
pub(crate) struct Documents {
    pub game: GameFile,
    pub oob: OobFile,
    pub counters: CountersFile,
    pub rules: RulesFile,
    pub maps: Vec<(PathBuf, MapFile)>,
    pub scenarios: Vec<(PathBuf, ScenarioFile)>,
    pub errata: KnownErrata,
}

pub(crate) fn build(
    dir: &Path,
    docs: Documents,
    sources: &Sources,
) -> Result<(Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let g = &docs.game;
    check_game_id(g, dir, &mut errors);
    let declared = declare(g, &mut errors);
    let (board, board_maps) = join_maps(&docs, &declared, &mut errors, &mut warnings)?;
    let (mut formations, formation_ids) = read_formations(&docs, &declared, &mut errors);
    let read = read_counters(
        &docs,
        &declared,
        &formations,
        &formation_ids,
        &mut errors,
        &mut warnings,
    );
    let Counters { mut units, mut unit_ids, marks, vocabulary } = read;
    let mut markers = read_markers(&docs, &mut unit_ids, &declared.sides, &mut errors);
    carry_assumptions(
        &docs,
        &marks,
        &mut formations,
        &mut units,
        &mut markers,
        &mut errors,
    );
    check_rule_references(&docs, &declared, &units, &mut errors);
    let rules_at =
        sources.find(&dir.join("rules.yaml")).map_or(Span::detached(), Span::file_start);
    crate::rules_shape::check(&docs.rules, &units, rules_at, &mut errors, &mut warnings);
    let mut parsed = read_scenarios(
        &docs,
        board.as_ref(),
        &marks,
        &declared.sides,
        &mut errors,
        &mut warnings,
    );
    crate::starting_values::attach(
        &docs.game,
        &docs.scenarios,
        &units,
        &mut parsed,
        &mut errors,
        &mut warnings,
    );
    check_play(&docs, &markers, &mut errors);
    let (documents, chart_images) = read_assets(dir, &docs, &mut errors, &mut warnings);
    if !errors.is_empty() {
        errors.sort_by_key(|d| (d.span.file, d.span.line, d.span.column));
        return Err(errors);
    }
    let Documents { game, oob, counters, rules, maps: _, scenarios, errata } = docs;
    let mut scenarios: Vec<ScenarioFile> =
        scenarios.into_iter().map(|(_, s)| s).collect();
    scenarios.sort_by(|a, b| a.id.v.cmp(&b.id.v));
    parsed.sort_by(|a: &ParsedScenario, b| a.id.cmp(&b.id));
    let index = crate::game::Index::new(&units, &formations);
    Ok((
        Game {
            index,
            id: game.id.v.clone(),
            dir: dir.to_path_buf(),
            meta: game,
            oob,
            counters,
            rules,
            maps: board_maps,
            scenarios,
            board,
            formations,
            units,
            markers,
            parsed,
            marks,
            vocabulary,
            known_errata: errata,
            documents,
            chart_images,
            templates: Vec::new(),
            map_art: Vec::new(),
        },
        warnings,
    ))
}

/// The game's id: a valid id, equal to the name of its folder.
fn check_game_id(g: &GameFile, dir: &Path, errors: &mut Vec<Diagnostic>) {
    let folder = stem(dir);
    if !is_slug(&g.id.v) {
        errors.push(
            Diagnostic::error(
                g.id.span,
                format!("game id `{}` is not a valid id", g.id.v),
            )
            .with_expected(
                "lowercase letters, digits and dashes, starting with a letter or digit",
            )
            .with_hint(format!("write `{}` and name the folder so", slug(&g.id.v))),
        );
    } else if g.id.v != folder {
        errors.push(
            Diagnostic::error(
                g.id.span,
                format!("game id `{}` does not match its folder", g.id.v),
            )
            .with_expected(format!(
                "`{folder}`, the name of the folder that holds game.yaml"
            )),
        );
    }
}

/// The ids `game.yaml` declares, each kind with where it was declared.
struct Declared {
    sides: Ids,
    nations: Ids,
    sizes: Ids,
    types: Ids,
    values: Ids,
    terrain: Ids,
}

/// Declares the ids of `game.yaml` (sides, nationalities, sizes, types, values, terrain)
/// and checks what it says of them: colours, unit symbols, the counter style's values,
/// the notation's type codes.
fn declare(g: &GameFile, errors: &mut Vec<Diagnostic>) -> Declared {
    let mut sides = Ids::new("side");
    for s in &g.sides {
        sides.declare(&s.id, errors);
        check_rgb(&s.stripe, errors);
    }
    check_side_names(&g.sides, errors);
    let mut nations = Ids::new("nationality");
    for n in &g.nationalities {
        nations.declare(&n.id, errors);
        sides.check(&n.side, errors);
        check_rgb(&n.rgb, errors);
    }
    let mut sizes = Ids::new("unit size");
    g.unit_sizes.iter().for_each(|s| sizes.declare(&s.id, errors));
    let mut types = Ids::new("unit type");
    for t in &g.unit_types {
        types.declare(&t.id, errors);
        if !crate::symbols::KNOWN.contains(&t.symbol.v.as_str()) {
            errors.push(
                Diagnostic::error(
                    t.symbol.span,
                    format!("unknown unit symbol `{}`", t.symbol.v),
                )
                .with_expected(format!("one of {}", crate::symbols::KNOWN.join(", ")))
                .with_suggestion(suggest(
                    &t.symbol.v,
                    crate::symbols::KNOWN.iter().copied(),
                )),
            );
        }
    }
    let mut values = Ids::new("counter value");
    g.values.iter().for_each(|v| values.declare(&v.id, errors));
    let mut terrain = Ids::new("terrain");
    terrain.seen.insert("unknown".into(), Span::detached());
    for t in &g.terrain {
        terrain.declare(&t.id, errors);
        check_rgb(&t.rgb, errors);
    }
    for t in &g.counter_style.values {
        t.types.iter().for_each(|x| types.check(x, errors));
        for name in template_values(&t.text.v) {
            if !values.contains(name) {
                errors.push(values.unknown(&Spanned::new(name.to_string(), t.text.span)));
            }
        }
    }
    if let Some(b) = &g.counter_style.beside_size {
        values.check(&b.left, errors);
        values.check(&b.right, errors);
    }
    for code in &g.notation.type_codes {
        code.types.iter().for_each(|t| types.check(t, errors));
    }
    Declared { sides, nations, sizes, types, values, terrain }
}

/// The maps and the board they are joined into, with each placed map's contents checked.
/// Stops here, with the errors so far, when a map cannot be placed or the board not made.
fn join_maps(
    docs: &Documents,
    declared: &Declared,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Option<Board>, Vec<MapFile>), Vec<Diagnostic>> {
    let g = &docs.game;
    let mut map_ids = Ids::new("map");
    for (path, m) in &docs.maps {
        map_ids.declare(&m.id, errors);
        if m.id.v != stem(path) {
            errors.push(
                Diagnostic::error(
                    m.id.span,
                    format!("map id `{}` does not match its file name", m.id.v),
                )
                .with_expected(format!("`{}`", stem(path))),
            );
        }
        check_map_shape(m, errors);
    }
    let mut sheets = Vec::new();
    let mut board_maps = Vec::new();
    let placements = g.board.as_ref().map_or(&[][..], |b| b.sheets.as_slice());
    for p in placements {
        match docs.maps.iter().find(|(_, m)| m.id.v == p.map.v) {
            Some((_, m)) => {
                let mut s =
                    Sheet::new(&m.id.v, m.columns.v, m.rows.v, m.numbering.v.clone());
                s.col_offset = p.col_offset;
                s.row_offset = p.row_offset;
                sheets.push(s);
                board_maps.push(m.clone());
            }
            None => errors.push(map_ids.unknown(&p.map)),
        }
    }
    for (_, m) in &docs.maps {
        if !placements.iter().any(|p| p.map.v == m.id.v) {
            warnings.push(Diagnostic::finding(
                FindingKind::UnplacedMap,
                m.id.span,
                format!("map `{}` is not placed on the board in game.yaml", m.id.v),
            ));
        }
    }
    check_joins(&board_maps, &sheets, warnings);
    if !errors.is_empty() {
        return Err(std::mem::take(errors));
    }
    let board = match &g.board {
        None => None,
        Some(def) => match Board::new(def.grid, sheets) {
            Ok(b) => Some(b),
            Err(e) => {
                let span = def.sheets.first().map_or(g.id.span, |s| s.map.span);
                return Err(vec![Diagnostic::error(
                    span,
                    format!("failed to join the maps ({e})"),
                )]);
            }
        },
    };
    if let Some(board) = &board {
        for m in &board_maps {
            check_map_contents(m, board, &declared.terrain, &declared.sides, errors);
            crate::paths::check(m, board, warnings);
        }
    }
    Ok((board, board_maps))
}

/// The formations of `oob.yaml`, flattened, each with a side, and their ids.
fn read_formations(
    docs: &Documents,
    declared: &Declared,
    errors: &mut Vec<Diagnostic>,
) -> (Vec<Formation>, Ids) {
    let mut formation_ids = Ids::new("formation");
    let mut formations = Vec::new();
    for f in &docs.oob.formations {
        flatten(f, None, None, None, &mut formations, &mut formation_ids, errors);
    }
    for f in &formations {
        if f.side.is_empty() {
            errors.push(
                Diagnostic::error(
                    f.printed.span,
                    format!("formation `{}` has no side", f.id),
                )
                .with_hint("give it (or a formation above it) a `side`"),
            );
        }
    }
    let d = declared;
    check_formation_refs(&docs.oob.formations, &d.sides, &d.nations, &d.sizes, errors);
    (formations, formation_ids)
}

/// The manifest's counters as units, with their ids, the notation they were read with and
/// the game's words for types and sizes.
struct Counters {
    units: Vec<Unit>,
    unit_ids: Ids,
    marks: Marks,
    vocabulary: Vocabulary,
}

/// The counters of the manifest, each read from its printed name and its entry; the
/// marks then learn the printed names that hold parentheses, read whole.
fn read_counters(
    docs: &Documents,
    declared: &Declared,
    formations: &[Formation],
    formation_ids: &Ids,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Counters {
    let g = &docs.game;
    let vocabulary = Vocabulary {
        types: g
            .unit_types
            .iter()
            .flat_map(|t| t.printed.iter().map(|w| (w.clone(), t.id.v.clone())))
            .collect(),
        sizes: g
            .unit_sizes
            .iter()
            .flat_map(|s| s.printed.iter().map(|w| (w.clone(), s.id.v.clone())))
            .collect(),
    };
    let mut marks = Marks {
        reduced: g.notation.reduced_marks.clone(),
        independent: g.notation.independent_marks.clone(),
        type_codes: g.notation.type_codes.iter().map(|c| c.code.clone()).collect(),
        nationalities: g.nationalities.iter().flat_map(|n| n.printed.clone()).collect(),
        remarks: g.notation.remarks.clone(),
        counted: counted_words(g, &docs.counters),
        words: vocabulary.clone(),
        names: vec![],
    };
    let mut whole_names = Vec::new();
    let mut unit_ids = Ids::new("counter");
    let mut units = Vec::new();
    for group in &docs.counters.groups {
        if let Some(f) = &group.formation {
            formation_ids.check(f, errors);
        }
        if let Some(s) = &group.side {
            declared.sides.check(s, errors);
        }
        if let Some(n) = &group.nationality {
            declared.nations.check(n, errors);
        }
        let reading = Reading {
            g,
            declared,
            vocabulary: &vocabulary,
            marks: &marks,
            formations,
            formation_ids,
        };
        for entry in &group.counters {
            let (unit, whole) =
                counter_unit(&reading, group, entry, &mut unit_ids, errors, warnings);
            whole_names.extend(whole);
            units.push(unit);
        }
    }
    whole_names.sort();
    whole_names.dedup();
    marks.names = whole_names;
    // A state a back shows (`Disordered`) is a mark that sets a counter up on it.
    for state in units.iter().filter_map(|u: &Unit| u.back_state.as_ref()) {
        if !marks.reduced.contains(state) {
            marks.reduced.push(state.clone());
        }
    }
    Counters { units, unit_ids, marks, vocabulary }
}

/// What reading a counter of the manifest needs to know.
struct Reading<'a> {
    g: &'a GameFile,
    declared: &'a Declared,
    vocabulary: &'a Vocabulary,
    marks: &'a Marks,
    formations: &'a [Formation],
    formation_ids: &'a Ids,
}

/// One counter of the manifest as a unit, and its printed name when that holds
/// parentheses read whole (`I Corps (d'Erlon)`).
fn counter_unit(
    r: &Reading,
    group: &CounterGroup,
    entry: &Spanned<CounterEntry>,
    unit_ids: &mut Ids,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> (Unit, Option<String>) {
    let (g, declared) = (r.g, r.declared);
    let def = match &entry.v {
        CounterEntry::Name(_) => None,
        CounterEntry::Full(d) => Some(d.as_ref()),
    };
    let printed = match def {
        Some(d) => d.printed.clone(),
        None => Spanned::new(entry.v.printed().to_string(), entry.span),
    };
    // A name that holds a word joining units in a list (`Duke of York and Staff`) is one
    // counter's name: it is read whole, never as two units.
    let joined = notation::holds_joining_word(&printed.v);
    let item = (!joined)
        .then(|| notation::parse_units(&printed.v, r.marks).into_iter().next())
        .flatten();
    // So is a name that holds a parenthesis the notation reads as units or notes, or
    // that fits no form of it (`Morand’s (MR) Division`).
    let whole = (joined
        || item.as_ref().is_some_and(|i| {
            !i.children.is_empty() || !i.notes.is_empty() || i.unparsed
        }))
    .then(|| printed.v.trim().to_string());
    let bare = item.as_ref().map_or(printed.v.clone(), |i| i.name.clone());
    let name = notation::parse_name(&bare, r.vocabulary);
    let id = match def.and_then(|d| d.id.clone()) {
        Some(id) => id,
        None => {
            let base = match &group.formation {
                Some(f) => format!("{}-{}", f.v, slug(&printed.v)),
                None => slug(&printed.v),
            };
            Spanned::new(base, printed.span)
        }
    };
    unit_ids.declare(&id, errors);
    let explicit_type = def.and_then(|d| d.unit_type.clone());
    let explicit_size = def.and_then(|d| d.size.clone());
    if let Some(t) = &explicit_type {
        declared.types.check(t, errors);
    }
    if let Some(s) = &explicit_size {
        declared.sizes.check(s, errors);
    }
    let code_type = item.as_ref().and_then(|i| i.type_codes.first()).and_then(|c| {
        g.notation.type_codes.iter().find(|t| &t.code == c).and_then(|t| t.types.first())
    });
    let unit_type = explicit_type
        .map(|t| t.v)
        .or_else(|| name.unit_type.clone())
        .or_else(|| code_type.map(|t| t.v.clone()));
    let size = explicit_size.map(|s| s.v).or_else(|| name.size.clone());
    let category = unit_type
        .as_ref()
        .and_then(|t| g.unit_types.iter().find(|x| x.id.v == *t))
        .map_or(Category::Combat, |t| t.category);
    if unit_type.is_none() {
        warnings.push(
            Diagnostic::finding(FindingKind::UnknownType, printed.span, format!("the type of `{}` is not known", printed.v))
                .with_hint("its printed name states no unit type; add `type:` if the counter shows one"),
        );
    }
    let (side, nationality) =
        counter_side(r, group, def, item.as_ref(), &printed, errors);
    if let Some(d) = def {
        for key in d.front.keys().chain(d.back.keys()) {
            if !declared.values.contains(key) {
                errors.push(
                    declared.values.unknown(&Spanned::new(key.clone(), d.printed.span)),
                );
            }
        }
    }
    let unit = Unit {
        id: id.v,
        printed: printed.clone(),
        name,
        unit_type,
        size,
        category,
        side,
        nationality,
        formation: group.formation.as_ref().map(|f| f.v.clone()),
        section: group.section.clone(),
        steps: def.and_then(|d| d.steps),
        count: def.and_then(|d| d.count).unwrap_or(1),
        front: def
            .map(|d| d.front.iter().map(|(k, v)| (k.clone(), v.0.clone())).collect())
            .unwrap_or_default(),
        back: def
            .map(|d| d.back.iter().map(|(k, v)| (k.clone(), v.0.clone())).collect())
            .unwrap_or_default(),
        single_sided: def.is_some_and(|d| d.single_sided),
        markings: def.map(|d| d.markings.clone()).unwrap_or_default(),
        mobility: def.and_then(|d| d.mobility),
        back_text: None,
        back_state: def
            .and_then(|d| d.back_state.as_ref())
            .or(group.back_state.as_ref())
            .map(|s| s.v.clone()),
        note: def.and_then(|d| d.note.clone()),
        assumed: BTreeMap::new(),
        art: [None, None],
    };
    (unit, whole)
}

/// A counter's side and nationality: a nationality mark printed with the name
/// (`7 RTR Arm Bn (Brit)`) comes before the group's and the formation's nationality; the
/// side is the group's, its formation's, or its nationality's.
fn counter_side(
    r: &Reading,
    group: &CounterGroup,
    def: Option<&CounterDef>,
    item: Option<&crate::notation::UnitItem>,
    printed: &Spanned<String>,
    errors: &mut Vec<Diagnostic>,
) -> (String, Option<String>) {
    let g = r.g;
    let formation =
        group.formation.as_ref().and_then(|f| r.formations.iter().find(|x| x.id == f.v));
    let marked = item
        .and_then(|i| i.nationality.as_deref())
        .and_then(|m| g.nationalities.iter().find(|n| n.printed.iter().any(|p| p == m)));
    let nationality = def
        .and_then(|d| d.nationality.clone())
        .or_else(|| marked.map(|n| n.id.clone()))
        .or_else(|| group.nationality.clone())
        .map(|n| {
            r.declared.nations.check(&n, errors);
            n.v
        })
        .or_else(|| formation.and_then(|f| f.nationality.clone()));
    let side = group
        .side
        .as_ref()
        .map(|s| s.v.clone())
        .or_else(|| formation.map(|f| f.side.clone()))
        .or_else(|| {
            nationality.as_ref().and_then(|n| {
                g.nationalities.iter().find(|x| x.id.v == *n).map(|x| x.side.v.clone())
            })
        })
        .unwrap_or_default();
    let unknown_formation =
        group.formation.as_ref().is_some_and(|f| !r.formation_ids.contains(&f.v));
    if side.is_empty() && !unknown_formation {
        errors.push(
            Diagnostic::error(
                printed.span,
                format!("counter `{}` has no side", printed.v),
            )
            .with_hint("give its group a `formation`, `side` or `nationality`"),
        );
    }
    (side, nationality)
}

/// The manifest's markers as units of the marker category.
fn read_markers(
    docs: &Documents,
    unit_ids: &mut Ids,
    sides: &Ids,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Unit> {
    let mut markers = Vec::new();
    for m in &docs.counters.markers {
        let id = m.id.clone().unwrap_or_else(|| {
            Spanned::new(format!("marker-{}", slug(&m.printed.v)), m.printed.span)
        });
        unit_ids.declare(&id, errors);
        if let Some(s) = &m.side {
            sides.check(s, errors);
        }
        markers.push(Unit {
            id: id.v,
            printed: m.printed.clone(),
            name: notation::parse_name(&m.printed.v, &Vocabulary::default()),
            unit_type: None,
            size: None,
            category: Category::Marker,
            side: m.side.as_ref().map(|s| s.v.clone()).unwrap_or_default(),
            nationality: None,
            formation: None,
            section: Some(m.section.clone()),
            steps: None,
            count: m.count.unwrap_or(1),
            front: BTreeMap::new(),
            back: BTreeMap::new(),
            single_sided: m.back.is_none(),
            markings: vec![],
            mobility: None,
            back_text: m.back.clone(),
            back_state: None,
            note: m.note.clone(),
            assumed: BTreeMap::new(),
            art: [None, None],
        });
    }
    markers
}

/// Assumptions: each marker names values its entry gives; units and formations carry the
/// reasons that concern them.
fn carry_assumptions(
    docs: &Documents,
    marks: &Marks,
    formations: &mut [Formation],
    units: &mut [Unit],
    markers: &mut [Unit],
    errors: &mut Vec<Diagnostic>,
) {
    let g = &docs.game;
    let maps: Vec<&MapFile> = docs.maps.iter().map(|(_, m)| m).collect();
    let scenarios: Vec<&ScenarioFile> = docs.scenarios.iter().map(|(_, s)| s).collect();
    crate::assumptions::check(g, &docs.oob, &docs.counters, &maps, &scenarios, errors);
    crate::assumptions::onto_formations(&docs.oob, formations);
    let marked = |printed: &str| {
        notation::parse_units(printed, marks)
            .first()
            .is_some_and(|i| i.nationality.is_some())
    };
    crate::assumptions::onto_units(g, &docs.counters, formations, &marked, units);
    crate::assumptions::onto_markers(&docs.counters, markers);
}

/// The ids and counters `rules.yaml` names.
fn check_rule_references(
    docs: &Documents,
    declared: &Declared,
    units: &[Unit],
    errors: &mut Vec<Diagnostic>,
) {
    for (kind, r) in docs.rules.references() {
        match kind {
            "type" => declared.types.check(r, errors),
            "size" => declared.sizes.check(r, errors),
            "terrain" => declared.terrain.check(r, errors),
            "value" => declared.values.check(r, errors),
            _ => {
                if !units.iter().any(|u| u.printed.v == r.v) {
                    errors.push(
                        Diagnostic::error(
                            r.span,
                            format!("no counter is printed as `{}`", r.v),
                        )
                        .with_suggestion(suggest(
                            &r.v,
                            units.iter().map(|u| u.printed.v.as_str()),
                        )),
                    );
                }
            }
        }
    }
}

/// The scenarios: their ids, the sides they mention, their tables, and their placements
/// read side by side (what each finds reported in scenario order).
fn read_scenarios(
    docs: &Documents,
    board: Option<&Board>,
    marks: &Marks,
    sides: &Ids,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Vec<ParsedScenario> {
    let g = &docs.game;
    let mut scenario_ids = Ids::new("scenario");
    for (path, s) in &docs.scenarios {
        scenario_ids.declare(&s.id, errors);
        if s.id.v != stem(path) {
            errors.push(
                Diagnostic::error(
                    s.id.span,
                    format!("scenario id `{}` does not match its file name", s.id.v),
                )
                .with_expected(format!("`{}`", stem(path))),
            );
        }
    }
    for m in &g.mentions {
        sides.check(&m.side, errors);
    }
    for t in g.tables.iter().chain(docs.scenarios.iter().flat_map(|(_, s)| &s.tables)) {
        check_table(t, warnings);
    }
    let read: Vec<(ParsedScenario, Vec<Diagnostic>)> = docs
        .scenarios
        .par_iter()
        .map(|(_, s)| {
            let mut found = Vec::new();
            let parsed = parse_scenario(s, board, marks, sides, &mut found);
            (parsed, found)
        })
        .collect();
    let mut parsed = Vec::new();
    for ((_, s), (scenario, found)) in docs.scenarios.iter().zip(read) {
        if let Some(from) = &s.setup_from {
            scenario_ids.check(from, errors);
        }
        if let Some(track) = &g.play.turns {
            crate::turn_track::check_printed_turns(track, s, warnings);
        }
        for t in &s.starting_values {
            sides.check(&t.side, errors);
        }
        for d in found {
            if d.is_fatal() { errors.push(d) } else { warnings.push(d) }
        }
        parsed.push(scenario);
    }
    parsed
}

/// What the module plays with: the decks' markers, the turn track's days and the
/// module's version.
fn check_play(docs: &Documents, markers: &[Unit], errors: &mut Vec<Diagnostic>) {
    let marker_ids: BTreeMap<&str, ()> =
        markers.iter().map(|m| (m.id.as_str(), ())).collect();
    for deck in &docs.game.play.decks {
        for m in &deck.markers {
            if !marker_ids.contains_key(m.v.as_str()) {
                let names: Vec<&str> = marker_ids.keys().copied().collect();
                errors.push(
                    Diagnostic::error(
                        m.span,
                        format!("unknown marker `{}` in deck `{}`", m.v, deck.name),
                    )
                    .with_expected("the id of a marker in counters.yaml")
                    .with_suggestion(suggest(&m.v, names)),
                );
            }
        }
    }
    if let Some(track) = &docs.game.play.turns {
        crate::turn_track::check_track(track, docs.game.id.span, errors);
    }
    let version = &docs.game.module.version;
    if !crate::source::bounds::is_module_version(&version.v) {
        errors.push(
            Diagnostic::error(version.span, format!("`{}` cannot be a module version", version.v.escape_debug()))
                .with_expected(
                    "three numbers, `major.minor.patch`, such as `1.0.0` or `2.1.3` (VASSAL's Game Library accepts no other)",
                )
                .with_suggestion(three_numbers(&version.v)),
        );
    }
}

/// `version` written as three numbers, when it is one or two (`2.0` is `2.0.0`).
fn three_numbers(version: &str) -> Option<String> {
    let parts: Vec<&str> = version.trim().split('.').collect();
    let numbers =
        parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    (numbers && parts.len() < 3).then(|| {
        let mut v: Vec<String> =
            parts.iter().map(|p| p.trim_start_matches('0').to_string()).collect();
        v.iter_mut().filter(|p| p.is_empty()).for_each(|p| *p = "0".into());
        v.resize(3, "0".into());
        v.join(".")
    })
}

/// The documents under `docs/` and the chart images the module carries.
fn read_assets(
    dir: &Path,
    docs: &Documents,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> (Vec<crate::assets::Document>, Vec<crate::assets::Image>) {
    let (documents, problems) = crate::assets::documents(dir);
    for p in problems {
        if p.is_fatal() { errors.push(p) } else { warnings.push(p) }
    }
    let mut chart_images = Vec::new();
    for chart in &docs.game.module.charts {
        match crate::assets::image(dir, &chart.image) {
            Ok(image) => chart_images.push(image),
            Err(d) => errors.push(d),
        }
    }
    (documents, chart_images)
}

/// A number of inches as a finding quotes it: short even when it is absurd (`1e300`).
fn inches(v: f64) -> String {
    if v != 0.0 && !(1e-3..1e6).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// Each sheet a map's `joins` names that the board does not place beside it on that
/// edge, as a warning at the name.
fn check_joins(maps: &[MapFile], sheets: &[Sheet], warnings: &mut Vec<Diagnostic>) {
    for (m, sheet) in maps.iter().zip(sheets) {
        for join in &m.joins {
            let other = sheets.iter().find(|s| s.id == join.map.v);
            if other.is_some_and(|o| join.beside(sheet, o)) {
                continue;
            }
            let edge = format!("{:?}", join.edge).to_lowercase();
            warnings.push(
                Diagnostic::finding(
                    FindingKind::MapJoinApart,
                    join.map.span,
                    format!(
                        "map `{}` joins `{}` at its {edge} edge, but the board in game.yaml does not place `{}` there",
                        m.id.v, join.map.v, join.map.v
                    ),
                )
                .with_expected(format!(
                    "a map the board places beside `{}` on its {edge} edge",
                    m.id.v
                )),
            );
        }
    }
}

fn check_map_shape(m: &MapFile, errors: &mut Vec<Diagnostic>) {
    let size = m.hex_size_in.v;
    if !(size.is_finite() && (0.1..=10.0).contains(&size)) {
        errors.push(
            Diagnostic::error(
                m.hex_size_in.span,
                format!(
                    "map `{}` has an absurd hex size of {} inches",
                    m.id.v,
                    inches(size)
                ),
            )
            .with_expected("`hex_size_in` between 0.1 and 10"),
        );
    }
    for (what, n) in [("columns", &m.columns), ("rows", &m.rows)] {
        if n.v == 0 || n.v > 2000 {
            errors.push(
                Diagnostic::error(n.span, format!("map `{}` has {} {what}", m.id.v, n.v))
                    .with_expected(format!("between 1 and 2000 {what}")),
            );
        }
    }
    if let Some(s) = &m.size {
        let ok = |v: f64| v.is_finite() && v > 0.0 && v <= 200.0;
        if !ok(s.width_in) || !ok(s.height_in) {
            errors.push(
                Diagnostic::error(
                    s.span,
                    format!(
                        "map `{}` has an absurd size of {} by {} inches",
                        m.id.v,
                        inches(s.width_in),
                        inches(s.height_in)
                    ),
                )
                .with_expected("a width and height between 0 and 200 inches"),
            );
        }
    }
    // Every hex's label must read back as its numbers, or no printed hex could be named.
    if let Err(e) = m.numbering.check(m.columns.v, m.rows.v) {
        errors.push(
            Diagnostic::error(
                m.numbering.span,
                format!("map `{}` cannot be numbered: {e}", m.id.v),
            )
            .with_expected(e.expected()),
        );
    }
}

/// Each row of a printed table has a cell under each column of its header; fewer only
/// where the table says it stops short (`incomplete`).
fn check_table(t: &Table, warnings: &mut Vec<Diagnostic>) {
    let header = t.columns.len();
    for (i, row) in t.rows.iter().enumerate() {
        let cells = row.v.len();
        if cells == header || (cells < header && t.incomplete.is_some()) {
            continue;
        }
        let mut found = Diagnostic::finding(
            FindingKind::RaggedTable,
            row.span,
            format!(
                "row {} of the table `{}` ({}) has {cells} cell{}, its header {header}",
                i + 1,
                t.title,
                t.section,
                if cells == 1 { "" } else { "s" }
            ),
        )
        .with_expected(if header == 0 {
            "the header's cells in the table's `columns`, as printed".to_string()
        } else {
            format!("a cell under each column: {}", t.columns.join(", "))
        });
        if cells < header {
            found = found.with_hint(
                "if the printed table stops short here, say what is missing in the table's `incomplete`",
            );
        }
        warnings.push(found);
    }
}

fn check_label(
    board: &Board,
    label: &Spanned<String>,
    errors: &mut Vec<Diagnostic>,
) -> Option<muster_hex::Cell> {
    match board.parse(&label.v) {
        Ok(c) => Some(c),
        Err(e) => {
            errors.push(Diagnostic::error(label.span, e.to_string()));
            None
        }
    }
}

fn check_map_contents(
    m: &MapFile,
    board: &Board,
    terrain: &Ids,
    sides: &Ids,
    errors: &mut Vec<Diagnostic>,
) {
    terrain.check(&m.terrain.default, errors);
    for t in m.terrain.hexes.iter().chain(&m.terrain.also) {
        terrain.check(&t.terrain, errors);
        for h in &t.hexes {
            check_label(board, h, errors);
        }
    }
    for f in &m.features {
        if let Some(s) = &f.side {
            sides.check(s, errors);
        }
        for h in &f.hexes {
            check_label(board, h, errors);
        }
        if let Some(w) = &f.width_in {
            if f.kind != FeatureKind::River {
                errors.push(
                    Diagnostic::error(w.span, "only a river's width can be set")
                        .with_expected("`width_in` on a feature of kind `river`"),
                );
            } else if !(w.v.is_finite() && (0.01..=0.5).contains(&w.v)) {
                errors.push(
                    Diagnostic::error(w.span, format!("a river {} inches wide", w.v))
                        .with_expected("`width_in` between 0.01 and 0.5"),
                );
            }
        }
        for hs in &f.hexsides {
            check_label(board, &hs.hex, errors);
            if Direction::from_name(&hs.side.v, board.grid().orientation).is_none() {
                let names: Vec<&str> = Direction::ALL
                    .iter()
                    .map(|d| d.name(board.grid().orientation))
                    .collect();
                errors.push(
                    Diagnostic::error(
                        hs.side.span,
                        format!(
                            "`{}` is not a hexside direction of this grid",
                            hs.side.v
                        ),
                    )
                    .with_expected(format!("one of {}", names.join(", "))),
                );
            }
        }
    }
}

fn flatten(
    f: &FormationDef,
    parent: Option<&str>,
    side: Option<&str>,
    nationality: Option<&str>,
    out: &mut Vec<Formation>,
    ids: &mut Ids,
    errors: &mut Vec<Diagnostic>,
) {
    ids.declare(&f.id, errors);
    let side = f.side.as_ref().map(|s| s.v.as_str()).or(side);
    let nationality = f.nationality.as_ref().map(|s| s.v.as_str()).or(nationality);
    out.push(Formation {
        id: f.id.v.clone(),
        printed: f.printed.clone(),
        also_printed: f.also_printed.clone(),
        section: f.section.clone(),
        side: side.unwrap_or_default().to_string(),
        nationality: nationality.map(String::from),
        size: f.size.as_ref().map(|s| s.v.clone()),
        hq: f.hq.clone(),
        independent: f.independent,
        parent: parent.map(String::from),
        note: f.note.clone(),
        assumed: BTreeMap::new(),
    });
    for sub in &f.subordinates {
        flatten(sub, Some(&f.id.v), side, nationality, out, ids, errors);
    }
}

fn check_formation_refs(
    fs: &[FormationDef],
    sides: &Ids,
    nations: &Ids,
    sizes: &Ids,
    errors: &mut Vec<Diagnostic>,
) {
    for f in fs {
        if let Some(s) = &f.side {
            sides.check(s, errors);
        }
        if let Some(n) = &f.nationality {
            nations.check(n, errors);
        }
        if let Some(s) = &f.size {
            sizes.check(s, errors);
        }
        check_formation_refs(&f.subordinates, sides, nations, sizes, errors);
    }
}

fn parse_units_field(field: &UnitsField, marks: &Marks) -> ParsedUnits {
    let printed: Vec<Spanned<String>> = match field {
        UnitsField::Printed(s) => vec![s.clone()],
        UnitsField::List(l) => l.clone(),
    };
    let mut items = Vec::new();
    let mut origin = Vec::new();
    for (k, p) in printed.iter().enumerate() {
        for it in notation::parse_units(&p.v, marks) {
            items.push(it);
            origin.push(k);
        }
    }
    ParsedUnits { printed, items, origin }
}

fn parse_scenario(
    s: &ScenarioFile,
    board: Option<&Board>,
    marks: &Marks,
    sides: &Ids,
    errors: &mut Vec<Diagnostic>,
) -> ParsedScenario {
    let is_label = |w: &str| {
        board.is_some_and(|b| {
            b.parse(w).is_ok()
                || matches!(b.parse(w), Err(muster_hex::LabelError::OffMap { .. }))
                || looks_like_label(b, w)
        })
    };
    for side in [&s.first_player, &s.first_to_deploy].into_iter().flatten() {
        sides.check(side, errors);
    }
    let mut placements = Vec::new();
    for block in &s.setup {
        sides.check(&block.side, errors);
        for p in &block.placements {
            let (location_text, location) = match &p.location {
                None => (None, None),
                Some(LocationField::Printed(t)) => {
                    (Some(t.clone()), Some(notation::parse_location(&t.v, &is_label)))
                }
                Some(LocationField::Structured(st)) => {
                    for h in &st.hexes {
                        match board {
                            Some(b) => {
                                check_label(b, h, errors);
                            }
                            None => errors.push(Diagnostic::error(
                                h.span,
                                format!(
                                    "hex `{}` cannot be placed: the game has no map grid",
                                    h.v
                                ),
                            )),
                        }
                    }
                    let refs = st
                        .hexes
                        .iter()
                        .map(|h| notation::HexRef {
                            label: h.v.clone(),
                            range: 0..h.v.len(),
                        })
                        .collect::<Vec<_>>();
                    let labels: Vec<&str> =
                        st.hexes.iter().map(|h| h.v.as_str()).collect();
                    let expr = if st.within == 0 && refs.len() == 1 {
                        LocationExpr::Hex { hex: refs[0].clone() }
                    } else {
                        LocationExpr::Within { distance: st.within, of: refs }
                    };
                    // Reports name a structured location by its hexes, at the first one.
                    let text = if st.within == 0 && labels.len() == 1 {
                        labels[0].to_string()
                    } else {
                        format!("within {} of {}", st.within, labels.join(", "))
                    };
                    let span = st.hexes.first().map_or(Span::detached(), |h| h.span);
                    (Some(Spanned::new(text, span)), Some(expr))
                }
            };
            let mut units = p.units.as_ref().map_or(
                ParsedUnits { printed: vec![], items: vec![], origin: vec![] },
                |u| parse_units_field(u, marks),
            );
            if let (Some(expr), Some(text)) = (&location, &location_text) {
                crate::setup_table::start_state(expr, text, &mut units, marks, errors);
                crate::setup_table::one_each(expr, &mut units);
            }
            placements.push(ParsedPlacement {
                kind: PlacementKind::Setup,
                side: block.side.v.clone(),
                section: block.section.clone(),
                heading: block.heading.as_ref().map(|h| h.v.clone()),
                turn: None,
                area: None,
                group: None,
                location_text,
                location,
                units,
                strength_values: Vec::new(),
            });
        }
        if let Some(table) = &block.table {
            placements.extend(crate::setup_table::placements(
                block, table, marks, &is_label, errors,
            ));
        }
    }
    for r in &s.reinforcements {
        sides.check(&r.side, errors);
        placements.push(ParsedPlacement {
            kind: PlacementKind::Reinforcement,
            side: r.side.v.clone(),
            section: r.section.clone(),
            heading: None,
            turn: Some(r.turn.v.clone()),
            area: r.area.clone(),
            group: None,
            location_text: None,
            location: None,
            strength_values: Vec::new(),
            units: parse_units_field(&r.units, marks),
        });
    }
    for gr in &s.groups {
        sides.check(&gr.side, errors);
        placements.push(ParsedPlacement {
            kind: PlacementKind::Group(gr.kind),
            side: gr.side.v.clone(),
            section: gr.section.clone(),
            heading: None,
            turn: None,
            area: None,
            group: Some(gr.name.clone()),
            location_text: None,
            location: None,
            strength_values: Vec::new(),
            units: parse_units_field(&gr.units, marks),
        });
    }
    ParsedScenario { id: s.id.v.clone(), placements, starting_values: BTreeMap::new() }
}

/// A word that has a sheet's printed form but wrong digits (`134` for a four-digit
/// scheme) still counts as an attempted label, so the location is read as a hex and the
/// bad label is reported rather than the whole line being left unparsed.
fn looks_like_label(board: &Board, w: &str) -> bool {
    board.sheets().iter().any(|s| {
        let n = &s.numbering;
        // `N5507` where the maps are lettered `W` and `E`: a label of a map there is not,
        // which is a bad hex, not text.
        if n.prefix.len() == 1
            && n.prefix.chars().all(|c| c.is_ascii_uppercase())
            && w.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && w.is_char_boundary(1)
            && n.parse_numbers(&format!("{}{}", n.prefix, &w[1..])).is_ok()
        {
            return true;
        }
        let Some(rest) = w.strip_prefix(n.prefix.as_str()) else { return false };
        if n.column.letters || n.row.letters {
            // `F13`, `13F`: the form is the numbering's own (it may lie off the map).
            return n.parse_numbers(w).is_ok();
        }
        if n.separator.is_empty() {
            rest.len() >= 3 && rest.len() <= 6 && rest.bytes().all(|b| b.is_ascii_digit())
        } else {
            rest.split_once(n.separator.as_str()).is_some_and(|(a, b)| {
                !a.is_empty()
                    && !b.is_empty()
                    && (a.bytes().chain(b.bytes())).all(|c| c.is_ascii_digit())
            })
        }
    })
}

/// Refuses a side named as another is: a module tells its sides apart by name, so two
/// sides of one name would be one side there.
fn check_side_names(sides: &[crate::source::SideDef], errors: &mut Vec<Diagnostic>) {
    let mut named: BTreeMap<&str, &Spanned<String>> = BTreeMap::new();
    for s in sides {
        match named.get(s.name.as_str()) {
            Some(first) => errors.push(
                Diagnostic::error(
                    s.id.span,
                    format!(
                        "side `{}` is named `{}`, as side `{}` is",
                        s.id.v, s.name, first.v
                    ),
                )
                .with_expected(
                    "a name no other side has: a module tells its sides apart by name",
                )
                .with_hint(format!(
                    "write each side's name as printed (side `{}` is at line {})",
                    first.v, first.span.line
                )),
            ),
            None => {
                named.insert(&s.name, &s.id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_version_of_one_or_two_numbers_is_suggested_as_three() {
        assert_eq!(super::three_numbers("2.0").as_deref(), Some("2.0.0"));
        assert_eq!(super::three_numbers("3").as_deref(), Some("3.0.0"));
        assert_eq!(super::three_numbers("01.2").as_deref(), Some("1.2.0"));
        assert_eq!(super::three_numbers("v2"), None);
        assert_eq!(super::three_numbers("1.2.3.4"), None);
        assert_eq!(super::three_numbers("  "), None);
    }
}
