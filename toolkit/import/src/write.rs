//! The game's source files as text: `game.yaml`, `oob.yaml`, `counters.yaml`,
//! `maps/<id>.yaml` and `scenarios/<id>.yaml`, each with its schema modeline, every guessed
//! field marked `assumed:` with its reason.

use std::fmt::Write as _;

use crate::counters::{Counter, UnitType, file_name};
use crate::maps::{Axis, DPI, HexMap};
use crate::setups::Scenario;

/// The section every imported entry cites: the module, not a rulebook.
pub const SECTION: &str = "VASSAL module";

/// A YAML scalar: a JSON string is a YAML double-quoted scalar.
pub fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// `assumed:` as a flow mapping of field to reason, or nothing.
fn assumed(fields: &[(String, String)]) -> String {
    if fields.is_empty() {
        return String::new();
    }
    let inner: Vec<String> =
        fields.iter().map(|(k, r)| format!("{k}: {}", q(r))).collect();
    format!(", assumed: {{{}}}", inner.join(", "))
}

fn title_case(id: &str) -> String {
    let mut out = String::new();
    for (k, w) in id.split('-').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let mut c = w.chars();
        if let Some(f) = c.next() {
            out.extend(f.to_uppercase());
            out.push_str(c.as_str());
        }
    }
    out
}

/// What `game.yaml` needs beyond the counters: the module's name, version and sides.
pub struct GameText<'a> {
    /// Game id.
    pub id: &'a str,
    /// The module's name.
    pub title: &'a str,
    /// The module's version.
    pub version: &'a str,
    /// The module file's name.
    pub file: &'a str,
    /// Sides (id, name).
    pub sides: &'a [(String, String)],
    /// The hex map, if any.
    pub map: Option<&'a HexMap>,
    /// Charts (title, file under `charts/`).
    pub charts: &'a [(String, String)],
}

fn unique<T: PartialEq + Clone>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// The nationality id of a counter: its own, or one per side.
pub fn nationality(c: &Counter) -> String {
    c.nationality.clone().unwrap_or_else(|| format!("{}-forces", c.side))
}

/// The unit type id of a counter.
pub fn unit_type(c: &Counter) -> String {
    c.unit_type.as_ref().map_or_else(|| "unit".to_string(), |t| t.0.clone())
}

/// A version muster accepts (`major.minor.patch`) from the module's: its leading numbers,
/// padded with zeros (`1.2 release` is `1.2.0`), or `1.0.0`.
fn module_version(v: &str) -> String {
    let lead: String =
        v.trim().chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    let mut parts: Vec<&str> =
        lead.split('.').filter(|p| !p.is_empty()).take(3).collect();
    if parts.is_empty() {
        return "1.0.0".into();
    }
    while parts.len() < 3 {
        parts.push("0");
    }
    parts.join(".")
}

/// `game.yaml`.
pub fn game(g: &GameText, counters: &[Counter]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# yaml-language-server: $schema=../../schemas/game.schema.json");
    let _ = writeln!(
        s,
        "# Written by muster import from {}: what the module states is as stated; every",
        g.file
    );
    let _ = writeln!(
        s,
        "# field the module does not state is marked `assumed:` with the reason."
    );
    let _ = writeln!(s, "id: {}", g.id);
    let _ = writeln!(s, "title: {}", q(g.title));
    let _ = writeln!(
        s,
        "rulebook: {}",
        q(&format!("the VASSAL module {} (no rulebook transcribed)", g.file))
    );
    let _ = writeln!(
        s,
        "notes:\n  - {}",
        q(&format!("Imported from the VASSAL module {} by muster import.", g.file))
    );
    s.push_str("sides:\n");
    for (id, name) in g.sides {
        let _ = writeln!(s, "  - {{id: {id}, name: {}}}", q(name));
    }
    s.push_str("nationalities:\n");
    for (n, side, stated) in unique(
        counters
            .iter()
            .map(|c| (nationality(c), c.side.clone(), c.nationality.is_some())),
    ) {
        let why = if stated {
            "the module states no colour"
        } else {
            "the module states no nationality; one per side"
        };
        let field = if stated { "rgb" } else { "id" };
        let _ = writeln!(
            s,
            "  - {{id: {n}, name: {}, side: {side}, rgb: \"#808080\", assumed: {{{field}: {}}}}}",
            q(&title_case(&n)),
            q(why)
        );
    }
    s.push_str("unit_sizes:\n");
    for size in unique(counters.iter().filter_map(|c| c.size.clone())) {
        let _ = writeln!(
            s,
            "  - {{id: {size}, name: {}, symbol: \"\"}}",
            q(&title_case(&size))
        );
    }
    s.push_str("  - {id: formation, name: Formation, symbol: \"\", assumed: \"the module states no size for the folders of its palette\"}\n");
    s.push_str("unit_types:\n");
    let mut types: Vec<(String, Option<&UnitType>)> = Vec::new();
    for c in counters {
        if !types.iter().any(|(id, _)| *id == unit_type(c)) {
            types.push((unit_type(c), c.unit_type.as_ref()));
        }
    }
    for (id, stated) in types {
        let (name, category) = stated
            .map_or(("Unit".to_string(), "combat".to_string()), |t| {
                (t.1.clone(), t.2.clone())
            });
        let symbol = if muster_model::symbols::KNOWN.contains(&id.as_str()) {
            id.as_str()
        } else {
            "none"
        };
        let why = if symbol == "none" {
            ", assumed: {symbol: \"the module's art shows the type; muster draws no symbol over it\"}"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "  - {{id: {id}, name: {}, symbol: {symbol}, category: {category}{why}}}",
            q(&name)
        );
    }
    let values = unique(
        counters
            .iter()
            .flat_map(|c| c.front.iter().chain(&c.back))
            .map(|(k, _)| k.clone()),
    );
    if !values.is_empty() {
        s.push_str("values:\n");
        for v in &values {
            let _ = writeln!(s, "  - {{id: {v}, name: {}}}", q(&title_case(v)));
        }
    }
    s.push_str("terrain:\n  - {id: clear, name: Clear, rgb: \"#efe6c8\", assumed: \"the module states no terrain\"}\n");
    s.push_str("notation:\n  reduced_marks: [R]\n");
    if let Some(m) = g.map {
        let orientation = if m.pointy { "pointy-top" } else { "flat-top" };
        let stagger = if m.stagger_even { "even" } else { "odd" };
        let _ = writeln!(
            s,
            "board:\n  grid: {{orientation: {orientation}, stagger: {stagger}}}\n  sheets:\n    - {{map: {}}}",
            m.id
        );
    }
    s.push_str("module:\n");
    let version = module_version(g.version);
    if version != g.version {
        let _ = writeln!(s, "  # the module calls its version {}", q(g.version));
    }
    let _ = writeln!(s, "  version: {}", q(&version));
    if !g.charts.is_empty() {
        s.push_str("  charts:\n");
        for (name, file) in g.charts {
            let _ = writeln!(s, "    - {{name: {}, image: {}}}", q(name), q(file));
        }
    }
    s
}

