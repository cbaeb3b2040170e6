//! Printed unit references resolved to counters and formations of the manifest.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;

use muster_model::notation::{NameParts, UnitItem, parse_name};
use muster_model::{Game, ParsedPlacement, Span, Spanned};
use muster_rules::Category;
use serde::{Deserialize, Serialize};

use crate::words::{abbreviates, normalise};

/// A formation and every formation below it.
pub fn descendants(game: &Game, id: &str) -> Vec<String> {
    let mut out = vec![id.to_string()];
    let mut k = 0;
    while k < out.len() {
        let cur = out[k].clone();
        out.extend(
            game.formations
                .iter()
                .filter(|f| f.parent.as_deref() == Some(&cur))
                .map(|f| f.id.clone()),
        );
        k += 1;
    }
    out
}

/// What a printed item refers to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "kebab-case")]
pub enum Resolved {
    /// A counter (unit or marker), by id.
    Unit {
        /// The counter id.
        id: String,
        /// The printed name differs from the manifest's (the unit was found by formation
        /// and type); the manifest's name.
        #[serde(skip_serializing_if = "Option::is_none")]
        differs_from: Option<String>,
        /// The unit was listed under this formation, which is not its own.
        #[serde(skip_serializing_if = "Option::is_none")]
        listed_under: Option<String>,
        /// The counter belongs to this side, not to the side whose setup lists it.
        #[serde(skip_serializing_if = "Option::is_none")]
        other_side: Option<String>,
        /// The item names only a unit type (`Col.`): this is one counter of that type not
        /// yet used, which the text leaves unnamed; the type id.
        #[serde(skip_serializing_if = "Option::is_none")]
        by_type: Option<String>,
    },
    /// A formation, by id.
    Formation {
        /// The formation id.
        id: String,
        /// Printed alone, it stands for all its counters (`notation.whole_formations`),
        /// which follow it as its items.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        whole: bool,
    },
    /// Not a counter: replacement points, chits and other printed remarks.
    NotACounter,
    /// A parenthesised word after a unit that is no mark the game declares (`(r)` where
    /// the reduced mark is `R`); it is not read as a unit.
    UnknownMark {
        /// The word as printed, without its parentheses.
        mark: String,
    },
    /// Nothing in the manifest fits; the nearest counters with their similarity.
    Unknown {
        /// (counter id, printed name, similarity 0..1), best first.
        nearest: Vec<(String, String, f64)>,
    },
}

impl Resolved {
    /// The counter `u`, found under another printed name than its own.
    fn printed_otherwise(u: &muster_model::Unit) -> Resolved {
        Resolved::Unit {
            id: u.id.clone(),
            differs_from: Some(u.printed.v.clone()),
            listed_under: None,
            other_side: None,
            by_type: None,
        }
    }
}

/// One printed item and what it refers to.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Resolution {
    /// The item as printed.
    pub printed: String,
    /// Where it is in the YAML file.
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
    pub span: Span,
    /// How many counters it stands for (`4 x SU`).
    pub count: u32,
    /// Marked as starting reduced.
    pub reduced: bool,
    /// A printed strength (`4-1-7`).
    pub strength: Option<String>,
    /// The list label or type printed once after a list that applies to it (`Inf Bns`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The enclosing formation item, if any (its index in the list).
    pub parent: Option<usize>,
    /// The printed text fits no form of the unit notation (it resolves to nothing).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unparsed: bool,
    /// Printed after ` - `, joined to the item before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub joined: bool,
    /// A printed selector (`[one star]`) that no counter of the name answers to, as
    /// printed with its brackets and where: the counter was chosen without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmatched_selector: Option<(String, Span)>,
    /// Which printed string of the placement the item is in.
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
    pub cell: usize,
    /// The byte ranges of that string the item reads: its name, marks, strength,
    /// selector, count, list label and qualifier (its units are items of their own).
    #[serde(default, skip_serializing_if = "crate::public_json::public")]
    pub read: Vec<Range<usize>>,
    /// What it refers to.
    pub to: Resolved,
}

/// Where the items being resolved are printed, and for whom.
struct Printed<'a> {
    /// The printed string.
    origin: &'a Spanned<String>,
    /// Its index among the placement's strings.
    cell: usize,
    /// The side whose setup prints it.
    side: &'a str,
    /// A setup row (not a reinforcement, group or mention): every item must be a counter.
    setup: bool,
    /// The name of the item printed before this one in the same list, if any: `Supply` in
    /// `5 Corps HQ & Supply` shares its head.
    previous: Option<&'a str>,
    /// The name of the item printed after this one in the same list, if any: `11th` in
    /// `11th and 13th Jaeger Regts` shares its tail.
    next: Option<&'a str>,
}

/// A printed unit's name as the manifest is searched for it.
struct PrintedName<'g> {
    /// The item, its name without the words that are not part of its designation when
    /// they are left out.
    item: UnitItem,
    /// The printed name with its list label, unless the name states its own type.
    full: String,
    /// `full` read as designation, type and size.
    parts: NameParts,
    /// The types the item's printed type codes stand for.
    code_types: Vec<&'g str>,
    /// The item's name, normalised.
    exact: String,
    /// Its designation, normalised.
    designation: String,
    /// The formations under the one the item is listed under, if any.
    scope: Option<BTreeSet<String>>,
}

impl PrintedName<'_> {
    /// Whether a counter is in the formation the item is listed under, if any.
    fn in_scope(&self, u: &muster_model::Unit) -> bool {
        self.scope
            .as_ref()
            .is_none_or(|s| u.formation.as_ref().is_some_and(|f| s.contains(f)))
    }

    /// Whether a counter of type `t` may be the item: of the type its name states, else
    /// of one its type codes stand for, else of any.
    fn wants_type(&self, t: &Option<String>) -> bool {
        match (&self.parts.unit_type, t) {
            (Some(a), Some(b)) => a == b,
            _ if !self.code_types.is_empty() => {
                t.as_deref().is_some_and(|t| self.code_types.contains(&t))
            }
            _ => true,
        }
    }
}

