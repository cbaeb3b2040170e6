//! The rules language: filters over units, limits, alternatives and stacking rules.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What kind of piece a unit is, for rules that exempt some kinds.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// A combat unit.
    Combat,
    /// A headquarters.
    Hq,
    /// A supply unit.
    Supply,
    /// A leader such as Rommel.
    Leader,
    /// A game marker.
    Marker,
}

impl Category {
    /// Every category.
    pub const ALL: [Category; 5] = [
        Category::Combat,
        Category::Hq,
        Category::Supply,
        Category::Leader,
        Category::Marker,
    ];

    /// Its name, as the rules files and the `Category` property of a piece write it.
    pub fn name(self) -> &'static str {
        match self {
            Category::Combat => "combat",
            Category::Hq => "hq",
            Category::Supply => "supply",
            Category::Leader => "leader",
            Category::Marker => "marker",
        }
    }

    /// The category of that name.
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// A set of units, described by what they are. Empty fields match everything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Filter<S> {
    /// Units of any of these categories. Default: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub category: Vec<Category>,
    /// Units of any of these unit types (ids from the game's `unit_types`). Default: any.
    #[serde(default, rename = "type", skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<S>,
    /// Units of any of these sizes (ids from the game's `unit_sizes`). Default: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub size: Vec<S>,
    /// Units with exactly this many steps. Default: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u8>,
    /// Units with this name, as the manifest prints it. Default: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub name: Vec<S>,
    /// Units that do not match this filter. Default: none excluded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not: Option<Box<Filter<S>>>,
}

impl<S> Default for Filter<S> {
    fn default() -> Self {
        Filter {
            category: vec![],
            types: vec![],
            size: vec![],
            steps: None,
            name: vec![],
            not: None,
        }
    }
}

/// Units that stack for free up to a number (Gazala 1942 5.1: "one headquarters may be
/// present"); the excess counts as units of another size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Free<S> {
    /// Which units are free.
    pub units: Filter<S>,
    /// How many of them are free.
    pub count: u32,
    /// The size the excess counts as. Default: the excess keeps its own size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excess_counts_as: Option<S>,
}

/// A bound on how many units of a kind a hex may hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Limit<S> {
    /// Which units are counted.
    pub count: Filter<S>,
    /// At most this many. Default: no upper bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    /// At least this many. Default: no lower bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// The counted units must all belong to one formation. Default: false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_formation: bool,
    /// `max` and `min` bound the counted units' stacking points (the rule's `points`),
    /// not their number. Default: false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub points: bool,
}

/// How many stacking points a unit is worth, for limits that count points
/// ([`Limit::points`]): the printed value `value` of its counter, or the first entry of
/// `by` that describes it, else `otherwise`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Points<S> {
    /// A unit's points are this value as its counter's front prints it (a value id of
    /// the game's `values`: gun points, strength points); a unit whose front prints no
    /// number for it is worth `otherwise`. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<S>,
    /// Points by kind of unit (a division 3, a brigade 2); the first entry that
    /// describes a unit gives its points. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by: Vec<PointsFor<S>>,
    /// The points of a unit neither `value` nor `by` gives points. Default: 0.
    #[serde(default)]
    pub otherwise: u32,
}

/// The stacking points of the units a filter describes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct PointsFor<S> {
    /// Which units.
    pub units: Filter<S>,
    /// Their points each.
    pub points: u32,
}

/// One way a stack can be legal: every limit holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Alternative<S> {
    /// All of these limits must hold.
    pub all_of: Vec<Limit<S>>,
    /// How the rulebook words this case, for messages. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub says: Option<String>,
}

/// A stacking rule, applied to each side's units in each hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct StackingRule<S> {
    /// The rule section (`4.3`, `5.1`).
    pub section: String,
    /// The rule's words, quoted from the rulebook. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Units that never count (markers, supply units, leaders). Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<Filter<S>>,
    /// Units that are free up to a number. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub free: Vec<Free<S>>,
    /// The stack is legal if any alternative holds.
    pub any_of: Vec<Alternative<S>>,
    /// What a unit is worth for the limits that count points. Default: none (no limit
    /// of the rule may count points).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Points<S>>,
    /// The rule holds only in hexes of these terrains (a hex's own terrain or one it
    /// shares, ids from the game's terrain list). Default: every hex.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only_in: Vec<S>,
    /// The rule does not hold in hexes of these terrains. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except_in: Vec<S>,
    /// The public text does not give this rule as stated here: why it is read so (a
    /// rule inferred from the printed deployment, a series rule not in the text).
    /// Default: none (the rule is as printed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<S>,
}

/// Whether units of opposing sides may share a hex.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum OpposingUnits {
    /// Opposing units never stack (Gazala Line 1942 8.3, Dance of War 6.3).
    Forbidden,
    /// The rules let opposing units share a hex (Conflict of Heroes 5.0); no check is made.
    Allowed,
    /// The rules do not say; no check is made. The default: only what a game states is
    /// enforced.
    #[default]
    Unstated,
}

/// A game's rules as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Ruleset<S> {
    /// Stacking rules; every one must hold.
    #[serde(default)]
    pub stacking: Vec<StackingRule<S>>,
    /// Whether opposing units may share a hex, as the rules state it. Default: unstated,
    /// and not checked anywhere.
    #[serde(default)]
    pub opposing_units: OpposingUnits,
    /// The rule section that forbids (or allows) opposing units to stack. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opposing_units_section: Option<String>,
    /// Units that may share a hex with enemy units where opposing units are forbidden
    /// (an HQ marker, a leader): they never make a hex hold opposing units. Markers never
    /// do. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opposing_units_except: Vec<Filter<S>>,
    /// The public text gives no stacking rule (it is in series rules not read, or not
    /// printed at all): why, so the gap is recorded rather than reported. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stacking_unknown: Option<S>,
    /// Terrain no unit may occupy (ids from the game's terrain list). Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prohibited_terrain: Vec<S>,
    /// The rule section that keeps units out of that terrain. Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prohibited_terrain_section: Option<String>,
    /// The ways a full-strength unit may be divided (Gazala 1942 10.6). Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strength_splits: Vec<StrengthSplit>,
}

