//! The fonts muster draws with, shipped in the crate so output is the same everywhere.
//!
//! Liberation Sans (Regular and Bold), SIL Open Font License 1.1; see
//! `fonts/LICENSE-LiberationSans.txt`. No system font is ever looked up.

use std::sync::{Arc, OnceLock};

use resvg::usvg::fontdb;

/// The family name every scene uses.
pub const FAMILY: &str = "Liberation Sans";

/// Liberation Sans Regular.
pub static REGULAR: &[u8] = include_bytes!("../fonts/LiberationSans-Regular.ttf");
/// Liberation Sans Bold.
pub static BOLD: &[u8] = include_bytes!("../fonts/LiberationSans-Bold.ttf");

/// The font database with only the shipped fonts; generic families map to them.
pub fn database() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(BOLD.to_vec());
        db.set_sans_serif_family(FAMILY);
        db.set_serif_family(FAMILY);
        db.set_monospace_family(FAMILY);
        db.set_cursive_family(FAMILY);
        db.set_fantasy_family(FAMILY);
        Arc::new(db)
    })
    .clone()
}
