//! Whether values are being written for the public JSON of a setup, which leaves out the
//! cells, spans, regions and resolutions only the checker reads, or whole, as a cache
//! keeps them.

use std::cell::Cell;

thread_local! {
    /// Whether this thread is writing values whole.
    static WHOLE: Cell<bool> = const { Cell::new(false) };
}

/// Is a value being written for the public JSON, which leaves out what only the checker
/// reads? The hook of serde's `skip_serializing_if` for those fields.
pub(crate) fn public<T: ?Sized>(_: &T) -> bool {
    !WHOLE.with(Cell::get)
}

/// Values are written whole on this thread while it lives.
pub(crate) struct Whole;

impl Whole {
    /// Starts writing whole.
    pub(crate) fn start() -> Whole {
        WHOLE.with(|w| w.set(true));
        Whole
    }
}

impl Drop for Whole {
    fn drop(&mut self) {
        WHOLE.with(|w| w.set(false));
    }
}
