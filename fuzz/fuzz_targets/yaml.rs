//! Every YAML source kind, parsed from arbitrary text: errors, never panics or hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_model::source::{
    CountersFile, GameFile, KnownErrata, MapFile, OobFile, RulesFile, ScenarioFile,
};
use muster_model::{FileId, parse_yaml};

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let f = FileId(0);
    match kind % 7 {
        0 => drop(parse_yaml::<GameFile>(f, text)),
        1 => drop(parse_yaml::<OobFile>(f, text)),
        2 => drop(parse_yaml::<CountersFile>(f, text)),
        3 => drop(parse_yaml::<MapFile>(f, text)),
        4 => drop(parse_yaml::<ScenarioFile>(f, text)),
        5 => drop(parse_yaml::<RulesFile>(f, text)),
        _ => drop(parse_yaml::<KnownErrata>(f, text)),
    }
});
