//! The VASSAL 3.7 formats, independent of any game.

pub mod encoder;
pub mod piece;
pub mod save;
pub mod xml;