/// `oob.yaml`: one formation per palette folder (or `Formation` property).
pub fn oob(counters: &[Counter]) -> String {
    let mut s = String::from(
        "# yaml-language-server: $schema=../../schemas/oob.schema.json\nformations:\n",
    );
    for (id, printed, side, nat) in unique(counters.iter().map(|c| {
        (c.formation.clone(), c.formation_printed.clone(), c.side.clone(), nationality(c))
    })) {
        let mut reasons = unique(
            counters
                .iter()
                .filter(|c| c.formation == id)
                .flat_map(|c| c.formation_assumed.iter().cloned()),
        );
        reasons.push("the module states no size for its palette folders".into());
        let why = if reasons.len() == 1 {
            "{size: \"the module states no size for its palette folders\"}".to_string()
        } else {
            q(&reasons.join("; "))
        };
        let _ = writeln!(
            s,
            "  - {{id: {id}, printed: {}, side: {side}, nationality: {nat}, size: formation, assumed: {why}}}",
            q(&printed)
        );
    }
    s
}

/// A value as YAML: a whole number as it is, anything else quoted.
fn number_or_text(x: &str) -> String {
    if !x.is_empty() && x.len() < 10 && x.chars().all(|c| c.is_ascii_digit()) {
        x.trim_start_matches('0')
            .chars()
            .next()
            .map_or_else(|| "0".to_string(), |_| x.trim_start_matches('0').to_string())
    } else {
        q(x)
    }
}

fn values_text(v: &[(String, String)]) -> String {
    let inner: Vec<String> =
        v.iter().map(|(k, x)| format!("{k}: {}", number_or_text(x))).collect();
    format!("{{{}}}", inner.join(", "))
}

/// One counter's line of `counters.yaml`.
fn counter_line(c: &Counter) -> String {
    let mut s = format!("{{printed: {}", q(&c.printed));
    if let Some(t) = &c.unit_type {
        let _ = write!(s, ", type: {}", t.0);
    } else {
        s.push_str(", type: unit");
    }
    if let Some(z) = &c.size {
        let _ = write!(s, ", size: {z}");
    }
    if c.nationality.is_none() {
        let _ = write!(s, ", nationality: {}", nationality(c));
    }
    if c.count > 1 {
        let _ = write!(s, ", count: {}", c.count);
    }
    let two = c.images.1.is_some();
    if !two {
        s.push_str(", single_sided: true");
    }
    if let Some(st) = &c.steps {
        let _ = write!(s, ", steps: {}", number_or_text(st));
    }
    if !c.front.is_empty() {
        let _ = write!(s, ", front: {}", values_text(&c.front));
    }
    if two && !c.back.is_empty() {
        let _ = write!(s, ", back: {}", values_text(&c.back));
    }
    let art: Vec<String> = [("front", &c.images.0), ("back", &c.images.1)]
        .into_iter()
        .filter_map(|(k, i)| {
            i.as_ref().map(|i| format!("{k}: {}", q(&format!("art/{}", file_name(i)))))
        })
        .collect();
    if !art.is_empty() {
        let _ = write!(s, ", art: {{{}}}", art.join(", "));
    }
    if let Some(n) = &c.note {
        let _ = write!(s, ", note: {}", q(n));
    }
    let mut fields = c.assumed.clone();
    if c.unit_type.is_none() {
        fields.push(("type".into(), "the module states no unit type".into()));
    }
    s.push_str(&assumed(&fields));
    s.push('}');
    s
}

