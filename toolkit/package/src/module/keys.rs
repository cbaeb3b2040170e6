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