/// Resolves printed references against one game's manifest.
pub struct Resolver<'g> {
    game: &'g Game,
    /// Per counter (units, then markers): normalised printed name without marks, normalised
    /// printed name, normalised designation.
    names: Vec<(String, String, String)>,
    /// Normalised printed name, with or without marks → the counters (indexes into
    /// `names`) that carry it.
    by_name: HashMap<String, Vec<usize>>,
    /// Normalised designation → the counters that carry it.
    by_designation: HashMap<String, Vec<usize>>,
    /// normalised name → formation ids (several armies may each have an `I Corps`)
    formations: BTreeMap<String, Vec<String>>,
    /// the same, from headings and declared names only (not from HQ counters)
    headings: BTreeMap<String, Vec<String>>,
    /// normalised abbreviation or type word → marker id
    generic: BTreeMap<String, String>,
}

/// Words that mark an item as no counter at all.
const NOT_COUNTERS: [&str; 4] = ["replacement", "command chit", " rp ", "withdraw"];

/// Words that mark a reinforcement or replacement as no particular counter (`one German
/// tank`, `1 x British infantry unit`); in a setup row they name no counter and are
/// reported.
const DESCRIBED_COUNTERS: [&str; 3] = [" one ", "infantry unit", " armored car "];

impl<'g> Resolver<'g> {
    /// The game it resolves against.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// Indexes a game's formations, HQ names and generic counters.
    pub fn new(game: &'g Game) -> Self {
        let mut formations: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut name = |key: String, id: &str| {
            let ids = formations.entry(key).or_default();
            if !ids.iter().any(|x| x == id) {
                ids.push(id.to_string());
            }
        };
        for f in &game.formations {
            name(normalise(&f.printed.v), &f.id);
            for a in &f.also_printed {
                name(normalise(&a.v), &f.id);
            }
            if let Some(hq) = &f.hq {
                let bare = muster_model::notation::parse_units(&hq.v, &game.marks);
                if let Some(item) = bare.first() {
                    name(normalise(&item.name), &f.id);
                }
            }
        }
        let headings = formations.clone();
        // A formation is also named by its HQ counter without "HQ".
        for u in &game.units {
            if u.category == Category::Hq
                && let Some(f) = &u.formation
            {
                let name = normalise(&u.name.designation);
                if !name.is_empty() {
                    formations.entry(name).or_insert_with(|| vec![f.clone()]);
                }
            }
        }
        let mut generic = BTreeMap::new();
        for a in &game.meta.abbreviations {
            let meaning = normalise(&a.meaning);
            let singular = meaning.trim_end_matches('s');
            if let Some(m) = game.markers.iter().chain(&game.units).find(|m| {
                let p = normalise(&m.printed.v);
                p == meaning || p == singular
            }) {
                // The abbreviation and its meaning, plural or singular (`SU`, `supply units`,
                // `supply unit`), name the counter.
                for key in [normalise(&a.abbr), meaning.clone(), singular.to_string()] {
                    generic.insert(key, m.id.clone());
                }
            }
        }
        let names = game
            .units
            .iter()
            .chain(&game.markers)
            .map(|u| {
                let printed =
                    muster_model::notation::parse_units(&u.printed.v, &game.marks);
                let bare =
                    printed.first().map_or(u.printed.v.as_str(), |i| i.name.as_str());
                (normalise(bare), normalise(&u.printed.v), normalise(&u.name.designation))
            })
            .collect::<Vec<(String, String, String)>>();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_designation: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, (bare, printed, designation)) in names.iter().enumerate() {
            by_name.entry(bare.clone()).or_default().push(i);
            if printed != bare {
                by_name.entry(printed.clone()).or_default().push(i);
            }
            by_designation.entry(designation.clone()).or_default().push(i);
        }
        Resolver { game, names, by_name, by_designation, formations, headings, generic }
    }

    /// The formation a printed name or heading refers to: an exact name first, then the
    /// one formation whose printed heading the name abbreviates word by word
    /// (`Trieste Mtr Div` for `Trieste Motorized Inf Division`).
    pub fn formation(&self, printed: &str) -> Option<&str> {
        self.lookup(&self.formations, printed, None, None)
    }

    /// Like [`Resolver::formation`], among the formations of one side, and within
    /// `scope` (a formation and its subordinates) where one of the name is there: a
    /// Prussian `I Corps` is never the Anglo-Allied one.
    pub fn formation_on(
        &self,
        printed: &str,
        side: &str,
        scope: Option<&str>,
    ) -> Option<&str> {
        self.lookup(&self.formations, printed, Some(side), scope)
    }

    /// Like [`Resolver::formation`], but from the order of battle's headings and declared
    /// names only, so that a misprinted HQ counter cannot vouch for itself.
    pub fn formation_by_heading(&self, printed: &str) -> Option<&str> {
        self.lookup(&self.headings, printed, None, None)
    }

    fn lookup<'a>(
        &self,
        names: &'a BTreeMap<String, Vec<String>>,
        printed: &str,
        side: Option<&str>,
        scope: Option<&str>,
    ) -> Option<&'a str> {
        let on_side = |id: &&'a String| {
            side.is_none_or(|s| self.game.formation(id).is_some_and(|f| f.side == s))
        };
        let n = normalise(printed);
        if let Some(ids) = names.get(&n).or_else(|| names.get(n.trim_end_matches('s'))) {
            let ids: Vec<&String> = ids.iter().filter(on_side).collect();
            if !ids.is_empty() {
                return Some(self.within(&ids, scope));
            }
        }
        let words: Vec<&str> = n.split(' ').collect();
        let mut found: Option<&str> = None;
        for (name, ids) in names {
            let theirs: Vec<&str> = name.split(' ').collect();
            if abbreviates_name(&words, &theirs) {
                for id in ids.iter().filter(on_side) {
                    match found {
                        Some(f) if f != id => return None,
                        _ => found = Some(id),
                    }
                }
            }
        }
        found
    }

    /// The first of `ids` within `scope`, else the first.
    fn within<'a>(&self, ids: &[&'a String], scope: Option<&str>) -> &'a str {
        let inside = scope
            .map(|f| self.scope(f))
            .and_then(|set| ids.iter().find(|id| set.contains(id.as_str())).copied());
        inside.unwrap_or(ids[0])
    }

    /// The formation and its subordinates.
    fn scope(&self, formation: &str) -> BTreeSet<String> {
        descendants(self.game, formation).into_iter().collect()
    }

    /// Resolves the items of one placement, depth first; `used` counts counters already
    /// placed by earlier placements so that two printed `6/2 (I)` find both counters.
    pub fn resolve_placement(
        &self,
        placement: &ParsedPlacement,
        used: &mut BTreeMap<String, u32>,
    ) -> Vec<Resolution> {
        let heading = placement
            .heading
            .as_deref()
            .and_then(|h| self.formation_on(h, &placement.side, None))
            .map(String::from);
        let mut out = Vec::new();
        // Replacement points are not counters.
        if placement.kind
            == muster_model::PlacementKind::Group(
                muster_model::source::GroupKind::Replacements,
            )
        {
            return out;
        }
        let items = self.with_parent_formations(placement);
        for (k, (item, scope)) in items.iter().enumerate() {
            let Some(item) = item else { continue };
            let cell = placement.units.origin[k];
            let previous = k
                .checked_sub(1)
                .filter(|p| placement.units.origin[*p] == cell)
                .map(|p| placement.units.items[p].name.as_str());
            let next = Some(k + 1)
                .filter(|n| placement.units.origin.get(*n) == Some(&cell))
                .map(|n| placement.units.items[n].name.as_str());
            let at = Printed {
                origin: &placement.units.printed[cell],
                cell,
                side: &placement.side,
                setup: placement.kind == muster_model::PlacementKind::Setup,
                previous,
                next,
            };
            let scope = scope.clone().or_else(|| heading.clone());
            self.resolve_item(item, &at, scope, None, used, &mut out);
        }
        out
    }

    /// The placement's items, each with the formation it is to be looked for in: a
    /// formation printed after a comma that holds the item before it (`Compans’ Division, I
    /// Corps (9 units)`) is that item's formation, not a unit of its own; it is read with
    /// that item (which takes its count) and leaves `None` in its place.
    fn with_parent_formations(
        &self,
        placement: &ParsedPlacement,
    ) -> Vec<(Option<UnitItem>, Option<String>)> {
        let units = &placement.units;
        let mut out: Vec<(Option<UnitItem>, Option<String>)> =
            units.items.iter().map(|i| (Some(i.clone()), None)).collect();
        for k in 1..units.items.len() {
            let (a, b) = (&units.items[k - 1], &units.items[k]);
            let plain = |i: &UnitItem| {
                !i.unparsed && i.children.is_empty() && !i.joined && !i.after_ampersand
            };
            if units.origin[k] != units.origin[k - 1]
                || !plain(a)
                || !plain(b)
                || out[k - 1].0.is_none()
                || (a.count.is_some() && b.count.is_some())
            {
                continue;
            }
            let side = placement.side.as_str();
            let Some(parent) = self.formation_on(&b.name, side, None) else { continue };
            let Some(child) = self.formation_on(&a.name, side, Some(parent)) else {
                continue;
            };
            if child == parent || !self.holds(parent, child) {
                continue;
            }
            let mut merged = a.clone();
            merged.count = a.count.or(b.count);
            merged.count_after = a.count_after.or(b.count_after);
            merged.notes.extend(b.notes.iter().cloned());
            merged.read.push(b.range.clone());
            merged.read.extend(b.read.iter().cloned());
            out[k - 1] = (Some(merged), Some(parent.to_string()));
            out[k] = (None, None);
        }
        out
    }

    /// Does formation `parent` hold formation `child`, at any depth?
    fn holds(&self, parent: &str, child: &str) -> bool {
        let mut at = self.game.formation(child).and_then(|f| f.parent.clone());
        for _ in 0..32 {
            match at {
                Some(p) if p == parent => return true,
                Some(p) => at = self.game.formation(&p).and_then(|f| f.parent.clone()),
                None => return false,
            }
        }
        false
    }

    /// Resolves items parsed from `origin` for a side, outside any scenario (units the rules
    /// name in an example), depth first.
    pub fn resolve_items(
        &self,
        items: &[UnitItem],
        origin: &Spanned<String>,
        side: &str,
    ) -> Vec<Resolution> {
        let mut used = BTreeMap::new();
        let mut out = Vec::new();
        for (k, item) in items.iter().enumerate() {
            let previous = k.checked_sub(1).map(|p| items[p].name.as_str());
            let next = items.get(k + 1).map(|n| n.name.as_str());
            let at = Printed { origin, cell: 0, side, setup: false, previous, next };
            self.resolve_item(item, &at, None, None, &mut used, &mut out);
        }
        out
    }

    fn resolve_item(
        &self,
        item: &UnitItem,
        at: &Printed,
        scope: Option<String>,
        parent: Option<usize>,
        used: &mut BTreeMap<String, u32>,
        out: &mut Vec<Resolution>,
    ) {
        if let Some((unit, formation)) = self.qualified_by_formation(item, at.side)
            && matches!(
                self.unit(item, at, scope.as_deref(), &mut used.clone()),
                Resolved::Unknown { .. }
            )
        {
            let scope = Some(formation.to_string());
            return self.resolve_item(&unit, at, scope, parent, used, out);
        }
        let shared = self.with_shared_head(item, at);
        let item = shared.as_ref().unwrap_or(item);
        let side = at.side;
        let span = locate(at.origin, item.range.clone());
        let index = out.len();
        if self.whole_formation(item, at, scope.as_deref(), parent, out) {
            return;
        }
        let mut count = item.count.unwrap_or(1);
        let to = if item.unparsed {
            Resolved::Unknown { nearest: vec![] }
        } else if !item.children.is_empty() {
            match self.formation_on(&item.name, side, scope.as_deref()) {
                Some(f) => Resolved::Formation { id: f.to_string(), whole: false },
                None => self.unit(item, at, scope.as_deref(), used),
            }
        } else {
            match self.counted_in_words(item, at, scope.as_deref(), used) {
                Some((n, to)) => {
                    count = n;
                    to
                }
                None => match self.unit(item, at, scope.as_deref(), used) {
                    Resolved::Unknown { nearest } => {
                        match self.read_otherwise(item, at, scope.as_deref(), used) {
                            Some((n, to)) => {
                                count = n;
                                to
                            }
                            None => Resolved::Unknown { nearest },
                        }
                    }
                    to => to,
                },
            }
        };
        let unmatched_selector = match (&to, &item.selector) {
            (Resolved::Unit { id, .. }, Some((sel, range))) => {
                let chosen = self.game.unit(id);
                (!chosen.is_some_and(|u| self.selects(u, sel))).then(|| {
                    (
                        at.origin.v[range.clone()].to_string(),
                        locate(at.origin, range.clone()),
                    )
                })
            }
            _ => None,
        };
        let child_scope = match &to {
            Resolved::Formation { id, .. } => Some(id.clone()),
            Resolved::Unit { id, .. } => {
                self.game.unit(id).and_then(|u| u.formation.clone()).or(scope)
            }
            _ => scope,
        };
        let mut read = vec![item.range.clone()];
        read.extend(item.read.iter().cloned());
        out.push(Resolution {
            printed: item.name.clone(),
            span,
            count,
            reduced: item.reduced,
            strength: item.strength.clone(),
            label: item.label.clone(),
            parent,
            unparsed: item.unparsed,
            joined: item.joined,
            unmatched_selector,
            cell: at.cell,
            read,
            to,
        });
        for c in &item.children {
            let k = out.len();
            self.resolve_item(c, at, child_scope.clone(), Some(index), used, out);
            if self.undeclared_mark(item, c)
                && matches!(out.get(k).map(|r| &r.to), Some(Resolved::Unknown { .. }))
            {
                out[k].to = Resolved::UnknownMark { mark: c.name.clone() };
            }
        }
    }

    /// A setup item whose name begins with a count in words (`one XXIV`): the counter the
    /// rest names, and the count, when the rest names one.
    fn counted_in_words(
        &self,
        item: &UnitItem,
        at: &Printed,
        scope: Option<&str>,
        used: &mut BTreeMap<String, u32>,
    ) -> Option<(u32, Resolved)> {
        if !at.setup || item.count.is_some() {
            return None;
        }
        let (first, rest) = item.name.split_once(' ')?;
        let n = muster_model::notation::number_word(first)?;
        let bare =
            UnitItem { name: rest.trim().to_string(), count: Some(n), ..item.clone() };
        let to = self.unit(&bare, at, scope, used);
        matches!(to, Resolved::Unit { .. }).then_some((n, to))
    }

    /// A formation printed alone (`DH Division`, perhaps `(less B-AH)`), where the game's
    /// notation says such a formation stands for its counters (`whole_formations`): the
    /// formation, then each counter of it and of its subordinates, with all its copies,
    /// but those printed after `less`. False (nothing pushed) for any other item.
    fn whole_formation(
        &self,
        item: &UnitItem,
        at: &Printed,
        scope: Option<&str>,
        parent: Option<usize>,
        out: &mut Vec<Resolution>,
    ) -> bool {
        let counted_after =
            item.count_after == Some(muster_model::notation::CountAfter::Total);
        if self.game.meta.notation.whole_formations.is_none()
            || (item.count.is_some() && !counted_after)
        {
            return false;
        }
        let less: Vec<&UnitItem> = item
            .children
            .iter()
            .filter(|c| c.name.to_lowercase().starts_with("less "))
            .collect();
        if less.len() != item.children.len() {
            return false;
        }
        // A counter printed with the formation's name is that counter, unless the count
        // printed after it is more than the manifest has of it (`I Cavalry Corps (11
        // units, including artillery)` where 9 counters bear the name).
        let bare = UnitItem { children: Vec::new(), ..item.clone() };
        if let Resolved::Unit { id, .. } =
            self.unit(&bare, at, scope, &mut BTreeMap::new())
            && self.game.unit(&id).is_some_and(|u| {
                normalise(&u.printed.v) == normalise(&item.name)
                    && item.count.is_none_or(|n| n <= u.count)
            })
        {
            return false;
        }
        let Some(formation) =
            self.formation_on(&item.name, at.side, scope).map(String::from)
        else {
            return false;
        };
        let mut unused = BTreeMap::new();
        let left_out: Vec<String> = less
            .iter()
            .filter_map(|c| {
                let bare =
                    UnitItem { name: c.name[5..].trim().to_string(), ..(*c).clone() };
                match self.unit(&bare, at, Some(&formation), &mut unused) {
                    Resolved::Unit { id, .. } => Some(id),
                    _ => None,
                }
            })
            .collect();
        if left_out.len() != less.len() {
            return false;
        }
        let index = out.len();
        let span = locate(at.origin, item.range.clone());
        let mut read = vec![item.range.clone()];
        read.extend(item.read.iter().cloned());
        read.extend(less.iter().map(|c| c.range.clone()));
        let base = Resolution {
            printed: item.name.clone(),
            span,
            // The count printed after it (`V Corps (8 units)`), checked against its counters;
            // 0 when none is printed.
            count: item.count.unwrap_or(0),
            reduced: item.reduced,
            strength: None,
            label: item.label.clone(),
            parent,
            unparsed: false,
            joined: item.joined,
            unmatched_selector: None,
            cell: at.cell,
            read,
            to: Resolved::Formation { id: formation.clone(), whole: true },
        };
        out.push(base.clone());
        let within = descendants(self.game, &formation);
        for u in self.game.units.iter().filter(|u| {
            u.formation.as_ref().is_some_and(|f| within.contains(f))
                && !left_out.contains(&u.id)
        }) {
            out.push(Resolution {
                printed: u.printed.v.clone(),
                count: u.count,
                parent: Some(index),
                read: Vec::new(),
                joined: false,
                to: Resolved::Unit {
                    id: u.id.clone(),
                    differs_from: None,
                    listed_under: None,
                    other_side: None,
                    by_type: None,
                },
                ..base.clone()
            });
        }
        true
    }

    /// A unit printed with the formation it belongs to after a slash (`27th
    /// Division/VIII Corps`), when the whole is no counter's name and the part after the
    /// slash is a formation of the side: the unit, to be looked for in that formation
    /// (only where the whole names no counter otherwise either).
    fn qualified_by_formation(
        &self,
        item: &UnitItem,
        side: &str,
    ) -> Option<(UnitItem, &str)> {
        if item.unparsed || !item.children.is_empty() || item.whole {
            return None;
        }
        let (unit, formation) = item.name.rsplit_once('/')?;
        let (unit, formation) = (unit.trim(), formation.trim());
        if unit.is_empty()
            || formation.contains(char::is_numeric) && !formation.contains(' ')
        {
            return None;
        }
        let whole = normalise(&item.name);
        if self.game.units.iter().any(|u| normalise(&u.printed.v) == whole) {
            return None;
        }
        let f = self.formation_on(formation, side, None)?;
        Some((UnitItem { name: unit.to_string(), ..item.clone() }, f))
    }

    /// A single word printed after ` & ` or ` and ` that is no counter's whole name, read with the
    /// head of the unit before it (`Supply` in `5 Corps HQ & Supply` is `5 Corps Supply`,
    /// and is reported under that name when no counter has it); none for any other item.
    fn with_shared_head(&self, item: &UnitItem, at: &Printed) -> Option<UnitItem> {
        if !item.after_ampersand || item.name.contains(' ') || !item.children.is_empty() {
            return None;
        }
        let (head, _) = at.previous?.rsplit_once(' ')?;
        let word = normalise(&item.name);
        if self.game.units.iter().any(|u| normalise(&u.printed.v) == word) {
            return None;
        }
        Some(UnitItem { name: format!("{head} {}", item.name), ..item.clone() })
    }

    /// A leaf item that names no counter as printed, read as the forms of a list allow:
    /// a count before the name (`2 LMG 34`) or a plural (`3 Longbows`, `Rifles`). The
    /// count and the counter, when one of them names one.
    fn read_otherwise(
        &self,
        item: &UnitItem,
        at: &Printed,
        scope: Option<&str>,
        used: &mut BTreeMap<String, u32>,
    ) -> Option<(u32, Resolved)> {
        let mut tries: Vec<(u32, String)> = Vec::new();
        let count = item.count.unwrap_or(1);
        if item.count.is_none()
            && let Some((n, rest)) = item.name.split_once(' ')
            && let Ok(n) = n.parse::<u32>()
        {
            tries.push((n, rest.trim().to_string()));
            tries.extend(singular(rest.trim()).map(|r| (n, r)));
        }
        tries.extend(singular(&item.name).map(|r| (count, r)));
        // `11th` in `11th and 13th Jaeger Regts`: the next unit's words after its first.
        if let Some((_, tail)) = at.next.and_then(|n| n.split_once(' '))
            && !item.name.contains(' ')
        {
            let whole = format!("{} {tail}", item.name);
            tries.extend(singular(&whole).map(|r| (count, r)));
            tries.push((count, whole));
        }
        let found = tries.into_iter().find_map(|(n, name)| {
            let bare = UnitItem { name, count: Some(n), ..item.clone() };
            let to = self.unit(&bare, at, scope, used);
            matches!(to, Resolved::Unit { .. }).then_some((n, to))
        });
        // `Two units`, `one unit`, `2 fyrd units` in a reinforcement describe an arrival
        // without naming its counters.
        found.or_else(|| {
            let words: Vec<&str> = item.name.split_whitespace().collect();
            let n = words.first().and_then(|w| {
                muster_model::notation::number_word(w).or_else(|| w.parse().ok())
            })?;
            let last = words.last()?.to_lowercase();
            (!at.setup && words.len() <= 4 && (last == "unit" || last == "units"))
                .then_some((n, Resolved::NotACounter))
        })
    }

    /// Does a counter answer to a printed selector (`one star`): is every word of it in
    /// the counter's note, id, formation's name or printed values?
    fn selects(&self, u: &muster_model::Unit, selector: &str) -> bool {
        let formation = u.formation.as_deref().and_then(|f| self.game.formation(f));
        let mut about = vec![u.id.replace('-', " "), u.printed.v.clone()];
        about.extend(u.note.clone());
        about.extend(formation.map(|f| f.printed.v.clone()));
        about.extend(u.front.values().chain(u.back.values()).cloned());
        let about: BTreeSet<String> = about
            .iter()
            .flat_map(|t| normalise(t).split(' ').map(String::from).collect::<Vec<_>>())
            .collect();
        normalise(selector).split(' ').all(|w| about.contains(w))
    }

    fn unit(
        &self,
        item: &UnitItem,
        at: &Printed,
        scope: Option<&str>,
        used: &mut BTreeMap<String, u32>,
    ) -> Resolved {
        let (side, setup) = (at.side, at.setup);
        let first = self.unit_on_side(item, side, setup, scope, used);
        if !matches!(first, Resolved::Unknown { .. }) {
            return first;
        }
        // A counter of another side, printed under this side's heading.
        for other in self.game.meta.sides.iter().filter(|s| s.id.v != side) {
            if let Resolved::Unit {
                id, differs_from: None, listed_under, by_type, ..
            } = self.unit_on_side(item, &other.id.v, setup, scope, used)
            {
                return Resolved::Unit {
                    id,
                    differs_from: None,
                    listed_under,
                    other_side: Some(other.id.v.clone()),
                    by_type,
                };
            }
        }
        first
    }

    fn unit_on_side(
        &self,
        item: &UnitItem,
        side: &str,
        setup: bool,
        scope: Option<&str>,
        used: &mut BTreeMap<String, u32>,
    ) -> Resolved {
        let first = self.unit_as_printed(item, (side, setup), scope, used, false);
        if matches!(first, Resolved::Unknown { .. }) {
            let second = self.unit_as_printed(item, (side, setup), scope, used, true);
            if !matches!(second, Resolved::Unknown { .. }) {
                return second;
            }
        }
        first
    }

    /// Is `item`, the only item in the parentheses after `parent`, a mark the game does
    /// not declare rather than a unit (`(r)`, `(Rd)`): one short word of letters that
    /// names no counter?
    fn undeclared_mark(&self, parent: &UnitItem, item: &UnitItem) -> bool {
        parent.children.len() == 1
            && item.children.is_empty()
            && item.count.is_none()
            && item.label.is_none()
            && (1..=4).contains(&item.name.chars().count())
            && item.name.chars().all(|c| c.is_alphabetic())
    }

    fn unit_as_printed(
        &self,
        item: &UnitItem,
        (side, setup): (&str, bool),
        scope: Option<&str>,
        used: &mut BTreeMap<String, u32>,
        strip: bool,
    ) -> Resolved {
        let lname = format!(" {} ", item.name.to_lowercase());
        if NOT_COUNTERS.iter().any(|w| lname.contains(w))
            || (!setup && DESCRIBED_COUNTERS.iter().any(|w| lname.contains(w)))
            || item.name.is_empty()
        {
            return Resolved::NotACounter;
        }
        if let Some(id) = self.generic.get(&normalise(&item.name)) {
            return Resolved::Unit {
                id: id.clone(),
                differs_from: None,
                listed_under: None,
                other_side: None,
                by_type: None,
            };
        }
        let read = self.read_name(item, scope, strip);
        self.by_name_or_designation(&read, side, scope, used)
            .or_else(|| self.by_loose_name(&read, side, used))
            .or_else(|| self.only_hq_of_type(&read, used))
            .or_else(|| self.by_type_word(&read, side, used))
            .or_else(|| self.by_surname(&read.item, side, |u| read.in_scope(u), used))
            .unwrap_or_else(|| Resolved::Unknown {
                nearest: self.suggestions(&read.full, side),
            })
    }

    /// The name of `item`, listed under the formation `scope`, as the manifest is searched
    /// for it; with `strip`, without a leading type phrase ("Air unit 231") and a
    /// trailing nationality word ("29/5 Indian"), which are not part of the designation.
    fn read_name(
        &self,
        item: &UnitItem,
        scope: Option<&str>,
        strip: bool,
    ) -> PrintedName<'g> {
        let g = self.game;
        let mut bare = item.name.clone();
        for (w, _) in g.vocabulary.types.iter().filter(|_| strip) {
            if let Some(rest) =
                bare.strip_prefix(w.as_str()).and_then(|r| r.strip_prefix(' '))
                && !rest.is_empty()
            {
                bare = rest.to_string();
                break;
            }
        }
        if let Some((head, last)) = bare.rsplit_once(' ')
            && strip
            && g.meta.nationalities.iter().any(|n| n.name.eq_ignore_ascii_case(last))
        {
            bare = head.to_string();
        }
        let item = UnitItem { name: bare, ..item.clone() };
        // The printed name with its list label ("Inf Bns: I/19" → "I/19 Inf Bns"), unless
        // the name states its own type (`Inf Bns: 15 Shu HQ`): the errata checker compares
        // the label with the counter it finds.
        let own = parse_name(&item.name, &g.vocabulary);
        let (full, parts) = match &item.label {
            Some(l) if own.unit_type.is_none() => {
                let full = format!("{} {l}", item.name);
                let parts = parse_name(&full, &g.vocabulary);
                (full, parts)
            }
            _ => (item.name.clone(), own),
        };
        let code_types: Vec<&str> = item
            .type_codes
            .iter()
            .flat_map(|c| g.meta.notation.type_codes.iter().filter(move |t| &t.code == c))
            .flat_map(|t| t.types.iter().map(|x| x.v.as_str()))
            .collect();
        let exact = normalise(&item.name);
        let designation = normalise(&parts.designation);
        PrintedName {
            item,
            full,
            parts,
            code_types,
            exact,
            designation,
            scope: scope.map(|f| self.scope(f)),
        }
    }

    /// The counter of the side printed with the item's name, or with its designation and
    /// type, in the formation it is listed under when one there fits (else reported as
    /// listed under that formation): the one [`Resolver::pick`] picks, counted as used.
    fn by_name_or_designation(
        &self,
        read: &PrintedName,
        side: &str,
        scope: Option<&str>,
        used: &mut BTreeMap<String, u32>,
    ) -> Option<Resolved> {
        let g = self.game;
        // The counters printed `exact`, or of the same designation and type, in the
        // manifest's order (units, then markers).
        let counter =
            |i: usize| g.units.get(i).unwrap_or_else(|| &g.markers[i - g.units.len()]);
        let mut found: Vec<usize> =
            self.by_name.get(&read.exact).cloned().unwrap_or_default();
        if !read.designation.is_empty() {
            found.extend(
                self.by_designation
                    .get(&read.designation)
                    .into_iter()
                    .flatten()
                    .filter(|&&i| read.wants_type(&counter(i).unit_type)),
            );
        }
        found.sort_unstable();
        found.dedup();
        let candidates: Vec<&muster_model::Unit> = found
            .into_iter()
            .map(counter)
            .filter(|u| u.side == side || u.side.is_empty())
            .collect();
        let scoped: Vec<&muster_model::Unit> =
            candidates.iter().copied().filter(|u| read.in_scope(u)).collect();
        let id = self.pick(
            &read.item,
            if scoped.is_empty() { &candidates } else { &scoped },
            used,
        )?;
        let listed_under = if scoped.is_empty() { scope.map(String::from) } else { None };
        Some(Resolved::Unit {
            id,
            differs_from: None,
            listed_under,
            other_side: None,
            by_type: None,
        })
    }

    /// Of the counters a printed item may be, the one it is, counted as used: among those
    /// its selector picks (when any does), one of its printed strength, else one not yet
    /// used up, else the first.
    fn pick(
        &self,
        item: &UnitItem,
        cands: &[&muster_model::Unit],
        used: &mut BTreeMap<String, u32>,
    ) -> Option<String> {
        let g = self.game;
        // Only the counters a printed selector picks, when any does.
        let selected: Vec<&muster_model::Unit> = match &item.selector {
            Some((sel, _)) => {
                cands.iter().copied().filter(|u| self.selects(u, sel)).collect()
            }
            None => vec![],
        };
        let cands = if selected.is_empty() { cands } else { &selected[..] };
        // Prefer a strength match, then a counter not yet used up.
        let by_strength = item.strength.as_ref().and_then(|s| {
            cands.iter().find(|u| {
                !u.back.is_empty() && strength(g, &u.back) == *s
                    || !u.front.is_empty() && strength(g, &u.front) == *s
            })
        });
        let free =
            cands.iter().find(|u| used.get(&u.id).copied().unwrap_or(0) < u.count.max(1));
        let chosen = by_strength.or(free).or(cands.first())?;
        *used.entry(chosen.id.clone()).or_default() += item.count.unwrap_or(1);
        Some(chosen.id.clone())
    }

    /// Looser, and reported as a difference: the same designation with another type
    /// (`Inf Bns: 3 Yeo` for `3 Yeo Arm Bde`), or the start of the manifest's name
    /// (`4 Fld` for `4 Fld Arty Bn`), when the item is listed under a formation and
    /// exactly one counter of the side there fits.
    fn by_loose_name(
        &self,
        read: &PrintedName,
        side: &str,
        used: &mut BTreeMap<String, u32>,
    ) -> Option<Resolved> {
        read.scope.as_ref()?;
        let (exact, designation) = (read.exact.as_str(), read.designation.as_str());
        let prefix = format!("{exact} ");
        let loose: Vec<&muster_model::Unit> = self
            .game
            .units
            .iter()
            .zip(&self.names)
            .filter(|(u, _)| u.side == side && read.in_scope(u))
            .filter(|(_, (_, n, d))| {
                (!designation.is_empty() && *d == designation)
                    || (!exact.is_empty() && (*n == exact || n.starts_with(&prefix)))
            })
            .map(|(u, _)| u)
            .collect();
        let [u] = loose[..] else { return None };
        *used.entry(u.id.clone()).or_default() += read.item.count.unwrap_or(1);
        Some(Resolved::printed_otherwise(u))
    }

    /// In a formation, a unit of the stated type that is the only one of its kind there
    /// (an HQ printed "1 SA Div HQ" for the manifest's "1 SA Inf Div HQ").
    fn only_hq_of_type(
        &self,
        read: &PrintedName,
        used: &mut BTreeMap<String, u32>,
    ) -> Option<Resolved> {
        let (Some(_), Some(t)) = (&read.scope, &read.parts.unit_type) else {
            return None;
        };
        let same: Vec<&muster_model::Unit> = self
            .game
            .units
            .iter()
            .filter(|u| {
                read.in_scope(u)
                    && u.unit_type.as_ref() == Some(t)
                    && u.category == Category::Hq
            })
            .collect();
        let [u] = same[..] else { return None };
        *used.entry(u.id.clone()).or_default() += 1;
        Some(Resolved::printed_otherwise(u))
    }

    /// A unit printed by its type word alone (`Col.`): the next counter of that type not
    /// yet used.
    fn by_type_word(
        &self,
        read: &PrintedName,
        side: &str,
        used: &mut BTreeMap<String, u32>,
    ) -> Option<Resolved> {
        let g = self.game;
        let (_, t) =
            g.vocabulary.types.iter().find(|(w, _)| normalise(w) == read.exact)?;
        let u = g.units.iter().find(|u| {
            u.side == side
                && u.unit_type.as_ref() == Some(t)
                && read.in_scope(u)
                && used.get(&u.id).copied().unwrap_or(0) < u.count.max(1)
        })?;
        *used.entry(u.id.clone()).or_default() += read.item.count.unwrap_or(1);
        Some(Resolved::Unit {
            id: u.id.clone(),
            differs_from: None,
            listed_under: None,
            other_side: None,
            by_type: Some(t.clone()),
        })
    }

    /// A leader printed by the last word of his counter's name (`Lee` for `RE Lee`), when
    /// exactly one leader of the side in scope has it: found, and reported as a name that
    /// differs.
    fn by_surname(
        &self,
        item: &UnitItem,
        side: &str,
        in_scope: impl Fn(&muster_model::Unit) -> bool,
        used: &mut BTreeMap<String, u32>,
    ) -> Option<Resolved> {
        let word = normalise(&item.name);
        if word.is_empty() || word.contains(' ') {
            return None;
        }
        let leaders: Vec<&muster_model::Unit> = self
            .game
            .units
            .iter()
            .filter(|u| u.side == side && u.category == Category::Leader && in_scope(u))
            .filter(|u| {
                normalise(&u.printed.v)
                    .rsplit_once(' ')
                    .is_some_and(|(_, last)| last == word)
            })
            .collect();
        let [u] = leaders[..] else { return None };
        *used.entry(u.id.clone()).or_default() += item.count.unwrap_or(1);
        Some(Resolved::printed_otherwise(u))
    }

    /// The counters worth offering for a printed name that names none: those of the
    /// side at least [`least_similarity`] like it, units before markers (a marker only
    /// when no unit is near), best first, at most three.
    pub fn suggestions(&self, printed: &str, side: &str) -> Vec<(String, String, f64)> {
        let least = least_similarity(printed);
        let near: Vec<(String, String, f64)> = self
            .scored(printed, side)
            .into_iter()
            .filter(|(_, _, s)| *s >= least)
            .collect();
        let units: Vec<(String, String, f64)> = near
            .iter()
            .filter(|(id, _, _)| self.game.unit(id).is_some())
            .cloned()
            .collect();
        let mut out = if units.is_empty() { near } else { units };
        out.truncate(3);
        out
    }

    /// The manifest counters most like a printed name, however unlike, at most three.
    pub fn nearest(&self, printed: &str, side: &str) -> Vec<(String, String, f64)> {
        let mut scored = self.scored(printed, side);
        scored.truncate(3);
        scored
    }

    /// Every counter of the side (and every marker of no side) with its similarity to a
    /// printed name, best first.
    fn scored(&self, printed: &str, side: &str) -> Vec<(String, String, f64)> {
        let p = normalise(printed);
        let mut scored: Vec<(String, String, f64)> = self
            .game
            .units
            .iter()
            .chain(&self.game.markers)
            .zip(&self.names)
            .filter(|(u, _)| u.side == side || u.side.is_empty())
            .map(|(u, (_, n, d))| {
                let s = strsim::normalized_levenshtein(&p, n)
                    .max(strsim::jaro_winkler(&p, n) * 0.9);
                let sd = if d.is_empty() {
                    0.0
                } else {
                    strsim::normalized_levenshtein(&p, d)
                };
                (u.id.clone(), u.printed.v.clone(), (s.max(sd) * 100.0).round() / 100.0)
            })
            .collect();
        scored.sort_by(|a, b| b.2.total_cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
        scored
    }
}

