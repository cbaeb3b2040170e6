//! The key strokes of a module: the keyboard shortcuts players see on counter menus, and
//! the named keys that components fire at each other.
//!
//! A named key is written `code,0,Name`; VASSAL ignores the code and allocates one per
//! distinct name from U+E000 (`NamedKeyManager`), so the codes here only keep the file
//! stable. Later automation (Trigger Actions, the map's move key) should add its own named
//! keys here, next to the ones already taken.

use crate::vassal::piece::{CTRL, key};

/// A key stroke as VASSAL writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The Java key code (or, for a named key, a placeholder from U+E000).
    pub code: u32,
    /// Java modifiers (`130` is Ctrl).
    pub modifiers: u32,
    /// The name of a named key; empty for a plain keyboard shortcut.
    pub name: &'static str,
}

impl Key {
    /// `code,modifiers` or `code,modifiers,Name`.
    pub fn encode(&self) -> String {
        if self.name.is_empty() {
            key(self.code, self.modifiers)
        } else {
            format!("{},{},{}", self.code, self.modifiers, self.name)
        }
    }
}

const fn ctrl(letter: u8) -> Key {
    Key { code: letter as u32, modifiers: CTRL, name: "" }
}

const fn named(index: u32, name: &'static str) -> Key {
    Key { code: 0xE000 + index, modifiers: 0, name }
}

/// Turn the counter over (a two-sided counter's Layer).
pub const FLIP: Key = ctrl(b'F');
/// Show the reduced side.
pub const STEP_LOSS: Key = ctrl(b'L');
/// Send the counter to its side's dead pile.
pub const ELIMINATE: Key = ctrl(b'E');
/// Put a copy of the counter beside it.
pub const CLONE: Key = ctrl(b'C');
/// Remove the counter from the game.
pub const DELETE: Key = ctrl(b'D');
/// Mark the counter moved or not moved.
pub const MARK_MOVED: Key = ctrl(b'M');
/// Show or hide the counter's movement trail.
pub const TRAIL: Key = ctrl(b'T');

/// Fired by the turn tracker to step back when it has gone past the last turn.
pub const TURN_BACK: Key = named(0, "TurnBack");
/// Fired by the turn tracker to step forward when it has gone before the first turn.
pub const TURN_FORWARD: Key = named(1, "TurnForward");
/// The main map's key for every counter that ends a move on it (its `moveKey`).
pub const MOVED: Key = named(2, "MovedOnMainMap");
/// Sent by the Check rules button to every counter of the main map.
pub const CHECK_ALL: Key = named(3, "CheckRules");
/// Checks the hex of the counter against the stacking rules, for the counter's side.
pub const CHECK_SIDE: Key = named(4, "CheckStacking");
/// Checks the hex of the counter against the rule on opposing units.
pub const CHECK_HEX: Key = named(5, "CheckOpposing");
/// Empties the lists of counters the checks name.
pub const CLEAR_UNITS: Key = named(6, "ClearRuleUnits");
/// Lists the counters of the piece's side in its hex, when a stacking rule is broken there.
pub const COLLECT_SIDE: Key = named(7, "CollectSideUnits");
/// Lists every counter in the piece's hex, when opposing units stand there.
pub const COLLECT_HEX: Key = named(8, "CollectHexUnits");
/// Starts the Global Key Command that asks the side's counters in the hex for their names.
pub const GATHER_SIDE: Key = named(9, "GatherSideUnits");
/// Starts the Global Key Command that asks every counter in the hex for its name.
pub const GATHER_HEX: Key = named(10, "GatherHexUnits");
/// A counter adds its name to the list of the side's counters.
pub const NAME_SIDE: Key = named(11, "NameSideUnit");
/// A counter adds its name to the list of the hex's counters.
pub const NAME_HEX: Key = named(12, "NameHexUnit");
/// A counter checks that it stands where its setup line allows, while the setup is checked.
pub const CHECK_SETUP: Key = named(13, "CheckSetup");
/// Asks the player for the counter's strength (its Text Label `Strength`).
pub const CHANGE_STRENGTH: Key = named(14, "ChangeStrength");
