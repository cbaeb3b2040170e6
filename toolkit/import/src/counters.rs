//! Counters from palette pieces: each side's image, the name a player sees, the values its
//! properties state, its formation and side; what is guessed carries its reason.

use muster_vassal::vassal::encoder::decode;
use muster_vassal::vassal::piece::Piece;

use crate::carried::Report;
use muster_vassal::vassal::piece::Trait;

use crate::palette::{Slot, basic_image, layer_images};

/// The traits a counter is read from; muster writes its own for everything else.
const READ: [&str; 4] = ["piece", "emb2", "mark", "basicName"];

/// The markers muster's own modules carry and the import reads for what they say.
const KNOWN_MARKERS: [&str; 10] = [
    "UnitId",
    "Formation",
    "Side",
    "SideName",
    "Nationality",
    "Type",
    "TypeName",
    "Category",
    "Size",
    "Steps",
];

/// A unit type a piece's properties state: id, name and category.
pub type UnitType = (String, String, String);

/// Values of one side: value id and value, in the piece's order.
pub type Values = Vec<(String, String)>;

/// A counter read from a palette piece.
#[derive(Debug, Clone, Default)]
pub struct Counter {
    /// The printed name.
    pub printed: String,
    /// The gpid of its palette slot.
    pub gpid: String,
    /// Its `UnitId`, for modules muster built.
    pub unit_id: Option<String>,
    /// Formation id.
    pub formation: String,
    /// Formation's printed name.
    pub formation_printed: String,
    /// Side id.
    pub side: String,
    /// Side name.
    pub side_name: String,
    /// Nationality id, when a property states it.
    pub nationality: Option<String>,
    /// Unit type id, name and category, when properties state them.
    pub unit_type: Option<UnitType>,
    /// Unit size id, when a property states it.
    pub size: Option<String>,
    /// The images of its front and back, files under the module's `images/`.
    pub images: (Option<String>, Option<String>),
    /// Whether the front is the BasicPiece's image (then any active level of the Layer
    /// shows the back) rather than the Layer's first level.
    pub front_from_basic: bool,
    /// Front values (value id, value).
    pub front: Vec<(String, String)>,
    /// Back values.
    pub back: Vec<(String, String)>,
    /// Steps, when a property states them.
    pub steps: Option<String>,
    /// Fields of the counter that are guessed, with the reason.
    pub assumed: Vec<(String, String)>,
    /// What is guessed of its formation (its folder standing for it, its side), with why.
    pub formation_assumed: Vec<String>,
    /// Why it has no values, when it has none.
    pub note: Option<String>,
    /// How many palette pieces of its formation print the same name.
    pub count: u32,
}

/// A lowercase id from a name: letters and digits, other runs as one hyphen.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "unnamed".into() } else { out }
}

/// The name an image of the module gets in the game folder: letters, digits, `.`, `-`
/// and `_` only (`Shortcuts v4.jpg` is `shortcuts-v4.jpg`).
pub fn file_name(image: &str) -> String {
    let base = image.rsplit(['/', '\\']).next().unwrap_or(image);
    match base.rsplit_once('.') {
        Some((stem, ext)) => format!("{}.{}", slug(stem), ext.to_ascii_lowercase()),
        None => slug(base),
    }
}

/// The piece's name as a player sees it: a BasicName trait's, else the BasicPiece's.
fn stated_name(piece: &Piece) -> Option<String> {
    piece
        .traits
        .iter()
        .find(|t| t.id() == "basicName")
        .and_then(|t| t.fields().into_iter().next())
        .or_else(|| piece.name())
        .filter(|n| !n.trim().is_empty())
}

/// Which of `traits` is the Layer that turns the counter over: one named `Step` (modules
/// muster built), else the first with two or more images, else the first Layer; never
/// one whose level follows a property (an overlay such as a marker, not a side).
pub fn sides_layer(traits: &[&Trait]) -> Option<usize> {
    let follows = |t: &Trait| t.fields().get(21).map(String::as_str) == Some("true");
    let layers: Vec<usize> = (0..traits.len())
        .filter(|k| traits[*k].id() == "emb2" && !follows(traits[*k]))
        .collect();
    layers
        .iter()
        .find(|k| traits[**k].fields().get(18).map(String::as_str) == Some("Step"))
        .or_else(|| layers.iter().find(|k| layer_images(traits[**k]).len() >= 2))
        .or_else(|| layers.first())
        .copied()
}

