//! The printed-notation parsers (unit lists, locations, names) on arbitrary text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_model::notation::{Marks, Vocabulary, parse_location, parse_name, parse_units};

fuzz_target!(|text: &str| {
    let _ = parse_units(text, &Marks::default());
    // With type and size words and counted abbreviations, so that list labels without a
    // colon, types written after a list and counts without `x` are exercised too.
    let w = |w: &str, id: &str| (w.to_string(), id.to_string());
    let words = Vocabulary {
        types: vec![w("Inf", "infantry"), w("Fld Arty", "artillery"), w("HQ", "hq")],
        sizes: vec![w("Bn", "battalion"), w("Bns", "battalion")],
    };
    let marks = Marks {
        reduced: vec!["R".into()],
        counted: vec!["SU".into()],
        words: words.clone(),
        ..Marks::default()
    };
    let _ = parse_units(text, &marks);
    let is_label = |w: &str| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit());
    let _ = parse_location(text, &is_label);
    let _ = parse_name(text, &Vocabulary::default());
    let _ = parse_name(text, &words);
});
