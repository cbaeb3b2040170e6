//! The printed-notation parsers (unit lists, locations, names) on arbitrary text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_model::notation::{Marks, Vocabulary, parse_location, parse_name, parse_units};

fuzz_target!(|text: &str| {
    let _ = parse_units(text, &Marks::default());
    let is_label = |w: &str| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit());
    let _ = parse_location(text, &is_label);
    let _ = parse_name(text, &Vocabulary::default());
});