/// Whether a piece in a save shows its back: the level of its sides Layer.
pub fn shows_back(piece: &Piece, front_from_basic: bool) -> bool {
    let traits: Vec<&Trait> = piece.traits.iter().collect();
    let Some(k) = sides_layer(&traits) else { return false };
    let level: i64 = traits[k]
        .state
        .split(';')
        .next()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(1);
    if front_from_basic { level > 0 } else { level == 2 }
}

/// The front and back images: the BasicPiece's and the levels of the Layer that turns
/// the counter over. `front_from_basic` says which the front is.
fn images(slot: &Slot, report: &mut Report) -> (Option<String>, Option<String>, bool) {
    let basic = slot.traits.last().and_then(|p| basic_image(&p.item));
    let traits: Vec<&Trait> = slot.traits.iter().map(|p| &p.item).collect();
    let chosen = sides_layer(&traits);
    let layer = chosen.map(|k| &slot.traits[k]);
    for (k, other) in slot.traits.iter().enumerate() {
        if other.item.id() != "emb2" || chosen == Some(k) {
            continue;
        }
        report.add(
            &other.origin,
            format!(
                "trait emb2 (Layer {})",
                other.item.fields().get(18).cloned().unwrap_or_default()
            ),
            "a Layer that does not turn the counter over: muster draws no such overlay",
        );
    }
    let levels: Vec<String> = layer.map(|p| layer_images(&p.item)).unwrap_or_default();
    let from_basic = basic.is_some();
    let (front, rest): (Option<String>, &[String]) = match basic {
        Some(b) => (Some(b), &levels[..]),
        None => (levels.first().cloned(), levels.get(1..).unwrap_or_default()),
    };
    if rest.len() > 1 {
        report.add(
            &slot.path,
            "Layer levels",
            format!(
                "{} more levels than a front and a back: only the first back is carried",
                rest.len() - 1
            ),
        );
    }
    (front, rest.first().cloned(), from_basic)
}

/// Values from properties: `Full_x`/`Reduced_x` markers (modules muster built), or any
/// other marker whose value is a number, read as a front value named after it.
fn values(piece: &Piece) -> (Values, Values) {
    let front = piece.markers_starting("Full_");
    let back = piece.markers_starting("Reduced_");
    if !front.is_empty() {
        let strip = |v: Vec<(String, String)>, p: &str| {
            v.into_iter().map(|(k, v)| (k[p.len()..].to_string(), v)).collect()
        };
        return (strip(front, "Full_"), strip(back, "Reduced_"));
    }
    let numeric = piece
        .traits
        .iter()
        .filter(|t| t.id() == "mark")
        .filter_map(|t| {
            let key = t.fields().into_iter().next()?;
            let value = decode(&t.state, ',').into_iter().next().unwrap_or_default();
            let known = KNOWN_MARKERS.contains(&key.as_str());
            (!known && !value.is_empty() && value.parse::<f64>().is_ok())
                .then(|| (slug(&key), value))
        })
        .fold(Values::new(), |mut all, (k, v)| {
            if !all.iter().any(|(o, _)| *o == k) {
                all.push((k, v));
            }
            all
        });
    (numeric, Vec::new())
}

/// The roster side a slot's folders name, if any.
fn side_of_folders<'a>(
    slot: &Slot,
    sides: &'a [(String, String)],
) -> Option<&'a (String, String)> {
    slot.folders
        .iter()
        .rev()
        .find_map(|f| sides.iter().find(|(_, name)| name.eq_ignore_ascii_case(f)))
}

