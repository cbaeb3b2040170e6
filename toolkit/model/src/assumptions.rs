//! A game's assumptions (values its rulebook does not print, marked `assumed:` where they
//! are written): checked at load so that each marker names values its entry gives, carried
//! onto the units and formations they concern, and listed for reports.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::diag::Diagnostic;
use crate::game::{Formation, Game, Unit};
use crate::source::{
    Assumed, CounterEntry, CountersFile, FormationDef, GameFile, MapFile, OobFile,
    ScenarioFile,
};

/// One value the rulebook does not print, with where it is written and why it was chosen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assumption {
    /// The file it is written in, relative to the game folder (`game.yaml`).
    pub file: String,
    /// Line of the reason.
    pub line: u32,
    /// Column of the reason.
    pub column: u32,
    /// The entry that carries it (`unit_types[assault-gun]`).
    pub entry: String,
    /// The field, when only some fields of the entry are assumed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The assumed value: the field's, or the whole entry's.
    pub value: Value,
    /// Why it was chosen.
    pub reason: String,
}

impl Game {
    /// Every value of the game's documents that the rulebook does not print, with where it
    /// is written and why it was chosen, in file order.
    pub fn assumptions(&self) -> Vec<Assumption> {
        let maps: Vec<&MapFile> = self.maps.iter().collect();
        let scenarios: Vec<&ScenarioFile> = self.scenarios.iter().collect();
        let mut out = list(&self.meta, &self.oob, &self.counters, &maps, &scenarios);
        out.extend(self.rules.stacking.iter().filter_map(|r| {
            let why = r.assumed.as_ref()?;
            Some(Assumption {
                file: "rules.yaml".into(),
                line: why.span.line,
                column: why.span.column,
                entry: format!("stacking[{}]", r.section),
                field: None,
                value: serde_json::to_value(r).unwrap_or_default(),
                reason: why.v.clone(),
            })
        }));
        out
    }
}

/// An entry of the source documents that carries an `assumed:` marker.
struct Marked<'a> {
    file: String,
    entry: String,
    node: Value,
    assumed: &'a Assumed,
}

fn mark<'a, T: Serialize>(
    out: &mut Vec<Marked<'a>>,
    file: &str,
    entry: String,
    node: &T,
    assumed: &'a Option<Assumed>,
) {
    if let Some(assumed) = assumed {
        let node = serde_json::to_value(node).unwrap_or(Value::Null);
        out.push(Marked { file: file.to_string(), entry, node, assumed });
    }
}

/// Every marked entry of a game's documents, in file order.
fn marked<'a>(
    game: &'a GameFile,
    oob: &'a OobFile,
    counters: &'a CountersFile,
    maps: &[&'a MapFile],
    scenarios: &[&'a ScenarioFile],
) -> Vec<Marked<'a>> {
    let mut out = Vec::new();
    let g = "game.yaml";
    for s in &game.unit_sizes {
        mark(&mut out, g, format!("unit_sizes[{}]", s.id.v), s, &s.assumed);
    }
    for t in &game.unit_types {
        mark(&mut out, g, format!("unit_types[{}]", t.id.v), t, &t.assumed);
    }
    for n in &game.nationalities {
        mark(&mut out, g, format!("nationalities[{}]", n.id.v), n, &n.assumed);
    }
    for v in &game.values {
        mark(&mut out, g, format!("values[{}]", v.id.v), v, &v.assumed);
    }
    for t in &game.terrain {
        mark(&mut out, g, format!("terrain[{}]", t.id.v), t, &t.assumed);
    }
    if let Some(b) = &game.board {
        mark(&mut out, g, "board".into(), b, &b.assumed);
    }
    mark(
        &mut out,
        g,
        "counter_style".into(),
        &game.counter_style,
        &game.counter_style.assumed,
    );
    if let Some(t) = &game.play.turns {
        mark(&mut out, g, "play.turns".into(), t, &t.assumed);
    }
    if let Some(d) = &game.dice {
        mark(&mut out, g, "dice".into(), d, &d.assumed);
    }
    fn formations<'a>(out: &mut Vec<Marked<'a>>, fs: &'a [FormationDef]) {
        for f in fs {
            mark(out, "oob.yaml", format!("formations[{}]", f.id.v), f, &f.assumed);
            formations(out, &f.subordinates);
        }
    }
    formations(&mut out, &oob.formations);
    let c = "counters.yaml";
    for group in &counters.groups {
        let of = group
            .formation
            .as_ref()
            .or(group.side.as_ref())
            .or(group.nationality.as_ref())
            .map_or(String::new(), |r| r.v.clone());
        mark(
            &mut out,
            c,
            format!("group {of} ({})", group.section.clone().unwrap_or_default()),
            group,
            &group.assumed,
        );
        for e in &group.counters {
            if let CounterEntry::Full(d) = &e.v {
                mark(
                    &mut out,
                    c,
                    format!("counter {}", d.printed.v),
                    d.as_ref(),
                    &d.assumed,
                );
            }
        }
    }
    for m in &counters.markers {
        mark(&mut out, c, format!("marker {}", m.printed.v), m, &m.assumed);
    }
    for m in maps {
        let file = format!("maps/{}.yaml", m.id.v);
        mark(&mut out, &file, format!("map {}", m.id.v), *m, &m.assumed);
        for (k, f) in m.features.iter().enumerate() {
            let name = f.name.clone().unwrap_or_default();
            mark(&mut out, &file, format!("features[{k}] {name}"), f, &f.assumed);
        }
    }
    for s in scenarios {
        let file = format!("scenarios/{}.yaml", s.id.v);
        for b in &s.setup {
            for p in &b.placements {
                let at = match &p.location {
                    Some(crate::source::LocationField::Printed(t)) => t.v.clone(),
                    _ => String::new(),
                };
                mark(&mut out, &file, format!("setup {} {at}", b.section), p, &p.assumed);
            }
        }
        for r in &s.reinforcements {
            let entry = format!("reinforcement {} turn {}", r.section, r.turn.v);
            mark(&mut out, &file, entry, r, &r.assumed);
        }
        for gr in &s.groups {
            mark(&mut out, &file, format!("group {}", gr.name), gr, &gr.assumed);
        }
        for c in &s.stated_counts {
            mark(&mut out, &file, format!("stated_counts[{}]", c.what), c, &c.assumed);
        }
    }
    out
}

