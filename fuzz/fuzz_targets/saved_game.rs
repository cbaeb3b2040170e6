//! Saved games and modules from arbitrary bytes: the zip reader (entries of one name, entries
//! sharing bytes, sizes that lie), every save header, the command stream and the buildFile
//! reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_vassal::archive::Archive;
use muster_vassal::listing::listing;
use muster_vassal::read::{read_module, read_save};
use muster_vassal::vassal::save::{deobfuscate, parse_stream};

fuzz_target!(|data: &[u8]| {
    // The bytes as a savedGame entry.
    if let Ok(text) = deobfuscate(data) {
        let _ = parse_stream(&text);
    }
    // The bytes as a zip: every entry, its head, and whether it streams as VASSAL reads it.
    if let Ok(mut archive) = Archive::open(data.to_vec()) {
        for name in archive.names().to_vec().iter().take(64) {
            let _ = archive.read_head(name, 24);
            let _ = archive.read(name);
            let _ = archive.check_streamed(name);
        }
    }
    // A saved game, and a module.
    let module = Archive::open(data.to_vec())
        .ok()
        .and_then(|mut archive| read_module(&mut archive).ok());
    if let Ok((saved, _)) = read_save(data.to_vec()) {
        let _ = listing(&saved, None);
        let _ = listing(&saved, module.as_ref());
    }
});
