//! The VASSAL 3.7 formats, independent of any game.

pub mod deck;
pub mod encoder;
pub mod piece;
pub mod piece_name;
pub mod restore;
pub mod save;
pub mod turn;
pub mod xml;