/// `counters.yaml`: a group per formation, in palette order.
pub fn counters(counters: &[Counter]) -> String {
    let mut s = String::from(
        "# yaml-language-server: $schema=../../schemas/counters.schema.json\ngroups:\n",
    );
    for f in unique(counters.iter().map(|c| c.formation.clone())) {
        let _ = writeln!(s, "  - formation: {f}\n    counters:");
        for c in counters.iter().filter(|c| c.formation == f) {
            let _ = writeln!(s, "      - {}", counter_line(c));
        }
    }
    s
}

fn axis(a: &Axis, ascending: &str, descending: &str) -> String {
    let direction = if a.descending { descending } else { ascending };
    let letters = if a.letters { ", letters: true" } else { "" };
    format!(
        "{{first: {}, digits: {}, direction: {direction}{letters}}}",
        a.first, a.digits
    )
}

/// `maps/<id>.yaml`: the board's image as a painted map, the module's grid and numbering.
pub fn map(m: &HexMap) -> String {
    let mut s = String::from(
        "# yaml-language-server: $schema=../../../schemas/map.schema.json\n",
    );
    let _ = writeln!(
        s,
        "# The board {} of the module's map {}: its image, its grid and numbering.",
        q(&m.name),
        q(&m.map)
    );
    let _ = writeln!(s, "id: {}", m.id);
    let _ = writeln!(s, "name: {}", q(&m.name));
    let _ = writeln!(
        s,
        "size: {{width_in: {}, height_in: {}}}",
        f64::from(m.size.0) / DPI,
        f64::from(m.size.1) / DPI
    );
    let _ = writeln!(s, "hex_size_in: {}", m.hex_size_in);
    let _ = writeln!(s, "columns: {}\nrows: {}", m.columns, m.rows);
    s.push_str("numbering:\n");
    if !m.prefix.is_empty() {
        let _ = writeln!(s, "  prefix: {}", q(&m.prefix));
    }
    let _ =
        writeln!(s, "  column: {}", axis(&m.column, "left-to-right", "right-to-left"));
    let _ = writeln!(s, "  row: {}", axis(&m.row, "top-to-bottom", "bottom-to-top"));
    let _ = writeln!(s, "  separator: {}", q(&m.separator));
    let _ = writeln!(
        s,
        "  order: {}",
        if m.column_first { "column-row" } else { "row-column" }
    );
    s.push_str("hex_numbers: {every_hex: false}\nterrain:\n  default: clear\n");
    let _ = writeln!(s, "image:\n  file: {}", q(&format!("art/{}", file_name(&m.image))));
    if m.tolerance_px > 1.5 {
        s.push_str("  # the module's hexes are not regular: their lines lie this far from a regular grid's\n");
        let _ = writeln!(s, "  tolerance_px: {}", m.tolerance_px);
    }
    s.push_str("  hexes:\n");
    for (label, x, y) in &m.references {
        let _ = writeln!(s, "    - {{hex: {}, at: [{x}, {y}]}}", q(label));
    }
    s
}

/// `scenarios/<id>.yaml`: each setup piece at its hex, on its side.
pub fn scenario(sc: &Scenario) -> String {
    let mut s = String::from(
        "# yaml-language-server: $schema=../../../schemas/scenario.schema.json\n",
    );
    let _ =
        writeln!(s, "id: {}\ntitle: {}\nsection: {}", sc.id, q(&sc.title), q(SECTION));
    if sc.sides.is_empty() {
        s.push_str("setup: []\n");
    } else {
        s.push_str("setup:\n");
    }
    for (side, placements) in &sc.sides {
        let _ =
            writeln!(s, "  - side: {side}\n    section: {}\n    placements:", q(SECTION));
        for p in placements {
            let location =
                if p.back { format!("{} - R", p.location) } else { p.location.clone() };
            let units: Vec<String> = p.units.iter().map(|u| q(u)).collect();
            let _ = writeln!(
                s,
                "      - {{location: {}, units: [{}]}}",
                q(&location),
                units.join(", ")
            );
        }
    }
    s
}

/// `rules.yaml`: no stacking rule, and why.
pub fn rules() -> String {
    format!(
        "# yaml-language-server: $schema=../../schemas/rules.schema.json\nstacking_unknown: {}\n",
        q("a VASSAL module states no stacking rules; write the rulebook's here")
    )
}
