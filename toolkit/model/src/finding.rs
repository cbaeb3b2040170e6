//! The kinds of finding muster reports and the severity of each: one table.
//!
//! Every finding any command reports (the loader's warnings, `validate`, `errata`,
//! `build` and `check`) has a [`FindingKind`], and its [`Severity`] is a property of
//! the kind ([`FindingKind::severity`]), so no command can give the same finding another
//! level. Errors of unusable input (a YAML error, a dangling reference, a missing file)
//! are [`crate::Diagnostic`]s of severity [`Severity::Error`] with no kind: they stop the
//! game from loading.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How bad a finding or diagnostic is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Information that needs no action: the data is as printed and muster can use it.
    Info,
    /// Probably wrong, or something muster could not check or carry out: the data is
    /// usable but needs a look (`--strict` fails on it).
    Warning,
    /// Certainly wrong: the data contradicts itself or its rules (`validate` and `errata`
    /// exit 1), or, with no kind, cannot be used at all (exit 2).
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Does a finding of this severity need attention (an error or a warning)?
    pub fn needs_attention(self) -> bool {
        self != Severity::Info
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How sure a finding is that the data really is inconsistent, a separate axis from its
/// [`Severity`]: a certain finding rests on printed statements that cannot both hold, a
/// likely one on a match muster had to make (a misspelt name, a misplaced label), a
/// possible one on weak evidence (a counter no scenario uses).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Certainty {
    /// Printed statements that cannot all hold, read with no interpretation.
    Certain,
    /// A mismatch that needed a match or a reading muster made.
    Likely,
    /// Weak evidence: worth a look, often as printed on purpose.
    Possible,
    /// No erratum is claimed: what muster could not check (a zone whose hexes the text
    /// does not print, a limit after a location, entry areas no map names).
    Unchecked,
}

impl Certainty {
    /// `certain`, `likely` or `possible`.
    pub fn as_str(self) -> &'static str {
        match self {
            Certainty::Certain => "certain",
            Certainty::Likely => "likely",
            Certainty::Possible => "possible",
            Certainty::Unchecked => "unchecked",
        }
    }

    /// One step less sure: certain becomes likely, likely becomes possible; what is not
    /// checked stays so.
    pub fn weaker(self) -> Certainty {
        match self {
            Certainty::Certain => Certainty::Likely,
            Certainty::Unchecked => Certainty::Unchecked,
            _ => Certainty::Possible,
        }
    }
}

impl fmt::Display for Certainty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! kinds {
    ($($(#[doc = $doc:literal])* $variant:ident = $id:literal, $severity:ident;)*) => {
        /// What a finding is about. Serialised as its kebab-case id (`unknown-unit`).
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize,
            Deserialize, JsonSchema,
        )]
        #[non_exhaustive]
        pub enum FindingKind {
            $($(#[doc = $doc])* #[serde(rename = $id)] $variant,)*
        }

        impl FindingKind {
            /// Every kind, in the order of the table.
            pub const ALL: &'static [FindingKind] = &[$(FindingKind::$variant),*];

            /// The kind's id, as reports and `errata.yaml` write it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(FindingKind::$variant => $id,)*
                }
            }

            /// The severity of every finding of this kind.
            pub fn severity(self) -> Severity {
                match self {
                    $(FindingKind::$variant => Severity::$severity,)*
                }
            }

            /// What the kind means, in one line (the first line of its documentation).
            pub fn describe(self) -> &'static str {
                match self {
                    $(FindingKind::$variant => first_line(&[$($doc),*]).trim(),)*
                }
            }
        }
    };
}