/// A permitted division of a unit into parts, by printed strength.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrengthSplit {
    /// The full unit's strength (`6-1-7`).
    pub full: String,
    /// The parts it divides into (`4-1-7`, `2-0-7`).
    pub parts: Vec<String>,
    /// The rule section.
    pub section: String,
}

impl<S> Filter<S> {
    /// Converts the vocabulary references with `f`.
    pub fn map<T>(self, f: &mut impl FnMut(S) -> T) -> Filter<T> {
        Filter {
            category: self.category,
            types: self.types.into_iter().map(&mut *f).collect(),
            size: self.size.into_iter().map(&mut *f).collect(),
            steps: self.steps,
            name: self.name.into_iter().map(&mut *f).collect(),
            not: self.not.map(|n| Box::new(n.map(f))),
        }
    }

    /// Every vocabulary reference, with what it refers to (`type`, `size` or `name`).
    pub fn references(&self) -> Vec<(&'static str, &S)> {
        let mut out: Vec<(&'static str, &S)> = Vec::new();
        out.extend(self.types.iter().map(|s| ("type", s)));
        out.extend(self.size.iter().map(|s| ("size", s)));
        out.extend(self.name.iter().map(|s| ("name", s)));
        if let Some(n) = &self.not {
            out.extend(n.references());
        }
        out
    }
}

impl<S> Default for Ruleset<S> {
    fn default() -> Self {
        Ruleset {
            stacking: vec![],
            opposing_units: OpposingUnits::default(),
            opposing_units_section: None,
            opposing_units_except: vec![],
            stacking_unknown: None,
            prohibited_terrain: vec![],
            prohibited_terrain_section: None,
            strength_splits: vec![],
        }
    }
}

impl<S> Ruleset<S> {
    /// The values whose printed numbers stacking rules count as points.
    pub fn point_values(&self) -> impl Iterator<Item = &S> {
        self.stacking.iter().filter_map(|r| r.points.as_ref()?.value.as_ref())
    }

    /// Converts the vocabulary references with `f`.
    pub fn map<T>(self, mut f: impl FnMut(S) -> T) -> Ruleset<T> {
        let f = &mut f;
        Ruleset {
            stacking: self
                .stacking
                .into_iter()
                .map(|r| StackingRule {
                    section: r.section,
                    text: r.text,
                    ignore: r.ignore.into_iter().map(|x| x.map(f)).collect(),
                    free: r
                        .free
                        .into_iter()
                        .map(|x| Free {
                            units: x.units.map(f),
                            count: x.count,
                            excess_counts_as: x.excess_counts_as.map(&mut *f),
                        })
                        .collect(),
                    any_of: r
                        .any_of
                        .into_iter()
                        .map(|a| Alternative {
                            all_of: a
                                .all_of
                                .into_iter()
                                .map(|l| Limit {
                                    count: l.count.map(f),
                                    max: l.max,
                                    min: l.min,
                                    same_formation: l.same_formation,
                                    points: l.points,
                                })
                                .collect(),
                            says: a.says,
                        })
                        .collect(),
                    points: r.points.map(|p| Points {
                        value: p.value.map(&mut *f),
                        by: p
                            .by
                            .into_iter()
                            .map(|b| PointsFor {
                                units: b.units.map(f),
                                points: b.points,
                            })
                            .collect(),
                        otherwise: p.otherwise,
                    }),
                    only_in: r.only_in.into_iter().map(&mut *f).collect(),
                    except_in: r.except_in.into_iter().map(&mut *f).collect(),
                    assumed: r.assumed.map(&mut *f),
                })
                .collect(),
            opposing_units: self.opposing_units,
            opposing_units_section: self.opposing_units_section,
            opposing_units_except: self
                .opposing_units_except
                .into_iter()
                .map(|x| x.map(f))
                .collect(),
            stacking_unknown: self.stacking_unknown.map(&mut *f),
            prohibited_terrain: self
                .prohibited_terrain
                .into_iter()
                .map(&mut *f)
                .collect(),
            prohibited_terrain_section: self.prohibited_terrain_section,
            strength_splits: self.strength_splits,
        }
    }

    /// Every vocabulary reference in the ruleset, with its kind (`type`, `size`, `name`,
    /// `terrain`, `value`).
    pub fn references(&self) -> Vec<(&'static str, &S)> {
        let mut out = Vec::new();
        for r in &self.stacking {
            for f in &r.ignore {
                out.extend(f.references());
            }
            for fr in &r.free {
                out.extend(fr.units.references());
                out.extend(fr.excess_counts_as.iter().map(|s| ("size", s)));
            }
            for a in &r.any_of {
                for l in &a.all_of {
                    out.extend(l.count.references());
                }
            }
            if let Some(p) = &r.points {
                out.extend(p.value.iter().map(|s| ("value", s)));
                for b in &p.by {
                    out.extend(b.units.references());
                }
            }
            out.extend(r.only_in.iter().chain(&r.except_in).map(|s| ("terrain", s)));
        }
        for f in &self.opposing_units_except {
            out.extend(f.references());
        }
        out.extend(self.prohibited_terrain.iter().map(|s| ("terrain", s)));
        out
    }
}