/// The value at a dotted path of a node (`grid.stagger`), when it is given.
fn lookup<'v>(node: &'v Value, path: &str) -> Option<&'v Value> {
    let mut v = node;
    for part in path.split('.') {
        v = v.get(part)?;
    }
    given_value(v).then_some(v)
}

/// Is a value given (not null, false or empty)?
fn given_value(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => false,
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// The fields an entry gives, with the fields of nested mappings as dotted paths, for
/// suggestions.
fn given(node: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(o) = node.as_object() else { return out };
    for (k, v) in o.iter().filter(|(k, v)| *k != "assumed" && given_value(v)) {
        out.push(k.clone());
        if let Some(inner) = v.as_object() {
            out.extend(
                inner
                    .iter()
                    .filter(|(_, x)| given_value(x))
                    .map(|(j, _)| format!("{k}.{j}")),
            );
        }
    }
    out
}

/// Checks every marker: each field it names must be one its entry gives.
pub(crate) fn check(
    game: &GameFile,
    oob: &OobFile,
    counters: &CountersFile,
    maps: &[&MapFile],
    scenarios: &[&ScenarioFile],
    errors: &mut Vec<Diagnostic>,
) {
    for m in marked(game, oob, counters, maps, scenarios) {
        for (field, why) in m.assumed.entries() {
            if why.v.trim().is_empty() {
                errors.push(
                    Diagnostic::error(
                        why.span,
                        format!("the assumption on {} gives no reason", m.entry),
                    )
                    .with_expected(
                        "why the value was chosen, since the rulebook does not print it",
                    ),
                );
            }
            let Some(field) = field else { continue };
            if field == "assumed" || lookup(&m.node, field).is_none() {
                let fields = given(&m.node);
                errors.push(
                    Diagnostic::error(
                        why.span,
                        format!(
                            "`assumed` names `{field}`, which {} does not give",
                            m.entry
                        ),
                    )
                    .with_expected(format!(
                        "a field the entry gives: {}",
                        fields.join(", ")
                    ))
                    .with_suggestion(crate::suggest(
                        field,
                        fields.iter().map(String::as_str),
                    )),
                );
            }
        }
    }
}

/// Every assumption of a game's documents, in file order.
fn list(
    game: &GameFile,
    oob: &OobFile,
    counters: &CountersFile,
    maps: &[&MapFile],
    scenarios: &[&ScenarioFile],
) -> Vec<Assumption> {
    let mut out = Vec::new();
    for m in marked(game, oob, counters, maps, scenarios) {
        for (field, why) in m.assumed.entries() {
            let value = match field {
                Some(f) => lookup(&m.node, f).cloned().unwrap_or(Value::Null),
                None => {
                    let mut v = m.node.clone();
                    if let Some(o) = v.as_object_mut() {
                        o.remove("assumed");
                    }
                    v
                }
            };
            out.push(Assumption {
                file: m.file.clone(),
                line: why.span.line,
                column: why.span.column,
                entry: m.entry.clone(),
                field: field.map(String::from),
                value,
                reason: why.v.clone(),
            });
        }
    }
    out
}

/// The reasons a marker gives for the listed fields of one entry: a field's own reason,
/// or the whole entry's for every field the entry gives.
fn reasons(
    assumed: &Option<Assumed>,
    fields: &[(&str, bool)],
    out: &mut BTreeMap<String, String>,
) {
    let Some(a) = assumed else { return };
    for (field, given) in fields {
        let why = match a {
            Assumed::Whole(why) if *given => Some(why),
            Assumed::Whole(_) => None,
            Assumed::Fields(m) => m.get(*field),
        };
        if let Some(why) = why {
            out.entry(field.to_string()).or_insert_with(|| why.v.clone());
        }
    }
}

/// Carries the markers of `oob.yaml` onto the formations (in the order the loader
/// flattened them): a subordinate that names no nationality of its own shares its
/// parent's, and with it the parent's reason.
pub(crate) fn onto_formations(oob: &OobFile, formations: &mut [Formation]) {
    fn walk(
        fs: &[FormationDef],
        inherited: Option<&String>,
        out: &mut Vec<BTreeMap<String, String>>,
    ) {
        for f in fs {
            let mut m = BTreeMap::new();
            reasons(
                &f.assumed,
                &[
                    ("nationality", f.nationality.is_some()),
                    ("size", f.size.is_some()),
                    ("side", f.side.is_some()),
                    ("hq", f.hq.is_some()),
                ],
                &mut m,
            );
            if f.nationality.is_none()
                && let Some(why) = inherited
            {
                m.insert("nationality".into(), why.clone());
            }
            let pass = m.get("nationality").cloned();
            out.push(m);
            walk(&f.subordinates, pass.as_ref(), out);
        }
    }
    let mut all = Vec::new();
    walk(&oob.formations, None, &mut all);
    for (f, m) in formations.iter_mut().zip(all) {
        f.assumed = m;
    }
}

/// Carries the markers of the markers of `counters.yaml` onto the marker counters, which
/// the loader built in manifest order.
pub(crate) fn onto_markers(counters: &CountersFile, markers: &mut [Unit]) {
    for (def, unit) in counters.markers.iter().zip(markers.iter_mut()) {
        let mut m = BTreeMap::new();
        reasons(
            &def.assumed,
            &[
                ("side", def.side.is_some()),
                ("count", def.count.is_some()),
                ("back", def.back.is_some()),
            ],
            &mut m,
        );
        unit.assumed = m;
    }
}

/// Carries the markers of `counters.yaml` (the counter's, its group's, its formation's, and
/// those of a unit type or size assumed as a whole) onto the units, which the loader built
/// in manifest order. `marked_nationality` tells whether a counter's printed name carries a
/// nationality mark, which comes before its group's and formation's.
pub(crate) fn onto_units(
    game: &GameFile,
    counters: &CountersFile,
    formations: &[Formation],
    marked_nationality: &dyn Fn(&str) -> bool,
    units: &mut [Unit],
) {
    let entries =
        counters.groups.iter().flat_map(|g| g.counters.iter().map(move |c| (g, c)));
    for ((group, entry), unit) in entries.zip(units.iter_mut()) {
        let mut m = BTreeMap::new();
        let def = match &entry.v {
            CounterEntry::Full(d) => Some(d.as_ref()),
            CounterEntry::Name(_) => None,
        };
        if let Some(d) = def {
            let mut fields: Vec<(String, bool)> = vec![
                ("type".into(), d.unit_type.is_some()),
                ("size".into(), d.size.is_some()),
                ("nationality".into(), d.nationality.is_some()),
                ("steps".into(), d.steps.is_some()),
                ("count".into(), d.count.is_some()),
                ("single_sided".into(), d.single_sided),
                ("mobility".into(), d.mobility.is_some()),
            ];
            fields.extend(d.front.keys().map(|k| (format!("front.{k}"), true)));
            fields.extend(d.back.keys().map(|k| (format!("back.{k}"), true)));
            let refs: Vec<(&str, bool)> =
                fields.iter().map(|(k, g)| (k.as_str(), *g)).collect();
            reasons(&d.assumed, &refs, &mut m);
        }
        let own_nationality = def.is_some_and(|d| d.nationality.is_some())
            || marked_nationality(entry.v.printed());
        let mut from_group = BTreeMap::new();
        reasons(
            &group.assumed,
            &[
                ("formation", group.formation.is_some()),
                ("side", group.side.is_some()),
                ("nationality", group.nationality.is_some() && !own_nationality),
            ],
            &mut from_group,
        );
        for (k, v) in from_group {
            if k != "nationality" || !own_nationality {
                m.entry(k).or_insert(v);
            }
        }
        if !own_nationality
            && group.nationality.is_none()
            && let Some(why) = unit
                .formation
                .as_ref()
                .and_then(|f| formations.iter().find(|x| &x.id == f))
                .and_then(|f| f.assumed.get("nationality"))
        {
            m.entry("nationality".into()).or_insert_with(|| why.clone());
        }
        let whole = |a: &Option<Assumed>| match a {
            Some(Assumed::Whole(why)) => Some(why.v.clone()),
            _ => None,
        };
        if let Some(why) = unit
            .unit_type
            .as_ref()
            .and_then(|t| game.unit_types.iter().find(|x| &x.id.v == t))
            .and_then(|t| whole(&t.assumed))
        {
            m.entry("type".into()).or_insert(why);
        }
        if let Some(why) = unit
            .size
            .as_ref()
            .and_then(|s| game.unit_sizes.iter().find(|x| &x.id.v == s))
            .and_then(|s| whole(&s.assumed))
        {
            m.entry("size".into()).or_insert(why);
        }
        unit.assumed = m;
    }
}