const fn first_line(docs: &[&'static str]) -> &'static str {
    match docs.first() {
        Some(d) => d,
        None => "",
    }
}

kinds! {
    // Errors: the data certainly contradicts itself or the game's rules.
    /// A printed hex holds more units than the stacking rules allow.
    Overstack = "overstack", Error;
    /// Units of opposing sides stand in one hex, which the rules forbid.
    OpposingUnits = "opposing-units", Error;
    /// A printed hex label does not parse or lies off the map.
    BadHex = "bad-hex", Error;
    /// A printed hex, or a counter's hex in a saved game, whose terrain no unit may enter.
    ProhibitedHex = "prohibited-hex", Error;
    /// Printed strengths of a divided unit that no permitted division gives.
    SplitStrength = "split-strength", Error;
    /// An HQ counter that names another formation than its own.
    HqOfOtherFormation = "hq-of-other-formation", Error;
    /// A counter of a saved position stands outside the hexes its printed setup line allows.
    OutsideSetup = "outside-setup", Error;
    /// A reinforcement of a saved position stands on the map before its turn.
    EarlyReinforcement = "early-reinforcement", Error;
    /// A counter of a saved position is in a holding box or deck it does not start in.
    WrongBox = "wrong-box", Error;
    /// A counter the setup places is on no map of a saved position, or not in it at all.
    Missing = "missing", Error;
    /// A counter of a saved position shows another strength than the scenario starts it with.
    WrongStrength = "wrong-strength", Error;

    // Warnings: probably wrong, or not carried out.
    /// A printed unit that names no counter of the manifest.
    UnknownUnit = "unknown-unit", Warning;
    /// A printed list that reads as units run together (a missing comma).
    UnparsableList = "unparsable-list", Warning;
    /// A unit found, but printed otherwise in the manifest (a word of its designation).
    NameDiffers = "name-differs", Warning;
    /// A unit printed with other type words than its counter, in no table the rulebook prints.
    TypeDiffers = "type-differs", Warning;
    /// A unit printed with another size word than its counter, in no table the rulebook prints.
    SizeDiffers = "size-differs", Warning;
    /// A unit listed under a formation other than its own.
    OtherFormation = "other-formation", Warning;
    /// A unit listed in the setup of the side it does not belong to.
    OtherSide = "other-side", Warning;
    /// A combat unit or HQ in no formation and without an independent marking.
    NoFormation = "no-formation", Warning;
    /// A counter whose nationality differs from the rest of its formation's, with no mark or reason recorded.
    UnexpectedNationality = "unexpected-nationality", Warning;
    /// A counter listed under a side its nationality or its formation does not belong to.
    UnexpectedSide = "unexpected-side", Warning;
    /// A chit of a deck whose HQ or unit no scenario in which the deck is played places.
    ChitWithoutUnit = "chit-without-unit", Warning;
    /// A printed setup row with a location and no units.
    NoUnits = "no-units", Warning;
    /// A unit set up elsewhere than in a scenario with the same start, or left out of it, its formation alike.
    ScenariosDiffer = "scenarios-differ", Warning;
    /// A parenthesised mark after a unit that the game's notation does not declare.
    UnknownMark = "unknown-mark", Warning;
    /// A unit marked as starting reduced whose counter has no reduced side.
    NoReducedSide = "no-reduced-side", Warning;
    /// A unit listed more often in one scenario than the manifest has counters of it.
    ListedTwice = "listed-twice", Warning;
    /// A unit set up at the start that also arrives as a reinforcement.
    SetupAndReinforcement = "setup-and-reinforcement", Warning;
    /// A reinforcement entry area that no map names.
    UnknownArea = "unknown-area", Warning;
    /// A hex printed with a place name that the maps put elsewhere, or a place no map names; the units stand on the printed hex.
    PlaceDiffers = "place-differs", Warning;
    /// A printed strength whose numbers are not as many as the counter values it stands for; it sets no value.
    UnreadStrength = "unread-strength", Warning;
    /// A printed turn (a scenario's first or last turn, a reinforcement's) that the turn track does not have; an arrival at it is not checked against the turn.
    UnknownTurn = "unknown-turn", Warning;
    /// A limit printed after a location (`w/i 8 B51.30, but west or south of Boatswain’s Swamp`) that muster cannot check; the units stand in the location, perhaps outside the limit.
    UncheckedLimit = "unchecked-limit", Warning;
    /// A road, track or railway whose printed hexes, in order, step between hexes that are not neighbours: a wrong map stagger or numbering, or a hex left out.
    PathGap = "path-gap", Warning;
    /// A location that fits no placement form; its units are not placed.
    UnparsedLocation = "unparsed-location", Warning;
    /// A zone, stretch or map edge whose hexes the rulebook does not print; its units are not placed.
    UnprintedZone = "unprinted-zone", Warning;
    /// A location muster cannot turn into hexes (the game has no map grid, it names no formation, none is printed); its units are not placed.
    UnresolvedLocation = "unresolved-location", Warning;
    /// Units that do not fit on the hexes their location allows; they are not placed.
    Infeasible = "infeasible", Warning;
    /// A number the text states that the printed lists contradict.
    CountMismatch = "count-mismatch", Warning;
    /// Printed statements that cannot all hold, as the data records them.
    Contradiction = "contradiction", Warning;
    /// A game with scenarios and no stacking rules: stacking is not checked.
    NoStackingRules = "no-stacking-rules", Warning;
    /// A folder under the sources that is not a game (it has no `game.yaml`).
    NotAGame = "not-a-game", Warning;
    /// A file in a game folder muster does not read: unknown YAML, an unknown document.
    UnreadFile = "unread-file", Warning;
    /// A map file that the board in `game.yaml` does not place.
    UnplacedMap = "unplaced-map", Warning;
    /// A table row with more cells than the table's header, or fewer in a table that does not say it stops short.
    RaggedTable = "ragged-table", Warning;
    /// Counter text that does not fit its field even at the smallest size allowed; it is drawn past the field's edge.
    TextOverflow = "text-overflow", Warning;
    /// Counters of opposing sides whose colours differ by less than 20 in lightness (CIE L*) and that no stripe sets apart: in greyscale, or to a colour-blind player, the sides look alike.
    SidesAlike = "sides-alike", Warning;
    /// A map legend that covers hexes, where the map file's `legend_at` puts it.
    LegendCoversHexes = "legend-covers-hexes", Warning;
    /// A map legend that reaches beyond its sheet, where the map file's `legend_at` puts it.
    LegendOffSheet = "legend-off-sheet", Warning;
    /// A sheet a map file's `joins` names that the board does not place beside the map on that edge; the sheets are drawn apart.
    MapJoinApart = "map-join-apart", Warning;
    /// An entry of a saved game that muster could not read, or only in part.
    UnreadEntry = "unread-entry", Warning;
    /// A piece or deck of a saved game whose location muster cannot tell, as the module uses a class that is not VASSAL's own for its map or grid.
    UnmodelledComponent = "unmodelled-component", Warning;
    /// A saved game made with another module than the one it is checked with.
    OtherModule = "other-module", Warning;
    /// A piece of a saved game that carries a counter id the module's ruleset does not know.
    UnknownCounter = "unknown-counter", Warning;
    /// A piece of a saved game said to stand on a hex that the board does not have.
    UnknownLocation = "unknown-location", Warning;
    /// A module whose embedded checker speaks interface 1, which sees the hexes only.
    OldChecker = "old-checker", Warning;
    /// A module whose content changed since its version was first built, its version unchanged.
    VersionUnchanged = "version-unchanged", Warning;
    /// A piece of a saved game carried to a new release whose palette has no slot of its gpid: it stays as it was saved.
    PieceNotInModule = "piece-not-in-module", Warning;
    /// A predefined setup of a module whose file the module does not hold.
    MissingSetupFile = "missing-setup-file", Warning;
    /// A trait of a piece carried to a new release that the release defines otherwise, with no layer or label name to match it by: it starts as the release defines it.
    StateReset = "state-reset", Warning;

    // Information: as printed, nothing to do.
    /// A counter of a saved game whose printed values the module it is checked with gives otherwise (a new release).
    ChangedCounter = "changed-counter", Info;
    /// A counter of a saved game that the module it is checked with sets up elsewhere than the release before it did (its setup line moved).
    MovedSetup = "moved-setup", Info;
    /// A number the text states that the lists cannot confirm: they stop short, are not printed, or are no list muster counts.
    CountIncomplete = "count-incomplete", Info;
    /// Where the printed order of battle, manifest, a scenario or a table stops short.
    Incomplete = "incomplete", Info;
    /// Map errata the rules themselves state.
    MapErratum = "map-erratum", Info;
    /// Two counters printed alike.
    DuplicateName = "duplicate-name", Info;
    /// A counter no scenario uses.
    Unused = "unused", Info;
    /// A printed unit that names only its type (`Col.`): muster uses the next counter of it.
    UnitByType = "unit-by-type", Info;
    /// A printed item that is no counter (a command chit, replacement points, a withdrawal, `one German tank`, `Two units`): no counter is placed for it.
    NotACounter = "not-a-counter", Info;
    /// An optional counter field left off because its text does not fit even at the smallest size allowed.
    TextOmitted = "text-omitted", Info;
    /// A counter whose printed name states no unit type.
    UnknownType = "unknown-type", Info;
    /// A way of naming units the rulebook uses for several formations, reported once.
    NamingHabit = "naming-habit", Info;
    /// A rule the public text does not give, recorded as unknown in `rules.yaml` with its reason: it is not checked.
    UnknownRule = "unknown-rule", Info;
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<muster_rules::RuleKind> for FindingKind {
    /// The kind of a finding of the rules checker.
    fn from(k: muster_rules::RuleKind) -> Self {
        match k {
            muster_rules::RuleKind::Stacking => FindingKind::Overstack,
            muster_rules::RuleKind::OpposingUnits => FindingKind::OpposingUnits,
            muster_rules::RuleKind::Setup => FindingKind::OutsideSetup,
        }
    }
}

impl FromStr for FindingKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        FindingKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("`{s}` is not a kind of finding"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_from_its_id_and_has_a_description() {
        for k in FindingKind::ALL {
            assert_eq!(k.as_str().parse::<FindingKind>(), Ok(*k));
            assert_eq!(
                serde_json::to_value(k).unwrap_or_default(),
                serde_json::json!(k.as_str())
            );
            assert!(!k.describe().trim().is_empty(), "{k}");
        }
        assert!("nonsense".parse::<FindingKind>().is_err());
    }

    #[test]
    fn severities_order_from_information_to_errors() {
        assert!(
            Severity::Info < Severity::Warning && Severity::Warning < Severity::Error
        );
        assert_eq!(FindingKind::Overstack.severity(), Severity::Error);
        assert_eq!(FindingKind::UnknownUnit.severity(), Severity::Warning);
        assert_eq!(FindingKind::Unused.severity(), Severity::Info);
        assert!(!Severity::Info.needs_attention() && Severity::Warning.needs_attention());
    }

    #[test]
    fn certainties_order_from_certain_to_possible() {
        assert!(Certainty::Certain < Certainty::Likely);
        assert!(Certainty::Likely < Certainty::Possible);
        assert_eq!(Certainty::Certain.weaker(), Certainty::Likely);
        assert_eq!(Certainty::Possible.weaker(), Certainty::Possible);
        assert_eq!(Certainty::Unchecked.weaker(), Certainty::Unchecked);
        assert!(Certainty::Possible < Certainty::Unchecked);
        assert_eq!(
            serde_json::to_value(Certainty::Likely).unwrap_or_default(),
            serde_json::json!("likely")
        );
    }
}
