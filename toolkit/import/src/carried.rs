//! What the import could not carry into the game's data: each component with its path in
//! the module (`Map[Main Map]/BoardPicker/Board[Map]/ZonedGrid`) and why.

use serde::Serialize;

/// One component of the module that the game's data does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotCarried {
    /// Where it is in the module, as a path of components (`Map[Main Map]/Board[Map]`).
    pub path: String,
    /// What it is (`trait macro`, `class com.example.Custom`, `grid SquareGrid`).
    pub what: String,
    /// Why it is not carried, and what stands in for it when something does.
    pub why: String,
}

/// The report of an import: every component not carried, in module order, each once.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// The components not carried.
    pub not_carried: Vec<NotCarried>,
}

impl Report {
    /// Records a component not carried (a second report of the same path and what is
    /// dropped, so that a trait shared by many pieces through a prototype is listed once
    /// per prototype).
    pub fn add(
        &mut self,
        path: impl Into<String>,
        what: impl Into<String>,
        why: impl Into<String>,
    ) {
        let item = NotCarried { path: path.into(), what: what.into(), why: why.into() };
        if !self.not_carried.iter().any(|n| n.path == item.path && n.what == item.what) {
            self.not_carried.push(item);
        }
    }
}