/// Reads the counter of a palette slot. `sides` are the module's sides (id, name).
pub fn counter(slot: &Slot, sides: &[(String, String)], report: &mut Report) -> Counter {
    let piece = slot.piece();
    let mut c = Counter {
        count: 1,
        gpid: slot.gpid.clone(),
        unit_id: piece.marker("UnitId"),
        ..Counter::default()
    };
    match stated_name(&piece) {
        Some(n) => c.printed = n,
        None => {
            c.printed = if slot.entry.is_empty() {
                format!("Piece {}", slot.gpid)
            } else {
                slot.entry.clone()
            };
            c.assumed.push((
                "printed".into(),
                "the piece has no name; the palette slot's name stands for it".into(),
            ));
        }
    }
    let (front, back, from_basic) = images(slot, report);
    c.images = (front, back);
    c.front_from_basic = from_basic;
    let (front, back) = values(&piece);
    c.front = front;
    c.back = back;
    c.steps = piece.marker("Steps").filter(|s| !s.is_empty());
    let id =
        |key: &str| piece.marker(key).filter(|s| !s.trim().is_empty()).map(|s| slug(&s));
    c.nationality = id("Nationality");
    c.size = id("Size");
    c.unit_type = id("Type").map(|t| {
        let name = piece.marker("TypeName").unwrap_or_else(|| t.clone());
        let category = piece
            .marker("Category")
            .filter(|c| {
                ["combat", "hq", "supply", "leader", "marker"].contains(&c.as_str())
            })
            .unwrap_or_else(|| "combat".into());
        (t, name, category)
    });
    let folder = slot.folders.last().cloned().unwrap_or_else(|| "Pieces".into());
    c.formation_printed = folder.clone();
    match id("Formation") {
        Some(f) => c.formation = f,
        None => {
            c.formation = slug(&folder);
            c.formation_assumed.push(format!(
                "no property names the formation; the palette folder {folder:?} stands for it"
            ));
        }
    }
    match (
        piece.marker("Side").filter(|s| !s.trim().is_empty()),
        side_of_folders(slot, sides),
    ) {
        (Some(s), _) => {
            c.side_name = piece.marker("SideName").unwrap_or_else(|| s.clone());
            c.side = slug(&s);
        }
        (None, Some((id, name))) => {
            c.side = id.clone();
            c.side_name = name.clone();
        }
        (None, None) => {
            let (id, name) = sides
                .first()
                .cloned()
                .unwrap_or_else(|| ("side-a".into(), "Side A".into()));
            c.formation_assumed.push(format!(
                "neither a property nor a palette folder names the side; {name} is a guess"
            ));
            c.side = id;
            c.side_name = name;
        }
    }
    if c.front.is_empty() {
        c.note = Some("the module's piece states no values in its properties".into());
    }
    for p in &slot.traits {
        let id = p.item.id();
        if !READ.contains(&id) {
            report.add(&p.origin, format!("trait {id}"), "no muster equivalent is read from it; muster writes its own traits for each counter");
        }
    }
    c
}

/// The counters of every slot: the pieces of one side and folder that print one name and
/// show the same images are one counter counted as many; a formation name both sides use
/// is one formation per side (`{side}-{formation}`).
pub fn all(
    slots: &[Slot],
    sides: &[(String, String)],
    report: &mut Report,
) -> Vec<Counter> {
    let mut out: Vec<Counter> = Vec::new();
    for slot in slots {
        let c = counter(slot, sides, report);
        let same = |o: &&mut Counter| {
            o.formation == c.formation && o.side == c.side && o.printed == c.printed
        };
        match out.iter_mut().find(same) {
            Some(o) if o.images == c.images => o.count += 1,
            Some(_) => report.add(
                &slot.path,
                "PieceSlot",
                format!(
                    "prints the name {:?} as another piece of its folder does, with other images; muster tells counters apart by name, so it is left out",
                    c.printed
                ),
            ),
            None => out.push(c),
        }
    }
    let mut sides_of: Vec<(String, String)> = Vec::new();
    for c in &mut out {
        match sides_of.iter().find(|(f, _)| *f == c.formation) {
            Some((_, side)) if *side != c.side => {
                c.formation = format!("{}-{}", c.side, c.formation);
            }
            Some(_) => {}
            None => sides_of.push((c.formation.clone(), c.side.clone())),
        }
    }
    out
}