/// The least similarity (0 to 1) at which a counter is offered for a printed name:
/// The singular of a printed plural (`Longbows` → `Longbow`, `Batteries` → `Battery`),
/// trying the shortest change first; none for a word that is not plural.
fn singular(name: &str) -> impl Iterator<Item = String> + '_ {
    let forms = [("ies", "y"), ("s", ""), ("es", "")];
    forms.into_iter().filter_map(move |(end, with)| {
        let stem = name.strip_suffix(end)?;
        (!stem.is_empty() && !stem.ends_with(' ')).then(|| format!("{stem}{with}"))
    })
}

/// 0.6, and 0.75 for a name of four characters or fewer, where one letter weighs more.
pub fn least_similarity(printed: &str) -> f64 {
    if normalise(printed).chars().count() <= 4 { 0.75 } else { 0.6 }
}

pub use crate::start_values::strength;

/// Does a printed name abbreviate a formation heading? The first word (the number or
/// name) must be equal and the last (the size) must abbreviate the heading's last word;
/// words between are matched in order, initials may stand for several words
/// (`sa` for `south african`), and unmatched words on either side may only be the unit
/// type `inf`/`infantry`.
fn abbreviates_name(ours: &[&str], theirs: &[&str]) -> bool {
    if ours.len() < 2 || theirs.len() < 2 || ours[0] != theirs[0] {
        return false;
    }
    if !abbreviates(ours[ours.len() - 1], theirs[theirs.len() - 1]) {
        return false;
    }
    let skippable = |w: &str| matches!(w, "inf" | "infantry");
    let (mut i, mut j) = (1, 1);
    let (oe, te) = (ours.len() - 1, theirs.len() - 1);
    while i < oe || j < te {
        if i < oe && j < te {
            let a = ours[i];
            // Initials for several words: "sa" for "south african".
            let n = a.chars().count();
            if n >= 2
                && j + n <= te
                && a.chars().zip(&theirs[j..j + n]).all(|(c, w)| w.starts_with(c))
            {
                i += 1;
                j += n;
                continue;
            }
            if abbreviates(a, theirs[j]) {
                i += 1;
                j += 1;
                continue;
            }
        }
        if i < oe && skippable(ours[i]) {
            i += 1;
        } else if j < te && skippable(theirs[j]) {
            j += 1;
        } else {
            return false;
        }
    }
    true
}

/// The span of a byte range inside a printed YAML string, when the scalar is written plain
/// or quoted on one line; the whole value's span otherwise.
pub fn locate(origin: &Spanned<String>, range: Range<usize>) -> Span {
    origin.span_of(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formation_names_abbreviate_their_headings() {
        let f = |a: &str, b: &str| {
            let (a, b) = (normalise(a), normalise(b));
            abbreviates_name(
                &a.split(' ').collect::<Vec<_>>(),
                &b.split(' ').collect::<Vec<_>>(),
            )
        };
        assert!(f("Trieste Mtr Div", "Trieste Motorized Inf Division"));
        assert!(f("90 Le Mtr Div", "90th Le Motorized Inf Division"));
        assert!(f("21 Ind Inf Bde", "21st Ind Bde"));
        assert!(f("1 SA Inf Div", "1st South African Division"));
        assert!(f("Sabratha Divs", "Sabratha Inf Division"));
        assert!(!f("5 Ind Inf Bde", "5th Indian Inf Division"));
        assert!(!f("4 Ind Div", "5th Indian Inf Division"));
        assert!(!f("2 FF Inf Bde", "1st Free French Bde"));
    }
}
